/// `update` blocks and their `insert` and `delete` statements (docs/language.md, "Batch updates").
/// `update`, `insert` and `delete` are words in statement position, not reserved words: elsewhere
/// they are names (`let update = 3`).

extension Parser {
    /// True at the word `update` followed by a `{` on the same line: the start of an `update`
    /// block.
    @inline(__always)
    func atUpdate() -> Bool {
        isWord(tok, "update") && next.kind == .lBrace
    }

    /// True at the word `insert` or `delete` in statement position, not followed by `=` (which
    /// would be a mistaken `let`).
    @inline(__always)
    func atChange() -> Bool {
        (isWord(tok, "insert") || isWord(tok, "delete")) && next.kind != .assign
    }

    // update = "update" "{" { change | expect } "}" ;
    mutating func parseUpdate(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        if context == .attach || context == .update {
            reportAndContinue(.error(.misplacedStatement, "'update' cannot stand inside \(context.name)", at: keyword,
                                     help: "an 'update' block stands in a section, in a layout without sections, or at the top of a file without either"))
        }
        guard let block = parseBlock(keyword: keyword, keywordText: "update", name: nil, inner: .update) else { return nil }
        return Statement(kind: .update(block), span: Span(keyword.start, prevEnd))
    }

    /// One statement of an `update` block: a `change` or an `expect`.
    mutating func parseUpdateStatement() -> Statement? {
        if at(.kwExpect) { return parseExpect() }
        if atChange() { return parseChange(in: .update) }
        if atScroll() { return parseScroll(in: .update) }
        let what: String
        switch tok.kind {
        case .kwLet: what = "'let'"
        case .kwLayout: what = "'layout'"
        case .kwSection: what = "'section'"
        case .identifier: what = "the setting '\(text(tok))'"
        default:
            reportUnexpected(expected: "'insert', 'delete' or 'expect'", help: "an 'update' block holds 'insert', 'delete' and 'expect' statements")
            return nil
        }
        report(.error(.misplacedStatement, "\(what) cannot stand inside an 'update' block", at: tok.span,
                      help: "an 'update' block holds 'insert', 'delete' and 'expect'; write it before the 'update' block"))
        return nil
    }

    // change = ( "insert" | "delete" ) expr { expr } ;
    mutating func parseChange(in context: Context) -> Statement? {
        let word = tok.span
        let kind: Change.Kind = isWord(tok, "insert") ? .insert : .delete
        advance()
        if context != .update {
            report(.error(.misplacedStatement, "'\(kind.rawValue)' stands only inside an 'update' block", at: word,
                          help: "write 'update { \(kind.rawValue) 0 }' in the section whose items change"))
            return nil
        }
        if atStatementEnd {
            report(.error(.missingValue, "'\(kind.rawValue)' needs at least one index", at: word,
                          help: "write, for example, '\(kind.rawValue) 0' or '\(kind.rawValue) 2 5'"))
            return nil
        }
        var arguments: [Expr] = []
        while !atStatementEnd {
            guard canStartExpression else {
                reportUnexpected(expected: "an index or the end of the statement", help: "write the indices one after another: '\(kind.rawValue) 2 5'")
                return nil
            }
            let from = tok.span.start
            let e = parseExpr()
            if panicking { return nil }
            arguments.append(e)
            warnSpacedMinus(e, kind.rawValue, from: from)
        }
        return Statement(kind: .change(Change(kind: kind, word: word, arguments: arguments)), span: Span(word.start, prevEnd))
    }
}
