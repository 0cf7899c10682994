/// Turns the bytes of a `.wfl` file into tokens (docs/language.md, "Files and lines").
///
/// The lexer never fails: a stray character, invalid UTF-8, an unterminated string or comment and a
/// malformed number each become an `.error` token at their position, with a diagnostic in
/// `errors` that the parser reports when it meets the token.
package struct Lexer {
    /// What lexing a file gives.
    package struct Output: Sendable {
        package var tokens: [Token]
        /// One diagnostic per `.error` token, keyed by the token's index.
        package var errors: [Int: Diagnostic]
    }

    /// Lexes a whole file. With `keepComments`, comments become `.comment` tokens (for the
    /// formatter); otherwise they are skipped, and a block comment that holds a line break still
    /// counts as one. Tokens record offsets up to 256 MiB, four times the largest file wfl reads
    /// (docs/language.md, "Limits"), which its callers refuse before lexing.
    ///
    /// `from` starts at that offset instead, where a line starts (the REPL's session lexes only its
    /// new entry); offsets stay those of the whole file. `upTo` ends there instead, just after a
    /// line break, as if the file ended there (the parser reads a large file in two halves:
    /// ParserHalves.swift).
    package static func tokenize(_ source: SourceFile, keepComments: Bool = false, from start: Int = 0, upTo end: Int? = nil) -> Output {
        source.bytes.withUnsafeBufferPointer { whole in
            let buf = end.map { UnsafeBufferPointer(rebasing: whole[..<$0]) } ?? whole
            // Real source has a token every 3 or 4 bytes: n / 2 leaves room for dense code (only
            // the pages written are ever touched), and the worst case, a token a byte, lexes again.
            var capacity = (buf.count - start) / 2 + 16
            while true {
                var errors: [Int: Diagnostic] = [:]
                var overflow = false
                let tokens = [Token](unsafeUninitializedCapacity: capacity) { out, count in
                    var lexer = Run(buf: buf, out: out.baseAddress!, capacity: capacity, keepComments: keepComments)
                    lexer.pos = start
                    lexer.run()
                    count = lexer.count
                    errors = lexer.errors
                    overflow = lexer.overflow
                }
                if !overflow { return Output(tokens: tokens, errors: errors) }
                capacity = buf.count - start + 2
            }
        }
    }

    /// The token of a byte that is one token by itself whatever follows it (a line break and the
    /// punctuation of one byte), or nil.
    @inline(__always)
    static func singleByteKind(_ c: UInt8) -> TokenKind? {
        switch c {
        case 0x0A: return .newline
        case UInt8(ascii: "{"): return .lBrace
        case UInt8(ascii: "}"): return .rBrace
        case UInt8(ascii: "("): return .lParen
        case UInt8(ascii: ")"): return .rParen
        case UInt8(ascii: "["): return .lBracket
        case UInt8(ascii: "]"): return .rBracket
        case UInt8(ascii: ","): return .comma
        case UInt8(ascii: ";"): return .semicolon
        case UInt8(ascii: "+"): return .plus
        case UInt8(ascii: "-"): return .minus
        case UInt8(ascii: "*"): return .star
        case UInt8(ascii: "%"): return .percent
        case UInt8(ascii: "?"): return .question
        case UInt8(ascii: ":"): return .colon
        default: return nil
        }
    }

    /// For each byte, whether it continues a name (an ASCII letter, digit or `_`). Made once and
    /// never freed.
    nonisolated(unsafe) static let nameBytes: UnsafeMutablePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        for c in 0..<256 {
            let b = UInt8(c)
            table[c] = (b | 0x20) &- 0x61 < 26 || b == 0x5F || b &- 0x30 < 10
        }
        return table
    }()

    /// The state of one pass over the bytes.
    struct Run {
        let buf: UnsafeBufferPointer<UInt8>
        let keepComments: Bool
        /// Tokens are written straight into the array's storage: no uniqueness check or growth
        /// per token.
        let out: UnsafeMutablePointer<Token>
        let capacity: Int
        var count = 0
        var overflow = false
        var errors: [Int: Diagnostic] = [:]
        var pos = 0
        var space = true

        /// `Lexer.nameBytes`, read once: a name's loop tests one table entry a byte instead of
        /// three ranges.
        let nameBytes: UnsafePointer<Bool>

        init(buf: UnsafeBufferPointer<UInt8>, out: UnsafeMutablePointer<Token>, capacity: Int, keepComments: Bool) {
            nameBytes = UnsafePointer(Lexer.nameBytes)
            self.buf = buf
            self.out = out
            self.capacity = capacity
            self.keepComments = keepComments
        }

        @inline(__always) func byte(_ i: Int) -> UInt8 { i < buf.count ? buf[i] : 0 }

        @inline(__always) mutating func emit(_ kind: TokenKind, _ start: Int, _ end: Int) {
            guard count < capacity else {
                overflow = true
                pos = buf.count
                return
            }
            (out + count).initialize(to: Token(kind, start, end, spaceBefore: space))
            count += 1
            space = false
        }

        mutating func fail(_ start: Int, _ end: Int, _ d: Diagnostic) {
            errors[count] = d
            emit(.error, start, end)
        }

        mutating func run() {
            let n = buf.count
            if pos == 0, n >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { pos = 3 }
            if n > 0 { common(buf.baseAddress!) }
            emit(.eof, n, n)
        }

        /// The common tokens (spaces, line breaks, ASCII names, whole numbers, one-byte
        /// punctuation) with the lexer's position, count and space flag in local variables: a
        /// step through `self` kept them in memory, a load and a store each a token, and the
        /// loop was a fifth slower for it. Anything else is one `step`, with them written back
        /// first and read again after.
        @inline(__always)
        mutating func common(_ base: UnsafePointer<UInt8>) {
            let n = buf.count, out = self.out, capacity = self.capacity, names = nameBytes
            var p = pos, k = count, sp = space
            while p < n {
                let c = base[p]
                if c == 0x20 {
                    p += 1
                    while p < n, base[p] == 0x20 { p += 1 }
                    sp = true
                    continue
                }
                if k < capacity {
                    let start = p
                    if (c | 0x20) &- 0x61 < 26 || c == 0x5F {
                        // IDENT, as `identifier()` reads it; a byte outside ASCII after it goes the long way.
                        var q = p + 1
                        while q < n, names[Int(base[q])] { q += 1 }
                        if q == n || base[q] < 0x80 {
                            (out + k).initialize(to: Token(keyword(start, q) ?? .identifier, start, q, spaceBefore: sp))
                            k += 1
                            sp = false
                            p = q
                            continue
                        }
                    } else if c &- 0x30 < 10 {
                        // Plain digits followed by a space or punctuation, as `number()` reads them.
                        var q = p + 1
                        while q < n, base[q] &- 0x30 < 10 { q += 1 }
                        let after = q < n ? base[q] : 0
                        if after < 0x80, !isIdentChar(after), after != UInt8(ascii: ".") {
                            (out + k).initialize(to: Token(.number, start, q, spaceBefore: sp))
                            k += 1
                            sp = false
                            p = q
                            continue
                        }
                    } else if let kind = Lexer.singleByteKind(c) {
                        (out + k).initialize(to: Token(kind, start, p + 1, spaceBefore: sp))
                        k += 1
                        sp = kind == .newline
                        p += 1
                        continue
                    }
                }
                pos = p
                count = k
                space = sp
                step()
                p = pos
                k = count
                sp = space
            }
            pos = p
            count = k
            space = sp
        }

        /// One token (or run of spaces, or comment) at `pos`, of any kind.
        @inline(never)
        mutating func step() {
            let n = buf.count
            do {
                let start = pos
                let c = buf[pos]
                switch c {
                case 0x20, 0x09, 0x0D:
                    // A run of spaces (indentation, mostly) in one loop, not one dispatch a byte.
                    var p = pos + 1
                    while p < n, buf[p] == 0x20 { p += 1 }
                    pos = p
                    space = true
                case 0x0A:
                    pos += 1
                    emit(.newline, start, pos)
                    space = true
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                    identifier()
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    number()
                case UInt8(ascii: "\""):
                    string()
                case UInt8(ascii: "/"):
                    if byte(pos + 1) == UInt8(ascii: "/") { lineComment() }
                    else if byte(pos + 1) == UInt8(ascii: "*") { blockComment() }
                    else { pos += 1; emit(.slash, start, pos) }
                case UInt8(ascii: "{"): pos += 1; emit(.lBrace, start, pos)
                case UInt8(ascii: "}"): pos += 1; emit(.rBrace, start, pos)
                case UInt8(ascii: "("): pos += 1; emit(.lParen, start, pos)
                case UInt8(ascii: ")"): pos += 1; emit(.rParen, start, pos)
                case UInt8(ascii: "["): pos += 1; emit(.lBracket, start, pos)
                case UInt8(ascii: "]"): pos += 1; emit(.rBracket, start, pos)
                case UInt8(ascii: ","): pos += 1; emit(.comma, start, pos)
                case UInt8(ascii: ";"): pos += 1; emit(.semicolon, start, pos)
                case UInt8(ascii: "+"): pos += 1; emit(.plus, start, pos)
                case UInt8(ascii: "-"): pos += 1; emit(.minus, start, pos)
                case UInt8(ascii: "*"): pos += 1; emit(.star, start, pos)
                case UInt8(ascii: "%"): pos += 1; emit(.percent, start, pos)
                case UInt8(ascii: "?"): pos += 1; emit(.question, start, pos)
                case UInt8(ascii: ":"): pos += 1; emit(.colon, start, pos)
                case UInt8(ascii: "="): twoChar(.assign, .equal)
                case UInt8(ascii: "!"): twoChar(.bang, .notEqual)
                case UInt8(ascii: "<"): twoChar(.less, .lessEqual)
                case UInt8(ascii: ">"): twoChar(.greater, .greaterEqual)
                case UInt8(ascii: "&"), UInt8(ascii: "|"):
                    if byte(pos + 1) == c {
                        pos += 2
                        emit(c == UInt8(ascii: "&") ? .and : .or, start, pos)
                    } else {
                        pos += 1
                        let op = c == UInt8(ascii: "&") ? "&&" : "||"
                        fail(start, pos, .error(.unexpectedCharacter, "unexpected character '\(Character(Unicode.Scalar(c)))'",
                                                at: Span(start, pos), help: "did you mean '\(op)'?"))
                    }
                case UInt8(ascii: "."):
                    if isDigit(byte(pos + 1)) { badNumber(start) } else { stray() }
                default:
                    stray()
                }
            }
        }

        @inline(__always) mutating func twoChar(_ one: TokenKind, _ two: TokenKind) {
            let start = pos
            if byte(pos + 1) == UInt8(ascii: "=") {
                pos += 2
                emit(two, start, pos)
            } else {
                pos += 1
                emit(one, start, pos)
            }
        }

        @inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
        @inline(__always) func isIdentStart(_ c: UInt8) -> Bool {
            (c | 0x20) &- 0x61 < 26 || c == 0x5F
        }
        @inline(__always) func isIdentChar(_ c: UInt8) -> Bool { isIdentStart(c) || isDigit(c) }

        // MARK: - Names

        @inline(__always)
        // IDENT = letter { letter | digit } ;
        // letter = "A" .. "Z" | "a" .. "z" | "_" ;
        // digit = "0" .. "9" ;
        mutating func identifier() {
            let start = pos
            var p = pos + 1
            let n = buf.count
            while p < n, nameBytes[Int(buf[p])] { p += 1 }
            pos = p
            // A letter outside ASCII or a bad byte inside a word: one error for the whole word.
            if pos < buf.count, buf[pos] >= 0x80 {
                nonASCIIName(start)
                return
            }
            emit(keyword(start, pos) ?? .identifier, start, pos)
        }

        /// The reserved word spelled by the bytes, if any.
        @inline(__always) func keyword(_ start: Int, _ end: Int) -> TokenKind? {
            let len = end - start
            guard len >= 3, len <= 7 else { return nil }
            func eq(_ word: StaticString) -> Bool {
                guard word.utf8CodeUnitCount == len else { return false }
                let p = word.utf8Start
                for k in 0..<len where p[k] != buf[start + k] { return false }
                return true
            }
            switch buf[start] {
            case UInt8(ascii: "l"): return eq("let") ? .kwLet : eq("layout") ? .kwLayout : nil
            case UInt8(ascii: "s"): return eq("section") ? .kwSection : nil
            case UInt8(ascii: "e"): return eq("expect") ? .kwExpect : nil
            case UInt8(ascii: "t"): return eq("true") ? .kwTrue : nil
            case UInt8(ascii: "f"): return eq("false") ? .kwFalse : nil
            default: return nil
            }
        }

        /// A name with letters outside ASCII or bytes that are not UTF-8 in it: one error for
        /// the whole word, about its first bad letter or bytes, so that the rest of the word is
        /// not read as a name of its own (`let f\u{FFFD}oo` would define nothing and leave 'oo').
        mutating func nonASCIIName(_ start: Int) {
            var firstBad: Int? = nil
            var firstBadEnd = 0
            var badUTF8 = false
            while pos < buf.count {
                let c = buf[pos]
                if isIdentChar(c) { pos += 1; continue }
                guard c >= 0x80 else { break }
                let len = UTF8Check.sequenceLength(buf, pos, buf.count)
                let end: Int
                if len == 0 {
                    end = invalidRunEnd(pos)
                } else if isLetterLike(pos, len) {
                    end = pos + len
                } else {
                    break
                }
                if firstBad == nil {
                    firstBad = pos
                    firstBadEnd = end
                    badUTF8 = len == 0
                }
                pos = end
            }
            guard let bad = firstBad else {
                // Only ASCII after all (a word followed by a symbol outside ASCII).
                emit(keyword(start, pos) ?? .identifier, start, pos)
                return
            }
            if badUTF8 {
                fail(start, pos, invalidUTF8(bad, firstBadEnd))
                return
            }
            let word = text(start, pos)
            let message: DiagnosticText = bad == start && firstBadEnd == pos
                ? "unexpected character '\(word)'"
                : "invalid character '\(text(bad, firstBadEnd))' in the name '\(word)'"
            fail(start, pos, .error(.unexpectedCharacter, message,
                                    at: Span(bad, firstBadEnd),
                                    help: "names use only ASCII letters, digits and '_'"))
        }

        /// Scalars that look like part of a word (not punctuation or spaces outside ASCII).
        func isLetterLike(_ i: Int, _ len: Int) -> Bool {
            guard let scalar = decode(i, len) else { return false }
            return scalar.properties.isAlphabetic
        }

        /// True when a letter outside ASCII starts at `i`.
        func startsLetter(_ i: Int) -> Bool {
            guard buf[i] >= 0x80 else { return false }
            let len = UTF8Check.sequenceLength(buf, i, buf.count)
            return len > 0 && isLetterLike(i, len)
        }

        func decode(_ i: Int, _ len: Int) -> Unicode.Scalar? { UTF8Check.decode(buf, i, len) }

        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: buf[start..<end]), as: UTF8.self)
        }

        // MARK: - Numbers

        @inline(__always)
        // NUMBER = digits [ "." digits ] [ ( "e" | "E" ) [ "+" | "-" ] digits ] ;
        mutating func number() {
            // Most numbers are plain digits followed by a space or punctuation: read them here, and
            // leave everything else (a point, an exponent, '_', a letter after it) to the full rule.
            var p = pos + 1
            while p < buf.count, buf[p] &- 0x30 < 10 { p += 1 }
            let after = p < buf.count ? buf[p] : 0
            if after < 0x80, !isIdentChar(after), after != UInt8(ascii: ".") {
                let start = pos
                pos = p
                emit(.number, start, p)
                return
            }
            fullNumber()
        }

        @inline(never)
        mutating func fullNumber() {
            let start = pos
            var badUnderscore = !digits()
            if byte(pos) == UInt8(ascii: ".") {
                if isDigit(byte(pos + 1)) {
                    pos += 1
                    if !digits() { badUnderscore = true }
                } else {
                    let whole = text(start, pos)
                    badNumber(start, help: "write a digit after the point ('\(whole).0') or leave the point out ('\(whole)')")
                    return
                }
            }
            let e = byte(pos)
            if e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                let sign = byte(pos + 1) == UInt8(ascii: "+") || byte(pos + 1) == UInt8(ascii: "-")
                if isDigit(byte(pos + (sign ? 2 : 1))) {
                    pos += sign ? 2 : 1
                    if !digits() { badUnderscore = true }
                } else {
                    pos += 1
                    badNumber(start, help: "an exponent needs digits: write '\(text(start, pos))3' for a thousandfold")
                    return
                }
            }
            // `375x812`, `0x10`, `375x (h)`: the number ends before the `x`.
            if byte(pos) == UInt8(ascii: "x"), !isIdentStart(byte(pos + 1)) {
                finishNumber(start, badUnderscore)
                pos += 1
                emit(.identifier, pos - 1, pos)
                return
            }
            let next = byte(pos)
            if next == UInt8(ascii: ".") && isDigit(byte(pos + 1)) {
                badNumber(start, help: "a number has at most one decimal point")
                return
            }
            if isIdentStart(next) {
                let numberEnd = pos
                badNumber(start, help: "numbers have no units: write '\(text(start, numberEnd))'")
                return
            }
            finishNumber(start, badUnderscore)
        }

        mutating func finishNumber(_ start: Int, _ badUnderscore: Bool) {
            if badUnderscore {
                var fixed = ""
                var prevUnderscore = false
                for k in start..<pos {
                    let c = buf[k]
                    if c == UInt8(ascii: "_") {
                        if !prevUnderscore, k + 1 < pos, isDigit(buf[k + 1]), k > start, isDigit(buf[k - 1]) || prevUnderscore {
                            fixed.append("_")
                        }
                        prevUnderscore = true
                    } else {
                        prevUnderscore = false
                        fixed.append(Character(Unicode.Scalar(c)))
                    }
                }
                fail(start, pos, .error(.invalidNumber, "invalid number '\(text(start, pos))'", at: Span(start, pos),
                                        help: "'_' stands only between two digits: write '\(fixed)'"))
                return
            }
            emit(.number, start, pos)
        }

        // digits = digit { [ "_" ] digit } ;
        /// False when an `_` is misplaced.
        mutating func digits() -> Bool {
            var ok = true
            var prev = UInt8(ascii: "_")
            while pos < buf.count {
                let c = buf[pos]
                if isDigit(c) {
                    prev = c
                    pos += 1
                } else if c == UInt8(ascii: "_") {
                    if prev == UInt8(ascii: "_") || !isDigit(byte(pos + 1)) { ok = false }
                    prev = c
                    pos += 1
                } else {
                    break
                }
            }
            return ok
        }

        /// Something number-like that is not a number (`.5`, `1.2.3`, `10px`): one error for the
        /// whole word.
        mutating func badNumber(_ start: Int, help: String? = nil) {
            while pos < buf.count, isIdentChar(buf[pos]) || buf[pos] == UInt8(ascii: ".") { pos += 1 }
            let word = text(start, pos)
            var hint = help
            if word.first == "." { hint = "write a digit before the point: '0\(word)'" }
            fail(start, pos, .error(.invalidNumber, "invalid number '\(word)'", at: Span(start, pos), help: hint))
        }

        // MARK: - Strings

        // STRING = '"' { character | escape } '"' ;
        // character = ? any scalar value but '"', "\\" and a line break ? ;
        mutating func string() {
            let start = pos
            pos += 1
            var problem: Diagnostic? = nil
            while true {
                guard pos < buf.count, buf[pos] != 0x0A else {
                    var end = pos
                    if end > start, byte(end - 1) == 0x0D { end -= 1 }
                    fail(start, end, .error(.unterminatedString, "unterminated string", at: Span(start, end),
                                            help: "close it with '\"' on the same line: strings cannot span lines"))
                    return
                }
                let c = buf[pos]
                if c == UInt8(ascii: "\"") {
                    pos += 1
                    break
                }
                if c == UInt8(ascii: "\\") {
                    let d = escape()
                    if problem == nil { problem = d }
                    continue
                }
                if c >= 0x80 {
                    let len = UTF8Check.sequenceLength(buf, pos, buf.count)
                    if len == 0 {
                        let bad = invalidRunEnd(pos)
                        if problem == nil { problem = invalidUTF8(pos, bad) }
                        pos = bad
                        continue
                    }
                    pos += len
                    continue
                }
                pos += 1
            }
            if let problem { fail(start, pos, problem) } else { emit(.string, start, pos) }
        }

        // escape = "\\" ( '"' | "\\" | "n" | "t" | "u{" hex { hex } "}" ) ;
        /// Returns the escape's diagnostic when it is not one of the five.
        mutating func escape() -> Diagnostic? {
            let start = pos
            let c = byte(pos + 1)
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "t"):
                pos += 2
                return nil
            case UInt8(ascii: "u"):
                pos += 2
                guard byte(pos) == UInt8(ascii: "{") else {
                    return .error(.invalidEscape, "invalid escape '\\u' in a string", at: Span(start, pos),
                                  help: "write a scalar value in braces, as '\\u{1F600}'")
                }
                pos += 1
                var value: UInt32 = 0
                var count = 0
                while let h = hexValue(byte(pos)) {
                    if count < 8 { value = value << 4 | h }
                    count += 1
                    pos += 1
                }
                guard byte(pos) == UInt8(ascii: "}"), count > 0 else {
                    return .error(.invalidEscape, "invalid escape '\(text(start, pos))' in a string", at: Span(start, pos),
                                  help: "write one to six hexadecimal digits in braces, as '\\u{1F600}'")
                }
                pos += 1
                if count > 6 || Unicode.Scalar(value) == nil {
                    return .error(.invalidEscape, "'\(text(start, pos))' is not a Unicode scalar value", at: Span(start, pos),
                                  help: "scalar values run from 0 to 10FFFF, without the surrogates D800 to DFFF")
                }
                return nil
            case 0x0A, 0:
                pos += 1
                return .error(.invalidEscape, "'\\' at the end of a line", at: Span(start, pos),
                              help: "strings cannot span lines; write '\\n' for a line break")
            default:
                let len = Swift.max(1, UTF8Check.sequenceLength(buf, pos + 1, buf.count))
                pos += 1 + len
                return .error(.invalidEscape, "unknown escape '\(text(start, pos))' in a string", at: Span(start, pos),
                              help: "the escapes are \\\" \\\\ \\n \\t and \\u{...}")
            }
        }

        // hex = digit | "a" .. "f" | "A" .. "F" ;
        func hexValue(_ c: UInt8) -> UInt32? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - 0x41 + 10)
            default: return nil
            }
        }

        // MARK: - Comments

        // lineComment = "//" { ? any scalar value but a line break ? } ;
        mutating func lineComment() {
            let start = pos
            pos += 2
            var segment = start
            while pos < buf.count, buf[pos] != 0x0A {
                if buf[pos] >= 0x80 {
                    let len = UTF8Check.sequenceLength(buf, pos, buf.count)
                    if len > 0 {
                        pos += len
                        continue
                    }
                    if keepComments, pos > segment { emit(.comment, segment, pos) }
                    let bad = invalidRunEnd(pos)
                    fail(pos, bad, invalidUTF8(pos, bad))
                    pos = bad
                    segment = pos
                    continue
                }
                pos += 1
            }
            var end = pos
            if end > segment, buf[end - 1] == 0x0D { end -= 1 }
            if keepComments, end > segment { emit(.comment, segment, end) }
            space = true
        }

        // blockComment = "/*" { any | blockComment } "*/" ;
        // any = ? any scalar value ? ;
        mutating func blockComment() {
            let start = pos
            pos += 2
            var depth = 1
            var sawNewline = false
            // Bad bytes inside are reported after the comment's own token, to keep tokens in order.
            var badRuns: [(Int, Int)] = []
            while depth > 0 {
                guard pos < buf.count else {
                    fail(start, start + 2, .error(.unterminatedComment, "unterminated comment", at: Span(start, start + 2),
                                                  help: "close it with '*/': comments nest, so each '/*' needs its own '*/'"))
                    for (a, b) in badRuns { fail(a, b, invalidUTF8(a, b)) }
                    return
                }
                let c = buf[pos]
                if c == UInt8(ascii: "*"), byte(pos + 1) == UInt8(ascii: "/") {
                    depth -= 1
                    pos += 2
                } else if c == UInt8(ascii: "/"), byte(pos + 1) == UInt8(ascii: "*") {
                    depth += 1
                    pos += 2
                } else if c == 0x0A {
                    sawNewline = true
                    pos += 1
                } else if c >= 0x80 {
                    let len = UTF8Check.sequenceLength(buf, pos, buf.count)
                    if len > 0 {
                        pos += len
                    } else {
                        let bad = invalidRunEnd(pos)
                        badRuns.append((pos, bad))
                        pos = bad
                    }
                } else {
                    pos += 1
                }
            }
            if keepComments { emit(.comment, start, pos) }
            for (a, b) in badRuns { fail(a, b, invalidUTF8(a, b)) }
            // The line break the comment counts as: an empty token where it ends.
            if sawNewline { emit(.newline, pos, pos) }
            space = true
        }

        // MARK: - Stray input

        /// The end of a run of bytes that are not UTF-8, starting at `i`.
        func invalidRunEnd(_ i: Int) -> Int {
            var j = i + 1
            while j < buf.count, buf[j] >= 0x80, UTF8Check.sequenceLength(buf, j, buf.count) == 0 { j += 1 }
            return j
        }

        func invalidUTF8(_ start: Int, _ end: Int) -> Diagnostic {
            func hex(_ b: UInt8) -> String {
                let digits = Array("0123456789ABCDEF")
                return "0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
            }
            let count = end - start
            let what = count == 1 ? "byte \(hex(buf[start]))"
                : count <= 4 ? "bytes " + (start..<end).map { hex(buf[$0]) }.joined(separator: " ")
                : "\(count) bytes"
            return .error(.invalidUTF8, "invalid UTF-8: \(what)", at: Span(start, end),
                          help: "wfl reads files as UTF-8; save the file in that encoding")
        }

        mutating func stray() {
            let start = pos
            let c = buf[pos]
            if c >= 0x80 {
                let len = UTF8Check.sequenceLength(buf, pos, buf.count)
                if len == 0 {
                    pos = invalidRunEnd(pos)
                    // Bad bytes that start a word (`\u{FFFD}foo`, `\u{FFFD}1`) are one error with it.
                    if pos < buf.count, isIdentChar(buf[pos]) || startsLetter(pos) {
                        pos = start
                        nonASCIIName(start)
                        return
                    }
                    fail(start, pos, invalidUTF8(start, pos))
                    return
                }
                pos += len
                if let s = decode(start, len), s.properties.isAlphabetic {
                    pos = start
                    nonASCIIName(start)
                    return
                }
            } else {
                pos += 1
                // A run of the same stray control character (a file of NUL bytes) is one mistake.
                if c < 0x20 || c == 0x7F {
                    while pos < buf.count, buf[pos] == c { pos += 1 }
                }
            }
            let shown: String
            if c < 0x20 || c == 0x7F {
                let hex = Array("0123456789ABCDEF")
                shown = "U+00" + String(hex[Int(c >> 4)]) + String(hex[Int(c & 15)])
            } else {
                shown = "'" + text(start, pos) + "'"
            }
            var help: String? = nil
            switch c {
            case UInt8(ascii: "#"): help = "comments start with '//'"
            case UInt8(ascii: "'"): help = "strings are written in double quotes: \"...\""
            case UInt8(ascii: "."): help = "numbers are written with a digit on each side of the point, as '0.5'"
            default: if c < 0x80, pos - start > 1 { help = "\(pos - start) of them in a row: is this a text file?" }
            }
            fail(start, pos, .error(.unexpectedCharacter, "unexpected character \(shown)", at: Span(start, pos), help: help))
        }
    }
}
