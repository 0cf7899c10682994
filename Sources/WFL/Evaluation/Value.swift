/// Values of the language and the error that evaluation throws (LANGUAGE.md, "Expressions").

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

/// Numbers are equal when they differ by at most this, everywhere (LANGUAGE.md).
public let equalityTolerance = 0.001

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

/// An error found while evaluating: the message without its place (the caller adds "in the height
/// of item 3 of section 0"), and the smallest failing part of the expression.
public struct EvalError: Error, Equatable, Sendable {
    public var message: String
    public var span: Span
    public var help: String?

    public init(_ message: String, at span: Span, help: String? = nil) {
        self.message = message
        self.span = span
        self.help = help
    }

    /// The message with its place: "division by zero" and "in the height of item 3 of section 0"
    /// give "division by zero in the height of item 3 of section 0"; a message with an
    /// explanation after a colon gets the place before it.
    public func message(in place: String) -> String {
        let chars = Array(message)
        for k in 0..<Swift.max(0, chars.count - 1) where chars[k] == ":" && chars[k + 1] == " " {
            return String(chars[..<k]) + " " + place + String(chars[k...])
        }
        return message + " " + place
    }
}

/// True when `d` is a whole number (exactly: `2.5` and `1e-9` are not).
@inline(__always) func isWhole(_ d: Double) -> Bool { d.isFinite && d == d.rounded(.towardZero) }
