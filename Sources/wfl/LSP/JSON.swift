/// The JSON of the language server's messages: a value, a parser over UTF-8 bytes and a writer.
///
/// The core's reader of tables (Sources/WFL/Diff/JSONTableReader.swift) is not used here: it reads
/// Unicode scalars one at a time and keeps offsets for its messages, while a message of the
/// protocol carries a whole document on each keystroke and needs `\u` surrogate pairs (a UTF-16
/// escape of an emoji).

/// A JSON value. Objects keep their members in order; lookups are linear, as objects here are small.
enum JSON: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `key` of an object; nil for anything else or a missing member.
    subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A number that is a whole number that fits an Int.
    var int: Int? {
        if case .number(let d) = self, d.rounded() == d, abs(d) < 0x1p53 { return Int(d) }
        return nil
    }

    var array: [JSON]? {
        if case .array(let xs) = self { return xs }
        return nil
    }

    var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}

/// Why a text is not JSON.
struct JSONError: Error {
    var message: String
}

/// An RFC 8259 parser over bytes, nesting held to 512 levels.
struct JSONParser {
    let b: [UInt8]
    var pos = 0
    var depth = 0

    /// Parses a whole document.
    static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
        var p = JSONParser(b: bytes)
        let v = try p.value()
        p.skipSpace()
        guard p.pos == bytes.count else { throw JSONError(message: "unexpected text after the JSON value at byte \(p.pos)") }
        return v
    }

    mutating func skipSpace() {
        while pos < b.count, b[pos] == 0x20 || b[pos] == 0x0A || b[pos] == 0x0D || b[pos] == 0x09 { pos += 1 }
    }

    func fail(_ what: String) -> JSONError {
        JSONError(message: "\(what) at byte \(pos)")
    }

    mutating func value() throws(JSONError) -> JSON {
        skipSpace()
        guard pos < b.count else { throw fail("expected a JSON value, found the end") }
        switch b[pos] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            if depth > 512 { throw fail("JSON nested too deep") }
            pos += 1
            var members: [(String, JSON)] = []
            skipSpace()
            if pos < b.count, b[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
            while true {
                skipSpace()
                guard pos < b.count, b[pos] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let key = try string()
                skipSpace()
                guard pos < b.count, b[pos] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                pos += 1
                members.append((key, try value()))
                skipSpace()
                guard pos < b.count else { throw fail("unterminated object") }
                if b[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if b[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            if depth > 512 { throw fail("JSON nested too deep") }
            pos += 1
            var items: [JSON] = []
            skipSpace()
            if pos < b.count, b[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                items.append(try value())
                skipSpace()
                guard pos < b.count else { throw fail("unterminated array") }
                if b[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if b[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        default:
            let start = pos
            while pos < b.count, b[pos] == UInt8(ascii: "-") || b[pos] == UInt8(ascii: "+") || b[pos] == UInt8(ascii: ".")
                    || b[pos] == UInt8(ascii: "e") || b[pos] == UInt8(ascii: "E") || (b[pos] >= 0x30 && b[pos] <= 0x39) { pos += 1 }
            let text = String(decoding: b[start..<pos], as: UTF8.self)
            guard !text.isEmpty, let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39),
                  let d = Double(text), d.isFinite else {
                pos = start
                throw fail("expected a JSON value")
            }
            return .number(d)
        }
    }

    mutating func word(_ w: String, _ v: JSON) throws(JSONError) -> JSON {
        let bytes = Array(w.utf8)
        guard pos + bytes.count <= b.count, Array(b[pos..<pos + bytes.count]) == bytes else { throw fail("expected a JSON value") }
        pos += bytes.count
        return v
    }

    /// A string at `pos` (its opening quote). Runs without escapes are copied as they are.
    mutating func string() throws(JSONError) -> String {
        pos += 1
        var out: [UInt8] = []
        var run = pos
        while true {
            guard pos < b.count else { throw fail("unterminated string") }
            let c = b[pos]
            if c == UInt8(ascii: "\"") {
                out += b[run..<pos]
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character in a string") }
            guard c == UInt8(ascii: "\\") else { pos += 1; continue }
            out += b[run..<pos]
            pos += 1
            guard pos < b.count else { throw fail("unterminated string") }
            let e = b[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var v = try hex4()
                // A high surrogate followed by an escaped low one is one scalar; alone, U+FFFD.
                if v >= 0xD800 && v < 0xDC00, pos + 1 < b.count, b[pos] == UInt8(ascii: "\\"), b[pos + 1] == UInt8(ascii: "u") {
                    let save = pos
                    pos += 2
                    let low = try hex4()
                    if low >= 0xDC00 && low < 0xE000 {
                        v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        pos = save
                    }
                }
                out += Array(String(Unicode.Scalar(v) ?? "\u{FFFD}").utf8)
            default:
                throw fail("unknown escape in a string")
            }
            run = pos
        }
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard pos < b.count else { throw fail("'\\u' needs four hex digits") }
            let c = b[pos]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default: throw fail("'\\u' needs four hex digits")
            }
            v = v * 16 + UInt32(d)
            pos += 1
        }
        return v
    }
}

extension JSON {
    /// The value as compact JSON text (UTF-8, no spaces).
    var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let v): out += Array((v ? "true" : "false").utf8)
        case .number(let d):
            if d.rounded() == d, abs(d) < 0x1p53 { out += Array(String(Int(d)).utf8) } else { out += Array("\(d)".utf8) }
        case .string(let s): JSON.writeString(s, into: &out)
        case .array(let xs):
            out.append(UInt8(ascii: "["))
            for (k, x) in xs.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                x.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (k, m) in members.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(m.0, into: &out)
                out.append(UInt8(ascii: ":"))
                m.1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), c]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), c]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(c >> 4)], hex[Int(c & 15)]]
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
