/// The lines of one REPL entry as they come: an entry ends at the line that leaves no block,
/// bracket or parenthesis open. Deciding that by parsing the whole entry after every line made an
/// open block cost the square of its length (16,000 lines: 92 s), so each line is lexed alone and
/// its brackets counted: the entry ends when the count comes back to zero. A `/*` comment going on
/// over lines is followed across them (comments nest): a line inside one is scanned for its end,
/// and what follows the end is lexed alone (at every line the parser read the whole entry, and a
/// comment of 16,000 lines took 18 s of CPU). From a line that cannot be lexed alone on (a bad
/// byte), the parser decides at every line (`Session.needsMore`).

/// One entry, line by line.
package struct EntryReader {
    private var lines: [String] = []
    /// The bytes of the lines so far, their newlines included.
    package private(set) var byteCount = 0
    /// Open `{`, `(` and `[` minus closed ones, over the lines so far.
    private var depth = 0
    /// Set by a line that does not lex alone: from then on every line parses the whole entry.
    private var wholeEachLine = false
    /// How many `/*` comments are open at the end of the lines so far (comments nest).
    private var commentDepth = 0
    /// The bytes lexed and parsed so far for this reader (for the test that proves it linear).
    package private(set) var bytesRead = 0

    package init() {}

    /// True before the first line of an entry.
    package var isEmpty: Bool { lines.isEmpty }

    /// Drops the lines read (Ctrl-C, an entry too long).
    package mutating func clear() {
        lines = []
        byteCount = 0
        depth = 0
        wholeEachLine = false
        commentDepth = 0
    }

    /// Adds a line; the whole entry when it is complete (the reader is empty again then), nil
    /// when it needs more lines.
    package mutating func add(_ line: String, to session: Session) -> String? {
        lines.append(line)
        byteCount += line.utf8.count + 1
        if !wholeEachLine, !count(Array(line.utf8)) { wholeEachLine = true }
        let entry: String
        if wholeEachLine {
            entry = lines.joined(separator: "\n")
            bytesRead += 2 * byteCount
            if session.needsMore(entry) { return nil }
        } else {
            // The parser finds an entry unfinished only when it ends inside a block or a bracket
            // (`ParseResult.incomplete`), so with every one the lexer saw closed it is complete.
            if depth > 0 || commentDepth > 0 { return nil }
            entry = lines.count == 1 ? lines[0] : lines.joined(separator: "\n")
        }
        clear()
        return entry
    }

    /// Counts the brackets of a line: what follows the end of the comments open before it, lexed
    /// alone, and the comments it leaves open. False when that part does not lex alone for
    /// another reason than a comment left open.
    private mutating func count(_ line: [UInt8]) -> Bool {
        bytesRead += line.count
        var start = 0
        if commentDepth > 0 {
            start = EntryReader.commentScan(line, from: 0, depth: &commentDepth)
            if commentDepth > 0 { return true }
        }
        let lexed = Lexer.tokenize(SourceFile(name: Session.entryName, bytes: Array(line[start...])))
        var commentStart = Int.max
        if !lexed.errors.isEmpty {
            guard lexed.errors.count == 1, let d = lexed.errors.values.first, d.code == .unterminatedComment else { return false }
            commentStart = d.span.start
        }
        for t in lexed.tokens where t.span.start < commentStart {
            switch t.kind {
            case .lBrace, .lParen, .lBracket: depth += 1
            case .rBrace, .rParen, .rBracket: depth -= 1
            default: break
            }
        }
        if commentStart != Int.max {
            commentDepth = 0
            _ = EntryReader.commentScan(line, from: start + commentStart, depth: &commentDepth)
        }
        return true
    }

    /// Reads `line` from `from` as the lexer reads a block comment (`/*` opens one more, `*/`
    /// closes one) until `depth` comes to 0 or the line ends; gives where it stopped.
    static func commentScan(_ line: [UInt8], from: Int, depth: inout Int) -> Int {
        var p = from
        while p < line.count {
            let next: UInt8 = p + 1 < line.count ? line[p + 1] : 0
            if line[p] == UInt8(ascii: "*"), next == UInt8(ascii: "/") {
                depth -= 1
                p += 2
                if depth == 0 { return p }
            } else if line[p] == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                depth += 1
                p += 2
            } else {
                p += 1
            }
        }
        return p
    }

    /// The lines read so far as one entry (the input ended with it still open), and an empty
    /// reader; nil when there were none.
    package mutating func rest() -> String? {
        guard !lines.isEmpty else { return nil }
        let entry = lines.joined(separator: "\n")
        clear()
        return entry
    }
}
