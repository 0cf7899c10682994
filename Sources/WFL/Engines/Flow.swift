/// The flow engine (docs/layout.md, "Header and footer", "Flow"): UICollectionViewFlowLayout as
/// far as it is publicly known, a pure function of a resolved layout. Every formula is computed in
/// doubles in the order docs/layout.md writes it.
///
/// Vertical is written out: lines are rows filled left to right within `aw`, `cs` between the
/// items of a line and `rs` between lines. Horizontal: lines are columns filled top to bottom
/// within `ah`, `rs` between the items of a column and `cs` between columns; `justify` works along
/// the column (from `ins.top`) and `align` across it. The code works on a "line" axis (x when
/// vertical) and a "stack" axis (the scroll axis: y when vertical).
package enum Flow {
    /// The tolerance of line breaking and of "the same size" (docs/layout.md, "Flow").
    static let tolerance = 1e-6

    /// Lays out every section of `layout`; warnings (overflowing items) go to `warnings`.
    package static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        Flow.layout(layout, warnings: &warnings, spareElements: [], spareLevels: [])
    }

    /// The same, building the table in the storage of an older table's elements and index levels
    /// (`AttributeTable.relayout`).
    static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                       spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure> {
        // Every section is a flow's here (`layoutWhole`), its configuration taken once.
        let engines = layout.sections.compactMap { $0.engine as? FlowEngine }
        guard engines.count == layout.sections.count else {
            return Sections.stackedResult(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
        }
        var table = SectionStack.table(for: layout)
        // The elements are written through a pointer, not appended one by one: the array is made
        // long enough first (an older table's storage usually is already) and cut to size after.
        var elements = SectionStack.writableElements(spareElements, for: layout)
        let most = elements.count
        let stack = SectionStack(layout)
        var m = stack.machine(for: layout)
        // Sections stack along the scroll axis with nothing between them; `top` starts at 0.
        var top = layout.start
        var itemsStart = 0.0
        var firstSize: (Double, Double)? = nil
        // Leaf boxes of the index made as each line is placed, in the old level 0's storage.
        var spareLevels = consume spareLevels
        var leaves = RectIndex.LeafBuilder(storage: spareLevels.isEmpty ? [] : spareLevels.removeFirst())
        leaves.boxes.reserveCapacity(most / RectIndex.leaf + 1)
        var count = 0
        let failure: Diagnostic? = elements.withUnsafeMutableBufferPointer { buffer in
            var out = Output(elements: buffer, count: 0)
            defer { count = out.count }
            for (section, engine) in zip(layout.sections, engines) {
                do throws(Diagnostic) {
                    let start: Double, size: (Double, Double)?
                    (start, top, size) = try lay(section, engine, stack, top: top, machine: &m, into: &out, sections: &table.sectionStarts,
                                                 warnings: &warnings, leaves: &leaves)
                    if section.index == 0 { (itemsStart, firstSize) = (start, size) }
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { return .failure(LayoutFailure([failure])) }
        elements.removeLast(elements.count - count)
        table.elements = consume elements
        stack.setContentSize(&table, top: top)
        table.noteScrollGeometry(layout, itemsStart: itemsStart, firstSize: firstSize)
        // Lines are sorted along the scroll axis, so table order is a good sequence for the index.
        // The leaves taken out of the builder, so that the index owns them alone (no copy when it
        // adds to them).
        var boxes: [RectIndex.Box] = []
        swap(&boxes, &leaves.boxes)
        table.index = RectIndex(table.elements, sequence: nil, reusing: consume spareLevels, leaves: boxes)
        return .success(table)
    }

    /// Where the elements go: a buffer long enough for them all, filled from the start.
    struct Output: ElementSink {
        let elements: UnsafeMutableBufferPointer<Element>
        var count: Int

        @inline(__always) mutating func append(_ e: Element) {
            elements[count] = e
            count += 1
        }
    }

    /// What a section fixes for its lines, on the line axis (x when vertical): where the lines
    /// start (ins.left, or ins.top when horizontal), their length (aw or ah), the gap between the
    /// items of a line (cs or rs) and between lines (rs or cs); `justify` and `align`.
    struct Lines {
        let left: Double, length: Double, gap: Double, lineGap: Double
        let justify: Justify, align: Align
    }

    /// One section, from `top` (x when horizontal), its row of the index appended to `sections`:
    /// the section stacker's steps (`SectionStack.lay`) written out over the flow's buffer.
    /// Returns where its items start (after the header and `ins.top`), where the next section
    /// starts, and the own size of its item 0 (before `align stretch`), nil when it has none.
    static func lay(_ sec: ResolvedSection, _ e: FlowEngine, _ stack: SectionStack, top: Double, machine m: inout Machine,
                    into out: inout Output, sections: inout [AttributeTable.SectionIndex], warnings: inout [Diagnostic],
                    leaves: inout RectIndex.LeafBuilder) throws(Diagnostic) -> (itemsStart: Double, stop: Double, firstSize: (Double, Double)?) {
        // 1.-2. The header and `top += ins.top` (docs/layout.md, "Header and footer").
        var (index, itemsStart) = stack.open(sec, at: top, into: &out)
        let (bottom, firstSize) = try items(sec, e, stack, top: itemsStart, machine: &m, into: &out, warnings: &warnings, leaves: &leaves)
        // 10. top = bottom + ins.bottom (ins.right when horizontal), the section's end; the footer.
        let stop = try stack.close(sec, bottom: bottom, index: &index, into: &out)
        sections.append(index)
        return (itemsStart, stop, firstSize)
    }

    /// Steps 3-9 for the items of one section, from `top` (x when horizontal), its header and
    /// insets already written: returns where its items end and the own size of its item 0
    /// (before `align stretch`), nil when it has none.
    static func items(_ sec: ResolvedSection, _ e: FlowEngine, _ stack: SectionStack, top: Double, machine m: inout Machine,
                      into out: inout Output, warnings: inout [Diagnostic],
                      leaves: inout RectIndex.LeafBuilder) throws(Diagnostic) -> (bottom: Double, firstSize: (Double, Double)?) {
        let s = sec.index
        let ins = sec.insets
        let vertical = stack.vertical
        let (aw, ah) = stack.available(sec)
        let lines = Lines(left: vertical ? ins.left : ins.top, length: vertical ? aw : ah,
                          gap: vertical ? sec.columnSpacing : sec.rowSpacing,
                          lineGap: vertical ? sec.rowSpacing : sec.columnSpacing, justify: e.justify, align: e.align)
        // 9. bottom = last line's y + its lineH, or top when the section is empty.
        var bottom = top
        var firstSize: (Double, Double)? = nil
        if sec.items > 0 {
            let wRule: ItemRule, hRule: ItemRule
            switch sec.size {
            case .natural(let w, let h): (wRule, hRule) = (w, h)
            case .length(let rule):
                // The resolver refuses `height`/`width` alone in a flow layout; never reached.
                throw Diagnostic.error(.flowNeedsSize, "a flow layout sizes each item with 'size W x H'", at: rule.settingSpan)
            }
            stack.enter(sec, machine: &m)
            m.inItem = true
            defer { m.inItem = false }
            let overflow = vertical
                ? try walk(VerticalLines.self, sec, wRule, hRule, lines, top: top, machine: &m, into: &out, bottom: &bottom,
                           firstSize: &firstSize, leaves: &leaves)
                : try walk(HorizontalLines.self, sec, wRule, hRule, lines, top: top, machine: &m, into: &out,
                           bottom: &bottom, firstSize: &firstSize, leaves: &leaves)
            // A line's first item wider than aw overflows, with a warning (once per section).
            if let (j, used) = overflow {
                let rule = vertical ? wRule : hRule
                let (side, axis) = vertical ? ("wide", "aw") : ("tall", "ah")
                warnings.append(.warning(.lineOverflow, "item \(j) of section \(s) is \(NumberFormat.format(used)) \(side) but the lines are \(NumberFormat.format(lines.length)): it overflows its line",
                                         at: rule.span,
                                         help: "make the items at most '\(axis)' (here \(NumberFormat.format(lines.length))) \(side), for example with min(..., \(axis))"))
            }
        }
        // The items' extent must be finite (Engines/SectionExtent.swift).
        try stack.checkExtent(sec, itemsStart: top, bottom: bottom)
        return (bottom, firstSize)
    }

    /// Steps 3-8 for the items of a section, in one walk: each item is sized by the `size` rule,
    /// then joins the current line or closes it; a closed line is placed at once, while its
    /// cells are still in cache. Sets `bottom`; returns the first line-opening item longer than
    /// the lines and its length, for the caller's warning (given only when the whole section is
    /// sized, so that an error in a later item comes alone).
    static func walk<Axis: LineAxis>(_: Axis.Type, _ sec: ResolvedSection, _ wRule: ItemRule, _ hRule: ItemRule, _ lines: Lines, top: Double,
                     machine m: inout Machine, into out: inout Output, bottom: inout Double, firstSize: inout (Double, Double)?,
                     leaves: inout RectIndex.LeafBuilder) throws(Diagnostic) -> (Int, Double)? {
        let n = sec.items
        let first = out.count
        let el = out.elements
        // 3. Sizes from the `size` rule (variables i, n, s, cw, ch, aw, ah).
        m.available = VarSets.flowSize | VarSets.layout
        let sizing = Sizing(wRule, hRule, section: sec.index, seed: m.seed)
        // "Every item of the section has the same size (both sides equal within 1e-6)".
        var sameSize = true
        var w0 = 0.0, h0 = 0.0
        // 4. The current line: items `start ..< i`, `used` along it, `thickness` (lineH) across;
        //    `lineY` where it goes (top for the first line).
        let limit = lines.length + tolerance, gap = lines.gap
        var start = 0
        var used = 0.0, thickness = 0.0
        var lineY = top
        var overflow: (Int, Double)? = nil
        // Sizes are made a batch at a time, then the batch's items join lines: without the
        // line breaks (a branch that mispredicts every few items) in it, the sizing loop lets
        // the processor overlap the arithmetic of several items. The batch's cells (12 KB) stay
        // in the first-level cache between the two loops.
        let batch = 256
        var from = 0
        while from < n {
            let to = Swift.min(n, from + batch)
            try sizing.size(el, first: first, from..<to, machine: &m)
            var i = from
            if from == 0 {
                (w0, h0) = (el[first].frame.width, el[first].frame.height)
                // Item 0 opens the first line.
                used = Axis.along(w0, h0)
                thickness = Axis.across(w0, h0)
                if used > limit { overflow = (0, used) }
                i = 1
            }
            // Tested apart, so that the line loop below carries nothing but the line; once two
            // sizes differ, never again.
            if sameSize { sameSize = Flow.sameSize(el, first + i ..< first + to, w0, h0) }
            while true {
                // 4. Item i joins the current line (items start ..< i) when used + cs + w <= aw + 1e-6.
                while i < to {
                    let f = el[first + i].frame
                    let along = Axis.along(f.width, f.height), next = used + gap + along
                    if !(next <= limit) { break }
                    used = next
                    // 5. lineH = the tallest item of the line.
                    let across = Axis.across(f.width, f.height)
                    if across > thickness { thickness = across }
                    i += 1
                }
                if i == to { break }
                // Item i does not fit: the line closes and is placed; item i opens the next one.
                place(Axis.self, el, first + start, first + i, lines, y: lineY, used: used, thickness: thickness,
                      justify: lines.justify == .uikit ? (i - start >= 2 ? .spread : .center) : lines.justify,
                      grid: nil)
                // 6. y of the next line: this line's y + its lineH + rs.
                lineY = lineY + thickness + lines.lineGap
                // The first item of a line always joins it; longer than the line, it overflows.
                let f = el[first + i].frame
                start = i
                used = Axis.along(f.width, f.height)
                thickness = Axis.across(f.width, f.height)
                if used > limit, overflow == nil { overflow = (i, used) }
                i += 1
            }
            // The batch's closed lines are placed: their complete blocks go to the index.
            leaves.catchUp(UnsafeBufferPointer(el), upTo: first + start)
            from = to
        }
        // 7. The last line's `justify` when it is `uikit`: with one item, as the only line,
        //    center; else, when every item has the same size, grid-aligned: k = floor((aw + cs +
        //    1e-6) / (u + cs)); k >= 2: item q at left + q * (u + g) with g = cs + (aw - k*u -
        //    (k-1)*cs) / (k-1); k <= 1: center; else start. A k that is infinite (an item a few
        //    subnormals long, `u + cs` below the tolerance by 300 orders) has no grid to align
        //    to (its g would be NaN): start, the grid's limit as k grows.
        var justify = lines.justify
        var grid: (u: Double, g: Double)? = nil
        if justify == .uikit {
            if start == 0 && n == 1 {
                justify = .center
            } else if sameSize, Axis.along(w0, h0) + gap <= 0 {
                // With a negative spacing u + cs may be <= 0: no grid to align to.
                justify = .start
            } else if sameSize {
                let u = Axis.along(w0, h0)
                let k = ((lines.length + gap + tolerance) / (u + gap)).rounded(.down)
                if !k.isFinite {
                    justify = .start
                } else if k >= 2 {
                    grid = (u, gap + (lines.length - k * u - (k - 1) * gap) / (k - 1))
                } else {
                    justify = .center
                }
            } else {
                justify = .start
            }
        }
        place(Axis.self, el, first + start, first + n, lines, y: lineY, used: used, thickness: thickness, justify: justify, grid: grid)
        firstSize = (w0, h0)
        out.count = first + n
        leaves.catchUp(UnsafeBufferPointer(el), upTo: out.count)
        // 9. bottom = last line's y + its lineH.
        bottom = lineY + thickness
        return overflow
    }

    /// How a section's items are sized (step 3): the `size` rule's two sides, their flat
    /// programs (FlatRule.swift) when they have them, and what those let an engine skip.
    struct Sizing {
        let wRule: ItemRule, hRule: ItemRule
        let wFlat: FlatRule, hFlat: FlatRule
        let hasW: Bool, hasH: Bool
        /// `i` is set only before a compiled rule runs when the flat ones do not read it.
        let lazyI: Bool
        /// False when flat rules give only valid sizes: no check per item.
        let checkSizes: Bool
        /// Both sides as constants or `c + random(lo, hi)` that give only valid sizes (`Sizing.simple`):
        /// the case `sizeSimple` takes.
        let simple: (FlatRule.Simple, FlatRule.Simple)?
        let section: Int
        /// `random`'s hash of the section's item 0 (Machine.itemHash).
        let sectionHash: UInt64

        init(_ wRule: ItemRule, _ hRule: ItemRule, section: Int, seed: UInt64) {
            self.wRule = wRule
            self.hRule = hRule
            wFlat = wRule.flat ?? FlatRule()
            hFlat = hRule.flat ?? FlatRule()
            hasW = wRule.flat != nil
            hasH = hRule.flat != nil
            lazyI = hasW && hasH && (wFlat.reads | hFlat.reads) & EngineVar.i.bit == 0
            checkSizes = !(hasW && hasH && wFlat.alwaysValidSize && hFlat.alwaysValidSize)
            if let ws = Sizing.simple(wRule), let hs = Sizing.simple(hRule) { simple = (ws, hs) } else { simple = nil }
            self.section = section
            sectionHash = Machine.itemHash(seed: seed, section: section, item: 0)
        }

        /// A constant or `c + random(lo, hi)` rule that always gives a valid size, as a `Simple`.
        static func simple(_ rule: ItemRule) -> FlatRule.Simple? {
            switch rule.kind {
            case .constant(let c): return c >= 0 && c.isFinite ? .constant(c) : nil
            case .number: return rule.flat.flatMap { $0.alwaysValidSize ? $0.simple : nil }
            case .cycle, .value, .recorded, .replayed, .selfSizing: return nil
            }
        }

        /// Sizes the cells `items` of the section, written to `el` from `first` with x = y = 0.
        @inline(__always)
        func size(_ el: UnsafeMutableBufferPointer<Element>, first: Int, _ items: Range<Int>, machine m: inout Machine) throws(Diagnostic) {
            if let (ws, hs) = simple {
                sizeSimple(el, first: first, items, ws, hs)
            } else {
                try sizeByRules(el, first: first, items, machine: &m)
            }
        }

        /// `size` when both sides are `FlatRule.Simple` rules that always give valid sizes (`size
        /// 40 + random(0, 120) x 30 + random(0, 40)`, the seed's kind of rule): a loop small
        /// enough to keep the rules' constants in registers.
        @inline(never)
        func sizeSimple(_ el: UnsafeMutableBufferPointer<Element>, first: Int, _ items: Range<Int>,
                        _ w: FlatRule.Simple, _ h: FlatRule.Simple) {
            if w.draws && h.draws {
                // The seed's kind of rule: draws 0 and 1 of each item, with no test of which
                // side draws, and a loop of its own when both remainders take the short form.
                if w.range.short && h.range.short {
                    sizeDrawn(el, first: first, items, w, h, short: true)
                } else {
                    sizeDrawn(el, first: first, items, w, h, short: nil)
                }
                return
            }
            for i in items {
                let hash = Machine.itemHash(sectionHash, item: i)
                var k: UInt64 = 0
                let width = w.value(hash: hash, k: &k)
                let height = h.value(hash: hash, k: &k)
                el[first + i] = Element(cell: i, section: section, frame: Frame(x: 0, y: 0, width: width, height: height))
            }
        }

        /// `sizeSimple` when both sides draw.
        @inline(__always)
        func sizeDrawn(_ el: UnsafeMutableBufferPointer<Element>, first: Int, _ items: Range<Int>,
                       _ w: FlatRule.Simple, _ h: FlatRule.Simple, short: Bool?) {
            for i in items {
                let hash = Machine.itemHash(sectionHash, item: i)
                let width = w.drawn(hash: hash, k: 0, short: short), height = h.drawn(hash: hash, k: 1, short: short)
                el[first &+ i] = Element(cell: i, section: section, frame: Frame(x: 0, y: 0, width: width, height: height))
            }
        }

        /// `size` in general: flat programs where they can, the compiled rules where they give
        /// up. The item's `random` state stays in locals (hash, k) while flat rules run; the
        /// machine gets it, and a fresh `let` cache, only before a compiled rule (once per item:
        /// a second `fresh()` would drop the item's cached `let`s).
        @inline(never)
        func sizeByRules(_ el: UnsafeMutableBufferPointer<Element>, first: Int, _ items: Range<Int>, machine m: inout Machine) throws(Diagnostic) {
            let s = section
            for i in items {
                if !lazyI { m.vars[EngineVar.i.rawValue] = Double(i) }
                let hash = Machine.itemHash(sectionHash, item: i)
                var k: UInt64 = 0
                var fresh = false
                var w = 0.0, h = 0.0
                var k0 = k
                if hasW, wFlat.run(&m, hash: hash, k: &k, &w) {} else {
                    m.fresh()
                    fresh = true
                    (m.itemHash, m.randomCount) = (hash, k0)
                    if lazyI { m.vars[EngineVar.i.rawValue] = Double(i) }
                    w = try Waterfall.ruleValue(wRule, &m, i, s)
                    k = m.randomCount
                }
                k0 = k
                if hasH, hFlat.run(&m, hash: hash, k: &k, &h) {} else {
                    if !fresh { m.fresh() }
                    (m.itemHash, m.randomCount) = (hash, k0)
                    if lazyI { m.vars[EngineVar.i.rawValue] = Double(i) }
                    h = try Waterfall.ruleValue(hRule, &m, i, s)
                }
                // Finite and at least 0: NaN fails both tests, and x * 0 is 0 only when x is
                // finite. (Written `w >= 0 && w < .infinity`, the pair becomes a classification
                // done with integer bit tests: some 25 instructions a number rather than 4.)
                if checkSizes, !(w >= 0 && h >= 0 && w * 0 == 0 && h * 0 == 0) {
                    let (v, rule) = !(w >= 0 && w.isFinite) ? (w, wRule) : (h, hRule)
                    throw Diagnostic.error(.badSize, "\(rule.what) of item \(i) of section \(s) is \(NumberFormat.format(v)): a size must be a finite number, at least 0",
                                           at: rule.span)
                }
                el[first + i] = Element(cell: i, section: s, frame: Frame(x: 0, y: 0, width: w, height: h))
            }
        }
    }

    /// Steps 7-8 for one line, the sized cells `start ..< end` of `el`: x along it by `justify`
    /// (`uikit` already resolved; `grid` for the grid-aligned last line), y across it by `align`.
    @inline(__always)
    static func place<Axis: LineAxis>(_: Axis.Type, _ el: UnsafeMutableBufferPointer<Element>, _ start: Int, _ end: Int, _ lines: Lines, y lineY: Double,
                      used: Double, thickness: Double, justify: Justify, grid: (u: Double, g: Double)?) {
        let left = lines.left, length = lines.length
        // 7. "Packed from p": the first item at p, then x += w + gap.
        var x = left, step = lines.gap
        switch justify {
        case .start, .uikit: break
        case .end: x = left + length - used
        case .center: x = left + (length - used) / 2
        case .spread:
            // m >= 2: packed from left with gap cs + (aw - used) / (m - 1); one item: from left.
            if end - start >= 2 { step = lines.gap + (length - used) / Double(end - start - 1) }
        }
        // A switch per line, not per item: each `align` has a loop of its own.
        switch lines.align {
        case .center: placeItems(Axis.self, el, start, end, left: left, x: x, step: step, grid: grid) { lineY + (thickness - $0) / 2 }
        case .start: placeItems(Axis.self, el, start, end, left: left, x: x, step: step, grid: grid) { _ in lineY }
        case .end: placeItems(Axis.self, el, start, end, left: left, x: x, step: step, grid: grid) { lineY + thickness - $0 }
        case .stretch:
            for q in start..<end {
                let f = el[q].frame
                (el[q].frame.width, el[q].frame.height) = Axis.xy(along: Axis.along(f.width, f.height), across: thickness)
            }
            placeItems(Axis.self, el, start, end, left: left, x: x, step: step, grid: grid) { _ in lineY }
        }
    }

    /// Step 7 and 8 for the cells `start ..< end`: along the line packed from `x` with `step`
    /// (or on `grid`), across it at `across(thickness of the item)`. For `align stretch` the
    /// cells already have the line's thickness and their own length along it.
    @inline(__always)
    static func placeItems<Axis: LineAxis>(_: Axis.Type, _ el: UnsafeMutableBufferPointer<Element>, _ start: Int, _ end: Int, left: Double,
                                           x: Double, step: Double, grid: (u: Double, g: Double)?, across: (Double) -> Double) {
        var x = x
        if let (u, g) = grid {
            for q in start..<end {
                let f = el[q].frame
                (el[q].frame.x, el[q].frame.y) = Axis.xy(along: left + Double(q - start) * (u + g), across: across(Axis.across(f.width, f.height)))
            }
            return
        }
        for q in start..<end {
            let f = el[q].frame
            let along = Axis.along(f.width, f.height)
            (el[q].frame.x, el[q].frame.y) = Axis.xy(along: x, across: across(Axis.across(f.width, f.height)))
            x += along + step
        }
    }

    /// True when every cell of `cells` is `w0` x `h0` within the tolerance (docs/layout.md,
    /// "Flow": the same size as item 0).
    static func sameSize(_ el: UnsafeMutableBufferPointer<Element>, _ cells: Range<Int>, _ w0: Double, _ h0: Double) -> Bool {
        for q in cells {
            let f = el[q].frame
            if abs(f.width - w0) > tolerance || abs(f.height - h0) > tolerance { return false }
        }
        return true
    }
}

/// The two directions of a flow layout as types, so that the walk is compiled once for each with
/// no test of the direction per item. `along` is the line axis (x when vertical), `across` the
/// stack axis (the scroll axis).
protocol LineAxis {
    /// The length along the line of an item of width `w` and height `h`.
    static func along(_ w: Double, _ h: Double) -> Double
    /// Its thickness across the line.
    static func across(_ w: Double, _ h: Double) -> Double
    /// x and y of a position along and across the line.
    static func xy(along: Double, across: Double) -> (Double, Double)
}

/// Vertical flow: lines are rows.
enum VerticalLines: LineAxis {
    @inline(__always) static func along(_ w: Double, _ h: Double) -> Double { w }
    @inline(__always) static func across(_ w: Double, _ h: Double) -> Double { h }
    @inline(__always) static func xy(along: Double, across: Double) -> (Double, Double) { (along, across) }
}

/// Horizontal flow: lines are columns.
enum HorizontalLines: LineAxis {
    @inline(__always) static func along(_ w: Double, _ h: Double) -> Double { h }
    @inline(__always) static func across(_ w: Double, _ h: Double) -> Double { w }
    @inline(__always) static func xy(along: Double, across: Double) -> (Double, Double) { (across, along) }
}

/// The flow engine's configuration of a section (docs/layout.md, "Flow"): how a line's items
/// share its length and where each sits across it.
package struct FlowEngine: Engine {
    package var justify: Justify
    package var align: Align

    package static let style = LayoutStyle.flow

    package static func configure(_ settings: inout some SectionSettings) -> FlowEngine {
        FlowEngine(justify: settings.word(.justify, Justify.uikit), align: settings.word(.align, Align.center))
    }

    /// The items written through a buffer long enough for the section, cut to size after.
    package func place(_ sec: ResolvedSection, from start: Double, _ stack: SectionStack,
                       into w: inout ElementWriter) throws(Diagnostic) -> Double {
        let base = w.table.elements.count
        w.table.elements.append(contentsOf: repeatElement(Element(cell: 0, section: 0, frame: Frame(x: 0, y: 0, width: 0, height: 0)),
                                                          count: sec.items))
        var count = base
        var warnings = w.warnings
        w.warnings = []
        var m = w.machine
        // Taken out of the writer, not copied: appending to a copy would copy every box.
        var leaves = RectIndex.LeafBuilder(storage: [], active: false)
        swap(&leaves, &w.leaves)
        let r: Result<(Double, (Double, Double)?), Diagnostic> = w.table.elements.withUnsafeMutableBufferPointer { buffer in
            var out = Flow.Output(elements: buffer, count: base)
            defer { count = out.count }
            do throws(Diagnostic) {
                return .success(try Flow.items(sec, self, stack, top: start, machine: &m, into: &out, warnings: &warnings, leaves: &leaves))
            } catch {
                return .failure(error)
            }
        }
        w.machine = m
        w.leaves = leaves
        w.warnings = warnings
        w.table.elements.removeLast(w.table.elements.count - count)
        let (bottom, size) = try r.get()
        if sec.index == 0 { (w.itemsStart, w.firstSize) = (start, size) }
        return bottom
    }

    package static var hasWholePath: Bool { true }

    package static func layoutWhole(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                                    spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure>? {
        Flow.layout(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
    }
}
