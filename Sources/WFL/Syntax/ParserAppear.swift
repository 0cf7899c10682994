/// `appear { ... }` and `disappear { ... }` (docs/language.md, "Batch updates"): where an inserted
/// element starts its animation and where a deleted one ends it. The words are not reserved: they
/// open a block only when a `{` follows them on their line.

extension Parser {
    /// True at the word `appear` or `disappear` followed by a `{`: the start of such a block.
    @inline(__always)
    func atAppear() -> Bool {
        (isWord(tok, "appear") || isWord(tok, "disappear")) && next.kind == .lBrace
    }

    // appear = ( "appear" | "disappear" ) "{" { setting } "}" ;
    mutating func parseAppear(in context: Context) -> Statement? {
        let keyword = tok.span
        let disappear = text(tok) == "disappear"
        let word = disappear ? "disappear" : "appear"
        advance()
        if context == .attach {
            reportAndContinue(.error(.misplacedStatement, "'\(word)' cannot stand inside an 'attach' block", at: keyword,
                                     help: "close the 'attach' block first: '\(word)' applies to attached views as to cells"))
        }
        guard let block = parseBlock(keyword: keyword, keywordText: word, name: nil, inner: disappear ? .disappear : .appear) else { return nil }
        return Statement(kind: .appear(AppearBlock(disappear: disappear, block: block)), span: Span(keyword.start, prevEnd))
    }

    /// One statement inside an `appear` or `disappear` block, which holds only the settings
    /// `alpha`, `zoom` and `offset`. Anything else is an error; a statement or block that stands
    /// there by mistake is read (so its braces and names stay in order) and dropped.
    mutating func parseAppearStatement(in context: Context) -> Statement? {
        let holds = "\(context.name) holds only 'alpha', 'zoom', 'offset', 'translate' and 'rotate'"
        func misplaced(_ what: String) -> Statement? {
            reportAndContinue(.error(.misplacedStatement, "\(what) cannot stand inside \(context.name)", at: tok.span,
                                     help: "close the block first; \(holds)"))
            // Read as where it may stand, so that no second error is given for its place.
            _ = parseStatement(in: tok.kind == .kwLayout ? .file : .layout)
            return nil
        }
        switch tok.kind {
        case .kwLet, .kwLayout, .kwSection, .kwExpect:
            return misplaced("'\(text(tok))'")
        case .identifier:
            if atAttach() || atAppear() { return misplaced("'\(text(tok))'") }
            let word = text(tok)
            if Property.appearing(word, disappear: false) == nil, SettingTable.info(word) != nil {
                report(.error(.notInAppear, "'\(word)' cannot stand inside \(context.name)", at: tok.span, help: holds))
                return nil
            }
            return parseSetting(in: context)
        default:
            reportUnexpected(expected: "'alpha', 'zoom' or 'offset'", help: tok.kind == .error ? nil : holds)
            return nil
        }
    }
}
