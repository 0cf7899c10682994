/// `group` and `item` blocks (docs/language.md, "Groups"). `group` and `item` are words in
/// statement position, not reserved words: elsewhere they are names.

extension Parser {
    /// The deepest nesting of groups: the top group is level 1, a group at level 33 is an error.
    static let maxGroupDepth = 32

    /// True at the word `group` followed by a word on the same line: the start of a `group`
    /// block (its kind is checked once read).
    @inline(__always)
    func atGroup() -> Bool {
        isWord(tok, "group") && next.kind == .identifier
    }

    /// True at the word `item` followed by something that is not `=` on the same line.
    @inline(__always)
    func atItem() -> Bool {
        guard isWord(tok, "item") else { return false }
        switch next.kind {
        case .assign, .newline, .semicolon, .eof, .rBrace: return false
        default: return true
        }
    }

    // group = "group" ( "horizontal" | "vertical" | "custom" ) expr "x" expr [ "count" expr ] "{" { group | item | setting } "}" ;
    mutating func parseGroup(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context == .attach || context == .appear || context == .disappear || context == .update {
            reportAndContinue(.error(.misplacedStatement, "'group' cannot stand inside \(context.name)", at: keyword,
                                     help: "a 'group' block stands in a 'style groups' or 'style shelf' section, or inside another group"))
        }
        var kind = GroupBlock.Kind.horizontal
        if let k = GroupBlock.Kind(rawValue: text(tok)) {
            kind = k
        } else {
            // Read on as a horizontal group, so that its block is not taken for stray statements.
            let word = text(tok)
            reportAndContinue(.error(.badGroupKind, "'\(word)' is not a kind of group", at: tok.span,
                                     help: Suggest.didYouMean(word, among: GroupBlock.Kind.allCases.map(\.rawValue)) ?? "write 'group horizontal', 'group vertical' or 'group custom'"))
        }
        let kindSpan = tok.span
        advance()
        guard let (w, h) = parseBlockSize("group \(kind.rawValue)") else { return nil }
        var count: Expr? = nil
        var countWord: Span? = nil
        if isWord(tok, "count") {
            countWord = tok.span
            advance()
            guard canStartExpression else {
                reportUnexpected(expected: "a number after 'count'", help: "write, for example, 'group horizontal gw x 100 count 3 {'")
                return nil
            }
            count = parseExpr()
            if panicking { return nil }
        }
        groupDepth += 1
        defer { groupDepth -= 1 }
        if groupDepth > Parser.maxGroupDepth {
            report(.error(.groupsTooDeep, "groups nested too deeply: this group is at level \(groupDepth), and groups nest at most \(Parser.maxGroupDepth) deep", at: keyword,
                          help: "flatten the tree: a group's children repeat, so a deep chain of single children is seldom needed"))
            guard at(.lBrace) else { return nil }
            let open = tok.span
            let block = skipBlock(keyword: keyword, name: nil, open: open)
            panicking = false
            let g = GroupBlock(kind: kind, kindSpan: kindSpan, width: w, height: h, count: count, countWord: countWord, block: block)
            return Statement(kind: .group(g), span: Span(keyword.start, prevEnd))
        }
        let errorsBefore = diagnostics.count { $0.severity == .error }
        guard let block = parseBlock(keyword: keyword, keywordText: "group", name: nil, inner: .group) else { return nil }
        let g = GroupBlock(kind: kind, kindSpan: kindSpan, width: w, height: h, count: count, countWord: countWord, block: block)
        checkGroup(g, readCleanly: diagnostics.count { $0.severity == .error } == errorsBefore)
        return Statement(kind: .group(g), span: Span(keyword.start, prevEnd))
    }

    // item = "item" expr "x" expr [ "{" { setting } "}" ] ;
    mutating func parseItem(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context != .group {
            reportAndContinue(.error(.itemOutsideGroup, "'item' stands only inside a 'group' block", at: keyword,
                                     help: "a section of 'style groups' holds one 'group' block, and its items stand in it: 'group horizontal gw x 100 { item gw / 2 x gh }'"))
        }
        guard let (w, h) = parseBlockSize("item") else { return nil }
        var block: Block? = nil
        if at(.lBrace) {
            guard let b = parseBlock(keyword: keyword, keywordText: "item", name: nil, inner: .item) else { return nil }
            block = b
        }
        return Statement(kind: .item(ItemBlock(keyword: keyword, width: w, height: h, block: block)), span: Span(keyword.start, prevEnd))
    }

    /// `W x H` after `group KIND` or `item`.
    mutating func parseBlockSize(_ what: String) -> (Expr, Expr)? {
        guard canStartExpression else {
            reportUnexpected(expected: "a size 'W x H' after '\(what)'", help: "write, for example, '\(what) gw x 100'")
            return nil
        }
        let w = parseExpr()
        if panicking { return nil }
        guard isWord(tok, "x") else {
            reportUnexpected(expected: "'x' between the two sides of the size", help: "write, for example, '\(what) gw x 100'")
            return nil
        }
        let xSpan = tok.span
        advance()
        guard canStartExpression else {
            if atStatementEnd || at(.lBrace) {
                report(.error(.missingValue, "missing the height after 'x' in '\(what)'", at: xSpan, help: "write, for example, '\(what) gw x 100'"))
            } else {
                reportUnexpected(expected: "the height after 'x'", help: "write, for example, '\(what) gw x 100'")
            }
            return nil
        }
        let h = parseExpr()
        if panicking { return nil }
        return (w, h)
    }

    /// One statement of a `group` block (a `group`, an `item`, `itemSpacing`, `insets`, `frame`)
    /// or of an `item` block (`insets`).
    mutating func parseGroupStatement(in context: Context) -> Statement? {
        if context == .group {
            if atGroup() || isWord(tok, "group") && next.kind != .assign && !atStatementEndAfterWord() { return parseGroup(in: context) }
            if atItem() { return parseItem(in: context) }
        }
        let what: String
        switch tok.kind {
        case .kwLet: what = "'let'"
        case .kwLayout: what = "'layout'"
        case .kwSection: what = "'section'"
        case .kwExpect: what = "'expect'"
        case .identifier:
            let word = text(tok)
            if let info = SettingTable.info(word) {
                if context == .item ? word == "insets" : (word == "insets" || info.level == .group) {
                    let st = parseSetting(in: context)
                    // `itemSpacing flexible(N)`: here 'flexible' is in its place, not an unknown function.
                    if case .setting(let s)? = st?.kind, case .value(.call(let c))? = s.arguments.first, c.callee.text == "flexible" {
                        pending.removeAll { $0.span == c.callee.span }
                    }
                    return st
                }
            } else if BlockTable.info(word) == nil {
                return parseSetting(in: context)
            }
            what = "'\(word)'"
        default:
            reportUnexpected(expected: context == .group ? "a 'group', an 'item' or a setting of the group" : "'insets'",
                             help: context == .group ? "a 'group' block holds 'group', 'item', 'itemSpacing', 'insets' and 'frame'" : "an 'item' block holds 'insets'")
            return nil
        }
        report(.error(.notInGroup, "\(what) cannot stand inside \(context.name)", at: tok.span,
                      help: context == .group ? "a 'group' block holds 'group', 'item', 'itemSpacing', 'insets' (a custom group's 'frame'); section settings stand in the section"
                          : "an 'item' block holds 'insets'; its size is written after 'item': 'item gw x 100 { insets 4 }'"))
        return nil
    }

    /// True when the token after the current word ends the statement.
    func atStatementEndAfterWord() -> Bool {
        switch next.kind {
        case .newline, .semicolon, .rBrace, .eof: return true
        default: return false
        }
    }

    /// The checks of a group's shape once its block is read: children and `count`; a custom
    /// group's `count`, `frame` and no children; `itemSpacing` only in a horizontal or vertical
    /// group, `frame` only in a custom one (as unknown settings whose help names the block).
    /// `readCleanly`: no error inside the block (a `frame` whose values are missing is not
    /// reported as missing again).
    mutating func checkGroup(_ g: GroupBlock, readCleanly: Bool) {
        var children: [Span] = []
        var frame: Span? = nil
        for st in g.block.statements {
            switch st.kind {
            case .group(let inner): children.append(inner.block.keyword)
            case .item(let item): children.append(item.keyword)
            case .setting(let setting):
                let name = setting.name.text
                if name == "frame", g.kind != .custom {
                    diagnostics.append(.error(.unknownSetting, "unknown setting 'frame' in a '\(g.kind.rawValue)' group", at: setting.name.span,
                                              help: "'frame' places the leaves of a 'group custom W x H count N' block; a '\(g.kind.rawValue)' group places its children along its axis"))
                }
                if name == "frame" { frame = setting.name.span }
                if name == "itemSpacing", g.kind == .custom {
                    diagnostics.append(.error(.unknownSetting, "unknown setting 'itemSpacing' in a custom group", at: setting.name.span,
                                              help: "'itemSpacing' stands in a 'group horizontal' or 'group vertical' block; a custom group places its leaves by 'frame'"))
                }
            default: break
            }
        }
        let keyword = g.block.keyword
        switch g.kind {
        case .horizontal, .vertical:
            if children.isEmpty {
                diagnostics.append(.error(.groupWithoutChildren, "this '\(g.kind.rawValue)' group has no children", at: keyword,
                                          help: "put at least one 'item' or 'group' in it: 'group \(g.kind.rawValue) \(source.text(g.width.span)) x \(source.text(g.height.span)) { item gw x gh }'"))
            } else if let countWord = g.countWord, children.count > 1 {
                diagnostics.append(.error(.countWithSeveralChildren, "'count' repeats a group's one child, but this group has \(children.count)", at: countWord,
                                          notes: [Note("the second child is here", span: children[1])],
                                          help: "wrap the children in a group of their own, or remove 'count'"))
            }
        case .custom:
            if let first = children.first {
                diagnostics.append(.error(.badCustomGroup, "a custom group has no children: it places its leaves by 'frame'", at: first,
                                          help: "use 'group horizontal' or 'group vertical' for children, or write 'frame X Y W H' instead"))
            } else if g.count == nil || (frame == nil && readCleanly) {
                let noFrame = frame == nil && readCleanly
                let missing = g.count == nil && noFrame ? "'count' and 'frame'" : g.count == nil ? "'count'" : "'frame'"
                diagnostics.append(.error(.badCustomGroup, "this custom group needs \(missing)", at: keyword,
                                          help: "write, for example, 'group custom gw x 200 count 2 { frame [0, gw / 2] 0 (gw / 2) gh }'"))
            }
        }
    }
}
