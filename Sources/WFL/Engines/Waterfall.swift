/// The waterfall engine (docs/layout.md, "Header and footer", "Waterfall"): a pure function of a
/// resolved layout. Every formula is computed in doubles in the order docs/layout.md writes it, so
/// the digits match any other correct implementation.
///
/// Vertical is written out in docs/layout.md; horizontal is the same along the other axis. The
/// code works on a "main" axis (the scroll axis: y when vertical) and a "cross" axis (the lanes).
/// `place` holds the steps for each item; how step 5 picks a lane and where step 8 takes a length
/// from are in WaterfallModes.swift, and the common case's short path in WaterfallShortPath.swift.

package enum Waterfall {
    /// The first item of a section whose span was more than the lanes (said once per section).
    struct CappedSpan {
        var item: Int
        var span: Double
    }

    /// Lays out every section of `layout`.
    package static func layout(_ layout: ResolvedLayout) -> Result<AttributeTable, LayoutFailure> {
        var warnings: [Diagnostic] = []
        return Waterfall.layout(layout, warnings: &warnings, spareElements: [], spareLevels: [])
    }

    /// Lays out every section of `layout`, adding its warnings (a span capped at the lane count)
    /// to `warnings`.
    package static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        Waterfall.layout(layout, warnings: &warnings, spareElements: [], spareLevels: [])
    }

    /// The same, building the table in the storage of an older table's elements and index levels
    /// (`AttributeTable.relayout`).
    static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                       spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure> {
        let stack = SectionStack(layout)
        // Leaf boxes of the index made as the cells are written, in the old level 0's storage.
        var spareLevels = consume spareLevels
        var w = ElementWriter(table: SectionStack.table(for: layout), machine: stack.machine(for: layout),
                              leaves: RectIndex.LeafBuilder(storage: spareLevels.isEmpty ? [] : spareLevels.removeFirst()))
        defer { warnings += w.warnings }
        w.table.elements = consume spareElements
        w.table.elements.removeAll(keepingCapacity: true)
        w.table.elements.reserveCapacity(layout.sections.reduce(0) { $0 + $1.items + ($1.header > 0 ? 1 : 0) + ($1.footer > 0 ? 1 : 0) })
        w.table.sectionStarts.reserveCapacity(layout.sections.count)
        // Sections stack along the scroll axis with nothing between them; `top` starts at 0.
        var top = layout.start
        for section in layout.sections {
            do {
                // Every section is a waterfall's here (`layoutWhole`): a cast per section, not per
                // item; any other is laid out by its own engine.
                if let engine = section.engine as? WaterfallEngine {
                    top = try stack.lay(section, engine, top: top, into: &w)
                } else {
                    top = try stack.lay(section, section.engine, top: top, into: &w)
                }
            } catch {
                return .failure(LayoutFailure([error]))
            }
        }
        // The leaves taken out of the writer, so that the index owns them alone (no copy when it
        // adds to them).
        var boxes: [RectIndex.Box] = []
        swap(&boxes, &w.leaves.boxes)
        w.table.index = RectIndex(w.table.elements, sequence: sequence(w.laneGroups, count: w.table.elements.count), reusing: consume spareLevels,
                                  leaves: boxes)
        stack.setContentSize(&w.table, top: top)
        return .success(w.table)
    }

    /// Steps 1-10 for the items of one section, from `top` (x when horizontal), the section's
    /// header and insets already written; returns where its items end (`bottom`).
    static func items(_ sec: ResolvedSection, _ e: WaterfallEngine, _ stack: SectionStack, top: Double,
                      into w: inout ElementWriter, recordingLanes: Bool = false) throws(Diagnostic) -> Double {
        let firstCell = w.table.elements.count
        // Steps 1-2 (docs/layout.md, "Waterfall").
        let g = Geometry(sec, e, stack)
        // bottom: the largest maxY of the section's items, or top when it has none.
        var bottom = top
        g.enter(sec, stack, machine: &w.machine)
        defer { w.machine.inItem = false }
        let roundRobin = recordingLanes || (e.order != .shortest && g.C > 1 && sec.items > 1)
        var firstLanes: [UInt16] = []
        if roundRobin { firstLanes.reserveCapacity(sec.items) }

        // 3. next[c] = top for every lane c.
        let next = UnsafeMutablePointer<Double>.allocate(capacity: g.C)
        defer { next.deallocate() }
        next.initialize(repeating: top, count: g.C)
        // 4.-10. for each item. Work on the table's array as a local (one owner: no copy, no
        // uniqueness checks per item).
        var elements = w.table.elements
        w.table.elements = []
        var capped: CappedSpan? = nil
        do {
            try place(sec, g, 0..<sec.items, next: next, bottom: &bottom, machine: &w.machine, into: &elements,
                      recordLanes: roundRobin, firstLanes: &firstLanes, leaves: &w.leaves, capped: &capped)
        } catch {
            w.table.elements = elements
            throw error
        }
        w.table.elements = elements
        if let capped, let rule = sec.span {
            w.warnings.append(.warning(.spanCapped, "\(rule.what) of item \(capped.item) of section \(sec.index) is \(NumberFormat.format(capped.span)), more than the \(g.C) lane\(g.C == 1 ? "" : "s"): it is capped at \(g.C)",
                                       at: rule.span, help: "write 'span full' for an item across every lane"))
        }
        if roundRobin { w.laneGroups.append(LaneGroup(firstCell: firstCell, lanes: g.C, firstLanes: firstLanes)) }
        return bottom
    }

    /// The first lane of each cell of section `sec` of `layout`, laid out again from `begin` (where
    /// it began) with its lanes recorded: for `col` in the section's `attach` blocks when the
    /// cells' positions cannot tell the lanes apart (Decorations.swift, `FirstLanes`). The same
    /// steps from the same start give the same lanes.
    static func firstLanes(_ sec: ResolvedSection, _ layout: ResolvedLayout, begin: Double) throws(Diagnostic) -> [UInt16] {
        guard let e = sec.engine as? WaterfallEngine else { return [] }
        let stack = SectionStack(layout)
        var w = ElementWriter(table: SectionStack.table(for: layout), machine: stack.machine(for: layout),
                              leaves: RectIndex.LeafBuilder(storage: [], active: false))
        let start = stack.opening(sec, at: begin).itemsStart
        _ = try items(sec, e, stack, top: start, into: &w, recordingLanes: true)
        return w.laneGroups.first?.firstLanes ?? []
    }

    /// What steps 1-2 of docs/layout.md's waterfall fix for a section before its items: the same
    /// for a full layout and for the append path (WaterfallAppend.swift).
    struct Geometry {
        var vertical: Bool
        /// C: lanes.
        var C: Int
        var laneW: Double
        /// cs between lanes (rs when horizontal), and rs along a lane (cs when horizontal).
        var laneGap: Double, itemGap: Double
        /// ins.left (ins.top when horizontal): where lane 0 starts.
        var crossStart: Double
        /// `order` and `scale`.
        var order: LaneOrder
        var scale: Double
        /// laneW + cs: from one lane to the next.
        var pitch: Double { laneW + laneGap }

        init(_ sec: ResolvedSection, _ e: WaterfallEngine, _ stack: SectionStack) {
            vertical = stack.vertical
            order = e.order
            scale = e.scale
            let ins = sec.insets
            // Along the lanes: rs between lanes and cs along a lane when horizontal, the other way
            // round when vertical; the names stay physical.
            laneGap = vertical ? sec.columnSpacing : sec.rowSpacing
            itemGap = vertical ? sec.rowSpacing : sec.columnSpacing
            crossStart = vertical ? ins.left : ins.top
            let (aw, ah) = stack.available(sec)
            // 1. C = columns (rows when horizontal), 1 <= C <= 1000: resolved already.
            C = e.lanes
            // 2. laneW = (aw - (C - 1) * cs) / C, floored to 1/scale when scale > 0.
            laneW = ((vertical ? aw : ah) - Double(C - 1) * laneGap) / Double(C)
            if e.scale > 0 { laneW = (laneW * e.scale).rounded(.down) / e.scale }
        }

        /// Readies the machine for the section's item rules: s, aw, ah, n and full, in an item rule.
        func enter(_ sec: ResolvedSection, _ stack: SectionStack, machine m: inout Machine) {
            stack.enter(sec, machine: &m)
            m.set(.full, Double(C))
            m.inItem = true
        }
    }

    /// Steps 4-10 of docs/layout.md's waterfall for the items `range` of a section: appends their
    /// cells to `elements`, with `next` (C lanes) and `bottom` carried from the items before, and
    /// each cell's first lane to `firstLanes` when `recordLanes`. The machine must hold the
    /// section's variables (`Geometry.enter`).
    static func place(_ sec: ResolvedSection, _ g: Geometry, _ range: Range<Int>, next: UnsafeMutablePointer<Double>,
                      bottom: inout Double, machine m: inout Machine, into elements: inout [Element],
                      recordLanes: Bool, firstLanes: inout [UInt16], leaves: inout RectIndex.LeafBuilder,
                      capped: inout CappedSpan?) throws(Diagnostic) {
        let s = sec.index
        let vertical = g.vertical, C = g.C, laneW = g.laneW, laneGap = g.laneGap, itemGap = g.itemGap
        let spanRule = sec.span
        // Step 8's rules, taken apart once rather than per item.
        var lengths = ItemLengths(sec, scale: g.scale, vertical: vertical, from: range.lowerBound)

        // The common case on a short path (WaterfallShortPath.swift): the same steps 5-10 with
        // k = 1. At the first item it cannot take it stops, and the loop below carries on from that
        // item, state and all.
        var start = range.lowerBound
        if g.order == .shortest, spanRule == nil, lengths.shortPathTakes, !recordLanes {
            ShortPath(s: s, g, end: range.upperBound)
                .run(&lengths, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
        }

        // The short path took every item (the common case): nothing more to set up.
        guard start < range.upperBound else { return }
        let needsMachine = spanRule != nil || !lengths.plain
        // Step 5's working space for runs of k > 1 lanes under `order shortest`.
        let runScratch = UnsafeMutablePointer<Double>.allocate(capacity: spanRule != nil && g.order == .shortest ? C : 0)
        defer { runScratch.deallocate() }
        for i in start..<range.upperBound {
            if needsMachine { m.beginItem(i, section: s, settingI: !lengths.lazyVars) }
            // 4. k = span(i): 1 by default, capped at C.
            var k = 1
            if let spanRule {
                m.available = VarSets.span | VarSets.layout
                let v = try ruleValue(spanRule, &m, i, s)
                guard isWhole(v), v >= 1 else {
                    throw Diagnostic.error(.badSpan, "\(spanRule.what) of item \(i) of section \(s) is \(NumberFormat.format(v)): a span is a whole number of lanes, at least 1",
                                           at: spanRule.span)
                }
                if v > Double(C), capped == nil { capped = CappedSpan(item: i, span: v) }
                k = v >= Double(C) ? C : Int(v)
            }
            // 5. Choose the first lane c of a run of k neighbouring lanes (by `order`).
            let c = g.order.firstLane(item: i, span: k, next: next, lanes: C, scratch: runScratch)
            // 6. y = max(next[c ..< c+k]).
            var y = next[c]
            if k > 1 { for lane in (c + 1)..<(c + k) where next[lane] > y { y = next[lane] } }
            // 7. w = k * laneW + (k - 1) * cs.
            let w = k == 1 ? laneW : Double(k) * laneW + Double(k - 1) * laneGap
            // 8. h = the height rule with w, or H * w / W for `size W x H` (floored to 1/scale): a
            //    finite number >= 0.
            let h = try lengths.length(i, lane: c, width: w, section: s, machine: &m)
            // 9. frame = (laneX(c), y, w, h) with laneX(c) = ins.left + c * (laneW + cs).
            let cross = g.crossStart + Double(c) * (laneW + laneGap)
            let frame = vertical ? Frame(x: cross, y: y, width: w, height: h) : Frame(x: y, y: cross, width: h, height: w)
            elements.append(Element(cell: i, section: s, frame: frame))
            if recordLanes { firstLanes.append(UInt16(c)) }
            // 10. next[c ..< c+k] = y + h + rs.
            let after = y + h + itemGap
            if k == 1 {
                next[c] = after
            } else {
                for lane in c..<(c + k) { next[lane] = after }
            }
            let maxAlong = y + h
            if maxAlong > bottom { bottom = maxAlong }
        }
    }

    /// The cells of a round-robin section and the first lane of each.
    struct LaneGroup {
        var firstCell: Int
        var lanes: Int
        var firstLanes: [UInt16]
    }

    /// The index's sequence (RectIndex.swift): table order, except that the cells of each
    /// round-robin section are grouped by first lane, in index order within a lane. nil when that
    /// is table order.
    static func sequence(_ groups: [LaneGroup], count: Int) -> [Int32]? {
        guard !groups.isEmpty else { return nil }
        var seq = (0..<count).map { Int32($0) }
        for g in groups {
            // A counting sort by lane, stable.
            var starts = [Int](repeating: 0, count: g.lanes + 1)
            for c in g.firstLanes { starts[Int(c) + 1] += 1 }
            for c in 0..<g.lanes { starts[c + 1] += starts[c] }
            for (i, c) in g.firstLanes.enumerated() {
                seq[g.firstCell + starts[Int(c)]] = Int32(g.firstCell + i)
                starts[Int(c)] += 1
            }
        }
        return seq
    }

    /// Evaluates a rule, turning its error into the diagnostic that names the item.
    @inline(__always)
    static func ruleValue(_ rule: ItemRule, _ m: inout Machine, _ i: Int, _ s: Int) throws(Diagnostic) -> Double {
        do {
            return try rule.evaluate(&m, item: i)
        } catch {
            throw error.at("in \(rule.what) of item \(i) of section \(s)").diagnostic
        }
    }
}

/// The waterfall engine's configuration of a section (docs/layout.md, "Waterfall"): its lanes,
/// how an item picks one, and the screen scale lanes are floored to.
package struct WaterfallEngine: Engine {
    /// The lane count (columns when vertical, rows when horizontal), adaptive already applied.
    package var lanes: Int
    package var order: LaneOrder
    package var scale: Double

    package static let style = LayoutStyle.waterfall

    package static func configure(_ settings: inout some SectionSettings) -> WaterfallEngine {
        let scale = settings.number(.scale, default: 0)
        let order = settings.word(.order, LaneOrder.shortest)
        // `columns` counts the lanes of a vertical waterfall, `rows` those of a horizontal one.
        let lanes = settings.lanes(across: settings.direction == .vertical, default: 2, checkRoom: true, scale: scale)
        return WaterfallEngine(lanes: lanes, order: order, scale: scale)
    }

    package func place(_ sec: ResolvedSection, from start: Double, _ stack: SectionStack,
                       into writer: inout ElementWriter) throws(Diagnostic) -> Double {
        try Waterfall.items(sec, self, stack, top: start, into: &writer)
    }

    package static var hasWholePath: Bool { true }

    package static func layoutWhole(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                                    spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure>? {
        Waterfall.layout(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
    }
}
