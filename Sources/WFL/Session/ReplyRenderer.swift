/// How a REPL session's reply is shown: diagnostics moved into the entry (its lines, not the
/// session's) or named by the earlier entry they point into, and only the warnings an entry brings.

/// Renders what an entry gave against the entry it came from.
struct ReplyRenderer {
    /// Colour the rendered diagnostics.
    var color: Bool
    /// Warnings of the accepted state, so that an entry shows only the warnings it brings.
    private var warningKeys: Set<String> = []

    init(color: Bool) {
        self.color = color
    }

    /// Takes `run`'s warnings as the session's own: later entries do not show them again.
    mutating func remember(_ run: Compilation) {
        warningKeys = Set(run.diagnostics.map { ReplyRenderer.key($0, run.source) })
    }

    /// Diagnostics against a file as it is (`:load`, `:transitions`).
    func render(_ diagnostics: [Diagnostic], in file: SourceFile) -> String {
        DiagnosticRenderer(color: color).render(diagnostics, in: file)
    }

    static func key(_ d: Diagnostic, _ source: SourceFile) -> String {
        "\(d.severity) \(d.message) \(source.text(d.span))"
    }

    /// The diagnostics worth showing for an entry: every error; warnings the session did not have
    /// before, except "set twice" about an earlier entry (typing a setting again replaces it).
    func shown(_ diagnostics: [Diagnostic], _ c: EntryStore.Composed) -> [Diagnostic] {
        // Only a warning needs the session's text (for its key).
        guard diagnostics.contains(where: { $0.severity == .warning }) else { return diagnostics }
        let source = SourceFile(name: Session.sessionName, bytes: c.bytes)
        return diagnostics.filter { d in
            guard d.severity == .warning else { return true }
            if d.code == .setTwice,
               let earlier = d.notes.first?.span, !inEntry(earlier, c) {
                return false
            }
            return !warningKeys.contains(ReplyRenderer.key(d, source))
        }
    }

    func inEntry(_ span: Span, _ c: EntryStore.Composed) -> Bool {
        span.start >= c.base && span.start <= c.base + c.length
    }

    /// Renders diagnostics: those in the entry against the entry alone (lines of the entry), the
    /// others against the whole session.
    func render(_ diagnostics: [Diagnostic], _ c: EntryStore.Composed, source: SourceFile) -> String {
        if diagnostics.isEmpty { return "" }
        let renderer = DiagnosticRenderer(color: color)
        let entryFile = SourceFile(name: Session.entryName, bytes: Array(c.bytes[c.base..<(c.base + c.length)]))
        let sessionFile = SourceFile(name: Session.sessionName, bytes: c.bytes)
        var out = ""
        let firstLine = sessionFile.lineIndex(of: c.base)
        // Line references into the entry are numbered in the entry; those into other entries
        // name the entry, as every entry has its own line 1.
        func relocated(_ t: DiagnosticText) -> DiagnosticText {
            t.mapLines { r in
                inEntry(r.span, c) ? .line(LineReference(shift(r.span, c), line: r.line - firstLine))
                                   : .text(ReplyRenderer.describe(r, c))
            }
        }
        for var d in diagnostics {
            // Between the session and the entry: on the `expect` that wraps an expression.
            if let wrapper = c.wrapper, d.span.start < c.base, d.span.start >= wrapper - 1 {
                d.span = .point(c.base)
            }
            guard inEntry(d.span, c) else {
                out += renderer.render(d, in: sessionFile)
                continue
            }
            d.span = shift(d.span, c)
            d.text = relocated(d.text)
            d.help = d.help.map(relocated)
            d.notes = d.notes.map { n in
                guard let s = n.span else { return Note(relocated(n.text)) }
                if inEntry(s, c) { return Note(relocated(n.text), span: shift(s, c)) }
                let line = sessionFile.lineIndex(of: s.start)
                let text = String(decoding: sessionFile.lineBytes(line), as: UTF8.self)
                return Note("\(relocated(n.text)), in an earlier entry: '\(text.trimmingSpaces)'")
            }
            out += renderer.render(d, in: entryFile)
        }
        return out
    }

    /// "line 1 of the entry 'let h = 3'": a line of another entry, by its line in that entry and
    /// the entry's first line ("line N" of the session when no entry holds it).
    static func describe(_ r: LineReference, _ c: EntryStore.Composed) -> String {
        guard let e = c.others.last(where: { $0.start <= r.span.start }),
              r.span.start <= e.start + e.text.utf8.count else { return "line \(r.line)" }
        let line = c.bytes[e.start..<r.span.start].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lines = e.text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = String(lines.first ?? "").trimmingSpaces + (lines.count > 1 ? " ..." : "")
        return "line \(line) of the entry '\(first)'"
    }

    func shift(_ s: Span, _ c: EntryStore.Composed) -> Span {
        let start = Swift.min(Swift.max(s.start - c.base, 0), c.length)
        let end = Swift.min(Swift.max(s.end - c.base, start), c.length)
        return Span(start, end)
    }

    /// True when `span` starts in the entry or in the `expect` that wraps an expression entry.
    func inEntryOrPrefix(_ span: Span, _ c: EntryStore.Composed) -> Bool {
        span.start >= (c.wrapper ?? c.base) && span.start <= c.base + c.length
    }
}
