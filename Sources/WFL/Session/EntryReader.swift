/// The lines of one REPL entry as they come: an entry ends at the line that leaves no block,
/// bracket or parenthesis open. Deciding that by parsing the whole entry after every line made an
/// open block cost the square of its length (16,000 lines: 92 s), so each line is lexed alone and
/// its brackets counted: the entry ends when the count comes back to zero. From a line that cannot
/// be lexed alone on (a `/*` comment going on over lines), the parser decides at every line
/// (`Session.needsMore`).

/// One entry, line by line.
package struct EntryReader {
    private var lines: [String] = []
    /// The bytes of the lines so far, their newlines included.
    package private(set) var byteCount = 0
    /// Open `{`, `(` and `[` minus closed ones, over the lines so far.
    private var depth = 0
    /// Set by a line that does not lex alone: from then on every line parses the whole entry.
    private var wholeEachLine = false
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
    }

    /// Adds a line; the whole entry when it is complete (the reader is empty again then), nil
    /// when it needs more lines.
    package mutating func add(_ line: String, to session: Session) -> String? {
        lines.append(line)
        byteCount += line.utf8.count + 1
        if !wholeEachLine {
            let lexed = Lexer.tokenize(SourceFile(name: Session.entryName, text: line))
            bytesRead += line.utf8.count
            if lexed.errors.isEmpty {
                for t in lexed.tokens {
                    switch t.kind {
                    case .lBrace, .lParen, .lBracket: depth += 1
                    case .rBrace, .rParen, .rBracket: depth -= 1
                    default: break
                    }
                }
            } else {
                wholeEachLine = true
            }
        }
        let entry: String
        if wholeEachLine {
            entry = lines.joined(separator: "\n")
            bytesRead += 2 * byteCount
            if session.needsMore(entry) { return nil }
        } else {
            // The parser finds an entry unfinished only when it ends inside a block or a bracket
            // (`ParseResult.incomplete`), so with every one the lexer saw closed it is complete.
            if depth > 0 { return nil }
            entry = lines.count == 1 ? lines[0] : lines.joined(separator: "\n")
        }
        clear()
        return entry
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
