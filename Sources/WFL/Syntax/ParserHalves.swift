/// Reading a large file in two halves at once, on two threads (docs/performance.md, "The parse in
/// two halves").
///
/// The file is cut after a line that is `}` alone, a little past its middle: most likely where a
/// top-level block ends (a `}` at the start of a line that closes an inner block leaves the first
/// half with a block open, an error: the file is then read again by one parser). Both halves are lexed at once, the first as if the file ended at the cut; then
/// the rest of the first half is read here while the second is read on another thread. Joined,
/// the two give what one parser reading the whole file gives, in three ways:
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

    /// Where to cut `source` in two (just after a line that is `}` alone, the nearest after four
    /// sevenths of the way, or else before), or nil to read it in one piece. The second half is
    /// the smaller: the thread that reads it allocates in memory of its own that the allocator
    /// gives back between parses, so its nodes cost more (docs/performance.md).
    static func halfway(_ source: SourceFile) -> Int? {
        let n = source.bytes.count
        guard n >= halvesThreshold else { return nil }
        return source.bytes.withUnsafeBufferPointer { b -> Int? in
            let brace = UInt8(ascii: "}"), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
            // The offset after the line break of a `}` line whose line break is at `k`.
            func cut(after k: Int) -> Int? {
                guard b[k] == lf, k + 2 < n, b[k + 1] == brace else { return nil }
                if b[k + 2] == lf { return k + 3 < n ? k + 3 : nil }
                if b[k + 2] == cr, k + 3 < n, b[k + 3] == lf { return k + 4 < n ? k + 4 : nil }
                return nil
            }
            let mark = n / 7 * 4
            for k in mark..<n { if let c = cut(after: k) { return c } }
            for k in stride(from: mark - 1, through: 0, by: -1) { if let c = cut(after: k) { return c } }
            return nil
        }
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
        // 1. Both halves lexed at once, and the opening of the first (its statements before its
        //    first `layout` or `section`: the names and settings that the whole file shares) read.
        //    And how many bindings the rest of the first half will add, counted in its tokens.
        let (opened, secondLexed) = LargeStack.concurrently({ () -> (Parser, [Statement], Int) in
            var p = Parser(source: source, lexed: Lexer.tokenize(source, upTo: cut), options: options)
            let opening = p.parseStatements(until: .firstBlock)
            return (p, opening, p.bindingsAhead())
        }, { Lexer.tokenize(source, from: cut) })
        var (first, statements, ahead) = opened
        if first.hadError { return (Parser.parseWhole(source, options), .again) }
        let way: HalvesWay
        if first.at(.eof) {
            // The opening is the whole first half: no work to share.
            first.readOn(secondLexed)
            statements += first.parseStatements()
            way = .readOn
        } else {
            // 2. The rest of the first half here, and the second half on the other thread by a copy
            //    of the parser as the opening left it; both stop at their first error.
            //    The second numbers its bindings after those the first will add, so that its
            //    tree needs no change once joined.
            let opening = first
            let (rest, secondRead) = LargeStack.concurrently({ first.parseStatements(until: .firstError) }, { () -> (Parser, [Statement]) in
                var p = opening.forked(onto: secondLexed, after: ahead)
                let read = p.parseStatements(until: .firstError)
                return (p, read)
            })
            statements += rest
            let (second, secondStatements) = secondRead
            if first.hadError { return (Parser.parseWhole(source, options), .again) }
            // (The count read off the tokens is exact for a half read without an error; checked all the same.)
            let base = opening.bindings.count + ahead
            if !second.hadError, first.bindings.count == base, second.owesNothing(to: first, since: opening) {
                first.bindings += second.bindings[base...]
                first.diagnostics += second.diagnostics
                first.file.firstLayout = first.file.firstLayout ?? second.file.firstLayout
                first.file.topExpects += second.file.topExpects[opening.file.topExpects.count...]
                statements.reserveCapacity(statements.count + secondStatements.count)
                statements += secondStatements
                way = .joined
            } else {
                first.readOn(secondLexed)
                statements += first.parseStatements()
                way = .readOn
            }
        }
        statements = Parser.exactly(statements)
        first.finishFile(statements)
        return (ParseResult(tree: SyntaxTree(statements: statements, span: Span(0, source.bytes.count), bindings: first.bindings),
                            diagnostics: first.diagnostics, incomplete: first.incomplete), way)
    }

    /// One parser's reading of the whole file (`expressionEntry` as in `parse`).
    static func parseWhole(_ source: SourceFile, _ options: PipelineOptions, expressionEntry: Int? = nil) -> ParseResult {
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
