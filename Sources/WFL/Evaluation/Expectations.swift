/// The functions of Expectations (LANGUAGE.md) over a finished attribute table.

/// Answers `frame`, `header`, `footer`, `count` and `snap` from a table.
public struct TableQueries: ExpectHost {
    public let table: AttributeTable

    public init(table: AttributeTable) { self.table = table }

    public func call(_ name: String, _ args: [Value], span: Span, argSpans: [Span]) throws(EvalError) -> Value {
        var numbers: [Double] = []
        for (v, s) in zip(args, argSpans) {
            guard case .number(let d) = v else { throw EvalError("'\(name)' takes numbers, not \(v.typeName)", at: s) }
            numbers.append(d)
        }
        func index(_ k: Int, _ what: String) throws(EvalError) -> Int {
            let d = numbers[k]
            guard isWhole(d), d >= 0, d < 1e15 else {
                throw EvalError("\(what) must be a whole number, at least 0, not \(NumberFormat.format(d))", at: argSpans[k])
            }
            return Int(d)
        }
        func list(_ f: Frame) -> Value { .list([.number(f.x), .number(f.y), .number(f.width), .number(f.height)]) }
        switch name {
        case "frame":
            let s = try index(0, "a section number")
            guard s < table.sectionStarts.count else {
                throw EvalError("there is no section \(s): the layout has \(table.sectionStarts.count)", at: argSpans[0])
            }
            let i = try index(1, "an item number")
            let sec = table.sectionStarts[s]
            guard i < sec.cellCount else {
                throw EvalError("section \(s) has no item \(i): it has \(sec.cellCount)", at: argSpans[1])
            }
            return list(table.elements[sec.firstCell + i].frame)
        case "header", "footer":
            let s = try index(0, "a section number")
            guard s < table.sectionStarts.count else {
                throw EvalError("there is no section \(s): the layout has \(table.sectionStarts.count)", at: argSpans[0])
            }
            let sec = table.sectionStarts[s]
            guard let k = name == "header" ? sec.header : sec.footer else {
                throw EvalError("section \(s) has no \(name)", at: span)
            }
            var f = table.elements[k].frame
            if name == "header", numbers.count == 3, sec.pinHeaders {
                // Pinned headers (LAYOUT.md): y = max(naturalY, min(oy, limit)).
                let vertical = table.direction == .vertical
                let footerStart = sec.footer.map { vertical ? table.elements[$0].frame.y : table.elements[$0].frame.x }
                if vertical {
                    let limit = (footerStart ?? sec.end) - f.height
                    f.y = Swift.max(f.y, Swift.min(numbers[2], limit))
                } else {
                    let limit = (footerStart ?? sec.end) - f.width
                    f.x = Swift.max(f.x, Swift.min(numbers[1], limit))
                }
            }
            return list(f)
        case "count":
            // Negative sizes are normalised; overlap is on open intervals.
            var (x, y, w, h) = (numbers[0], numbers[1], numbers[2], numbers[3])
            if w < 0 { x += w; w = -w }
            if h < 0 { y += h; h = -h }
            var n = 0
            for e in table.elements {
                let f = e.frame
                if f.x < x + w && x < f.maxX && f.y < y + h && y < f.maxY { n += 1 }
            }
            return .number(Double(n))
        default:
            throw EvalError("'snap' works only in a flow layout; this layout is a waterfall", at: span)
        }
    }
}
