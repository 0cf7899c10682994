/// The `table` format (docs/usage.md): for people, columns aligned, one layout after another, each with
/// a title line giving its style and content size. Numbers are rounded to 3 decimals
/// (`NumberFormat.forPeople`).
public enum TableFormat {
    /// The column headers.
    static let headers = ["section", "item", "kind", "x", "y", "width", "height", "z"]

    /// The column headers of `t`: `alpha` and `zoom` after `z` when some element has one not 1;
    /// then `translateX`, `translateY` and `rotate` when some element uses a translate or rotate.
    static func headers(_ t: AttributeTable) -> [String] {
        headers + (t.hasAlphaOrZoom ? ["alpha", "zoom"] : []) + (t.hasTransform ? ["translateX", "translateY", "rotate"] : [])
    }

    /// The tables of several layouts, separated by a blank line.
    public static func format(_ tables: [AttributeTable]) -> String {
        var w = ByteWriter()
        pieces(tables).writeAll(into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// One layout: title line, header row, one row per element.
    public static func format(_ t: AttributeTable) -> String { format([t]) }

    /// The plain twin of `format`: a `String` per cell, widths from the strings. The pieces give
    /// the same text (FormatTests).
    static func referenceFormat(_ tables: [AttributeTable]) -> String {
        tables.map(referenceFormat).joined(separator: "\n")
    }

    static func referenceFormat(_ t: AttributeTable) -> String {
        let f = NumberFormat.forPeople
        var out = title(t)
        var rows: [[String]] = [headers(t)]
        rows.reserveCapacity(t.elements.count + 1)
        for (j, e) in t.elements.enumerated() {
            rows.append([String(e.section), e.item.map(String.init) ?? "-", TerminalText.escaped(t.kindName(of: e)), f(e.frame.x), f(e.frame.y),
                         f(e.frame.width), f(e.frame.height), String(e.zIndex)]
                        + (t.hasAlphaOrZoom ? [f(t.alpha(of: j)), f(t.zoom(of: j))] : [])
                        + (t.hasTransform ? t.transform(of: j).cells.map(f) : []))
        }
        var body = ""
        aligned(rows, into: &body)
        guard let sizing = t.sizing, !sizing.estimated.isEmpty else { return out + body }
        // Cells still at their estimates: "  estimated" after the last column.
        for (k, line) in body.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            out += line + (k > 0 && sizing.isEstimated(k - 1) ? "  estimated" : "") + "\n"
        }
        return out
    }

    /// `rows` in columns as wide as their widest cell, two spaces between columns and nothing
    /// after the last, one line each.
    static func aligned(_ rows: [[String]], into out: inout String) {
        var widths = [Int](repeating: 0, count: rows.first?.count ?? 0)
        for r in rows { for (k, cell) in r.enumerated() { widths[k] = Swift.max(widths[k], cell.count) } }
        for r in rows {
            var line = ""
            for (k, cell) in r.enumerated() {
                line += cell
                if k < r.count - 1 { line += String(repeating: " ", count: widths[k] - cell.count + 2) }
            }
            out += line + "\n"
        }
    }

    /// The title line, with its newline.
    static func title(_ t: AttributeTable) -> String {
        let f = NumberFormat.forPeople
        return "\(TerminalText.escaped(t.name))  \(t.style.rawValue) \(t.direction.rawValue)  container \(f(t.containerWidth)) x \(f(t.containerHeight))"
            + "  content \(f(t.contentWidth)) x \(f(t.contentHeight))" + sizingTitle(t) + "\n"
    }

    /// With `--phase` or `--scroll`: the offset and the last stop's adjustments.
    static func sizingTitle(_ t: AttributeTable) -> String {
        guard let st = t.sizing?.state else { return "" }
        let f = NumberFormat.forPeople
        return "  offset \(f(st.offset.x)), \(f(st.offset.y))  contentOffsetAdjustment \(f(st.offsetAdjustment.x)), \(f(st.offsetAdjustment.y))"
            + "  contentSizeAdjustment \(f(st.sizeAdjustment.width)), \(f(st.sizeAdjustment.height))"
    }

    /// The widths of the eight columns of `t` (ten with `alpha` and `zoom`): the widest cell of each, header included, measured
    /// from the numbers without formatting them. The first pass over the elements, before any
    /// row is written.
    static func widths(_ t: AttributeTable) -> [Int] {
        var section = 0, item = 0, kind = 0, z = 0
        var x = 0, y = 0, width = 0, height = 0
        var hasHeader = false, hasFooter = false, hasNoItem = false, hasBackground = false
        for e in t.elements {
            section = Swift.max(section, e.section)
            if let i = e.item { item = Swift.max(item, digits(i)) } else { hasNoItem = true }
            switch e.kind {
            case .cell: kind = Swift.max(kind, 4)
            case .header: hasHeader = true
            case .footer: hasFooter = true
            case .background: hasBackground = true
            case .attached: kind = Swift.max(kind, TerminalText.escaped(t.kindName(of: e)).utf8.count)
            }
            z = Swift.max(z, digits(e.zIndex))
            x = Swift.max(x, ByteWriter.roundedWidth(e.frame.x))
            y = Swift.max(y, ByteWriter.roundedWidth(e.frame.y))
            width = Swift.max(width, ByteWriter.roundedWidth(e.frame.width))
            height = Swift.max(height, ByteWriter.roundedWidth(e.frame.height))
        }
        if hasHeader || hasFooter { kind = Swift.max(kind, 6) }
        if hasBackground { kind = Swift.max(kind, 10) }
        if hasNoItem { item = Swift.max(item, 1) }
        var cells = [t.elements.isEmpty ? 0 : digits(section), item, kind, x, y, width, height, z]
        if t.hasAlphaOrZoom {
            var a = 0, zm = 0
            for j in t.elements.indices {
                a = Swift.max(a, ByteWriter.roundedWidth(t.alpha(of: j)))
                zm = Swift.max(zm, ByteWriter.roundedWidth(t.zoom(of: j)))
            }
            cells += [a, zm]
        }
        if t.hasTransform {
            var m = [0, 0, 0]
            for j in t.elements.indices {
                for (k, v) in t.transform(of: j).cells.enumerated() { m[k] = Swift.max(m[k], ByteWriter.roundedWidth(v)) }
            }
            cells += m
        }
        return zip(cells, headers(t)).map { Swift.max($0, $1.count) }
    }

    /// How many characters `String(n)` has.
    @inline(__always) static func digits(_ n: Int) -> Int {
        var k = n < 0 ? 1 : 0
        var m = n.magnitude
        repeat {
            k += 1
            m /= 10
        } while m != 0
        return k
    }
}
