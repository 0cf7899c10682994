/// The `table` format of CLI.md: for people, columns aligned, one layout after another, each with
/// a title line giving its style and content size.
public enum TableFormat {
    /// The tables of several layouts, separated by a blank line.
    public static func format(_ tables: [AttributeTable]) -> String {
        tables.map(format).joined(separator: "\n")
    }

    /// One layout: title line, header row, one row per element.
    public static func format(_ t: AttributeTable) -> String {
        let f = NumberFormat.format
        var out = "\(t.name)  \(t.style.rawValue) \(t.direction.rawValue)  container \(f(t.containerWidth)) x \(f(t.containerHeight))"
            + "  content \(f(t.contentWidth)) x \(f(t.contentHeight))\n"
        var rows: [[String]] = [["section", "item", "kind", "x", "y", "width", "height", "z"]]
        rows.reserveCapacity(t.elements.count + 1)
        for e in t.elements {
            rows.append([String(e.section), e.item.map(String.init) ?? "-", e.kind.rawValue, f(e.frame.x), f(e.frame.y),
                         f(e.frame.width), f(e.frame.height), String(e.zIndex)])
        }
        var widths = [Int](repeating: 0, count: 8)
        for r in rows { for (k, cell) in r.enumerated() { widths[k] = Swift.max(widths[k], cell.count) } }
        for r in rows {
            var line = ""
            for (k, cell) in r.enumerated() {
                line += cell
                // Two spaces between columns; nothing after the last.
                if k < r.count - 1 { line += String(repeating: " ", count: widths[k] - cell.count + 2) }
            }
            out += line + "\n"
        }
        return out
    }
}
