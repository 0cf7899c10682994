/// What parsing a file gives: the tree (with `.invalid` where errors were), every diagnostic of
/// lexing and parsing in source order, and whether the input ended with a block, a bracket or an
/// expression still open (the REPL reads more lines then).
package struct ParseResult: Sendable {
    package var tree: SyntaxTree
    package var diagnostics: [Diagnostic]
    /// True when an error came from reaching the end of the input with something still open.
    package var incomplete: Bool
}

/// A recursive-descent parser of the grammar of docs/language.md, one function per rule of
/// `grammar/wfl.ebnf` with the rule in a comment above it (the five levels of binary operators
/// share one precedence climber, `chain(level:)`, which carries their five rules). The core is
/// here; statements, settings, expressions and names are extensions in the `Parser*.swift` files
/// beside this one.
///
/// Errors are reported once per mistake: the first error of a statement puts the parser in panic
/// mode, which silences it until it has skipped to the next statement. Names are resolved, once,
/// as each statement is read (a `let` is visible to the statements after it in its block and the
/// blocks inside): each gets the index of its binding, or an error with "did you mean"
/// suggestions over what is visible there.
package struct Parser {
    /// The deepest nesting of parentheses, brackets, calls, unary operators and conditionals.
    package static let maxDepth = 256
    /// The deepest nesting of blocks the parser reads (a correct file needs two: a layout and its
    /// sections); deeper blocks are already errors, and are stepped over.
    static let maxBlockDepth = 32

    /// Parses a whole file.
    ///
    /// `expressionEntry` is where an `expect` stands that wraps an expression typed alone (the
    /// REPL reads one so, to give it the session's names): a mistake there is worded as one about
    /// an expression.
    package static func parse(_ source: SourceFile, expressionEntry: Int? = nil, options: PipelineOptions = .standard) -> ParseResult {
        if expressionEntry == nil, let split = Parser.halfway(source) { return parseInHalves(source, at: split, options: options) }
        return parseWhole(source, options, expressionEntry: expressionEntry)
    }

    /// Where a statement stands.
    enum Context {
        case file, layout, section, attach, update
        /// Inside a `group` block and an `item` block (ParserGroups.swift).
        case group, item
        /// Inside `appear { }` and `disappear { }` (ParserAppear.swift).
        case appear, disappear
        /// Inside `scroll { }` (ParserScroll.swift).
        case scroll

        var name: String {
            switch self {
            case .file: return "the top level"
            case .layout: return "a layout"
            case .section: return "a section"
            case .attach: return "an 'attach' block"
            case .appear: return "an 'appear' block"
            case .disappear: return "a 'disappear' block"
            case .update: return "an 'update' block"
            case .group: return "a 'group' block"
            case .item: return "an 'item' block"
            case .scroll: return "a 'scroll' block"
            }
        }
    }

    /// What one open block knows: its names and the properties set in it.
    struct Scope {
        /// Where this block's bindings start in `bindingStack` (they are the names bound in it,
        /// each once, in the order bound: the entries above the mark, up to the next block's).
        var stackMark = 0
        /// The properties set in the block, as `Property.bit`s.
        var propertyMask = PropertyMask()
        /// Where this block's entries start in `setterStack`.
        var setterMark = 0
    }

    // Variables only so that a parse can be resumed on a longer source (`resume`).
    var source: SourceFile
    var tokens: [Token]
    var lexErrors: [Int: Diagnostic]
    var pos = 0
    /// How many `(` and `[` are open; newlines are skipped while any is.
    var opens = 0
    /// The end of the last token consumed: where "expected ..." errors point.
    var prevEnd = 0
    var diagnostics: [Diagnostic] = []
    var panicking = false
    var depth = 0
    var incomplete = false
    var scopes: [Scope] = [Scope()]
    /// The id of the last identifier read as a name: the callee when a call follows.
    var lastNameID: Int32 = 0
    var names = NameTable()
    /// For each name id, its innermost visible binding in `bindingStack`, or -1.
    var innermost: [Int32] = []
    var bindingStack: [BindingEntry] = []
    /// Every `let` and parameter read so far: what the names of the tree point to.
    var bindings: [Binding] = []
    /// Errors about names found in the statement being read: they are reported when the
    /// statement ends without a syntax error, which would make them noise.
    var pending: [Diagnostic] = []
    /// Stacks on which lists and operator chains gather before they get arrays of their own.
    /// (Variables only so that a parser forked onto a second half gets its own: ParserHalves.swift.)
    var scratchExprs = ScratchStack<Expr>()
    var scratchOperands = ScratchStack<Operand>()
    var scratchStatements = ScratchStack<Statement>()
    /// Where settings' arguments go, many settings' to one allocation (`SettingArguments`); nil
    /// before the first, and for a parser forked onto a second half, which must not write into
    /// the first parser's.
    var argumentStore: ArgumentStore? = nil
    /// For each property set in an open block, the setting name that set it: what the
    /// duplicate-setting warning points back to.
    var setterStack: [(bit: Int, span: Span)] = []
    /// How many more "did you mean" searches this parse may make.
    var suggestionsLeft = 100
    /// True while the blocks being read are reached from the top level through `layout` and
    /// `section` blocks only: their `attach` blocks are checked for names alike (`noteBlockName`).
    var attachChecked = true
    /// How many `group` blocks are open: the top group is level 1 (ParserGroups.swift).
    var groupDepth = 0
    /// The index of the first token of the innermost open block's body (after its `{`), and
    /// whether a later `}` closes that block (`innermostBlockClosesLater`).
    var blockBodyStart = 0
    /// The braces' balance over the tokens, made on the first question of `innermostBlockClosesLater`.
    var braceBalance: BraceBalance? = nil
    /// Set when a block ended at a `layout` or `section` that it cannot hold (`nextStatement`).
    var endedAtMisplacedBlock = false

    /// False only in the test that proves the lone-operand short path of `parseExpr` equal to the
    /// general path (ParserTests.testShortPathIsTheGeneralPath): `PipelineOptions.parserShortPaths`.
    let shortPaths: Bool

    /// See `parse(_:expressionEntry:)`.
    var expressionEntry: Int? = nil

    /// What the top level has seen so far: the checks of `layout` blocks against top-level
    /// sections and `expect`s, and of layout names, read it (kept across `resume`).
    struct FileState {
        var firstLayout: Span? = nil
        var firstSection: Span? = nil
        var layoutNames: [String: Span] = [:]
        /// The `expect` statements and `scroll` keywords at the top level (errors in a file with
        /// layouts; one list: the parser is copied on deep recursion, and stays small).
        var topExpects: [Span] = []
        /// The names of the top-level sections, each where it first stands.
        var sectionNames: [String: Span] = [:]
        /// The names of the top level's `attach` blocks so far.
        var attachNames: [String: Span] = [:]
    }
    var file = FileState()

    init(source: SourceFile, options: PipelineOptions = .standard) {
        self.init(source: source, lexed: Lexer.tokenize(source), options: options)
    }

    /// A parser of tokens already lexed from `source` (a part of it: ParserHalves.swift).
    init(source: SourceFile, lexed: Lexer.Output, options: PipelineOptions) {
        self.source = source
        shortPaths = options.parserShortPaths
        tokens = lexed.tokens
        lexErrors = lexed.errors
        skipBOMAndStart()
    }

    /// Parses a whole file and keeps the parser, so that statements appended to the file can be
    /// read later without reading the file again (`resume`).
    package static func parseResumable(_ source: SourceFile) -> (ParseResult, ResumableParser) {
        var p = Parser(source: source)
        let tree = p.parseFile()
        return (ParseResult(tree: tree, diagnostics: p.diagnostics, incomplete: p.incomplete), ResumableParser(parser: p))
    }

    private mutating func skipBOMAndStart() {
        prevEnd = tokens.first?.start ?? 0
    }

    // MARK: - Tokens

    var tok: Token { @inline(__always) get { tokens[pos] } }

    @inline(__always) func at(_ kind: TokenKind) -> Bool { tokens[pos].kind == kind }

    /// The token after the current one, newlines included.
    var next: Token { tokens[Swift.min(pos + 1, tokens.count - 1)] }

    /// Consumes the current token. (Inlined: the common token, neither a bracket, a newline nor
    /// the end, outside brackets, is two stores; a call each was 7 million instructions a 1 MB
    /// parse.)
    @inline(__always)
    mutating func advance() {
        let t = tokens[pos]
        switch t.kind {
        case .eof, .lParen, .lBracket, .rParen, .rBracket, .newline:
            advanceOverSpecial(t)
        default:
            prevEnd = t.end
            pos += 1
            if opens > 0, tokens[pos].kind == .newline { skipNewlines() }
        }
    }

    /// `advance` over a bracket, a newline or the end.
    @inline(never)
    mutating func advanceOverSpecial(_ t: Token) {
        switch t.kind {
        case .eof: return
        case .lParen, .lBracket: opens += 1
        case .rParen, .rBracket: if opens > 0 { opens -= 1 }
        default: break
        }
        if t.kind != .newline { prevEnd = t.end }
        pos += 1
        if opens > 0 { skipNewlines() }
    }

    mutating func skipNewlines() {
        while tokens[pos].kind == .newline { pos += 1 }
    }

    func text(_ t: Token) -> String { source.text(t.span) }

    func line(of offset: Int) -> Int { source.position(of: offset).line }

    /// A reference to the line of `span` for a diagnostic's words ("at line 3"): kept as a span,
    /// so that whoever shows the diagnostic against another file can number it anew.
    func lineOf(_ span: Span) -> LineReference { LineReference(span, line: line(of: span.start)) }

    /// True at a newline, `;`, `}` or the end: where a statement ends.
    var atStatementEnd: Bool {
        @inline(__always) get {
        switch tok.kind {
        case .newline, .semicolon, .rBrace, .eof: return true
        default: return false
        }
        }
    }

    // The small readers below are inlined: a non-mutating method called from a mutating one
    // took a copy of the whole parser (352 bytes) for each call, 7% of parsing's instructions.
    @inline(__always)
    func isWord(_ t: Token, _ word: StaticString) -> Bool {
        guard t.kind == .identifier, t.end - t.start == word.utf8CodeUnitCount else { return false }
        return source.bytes.withUnsafeBufferPointer { b in
            let p = word.utf8Start
            for k in 0..<word.utf8CodeUnitCount where b[t.start + k] != p[k] { return false }
            return true
        }
    }

    /// How a token is named in a message.
    func describe(_ t: Token) -> String {
        switch t.kind {
        case .newline: return "the end of the line"
        case .eof: return "the end of the file"
        case .string: return "the string \(text(t))"
        default: return "'\(text(t))'"
        }
    }

    // MARK: - Diagnostics

    /// Reports an error, unless this statement has already had one; puts the parser in panic mode.
    mutating func report(_ d: Diagnostic) {
        if !panicking { diagnostics.append(d) }
        panicking = true
    }

    /// Reports an error that does not confuse the parser: reading goes on normally.
    mutating func reportAndContinue(_ d: Diagnostic) {
        if !panicking { diagnostics.append(d) }
    }

    mutating func warn(_ d: Diagnostic) {
        if !panicking { diagnostics.append(d) }
    }

    /// The help for a `=` where a statement should end: a comparison was meant.
    static let assignHelp = "'=' gives a name a value ('let x = 1'); to compare, write '=='"

    /// "expected X, found Y", or the lexer's own diagnostic when Y is an error token.
    mutating func reportUnexpected(_ code: DiagnosticCode = .unexpectedToken, expected: String, help: String? = nil) {
        let t = tok
        if t.kind == .error, let d = lexErrors[pos] {
            report(d)
            return
        }
        if t.kind == .eof { incomplete = incomplete || opens > 0 || depth > 0 }
        if (t.kind == .rParen || t.kind == .rBracket), opens == 0 {
            let opener = t.kind == .rParen ? "(" : "["
            report(.error(.unmatchedCloser, "unexpected '\(text(t))': no '\(opener)' is open here", at: t.span, help: "remove it"))
            return
        }
        var hint = help
        if (t.kind == .lParen || t.kind == .lBracket), t.spaceBefore, pos > 0, tokens[pos - 1].kind == .identifier {
            let what = t.kind == .lParen ? "a call" : "an index"
            hint = "\(what) needs its '\(text(t))' directly after the name: remove the space"
        }
        let span = t.kind == .newline || t.kind == .eof ? Span.point(prevEnd) : t.span
        report(.error(code, "expected \(expected), found \(describe(t))", at: span, help: hint))
    }

    /// After a mistake: skip to where the next statement starts (a newline, `;` or `}` outside
    /// brackets). A `}` or a statement keyword at the start of a line while a bracket is open
    /// means the bracket was never closed.
    mutating func synchronize() {
        while true {
            switch tok.kind {
            case .eof:
                return
            case .newline, .semicolon:
                if opens == 0 { return }
                advance()
            case .rBrace:
                opens = 0
                return
            case .kwLet, .kwLayout, .kwSection, .kwExpect, .identifier:
                if opens > 0, startsStatementOnItsLine(pos) {
                    opens = 0
                    return
                }
                advance()
            default:
                advance()
            }
        }
    }

    /// True when token `k` stands first on its line and looks like the start of a statement (a
    /// statement keyword, or a setting name followed by something on the same line): the sign of
    /// a bracket left open on an earlier line.
    func startsStatementOnItsLine(_ k: Int) -> Bool {
        guard k > 0, tokens[k - 1].kind == .newline else { return false }
        let t = tokens[k]
        switch t.kind {
        case .kwLet, .kwLayout, .kwSection, .kwExpect: return true
        case .identifier:
            let after = tokens[k + 1].kind
            return SettingTable.info(text(t)) != nil && after != .newline && after != .comma && after != .eof
                && after != .rParen && after != .rBracket && operandFollowers.contains(after) == false
        default: return false
        }
    }

    // MARK: - Values of tokens

    static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    @inline(__always)
    func numberValue(_ t: Token) -> Double {
        source.bytes.withUnsafeBufferPointer { b in
            // Clinger's fast path: at most 15 significant digits and a power of ten up to 22
            // are exact doubles, so one multiplication or division rounds correctly.
            var v: UInt64 = 0
            var digits = 0
            var fraction = 0
            var exponent = 0
            var inFraction = false
            var plain = true
            var k = t.start
            while k < t.end {
                let c = b[k]
                k += 1
                if c &- 0x30 < 10 {
                    v = v &* 10 &+ UInt64(c &- 0x30)
                    digits += 1
                    if inFraction { fraction += 1 }
                } else if c == UInt8(ascii: "."), !inFraction {
                    inFraction = true
                } else if c | 0x20 == UInt8(ascii: "e") {
                    // The exponent (the lexer has checked its form): `e`, a sign, digits and `_`.
                    let negative = k < t.end && b[k] == UInt8(ascii: "-")
                    if k < t.end, b[k] == UInt8(ascii: "-") || b[k] == UInt8(ascii: "+") { k += 1 }
                    while k < t.end {
                        let d = b[k]
                        k += 1
                        if d &- 0x30 < 10 {
                            exponent = exponent * 10 + Int(d &- 0x30)
                            if exponent > 1000 { plain = false; break }
                        } else if d != UInt8(ascii: "_") {
                            plain = false
                            break
                        }
                    }
                    if negative { exponent = -exponent }
                    break
                } else if c != UInt8(ascii: "_") {
                    plain = false
                    break
                }
            }
            if plain, digits <= 15 {
                // Up to 15 digits and a power of ten up to 22 are exact doubles: one rounding.
                let p = exponent - fraction
                if p == 0 { return Double(v) }
                if p > 0, p <= 22 { return Double(v) * Parser.powersOfTen[p] }
                if p < 0, p >= -22 { return Double(v) / Parser.powersOfTen[-p] }
            }
            var s = ""
            for k in t.start..<t.end where b[k] != UInt8(ascii: "_") { s.unicodeScalars.append(Unicode.Scalar(b[k])) }
            return Double(s) ?? .nan
        }
    }

    /// The value of a string token, escapes decoded (the lexer has checked them).
    func stringValue(_ t: Token) -> String {
        source.bytes.withUnsafeBufferPointer { b in
            let body = UnsafeBufferPointer(rebasing: b[(t.start + 1)..<(t.end - 1)])
            guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
            // Decode the escapes byte by byte into the string's own storage (an escape is never
            // shorter than its UTF-8; the room for four more is a margin): one allocation, where
            // an array of bytes, a `String` per `\u{...}` and the string made from the array took
            // three or more.
            return String(unsafeUninitializedCapacity: body.count + 4) { out in
                var n = 0
                var k = 0
                while k < body.count {
                    let c = body[k]
                    k += 1
                    guard c == UInt8(ascii: "\\"), k < body.count else { out[n] = c; n += 1; continue }
                    let e = body[k]
                    k += 1
                    switch e {
                    case UInt8(ascii: "n"): out[n] = 0x0A; n += 1
                    case UInt8(ascii: "t"): out[n] = 0x09; n += 1
                    case UInt8(ascii: "u"):
                        k += 1 // "{"
                        var v: UInt32 = 0
                        while k < body.count, body[k] != UInt8(ascii: "}") {
                            let h = UInt32(body[k])
                            v = v << 4 | (h <= 0x39 ? h - 0x30 : (h | 0x20) - 0x61 + 10)
                            k += 1
                        }
                        k += 1 // "}"
                        for b in (Unicode.Scalar(v) ?? "\u{FFFD}").utf8 { out[n] = b; n += 1 }
                    default: out[n] = e; n += 1 // \" and \\
                    }
                }
                return n
            }
        }
    }
}

/// Tokens after which a word is an operand, not a setting that starts a statement.
let operandFollowers: Set<TokenKind> = [.or, .and, .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual,
                                        .plus, .star, .slash, .percent, .question, .colon, .rBrace]

/// A parser stopped at the end of a file without `layout` blocks, at the top level, with every
/// name and check it has seen: the REPL's session appends an entry to its statements and reads
/// only the entry.
package struct ResumableParser {
    var parser: Parser

    init(parser: Parser) {
        self.parser = parser
    }

    /// True when the file has `layout` blocks: `resume` is not for such a file.
    package var hasLayoutBlocks: Bool { parser.file.firstLayout != nil }

    /// Reads the statements that `source` holds from `base` on, as if the whole of `source` had
    /// been parsed: `source` is the text parsed so far (unchanged up to `base`, which starts a
    /// line) with more after it. Gives the new statements and their diagnostics alone, and the
    /// parser that has read them (`self` is unchanged).
    /// `expressionEntry` as in `Parser.parse(_:expressionEntry:)`.
    package func resume(_ source: SourceFile, from base: Int, expressionEntry: Int? = nil) -> (ParseResult, ResumableParser) {
        var p = parser
        p.expressionEntry = expressionEntry
        p.diagnostics = []
        p.incomplete = false
        p.source = source
        let lexed = Lexer.tokenize(source, from: base)
        p.tokens = lexed.tokens
        p.lexErrors = lexed.errors
        p.pos = 0
        p.prevEnd = base
        p.braceBalance = nil
        let statements = p.parseStatements()
        p.finishFile(statements)
        let result = ParseResult(tree: SyntaxTree(statements: statements, span: Span(0, source.bytes.count), bindings: p.bindings),
                                 diagnostics: p.diagnostics, incomplete: p.incomplete)
        return (result, ResumableParser(parser: p))
    }
}

extension ScratchStack where Element == Operand {
    /// Moves the operands from `mark` on into the tail of a new chain after `head`: one
    /// allocation for the node, no copies, no reference counting.
    func takeChain(_ head: consuming Expr, from mark: Int) -> BinaryChain {
        let n = count - mark
        let start = pointer(at: mark)
        count = mark
        let span = head.span.to(start[n - 1].rhs.span)
        return BinaryChain(storage: BinaryChainStorage.make(movingHead: head, span, count: n) { base in
            base.moveInitialize(from: start, count: n)
        })
    }
}

extension ScratchStack where Element == Expr {
    /// Moves the arguments from `mark` on into the tail of a new call of `callee`.
    func takeCall(_ callee: Identifier, _ span: Span, from mark: Int) -> Call {
        let n = count - mark
        let start = pointer(at: mark)
        count = mark
        return Call(storage: CallStorage.make(CallHeader(callee: callee, span: span, count: n, spilled: []), count: n) { base in
            base.moveInitialize(from: start, count: n)
        })
    }
}

/// A stack on which the parts of a list, a chain or a block gather before they move, all at
/// once, into an array of their exact size. Nested lists share it, each above a mark.
final class ScratchStack<Element> {
    // Unchecked: the parser alone uses a stack, one access at a time, and the dynamic
    // exclusivity checks of a class's properties were four runtime calls a chain.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) fileprivate(set) var count = 0

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(k: Int) -> Element { base[k] }

    fileprivate func pointer(at k: Int) -> UnsafeMutablePointer<Element> { base + k }

    func append(_ e: consuming Element) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        (base + count).initialize(to: e)
        count += 1
    }

    /// Moves the elements from `mark` on into a new array: no copies, no reference counting.
    func takeTail(from mark: Int) -> [Element] {
        let n = count - mark
        let start = base + mark
        count = mark
        // (Not `Array(unsafeUninitializedCapacity:)`: on Linux it looks its storage type up at
        // run time, which costs more than these appends.)
        var tail: [Element] = []
        tail.reserveCapacity(n)
        for k in 0..<n { tail.append((start + k).move()) }
        return tail
    }

    /// A frame longer than this moves to an array of its own (`spill`), so that a list or a chain
    /// as long as the file is not held twice, in the stack and in its array.
    static var spillCount: Int { 4096 }

    /// Moves the elements from `mark` on into a new array with room for `more` after them. Room
    /// that is never written costs address space, not memory, so `more` may be a loose bound.
    func spill(from mark: Int, reserving more: Int) -> [Element] {
        let n = count - mark
        let start = base + mark
        count = mark
        var tail: [Element] = []
        tail.reserveCapacity(n + more)
        for k in 0..<n { tail.append((start + k).move()) }
        return tail
    }

    /// Drops the elements from `mark` on.
    func drop(from mark: Int) {
        (base + mark).deinitialize(count: count - mark)
        count = mark
    }
}
