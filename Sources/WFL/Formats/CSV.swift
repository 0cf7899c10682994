/// The `csv` format of CLI.md: a header row, then one row per element; `item` is empty for
/// headers and footers. Fields are quoted as RFC 4180 says where they need it.
public enum CSVFormat {
    public static let headerRow = "layout,section,item,kind,x,y,width,height,zIndex"

    public static func format(_ tables: [AttributeTable]) -> String {
        let f = NumberFormat.format
        var out = headerRow + "\n"
        for t in tables {
            let name = field(t.name)
            for e in t.elements {
                out += "\(name),\(e.section),\(e.item.map(String.init) ?? ""),\(e.kind.rawValue),"
                out += "\(f(e.frame.x)),\(f(e.frame.y)),\(f(e.frame.width)),\(f(e.frame.height)),\(e.zIndex)\n"
            }
        }
        return out
    }

    /// A field, in double quotes (inner quotes doubled) when it holds a comma, a quote, a CR or
    /// an LF, or begins or ends with a space.
    public static func field(_ s: String) -> String {
        let needs = s.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || s.first == " " || s.last == " "
        guard needs else { return s }
        var out = "\""
        for c in s { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }
}
