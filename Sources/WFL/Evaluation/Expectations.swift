/// The functions of Expectations (docs/language.md, "Expectations") over a finished attribute table.

/// Answers `frame`, `header`, `footer`, `count` and `snap` from a table.
package struct TableQueries: ExpectHost {
    package let table: AttributeTable

    package init(table: AttributeTable) { self.table = table }

    package func call(_ name: String, _ args: [Value], span: Span, argSpans: [Span]) throws(EvalError) -> Value {
        var numbers: [Double] = []
        for (v, s) in zip(args, argSpans) {
            guard case .number(let d) = v else { throw EvalError(.badQueryArgument, "'\(name)' takes numbers, not \(v.typeName)", at: s) }
            numbers.append(d)
        }
        func index(_ k: Int, _ what: String) throws(EvalError) -> Int {
            let d = numbers[k]
            guard isWhole(d), d >= 0, d < 1e15 else {
                throw EvalError(.badQueryArgument, "\(what) must be a whole number, at least 0, not \(NumberFormat.format(d))", at: argSpans[k])
            }
            return Int(d)
        }
        func list(_ f: Frame) -> Value { .list([.number(f.x), .number(f.y), .number(f.width), .number(f.height)]) }
        // The offset of the offset forms; (0, 0) otherwise, where `wfl run` shows the layout.
        func offset(_ k: Int) -> Offset { numbers.count >= k + 2 ? Offset(x: numbers[k], y: numbers[k + 1]) : .zero }
        switch name {
        case "frame":
            let s = try index(0, "a section number")
            guard s < table.sectionStarts.count else {
                throw EvalError(.noSuchSection, "there is no section \(s)", detail: "the layout has \(table.sectionStarts.count)", at: argSpans[0])
            }
            let i = try index(1, "an item number")
            let sec = table.sectionStarts[s]
            guard i < sec.cellCount else {
                throw EvalError(.noSuchItem, "section \(s) has no item \(i)", detail: "it has \(sec.cellCount)", at: argSpans[1])
            }
            return list(table.frame(of: sec.firstCell + i, at: offset(2)))
        case "header", "footer":
            let s = try index(0, "a section number")
            guard s < table.sectionStarts.count else {
                throw EvalError(.noSuchSection, "there is no section \(s)", detail: "the layout has \(table.sectionStarts.count)", at: argSpans[0])
            }
            let sec = table.sectionStarts[s]
            guard let k = name == "header" ? sec.header : sec.footer else {
                throw EvalError(.noSuchElement, "section \(s) has no \(name)", at: span, help: "give it one with '\(name) 44', or ask about another section")
            }
            return list(table.frame(of: k, at: offset(1)))
        case "count":
            // Negative sizes are normalised; overlap is on open intervals (docs/layout.md, "Rect queries").
            let r = Frame(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            return .number(Double(table.query(r, at: offset(4)).count))
        case "shelfSnap":
            // Where shelf s comes to rest when released at x (docs/layout.md, "Shelves").
            let s = try index(0, "a section number")
            guard s < table.sectionStarts.count else {
                throw EvalError(.noSuchSection, "there is no section \(s)", detail: "the layout has \(table.sectionStarts.count)", at: argSpans[0])
            }
            guard !table.rightToLeft else {
                throw EvalError(.rightToLeftUnsupported, "'shelfSnap' is not defined with 'layoutDirection rightToLeft'", at: span,
                                help: "ask in the left-to-right twin of the layout; a later version may define it")
            }
            guard let band = table.shelves.first(where: { $0.section == s }) else {
                throw EvalError(.shelfSnapUnavailable, "section \(s) is not a shelf: it is a \(table.sectionStarts[s].style.rawValue) section", at: argSpans[0],
                                help: "'shelfSnap' asks where a shelf ('style shelf') comes to rest")
            }
            guard !band.columnX.isEmpty else {
                throw EvalError(.shelfSnapUnavailable, "shelf section \(s) has no items, so nothing to come to rest on", at: argSpans[0],
                                help: "give the shelf some items")
            }
            return .number(Shelf.snap(band, numbers[1], containerWidth: table.containerWidth))
        default:
            // snap(p) = ceil(p / stride) * stride.
            guard let s0 = table.sectionStarts.first, s0.style == .flow else {
                throw EvalError(.snapUnavailable, "'snap' works only in a flow layout; this layout is a \(table.sectionStarts.first?.style.rawValue ?? table.style.rawValue)", at: span,
                                help: "'snap' gives a carousel's resting offset: write 'style flow'")
            }
            guard !table.rightToLeft else {
                throw EvalError(.rightToLeftUnsupported, "'snap' is not defined with 'layoutDirection rightToLeft'", at: span,
                                help: "ask in the left-to-right twin of the layout; a later version may define it")
            }
            guard let stride = table.snapStride else {
                throw EvalError(.snapUnavailable, "'snap' strides by item 0 of section 0, and section 0 has no items", at: span,
                                help: "give section 0 at least one item")
            }
            // snap(p) = ceil(p / stride) * stride (`snapping nearest`: round, half away from
            // zero), then clamped to [0, max(0, content length - container length)] along the
            // scroll axis, as a scroll view clamps its resting offset.
            let p = numbers[0]
            let snapped = (p / stride).rounded(table.snapping == .nearest ? .toNearestOrAwayFromZero : .up) * stride
            let vertical = table.direction == .vertical
            let maxOffset = Swift.max(0, vertical ? table.contentHeight - table.containerHeight : table.contentWidth - table.containerWidth)
            return .number(Swift.min(Swift.max(snapped, 0), maxOffset))
        }
    }
}
