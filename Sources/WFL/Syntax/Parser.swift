/// What parsing a file gives: the tree (with `.invalid` where errors were), every diagnostic of
/// lexing and parsing in source order, and whether the input ended with a block, a bracket or an
/// expression still open (the REPL reads more lines then).
public struct ParseResult: Sendable {
    public var tree: SyntaxTree
    public var diagnostics: [Diagnostic]
    /// True when an error came from reaching the end of the input with something still open.
    public var incomplete: Bool
}

/// A recursive-descent parser of LANGUAGE.md's grammar, one function per rule of
/// `grammar/wfl.ebnf`, the rule in a comment above it.
///
/// Errors are reported once per mistake: the first error of a statement puts the parser in panic
/// mode, which silences it until it has skipped to the next statement. Names are checked as each
/// statement is read (a `let` is visible to the statements after it in its block and the blocks
/// inside), with "did you mean" suggestions over what is visible there.
public struct Parser {
    /// The deepest nesting of parentheses, brackets, calls, unary operators and conditionals.
    public static let maxDepth = 256
    /// The deepest nesting of blocks the parser reads (a correct file needs two: a layout and its
    /// sections); deeper blocks are already errors, and are stepped over.
    static let maxBlockDepth = 32

    /// Parses a whole file.
    public static func parse(_ source: SourceFile) -> ParseResult {
        var p = Parser(source: source)
        let tree = p.parseFile()
        return ParseResult(tree: tree, diagnostics: p.diagnostics, incomplete: p.incomplete)
    }

    /// What a `let` binds.
    enum Binding {
        case value
        case function(arity: Int)
        case parameter
    }

    /// Where a statement stands.
    enum Context {
        case file, layout, section

        var name: String {
            switch self {
            case .file: return "the top level"
            case .layout: return "a layout"
            case .section: return "a section"
            }
        }
    }

    /// What one open block knows: its names and the properties set in it.
    struct Scope {
        /// The ids of the names bound in this block, each once, in the order bound.
        var names: [Int32] = []
        /// Where this block's bindings start in `bindingStack`.
        var stackMark = 0
        /// The properties set in the block (bits of `SettingTable.propertyMasks`).
        var propertyMask: UInt64 = 0
        /// Where this block's entries start in `setterStack`.
        var setterMark = 0
    }

    /// One `let` binding; `previous` is the binding of the same name it hides, or -1.
    struct BindingEntry {
        var depth: Int
        var binding: Binding
        var span: Span
        var previous: Int32
    }

    let source: SourceFile
    let tokens: [Token]
    let lexErrors: [Int: Diagnostic]
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
    /// The id of the last identifier `parsePrimary` read as a name.
    var lastNameID: Int32 = 0
    var names = NameTable()
    /// For each name id, its innermost visible binding in `bindingStack`, or -1.
    var innermost: [Int32] = []
    var bindingStack: [BindingEntry] = []
    /// Errors about names found in the statement being read: they are reported when the
    /// statement ends without a syntax error, which would make them noise.
    var pending: [Diagnostic] = []
    /// Stacks on which lists and operator chains gather before they get arrays of their own.
    let scratchExprs = ScratchStack<Expr>()
    let scratchOperands = ScratchStack<Operand>()
    let scratchStatements = ScratchStack<Statement>()
    /// For each property set in an open block, the setting name that set it: what the
    /// duplicate-setting warning points back to.
    var setterStack: [(bit: Int, span: Span)] = []
    /// How many more "did you mean" searches this parse may make.
    var suggestionsLeft = 100

    mutating func pushScope() {
        scopes.append(Scope(stackMark: bindingStack.count, setterMark: setterStack.count))
    }

    mutating func popScope() {
        let scope = scopes.removeLast()
        var k = scope.names.count
        while k > 0 {
            k -= 1
            let id = Int(scope.names[k])
            innermost[id] = bindingStack[Int(innermost[id])].previous
        }
        bindingStack.removeLast(bindingStack.count - scope.stackMark)
        setterStack.removeLast(setterStack.count - scope.setterMark)
    }

    /// The id of an identifier token.
    @inline(__always) mutating func nameID(_ t: Token) -> Int32 {
        let id = source.bytes.withUnsafeBufferPointer { names.intern($0, t.start, t.end) }
        while innermost.count < names.count { innermost.append(-1) }
        return id
    }

    func lookup(_ id: Int32) -> BindingEntry? {
        let k = innermost[Int(id)]
        return k < 0 ? nil : bindingStack[Int(k)]
    }

    init(source: SourceFile) {
        self.source = source
        let lexed = Lexer.tokenize(source)
        tokens = lexed.tokens
        lexErrors = lexed.errors
        skipBOMAndStart()
    }

    private mutating func skipBOMAndStart() {
        prevEnd = tokens.first?.start ?? 0
    }

    // MARK: - Tokens

    var tok: Token { tokens[pos] }

    @inline(__always) func at(_ kind: TokenKind) -> Bool { tokens[pos].kind == kind }

    /// The token after the current one, newlines included.
    var next: Token { tokens[Swift.min(pos + 1, tokens.count - 1)] }

    /// Consumes the current token.
    mutating func advance() {
        let t = tokens[pos]
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

    /// True at a newline, `;`, `}` or the end: where a statement ends.
    var atStatementEnd: Bool {
        switch tok.kind {
        case .newline, .semicolon, .rBrace, .eof: return true
        default: return false
        }
    }

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

    /// "expected X, found Y", or the lexer's own diagnostic when Y is an error token.
    mutating func reportUnexpected(expected: String, help: String? = nil) {
        let t = tok
        if t.kind == .error, let d = lexErrors[pos] {
            report(d)
            return
        }
        if t.kind == .eof { incomplete = incomplete || opens > 0 || depth > 0 }
        if (t.kind == .rParen || t.kind == .rBracket), opens == 0 {
            let opener = t.kind == .rParen ? "(" : "["
            report(.error("unexpected '\(text(t))': no '\(opener)' is open here", at: t.span, help: "remove it"))
            return
        }
        var hint = help
        if (t.kind == .lParen || t.kind == .lBracket), t.spaceBefore, pos > 0, tokens[pos - 1].kind == .identifier {
            let what = t.kind == .lParen ? "a call" : "an index"
            hint = "\(what) needs its '\(text(t))' directly after the name: remove the space"
        }
        let span = t.kind == .newline || t.kind == .eof ? Span.point(prevEnd) : t.span
        report(.error("expected \(expected), found \(describe(t))", at: span, help: hint))
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

    // MARK: - Statements

    // file = { statement } EOF ;
    mutating func parseFile() -> SyntaxTree {
        var statements: [Statement] = []
        var firstLayout: Block? = nil
        var firstSection: Span? = nil
        var layoutNames: [String: Span] = [:]
        var topExpects: [Span] = []
        while true {
            guard let s = nextStatement(in: .file) else {
                if at(.eof) { break }
                // A `}` with no block open.
                panicking = false
                report(.error("unexpected '}': no block is open here", at: tok.span,
                              help: "remove it, or look for a '{' missing earlier"))
                advance()
                panicking = false
                continue
            }
            switch s.kind {
            case .layout(let b):
                if let first = firstSection {
                    diagnostics.append(.error("'layout' blocks cannot follow top-level sections", at: b.keyword,
                                              notes: [Note("the first top-level section is at line \(line(of: first.start))")],
                                              help: "put the sections inside 'layout' blocks, or leave the 'layout' block out"))
                }
                if firstLayout == nil { firstLayout = b }
                if let name = b.name {
                    if let earlier = layoutNames[name.text] {
                        diagnostics.append(.error("a layout named '\(name.text)' already exists in this file", at: name.span,
                                                  notes: [Note("the first '\(name.text)' is here", span: earlier)],
                                                  help: "give each layout its own name"))
                    } else {
                        layoutNames[name.text] = name.span
                    }
                }
            case .section(let b):
                if firstLayout != nil {
                    diagnostics.append(.error("a file with 'layout' blocks cannot also have top-level sections", at: b.keyword,
                                              help: "move this section into a 'layout' block"))
                }
                if firstSection == nil { firstSection = b.keyword }
            case .expect:
                topExpects.append(s.span)
            default:
                break
            }
            statements.append(s)
        }
        if firstLayout != nil {
            for span in topExpects {
                diagnostics.append(.error("'expect' must stand inside a 'layout' block when the file has layouts", at: span,
                                          help: "move it into the layout whose result it checks"))
            }
        }
        diagnostics = diagnostics.enumerated()
            .sorted { ($0.element.span.start, $0.offset) < ($1.element.span.start, $1.offset) }
            .map(\.element)
        return SyntaxTree(statements: statements, span: Span(0, source.bytes.count))
    }

    /// Skips empty statements and reads the next one of a block. nil at a `}` or the end.
    mutating func nextStatement(in context: Context) -> Statement? {
        while true {
            while at(.newline) || at(.semicolon) { advance() }
            if at(.rBrace) || at(.eof) { return nil }
            panicking = false
            opens = 0
            depth = 0
            let mark = pending.count
            let s = parseStatement(in: context)
            if !panicking, !atStatementEnd {
                reportUnexpected(expected: "the end of the statement",
                                 help: "put each statement on its own line, or separate them with ';'")
            }
            if pending.count > mark {
                if !panicking { diagnostics.append(contentsOf: pending[mark...]) }
                pending.removeSubrange(mark...)
            }
            if panicking { synchronize() }
            if let s { return s }
        }
    }

    // statement = let | layout | section | expect | setting ;
    mutating func parseStatement(in context: Context) -> Statement? {
        switch tok.kind {
        case .kwLet: return parseLet()
        case .kwLayout: return parseLayout(in: context)
        case .kwSection: return parseSection(in: context)
        case .kwExpect: return parseExpect()
        case .identifier: return parseSetting(in: context)
        default:
            reportUnexpected(expected: "a statement",
                             help: tok.kind == .error ? nil : "a statement is a setting, 'let', 'layout', 'section' or 'expect'")
            return nil
        }
    }

    // let = "let" IDENT [ "(" [ IDENT { "," IDENT } [ "," ] ] ")" ] "=" expr ;
    mutating func parseLet() -> Statement? {
        let start = tok.start
        advance()
        guard let (name, id) = bindableName(what: "name after 'let'") else { return nil }
        var parameters: [Name]? = nil
        var paramIDs: [Int32] = []
        if at(.lParen) {
            let open = pos
            advance()
            var params: [Name] = []
            while !at(.rParen) {
                guard let (p, pid) = bindableName(what: "a parameter name") else { return nil }
                if let dup = params.first(where: { $0.text == p.text }) {
                    reportAndContinue(.error("the parameter '\(p.text)' is named twice", at: p.span,
                                             notes: [Note("first named here", span: dup.span)]))
                }
                params.append(p)
                paramIDs.append(pid)
                if at(.comma) { advance() } else { break }
            }
            guard closing(.rParen, opened: open) else {
                declare(name, id, .function(arity: params.count), silently: true)
                return nil
            }
            parameters = params
        }
        let binding: Binding = parameters.map { .function(arity: $0.count) } ?? .value
        guard at(.assign) else {
            declare(name, id, binding, silently: true)
            let shown = parameters == nil ? name.text : "\(name.text)(\(parameters!.map(\.text).joined(separator: ", ")))"
            reportUnexpected(expected: "'=' after 'let \(shown)'", help: "write 'let \(shown) = value'")
            return nil
        }
        advance()
        guard canStartExpression else {
            declare(name, id, binding, silently: true)
            reportUnexpected(expected: "a value after '='")
            return nil
        }
        pushScope()
        if let params = parameters {
            declare(name, id, .function(arity: params.count), silently: true)
            for (p, pid) in zip(params, paramIDs) { declare(p, pid, .parameter, silently: true) }
        }
        let value = parseExpr()
        popScope()
        declare(name, id, binding)
        let decl = LetDecl(name: name, parameters: parameters, value: value)
        return Statement(kind: .let(decl), span: Span(start, prevEnd))
    }

    /// A name that `let` may bind, or nil after reporting why not.
    mutating func bindableName(what: String) -> (Name, Int32)? {
        let t = tok
        if t.kind == .identifier {
            if isWord(t, "x") {
                report(.error("'x' cannot be a name: it separates the sides of a size ('W x H')", at: t.span,
                              help: "choose another name"))
                return nil
            }
            let id = nameID(t)
            advance()
            return (Name(names.strings[Int(id)], t.span), id)
        }
        if t.kind.isReservedWord {
            report(.error("'\(text(t))' is a reserved word and cannot be a name", at: t.span,
                          help: "choose another name, such as '\(text(t))Value'"))
            return nil
        }
        reportUnexpected(expected: "a \(what)")
        return nil
    }

    /// Records a `let` in the innermost block, with the warnings for names bound twice.
    mutating func declare(_ name: Name, _ id: Int32, _ binding: Binding, silently: Bool = false) {
        let depth = scopes.count - 1
        let top = innermost[Int(id)]
        let current = lookup(id)
        if !silently {
            if let earlier = current, earlier.depth == depth {
                warn(.warning("'\(name.text)' is defined again in this block", at: name.span,
                              notes: [Note("the earlier definition is at line \(line(of: earlier.span.start)); it still applies before this line")]))
            } else if let outer = current {
                warn(.warning("'\(name.text)' shadows the definition at line \(line(of: outer.span.start))", at: name.span,
                              help: "rename one of them if this is not meant"))
            } else if names.known[Int(id)].contains(.variable) {
                warn(.warning("'\(name.text)' hides the engine's variable '\(name.text)'", at: name.span,
                              help: "choose another name to keep '\(name.text)' usable"))
            }
        }
        if let earlier = current, earlier.depth == depth {
            bindingStack[Int(top)].binding = binding
            bindingStack[Int(top)].span = name.span
        } else {
            bindingStack.append(BindingEntry(depth: depth, binding: binding, span: name.span, previous: top))
            innermost[Int(id)] = Int32(bindingStack.count - 1)
            scopes[depth].names.append(id)
        }
    }

    /// The names bound in scope `depth` with their bindings, sorted by name (for suggestions).
    func boundNames(at depth: Int) -> [(String, Binding)] {
        scopes[depth].names.compactMap { id -> (String, Binding)? in
            var k = innermost[Int(id)]
            while k >= 0, bindingStack[Int(k)].depth > depth { k = bindingStack[Int(k)].previous }
            guard k >= 0, bindingStack[Int(k)].depth == depth else { return nil }
            return (names.strings[Int(id)], bindingStack[Int(k)].binding)
        }.sorted { $0.0 < $1.0 }
    }

    // layout = "layout" name "{" { statement } "}" ;
    mutating func parseLayout(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context != .file {
            reportAndContinue(.error("'layout' cannot stand inside \(context.name)", at: keyword,
                                     help: "'layout' blocks stand at the top level only: close this \(context == .section ? "section" : "layout") first"))
        }
        var name: BlockName? = nil
        if at(.error) {
            return blockAfterBadName(keyword: keyword, keywordText: "layout", inner: .layout)
        } else if at(.identifier) || at(.string) {
            name = parseName()
        } else if at(.lBrace) {
            reportAndContinue(.error("a layout needs a name", at: tok.span, help: "write 'layout feed {'"))
        } else {
            reportUnexpected(expected: "a name after 'layout'", help: "write 'layout feed {'")
            return nil
        }
        guard let block = parseBlock(keyword: keyword, keywordText: "layout", name: name, inner: .layout) else { return nil }
        return Statement(kind: .layout(block), span: Span(keyword.start, prevEnd))
    }

    // section = "section" [ name ] "{" { statement } "}" ;
    mutating func parseSection(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context == .section {
            reportAndContinue(.error("sections cannot be nested", at: keyword,
                                     help: "close the section before starting another"))
        }
        if at(.error) {
            return blockAfterBadName(keyword: keyword, keywordText: "section", inner: .section)
        }
        let name = at(.identifier) || at(.string) ? parseName() : nil
        guard let block = parseBlock(keyword: keyword, keywordText: "section", name: name, inner: .section) else { return nil }
        return Statement(kind: .section(block), span: Span(keyword.start, prevEnd))
    }

    /// A block whose name did not lex (a bad escape, an unterminated string): the lexer's error,
    /// then the block as if the name were fine. An unterminated string that swallowed the `{` at
    /// the end of its line still opens the block, so its `}` does not look stray.
    mutating func blockAfterBadName(keyword: Span, keywordText: String, inner: Context) -> Statement? {
        let bad = tok
        if let d = lexErrors[pos] { reportAndContinue(d) }
        advance()
        let name = BlockName(text: text(bad), span: bad.span, quoted: true)
        var swallowed = Substring(text(bad))
        while swallowed.last == " " || swallowed.last == "\t" { swallowed = swallowed.dropLast() }
        let block: Block?
        if !at(.lBrace), swallowed.hasSuffix("{") {
            block = parseBlockBody(keyword: keyword, name: name, open: Span(bad.end - 1, bad.end), inner: inner)
        } else {
            block = parseBlock(keyword: keyword, keywordText: keywordText, name: name, inner: inner)
        }
        guard let block else { return nil }
        let kind: Statement.Kind = inner == .layout ? .layout(block) : .section(block)
        return Statement(kind: kind, span: Span(keyword.start, prevEnd))
    }

    // name = IDENT | STRING ;
    mutating func parseName() -> BlockName {
        let t = tok
        advance()
        if t.kind == .string { return BlockName(text: stringValue(t), span: t.span, quoted: true) }
        return BlockName(text: text(t), span: t.span, quoted: false)
    }

    /// `"{" { statement } "}"` of a layout or section.
    mutating func parseBlock(keyword: Span, keywordText: String, name: BlockName?, inner: Context) -> Block? {
        if !at(.lBrace) {
            var look = pos
            while tokens[look].kind == .newline { look += 1 }
            if at(.newline), tokens[look].kind == .lBrace {
                reportAndContinue(.error("'{' must stand on the line of '\(keywordText)'", at: tokens[look].span,
                                         help: "move the '{' up to the end of line \(line(of: keyword.start))"))
                pos = look
            } else {
                reportUnexpected(expected: "'{' after '\(keywordText)\(name.map { " " + source.text($0.span) } ?? "")'")
                return nil
            }
        }
        let open = tok.span
        if scopes.count > Parser.maxBlockDepth {
            report(.error("blocks nested too deeply: more than \(Parser.maxBlockDepth) levels", at: open,
                          help: "a layout holds sections, and sections hold no blocks"))
            return skipBlock(keyword: keyword, name: name, open: open)
        }
        advance()
        return parseBlockBody(keyword: keyword, name: name, open: open, inner: inner)
    }

    /// Steps over a block without reading it, braces counted in a loop (no recursion).
    mutating func skipBlock(keyword: Span, name: BlockName?, open: Span) -> Block {
        var balance = 0
        var close: Span? = nil
        while !at(.eof) {
            if at(.lBrace) { balance += 1 }
            if at(.rBrace) {
                balance -= 1
                if balance == 0 {
                    close = tok.span
                    advance()
                    break
                }
            }
            advance()
        }
        return Block(keyword: keyword, name: name, statements: [], openBrace: open, closeBrace: close)
    }

    /// The statements of a block after its `{`, and the `}`.
    mutating func parseBlockBody(keyword: Span, name: BlockName?, open: Span, inner: Context) -> Block? {
        pushScope()
        let mark = scratchStatements.count
        while let s = nextStatement(in: inner) { scratchStatements.append(s) }
        let statements = scratchStatements.takeTail(from: mark)
        popScope()
        var close: Span? = nil
        if at(.rBrace) {
            close = tok.span
            advance()
        } else {
            incomplete = true
            panicking = false
            report(.error("'}' expected to close '{' at line \(line(of: open.start))", at: .point(prevEnd),
                          notes: [Note("the block opened here", span: open)]))
        }
        return Block(keyword: keyword, name: name, statements: statements, openBrace: open, closeBrace: close)
    }

    // expect = "expect" expr [ "," STRING ] ;
    mutating func parseExpect() -> Statement? {
        let start = tok.start
        advance()
        guard canStartExpression else {
            reportUnexpected(expected: "a condition after 'expect'", help: "write, for example, 'expect contentHeight == 864'")
            return nil
        }
        let condition = parseExpr()
        var label: Name? = nil
        if !panicking, at(.comma) {
            advance()
            guard at(.string) else {
                reportUnexpected(expected: "a string after ',' to label the expectation",
                                 help: "write the label in double quotes: expect ..., \"header height\"")
                return nil
            }
            label = Name(stringValue(tok), tok.span)
            advance()
        }
        return Statement(kind: .expect(Expectation(condition: condition, label: label)), span: Span(start, prevEnd))
    }

    // setting = IDENT ( wordArgument | sizeArgument | lanesArgument | insetsArgument | valueArguments ) ;
    mutating func parseSetting(in context: Context) -> Statement? {
        let nameTok = tok
        let id = nameID(nameTok)
        let name = Name(names.strings[Int(id)], nameTok.span)
        guard let row = names.settingRow(id) else {
            unknownSetting(name, id)
            return nil
        }
        let info = SettingTable.all[row]
        advance()
        if info.level == .layout, context == .section {
            reportAndContinue(.error("'\(name.text)' applies to a whole layout and cannot be set in a section", at: name.span,
                                     help: "move it out of the section, to the layout or the top of the file"))
        }
        if atStatementEnd {
            report(.error("missing value for '\(name.text)'", at: name.span, help: "write, for example, '\(info.example)'"))
            return nil
        }
        if at(.assign) {
            report(.error("settings take no '='", at: tok.span, help: "write '\(info.example)'"))
            return nil
        }
        let arguments: [Argument]?
        switch info.shape {
        case .word(let words): arguments = parseWordArgument(info, words)
        case .size: arguments = parseSizeArgument(info)
        case .lanes: arguments = parseLanesArgument(info)
        case .insets: arguments = parseInsetsArgument(info)
        case .values(let lo, let hi): arguments = parseValueArguments(info, min: lo, max: hi)
        }
        guard let arguments else { return nil }
        var mask = SettingTable.propertyMasks[row]
        if case .side = arguments.first {
            mask = 0
            for a in arguments {
                if case .side(let n, _) = a { mask |= SettingTable.sideMask(row: row, side: n.text) }
            }
        }
        noteProperties(mask, of: name)
        return Statement(kind: .setting(Setting(name: name, arguments: arguments)), span: Span(name.span.start, prevEnd))
    }

    /// The warning for setting one thing twice in a block.
    mutating func noteProperties(_ mask: UInt64, of name: Name) {
        let top = scopes.count - 1
        let again = scopes[top].propertyMask & mask
        scopes[top].propertyMask |= mask
        if again != 0 {
            let bit = again.trailingZeroBitCount
            if let earlier = setterStack[scopes[top].setterMark...].last(where: { $0.bit == bit })?.span {
                let earlierText = source.text(earlier)
                let message = earlierText == name.text
                    ? "'\(name.text)' is set twice in this block; the later one wins"
                    : "'\(name.text)' sets what '\(earlierText)' already set in this block; the later one wins"
                warn(.warning(message, at: name.span, notes: [Note("set earlier here", span: earlier)]))
            }
        }
        var bits = mask
        while bits != 0 {
            let bit = bits.trailingZeroBitCount
            bits &= bits - 1
            setterStack.append((bit, name.span))
        }
    }

    mutating func unknownSetting(_ name: Name, _ id: Int32) {
        var help = Suggest.didYouMean(name.text, among: SettingTable.names)
        let after = next
        if after.kind == .assign {
            help = "to name a value, write 'let \(name.text) = ...'"
        } else if help == nil, lookup(id) != nil || names.known[Int(id)].contains(.variable) {
            help = "an expression cannot stand alone in a file: use it in a setting or an 'expect'"
        }
        report(.error("unknown setting '\(name.text)'", at: name.span, help: help))
    }

    // wordArgument = IDENT ;
    mutating func parseWordArgument(_ info: SettingInfo, _ words: [String]) -> [Argument]? {
        let t = tok
        var choices: String { listWords(words) }
        if t.kind == .identifier {
            let word = text(t)
            guard words.contains(word) else {
                report(.error("'\(word)' is not a value of '\(info.name)'", at: t.span,
                              help: Suggest.didYouMean(word, among: words) ?? "'\(info.name)' takes \(choices)"))
                return nil
            }
            advance()
            return [.word(Name(word, t.span))]
        }
        if t.kind == .string, words.contains(stringValue(t)) {
            report(.error("'\(info.name)' takes a bare word, not a string", at: t.span,
                          help: "write '\(info.name) \(stringValue(t))'"))
            return nil
        }
        if t.kind == .error {
            reportUnexpected(expected: "")
            return nil
        }
        report(.error("'\(info.name)' takes one of \(choices), not \(describe(t))", at: t.span,
                      help: "write, for example, '\(info.example)'"))
        return nil
    }

    // sizeArgument = expr "x" expr ;
    mutating func parseSizeArgument(_ info: SettingInfo) -> [Argument]? {
        guard let w = argumentExpression(info) else { return nil }
        guard isWord(tok, "x") else {
            if atStatementEnd {
                report(.error("'\(info.name)' takes a size 'W x H', not one value", at: w.span,
                              help: "write, for example, '\(info.example)'"))
            } else {
                reportUnexpected(expected: "'x' between the two sides of the size",
                                 help: "write, for example, '\(info.example)'")
            }
            return nil
        }
        let xSpan = tok.span
        advance()
        if atStatementEnd {
            report(.error("missing the height after 'x' in '\(info.name)'", at: xSpan,
                          help: "write, for example, '\(info.example)'"))
            return nil
        }
        guard let h = argumentExpression(info) else { return nil }
        return [.size(w, h, w.span.to(h.span))]
    }

    // lanesArgument = "adaptive" "(" expr ")" | expr ;
    mutating func parseLanesArgument(_ info: SettingInfo) -> [Argument]? {
        guard let e = argumentExpression(info) else { return nil }
        if case .call(let callee, let args, let span) = e, callee.text == "adaptive" {
            // Here 'adaptive(MIN)' is in its place: drop the error its call left pending.
            pending.removeAll { $0.span == callee.span }
            guard args.count == 1 else {
                report(.error("'adaptive' takes one value, the smallest lane size, not \(args.count)", at: span,
                              help: "write, for example, '\(info.name) adaptive(150)'"))
                return nil
            }
            return extraArguments(info, [.adaptive(args[0], span)])
        }
        return extraArguments(info, [.value(e)])
    }

    // insetsArgument = side expr { side expr } | expr { expr } ;
    // side = "top" | "left" | "bottom" | "right" ;
    mutating func parseInsetsArgument(_ info: SettingInfo) -> [Argument]? {
        if atSideWord(), lookup(nameID(tok)) == nil {
            var args: [Argument] = []
            while atSideWord() {
                let sideID = nameID(tok)
                let side = Name(names.strings[Int(sideID)], tok.span)
                advance()
                if let earlier = args.first(where: { if case .side(let n, _) = $0 { return n.text == side.text } else { return false } }) {
                    report(.error("the side '\(side.text)' is given twice", at: side.span,
                                  notes: [Note("first given here", span: earlier.span)]))
                    return nil
                }
                if atStatementEnd || !canStartExpression {
                    if atStatementEnd {
                        report(.error("missing value after '\(side.text)'", at: side.span,
                                      help: "write, for example, '\(info.name) \(side.text) 10'"))
                    } else {
                        reportUnexpected(expected: "a value after '\(side.text)'")
                    }
                    return nil
                }
                args.append(.side(side, parseExpr()))
                if panicking { return nil }
            }
            if !atStatementEnd {
                if canStartExpression {
                    report(.error("'\(info.name)' takes named sides or plain values, not both", at: tok.span,
                                  help: "name every side: '\(info.name) top 10 left 4'"))
                } else {
                    reportUnexpected(expected: "a side ('top', 'left', 'bottom' or 'right')")
                }
                return nil
            }
            return args
        }
        if tok.kind == .identifier, !atSideLikeName(), let guess = Suggest.closest(to: text(tok), among: SettingTable.sides) {
            report(.error("unknown side '\(text(tok))'", at: tok.span,
                          help: "did you mean '\(guess)'? The sides are top, left, bottom and right"))
            return nil
        }
        var args: [Argument] = []
        while !atStatementEnd, canStartExpression, args.count < 5 {
            args.append(.value(parseExpr()))
            if panicking { return nil }
        }
        if args.isEmpty {
            reportUnexpected(expected: "a value for '\(info.name)'")
            return nil
        }
        if ![1, 2, 4].contains(args.count) || !atStatementEnd {
            if !atStatementEnd, !canStartExpression {
                reportUnexpected(expected: "another value or the end of the line")
                return nil
            }
            let span = args[0].span.to(args[args.count - 1].span)
            report(.error("'\(info.name)' takes 1, 2 or 4 values, not \(args.count)\(args.count >= 5 ? " or more" : "")", at: span,
                          help: "one value for all sides, two for vertical and horizontal, four for top, left, bottom and right; or name them: '\(info.name) top 10 left 4'"))
            return nil
        }
        return args
    }

    /// True at one of the words `top`, `left`, `bottom`, `right`.
    mutating func atSideWord() -> Bool {
        guard tok.kind == .identifier else { return false }
        let id = nameID(tok)
        return names.known[Int(id)].contains(.side)
    }

    /// True when the current word is a name that is visible here (so not a misspelt side).
    mutating func atSideLikeName() -> Bool {
        let id = nameID(tok)
        return lookup(id) != nil || !names.known[Int(id)].intersection([.variable, .function]).isEmpty
    }

    // valueArguments = expr { expr } ;
    mutating func parseValueArguments(_ info: SettingInfo, min: Int, max: Int) -> [Argument]? {
        var args: [Argument] = []
        while args.count < max, !atStatementEnd {
            guard let e = argumentExpression(info) else { return nil }
            args.append(.value(e))
        }
        return extraArguments(info, args)
    }

    /// One expression argument, or nil after an error saying why there is none.
    mutating func argumentExpression(_ info: SettingInfo) -> Expr? {
        guard canStartExpression else {
            if isWord(tok, "x") {
                report(.error("'\(info.name)' takes a value before 'x'", at: tok.span, help: "write, for example, '\(info.example)'"))
            } else {
                reportUnexpected(expected: "a value for '\(info.name)'", help: "write, for example, '\(info.example)'")
            }
            return nil
        }
        let e = parseExpr()
        return panicking ? nil : e
    }

    /// Checks that nothing is left on the line after a setting's arguments.
    mutating func extraArguments(_ info: SettingInfo, _ args: [Argument]) -> [Argument]? {
        if atStatementEnd { return args }
        if at(.error) {
            reportUnexpected(expected: "")
            return nil
        }
        let count: String
        switch info.shape {
        case .values(_, let hi) where hi == 2: count = "one or two values"
        default: count = "one value"
        }
        if isWord(tok, "x") {
            report(.error("'\(info.name)' takes \(count), not a size", at: tok.span, help: "write, for example, '\(info.example)'"))
        } else if canStartExpression {
            var hint = "write, for example, '\(info.example)'"
            if at(.lParen) || at(.minus) {
                hint = "to compute a value, write it as one expression: '\(info.name) (a - b)'"
            }
            report(.error("'\(info.name)' takes \(count)", at: tok.span, help: hint))
        } else {
            reportUnexpected(expected: "the end of the statement")
        }
        return nil
    }

    // MARK: - Expressions

    /// True when the current token can begin an expression (`x` cannot: it separates sizes).
    var canStartExpression: Bool {
        switch tok.kind {
        case .number, .string, .kwTrue, .kwFalse, .lParen, .lBracket, .minus, .bang, .error: return true
        case .identifier: return !isWord(tok, "x")
        default: return false
        }
    }

    /// Enters one level of nesting; false (with the error) past `maxDepth`.
    mutating func enter() -> Bool {
        depth += 1
        if depth > Parser.maxDepth {
            report(.error("expression nested too deeply: more than \(Parser.maxDepth) levels", at: tok.span,
                          help: "name inner parts with 'let' to flatten it"))
            return false
        }
        return true
    }

    // expr = orExpr [ "?" expr ":" expr ] ;
    mutating func parseExpr() -> Expr {
        // A lone number or name, the most common argument, skips the operator machinery.
        let t = tok
        if t.kind == .number || t.kind == .identifier, endsOperand(tokens[pos + 1]) {
            if t.kind == .number {
                advance()
                return .number(numberValue(t), t.span)
            }
            if !isWord(t, "x") {
                let id = nameID(t)
                advance()
                resolveName(id, t.span)
                return .name(names.strings[Int(id)], t.span)
            }
        }
        let condition = parseOr()
        guard at(.question), !panicking else { return condition }
        let question = tok.span
        guard enter() else { depth -= 1; return .invalid(condition.span) }
        defer { depth -= 1 }
        advance()
        let then = parseExpr()
        guard at(.colon) else {
            if !panicking {
                reportUnexpected(expected: "':' in the conditional that starts at '?'",
                                 help: "a conditional has both branches: 'c ? a : b'")
                _ = question
            }
            return .invalid(condition.span.to(then.span))
        }
        advance()
        let otherwise = parseExpr()
        return .conditional(condition, then, otherwise, condition.span.to(otherwise.span))
    }

    // orExpr = andExpr { "||" andExpr } ;
    mutating func parseOr() -> Expr { chain(level: 1) }

    // andExpr = comparison { "&&" comparison } ;
    mutating func parseAnd() -> Expr { chain(level: 2) }

    // comparison = sum [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) sum ] ;
    mutating func parseComparison() -> Expr { chain(level: 3) }

    // sum = product { ( "+" | "-" ) product } ;
    mutating func parseSum() -> Expr { chain(level: 4) }

    // product = unary { ( "*" | "/" | "%" ) unary } ;
    mutating func parseProduct() -> Expr { chain(level: 5) }

    /// The operand rule of a precedence level.
    mutating func operand(level: Int) -> Expr {
        switch level {
        case 1: return parseAnd()
        case 2: return parseComparison()
        case 3: return parseSum()
        case 4: return parseProduct()
        default: return parseUnary()
        }
    }

    /// The binary operator of the current token at `level`, if any.
    func binaryOp(level: Int) -> BinaryOp? {
        let op: BinaryOp
        switch tok.kind {
        case .or: op = .or
        case .and: op = .and
        case .equal: op = .equal
        case .notEqual: op = .notEqual
        case .less: op = .less
        case .lessEqual: op = .lessEqual
        case .greater: op = .greater
        case .greaterEqual: op = .greaterEqual
        case .plus: op = .add
        case .minus: op = .subtract
        case .star: op = .multiply
        case .slash: op = .divide
        case .percent: op = .remainder
        default: return nil
        }
        return op.precedence == level ? op : nil
    }

    /// A chain of operators of one level, read in a loop: a long chain costs no stack.
    mutating func chain(level: Int) -> Expr {
        // Precedence climbing: one call per operand, not one per level, and the same tree as a
        // function per level gives (a chain of one level is one `.binary` node).
        var first = parseUnary()
        while !panicking, let head = anyBinaryOp(), head.precedence >= level {
            let chainLevel = head.precedence
            let mark = scratchOperands.count
            while !panicking, let op = anyBinaryOp(), op.precedence == chainLevel {
                let opSpan = tok.span
                if chainLevel == 3, scratchOperands.count == mark + 1 {
                    reportAndContinue(.error("comparisons do not chain", at: opSpan,
                                             help: "join two comparisons with '&&': 'a < b && b < c'"))
                }
                advance()
                if atStatementEnd || !canStartExpression {
                    if tok.kind == .error {
                        reportUnexpected(expected: "")
                    } else {
                        if at(.eof), opens > 0 { incomplete = true }
                        report(.error("missing a value after '\(op.rawValue)'", at: opSpan,
                                      help: "write what the operator applies to, or remove it"))
                    }
                    let whole = scratchOperands.count == mark ? first.span : first.span.to(scratchOperands[scratchOperands.count - 1].rhs.span)
                    scratchOperands.drop(from: mark)
                    return .invalid(whole.to(opSpan))
                }
                let rhs = chainLevel == 5 ? parseUnary() : chain(level: chainLevel + 1)
                scratchOperands.append(Operand(op, opSpan, rhs))
            }
            let rest = scratchOperands.takeTail(from: mark)
            first = .binary(first, rest, first.span.to(rest[rest.count - 1].rhs.span))
        }
        return first
    }

    /// True when `next`, the token after an operand, cannot continue the expression.
    @inline(__always) func endsOperand(_ next: Token) -> Bool {
        switch next.kind {
        case .semicolon, .rBrace, .eof, .comma, .rParen, .rBracket, .colon, .number, .string, .identifier:
            return true
        case .newline:
            return opens == 0
        default:
            return false
        }
    }

    /// The binary operator of the current token, whatever its level.
    @inline(__always) func anyBinaryOp() -> BinaryOp? {
        switch tok.kind {
        case .or: return .or
        case .and: return .and
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        case .plus: return .add
        case .minus: return .subtract
        case .star: return .multiply
        case .slash: return .divide
        case .percent: return .remainder
        default: return nil
        }
    }

    // unary = ( "-" | "!" ) unary | postfix ;
    mutating func parseUnary() -> Expr {
        guard at(.minus) || at(.bang) else { return parsePostfix() }
        let op: UnaryOp = at(.minus) ? .negate : .not
        let opSpan = tok.span
        guard enter() else { depth -= 1; return .invalid(opSpan) }
        defer { depth -= 1 }
        advance()
        if atStatementEnd || !canStartExpression {
            if tok.kind == .error {
                reportUnexpected(expected: "")
            } else {
                report(.error("missing a value after '\(op.rawValue)'", at: opSpan,
                              help: "write what the operator applies to, or remove it"))
            }
            return .invalid(opSpan)
        }
        let operand = parseUnary()
        return .unary(op, operand, opSpan.to(operand.span))
    }

    // postfix = primary { call | index } ;
    mutating func parsePostfix() -> Expr {
        var e = parsePrimary()
        var levels = 0
        defer { depth -= levels }
        if case .name(_, let span) = e, panicking || tok.spaceBefore || !at(.lParen) {
            resolveName(lastNameID, span)
        }
        let calleeID = lastNameID
        while !panicking, !tok.spaceBefore, at(.lParen) || at(.lBracket) {
            levels += 1
            guard enter() else { return .invalid(e.span) }
            if at(.lParen) {
                guard case .name(let callee, let span) = e else {
                    report(.error("only a function name can be called", at: tok.span,
                                  help: "call a function by its name, as 'max(a, b)'"))
                    return .invalid(e.span)
                }
                let args = parseCall()
                resolveCall(calleeID, span, arguments: args.count)
                e = .call(Name(callee, span), args, Span(span.start, prevEnd))
            } else {
                let index = parseIndex()
                e = .index(e, index, Span(e.span.start, prevEnd))
            }
        }
        return e
    }

    // call = "(" [ expr { "," expr } [ "," ] ] ")" ;
    mutating func parseCall() -> [Expr] {
        let open = pos
        advance()
        let args = parseExpressionList(closer: .rParen, what: "an argument")
        _ = closing(.rParen, opened: open)
        return args
    }

    // index = "[" expr "]" ;
    mutating func parseIndex() -> Expr {
        let open = pos
        advance()
        guard canStartExpression else {
            reportUnexpected(expected: "an index inside '[ ]'")
            return .invalid(tokens[open].span)
        }
        let e = parseExpr()
        _ = closing(.rBracket, opened: open)
        return e
    }

    /// Comma-separated expressions up to `closer` (not consumed), a trailing comma allowed.
    mutating func parseExpressionList(closer: TokenKind, what: String) -> [Expr] {
        // Items gather on a stack shared by nested lists, then move to an array of their exact
        // size: one allocation a list, not one per doubling.
        let mark = scratchExprs.count
        while !panicking, !at(closer) {
            guard canStartExpression else {
                reportUnexpected(expected: scratchExprs.count == mark ? "\(what) or '\(closer.spelling!)'" : "\(what)")
                break
            }
            let e = parseExpr()
            scratchExprs.append(e)
            if at(.comma) { advance() } else { break }
        }
        return scratchExprs.takeTail(from: mark)
    }

    /// Consumes the closing bracket of the one opened at token `open`, or reports that it is
    /// missing. When the closer is missing and a line break was passed on the way, reading resumes
    /// at that line break, so the next line is read as a statement of its own.
    mutating func closing(_ closer: TokenKind, opened open: Int) -> Bool {
        if at(closer) {
            advance()
            return true
        }
        if panicking { return false }
        let opener = tokens[open]
        if at(.eof) { incomplete = true }
        // A line break skipped just before this token: resume there.
        var resume: Int? = nil
        var k = pos - 1
        while k > open, tokens[k].kind == .newline {
            resume = k
            k -= 1
        }
        if resume == nil, let start = (open + 1..<pos).first(where: { startsStatementOnItsLine($0) }) {
            resume = start - 1
            while resume! - 1 > open, tokens[resume! - 1].kind == .newline { resume! -= 1 }
            // Point just after the last token before that line break.
            prevEnd = tokens[resume! - 1].end
        }
        if tok.kind == .error, let d = lexErrors[pos] {
            report(d)
        } else {
            let found = resume == nil && !at(.eof) ? ", found \(describe(tok))" : ""
            report(.error("'\(closer.spelling!)' expected to close '\(text(opener))' at line \(line(of: opener.start))\(found)",
                          at: .point(prevEnd),
                          notes: line(of: opener.start) != line(of: prevEnd) ? [Note("'\(text(opener))' opened here", span: opener.span)] : []))
        }
        if let resume {
            opens = 0
            pos = resume
        }
        return false
    }

    // primary = NUMBER | STRING | "true" | "false" | IDENT | "(" expr ")" | list ;
    mutating func parsePrimary() -> Expr {
        let t = tok
        switch t.kind {
        case .number:
            advance()
            return .number(numberValue(t), t.span)
        case .string:
            advance()
            return .string(stringValue(t), t.span)
        case .kwTrue, .kwFalse:
            advance()
            return .boolean(t.kind == .kwTrue, t.span)
        case .identifier:
            if isWord(t, "x") {
                report(.error("'x' is not a value: it separates the sides of a size ('W x H')", at: t.span,
                              help: "use 'x' only between two sides, as in 'size 100 x 50'"))
                return .invalid(t.span)
            }
            let id = nameID(t)
            lastNameID = id
            advance()
            return .name(names.strings[Int(id)], t.span)
        case .lParen:
            guard enter() else { depth -= 1; return .invalid(t.span) }
            defer { depth -= 1 }
            let open = pos
            advance()
            guard canStartExpression else {
                reportUnexpected(expected: "a value inside '( )'")
                return .invalid(t.span)
            }
            let inner = parseExpr()
            _ = closing(.rParen, opened: open)
            return inner
        case .lBracket:
            return parseList()
        case .error:
            if let d = lexErrors[pos] { reportAndContinue(d) }
            advance()
            return .invalid(t.span)
        default:
            if t.kind == .eof { incomplete = true }
            reportUnexpected(expected: "a value")
            return .invalid(.point(prevEnd))
        }
    }

    // list = "[" [ expr { "," expr } [ "," ] ] "]" ;
    mutating func parseList() -> Expr {
        let open = pos
        let start = tok.start
        guard enter() else { depth -= 1; return .invalid(tok.span) }
        defer { depth -= 1 }
        advance()
        let items = parseExpressionList(closer: .rBracket, what: "a value")
        _ = closing(.rBracket, opened: open)
        return .list(items, Span(start, prevEnd))
    }

    // MARK: - Values of tokens

    static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    func numberValue(_ t: Token) -> Double {
        source.bytes.withUnsafeBufferPointer { b in
            // Clinger's fast path: at most 15 significant digits and a power of ten up to 22
            // are exact doubles, so one multiplication or division rounds correctly.
            var v: UInt64 = 0
            var digits = 0
            var fraction = 0
            var inFraction = false
            var plain = true
            for k in t.start..<t.end {
                let c = b[k]
                if c &- 0x30 < 10 {
                    v = v &* 10 &+ UInt64(c &- 0x30)
                    digits += 1
                    if inFraction { fraction += 1 }
                } else if c == UInt8(ascii: "."), !inFraction {
                    inFraction = true
                } else if c != UInt8(ascii: "_") {
                    plain = false
                    break
                }
            }
            if plain, digits <= 15 {
                if fraction == 0 { return Double(v) }
                return Double(v) / Parser.powersOfTen[fraction]
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
            // Decode the escapes byte by byte into UTF-8, then make one String.
            var out: [UInt8] = []
            out.reserveCapacity(body.count)
            var k = 0
            while k < body.count {
                let c = body[k]
                k += 1
                guard c == UInt8(ascii: "\\"), k < body.count else { out.append(c); continue }
                let e = body[k]
                k += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    k += 1 // "{"
                    var v: UInt32 = 0
                    while k < body.count, body[k] != UInt8(ascii: "}") {
                        let h = UInt32(body[k])
                        v = v << 4 | (h <= 0x39 ? h - 0x30 : (h | 0x20) - 0x61 + 10)
                        k += 1
                    }
                    k += 1 // "}"
                    out.append(contentsOf: String(Unicode.Scalar(v) ?? "\u{FFFD}").utf8)
                default: out.append(e) // \" and \\
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    // MARK: - Names

    /// Checks that a name used as a value means something here.
    mutating func resolveName(_ id: Int32, _ span: Span) {
        if let entry = lookup(id) {
            if case .function = entry.binding {
                let n = names.strings[Int(id)]
                pending.append(.error("'\(n)' is a function: call it with its arguments", at: span, help: "write '\(n)(...)'"))
            }
            return
        }
        let known = names.known[Int(id)]
        if known.contains(.variable) { return }
        let n = names.strings[Int(id)]
        var help = suggestion(for: n, among: visibleValueNames)
        if help == nil, names.settingRow(id) != nil {
            help = "settings are not values: name the value with 'let' to use it in both places"
        } else if help == nil, !known.intersection([.function, .adaptive]).isEmpty {
            help = "'\(n)' is a function: write '\(n)(...)'"
        }
        pending.append(.error("unknown name '\(n)'", at: span, help: help))
    }

    /// Checks that a call names a function and gives it as many arguments as it takes.
    mutating func resolveCall(_ id: Int32, _ span: Span, arguments count: Int) {
        let n = names.strings[Int(id)]
        if let entry = lookup(id) {
            switch entry.binding {
            case .function(let arity):
                if arity != count {
                    pending.append(.error("'\(n)' takes \(Arity.exactly([arity]).description), not \(count)", at: span))
                }
            case .value, .parameter:
                pending.append(.error("'\(n)' is a value, not a function", at: span,
                                      help: "to define a function, write 'let \(n)(a) = ...'"))
            }
            return
        }
        let known = names.known[Int(id)]
        if known.contains(.function), let arity = Builtins.arity(of: n) {
            if !arity.accepts(count) {
                pending.append(.error("'\(n)' takes \(arity.description), not \(count)", at: span))
            }
            return
        }
        if known.contains(.adaptive) {
            pending.append(.error("'adaptive(MIN)' is a value of 'columns' and 'rows' only", at: span,
                                  help: "write 'columns adaptive(150)'"))
            return
        }
        pending.append(.error("unknown function '\(n)'", at: span, help: suggestion(for: n, among: visibleFunctionNames)))
    }

    /// "did you mean" for a misspelt name. Only the first suggestions of a file are looked for:
    /// each compares the word with every visible name, and a file of thousands of misspellings
    /// must not take quadratic time.
    mutating func suggestion(for word: String, among candidates: () -> [String]) -> String? {
        guard suggestionsLeft > 0 else { return nil }
        suggestionsLeft -= 1
        return Suggest.didYouMean(word, among: candidates())
    }

    func visibleValueNames() -> [String] {
        var found: [String] = []
        for depth in scopes.indices.reversed() {
            for (n, b) in boundNames(at: depth) {
                if case .function = b { continue }
                found.append(n)
            }
        }
        return found + Builtins.variables
    }

    func visibleFunctionNames() -> [String] {
        var found: [String] = []
        for depth in scopes.indices.reversed() {
            for (n, b) in boundNames(at: depth) {
                if case .function = b { found.append(n) }
            }
        }
        return found + Builtins.functions.map(\.name) + Builtins.expectFunctions.map(\.name)
    }
}

/// Tokens after which a word is an operand, not a setting that starts a statement.
let operandFollowers: Set<TokenKind> = [.or, .and, .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual,
                                        .plus, .star, .slash, .percent, .question, .colon, .rBrace]

/// A stack on which the parts of a list, a chain or a block gather before they move, all at
/// once, into an array of their exact size. Nested lists share it, each above a mark.
final class ScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(k: Int) -> Element { base[k] }

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

    /// Drops the elements from `mark` on.
    func drop(from mark: Int) {
        (base + mark).deinitialize(count: count - mark)
        count = mark
    }
}
