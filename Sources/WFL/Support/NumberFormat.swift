/// Numbers as docs/usage.md says they print. For machines (`json`, `csv`, `swift`, diagnostics): ECMAScript's
/// `Number::toString`, the shortest form that reads back to the same double (`10`, not `10.0`;
/// `1e+21`, `1e-7`), and `-0` as `0`. For people (`table`, the pictures, the REPL's values):
/// rounded to 3 decimals first (`forPeople`), within the 0.001 that `==` allows.
package enum NumberFormat {
    /// The exact text: the shortest form that reads back to the same double.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        var w = ByteWriter()
        w.append(number: value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The text for people: `value` rounded to 3 decimals (halves away from zero), trailing zeros
    /// dropped, `-0` as `0`: `2254.9999999999995` shows as `2255`, `1724.7420000000002` as
    /// `1724.742`. Equal to `referenceForPeople` (NumberFormatTests).
    package static func forPeople(_ value: Double) -> String {
        var w = ByteWriter()
        w.append(roundedNumber: value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The plain twin of `forPeople`: round, then the exact text of the rounded double (whose
    /// shortest digits have at most 3 decimals, since the 3-decimal text reads back to it).
    static func referenceForPeople(_ value: Double) -> String {
        guard value.isFinite, Swift.abs(value) < ByteWriter.roundingLimit else { return format(value) }
        return format((value * 1000).rounded() / 1000)
    }

    /// The same text, from Swift's `description` (the shortest round-trip digits) laid out as
    /// ECMAScript does: the slow path of `ByteWriter`, and the reference its tests compare with.
    static func referenceFormat(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        // Swift's description is already the shortest round-trip digit string; only its layout
        // differs from ECMAScript's.
        var text = Substring(value.description)
        var sign = ""
        if text.first == "-" {
            sign = "-"
            text = text.dropFirst()
        }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        var digits = ""
        var pointAt = text.count
        for (k, c) in text.enumerated() {
            if c == "." { pointAt = k } else { digits.append(c) }
        }
        // value = 0.digits * 10^n
        var n = pointAt + exponent
        while digits.first == "0" {
            digits.removeFirst()
            n -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let out: String
        if k <= n && n <= 21 {
            out = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            out = String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            out = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
            out = mantissa + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
        }
        return sign + out
    }
}

extension Value {
    /// The value as the REPL shows it to people: as `description`, numbers rounded to 3 decimals
    /// (`NumberFormat.forPeople`): `[1724.742, 2255]`.
    package var descriptionForPeople: String {
        switch self {
        case .number(let d): return NumberFormat.forPeople(d)
        case .list(let xs): return "[" + xs.map(\.descriptionForPeople).joined(separator: ", ") + "]"
        case .boolean, .string: return description
        }
    }
}
