/// The `csv` format (docs/usage.md): a header row, then one row per element; `item` is empty for
/// headers and footers. Fields are quoted as RFC 4180 says where they need it.
public enum CSVFormat {
    package static let headerRow = "layout,section,item,kind,x,y,width,height,zIndex"

    public static func format(_ tables: [AttributeTable]) -> String {
        var w = ByteWriter()
        pieces(tables).writeAll(into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A field, in double quotes (inner quotes doubled) when it holds a comma, a quote, a CR or
    /// an LF, or begins or ends with a space.
    package static func field(_ s: String) -> String {
        let needs = s.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || s.first == " " || s.last == " "
        guard needs else { return s }
        var out = "\""
        for c in s { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }
}
