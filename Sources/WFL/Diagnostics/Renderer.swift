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
        var out = ""
        let sev = d.severity == .error ? paint("error", "1;31") : paint("warning", "1;33")
        out += header(file, d.span.start) + " " + sev + ": " + paint(words(d.text, file), "1") + "\n"
        out += snippet(file, d.span, marker: d.severity == .error ? "1;31" : "1;33")
        for note in d.notes {
            if let span = note.span {
                out += header(file, span.start) + " " + paint("note", "1;36") + ": " + words(note.text, file) + "\n"
                out += snippet(file, span, marker: "1;36")
            } else {
                out += "  " + paint("= note", "1;36") + ": " + words(note.text, file) + "\n"
            }
        }
        for h in d.help {
            out += "  " + paint("= help", "1;36") + ": " + words(h, file) + "\n"
        }
        return out
    }

    /// Words with each line reference numbered in `file`, where the diagnostic is shown.
    private func words(_ t: DiagnosticText, _ file: SourceFile) -> String {
        t.text { "line \(file.position(of: $0.span.start).line)" }
    }

    /// Every diagnostic in order.
    public func render(_ ds: [Diagnostic], in file: SourceFile) -> String {
        ds.map { render($0, in: file) }.joined()
    }

    private func header(_ file: SourceFile, _ offset: Int) -> String {
        let p = file.position(of: offset)
        return paint("\(file.name):\(p.line):\(p.column):", "1")
    }

    /// The widest source line shown whole; a longer one is shown as a window around the span.
    static let maxWidth = 160

    /// The source line with a gutter, and carets under the span (only its first line, when it
    /// runs over several).
    private func snippet(_ file: SourceFile, _ span: Span, marker: String) -> String {
        let lineIndex = file.lineIndex(of: span.start)
        let lineEnd = file.lineBytes(lineIndex).endIndex
        let number = String(lineIndex + 1)
        let pad = String(repeating: " ", count: number.count)
        // The line's scalars, each byte that is not UTF-8 shown as U+FFFD (as columns count them),
        // and where the span starts and ends among them.
        var scalars: [Unicode.Scalar] = []
        var first = -1, last = -1
        var i = file.lineStart(lineIndex)
        while i < lineEnd {
            if i >= span.start, first < 0 { first = scalars.count }
            if i < span.end { last = scalars.count }
            let len = UTF8Check.sequenceLength(file.bytes, i, lineEnd)
            if len == 0 {
                scalars.append("\u{FFFD}")
                i += 1
            } else {
                scalars.append(String(decoding: file.bytes[i..<(i + len)], as: UTF8.self).unicodeScalars.first!)
                i += len
            }
        }
        if first < 0 { first = scalars.count }
        let count = Swift.max(1, last - first + 1)
        // A long line (a minified spec, a file of one line) is cut to a window around the span.
        var from = 0, to = scalars.count
        if scalars.count > DiagnosticRenderer.maxWidth {
            from = Swift.max(0, first - 60)
            to = Swift.min(scalars.count, from + DiagnosticRenderer.maxWidth - 40)
        }
        var text = from > 0 ? "..." : ""
        var lead = from > 0 ? "   " : ""
        for k in from..<to {
            text.unicodeScalars.append(scalars[k])
            // Tabs are kept in the caret line so the carets stay under what they mark.
            if k < first { lead += scalars[k] == "\t" ? "\t" : " " }
        }
        if to < scalars.count { text += "..." }
        let shownCount = Swift.max(1, Swift.min(count, to - first))
        let carets = "^" + String(repeating: "~", count: shownCount - 1)
        var out = "  " + paint(number + " |", "1;34") + (text.isEmpty ? "" : " " + text) + "\n"
        out += "  " + paint(pad + " |", "1;34") + " " + lead + paint(carets, marker) + "\n"
        return out
    }
}
