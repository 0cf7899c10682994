/// How the REPL reads an entry (docs/usage.md, "Trying layouts out"): the parser decides, with
/// the same tests it uses at the start of a statement in a file, so that every statement a file
/// accepts is a statement in the REPL too.

/// What an entry typed in the REPL is: a statement, an expression to print, or nothing.
package enum EntryKind: Equatable, Sendable {
    /// Only white space and comments.
    case empty
    /// A statement as a file has them: `let`, `layout`, `section`, `expect`, a block that a word
    /// opens (`attach`, `appear`, `disappear`, `update`), `insert`/`delete`, or a setting.
    case statement
    /// Anything else: an expression whose value is printed.
    case expression
}

extension Parser {
    /// What kind of entry `source` is. The parser reads every statement that starts with a word
    /// and is no block as a setting; an entry alone may also be an expression, so a word is a
    /// setting only when it names one and a space or the end follows it (`columns 3`, `columns`,
    /// not `height+1`), or when a value follows it after a space (`colums 3`, a misspelt setting).
    package static func entryKind(of source: SourceFile) -> EntryKind {
        var p = Parser(source: source)
        while p.at(.newline) || p.at(.semicolon) { p.advance() }
        switch p.tok.kind {
        case .eof:
            return .empty
        case .kwLet, .kwLayout, .kwSection, .kwExpect:
            return .statement
        case .identifier:
            if p.atAttach() || p.atAppear() || p.atUpdate() || p.atChange() || p.atScroll() || p.atTo() { return .statement }
            let next = p.next
            if SettingTable.info(p.text(p.tok)) != nil {
                switch next.kind {
                case .eof, .newline, .semicolon: return .statement
                default: return next.spaceBefore ? .statement : .expression
                }
            }
            switch next.kind {
            case .identifier, .number, .string, .kwTrue, .kwFalse: return next.spaceBefore ? .statement : .expression
            default: return .expression
            }
        default:
            return .expression
        }
    }
}
