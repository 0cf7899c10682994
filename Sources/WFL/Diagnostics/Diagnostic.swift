/// How serious a diagnostic is. Warnings never change an exit status.
public enum Severity: String, Sendable {
    case error, warning
}

/// A remark attached to a diagnostic, with or without a place of its own.
public struct Note: Equatable, Sendable {
    /// The words, line references kept as spans.
    public var text: DiagnosticText
    public var span: Span?

    public init(_ text: DiagnosticText, span: Span? = nil) {
        self.text = text
        self.span = span
    }

    /// The words as shown against the file the note was made for.
    public var message: String { text.description }
}

/// A problem found in a `.wfl` file, as data: rendered in one place (`DiagnosticRenderer`).
///
/// Messages start lower-case, quote the user's words with `'...'`, and make sense on their own.
/// Code that needs to know what a diagnostic is about reads its `code`, never its words.
public struct Diagnostic: Equatable, Sendable {
    /// What it is about: stable across wordings (`docs/diagnostics.md` lists them).
    public var code: DiagnosticCode
    public var severity: Severity
    /// The words, line references kept as spans.
    public var text: DiagnosticText
    /// The smallest part of the source the message is about; an empty span is one caret.
    public var span: Span
    public var notes: [Note]
    /// Suggestions, each printed as `= help: ...`.
    public var help: [DiagnosticText]

    /// A diagnostic of `code`, an error or a warning as the code says.
    public init(_ code: DiagnosticCode, _ text: DiagnosticText, at span: Span, notes: [Note] = [], help: [DiagnosticText] = []) {
        self.code = code
        self.severity = code.severity
        self.text = text
        self.span = span
        self.notes = notes
        self.help = help
    }

    /// The message as shown against the file it was made for.
    public var message: String { text.description }

    /// An error (`code` must be an `E` code).
    public static func error(_ code: DiagnosticCode, _ text: DiagnosticText, at span: Span, notes: [Note] = [], help: String? = nil) -> Diagnostic {
        assert(code.severity == .error, "\(code) is not an error code")
        return Diagnostic(code, text, at: span, notes: notes, help: help.map { [DiagnosticText($0)] } ?? [])
    }

    /// A warning (`code` must be a `W` code).
    public static func warning(_ code: DiagnosticCode, _ text: DiagnosticText, at span: Span, notes: [Note] = [], help: String? = nil) -> Diagnostic {
        assert(code.severity == .warning, "\(code) is not a warning code")
        return Diagnostic(code, text, at: span, notes: notes, help: help.map { [DiagnosticText($0)] } ?? [])
    }
}

extension Array where Element == Diagnostic {
    /// True when any of them is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// In the order of their places in the source; those at one place in the order they came.
    package func inSourceOrder() -> [Diagnostic] {
        enumerated().sorted { ($0.element.span.start, $0.offset) < ($1.element.span.start, $1.offset) }.map(\.element)
    }
}
