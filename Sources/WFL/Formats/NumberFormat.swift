/// Numbers as CLI.md prints them: ECMAScript's `Number::toString`, the shortest form that reads
/// back to the same double (`10`, not `10.0`; `1e+21`, `1e-7`), and `-0` as `0`.
public enum NumberFormat {
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        var w = ByteWriter()
        w.append(number: value)
        return String(decoding: w.bytes, as: UTF8.self)
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
