/// What a layout adds on top of the frames its engine places (docs/layout.md, "Section
/// backgrounds", "Attached views"): step 1 of the order of evaluation at a scroll offset computes
/// the backgrounds from the frames at rest, and the attached views are placed on the cells (step
/// 4 places them again on the cells' frames at an offset, when zoomFirst moves cells). `Sections`
/// calls `place` once the engines are done and before a right-to-left mirror, and `evaluate` (the
/// attribute rules at (0, 0)) after it, only for a layout that has something to add
/// (`ResolvedLayout.decorates`), so a layout without these settings builds its table exactly as
/// before.
///
/// Table order, section by section: the background, the header, the cells by index, the attached
/// views (by name, then by item), the footer.

enum Decorations {
    /// Adds what `layout` puts on top of the frames of `table`, which its engine has just built:
    /// the section backgrounds and the attached views (before a right-to-left mirror).
    static func place(_ layout: ResolvedLayout, _ table: inout AttributeTable) throws(Diagnostic) {
        if layout.sections.contains(where: { $0.background != .none || !$0.attached.isEmpty }) {
            try rebuild(layout, &table)
        }
    }

    /// Keeps the attribute rules of `layout` in `table`, with their values at offset (0, 0), where
    /// `wfl run` shows the table: an error there is an error of the layout.
    static func evaluate(_ layout: ResolvedLayout, _ table: inout AttributeTable) throws(Diagnostic) {
        guard let rules = TableRules.of(layout, .attributes) else { return }
        table.rules.attributes = rules
        let shown = table.at(.zero)
        if let failure = shown.rules.attributeFailure { throw failure }
        table.rules.alphas = shown.rules.alphas
        table.rules.zooms = shown.rules.zooms
        table.rules.transforms = shown.rules.transforms
        for j in table.elements.indices { table.elements[j].zIndex = shown.elements[j].zIndex }
    }

    /// Writes the table again in its order, section by section: the background, the header, the
    /// cells, the attached views (by name, then by item), the footer; and builds the rect index
    /// again over it (table order), in the storage of the engine's.
    ///
    /// In place: the engine's table holds each section's header, cells and footer one after
    /// another, and every element only moves up (towards the end) by what the sections before it
    /// gain. A first pass places the backgrounds and the views (reading the cells where the
    /// engine left them, the views into a scratch array); the table then grows by what was
    /// added and a second pass, from the last section back, moves each section's footer, views,
    /// header and cells to their places. A table laid out again into its old storage
    /// (`IncrementalLayout.relayout`) thus copies no cell and takes no fresh pages.
    static func rebuild(_ layout: ResolvedLayout, _ table: inout AttributeTable) throws(Diagnostic) {
        let vertical = layout.direction == .vertical
        let old = table.sectionStarts
        var starts = old
        var backgrounds: [Element?] = []
        backgrounds.reserveCapacity(old.count)
        var views: [Element] = []
        var attached = AttachedViews()
        var m = Machine(seed: layout.seed, letCount: layout.letCount)
        m.set(.cw, layout.containerWidth)
        m.set(.ch, layout.containerHeight)
        // What the sections so far gained: the shift of the next element of the engine's table.
        var added = 0
        for s in old.indices {
            let sec = layout.sections[s]
            let o = old[s]
            let lo = o.header ?? o.firstCell
            assert(o.header.map { $0 + 1 == o.firstCell } ?? true && o.footer.map { $0 == o.firstCell + o.cellCount } ?? true,
                   "rebuild: a section's header, cells and footer follow one another")
            if let frame = background(sec, s, table, vertical: vertical) {
                starts[s].background = lo + added
                backgrounds.append(Element(kind: .background, section: sec.index, item: nil, frame: frame, zIndex: ZIndex.background))
                added += 1
            } else {
                starts[s].background = nil
                backgrounds.append(nil)
            }
            starts[s].header = o.header.map { $0 + added }
            starts[s].firstCell = o.firstCell + added
            starts[s].firstView = o.firstCell + o.cellCount + added
            // A waterfall section's views see `full` and each cell's first lane, `col`.
            var lanes = !sec.attached.isEmpty ? FirstLanes(sec, layout, begin: o.begin) : nil
            let before = views.count
            try attach(sec, sec.index, cells: table.elements, from: o.firstCell, count: o.cellCount,
                       firstCell: starts[s].firstCell, firstView: starts[s].firstView, lanes: &lanes, machine: &m,
                       into: &views, views: &attached)
            starts[s].viewCount = views.count - before
            added += views.count - before
            starts[s].footer = o.footer.map { $0 + added }
        }
        if added > 0 {
            // The room for what was added, at the end (exactly: a table laid out again with the
            // same counts finds it there).
            let placeholder = backgrounds.lazy.compactMap { $0 }.first ?? views[0]
            table.elements.reserveCapacity(table.elements.count + added)
            table.elements.append(contentsOf: repeatElement(placeholder, count: added))
            table.elements.withUnsafeMutableBufferPointer { el in
                let base = el.baseAddress!
                var v = views.count
                for s in old.indices.reversed() {
                    let o = old[s], n = starts[s]
                    // Each write lands on an element already moved (a later section's, this
                    // footer) or on what was added: positions only grow.
                    if let f = o.footer, let g = n.footer { el[g] = el[f] }
                    v -= n.viewCount
                    for k in 0..<n.viewCount { el[n.firstView + k] = views[v + k] }
                    let lo = o.header ?? o.firstCell, hi = o.firstCell + o.cellCount
                    let shift = n.firstCell - o.firstCell
                    if shift > 0, lo < hi {
                        // Overlapping ranges: a memmove.
                        UnsafeMutableRawPointer(base + lo + shift).copyMemory(from: base + lo, byteCount: (hi - lo) * MemoryLayout<Element>.stride)
                    }
                    if let b = n.background, let e = backgrounds[s] { el[b] = e }
                }
            }
        }
        table.sectionStarts = starts
        table.attachedNames = layout.attachedNames
        if !attached.elements.isEmpty {
            attached.sortByCell()
            table.rules.views = attached
        }
        var spare: [[RectIndex.Box]] = []
        swap(&spare, &table.index.levels)
        table.index = RectIndex(table.elements, sequence: nil, reusing: spare)
    }

    /// Stands for a `when` that is not a general expression (never called).
    static func always(_ m: inout Machine) throws(EvalError) -> Value { .boolean(true) }

    /// The attached views of section `s` (docs/layout.md, "Attached views"), placed on the frames
    /// of its cells at rest, `cells[from...]` (the cells go to `firstCell...` of the table, the
    /// views to `firstView...`): for each view in order, each cell whose `when` holds gets one,
    /// appended to `elements`.
    /// `lanes`, for a waterfall section, finds each cell's first lane; nil for a flow or a shelf,
    /// whose views see the variables of the flow `size` rule.
    static func attach(_ sec: ResolvedSection, _ s: Int, cells: [Element], from: Int, count: Int, firstCell: Int, firstView: Int,
                       lanes: inout FirstLanes?, machine m: inout Machine, into elements: inout [Element],
                       views: inout AttachedViews) throws(Diagnostic) {
        guard !sec.attached.isEmpty, count > 0 else { return }
        // The table index of elements[k] once in place.
        let viewBase = firstView - elements.count
        let ins = sec.insets
        m.set(.s, Double(s))
        m.set(.n, Double(sec.items))
        m.set(.aw, m.vars[EngineVar.cw.rawValue] - ins.left - ins.right)
        m.set(.ah, m.vars[EngineVar.ch.rawValue] - ins.top - ins.bottom)
        let sizeVars: UInt64, offsetVars: UInt64
        if let lanes {
            m.set(.full, Double(lanes.geometry.C))
            (sizeVars, offsetVars) = (VarSets.attachWaterfall, VarSets.attachWaterfallOffset)
        } else {
            (sizeVars, offsetVars) = (VarSets.attach, VarSets.attachOffset)
        }
        for view in sec.attached {
            let (fx, fy) = view.anchor.fractions
            // Unwrapped out of the loop (an optional bound in it costs a retain and a release a cell).
            let hasWhen = view.rules[.when] != nil, when = view.rules[.when] ?? ItemRule.constant(1, "")
            // The usual `when`, a general expression, taken apart once: its closure is called per
            // cell and its list cycled here (`ItemRule.cycled`); any other shape goes through
            // `condition`.
            var whenCode: Code = Decorations.always, general = false
            if case .value(let code) = when.kind { (whenCode, general) = (code, true) }
            // A comparison of two flat programs (`i % 10 == 0`) runs without the closures; where
            // it gives up, the compiled rule runs from the same state.
            let flat = when.flatCondition != nil
            let flatWhen = when.flatCondition ?? FlatCondition.always
            let vwRule = view.width, vhRule = view.height, dxRule = view.dx, dyRule = view.dy
            // The offsets' flat programs (`vw / 2`), taken out of their rules once: evaluating
            // the rule copies its closure (a retain and a release) before running the program.
            func flatProgram(_ rule: ItemRule) -> FlatRule? {
                if case .number = rule.kind { return rule.flat }
                return nil
            }
            let hasDxFlat = flatProgram(dxRule) != nil, dxFlat = flatProgram(dxRule) ?? FlatRule()
            let hasDyFlat = flatProgram(dyRule) != nil, dyFlat = flatProgram(dyRule) ?? FlatRule()
            // Working out a cell's lane costs a division a cell: only for a view that reads it.
            let readsLane = lanes != nil && view.readsLane
            // A `when` on the index alone (`i % 10 == 0`) is decided before the item is set up,
            // as an integer: the next cell it holds for is found ahead (`IndexCondition.next`),
            // and a cell it leaves out costs a comparison, not the item's set-up and a program
            // run. Its lane is still worked out (that may lay the section out again).
            let byIndex = sizeVars & EngineVar.i.bit != 0 && count < 1 << 53 ? when.flatCondition?.byIndex : nil
            let indexed = byIndex != nil, indexWhen = byIndex ?? IndexCondition.never
            var upcoming = -1
            // The views it adds, known ahead: room for them at once (growing from empty took a
            // tenth of the loop's instructions), at least doubling so that sections add up.
            if indexed, let n = indexWhen.count(below: count), n > 0 {
                func reserve<T>(_ a: inout [T]) {
                    if a.capacity < a.count + n { a.reserveCapacity(Swift.max(a.count + n, 2 * a.capacity)) }
                }
                reserve(&elements)
                reserve(&views.elements)
                reserve(&views.cells)
                reserve(&views.geometry)
            }
            for i in 0..<count {
                if indexed {
                    if upcoming < i { upcoming = indexWhen.next(from: i, end: count) }
                    if upcoming != i {
                        if readsLane { _ = try lanes!.lane(of: cells[from + i].frame, item: i) }
                        continue
                    }
                }
                let j = firstCell + i
                let cell = cells[from + i]
                func fail(_ error: EvalError, _ what: String) -> Diagnostic {
                    error.at("in \(what) of item \(i) of section \(s)").diagnostic
                }
                // The variables of the item rules, and w and h: the cell as the engine placed it.
                m.beginItem(i, section: s)
                m.set(.w, cell.frame.width)
                m.set(.h, cell.frame.height)
                if readsLane { m.set(.col, Double(try lanes!.lane(of: cell.frame, item: i))) }
                m.available = sizeVars
                if hasWhen, !indexed {
                    var decided: Bool? = nil
                    if flat {
                        let count = m.randomCount
                        decided = flatWhen.run(&m)
                        if decided == nil { m.randomCount = count }
                    }
                    if let holds = decided {
                        if !holds { continue }
                    } else {
                        let b: Value
                        do { b = general ? ItemRule.cycled(try whenCode(&m), item: i) : try when.condition(&m, item: i) } catch { throw fail(error, "'when' of 'attach \(view.name)'") }
                        guard case .boolean(let holds) = b else {
                            throw Diagnostic.error(.wrongValueType, "'when' of 'attach \(view.name)' must be true or false, not \(b.typeName), for item \(i) of section \(s)",
                                                   at: when.span)
                        }
                        if !holds { continue }
                    }
                }
                // size (vw, vh): finite and not negative, as a cell's.
                func size(_ rule: borrowing ItemRule) throws(Diagnostic) -> Double {
                    let d: Double
                    do { d = try rule.evaluate(&m, item: i) } catch { throw fail(error, rule.what) }
                    guard d.isFinite, d >= 0 else {
                        throw Diagnostic.error(.badSize, "\(rule.what) of item \(i) of section \(s) is \(NumberFormat.format(d)): a size must be finite and not negative",
                                               at: rule.span)
                    }
                    return d
                }
                let vw = try size(vwRule), vh = try size(vhRule)
                m.set(.vw, vw)
                m.set(.vh, vh)
                m.available = offsetVars
                // An offset: its flat program, or the rule from the same state where that gives up
                // (what `ItemRule.evaluate` does).
                func offset(_ rule: borrowing ItemRule, _ flat: borrowing FlatRule, _ hasFlat: Bool) throws(Diagnostic) -> Double {
                    if hasFlat {
                        var r = 0.0
                        let count = m.randomCount
                        if flat.run(&m, &r) { return r }
                        m.randomCount = count
                    }
                    do { return try rule.evaluate(&m, item: i) } catch { throw fail(error, rule.what) }
                }
                let dx = try offset(dxRule, dxFlat, hasDxFlat), dy = try offset(dyRule, dyFlat, hasDyFlat)
                guard dx.isFinite, dy.isFinite else { throw FiniteFrames.badOffset(dx.isFinite ? dyRule : dxRule, dx.isFinite ? dy : dx, item: i, section: s) }
                let g = AttachedViews.Geometry(width: vw, height: vh, dx: dx, dy: dy, fx: fx, fy: fy, zIndex: view.zIndex)
                views.elements.append(Int32(viewBase + elements.count))
                views.cells.append(Int32(j))
                views.geometry.append(g)
                elements.append(Element(attached: view.kind, section: s, item: i, frame: g.place(on: cell.frame),
                                        zIndex: cell.zIndex + view.zIndex))
            }
        }
    }

    /// The background frame of section `s`, nil when it has none (docs/layout.md, "Section
    /// backgrounds"). Vertical, with `start` the section's first y, `itemsTop` the y after the
    /// header and its insets, `itemsEnd` where the footer's insets begin and `end` its last y:
    ///
    ///     all:   R = (0, start, cw, end - start)
    ///     items: R = (0, itemsTop, cw, itemsEnd - itemsTop)
    ///     cells: R = the smallest rect holding every cell's frame
    ///     frame = (R.x + bi.left, R.y + bi.top, R.w - bi.left - bi.right, R.h - bi.top - bi.bottom)
    ///
    /// Horizontal is the same along x. A frame whose width or height is not > 0 gives none.
    static func background(_ sec: ResolvedSection, _ s: Int, _ table: AttributeTable, vertical: Bool) -> Frame? {
        let index = table.sectionStarts[s]
        let cw = table.containerWidth, ch = table.containerHeight
        // start: where the section begins, before its header's insets.
        let start = index.begin
        let r: Frame
        switch sec.background {
        case .none:
            return nil
        case .all:
            // (0, start, cw, end - start), end the section's stop after its footer's insets.
            r = vertical ? Frame(x: 0, y: start, width: cw, height: index.stop - start)
                         : Frame(x: start, y: 0, width: index.stop - start, height: ch)
        case .items:
            // itemsTop = start + the header with its insets (nothing without a header);
            // itemsEnd = the section's end, bottom + ins.bottom.
            let hi = sec.headerInsets
            // A header that `collapseEmpty all` removed takes no room.
            let headerShown = sec.header > 0 && !(sec.items == 0 && sec.collapseEmpty == .all)
            let headerLength = headerShown ? (vertical ? hi.top + sec.header + hi.bottom : hi.left + sec.header + hi.right) : 0
            let itemsTop = start + headerLength
            r = vertical ? Frame(x: 0, y: itemsTop, width: cw, height: index.end - itemsTop)
                         : Frame(x: itemsTop, y: 0, width: index.end - itemsTop, height: ch)
        case .cells:
            guard index.cellCount > 0 else { return nil }
            var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
            for e in table.elements[index.firstCell..<(index.firstCell + index.cellCount)] {
                let f = e.frame
                x0 = Swift.min(x0, f.x)
                y0 = Swift.min(y0, f.y)
                x1 = Swift.max(x1, f.maxX)
                y1 = Swift.max(y1, f.maxY)
            }
            r = Frame(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        let bi = sec.backgroundInsets
        let f = Frame(x: r.x + bi.left, y: r.y + bi.top, width: r.width - bi.left - bi.right, height: r.height - bi.top - bi.bottom)
        guard f.width > 0, f.height > 0 else { return nil }
        return f
    }
}

/// The first lane of each cell of a waterfall section, `col` in its `attach` blocks. Views are
/// placed before a right-to-left mirror, so a cell's frame still starts at its first lane c
/// (docs/layout.md, "Waterfall", step 9): `laneX(c) = ins.left + c * (laneW + cs)` along x when
/// vertical, `ins.top + c * (laneH + rs)` along y when horizontal, whatever the `order` (which
/// only picks c) and the span (which widens the frame to the right of laneX(c)). c is found from
/// the frame by computing laneX exactly as the engine does; when two lanes start at the same
/// place (laneW + cs is 0, or too small to tell them apart), the position cannot say which, and
/// the section is laid out again with its lanes recorded.
struct FirstLanes {
    let geometry: Waterfall.Geometry
    let section: ResolvedSection
    let layout: ResolvedLayout
    /// Where the section begins, to lay it out again from.
    let begin: Double
    /// The lanes recorded by laying the section out again, once the positions could not tell.
    var recorded: [UInt16]? = nil

    /// nil for a section that is not a waterfall's.
    init?(_ sec: ResolvedSection, _ layout: ResolvedLayout, begin: Double) {
        guard let e = sec.engine as? WaterfallEngine else { return nil }
        geometry = Waterfall.Geometry(sec, e, SectionStack(layout))
        section = sec
        self.layout = layout
        self.begin = begin
    }

    /// laneX(c) (laneY(c) when horizontal), the same expression as the engine's step 9.
    @inline(__always)
    func start(of c: Int) -> Double { geometry.crossStart + Double(c) * (geometry.laneW + geometry.laneGap) }

    /// The first lane of the cell `frame` of item `i`.
    mutating func lane(of frame: Frame, item i: Int) throws(Diagnostic) -> Int {
        if let recorded { return Int(recorded[i]) }
        let cross = geometry.vertical ? frame.x : frame.y
        let C = geometry.C
        if C == 1 { return 0 }
        if let c = fromPosition(cross, C) { return c }
        let lanes = try Waterfall.firstLanes(section, layout, begin: begin)
        recorded = lanes
        return Int(lanes[i])
    }

    /// The one lane c with start(of: c) == cross, nil when there is none or more than one. The
    /// starts are monotonic in c (a product and a sum of doubles are), so lanes that share a start
    /// are neighbours.
    func fromPosition(_ cross: Double, _ C: Int) -> Int? {
        let pitch = geometry.laneW + geometry.laneGap
        guard pitch != 0 else { return nil }
        let guess = ((cross - geometry.crossStart) / pitch).rounded()
        var c: Int
        if guess.isFinite, start(of: Int(Swift.min(Swift.max(guess, 0), Double(C - 1)))) == cross {
            c = Int(Swift.min(Swift.max(guess, 0), Double(C - 1)))
        } else {
            // The quotient's rounding missed it: the first lane whose start is not before cross.
            var lo = 0, hi = C
            while lo < hi {
                let mid = (lo + hi) / 2
                let before = pitch > 0 ? start(of: mid) < cross : start(of: mid) > cross
                if before { lo = mid + 1 } else { hi = mid }
            }
            guard lo < C, start(of: lo) == cross else { return nil }
            c = lo
        }
        if c > 0, start(of: c - 1) == cross { return nil }
        if c < C - 1, start(of: c + 1) == cross { return nil }
        return c
    }
}

/// Where each attached view of a table sits on its cell, to place it again on the cell's frame at
/// a scroll offset (step 4 of the order of evaluation).
package struct AttachedViews: Equatable, Sendable {
    /// How one view sits on its cell.
    struct Geometry: Equatable, Sendable {
        var width: Double, height: Double
        var dx: Double, dy: Double
        var fx: Double, fy: Double
        var zIndex: Int

        /// frame = (x + fx * w - fx * vw + dx, y + fy * h - fy * vh + dy, vw, vh), for a cell (x, y, w, h).
        func place(on f: Frame) -> Frame {
            Frame(x: f.x + fx * f.width - fx * width + dx, y: f.y + fy * f.height - fy * height + dy, width: width, height: height)
        }
    }

    /// The views' element indexes, ascending; for each, its cell's and its geometry.
    var elements: [Int32] = []
    var cells: [Int32] = []
    var geometry: [Geometry] = []
    /// The views' positions in `elements`, ordered by their cells (for the views of a cell).
    var byCell: [Int32] = []

    mutating func sortByCell() {
        let n = elements.count
        // The views of one `attach` block come in their cells' order already: no sort then.
        let inOrder = cells.withUnsafeBufferPointer { c in n < 2 || !(1..<n).contains { c[$0] < c[$0 - 1] } }
        byCell = inOrder ? Array(0..<Int32(n)) : Array(0..<Int32(n)).sorted { (cells[Int($0)], $0) < (cells[Int($1)], $1) }
    }

    /// The position in `elements` of element `j`, if it is a view.
    func position(of j: Int) -> Int? {
        var lo = 0, hi = elements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(elements[mid]) < j { lo = mid + 1 } else { hi = mid }
        }
        return lo < elements.count && Int(elements[lo]) == j ? lo : nil
    }

    /// The element indexes of the views on cell `c`.
    func views(of c: Int) -> [Int] {
        var lo = 0, hi = byCell.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(cells[Int(byCell[mid])]) < c { lo = mid + 1 } else { hi = mid }
        }
        var out: [Int] = []
        while lo < byCell.count, Int(cells[Int(byCell[lo])]) == c {
            out.append(Int(elements[Int(byCell[lo])]))
            lo += 1
        }
        return out
    }
}

extension AttributeTable {
    /// The frame of view `k` of `views` on its cell's frame `f`.
    func placeView(_ k: Int, on f: Frame) -> Frame {
        rules.views!.geometry[k].place(on: f)
    }
}
