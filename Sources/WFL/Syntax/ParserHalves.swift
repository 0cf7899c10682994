/// Reading a large file in two halves at once, on two threads (docs/performance.md, "The parse in
/// two halves").
///
/// The file is cut after a line that is `}` alone, near a share of it that the parses before
/// have learnt (four sevenths at first): most likely where a top-level block ends (a `}` at the
/// start of a line that closes an inner block leaves the first half with a block open, an error:
/// the file is then read again by one parser). This thread lexes the first half, as if the file
/// ended at the cut, and reads its opening; another lexes the second half at once, then takes a
/// copy of this parser as the opening left it and reads on, while this thread reads the rest of
/// the first half. Joined, the two give what one parser reading the whole file gives, in three
/// ways:
/// - The first half read without an error: then no block, bracket, comment or string runs past the
///   cut (each would be an error at the half's end), so the first parser read exactly what one
///   parser reads up to the cut, and stands at the top level there.
/// - The second half is read by a copy of the first parser made once it has read the file's
///   opening (the statements before the first `layout` or `section`: the names, settings and
///   `attach` blocks that the whole file shares), with its bindings numbered after those that the
///   rest of the first half adds (counted in its tokens). When it read without an error and owes
///   nothing to the rest of the first half (none of its words is a name that the rest binds at
///   the top level, no top-level setting is set in both, no layout, top-level section or
///   top-level `attach` block is named in both, layouts and top-level sections do not meet across
///   the cut, and the count of bindings was right), its statements are what one parser reads
///   after the cut, as they stand.
/// - Otherwise the first parser reads on over the second half's tokens, as one parser would
///   have; and when the first half had an error, one parser reads the whole file again.
/// ParserHalvesTests holds the three to one parser's result, every fixture and sample cut at its
/// lines.
extension Parser {
    /// Files smaller than this are read by one parser: a thread costs more than it saves there.
    static let halvesThreshold = 100_000

    /// Where to cut `source` in two (just after a line that is `}` alone, the nearest after the
    /// share of the file that the first thread takes, or else before), or nil to read it in one
    /// piece. The share, in thousandths, is learnt from the parses of files of about the same
    /// size before (`balance`) unless given; it starts at four sevenths, since the second thread
    /// reads the slower on this machine, the more so the larger the file (docs/performance.md).
    static func halfway(_ source: SourceFile, share: Int? = nil) -> Int? {
        let n = source.bytes.count
        guard n >= halvesThreshold else { return nil }
        let share = share ?? learntShare(ofFileOf: n) ?? 571
        return source.bytes.withUnsafeBufferPointer { b -> Int? in
            let brace = UInt8(ascii: "}"), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
            // The offset after the line break of a `}` line whose line break is at `k`.
            func cut(after k: Int) -> Int? {
                guard b[k] == lf, k + 2 < n, b[k + 1] == brace else { return nil }
                if b[k + 2] == lf { return k + 3 < n ? k + 3 : nil }
                if b[k + 2] == cr, k + 3 < n, b[k + 3] == lf { return k + 4 < n ? k + 4 : nil }
                return nil
            }
            let mark = n / 1000 * share
            for k in mark..<n { if let c = cut(after: k) { return c } }
            for k in stride(from: mark - 1, through: 0, by: -1) { if let c = cut(after: k) { return c } }
            return nil
        }
    }

    /// The first thread's share of a file, in thousandths, for each size class: where the last
    /// parses of files of that size would have had the two threads finish together (the second
    /// thread's allocations cost it more on a larger file).
    static let balance = Guarded([Int](repeating: 571, count: 8))

    /// The share of a file of `bytes` bytes that the first thread would take now, in
    /// thousandths, or nil when such a file is read by one parser (for the benchmark's notes).
    package static func learntShare(ofFileOf bytes: Int) -> Int? {
        bytes < halvesThreshold ? nil : balance.withLock { $0[sizeClass(bytes)] }
    }

    /// A file's size class: 0 below 200 KB (the tests read small files in halves too), then one
    /// more each time the size doubles, up to 7.
    static func sizeClass(_ bytes: Int) -> Int {
        min(7, max(0, Int.bitWidth - (bytes / halvesThreshold).leadingZeroBitCount - 1))
    }

    /// The share in thousandths that would have had the two threads finish together, given the
    /// bytes each read and the seconds each took, a quarter of the way from `share`, the one
    /// used (one parse's times swing with the machine's load: docs/performance.md); between 300
    /// and 850. `share` itself when a time is not a positive number.
    static func nextShare(_ share: Int, first: Int, in firstSeconds: Double, second: Int, in secondSeconds: Double) -> Int {
        guard firstSeconds > 0, secondSeconds > 0, first > 0, second > 0 else { return share }
        let a = Double(first) / firstSeconds, b = Double(second) / secondSeconds
        let even = 1000 * a / (a + b)
        guard even.isFinite else { return share }
        return min(850, max(300, (3 * share + Int(even.rounded())) / 4))
    }

    /// Reads `source` as two halves, cut at `cut` (a line start), on two threads; the same result
    /// as one parser's, whatever the cut.
    package static func parseInHalves(_ source: SourceFile, at cut: Int, options: PipelineOptions = .standard) -> ParseResult {
        readInHalves(source, at: cut, options: options).result
    }

    /// Which of the three ways (the type's comment) a parse in halves went.
    enum HalvesWay { case joined, readOn, again }

    /// `parseInHalves`, and which way it went (for the tests).
    static func readInHalves(_ source: SourceFile, at cut: Int, options: PipelineOptions) -> (result: ParseResult, way: HalvesWay) {
        // The first thread's parser as it stands after the file's opening, with the count of
        // bindings ahead of the cut, or nil when the second thread has nothing to read.
        let opened = Handoff<(parser: Parser, ahead: Int)>()
        let clock = ContinuousClock()
        let (firstHalf, secondHalf) = LargeStack.concurrently({ () -> FirstHalf in
            let start = clock.now
            // 1. The first half lexed (the second is, at once, on the other thread), and its
            //    opening read (the statements before its first `layout` or `section`: the names
            //    and settings that the whole file shares).
            var p = Parser(source: source, lexed: Lexer.tokenize(source, upTo: cut), options: options)
            var statements = p.parseStatements(until: .firstBlock)
            guard !p.hadError, !p.at(.eof) else {
                opened.give(nil)
                return FirstHalf(parser: p, statements: statements, opening: nil, ahead: 0, seconds: 0)
            }
            // 2. How many bindings the rest of the first half will add, counted in its tokens: the
            //    second thread numbers its own after them, so that its tree needs no change once
            //    joined. Then the rest of the first half, here, while the second thread reads
            //    its half with a copy of this parser; both stop at their first error.
            let ahead = p.bindingsAhead()
            let opening = p
            opened.give((opening, ahead))
            statements += p.parseStatements(until: .firstError)
            return FirstHalf(parser: p, statements: statements, opening: opening, ahead: ahead, seconds: seconds(clock.now - start))
        }, { () -> SecondHalf in
            let start = clock.now
            let lexed = Lexer.tokenize(source, from: cut)
            let waitFrom = clock.now
            guard let (opening, ahead) = opened.take() else { return SecondHalf(lexed: lexed, read: nil, seconds: 0) }
            let waited = clock.now - waitFrom
            var p = opening.forked(onto: lexed, after: ahead)
            let read = p.parseStatements(until: .firstError)
            return SecondHalf(lexed: lexed, read: (p, read), seconds: seconds(clock.now - start - waited))
        })
        var first = firstHalf.parser, statements = firstHalf.statements
        if first.hadError { return (Parser.parseWhole(source, options), .again) }
        var way = HalvesWay.readOn
        if let opening = firstHalf.opening, let (second, secondStatements) = secondHalf.read {
            // 3. Joined when that is one parser's result (the type's comment); otherwise the
            //    first parser reads on over the second half's tokens.
            let base = opening.bindings.count + firstHalf.ahead
            // (The count read off the tokens is exact for a half read without an error; checked all the same.)
            if !second.hadError, first.bindings.count == base, second.owesNothing(to: first, since: opening) {
                first.bindings += second.bindings[base...]
                first.diagnostics += second.diagnostics
                first.file.firstLayout = first.file.firstLayout ?? second.file.firstLayout
                first.file.topExpects += second.file.topExpects[opening.file.topExpects.count...]
                statements.reserveCapacity(statements.count + secondStatements.count)
                statements += secondStatements
                way = .joined
                let n = source.bytes.count, size = Parser.sizeClass(n)
                Parser.balance.withLock {
                    $0[size] = Parser.nextShare($0[size], first: cut, in: firstHalf.seconds, second: n - cut, in: secondHalf.seconds)
                }
            }
        }
        if way == .readOn {
            // Not joined, or the opening was the whole first half (no work to share).
            first.readOn(secondHalf.lexed)
            statements += first.parseStatements()
        }
        statements = Parser.exactly(statements)
        first.finishFile(statements)
        return (ParseResult(tree: SyntaxTree(statements: statements, span: Span(0, source.bytes.count), bindings: first.bindings),
                            diagnostics: first.diagnostics, incomplete: first.incomplete), way)
    }

    /// What the first thread read: its parser, its statements, the parser as it stood after the
    /// opening (nil when there was nothing after it, or an error), the bindings it counted ahead
    /// of the cut, and the seconds it took.
    struct FirstHalf {
        var parser: Parser
        var statements: [Statement]
        var opening: Parser?
        var ahead: Int
        var seconds: Double
    }

    /// What the second thread read: the second half's tokens, its parser and statements (nil
    /// when the first thread had nothing for it to read), and the seconds it worked (its wait
    /// for the first thread's opening left out).
    struct SecondHalf {
        var lexed: Lexer.Output
        var read: (Parser, [Statement])?
        var seconds: Double
    }

    static func seconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) + Double(atto) * 1e-18
    }

    /// One parser's reading of the whole file (`expressionEntry` as in `parse`), on the calling
    /// thread whatever the file's size (`wfl-bench parse` times it beside the halves).
    package static func parseWhole(_ source: SourceFile, _ options: PipelineOptions, expressionEntry: Int? = nil) -> ParseResult {
        var p = Parser(source: source, options: options)
        p.expressionEntry = expressionEntry
        let tree = p.parseFile()
        return ParseResult(tree: tree, diagnostics: p.diagnostics, incomplete: p.incomplete)
    }

    /// Goes on over the second half's tokens, as one parser reading the whole file would (this
    /// parser has read the first half to its end without an error).
    mutating func readOn(_ lexed: Lexer.Output) {
        tokens = lexed.tokens
        lexErrors = lexed.errors
        pos = 0
        braceBalance = nil
        // `prevEnd` stays where reaching the cut left it, as one parser would have it.
    }

    /// A copy of this parser (between two top-level statements, with no error) that reads the
    /// tokens after a cut on its own: what has been bound and checked so far is kept; what
    /// belongs to the tokens read, or may not be shared between two threads, is new. Its
    /// bindings are numbered from `skipped` places further on (rows that nothing names, for the
    /// bindings of the statements before the cut; they are dropped when the halves are joined).
    func forked(onto lexed: Lexer.Output, after skipped: Int) -> Parser {
        var p = self
        p.bindings += repeatElement(Binding(kind: .value, span: .point(0)), count: skipped)
        p.tokens = lexed.tokens
        p.lexErrors = lexed.errors
        p.pos = 0
        p.prevEnd = lexed.tokens.first?.start ?? 0
        p.diagnostics = []
        p.braceBalance = nil
        p.scratchExprs = ScratchStack()
        p.scratchOperands = ScratchStack()
        p.scratchStatements = ScratchStack()
        p.argumentStore = nil
        return p
    }

    /// How many bindings the statements from the current token on add, when they read without
    /// an error: each `let`'s name and the parameters of a function (`let f(a, b)`).
    func bindingsAhead() -> Int {
        tokens.withUnsafeBufferPointer { t in
            var n = 0, k = pos
            while k < t.count {
                if t[k].kind == .kwLet {
                    n += 1
                    if k + 2 < t.count, t[k + 1].kind == .identifier, t[k + 2].kind == .lParen {
                        k += 3
                        while k < t.count, t[k].kind != .rParen {
                            if t[k].kind == .identifier { n += 1 }
                            k += 1
                        }
                    }
                }
                k += 1
            }
            return n
        }
    }

    /// True when this parser reported an error (names' errors are reported by the end of each
    /// statement, and reaching the end with something open is one too).
    var hadError: Bool { diagnostics.contains { $0.severity == .error } }

    /// True when this parser, forked from `opening` onto the second half, read it as one parser
    /// does after `first` has read on from `opening` to the cut (see the type's comment): nothing
    /// that `first` added after the opening touches what this parser read.
    func owesNothing(to first: Parser, since opening: Parser) -> Bool {
        // What `first` bound at the top level after the opening is on its stack above the opening's.
        for entry in first.bindingStack[opening.bindingStack.count...] where names.contains(first.names.strings[Int(entry.id)]) {
            return false
        }
        guard first.scopes[0].propertyMask & scopes[0].propertyMask == opening.scopes[0].propertyMask else { return false }
        let a = first.file, b = file, o = opening.file
        if a.firstSection != nil && b.firstLayout != nil || a.firstLayout != nil && b.firstSection != nil { return false }
        // A name that both halves added (each holds the opening's names too).
        func disjoint(_ x: [String: Span], _ y: [String: Span], _ both: [String: Span]) -> Bool {
            !x.keys.contains { y[$0] != nil && both[$0] == nil }
        }
        return disjoint(a.layoutNames, b.layoutNames, o.layoutNames) && disjoint(a.sectionNames, b.sectionNames, o.sectionNames)
            && disjoint(a.attachNames, b.attachNames, o.attachNames)
    }
}
