import WFL

/// Positions as the protocol counts them and as wfl does: a protocol position is a 0-based line
/// and a character offset in UTF-16 code units; wfl's spans are byte offsets into UTF-8 (its
/// columns count scalars). A scalar above U+FFFF is two UTF-16 units; a byte that is not UTF-8
/// (which a document from an editor never holds) counts as one, as its U+FFFD would.
struct LineMap {
    let source: SourceFile

    /// The length of the UTF-8 sequence that starts with `lead` (1 for a byte that starts none).
    static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 1
        }
    }

    /// Where the line holding `offset` starts: the raw start, the byte order mark counted as a
    /// character (the editor's text holds it).
    func lineStart(_ line: Int) -> Int { source.lineStarts[line] }

    /// The end of line `line`'s text, before its LF.
    func lineEnd(_ line: Int) -> Int {
        line + 1 < source.lineStarts.count ? source.lineStarts[line + 1] - 1 : source.bytes.count
    }

    /// The protocol position of a byte offset.
    func position(_ offset: Int) -> (line: Int, character: Int) {
        let o = Swift.max(0, Swift.min(offset, source.bytes.count))
        let line = source.lineIndex(of: o)
        var k = lineStart(line), units = 0
        let bytes = source.bytes
        while k < o {
            let n = LineMap.sequenceLength(bytes[k])
            units += n == 4 ? 2 : 1
            k += n
        }
        return (line, units)
    }

    /// The byte offset of a protocol position: a character past the end of its line means the
    /// line's end, a line past the last means the end of the text.
    func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < source.lineStarts.count else { return source.bytes.count }
        var k = lineStart(line), units = 0
        let end = lineEnd(line), bytes = source.bytes
        while k < end, units < character {
            let n = LineMap.sequenceLength(bytes[k])
            units += n == 4 ? 2 : 1
            k = Swift.min(end, k + n)
        }
        return k
    }

    func json(_ offset: Int) -> JSON {
        let p = position(offset)
        return .object([("line", .number(Double(p.line))), ("character", .number(Double(p.character)))])
    }

    func range(_ span: Span) -> JSON {
        .object([("start", json(span.start)), ("end", json(Swift.max(span.start, span.end)))])
    }

    /// The range of the whole text.
    var whole: JSON {
        range(Span(0, source.bytes.count))
    }
}
