/// `wfl run --transitions` in json, csv and table (docs/usage.md, "Updates and transitions"): one
/// row per transition, in the order of the transitions; the html Play picture is
/// Pictures/TransitionsHTML.swift. json and csv print numbers as the other machine formats do
/// (`ByteWriter.append(number:)`); table rounds them for people.
public enum TransitionFormat {
    /// The csv header row.
    package static let csvHeader = "layout,section,item,itemBefore,kind,change,fromX,fromY,fromWidth,fromHeight,fromAlpha,fromZoom,toX,toY,toWidth,toHeight,toAlpha,toZoom"

    /// The json of the layouts' transitions: each layout's name, style, direction, container,
    /// content size before and after, and its transitions (no elements).
    public static func json(_ tables: [TransitionTable]) -> String {
        var w = ByteWriter()
        w.append("{\n  \"layouts\": [")
        for (k, t) in tables.enumerated() {
            let b = t.before, a = t.after
            w.append(k == 0 ? "\n" : ",\n")
            w.append("    {\n      \"name\": ")
            w.append(string: JSONFormat.quote(b.name))
            w.append(",\n      \"style\": ")
            w.append(string: JSONFormat.quote(b.style.rawValue))
            w.append(",\n      \"direction\": ")
            w.append(string: JSONFormat.quote(b.direction.rawValue))
            w.append(",\n      \"container\": ")
            pair(b.containerWidth, b.containerHeight, &w)
            w.append(",\n      \"contentSizeBefore\": ")
            pair(b.contentWidth, b.contentHeight, &w)
            w.append(",\n      \"contentSize\": ")
            pair(a.contentWidth, a.contentHeight, &w)
            w.append(",\n      \"transitions\": [")
            for (j, x) in t.transitions.enumerated() {
                w.append(j == 0 ? "\n        {\"kind\": " : ",\n        {\"kind\": ")
                w.append(string: JSONFormat.quote(t.kindName(of: x)))
                w.append(", \"section\": ")
                w.append(x.section)
                w.append(", \"item\": ")
                if let i = x.item { w.append(i) } else { w.append("null") }
                w.append(", \"itemBefore\": ")
                if let i = x.itemBefore { w.append(i) } else { w.append("null") }
                w.append(", \"change\": \"")
                w.append(string: x.change.rawValue)
                w.append("\", \"from\": ")
                end(x.from, &w)
                w.append(", \"to\": ")
                end(x.to, &w)
                w.append("}")
            }
            w.append(t.transitions.isEmpty ? "]\n    }" : "\n      ]\n    }")
        }
        w.append(tables.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `[w, h]`.
    static func pair(_ x: Double, _ y: Double, _ w: inout ByteWriter) {
        w.append("[")
        w.append(number: x)
        w.append(", ")
        w.append(number: y)
        w.append("]")
    }

    /// `{"frame": [x, y, w, h], "alpha": a, "zoom": z}`: both always there; `"translate": [X, Y]`
    /// and `"rotate": R` each only where its own value is used.
    static func end(_ e: TransitionEnd, _ w: inout ByteWriter) {
        w.append("{\"frame\": [")
        w.append(frame: e.frame, separator: ", ")
        w.append("], \"alpha\": ")
        w.append(number: e.alpha)
        w.append(", \"zoom\": ")
        w.append(number: e.zoom)
        let cells = e.transform.cells
        if cells[0] != 0 || cells[1] != 0 {
            w.append(", \"translate\": ")
            pair(cells[0], cells[1], &w)
        }
        if cells[2] != 0 {
            w.append(", \"rotate\": ")
            w.append(number: cells[2])
        }
        w.append("}")
    }

    /// True when some transition of `tables` starts or ends with a translate or rotate.
    static func usesTransform(_ tables: [TransitionTable]) -> Bool {
        tables.contains { $0.transitions.contains { !$0.from.transform.isIdentity || !$0.to.transform.isIdentity } }
    }

    /// The csv: the header row, then one row per transition of every layout (`item` and
    /// `itemBefore` empty where the element has none).
    public static func csv(_ tables: [TransitionTable]) -> String {
        var w = ByteWriter()
        let moves = usesTransform(tables)
        w.append(string: csvHeader)
        if moves { w.append(",fromTranslateX,fromTranslateY,fromRotate,toTranslateX,toTranslateY,toRotate") }
        w.append(UInt8(10))
        for t in tables {
            let name = Array((CSVFormat.field(t.before.name) + ",").utf8)
            for x in t.transitions {
                w.append(contentsOf: name)
                w.append(x.section)
                w.append(UInt8(44))
                if let i = x.item { w.append(i) }
                w.append(UInt8(44))
                if let i = x.itemBefore { w.append(i) }
                w.append(UInt8(44))
                w.append(string: CSVFormat.field(t.kindName(of: x)))
                w.append(UInt8(44))
                w.append(string: x.change.rawValue)
                for e in [x.from, x.to] {
                    for v in [e.frame.x, e.frame.y, e.frame.width, e.frame.height, e.alpha, e.zoom] {
                        w.append(UInt8(44))
                        w.append(number: v)
                    }
                }
                if moves {
                    for e in [x.from, x.to] {
                        for v in e.transform.cells {
                            w.append(UInt8(44))
                            w.append(number: v)
                        }
                    }
                }
                w.append(UInt8(10))
            }
        }
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The columns of the table format: where the element is (section, item after and before the
    /// update), what it is and does, then its `from` and, after `->`, its `to`.
    static let tableHeaders = ["section", "item", "before", "kind", "change", "x", "y", "width", "height", "alpha", "zoom",
                               "->", "x", "y", "width", "height", "alpha", "zoom"]

    /// The columns of the table format for a layout where some end uses a translate or rotate:
    /// each end's `translateX translateY rotate` after its `zoom`.
    static let tableHeadersWithTransforms = ["section", "item", "before", "kind", "change", "x", "y", "width", "height", "alpha", "zoom",
                                             "translateX", "translateY", "rotate",
                                             "->", "x", "y", "width", "height", "alpha", "zoom", "translateX", "translateY", "rotate"]

    /// The table, for people: per layout a title line (as the table format's, with the content
    /// size before and after the update), the header row and a row per transition, numbers
    /// rounded to 3 decimals; layouts separated by a blank line.
    public static func table(_ tables: [TransitionTable]) -> String {
        let f = NumberFormat.forPeople
        var out = ""
        for (k, t) in tables.enumerated() {
            let b = t.before, a = t.after
            if k > 0 { out += "\n" }
            out += "\(TerminalText.escaped(b.name))  \(b.style.rawValue) \(b.direction.rawValue)  container \(f(b.containerWidth)) x \(f(b.containerHeight))"
                + "  content \(f(b.contentWidth)) x \(f(b.contentHeight)) -> \(f(a.contentWidth)) x \(f(a.contentHeight))\n"
            // translate and rotate: columns only in a layout where some end uses one.
            let moves = usesTransform([t])
            var rows: [[String]] = [moves ? tableHeadersWithTransforms : tableHeaders]
            rows.reserveCapacity(t.transitions.count + 1)
            for x in t.transitions {
                func end(_ e: TransitionEnd) -> [String] {
                    [f(e.frame.x), f(e.frame.y), f(e.frame.width), f(e.frame.height), f(e.alpha), f(e.zoom)]
                        + (moves ? e.transform.cells.map(f) : [])
                }
                rows.append([String(x.section), x.item.map(String.init) ?? "-", x.itemBefore.map(String.init) ?? "-",
                             TerminalText.escaped(t.kindName(of: x)), x.change.rawValue] + end(x.from) + ["->"] + end(x.to))
            }
            TableFormat.aligned(rows, into: &out)
        }
        return out
    }
}
