/// How serious a diagnostic is. Warnings never change an exit status.
public enum Severity: String, Sendable {
    case error, warning
}

/// A remark attached to a diagnostic, with or without a place of its own.
public struct Note: Equatable, Sendable {
    public var message: String
    public var span: Span?

    public init(_ message: String, span: Span? = nil) {
        self.message = message
        self.span = span
    }
}

/// A problem found in a `.wfl` file, as data: rendered in one place (`DiagnosticRenderer`).
///
/// Messages start lower-case, quote the user's words with `'...'`, and make sense on their own.
public struct Diagnostic: Equatable, Sendable {
    public var severity: Severity
    public var message: String
    /// The smallest part of the source the message is about; an empty span is one caret.
    public var span: Span
    public var notes: [Note]
    /// Suggestions, each printed as `= help: ...`.
    public var help: [String]

    public init(_ severity: Severity, _ message: String, at span: Span, notes: [Note] = [], help: [String] = []) {
        self.severity = severity
        self.message = message
        self.span = span
        self.notes = notes
        self.help = help
    }

    public static func error(_ message: String, at span: Span, notes: [Note] = [], help: String? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: span, notes: notes, help: help.map { [$0] } ?? [])
    }

    public static func warning(_ message: String, at span: Span, notes: [Note] = [], help: String? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: span, notes: notes, help: help.map { [$0] } ?? [])
    }
}

extension Array where Element == Diagnostic {
    /// True when any of them is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
