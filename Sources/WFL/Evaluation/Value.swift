/// Values of the language and the error that evaluation throws (docs/language.md, "Expressions").

/// A value: numbers, booleans, lists and strings.
public enum Value: Equatable, Sendable {
    case number(Double)
    case boolean(Bool)
    case list([Value])
    case string(String)

    /// "a number", "a boolean", ... for messages.
    public var typeName: String {
        switch self {
        case .number: return "a number"
        case .boolean: return "a boolean"
        case .list: return "a list"
        case .string: return "a string"
        }
    }

    /// The value as the language prints it: `[1, 2.5]`, `true`, `"label"`.
    public var description: String {
        switch self {
        case .number(let d): return NumberFormat.format(d)
        case .boolean(let b): return b ? "true" : "false"
        case .string(let s): return "\"" + s + "\""
        case .list(let xs): return "[" + xs.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// Numbers are equal when they differ by at most this, everywhere (docs/language.md).
package let equalityTolerance = 0.001

/// The language's equality: numbers within `equalityTolerance`, lists element by element.
/// Returns nil when the two values are of different types (an error for the caller).
func languageEqual(_ a: Value, _ b: Value) -> Bool? {
    switch (a, b) {
    case (.number(let x), .number(let y)): return abs(x - y) <= equalityTolerance
    case (.boolean(let x), .boolean(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.list(let xs), .list(let ys)):
        guard xs.count == ys.count else { return false }
        for (x, y) in zip(xs, ys) {
            guard let e = languageEqual(x, y) else { return nil }
            if !e { return false }
        }
        return true
    default: return nil
    }
}

/// An error found while evaluating: what went wrong, where evaluation was (set by whoever catches
/// it: "in the height of item 3 of section 0"), why, and the smallest failing part of the
/// expression. The parts stay apart so that the place goes between them without reading words:
/// "index 3 is out of range" + place + ": the list has 2 elements, 0 to 1".
package struct EvalError: Error, Equatable, Sendable {
    package var code: DiagnosticCode
    /// What went wrong, without its place.
    package var message: String
    /// Why, shown after the place and a colon; nil when the message says it all.
    package var detail: String?
    package var span: Span
    package var help: String?
    /// Where evaluation was ("in 'columns' of section 1"); nil where it goes without saying.
    package var place: String?

    package init(_ code: DiagnosticCode, _ message: String, detail: String? = nil, at span: Span, help: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
        self.span = span
        self.help = help
    }

    /// The same error, said to have happened at `place`.
    package func at(_ place: String) -> EvalError {
        var e = self
        e.place = place
        return e
    }

    /// The words: message, place, detail.
    package var text: String {
        message + (place.map { " " + $0 } ?? "") + (detail.map { ": " + $0 } ?? "")
    }

    /// The error as a diagnostic.
    package var diagnostic: Diagnostic {
        .error(code, DiagnosticText(text), at: span, help: help)
    }
}

/// True when `d` is a whole number (exactly: `2.5` and `1e-9` are not).
@inline(__always) func isWhole(_ d: Double) -> Bool { d.isFinite && d == d.rounded(.towardZero) }
