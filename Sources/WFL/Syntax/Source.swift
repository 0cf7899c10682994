/// A half-open range of byte offsets into a source file.
public struct Span: Equatable, Hashable, Sendable, CustomStringConvertible {
    // 32-bit offsets (a file is at most 64 MiB) keep every node of the tree small.
    @usableFromInline var _start: UInt32
    @usableFromInline var _end: UInt32

    /// The offset of the first byte.
    @inlinable public var start: Int {
        get { Int(_start) }
        set { _start = UInt32(truncatingIfNeeded: newValue) }
    }
    /// The offset just past the last byte.
    @inlinable public var end: Int {
        get { Int(_end) }
        set { _end = UInt32(truncatingIfNeeded: newValue) }
    }

    /// A span from `start` up to, not including, `end`.
    @inlinable public init(_ start: Int, _ end: Int) {
        _start = UInt32(truncatingIfNeeded: start)
        _end = UInt32(truncatingIfNeeded: end)
    }

    /// An empty span at `offset`: a caret between two characters.
    public static func point(_ offset: Int) -> Span { Span(offset, offset) }

    /// The smallest span that covers both.
    public func to(_ other: Span) -> Span { Span(Swift.min(start, other.start), Swift.max(end, other.end)) }

    public var length: Int { end - start }
    public var description: String { "\(start)..<\(end)" }
}

/// A line and column, both counted from 1. Columns count Unicode scalar values.
public struct Position: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var description: String { "\(line):\(column)" }
}

/// The text of one `.wfl` file, its name for messages, and where its lines start.
///
/// Spans are byte offsets; lines and columns are computed only when something is reported, by a
/// binary search over the line starts.
public struct SourceFile: Sendable {
    /// The name diagnostics show: a path, or `<stdin>`.
    public let name: String
    /// The raw bytes, as read. They need not be valid UTF-8.
    public let bytes: [UInt8]
    /// The offset at which each line starts. A line ends at LF; a CR before it is not part of it.
    public let lineStarts: [Int]

    /// True when the file starts with a UTF-8 byte order mark, which is not part of line 1.
    public let hasBOM: Bool

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
        hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        var starts = [0]
        starts.reserveCapacity(bytes.count / 24 + 1)
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// `file` with `more` bytes after it: its line starts are kept and only `more` is scanned
    /// (the REPL's session, entry by entry).
    package init(_ file: SourceFile, appending more: [UInt8]) {
        name = file.name
        bytes = file.bytes + more
        hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        var starts = file.lineStarts
        let base = file.bytes.count
        for (i, b) in more.enumerated() where b == 0x0A { starts.append(base + i + 1) }
        lineStarts = starts
    }

    /// `file` with its bytes changed to `bytes`, as many, with their line breaks in the same
    /// places: its line starts are kept (the REPL's setting typed again in its place).
    package init(_ file: SourceFile, sameLinesWith bytes: [UInt8]) {
        precondition(bytes.count == file.bytes.count)
        name = file.name
        self.bytes = bytes
        hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        lineStarts = file.lineStarts
    }

    /// The 0-based index of the line that holds `offset`.
    public func lineIndex(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The line and column of a byte offset.
    public func position(of offset: Int) -> Position {
        let line = lineIndex(of: offset)
        let start = lineStart(line)
        return Position(line: line + 1, column: SourceFile.scalarCount(bytes, start, Swift.max(start, Swift.min(offset, bytes.count))) + 1)
    }

    /// The bytes of the 0-based line `index`, without its LF or CRLF.
    public func lineBytes(_ index: Int) -> ArraySlice<UInt8> {
        let start = lineStart(index)
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<Swift.max(start, end)]
    }

    /// Where the text of the 0-based line `index` starts (after the BOM on the first line).
    public func lineStart(_ index: Int) -> Int {
        index == 0 && hasBOM ? 3 : lineStarts[index]
    }

    /// The text between two offsets, with bytes that are not UTF-8 shown as U+FFFD.
    public func text(_ span: Span) -> String {
        String(decoding: bytes[Swift.max(0, span.start)..<Swift.min(bytes.count, span.end)], as: UTF8.self)
    }

    /// How many scalars the bytes `start..<end` hold; a byte that is not part of a valid sequence
    /// counts as one, as it is shown as one U+FFFD.
    static func scalarCount(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
        var n = 0, i = start
        while i < end {
            let len = UTF8Check.sequenceLength(bytes, i, end)
            i += len == 0 ? 1 : len
            n += 1
        }
        return n
    }
}

/// Lines and columns of many offsets, for printers that give a position to every token or node:
/// a long line is measured once, not once per offset on it.
package struct PositionCache {
    let file: SourceFile
    private var tables: [Int: [Int32]] = [:]

    package init(_ file: SourceFile) {
        self.file = file
    }

    package mutating func position(of offset: Int) -> Position {
        let line = file.lineIndex(of: offset)
        let start = file.lineStart(line)
        let end = line + 1 < file.lineStarts.count ? file.lineStarts[line + 1] : file.bytes.count
        guard end - start > 256 else { return file.position(of: offset) }
        if tables[line] == nil {
            var table = [Int32](repeating: 0, count: end - start + 1)
            var column: Int32 = 1
            var i = start
            while i < end {
                let len = Swift.max(1, UTF8Check.sequenceLength(file.bytes, i, end))
                for j in i..<Swift.min(i + len, end) { table[j - start] = column }
                column += 1
                i += len
            }
            table[end - start] = column
            tables[line] = table
        }
        let k = Swift.max(0, Swift.min(offset, end) - start)
        return Position(line: line + 1, column: Int(tables[line]![k]))
    }
}

/// UTF-8 validation of one sequence at a time, so that bad bytes are reported where they stand.
enum UTF8Check {
    /// The length of the valid UTF-8 sequence at `i`, or 0 when the bytes there are not one.
    @inline(__always)
    static func sequenceLength(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        let c0 = b[i]
        if c0 < 0x80 { return 1 }
        func cont(_ k: Int) -> Bool { i + k < end && b[i + k] & 0xC0 == 0x80 }
        switch c0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : 0
        case 0xE0...0xEF:
            guard cont(1), cont(2) else { return 0 }
            let c1 = b[i + 1]
            if c0 == 0xE0 && c1 < 0xA0 { return 0 }           // overlong
            if c0 == 0xED && c1 >= 0xA0 { return 0 }          // surrogate
            return 3
        case 0xF0...0xF4:
            guard cont(1), cont(2), cont(3) else { return 0 }
            let c1 = b[i + 1]
            if c0 == 0xF0 && c1 < 0x90 { return 0 }           // overlong
            if c0 == 0xF4 && c1 >= 0x90 { return 0 }          // above U+10FFFF
            return 4
        default:
            return 0
        }
    }

    static func sequenceLength(_ bytes: [UInt8], _ i: Int, _ end: Int) -> Int {
        bytes.withUnsafeBufferPointer { sequenceLength($0, i, end) }
    }

    /// The scalar of the valid sequence of `len` bytes at `i` (nil only for what no valid
    /// sequence gives).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ len: Int) -> Unicode.Scalar? {
        var v: UInt32
        switch len {
        case 1: return Unicode.Scalar(bytes[i])
        case 2: v = UInt32(bytes[i] & 0x1F)
        case 3: v = UInt32(bytes[i] & 0x0F)
        default: v = UInt32(bytes[i] & 0x07)
        }
        for k in 1..<len { v = v << 6 | UInt32(bytes[i + k] & 0x3F) }
        return Unicode.Scalar(v)
    }

    /// The same for an array, U+FFFD where there is no scalar.
    static func decode(_ bytes: [UInt8], _ i: Int, _ len: Int) -> Unicode.Scalar {
        bytes.withUnsafeBufferPointer { decode($0, i, len) } ?? "\u{FFFD}"
    }

    /// How many scalars `start..<end` holds, counting no further than `limit`: a bad byte counts
    /// as one, as `SourceFile.scalarCount` counts it.
    static func scalarCount(_ bytes: [UInt8], _ start: Int, _ end: Int, atMost limit: Int) -> Int {
        var n = 0, i = start
        while i < end, n < limit {
            i += Swift.max(1, sequenceLength(bytes, i, end))
            n += 1
        }
        return n
    }

    /// Where the scalar before the one at `p` starts, reading `lineStart..<lineEnd` as the
    /// renderer decodes it forwards (a bad byte is a scalar of its own). `p` must start a scalar.
    ///
    /// A byte that is not a continuation byte always starts a scalar, so the one before `p` is a
    /// valid sequence that starts at most 3 bytes back and ends at `p`, or else the single byte
    /// before `p`.
    static func previousBoundary(_ bytes: [UInt8], _ p: Int, _ lineStart: Int, _ lineEnd: Int) -> Int {
        var q = p - 1
        while q > lineStart, q > p - 4, bytes[q] & 0xC0 == 0x80 { q -= 1 }
        if bytes[q] & 0xC0 != 0x80, sequenceLength(bytes, q, lineEnd) == p - q { return q }
        return p - 1
    }
}
