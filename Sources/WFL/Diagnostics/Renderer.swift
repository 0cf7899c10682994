/// Turns diagnostics into the text of docs/language.md ("Diagnostics"):
///
/// ```
/// feed.wfl:7:3: error: unknown setting 'colums'
///   7 |   colums 3
///     |   ^~~~~~
///   = help: did you mean 'columns'?
/// ```
///
/// This is the only place that knows what a diagnostic looks like.
public struct DiagnosticRenderer: Sendable {
    /// Use ANSI colours (only on a terminal, never with `NO_COLOR`: the caller decides).
    public var color: Bool

    public init(color: Bool = false) {
        self.color = color
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// One diagnostic, ending with a newline.
    public func render(_ d: Diagnostic, in file: SourceFile) -> String {
        var columns = ColumnCursor(file)
        return render(d, file, &columns)
    }

    /// The most diagnostics a list shows; the rest are counted in one line, so that a file of a
    /// million mistakes prints a screenful, not gigabytes.
    public static let maxShown = 100

    /// Every diagnostic in order, at most `maxShown` of them, then a line that counts the rest.
    public func render(_ ds: [Diagnostic], in file: SourceFile) -> String {
        var columns = ColumnCursor(file)
        var out = ""
        for d in ds.prefix(DiagnosticRenderer.maxShown) { out += render(d, file, &columns) }
        if ds.count > DiagnosticRenderer.maxShown {
            let rest = ds[DiagnosticRenderer.maxShown...]
            let errors = rest.reduce(0) { $0 + ($1.severity == .error ? 1 : 0) }
            let warnings = rest.count - errors
            var counts: [String] = []
            if errors > 0 { counts.append("\(errors) more error\(errors == 1 ? "" : "s")") }
            if warnings > 0 { counts.append("\(warnings) more warning\(warnings == 1 ? "" : "s")") }
            out += paint(TerminalText.escaped(file.name) + ":", "1") + " " + counts.joined(separator: " and ") + ", not shown\n"
        }
        return out
    }

    private func render(_ d: Diagnostic, _ file: SourceFile, _ columns: inout ColumnCursor) -> String {
        var out = ""
        let sev = d.severity == .error ? paint("error", "1;31") : paint("warning", "1;33")
        let (place, snippet) = block(file, d.span, marker: d.severity == .error ? "1;31" : "1;33", &columns)
        out += place + " " + sev + ": " + paint(words(d.text, file), "1") + "\n" + snippet
        for note in d.notes {
            if let span = note.span {
                let (place, snippet) = block(file, span, marker: "1;36", &columns)
                out += place + " " + paint("note", "1;36") + ": " + words(note.text, file) + "\n" + snippet
            } else {
                out += "  " + paint("= note", "1;36") + ": " + words(note.text, file) + "\n"
            }
        }
        for h in d.help {
            out += "  " + paint("= help", "1;36") + ": " + words(h, file) + "\n"
        }
        return out
    }

    /// Words with each line reference numbered in `file`, where the diagnostic is shown, and
    /// control characters (a quoted escape, say) escaped.
    private func words(_ t: DiagnosticText, _ file: SourceFile) -> String {
        TerminalText.escaped(t.text { "line \(file.lineIndex(of: $0.span.start) + 1)" })
    }

    /// The widest source line shown whole; a longer one is shown as a window around the span.
    static let maxWidth = 160

    /// The `file:line:col:` of a span, and its source line with a gutter and carets under the
    /// span (only its first line, when it runs over several).
    ///
    /// The work is proportional to the window shown, not to the line: a long line is cut to a
    /// window around the span, and only the window's bytes are decoded. Columns still count the
    /// scalars from the line's start, but `columns` counts each line once for diagnostics in
    /// order along it.
    private func block(_ file: SourceFile, _ span: Span, marker: String, _ columns: inout ColumnCursor) -> (String, String) {
        let bytes = file.bytes
        let lineIndex = file.lineIndex(of: span.start)
        let lineStart = file.lineStart(lineIndex)
        let lineEnd = file.lineBytes(lineIndex).endIndex
        // Where the carets start: the span's start, or the line's end when the span starts at the
        // line break. Measured before the header's column, so that the cursor only moves forward.
        let startByte = Swift.min(Swift.max(span.start, lineStart), lineEnd)
        let first = columns.column(of: startByte) - 1
        let p = columns.position(of: span.start)
        let place = paint("\(TerminalText.escaped(file.name)):\(p.line):\(p.column):", "1")

        // A long line (a minified spec, a file of one line) is cut to a window around the span:
        // from 60 scalars before it, 120 scalars wide.
        var from = lineStart, to = lineEnd
        if UTF8Check.scalarCount(bytes, lineStart, lineEnd, atMost: DiagnosticRenderer.maxWidth + 1) > DiagnosticRenderer.maxWidth {
            from = startByte
            for _ in 0..<Swift.min(first, 60) { from = UTF8Check.previousBoundary(bytes, from, lineStart, lineEnd) }
            to = from
            var n = 0
            while to < lineEnd, n < DiagnosticRenderer.maxWidth - 40 {
                to += Swift.max(1, UTF8Check.sequenceLength(bytes, to, lineEnd))
                n += 1
            }
        }
        var text = from > lineStart ? "..." : ""
        var lead = from > lineStart ? "   " : ""
        var carets = 0
        var i = from
        while i < to {
            let len = UTF8Check.sequenceLength(bytes, i, lineEnd)
            let scalar = len == 0 ? "\u{FFFD}" : UTF8Check.decode(bytes, i, len)
            var width: Int
            if TerminalText.needsEscape(scalar) {
                let escape = TerminalText.escape(scalar)
                text += escape
                width = escape.utf8.count
            } else {
                text.unicodeScalars.append(scalar)
                width = scalar == "\t" ? 1 : TerminalText.width(scalar)
            }
            if i < startByte {
                // Tabs are kept in the caret line so the carets stay under what they mark.
                lead += scalar == "\t" ? "\t" : String(repeating: " ", count: width)
            } else if i < span.end {
                carets += width
            }
            i += Swift.max(1, len)
        }
        if to < lineEnd { text += "..." }
        let number = String(lineIndex + 1)
        let pad = String(repeating: " ", count: number.count)
        let marks = "^" + String(repeating: "~", count: Swift.max(1, carets) - 1)
        var out = "  " + paint(number + " |", "1;34") + (text.isEmpty ? "" : " " + text) + "\n"
        out += "  " + paint(pad + " |", "1;34") + " " + lead + paint(marks, marker) + "\n"
        return (place, out)
    }
}

/// Columns of many offsets in order along a line, each measured from the last rather than from
/// the line's start: the diagnostics of a long line cost one pass over it, not one each.
struct ColumnCursor {
    let file: SourceFile
    /// The last offset measured, on line `line`, and its column; `line` is -1 before the first.
    private var line = -1
    private var offset = 0
    private var column = 1

    init(_ file: SourceFile) {
        self.file = file
    }

    /// The line and column of `offset`, equal to `file.position(of:)`.
    mutating func position(of offset: Int) -> Position {
        let line = file.lineIndex(of: offset)
        let start = file.lineStart(line)
        let target = Swift.max(start, Swift.min(offset, file.bytes.count))
        var from = start, column = 1
        if line == self.line, self.offset <= target {
            from = self.offset
            column = self.column
        }
        column += SourceFile.scalarCount(file.bytes, from, target)
        // Only an offset at a scalar's first byte is a place to go on from: counting from there
        // gives what counting from the line's start gives.
        if target == file.bytes.count || file.bytes[target] & 0xC0 != 0x80 {
            self.line = line
            self.offset = target
            self.column = column
        }
        return Position(line: line + 1, column: column)
    }

    /// The column of `offset` alone.
    mutating func column(of offset: Int) -> Int { position(of: offset).column }
}
