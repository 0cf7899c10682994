/// The `json` format (docs/usage.md): the stable machine format, in exactly its shape.
public enum JSONFormat {
    public static func format(_ tables: [AttributeTable]) -> String {
        var w = ByteWriter()
        pieces(tables).writeAll(into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The same text as bytes, formatted without a `String` per row.
    package static func bytes(_ tables: [AttributeTable]) -> [UInt8] {
        var w = ByteWriter()
        pieces(tables).writeAll(into: &w)
        return w.bytes
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    package static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
