/// Turns diagnostics into the text of LANGUAGE.md:
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
        var out = ""
        let sev = d.severity == .error ? paint("error", "1;31") : paint("warning", "1;33")
        out += header(file, d.span.start) + " " + sev + ": " + paint(d.message, "1") + "\n"
        out += snippet(file, d.span, marker: d.severity == .error ? "1;31" : "1;33")
        for note in d.notes {
            if let span = note.span {
                out += header(file, span.start) + " " + paint("note", "1;36") + ": " + note.message + "\n"
                out += snippet(file, span, marker: "1;36")
            } else {
                out += "  " + paint("= note", "1;36") + ": " + note.message + "\n"
            }
        }
        for h in d.help {
            out += "  " + paint("= help", "1;36") + ": " + h + "\n"
        }
        return out
    }

    /// Every diagnostic in order.
    public func render(_ ds: [Diagnostic], in file: SourceFile) -> String {
        ds.map { render($0, in: file) }.joined()
    }

    private func header(_ file: SourceFile, _ offset: Int) -> String {
        let p = file.position(of: offset)
        return paint("\(file.name):\(p.line):\(p.column):", "1")
    }

    /// The source line with a gutter, and carets under the span (only its first line, when it
    /// runs over several).
    private func snippet(_ file: SourceFile, _ span: Span, marker: String) -> String {
        let lineIndex = file.lineIndex(of: span.start)
        let lineStart = file.lineStart(lineIndex)
        let bytes = file.lineBytes(lineIndex)
        let number = String(lineIndex + 1)
        let pad = String(repeating: " ", count: number.count)
        let text = String(decoding: bytes, as: UTF8.self)
        // Tabs are kept in the caret line so the carets stay under what they mark.
        var lead = ""
        var count = 0
        var i = lineStart
        let lineEnd = bytes.endIndex
        let stop = Swift.min(span.start, lineEnd)
        while i < stop {
            let len = UTF8Check.sequenceLength(file.bytes, i, lineEnd)
            lead += file.bytes[i] == 0x09 ? "\t" : " "
            i += len == 0 ? 1 : len
        }
        let markEnd = Swift.min(span.end, lineEnd)
        while i < markEnd {
            let len = UTF8Check.sequenceLength(file.bytes, i, lineEnd)
            count += 1
            i += len == 0 ? 1 : len
        }
        let carets = "^" + String(repeating: "~", count: Swift.max(0, count - 1))
        var out = "  " + paint(number + " |", "1;34") + (text.isEmpty ? "" : " " + text) + "\n"
        out += "  " + paint(pad + " |", "1;34") + " " + lead + paint(carets, marker) + "\n"
        return out
    }
}
