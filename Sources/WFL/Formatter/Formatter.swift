/// `wfl fmt`: the canonical form of a `.wfl` file (docs/usage.md).
///
/// - two spaces of indent per block; a `{` stays on its keyword's line, a `}` stands on its own
///   line (an empty block is `{}`);
/// - one statement a line: `;` becomes a line break, empty statements go;
/// - one space between the tokens of a line, except none inside `(` `)` and `[` `]`, before `,`,
///   after a unary `-` or `!`, and between a name and the `(` or `[` of its call or index;
///   spaces around binary operators; `375x812` becomes `375 x 812`;
/// - at most one blank line, none at the start or end of a block or file;
/// - line breaks inside `( )` and `[ ]` are kept (continuation lines are indented one level per
///   open bracket); a trailing comma before a `)` or `]` on the same line goes;
/// - comments stay where they were: on their own line, or after the code of their line.
///
/// Formatting works on the tokens, with the syntax tree telling unary from binary `-`, so the
/// result has the same tokens in the same order; `format` checks that it does before returning.

/// Why a file was not formatted.
package enum FormatFailure: Error, Sendable {
    /// The file does not parse (the parser's errors that leave the tree incomplete): it is left
    /// as it is. A file whose only errors are about names (`height foo`) parses, and is formatted.
    case errors([Diagnostic])
    /// The formatted text would not mean the same (a bug of wfl's formatter); nothing is written.
    case wouldChangeMeaning(String)
}

package enum Formatter {
    /// The canonical text of `source`, or why there is none.
    package static func format(_ source: SourceFile) -> Result<String, FormatFailure> {
        // The tree is let go before the text is parsed again: a long file is not held twice.
        let printed: Result<String, FormatFailure> = {
            let parsed = Parser.parse(source)
            let blocking = parsed.diagnostics.filter { $0.severity == .error && !$0.code.keepsTheTreeWhole }
            if !blocking.isEmpty { return .failure(.errors(blocking)) }
            var printer = Printer(source: source, tree: parsed.tree)
            return .success(printer.run())
        }()
        guard case .success(let text) = printed else { return printed }
        // The check: same significant tokens, same comments, and it parses.
        let again = SourceFile(name: source.name, text: text)
        if Parser.parse(again).diagnostics.contains(where: { $0.severity == .error && !$0.code.keepsTheTreeWhole }) {
            return .failure(.wouldChangeMeaning("the formatted text does not parse"))
        }
        if let why = Formatter.difference(source, again) {
            return .failure(.wouldChangeMeaning(why))
        }
        return .success(text)
    }

    /// The tokens that carry meaning, with the facts about spacing the parser reads, one at a
    /// time: the check compares two files item by item, without a copy of either's tokens as
    /// strings (a long file is checked in the memory of its tokens).
    struct Signature {
        let file: SourceFile
        let plain: [Token]
        var k = 0
        var comments: [Token]? = nil
        var c = 0

        init(_ file: SourceFile) {
            self.file = file
            plain = Lexer.tokenize(file).tokens
        }

        /// The next item: a token's text (with " spaced" after a `(` or `[` that follows an
        /// operand with a space), and after the tokens, each comment as "comment TEXT" with its
        /// lines trimmed. Nil at the end.
        mutating func next() -> String? {
            while k < plain.count {
                let t = plain[k]
                defer { k += 1 }
                switch t.kind {
                case .newline, .semicolon, .eof: continue
                case .comma:
                    // A trailing comma is dropped by the formatter.
                    var j = k + 1
                    while j < plain.count, plain[j].kind == .newline { j += 1 }
                    if j < plain.count, plain[j].kind == .rParen || plain[j].kind == .rBracket { continue }
                    return ","
                case .lParen, .lBracket:
                    // Only after an operand does a space matter: `f(x)` is a call, `f (x)` two arguments.
                    var j = k - 1
                    while j >= 0, plain[j].kind == .newline { j -= 1 }
                    let afterOperand = j >= 0 && Printer.endsOperand(plain[j].kind)
                    return file.text(t.span) + (afterOperand && t.spaceBefore ? " spaced" : "")
                default:
                    return file.text(t.span)
                }
            }
            if comments == nil { comments = Lexer.tokenize(file, keepComments: true).tokens.filter { $0.kind == .comment } }
            guard let comments, c < comments.count else { return nil }
            defer { c += 1 }
            return "comment " + Printer.commentText(file, comments[c]).split(separator: "\n").map { $0.trimmingSpaces() }.joined(separator: "\n")
        }
    }

    static func difference(_ a: SourceFile, _ b: SourceFile) -> String? {
        var x = Signature(a), y = Signature(b)
        var k = 0
        while true {
            let l = x.next(), r = y.next()
            if l == nil, r == nil { return nil }
            k += 1
            if l != r { return "token \(k) would change: '\(l ?? "nothing")' became '\(r ?? "nothing")'" }
        }
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return s
    }
}

/// One pass over the tokens (comments kept), writing lines.
struct Printer {
    let source: SourceFile
    let tokens: [Token]
    /// Where unary `-` operators start (from the tree).
    var unaryMinus = Set<Int>()
    /// `(` and `[` that the parser sees with space before them.
    var spacedOpen = Set<Int>()

    var lines: [String] = []
    var line = ""
    var depth = 0
    var brackets = 0
    /// Line breaks seen in the source since the last token written (LF tokens).
    var sourceBreaks = 0
    /// A break is due before the next token: the statement ended.
    var statementEnded = false
    /// A line break inside brackets, to keep.
    var softBreak = false
    /// The last token written on this line, and whether it was a unary operator.
    var previous: TokenKind? = nil
    var previousUnary = false
    /// The last line written opened a block (no blank line after it).
    var justOpened = false

    init(source: SourceFile, tree: SyntaxTree) {
        self.source = source
        tokens = Lexer.tokenize(source, keepComments: true).tokens
        for st in tree.statements { collect(st) }
        for t in Lexer.tokenize(source).tokens where (t.kind == .lParen || t.kind == .lBracket) && t.spaceBefore {
            spacedOpen.insert(t.start)
        }
    }

    mutating func collect(_ st: Statement) {
        switch st.kind {
        case .let(let d): collect(d.value)
        case .layout(let b), .section(let b), .attach(let b), .update(let b), .scroll(let b): for s in b.statements { collect(s) }
        case .to(let stop): collect(stop.x); collect(stop.y); if let step = stop.step { collect(step) }
        case .change(let c): for a in c.arguments { collect(a) }
        case .appear(let a): for s in a.block.statements { collect(s) }
        case .expect(let e): collect(e.condition)
        case .group(let g):
            collect(g.width); collect(g.height)
            if let c = g.count { collect(c) }
            for s in g.block.statements { collect(s) }
        case .item(let item):
            collect(item.width); collect(item.height)
            for s in item.block?.statements ?? [] { collect(s) }
        case .setting(let s):
            for a in s.arguments {
                switch a {
                case .value(let e), .adaptive(let e, _), .side(_, let e): collect(e)
                case .size(let w, let h, _): collect(w); collect(h)
                case .word: break
                }
            }
        }
    }

    mutating func collect(_ e: Expr) {
        switch e {
        case .number, .boolean, .string, .name, .invalid: break
        case .list(let xs, _): for x in xs { collect(x) }
        case .unary(let op, let x, let span):
            if op == .negate { unaryMinus.insert(span.start) }
            collect(x)
        case .binary(let chain):
            collect(chain.head)
            for o in chain.operands { collect(o.rhs) }
        case .conditional(let c, let a, let b, _): collect(c); collect(a); collect(b)
        case .call(let call): for a in call.arguments { collect(a) }
        case .index(let a, let b, _): collect(a); collect(b)
        }
    }

    /// A comment's text as written, without the CR of a CRLF line.
    static func commentText(_ file: SourceFile, _ t: Token) -> String {
        var text = file.text(t.span)
        // A line ending in CR loses all its trailing spaces, tabs and CRs (not only the last CR:
        // `x \r  \r\r` must not become `x \r`, which the next formatting would change again).
        func trimmed(_ line: Substring) -> Substring {
            var line = line
            while let c = line.last, c == " " || c == "\t" || c == "\r" { line = line.dropLast() }
            return line
        }
        text = String(text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? trimmed($0) : $0 }.joined(separator: "\n"))
        while let c = text.last, c == " " || c == "\t" || c == "\r" { text.removeLast() }
        return text
    }

    var indent: String { String(repeating: "  ", count: depth) }

    mutating func flush() {
        if !line.isEmpty { lines.append(line) }
        line = ""
        lineHasText = false
        previous = nil
        previousUnary = false
    }

    /// Starts a new line for a statement or a comment of its own, with one blank line before it
    /// when the source had one or more.
    mutating func newStatementLine() {
        flush()
        if sourceBreaks >= 2, !lines.isEmpty, !justOpened {
            if lines.last != "" { lines.append("") }
        }
        justOpened = false
        line = indent
        sourceBreaks = 0
        statementEnded = false
        softBreak = false
    }

    /// Starts a continuation line inside brackets.
    mutating func newContinuationLine(closing: Bool) {
        flush()
        line = indent + String(repeating: "  ", count: Swift.max(0, brackets - (closing ? 1 : 0)))
        sourceBreaks = 0
        softBreak = false
    }

    /// True while `line` holds only its indent (kept as a flag: a line may be very long).
    var lineIsBlank: Bool { !lineHasText }
    var lineHasText = false

    static func endsOperand(_ k: TokenKind) -> Bool {
        switch k {
        case .identifier, .number, .string, .kwTrue, .kwFalse, .rParen, .rBracket: return true
        default: return false
        }
    }

    mutating func run() -> String {
        for t in tokens {
            switch t.kind {
            case .eof:
                break
            case .newline:
                if t.end > t.start { sourceBreaks += 1 }
                if brackets > 0 { softBreak = true } else { statementEnded = true }
            case .semicolon:
                statementEnded = true
            case .comment:
                let text = Printer.commentText(source, t)
                let trailing = sourceBreaks == 0 && !lineIsBlank && !line.isEmpty
                if sourceBreaks == 0 && justOpened && line.isEmpty && (lines.last?.hasSuffix("{") ?? false) {
                    // After the `{` of its line.
                    lines[lines.count - 1] += " " + text
                } else if trailing {
                    line += " " + text
                } else if brackets > 0 && !statementEnded {
                    newContinuationLine(closing: false)
                    line += text
                } else {
                    newStatementLine()
                    line += text
                }
                previous = .comment
                previousUnary = false
                lineHasText = !line.isEmpty
                // A line comment runs to the end of the line.
                if source.bytes[t.start + 1] == UInt8(ascii: "/") {
                    if brackets > 0 { softBreak = true } else { statementEnded = true }
                }
                sourceBreaks = 0
            case .lBrace:
                write(t, spaceBefore: true)
                depth += 1
                flush()
                justOpened = true
                statementEnded = true
                sourceBreaks = 0
            case .rBrace:
                let emptyBlock = justOpened && (lines.last?.hasSuffix("{") ?? false) && line.isEmpty
                depth = Swift.max(0, depth - 1)
                if emptyBlock {
                    lines[lines.count - 1] += "}"
                    justOpened = false
                } else {
                    flush()
                    justOpened = false
                    line = indent + "}"
                }
                if emptyBlock { line = lines.removeLast() }
                lineHasText = true
                previous = .rBrace
                previousUnary = false
                statementEnded = true
                sourceBreaks = 0
            default:
                if statementEnded || line.isEmpty {
                    newStatementLine()
                } else if softBreak {
                    newContinuationLine(closing: t.kind == .rParen || t.kind == .rBracket)
                }
                write(t, spaceBefore: needsSpace(before: t))
            }
        }
        flush()
        while lines.last == "" { lines.removeLast() }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    func needsSpace(before t: Token) -> Bool {
        guard let prev = previous, !lineIsBlank else { return false }
        if prev == .lParen || prev == .lBracket { return false }
        // `- -x`, not `--x`.
        if previousUnary { return prev == .minus && t.kind == .minus }
        switch t.kind {
        case .rParen, .rBracket, .comma: return false
        case .lParen, .lBracket:
            if Printer.endsOperand(prev) { return spacedOpen.contains(t.start) }
            return true
        default: return true
        }
    }

    mutating func write(_ t: Token, spaceBefore: Bool) {
        // A trailing comma before a closing bracket on the same line goes.
        if (t.kind == .rParen || t.kind == .rBracket), previous == .comma, line.hasSuffix(",") {
            line.removeLast()
        }
        if spaceBefore && !line.isEmpty && !lineIsBlank { line += " " }
        line += source.text(t.span)
        lineHasText = true
        switch t.kind {
        case .lParen, .lBracket: brackets += 1
        case .rParen, .rBracket: brackets = Swift.max(0, brackets - 1)
        default: break
        }
        previous = t.kind
        previousUnary = t.kind == .bang || (t.kind == .minus && unaryMinus.contains(t.start))
        sourceBreaks = 0
    }
}
