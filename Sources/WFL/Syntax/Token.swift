/// The kinds of token of the lexical structure of docs/language.md.
package enum TokenKind: UInt8, Sendable, CaseIterable {
    case identifier, number, string
    // Reserved words.
    case kwLet, kwLayout, kwSection, kwExpect, kwTrue, kwFalse
    // Punctuation and operators.
    case lBrace, rBrace, lParen, rParen, lBracket, rBracket
    case comma, semicolon, assign
    case plus, minus, star, slash, percent
    case equal, notEqual, less, lessEqual, greater, greaterEqual
    case and, or, bang, question, colon
    /// A line break, or a block comment that holds one.
    case newline
    /// A comment; only produced when the lexer is asked to keep comments.
    case comment
    /// Input the lexer could not read; its diagnostic is in `Lexer.Output.errors`.
    case error
    case eof

    /// How the kind is named in `wfl tokens` and in messages.
    package var name: String {
        switch self {
        case .identifier: return "identifier"
        case .number: return "number"
        case .string: return "string"
        case .newline: return "newline"
        case .comment: return "comment"
        case .error: return "error"
        case .eof: return "end of input"
        default: return "'\(spelling!)'"
        }
    }

    /// The fixed text of a keyword, operator or punctuation token.
    package var spelling: String? {
        switch self {
        case .kwLet: return "let"
        case .kwLayout: return "layout"
        case .kwSection: return "section"
        case .kwExpect: return "expect"
        case .kwTrue: return "true"
        case .kwFalse: return "false"
        case .lBrace: return "{"
        case .rBrace: return "}"
        case .lParen: return "("
        case .rParen: return ")"
        case .lBracket: return "["
        case .rBracket: return "]"
        case .comma: return ","
        case .semicolon: return ";"
        case .assign: return "="
        case .plus: return "+"
        case .minus: return "-"
        case .star: return "*"
        case .slash: return "/"
        case .percent: return "%"
        case .equal: return "=="
        case .notEqual: return "!="
        case .less: return "<"
        case .lessEqual: return "<="
        case .greater: return ">"
        case .greaterEqual: return ">="
        case .and: return "&&"
        case .or: return "||"
        case .bang: return "!"
        case .question: return "?"
        case .colon: return ":"
        default: return nil
        }
    }

    /// True for the reserved words of docs/language.md.
    package var isReservedWord: Bool {
        switch self {
        case .kwLet, .kwLayout, .kwSection, .kwExpect, .kwTrue, .kwFalse: return true
        default: return false
        }
    }
}

/// One token: its kind and where it stands. Values (names, numbers, strings) are read from the
/// source when the parser needs them, so a token stays small.
package struct Token: Equatable, Sendable {
    /// 8 bytes a token, so that the token array of a 10 MB file is 22 MB, not 33 MB (fresh memory
    /// costs a page fault per 4 KB): the start offset (28 bits) and the top 4 bits of the length
    /// in one word; the rest of the length (25 bits), the kind (6 bits) and `spaceBefore` (1 bit)
    /// in the other. Offsets reach 256 MiB and lengths 512 MiB, beyond any file wfl reads (64 MiB,
    /// docs/language.md, "Limits"): a comment, a string or a name as long as the file keeps its
    /// whole length.
    private var _start: UInt32
    private var _packed: UInt32

    @inline(__always)
    package init(_ kind: TokenKind, _ start: Int, _ end: Int, spaceBefore: Bool) {
        let length = UInt32(truncatingIfNeeded: end - start)
        _start = UInt32(truncatingIfNeeded: start) & Token.startMask | (length >> Token.lowLengthBits) << Token.startBits
        _packed = (length & Token.lowLengthMask) << 7 | UInt32(kind.rawValue) << 1 | (spaceBefore ? 1 : 0)
    }

    static let startBits: UInt32 = 28
    static let startMask: UInt32 = (1 << 28) - 1
    static let lowLengthBits: UInt32 = 25
    static let lowLengthMask: UInt32 = (1 << 25) - 1
    /// The largest offset a token records.
    static let maxOffset = (1 << 28) - 1
    /// The longest length a token records.
    static let maxLength = (1 << 29) - 1

    package var kind: TokenKind {
        // Only `init` and the setter store a kind, so the bits always hold a valid raw value.
        @inline(__always) get { unsafeBitCast(UInt8(truncatingIfNeeded: (_packed >> 1) & 0x3F), to: TokenKind.self) }
        set { _packed = _packed & ~(0x3F << 1) | UInt32(newValue.rawValue) << 1 }
    }
    package var spaceBefore: Bool {
        get { _packed & 1 != 0 }
        set { _packed = _packed & ~1 | (newValue ? 1 : 0) }
    }
    package var start: Int { Int(_start & Token.startMask) }
    package var length: Int { Int(_start >> Token.startBits) << Int(Token.lowLengthBits) | Int(_packed >> 7) }
    package var end: Int { start + length }
    package var span: Span { Span(start, end) }
}
