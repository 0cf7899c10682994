/// The functions of Expectations (docs/language.md, "Expectations") over a finished attribute table.

/// Answers `frame`, `header`, `footer`, `background`, `alpha`, `zoom`, `zIndex`, `count` and `snap`
/// from a table.
package struct TableQueries: ExpectHost {
    package let table: AttributeTable

    package init(table: AttributeTable) { self.table = table }

    /// The device in force (the variable `device`).
    package var device: String { table.scroll.device }

    /// Where a scroll path left the table, if it is a path's.
    package var pathState: PathState? { table.sizing?.state }

    package func call(_ query: ExpectQuery, _ args: [Value], span: Span, argSpans: [Span]) throws(EvalError) -> Value {
        // Motion: the forms with a shelf's own offset last (`count`: s and sx last) ask the
        // table with that shelf moved.
        if let k = ExpectQuery.shelfArgument(query, args.count) {
            guard case .number(let sd) = args[k], case .number(let sx)? = args.last, isWhole(sd), sd >= 0, sd < 1e15, sx.isFinite else {
                throw EvalError(.badQueryArgument, "'\(query.name)' takes a section number and a number last", at: argSpans[k])
            }
            guard let moved = table.atShelf(Int(sd), sx) else {
                throw EvalError(.noSuchElement, "section \(NumberFormat.format(sd)) is not a shelf: 'sx' is a shelf's own offset", at: argSpans[args.count - 1],
                                help: "drop the last argument, or ask about a 'style shelf' section")
            }
            let keep = query == .count ? 6 : args.count - 1
            return try TableQueries(table: moved).call(query, Array(args.prefix(keep)), span: span, argSpans: Array(argSpans.prefix(keep)))
        }
        if query == .attached { return try attached(args, span: span, argSpans: argSpans) }
        let name = query.name
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
        // Section s, the first argument, or an error naming how many there are.
        func section() throws(EvalError) -> Int {
            let s = try index(0, "a section number")
            guard s < table.sectionStarts.count else {
                throw EvalError(.noSuchSection, "there is no section \(s)", detail: "the layout has \(table.sectionStarts.count)", at: argSpans[0])
            }
            return s
        }
        // The element of cell i of section s, the first two arguments.
        func cell() throws(EvalError) -> Int {
            let s = try section()
            let i = try index(1, "an item number")
            let sec = table.sectionStarts[s]
            guard i < sec.cellCount else {
                throw EvalError(.noSuchItem, "section \(s) has no item \(i)", detail: "it has \(sec.cellCount)", at: argSpans[1])
            }
            return sec.firstCell + i
        }
        // The offset of the offset forms; the initial offset otherwise ((0, 0) without a safe
        // area), where `wfl run` shows the layout.
        // After a scroll path (docs/language.md, "Scroll paths"), the path's final offset.
        func offset(_ k: Int) -> Offset {
            numbers.count >= k + 2 ? Offset(x: numbers[k], y: numbers[k + 1]) : table.sizing?.state.offset ?? table.initialOffset
        }
        switch query {
        case .measured:
            // True outside `scroll` blocks and sections without `estimate`.
            return .boolean(!(table.sizing?.isEstimated(try cell()) ?? false))
        case .frame:
            return list(table.frame(of: try cell(), at: offset(2)))
        case .alpha, .zoom, .zIndex:
            // The cell's rules evaluated at the offset, on its frame there.
            let k = try cell()
            let v: (alpha: Double, zoom: Double, zIndex: Int)
            do {
                v = try table.attributes(of: k, at: offset(2))
            } catch {
                throw EvalError(error.code, error.message, at: span)
            }
            return .number(query == .alpha ? v.alpha : query == .zoom ? v.zoom : Double(v.zIndex))
        case .translate, .rotate:
            let k = try cell()
            let t: Transform
            do {
                t = try table.transform(of: k, at: offset(2))
            } catch {
                throw EvalError(error.code, error.message, at: span)
            }
            return query == .rotate ? .number(t.rotate) : .list([.number(t.tx), .number(t.ty)])
        case .header, .footer, .background:
            let s = try section()
            let sec = table.sectionStarts[s]
            guard let k = query == .header ? sec.header : query == .footer ? sec.footer : sec.background else {
                let give = query == .background ? "background items" : "\(name) 44"
                throw EvalError(.noSuchElement, "section \(s) has no \(name)", at: span, help: "give it one with '\(give)', or ask about another section")
            }
            return list(table.frame(of: k, at: offset(1)))
        case .count:
            // Negative sizes are normalised; overlap is on open intervals (docs/layout.md, "Rect queries").
            let r = Frame(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            return .number(Double(table.query(r, at: offset(4)).count))
        case .shelfSnap:
            // Where shelf s comes to rest when released at x (docs/layout.md, "Shelves").
            let s = try section()
            guard !table.scroll.rightToLeft else {
                throw EvalError(.rightToLeftUnsupported, "'shelfSnap' is not defined with 'layoutDirection rightToLeft'", at: span,
                                help: "ask in the left-to-right twin of the layout; a later version may define it")
            }
            guard let band = table.scroll.shelves.first(where: { $0.section == s }) else {
                throw EvalError(.shelfSnapUnavailable, "section \(s) is not a shelf: it is a \(table.sectionStarts[s].style.rawValue) section", at: argSpans[0],
                                help: "'shelfSnap' asks where a shelf ('style shelf') comes to rest")
            }
            guard !band.columnX.isEmpty else {
                throw EvalError(.shelfSnapUnavailable, "shelf section \(s) has no items, so nothing to come to rest on", at: argSpans[0],
                                help: "give the shelf some items")
            }
            return .number(Shelf.snap(band, numbers[1], containerWidth: table.containerWidth))
        case .attached:
            return try attached(args, span: span, argSpans: argSpans)
        case .snap:
            // snap(p) = ceil(p / stride) * stride.
            guard let s0 = table.sectionStarts.first, s0.style == .flow else {
                throw EvalError(.snapUnavailable, "'snap' works only in a flow layout; this layout is a \(table.sectionStarts.first?.style.rawValue ?? table.style.rawValue)", at: span,
                                help: "'snap' gives a carousel's resting offset: write 'style flow'")
            }
            guard !table.scroll.rightToLeft else {
                throw EvalError(.rightToLeftUnsupported, "'snap' is not defined with 'layoutDirection rightToLeft'", at: span,
                                help: "ask in the left-to-right twin of the layout; a later version may define it")
            }
            guard let stride = table.scroll.snapStride else {
                throw EvalError(.snapUnavailable, "'snap' strides by item 0 of section 0, and section 0 has no items", at: span,
                                help: "give section 0 at least one item")
            }
            // snap(p) = ceil(p / stride) * stride (`snapping nearest`: round, half away from
            // zero), then clamped to [0, max(0, content length - container length)] along the
            // scroll axis, as a scroll view clamps its resting offset.
            let p = numbers[0]
            let snapped = (p / stride).rounded(table.scroll.snapping == .nearest ? .toNearestOrAwayFromZero : .up) * stride
            // [minO, maxO] is [0, max(0, ...)] without a safe area (docs/layout.md, "The environment").
            let range = table.scrollableRange
            return .number(Swift.min(Swift.max(snapped, range.min), range.max))
        }
    }

    /// `attached(NAME, s, i)` and `attached(NAME, s, i, ox, oy)`: the frame of the view NAME on
    /// cell i of section s.
    func attached(_ args: [Value], span: Span, argSpans: [Span]) throws(EvalError) -> Value {
        guard case .string(let viewName) = args[0] else {
            throw EvalError(.badQueryArgument, "'attached' takes the view's name as a string first, not \(args[0].typeName)", at: argSpans[0],
                            help: "write, for example, 'attached(\"badge\", 0, 3)'")
        }
        let rest = try TableQueries(table: table).numbers(Array(args.dropFirst()), Array(argSpans.dropFirst()), "attached")
        func index(_ k: Int, _ what: String) throws(EvalError) -> Int {
            let d = rest[k]
            guard isWhole(d), d >= 0, d < 1e15 else {
                throw EvalError(.badQueryArgument, "\(what) must be a whole number, at least 0, not \(NumberFormat.format(d))", at: argSpans[k + 1])
            }
            return Int(d)
        }
        let s = try index(0, "a section number")
        guard s < table.sectionStarts.count else {
            throw EvalError(.noSuchSection, "there is no section \(s)", detail: "the layout has \(table.sectionStarts.count)", at: argSpans[1])
        }
        let i = try index(1, "an item number")
        let sec = table.sectionStarts[s]
        guard i < sec.cellCount else {
            throw EvalError(.noSuchItem, "section \(s) has no item \(i)", detail: "it has \(sec.cellCount)", at: argSpans[2])
        }
        let offset = rest.count >= 4 ? Offset(x: rest[2], y: rest[3]) : table.initialOffset
        let kind = table.attachedNames.firstIndex(of: viewName)
        for j in sec.firstView..<(sec.firstView + sec.viewCount) where table.elements[j].attachedIndex == kind && table.elements[j].item == i {
            let f = table.frame(of: j, at: offset)
            return .list([.number(f.x), .number(f.y), .number(f.width), .number(f.height)])
        }
        throw EvalError(.noSuchElement, "item \(i) of section \(s) has no attached view '\(viewName)'", at: span,
                        help: kind == nil ? "no 'attach' block of this layout is named '\(viewName)'" : "its 'when' is false for this item, or the section has no such 'attach'")
    }

    /// The arguments as numbers, or an error at the first that is not one.
    func numbers(_ args: [Value], _ spans: [Span], _ name: String) throws(EvalError) -> [Double] {
        var out: [Double] = []
        for (v, s) in zip(args, spans) {
            guard case .number(let d) = v else { throw EvalError(.badQueryArgument, "'\(name)' takes numbers after the name, not \(v.typeName)", at: s) }
            out.append(d)
        }
        return out
    }
}
