/// `scroll` blocks and their `to` statements (docs/language.md, "Scroll paths"). `scroll`, `to`
/// and `by` are words in their positions, not reserved words: elsewhere they are names
/// (`let to = 3`).

extension Parser {
    /// True at the word `scroll` followed by a `{` on the same line: the start of a `scroll` block.
    @inline(__always)
    func atScroll() -> Bool {
        isWord(tok, "scroll") && next.kind == .lBrace
    }

    /// True at the word `to` in statement position followed, after a space, by something other
    /// than `=` (which would be a mistaken `let`) or the end of the statement.
    @inline(__always)
    func atTo() -> Bool {
        guard isWord(tok, "to"), next.spaceBefore else { return false }
        switch next.kind {
        case .assign, .newline, .semicolon, .eof, .rBrace: return false
        default: return true
        }
    }

    // scroll = "scroll" "{" { to | expect } "}" ;
    mutating func parseScroll(in context: Context) -> Statement? {
        let keyword = tok.span
        advance()
        switch context {
        case .file, .layout:
            break
        default:
            reportAndContinue(.error(.misplacedScroll, "'scroll' cannot stand inside \(context.name)", at: keyword,
                                     help: "a 'scroll' block stands in a layout, or at the top of a file without layouts: it scrolls the whole collection view"))
        }
        guard let block = parseBlock(keyword: keyword, keywordText: "scroll", name: nil, inner: .scroll) else { return nil }
        return Statement(kind: .scroll(block), span: Span(keyword.start, prevEnd))
    }

    /// One statement of a `scroll` block: a `to` or an `expect`.
    mutating func parseScrollStatement() -> Statement? {
        if at(.kwExpect) { return parseExpect() }
        if isWord(tok, "to") { return parseTo(in: .scroll) }
        if atScroll() { return parseScroll(in: .scroll) }
        let help = "a 'scroll' block holds 'to X, Y [by D]' and 'expect'; write it before the 'scroll' block"
        let opensBlock = tok.kind == .kwLayout || tok.kind == .kwSection || atAttach() || atAppear() || atUpdate() || atGroup() || atItem()
        guard opensBlock || tok.kind == .kwLet || tok.kind == .identifier else {
            reportUnexpected(expected: "'to' or 'expect'", help: "a 'scroll' block holds 'to X, Y [by D]' and 'expect' statements")
            return nil
        }
        let what = tok.kind == .identifier && !opensBlock && SettingTable.info(text(tok)) != nil ? "the setting '\(text(tok))'" : "'\(text(tok))'"
        if opensBlock || tok.kind == .kwLet {
            // Read as where it may stand, so that its braces stay in order and no second error
            // is given for its place; then dropped.
            reportAndContinue(.error(.notInScroll, "\(what) cannot stand inside a 'scroll' block", at: tok.span, help: help))
            _ = parseStatement(in: tok.kind == .kwLayout ? .file : .layout)
            return nil
        }
        report(.error(.notInScroll, "\(what) cannot stand inside a 'scroll' block", at: tok.span, help: help))
        return nil
    }

    // to = "to" expr "," expr [ "by" expr ] ;
    mutating func parseTo(in context: Context) -> Statement? {
        let word = tok.span
        advance()
        if context != .scroll {
            report(.error(.toOutsideScroll, "'to' stands only inside a 'scroll' block", at: word,
                          help: "write 'scroll { to 0, 600 }' in the layout whose path it is"))
            return nil
        }
        guard canStartExpression else {
            reportUnexpected(expected: "an offset 'X, Y' after 'to'", help: "write, for example, 'to 0, 600' or 'to 0, 3000 by 844'")
            return nil
        }
        let x = parseExpr()
        if panicking { return nil }
        guard at(.comma) else {
            reportUnexpected(expected: "',' and the offset's Y", help: "a stop is a content offset: write 'to X, Y', for example 'to 0, \(Parser.oneLine(source.text(x.span)))'")
            return nil
        }
        advance()
        guard canStartExpression else {
            reportUnexpected(expected: "the offset's Y after ','", help: "write, for example, 'to 0, 600'")
            return nil
        }
        let y = parseExpr()
        if panicking { return nil }
        var byWord: Span? = nil
        var step: Expr? = nil
        if isWord(tok, "by") {
            byWord = tok.span
            advance()
            guard canStartExpression else {
                reportUnexpected(expected: "a step after 'by'", help: "write the distance between stops, for example 'by 844' (or 'by ch')")
                return nil
            }
            step = parseExpr()
            if panicking { return nil }
        }
        return Statement(kind: .to(ScrollStop(word: word, x: x, y: y, byWord: byWord, step: step)), span: Span(word.start, prevEnd))
    }
}
