/// A place in the source that a diagnostic's words refer to by its line ("at line 3"): the span,
/// and the line number it had in the file the diagnostic was made for.
public struct LineReference: Equatable, Sendable {
    /// Where the referenced thing stands.
    public var span: Span
    /// Its 1-based line in the file the diagnostic was made for.
    public var line: Int

    public init(_ span: Span, line: Int) {
        self.span = span
        self.line = line
    }
}

/// The words of a message, a note or a help line: text, with references to other lines kept as
/// spans rather than as digits inside the text, so that a caller that shows the diagnostic against
/// another file (the REPL shows an entry on its own) can number or describe them anew without
/// reading the words.
///
/// Written as a string literal; `\(ref)` with a `LineReference` gives "line N".
public struct DiagnosticText: Equatable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// A run of text, or a reference to a line.
    public enum Piece: Equatable, Sendable {
        case text(String)
        case line(LineReference)
    }

    public var pieces: [Piece]

    public init(_ text: String) { pieces = text.isEmpty ? [] : [.text(text)] }

    public init(pieces: [Piece]) { self.pieces = pieces }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    /// The words with each line reference as "line N".
    public var description: String { text { "line \($0.line)" } }

    /// The words with each line reference written by `line`.
    public func text(_ line: (LineReference) -> String) -> String {
        var out = ""
        for p in pieces {
            switch p {
            case .text(let t): out += t
            case .line(let r): out += line(r)
            }
        }
        return out
    }

    /// The same words with each line reference replaced by what `f` gives.
    public func mapLines(_ f: (LineReference) -> Piece) -> DiagnosticText {
        DiagnosticText(pieces: pieces.map { p in
            if case .line(let r) = p { return f(r) }
            return p
        })
    }

    /// Text after text: `"expected " + what`.
    public static func + (a: DiagnosticText, b: DiagnosticText) -> DiagnosticText {
        DiagnosticText(pieces: a.pieces + b.pieces)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { add(literal) }

        /// "line N".
        public mutating func appendInterpolation(_ reference: LineReference) { pieces.append(.line(reference)) }

        /// Words made elsewhere, line references kept.
        public mutating func appendInterpolation(_ text: DiagnosticText) { pieces += text.pieces }

        /// Anything else, as string interpolation writes it.
        public mutating func appendInterpolation<T>(_ value: T) { add(String(describing: value)) }

        mutating func add(_ s: String) {
            guard !s.isEmpty else { return }
            if case .text(let t)? = pieces.last {
                pieces[pieces.count - 1] = .text(t + s)
            } else {
                pieces.append(.text(s))
            }
        }
    }
}
