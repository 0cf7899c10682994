/// The `json` format of CLI.md: the stable machine format, in exactly its shape.
public enum JSONFormat {
    public static func format(_ tables: [AttributeTable]) -> String {
        let f = NumberFormat.format
        var out = "{\n  \"layouts\": ["
        for (k, t) in tables.enumerated() {
            out += k == 0 ? "\n" : ",\n"
            out += "    {\n"
            out += "      \"name\": \(quote(t.name)),\n"
            out += "      \"style\": \(quote(t.style.rawValue)),\n"
            out += "      \"direction\": \(quote(t.direction.rawValue)),\n"
            out += "      \"container\": [\(f(t.containerWidth)), \(f(t.containerHeight))],\n"
            out += "      \"contentSize\": [\(f(t.contentWidth)), \(f(t.contentHeight))],\n"
            out += "      \"elements\": ["
            for (j, e) in t.elements.enumerated() {
                out += j == 0 ? "\n" : ",\n"
                out += "        {\"kind\": \"\(e.kind.rawValue)\", \"section\": \(e.section), \"item\": \(e.item.map(String.init) ?? "null"), "
                out += "\"frame\": [\(f(e.frame.x)), \(f(e.frame.y)), \(f(e.frame.width)), \(f(e.frame.height))], \"zIndex\": \(e.zIndex)}"
            }
            out += t.elements.isEmpty ? "]\n" : "\n      ]\n"
            out += "    }"
        }
        out += tables.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    public static func quote(_ s: String) -> String {
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
