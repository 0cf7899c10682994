import WFL

/// Positions as the protocol counts them and as wfl does: a protocol position is a 0-based line
/// and a character offset in UTF-16 code units; wfl's spans are byte offsets into UTF-8 (its
/// columns count scalars). A scalar above U+FFFF is two UTF-16 units; a byte that is not UTF-8
/// (which a document from an editor never holds) counts as one, as its U+FFFD would.
///
/// The protocol's lines end at `\n`, `\r\n` or a lone `\r` (wfl's own messages count only `\n`),
/// so the map keeps line starts of its own when the text holds a CR.
struct LineMap {
    let source: SourceFile
    /// Where each of the protocol's lines starts (the byte order mark, on line 0, counted as a
    /// character: the editor's text holds it).
    let starts: [Int]

    init(source: SourceFile) {
        self.source = source
        let bytes = source.bytes
        guard bytes.contains(0x0D) else {
            starts = source.lineStarts
            return
        }
        var s = [0]
        var k = 0
        while k < bytes.count {
            if bytes[k] == 0x0D {
                if k + 1 < bytes.count, bytes[k + 1] == 0x0A { k += 1 }
                s.append(k + 1)
            } else if bytes[k] == 0x0A {
                s.append(k + 1)
            }
            k += 1
        }
        starts = s
    }

    /// The length of the UTF-8 sequence that starts with `lead` (1 for a byte that starts none).
    static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 1
        }
    }

    func lineStart(_ line: Int) -> Int { starts[line] }

    /// The end of line `line`'s text, before its line break.
    func lineEnd(_ line: Int) -> Int {
        guard line + 1 < starts.count else { return source.bytes.count }
        let next = starts[line + 1], bytes = source.bytes
        // The break is `\n`, `\r` or `\r\n`.
        if next >= 2, bytes[next - 1] == 0x0A, bytes[next - 2] == 0x0D, next - 2 >= starts[line] { return next - 2 }
        return next - 1
    }

    /// The 0-based line that holds `offset`.
    func lineIndex(of offset: Int) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The protocol position of a byte offset (an offset inside a line break is the line's end).
    func position(_ offset: Int) -> (line: Int, character: Int) {
        let o = Swift.max(0, Swift.min(offset, source.bytes.count))
        let line = lineIndex(of: o)
        return (line, units(line, upTo: Swift.min(o, lineEnd(line))))
    }

    /// The UTF-16 units of line `line`'s text before byte `offset`.
    private func units(_ line: Int, upTo offset: Int) -> Int {
        var k = lineStart(line), units = 0
        let bytes = source.bytes
        while k < offset {
            let n = LineMap.sequenceLength(bytes[k])
            units += n == 4 ? 2 : 1
            k += n
        }
        return units
    }

    /// The byte offset of a protocol position in a request: a character past the end of its line
    /// means the line's end (before its break, as the protocol says), a line past the last means
    /// the end of the text.
    func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < starts.count else { return source.bytes.count }
        var k = lineStart(line), units = 0
        let end = lineEnd(line), bytes = source.bytes
        while k < end, units < character {
            let n = LineMap.sequenceLength(bytes[k])
            units += n == 4 ? 2 : 1
            k = Swift.min(end, k + n)
        }
        return k
    }

    /// The byte offset of a position that an edit starts or ends at: as `offset(line:character:)`,
    /// except that a character past the end of its line's text means the start of the next line,
    /// after the whole line break, so an edit never lands between a CR and its LF
    /// (docs/DECISIONS.md).
    func editOffset(line: Int, character: Int) -> Int {
        guard line >= 0, line < starts.count else { return offset(line: line, character: character) }
        let k = offset(line: line, character: character)
        guard k == lineEnd(line), character > units(line, upTo: k) else { return k }
        return line + 1 < starts.count ? starts[line + 1] : source.bytes.count
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
