/// Statements and blocks: the file, `let`, `layout`, `section`, `attach` and `expect` (`update` is
/// in ParserUpdate.swift).

extension Parser {
    // file = { statement } EOF ;
    mutating func parseFile() -> SyntaxTree {
        let statements = Parser.exactly(parseStatements())
        finishFile(statements)
        return SyntaxTree(statements: statements, span: Span(0, source.bytes.count), bindings: bindings)
    }

    /// The top level grew by doubling; a file of many statements keeps an exact array instead
    /// (the tree lives as long as the run, the slack up to 88 bytes a statement).
    static func exactly(_ statements: [Statement]) -> [Statement] {
        guard statements.capacity - statements.count > 1024 else { return statements }
        var exact: [Statement] = []
        exact.reserveCapacity(statements.count)
        exact.append(contentsOf: statements)
        return exact
    }

    /// Where `parseStatements` stops, short of the end of the input (ParserHalves.swift).
    enum Stop {
        /// At the end of the input.
        case end
        /// Before the first `layout` or `section` block of the top level.
        case firstBlock
        /// After the statement that had the first error.
        case firstError
    }

    /// The top-level statements up to the end of the input (or to `stop`), each checked against
    /// those before it (`file` keeps what the checks need, so that a parse can be resumed).
    mutating func parseStatements(until stop: Stop = .end) -> [Statement] {
        var statements: [Statement] = []
        // The names of the top level's sections and `attach` blocks, kept across `resume` (moved
        // out of `file` while they grow, so that they are not copied).
        var seenSections = NameSpans(file.sectionNames), seenAttaches = NameSpans(file.attachNames)
        file.sectionNames = [:]
        file.attachNames = [:]
        defer {
            file.sectionNames = seenSections.dictionary
            file.attachNames = seenAttaches.dictionary
        }
        var checked = diagnostics.count
        while true {
            switch stop {
            case .end: break
            case .firstBlock: if atTopLevelBlock { return statements }
            case .firstError:
                while checked < diagnostics.count {
                    if diagnostics[checked].severity == .error { return statements }
                    checked += 1
                }
            }
            guard let s = nextStatement(in: .file) else {
                if at(.eof) { break }
                // A `}` with no block open.
                panicking = false
                report(.error(.unmatchedCloser, "unexpected '}': no block is open here", at: tok.span,
                              help: "remove it, or look for a '{' missing earlier"))
                advance()
                panicking = false
                continue
            }
            switch s.kind {
            case .layout(let b):
                if let first = file.firstSection {
                    diagnostics.append(.error(.misplacedStatement, "'layout' blocks cannot follow top-level sections", at: b.keyword,
                                              notes: [Note("the first top-level section is at \(lineOf(first))")],
                                              help: "put the sections inside 'layout' blocks, or leave the 'layout' block out"))
                }
                if file.firstLayout == nil { file.firstLayout = b.keyword }
                if let name = b.name {
                    if let earlier = file.layoutNames[name.text] {
                        diagnostics.append(.error(.duplicateLayout, "a layout named '\(name.text)' already exists in this file", at: name.span,
                                                  notes: [Note("the first '\(name.text)' is here", span: earlier)],
                                                  help: "give each layout its own name"))
                    } else {
                        file.layoutNames[name.text] = name.span
                    }
                }
            case .section(let b):
                if file.firstLayout != nil {
                    diagnostics.append(.error(.misplacedStatement, "a file with 'layout' blocks cannot also have top-level sections", at: b.keyword,
                                              help: "move this section into a 'layout' block"))
                }
                if file.firstSection == nil { file.firstSection = b.keyword }
            case .expect:
                file.topExpects.append(s.span)
            case .scroll(let b):
                file.topExpects.append(b.keyword)
            default:
                break
            }
            if s.isNamedBlock {
                noteBlockName(s, sections: true, attaches: true, seenSections: &seenSections, seenAttaches: &seenAttaches)
            }
            statements.append(s)
        }
        return statements
    }

    /// True when the next statement, after any line breaks and `;`, is a `layout` or a `section` block.
    var atTopLevelBlock: Bool {
        var k = pos
        while tokens[k].kind == .newline || tokens[k].kind == .semicolon { k += 1 }
        return tokens[k].kind == .kwLayout || tokens[k].kind == .kwSection
    }

    /// The checks made once the input is read (`expect`s outside the layouts of a file with
    /// layouts), and the diagnostics in source order. (Names alike, of sections and of `attach`
    /// blocks, are checked as each block's statements are read: `noteBlockName`.)
    mutating func finishFile(_ statements: [Statement]) {
        if file.firstLayout != nil {
            for span in file.topExpects where !source.text(span).hasPrefix("scroll") {
                diagnostics.append(.error(.misplacedStatement, "'expect' must stand inside a 'layout' block when the file has layouts", at: span,
                                          help: "move it into the layout whose result it checks"))
            }
            for span in file.topExpects where source.text(span).hasPrefix("scroll") {
                diagnostics.append(.error(.misplacedScroll, "'scroll' must stand inside a 'layout' block when the file has layouts", at: span,
                                          help: "move it into the layout whose scroll path it follows"))
            }
        }
        diagnostics = diagnostics.inSourceOrder()
    }

    /// The checks of names alike among one block's statements, made as each statement is read
    /// (walking the finished tree again copied every statement): a section named as an earlier
    /// one of the same layout (or of the top level) is only shown, since the two could not be
    /// told apart; an `attach` block named as an earlier one of the same block is overridden by
    /// it. `sections` and `attaches` say which checks this block takes; `seen...` hold the names
    /// before `s`.
    mutating func noteBlockName(_ s: borrowing Statement, sections: Bool, attaches: Bool,
                                seenSections: inout NameSpans, seenAttaches: inout NameSpans) {
        switch s.kind {
        case .section(let b) where sections:
            guard let name = b.name else { return }
            if let earlier = seenSections[name.text] {
                diagnostics.append(.warning(.duplicateSectionName, "a section named '\(name.text)' already stands in this layout", at: name.span,
                                            notes: [Note("the first '\(name.text)' is here", span: earlier)],
                                            help: "give each section its own name, so that tables and pictures tell them apart"))
            } else {
                seenSections.add(name.text, name.span)
            }
        case .attach(let b) where attaches:
            guard let name = b.name else { return }
            if let earlier = seenAttaches[name.text] {
                diagnostics.append(.warning(.attachTwice, "'\(name.text)' is attached twice in this block; the later one wins", at: name.span,
                                            notes: [Note("the first '\(name.text)' is here", span: earlier)]))
            } else {
                seenAttaches.add(name.text, name.span)
            }
        default:
            return
        }
    }

    /// Skips empty statements and reads the next one of a block. nil at a `}` or the end.
    mutating func nextStatement(in context: Context) -> Statement? {
        while true {
            // Line breaks and `;` stepped over here, as `advance` would (a call of its slow path
            // for each line break): a `;` sets where the last token ended, a line break does not.
            while true {
                let t = tokens[pos]
                if t.kind == .newline {
                    pos += 1
                } else if t.kind == .semicolon {
                    prevEnd = t.end
                    pos += 1
                } else {
                    break
                }
            }
            if at(.rBrace) || at(.eof) { return nil }
            // A `layout` or `section` where it cannot stand, in a block that no later `}` closes:
            // the block's own `}` is what is missing, so the block ends here (one error, "'}'
            // expected", not a nesting error and then that one at the end of the file).
            if context != .file, tok.kind == .kwLayout || (tok.kind == .kwSection && context != .layout),
               !innermostBlockClosesLater() {
                endedAtMisplacedBlock = true
                return nil
            }
            panicking = false
            opens = 0
            depth = 0
            let mark = pending.count
            let s = parseStatement(in: context)
            // A block ended early stops where the next statement starts, on the same line.
            let endedEarly = endedAtMisplacedBlock
            endedAtMisplacedBlock = false
            if !panicking, !endedEarly, !atStatementEnd {
                reportUnexpected(expected: "the end of the statement",
                                 help: at(.assign) ? Parser.assignHelp : "put each statement on its own line, or separate them with ';'")
            }
            if pending.count > mark {
                if !panicking { diagnostics.append(contentsOf: pending[mark...]) }
                pending.removeSubrange(mark...)
            }
            if panicking { synchronize() }
            if let s { return s }
        }
    }

    // statement = let | layout | section | attach | update | appear | group | item | scroll | expect | setting ;
    mutating func parseStatement(in context: Context) -> Statement? {
        if context == .appear || context == .disappear { return parseAppearStatement(in: context) }
        if context == .update { return parseUpdateStatement() }
        if context == .scroll { return parseScrollStatement() }
        if context == .group || context == .item { return parseGroupStatement(in: context) }
        switch tok.kind {
        case .kwLet: return parseLet()
        case .kwLayout: return parseLayout(in: context)
        case .kwSection: return parseSection(in: context)
        case .kwExpect:
            if context == .attach {
                reportAndContinue(.error(.misplacedStatement, "'expect' cannot stand inside an 'attach' block", at: tok.span,
                                         help: "close the 'attach' block first; 'attached(\"name\", s, i)' reads its views"))
            }
            return parseExpect()
        case .identifier:
            // A setting's name is none of the words tested below (`BlockWord`s; ParserTests checks
            // it): its id, which the setting reads anyway, tells it without the ten tests.
            let id = nameID(tok)
            if names.settingRow(id) != nil { return parseSetting(in: context, id: id) }
            if atAttach() { return parseAttach(in: context) }
            if atAppear() { return parseAppear(in: context) }
            if atUpdate() { return parseUpdate(in: context) }
            if atScroll() { return parseScroll(in: context) }
            if atTo() { return parseTo(in: context) }
            if atGroup() { return parseGroup(in: context) }
            if atItem() { return parseItem(in: context) }
            if atChange() { return parseChange(in: context) }
            return parseSetting(in: context, id: id)
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
        guard let (word, id) = bindableName(what: "name after 'let'") else { return nil }
        let binding = newBinding(.value, word.span)
        let name = Identifier(word.text, word.span, binding: binding)
        var parameters: [Identifier]? = nil
        var paramIDs: [Int32] = []
        if at(.lParen) {
            let open = pos
            advance()
            // Room for four at once: growing both arrays from one to two cost two allocations more.
            var params: [Identifier] = []
            params.reserveCapacity(4)
            paramIDs.reserveCapacity(4)
            while !at(.rParen) {
                guard let (p, pid) = bindableName(what: "parameter name") else { return nil }
                if let dup = params.first(where: { $0.text == p.text }) {
                    reportAndContinue(.error(.duplicateParameter, "the parameter '\(p.text)' is named twice", at: p.span,
                                             notes: [Note("first named here", span: dup.span)]))
                }
                params.append(Identifier(p.text, p.span, binding: newBinding(.parameter(index: params.count), p.span)))
                paramIDs.append(pid)
                if at(.comma) { advance() } else { break }
            }
            bindings[Int(binding)].kind = .function(arity: params.count)
            guard closing(.rParen, opened: open) else {
                declare(name, id, binding, silently: true)
                return nil
            }
            parameters = params
        }
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
            // A function sees itself (it may call itself) and its parameters.
            declare(name, id, binding, silently: true)
            for (p, pid) in zip(params, paramIDs) { declare(p, pid, p.binding, silently: true) }
        }
        let value = parseExpr()
        popScope()
        declare(name, id, binding)
        let decl = LetDecl(name: name, parameters: parameters, value: value)
        return Statement(kind: .let(decl), span: Span(start, prevEnd))
    }

    // layout = "layout" name "{" { statement } "}" ;
    mutating func parseLayout(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context != .file {
            reportAndContinue(.error(.misplacedStatement, "'layout' cannot stand inside \(context.name)", at: keyword,
                                     help: "'layout' blocks stand at the top level only: close this \(context == .section ? "section" : "layout") first"))
        }
        var name: BlockName? = nil
        if at(.error) {
            return blockAfterBadName(keyword: keyword, keywordText: "layout", inner: .layout)
        } else if at(.identifier) || at(.string) {
            name = parseName()
        } else if at(.lBrace) {
            reportAndContinue(.error(.layoutWithoutName, "a layout needs a name", at: tok.span, help: "write 'layout feed {'"))
        } else {
            reportUnexpected(expected: "a name after 'layout'", help: "write 'layout feed {'")
            return nil
        }
        skipBadBytesBeforeBrace()
        guard let block = parseBlock(keyword: keyword, keywordText: "layout", name: name, inner: .layout) else { return nil }
        return Statement(kind: .layout(block), span: Span(keyword.start, prevEnd))
    }

    // section = "section" [ name ] "{" { statement } "}" ;
    mutating func parseSection(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context == .section {
            reportAndContinue(.error(.misplacedStatement, "sections cannot be nested", at: keyword,
                                     help: "close the section before starting another"))
        }
        if context == .attach {
            reportAndContinue(.error(.misplacedStatement, "'section' cannot stand inside an 'attach' block", at: keyword,
                                     help: "close the 'attach' block first"))
        }
        if at(.error) {
            return blockAfterBadName(keyword: keyword, keywordText: "section", inner: .section)
        }
        let name = at(.identifier) || at(.string) ? parseName() : nil
        skipBadBytesBeforeBrace()
        guard let block = parseBlock(keyword: keyword, keywordText: "section", name: name, inner: .section) else { return nil }
        return Statement(kind: .section(block), span: Span(keyword.start, prevEnd))
    }

    /// True at the word `attach` followed by a name or a `{` on the same line: the start of an
    /// `attach` block (`attach` is not reserved: elsewhere it is a name).
    mutating func atAttach() -> Bool {
        guard isWord(tok, "attach") else { return false }
        let after = next
        return after.kind == .identifier || after.kind == .string || after.kind == .lBrace
    }

    // attach = "attach" name "{" { let | setting } "}" ;
    mutating func parseAttach(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context == .attach {
            reportAndContinue(.error(.misplacedStatement, "'attach' blocks cannot be nested", at: keyword,
                                     help: "close this 'attach' block before starting another"))
        }
        guard at(.identifier) || at(.string) else {
            report(.error(.badAttachName, "an 'attach' block needs a name, the kind of its views", at: tok.span,
                          help: "write, for example, 'attach badge {'"))
            return nil
        }
        let name = parseName()
        if name.text.isEmpty || ["cell", "header", "footer", "background"].contains(name.text) {
            reportAndContinue(.error(.badAttachName, name.text.isEmpty ? "an attached view's name cannot be empty"
                                         : "'\(name.text)' is a kind of element of its own and cannot name an attached view",
                                     at: name.span, help: "name it after what it shows: 'attach badge {'"))
        }
        guard let block = parseBlock(keyword: keyword, keywordText: "attach", name: name, inner: .attach) else { return nil }
        return Statement(kind: .attach(block), span: Span(keyword.start, prevEnd))
    }

    /// Bytes that do not lex between a block's name and its `{` (`layout a \u{FF} {`): the lexer's
    /// error, then the block as if they were not there, so that its `}` does not look stray.
    mutating func skipBadBytesBeforeBrace() {
        var k = pos
        while tokens[k].kind == .error { k += 1 }
        guard k > pos, tokens[k].kind == .lBrace else { return }
        if let d = lexErrors[pos] { reportAndContinue(d) }
        while pos < k { advance() }
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
        // An identifier's interned text: no `String` made for it.
        if t.kind == .identifier {
            let id = nameID(t)
            return BlockName(text: names.strings[Int(id)], span: t.span, quoted: false)
        }
        return BlockName(text: text(t), span: t.span, quoted: false)
    }

    /// `"{" { statement } "}"` of a layout or section.
    mutating func parseBlock(keyword: Span, keywordText: String, name: BlockName?, inner: Context) -> Block? {
        var open = tok.span
        if !at(.lBrace) {
            var look = pos
            while tokens[look].kind == .newline { look += 1 }
            if at(.newline), tokens[look].kind == .lBrace {
                reportAndContinue(Diagnostic(.braceOnNextLine, "'{' must stand on the line of '\(keywordText)'", at: tokens[look].span,
                                             help: ["move the '{' up to the end of \(lineOf(keyword))"]))
                pos = look
                open = tok.span
            } else {
                // Read on as if the `{` stood at the end of the line, when a `}` later says so.
                guard let assumed = missingOpenBrace(keywordText: keywordText, name: name) else { return nil }
                open = assumed
            }
        }
        // Groups nest up to 32 levels of their own (ParserGroups.swift says when deeper).
        if scopes.count > Parser.maxBlockDepth + (inner == .group || inner == .item ? Parser.maxGroupDepth + 2 : 0) {
            report(.error(.nestedTooDeeply, "blocks nested too deeply: more than \(Parser.maxBlockDepth) levels", at: open,
                          help: "a layout holds sections, and sections hold no blocks"))
            return skipBlock(keyword: keyword, name: name, open: open)
        }
        if at(.lBrace) { advance() }
        return parseBlockBody(keyword: keyword, name: name, open: open, inner: inner)
    }

    /// True when a `}` after the innermost open block's body start closes that block (braces
    /// counted). Read from the balance of the braces over the whole file, made once: a scan a
    /// block was quadratic in a file of blocks nested and never closed.
    mutating func innermostBlockClosesLater() -> Bool {
        balance().closes(after: blockBodyStart)
    }

    /// A block header without its `{`: the error, and where the `{` should stand when the `}`s
    /// after the line outnumber the blocks open here (a `}` that nothing else opens closes this
    /// block, whose body is the lines between); nil when there is no such `}`.
    @inline(never)
    mutating func missingOpenBrace(keywordText: String, name: BlockName?) -> Span? {
        reportUnexpected(expected: "'{' after '\(keywordText)\(name.map { " " + source.text($0.span) } ?? "")'",
                         help: at(.newline) || at(.eof) ? "add '{' at the end of the line" : nil)
        guard at(.newline), balance().falls(after: pos, by: scopes.count) else { return nil }
        return Span.point(prevEnd)
    }

    /// The braces' balance over the file, made on first use.
    mutating func balance() -> BraceBalance {
        if let b = braceBalance { return b }
        let b = BraceBalance(tokens)
        braceBalance = b
        return b
    }

    /// Steps over a block without reading it, braces counted in a loop (no recursion).
    mutating func skipBlock(keyword: Span, name: BlockName?, open: Span) -> Block {
        // From its `{`, or from the line after a header whose `{` was left out.
        var balance = at(.lBrace) ? 0 : 1
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
        // Names alike: sections in a layout at the top level; `attach` blocks in a layout or
        // section reached from the top level through layouts and sections only.
        let sections = inner == .layout && scopes.count == 1
        let outerChain = attachChecked
        attachChecked = outerChain && (inner == .layout || inner == .section)
        let attaches = attachChecked
        var seenSections = NameSpans(), seenAttaches = NameSpans()
        pushScope()
        let outerBody = blockBodyStart
        blockBodyStart = pos
        defer { blockBodyStart = outerBody }
        let mark = scratchStatements.count
        while let s = nextStatement(in: inner) {
            if sections || attaches, s.isNamedBlock {
                noteBlockName(s, sections: sections, attaches: attaches, seenSections: &seenSections, seenAttaches: &seenAttaches)
            }
            scratchStatements.append(s)
        }
        let statements = scratchStatements.takeTail(from: mark)
        popScope()
        attachChecked = outerChain
        var close: Span? = nil
        if at(.rBrace) {
            close = tok.span
            advance()
        } else {
            incomplete = true
            panicking = false
            let unclosed = Diagnostic.error(.unclosed, "'}' expected to close '{' at \(lineOf(open))", at: .point(prevEnd),
                                            notes: [Note("the block opened here", span: open)])
            // Ended early by a `layout` or `section` (`nextStatement`): reading goes on there.
            if at(.eof) { report(unclosed) } else { reportAndContinue(unclosed) }
        }
        return Block(keyword: keyword, name: name, statements: statements, openBrace: open, closeBrace: close)
    }

    /// The source after the current token up to the end of its statement (a newline, `;` or `}`
    /// outside brackets), as written: what a suggestion quotes.
    func restOfStatement() -> String {
        var k = pos + 1, open = 0
        let start = tokens[k].start
        var end = start
        scan: while k < tokens.count {
            let t = tokens[k]
            switch t.kind {
            case .eof: break scan
            case .newline, .semicolon, .rBrace: if open == 0 { break scan }
            case .lParen, .lBracket: open += 1
            case .rParen, .rBracket: open -= 1
            default: break
            }
            end = t.end
            k += 1
        }
        return Parser.oneLine(source.text(Span(start, Swift.max(start, end))))
    }

    /// `text` with each line break (`\n`, `\r\n` or `\r`) written as a space: a suggestion quotes
    /// an expression on one line, the same whatever the file's line ends.
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return text }
        var out = ""
        var afterBreak = false
        for c in text.unicodeScalars {
            if c == "\n" || c == "\r" {
                if !afterBreak { out.unicodeScalars.append(" ") }
                afterBreak = true
            } else {
                out.unicodeScalars.append(c)
                afterBreak = false
            }
        }
        if afterBreak { out.unicodeScalars.removeLast() }
        return out
    }

    // expect = "expect" expr [ "," STRING ] ;
    mutating func parseExpect() -> Statement? {
        let start = tok.start
        advance()
        guard canStartExpression else {
            if start == expressionEntry {
                reportUnexpected(.missingCondition, expected: "an expression",
                                 help: "type a statement (a setting, 'let', 'section', 'layout', 'expect'), an expression such as 'frame(0, 3)', or ':help'")
            } else {
                reportUnexpected(.missingCondition, expected: "a condition after 'expect'", help: "write, for example, 'expect contentHeight == 864'")
            }
            return nil
        }
        let conditionStart = tok.start
        let condition = parseExpr()
        let written = Span(conditionStart, prevEnd)
        // The REPL's expression entries are read as an `expect` without the word.
        let keyword = start == expressionEntry ? "" : "expect "
        if !panicking, at(.assign) {
            // `expect contentHeight = 100`: a comparison meant.
            let rest = restOfStatement()
            reportUnexpected(expected: "the end of the statement",
                             help: "'=' gives a name a value; to compare, write '=='" + (rest.isEmpty ? "" : ": '\(keyword)\(Parser.oneLine(source.text(written))) == \(rest)'"))
            return nil
        }
        if !panicking, at(.string) {
            // `expect contentHeight == 100 "label"`: the comma left out.
            reportUnexpected(expected: "the end of the statement",
                             help: "a label comes after a comma: '\(keyword)\(Parser.oneLine(source.text(written))), \(text(tok))'")
            return nil
        }
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
        return Statement(kind: .expect(Expectation(condition: condition, written: written, label: label)), span: Span(start, prevEnd))
    }
}

/// Names seen in a block, each with where it first stands: looked up in a short list while the
/// block has few (a layout holds a handful of named sections), in a dictionary past that. (A
/// dictionary hashes each `String`, which normalizes its letters beyond ASCII: two such hashes a
/// named section were a fiftieth of parsing's instructions. `==` gives the same answers,
/// canonical equivalence included.)
struct NameSpans {
    /// The names while there are at most `listed`; empty once `many` holds them.
    private var few: [(text: String, span: Span)] = []
    private var many: [String: Span] = [:]
    static let listed = 8

    init() {}

    init(_ names: [String: Span]) { many = names }

    /// Every name with its span.
    var dictionary: [String: Span] {
        guard many.isEmpty else { return many }
        var all: [String: Span] = [:]
        for (text, span) in few { all[text] = span }
        return all
    }

    subscript(text: String) -> Span? {
        if !many.isEmpty { return many[text] }
        for entry in few where entry.text == text { return entry.span }
        return nil
    }

    /// Adds a name not yet in the set.
    mutating func add(_ text: String, _ span: Span) {
        if many.isEmpty {
            if few.count < NameSpans.listed {
                few.append((text, span))
                return
            }
            for (t, s) in few { many[t] = s }
            few = []
        }
        many[text] = span
    }
}

/// The balance of `{` over `}` before each token, and the lowest it falls to from each token on:
/// a `}` from token `p` on closes a block opened before `p` when the balance falls below its
/// value at `p`.
final class BraceBalance {
    /// `before[k]`: `{` minus `}` among tokens `0 ..< k` (k up to the count of tokens).
    private let before: [Int32]
    /// `lowest[k]`: the least of `before[k ... count]`.
    private let lowest: [Int32]

    init(_ tokens: [Token]) {
        var before = [Int32](repeating: 0, count: tokens.count + 1)
        for (k, t) in tokens.enumerated() {
            before[k + 1] = before[k] + (t.kind == .lBrace ? 1 : t.kind == .rBrace ? -1 : 0)
        }
        var lowest = before
        if lowest.count > 1 {
            for k in stride(from: lowest.count - 2, through: 0, by: -1) { lowest[k] = Swift.min(lowest[k], lowest[k + 1]) }
        }
        self.before = before
        self.lowest = lowest
    }

    /// True when some `}` from token `p` on brings the balance below its value at `p`.
    func closes(after p: Int) -> Bool { falls(after: p, by: 1) }

    /// True when the `}`s from token `p` on bring the balance `n` or more below its value at `p`.
    func falls(after p: Int, by n: Int) -> Bool {
        guard p >= 0, p + 1 < lowest.count else { return false }
        return lowest[p + 1] <= before[p] - Int32(n)
    }
}
