/// The waterfall engine of LAYOUT.md ("Header and footer", "Waterfall"): a pure function of a
/// resolved layout. Every formula is computed in doubles in the order LAYOUT.md writes it, so the
/// digits match any other correct implementation.
///
/// Vertical is written out in LAYOUT.md; horizontal is the same along the other axis. The code
/// works on a "main" axis (the scroll axis: y when vertical) and a "cross" axis (the lanes).

public enum Waterfall {
    /// Lays out every section of `layout`.
    public static func layout(_ layout: ResolvedLayout) -> Result<AttributeTable, LayoutFailure> {
        Waterfall.layout(layout, spareElements: [], spareLevels: [])
    }

    /// The same, building the table in the storage of an older table's elements and index levels
    /// (`AttributeTable.relayout`).
    static func layout(_ layout: ResolvedLayout, spareElements: consuming [Element], spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure> {
        var table = AttributeTable(name: layout.name, style: layout.style, direction: layout.direction,
                                   containerWidth: layout.containerWidth, containerHeight: layout.containerHeight)
        table.elements = consume spareElements
        table.elements.removeAll(keepingCapacity: true)
        table.elements.reserveCapacity(layout.sections.reduce(0) { $0 + $1.items + 2 })
        let vertical = layout.direction == .vertical
        let cw = layout.containerWidth, ch = layout.containerHeight
        var m = Machine(seed: layout.seed, letCount: layout.letCount)
        m.set(.cw, cw)
        m.set(.ch, ch)
        // Sections stack along the scroll axis with nothing between them; `top` starts at 0.
        var top = 0.0
        // Round-robin sections: each cell's first lane, for the index's sequence.
        var laneGroups: [LaneGroup] = []
        // Leaf boxes of the index made as the cells are written, in the old level 0's storage.
        var spareLevels = consume spareLevels
        var leaves = RectIndex.LeafBuilder(storage: spareLevels.isEmpty ? [] : spareLevels.removeFirst())
        for section in layout.sections {
            do {
                top = try lay(section, vertical: vertical, cw: cw, ch: ch, top: top, machine: &m, into: &table,
                              laneGroups: &laneGroups, leaves: &leaves)
            } catch {
                return .failure(LayoutFailure([error]))
            }
        }
        table.index = RectIndex(table.elements, sequence: sequence(laneGroups, count: table.elements.count), reusing: consume spareLevels,
                                leaves: leaves.boxes)
        // Content size: (cw, top) for vertical, (top, ch) for horizontal.
        if vertical {
            table.contentWidth = cw
            table.contentHeight = top
        } else {
            table.contentWidth = top
            table.contentHeight = ch
        }
        return .success(table)
    }

    /// One section, from `top` (x when horizontal); returns where the next section starts.
    static func lay(_ sec: ResolvedSection, vertical: Bool, cw: Double, ch: Double, top topIn: Double,
                    machine m: inout Machine, into table: inout AttributeTable,
                    laneGroups: inout [LaneGroup], leaves: inout RectIndex.LeafBuilder) throws(Diagnostic) -> Double {
        var top = topIn
        let s = sec.index
        let ins = sec.insets
        var index = AttributeTable.SectionIndex(header: nil, firstCell: 0, cellCount: sec.items, footer: nil, end: 0,
                                                   pinHeaders: sec.pinHeaders)

        // Header (LAYOUT.md, "Header and footer"): insets before, the frame, insets after.
        if sec.header > 0 {
            index.header = table.elements.count
            table.elements.append(supplementary(.header, s, sec.header, sec.headerInsets, vertical: vertical, cw: cw, ch: ch, top: &top))
        }
        // top += ins.top (ins.left when horizontal).
        top += vertical ? ins.top : ins.left

        // Waterfall (LAYOUT.md, "Waterfall").
        // aw = cw - ins.left - ins.right; ah = ch - ins.top - ins.bottom.
        let aw = cw - ins.left - ins.right
        let ah = ch - ins.top - ins.bottom
        // Along the lanes: rs between lanes and cs along a lane when horizontal, the other way round
        // when vertical; the names stay physical.
        let laneGap = vertical ? sec.columnSpacing : sec.rowSpacing
        let itemGap = vertical ? sec.rowSpacing : sec.columnSpacing
        let crossStart = vertical ? ins.left : ins.top
        let available = vertical ? aw : ah
        // 1. C = columns (rows when horizontal), 1 <= C <= 1000: resolved already.
        let C = sec.lanes
        // 2. laneW = (aw - (C - 1) * cs) / C, floored to 1/scale when scale > 0.
        var laneW = (available - Double(C - 1) * laneGap) / Double(C)
        if sec.scale > 0 { laneW = (laneW * sec.scale).rounded(.down) / sec.scale }
        // 3. next[c] = top for every lane c (below, with the items).
        // bottom: the largest maxY of the section's items, or top when it has none.
        var bottom = top

        m.set(.s, Double(s))
        m.set(.aw, aw)
        m.set(.ah, ah)
        m.set(.n, Double(sec.items))
        m.set(.full, Double(C))
        m.inItem = true
        defer { m.inItem = false }
        index.firstCell = table.elements.count
        let roundRobin = sec.order != .shortest && C > 1 && sec.items > 1
        var firstLanes: [UInt16] = []
        if roundRobin { firstLanes.reserveCapacity(sec.items) }

        // 4.-10. for each item (below, in `place`).
        let geometry = Geometry(vertical: vertical, C: C, laneW: laneW, laneGap: laneGap, itemGap: itemGap,
                                crossStart: crossStart)
        let next = UnsafeMutablePointer<Double>.allocate(capacity: C)
        defer { next.deallocate() }
        next.initialize(repeating: top, count: C)
        // Work on the table's array as a local (one owner: no copy, no uniqueness checks per item).
        var elements = table.elements
        table.elements = []
        do {
            try place(sec, geometry, 0..<sec.items, next: next, bottom: &bottom, machine: &m, into: &elements,
                      recordLanes: roundRobin, firstLanes: &firstLanes, leaves: &leaves)
        } catch {
            table.elements = elements
            throw error
        }
        table.elements = elements
        if roundRobin { laneGroups.append(LaneGroup(firstCell: index.firstCell, lanes: C, firstLanes: firstLanes)) }
        // top = bottom + ins.bottom: the section's end.
        top = bottom + (vertical ? ins.bottom : ins.right)
        index.end = top
        if sec.footer > 0 {
            index.footer = table.elements.count
            table.elements.append(supplementary(.footer, s, sec.footer, sec.footerInsets, vertical: vertical, cw: cw, ch: ch, top: &top))
        }
        index.stop = top
        table.sectionStarts.append(index)
        return top
    }

    /// What LAYOUT.md's steps 1-3 fix for a section before its items.
    struct Geometry {
        var vertical: Bool
        /// C: lanes.
        var C: Int
        var laneW: Double
        /// cs between lanes (rs when horizontal), and rs along a lane (cs when horizontal).
        var laneGap: Double, itemGap: Double
        /// ins.left (ins.top when horizontal): where lane 0 starts.
        var crossStart: Double
    }

    /// Steps 4-10 of LAYOUT.md's waterfall for the items `range` of a section: appends their cells
    /// to `elements`, with `next` (C lanes) and `bottom` carried from the items before, and each
    /// cell's first lane to `firstLanes` when `recordLanes`. The machine must hold the section's
    /// variables (s, aw, ah, n, full) and be in an item rule.
    static func place(_ sec: ResolvedSection, _ g: Geometry, _ range: Range<Int>, next: UnsafeMutablePointer<Double>,
                      bottom: inout Double, machine m: inout Machine, into elements: inout [Element],
                      recordLanes: Bool, firstLanes: inout [UInt16], leaves: inout RectIndex.LeafBuilder) throws(Diagnostic) {
        let s = sec.index
        let vertical = g.vertical, C = g.C, laneW = g.laneW, laneGap = g.laneGap, itemGap = g.itemGap
        let spanMask = VarSets.span
        let sizeMask = vertical ? VarSets.verticalSize : VarSets.horizontalSize
        let crossVar: EngineVar = vertical ? .w : .h
        let spanRule = sec.span
        // The rules, taken apart once rather than per item.
        var lengthRule: ItemRule? = nil
        var naturalRules: (ItemRule, ItemRule)? = nil
        switch sec.size {
        case .length(let r): lengthRule = r
        case .natural(let a, let b): naturalRules = (a, b)
        }
        // `height [..]` and `height 100` read nothing of the machine: no per-item set-up for them.
        var cycle: [Double] = []
        var constantLength: Double? = nil
        if let r = lengthRule {
            switch r.kind {
            case .cycle(let xs): cycle = xs
            case .constant(let d): constantLength = d
            default: break
            }
        }
        let plainLength = !cycle.isEmpty || constantLength != nil
        // A flat length rule (FlatRule.swift) runs here without copying the rule per item; when
        // it reads none of i, w and col, they are set only before the compiled rule runs.
        let flat = lengthRule?.flat ?? FlatRule()
        let hasFlat = lengthRule?.flat != nil
        let lazyVars = hasFlat && spanRule == nil
            && flat.reads & (EngineVar.i.bit | EngineVar.w.bit | EngineVar.h.bit | EngineVar.col.bit) == 0
        let needsMachine = spanRule != nil || !plainLength
        var cycleAt = cycle.isEmpty ? 0 : range.lowerBound % cycle.count
        let order = sec.order
        let scale = sec.scale

        // The common case on a short path: `order shortest`, no span rule, and a length that is a
        // constant, a list or a flat rule reading none of i, w, col. The same steps 5-10 (k = 1);
        // at the first item it cannot take (the flat rule gives up, or h is not a finite number
        // >= 0) it stops and the general loop below carries on from that item, state and all.
        var start = range.lowerBound
        if order == .shortest, spanRule == nil, lengthRule != nil, plainLength || lazyVars {
            m.available = sizeMask | VarSets.layout
            let short = ShortPath(s: s, C: C, vertical: vertical, laneW: laneW, pitch: laneW + laneGap, crossStart: g.crossStart,
                                  itemGap: itemGap, end: range.upperBound)
            if let d = constantLength {
                var lengths = ConstantLengths(length: d)
                short.run(&lengths, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
            } else if !cycle.isEmpty {
                cycle.withUnsafeBufferPointer { cyc in
                    var lengths = CycleLengths(lengths: cyc, at: cycleAt)
                    short.run(&lengths, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
                    cycleAt = lengths.at
                }
            } else if let simple = flat.simple {
                var lengths = SimpleLengths(rule: simple, sectionHash: Machine.itemHash(seed: m.seed, section: s, item: 0))
                short.run(&lengths, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
            } else {
                var lengths = FlatLengths(rule: flat, section: s)
                short.run(&lengths, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
            }
        }

        for i in start..<range.upperBound {
            if needsMachine { m.beginItem(i, section: s, settingI: !lazyVars) }
            // 4. k = span(i): 1 by default, capped at C.
            var k = 1
            if let spanRule {
                m.available = spanMask | VarSets.layout
                let v = try ruleValue(spanRule, &m, i, s)
                guard isWhole(v), v >= 1 else {
                    throw Diagnostic.error("\(spanRule.what) of item \(i) of section \(s) is \(NumberFormat.format(v)): a span is a whole number of lanes, at least 1",
                                           at: spanRule.span)
                }
                k = v >= Double(C) ? C : Int(v)
            }
            // 5. Choose the first lane c of a run of k neighbouring lanes.
            var c = 0
            switch order {
            case .shortest:
                if k == 1 {
                    c = shortestLane(next, C).lane
                } else {
                    var best = Double.infinity
                    for start in 0...(C - k) {
                        var runMax = next[start]
                        for lane in (start + 1)..<(start + k) where next[lane] > runMax { runMax = next[lane] }
                        if runMax < best {
                            best = runMax
                            c = start
                        }
                    }
                }
            case .leftToRight:
                c = Swift.min(i % C, C - k)
            case .rightToLeft:
                c = Swift.min(C - 1 - (i % C), C - k)
            }
            // 6. y = max(next[c ..< c+k]).
            var y = next[c]
            if k > 1 { for lane in (c + 1)..<(c + k) where next[lane] > y { y = next[lane] } }
            // 7. w = k * laneW + (k - 1) * cs.
            let w = k == 1 ? laneW : Double(k) * laneW + Double(k - 1) * laneGap
            // 8. h = the height rule with w, or H * w / W for `size W x H` (floored to 1/scale).
            let h: Double
            if plainLength {
                if let d = constantLength {
                    h = d
                } else {
                    h = cycle[cycleAt]
                    cycleAt += 1
                    if cycleAt == cycle.count { cycleAt = 0 }
                }
            } else {
                m.available = sizeMask | VarSets.layout
                if !lazyVars {
                    m.vars[crossVar.rawValue] = w
                    m.vars[EngineVar.col.rawValue] = Double(c)
                }
                var value = 0.0
                let draws = m.randomCount
                if hasFlat, flat.run(&m, &value) {
                    h = value
                } else if let rule = lengthRule {
                    m.randomCount = draws
                    if lazyVars {
                        m.vars[EngineVar.i.rawValue] = Double(i)
                        m.vars[crossVar.rawValue] = w
                        m.vars[EngineVar.col.rawValue] = Double(c)
                    }
                    h = try ruleValue(rule, &m, i, s)
                } else {
                    let (wRule, hRule) = naturalRules!
                    let nw = try ruleValue(wRule, &m, i, s)
                    let nh = try ruleValue(hRule, &m, i, s)
                    // Along the scroll axis: vertical h = H * w / W; horizontal w = W * h / H.
                    let (along, across, acrossRule) = vertical ? (nh, nw, wRule) : (nw, nh, hRule)
                    guard across > 0 else {
                        throw Diagnostic.error("\(acrossRule.what) of item \(i) of section \(s) is \(NumberFormat.format(across)): a natural size must be positive to be scaled to the lane",
                                               at: acrossRule.span)
                    }
                    var scaled = along * w / across
                    if scale > 0 { scaled = (scaled * scale).rounded(.down) / scale }
                    h = scaled
                }
            }
            guard h.isFinite, h >= 0 else {
                let rule: ItemRule
                switch sec.size {
                case .length(let r): rule = r
                case .natural(let a, let b): rule = vertical ? b : a
                }
                throw Diagnostic.error("\(rule.what) of item \(i) of section \(s) is \(NumberFormat.format(h)): a size must be a finite number, at least 0",
                                       at: rule.span)
            }
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

    /// The lane whose `next` is smallest, and that `next`; ties (exactly equal doubles): the
    /// smallest lane.
    @inline(__always)
    static func shortestLane(_ next: UnsafeMutablePointer<Double>, _ C: Int) -> (lane: Int, next: Double) {
        var c = 0
        var best = next[0]
        var lane = 1
        while lane < C {
            if next[lane] < best {
                best = next[lane]
                c = lane
            }
            lane += 1
        }
        return (c, best)
    }

    /// The common case of `place` on a short path: `order shortest`, no span rule, and a length
    /// from `Lengths` (a constant, a list, or a flat rule reading none of i, w, col). The same
    /// steps 5-10 (k = 1), compiled once for each kind of length so that each loop keeps its
    /// state in registers. At the first item it cannot take (the flat rule gives up, or h is not
    /// a finite number >= 0) it stops, and `place`'s general loop carries on from that item,
    /// state and all.
    struct ShortPath {
        let s: Int, C: Int
        let vertical: Bool
        let laneW: Double, pitch: Double, crossStart: Double, itemGap: Double
        /// The item after the section's last.
        let end: Int

        @inline(never)
        func run<Lengths: ShortLengths>(_ lengths: inout Lengths, from start: inout Int, next: UnsafeMutablePointer<Double>,
                                        bottom: inout Double, machine m: inout Machine, into elements: inout [Element],
                                        leaves: inout RectIndex.LeafBuilder) {
            while start < end {
                let i = start
                // 5. The lane whose next is smallest; ties: the smallest c.
                let (c, y) = shortestLane(next, C)
                // 8. h.
                guard let h = lengths.length(i, &m), h.isFinite, h >= 0 else { break }
                lengths.advance()
                // 9. frame = (laneX(c), y, w, h); 10. next[c] = y + h + rs.
                let cross = crossStart + Double(c) * pitch
                elements.append(Element(cell: i, section: s, frame: vertical
                    ? Frame(x: cross, y: y, width: laneW, height: h) : Frame(x: y, y: cross, width: h, height: laneW)))
                next[c] = y + h + itemGap
                let maxAlong = y + h
                if maxAlong > bottom { bottom = maxAlong }
                start += 1
                if elements.count & (RectIndex.leaf - 1) == 0 { elements.withUnsafeBufferPointer { leaves.catchUp($0) } }
            }
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

    /// A header or footer: it spans the container, ignoring the section's side insets.
    @inline(__always)
    static func supplementary(_ kind: ElementKind, _ s: Int, _ thickness: Double, _ hi: Insets, vertical: Bool,
                              cw: Double, ch: Double, top: inout Double) -> Element {
        let frame: Frame
        if vertical {
            top += hi.top
            frame = Frame(x: hi.left, y: top, width: cw - hi.left - hi.right, height: thickness)
            top += thickness + hi.bottom
        } else {
            top += hi.left
            frame = Frame(x: top, y: hi.top, width: thickness, height: ch - hi.top - hi.bottom)
            top += thickness + hi.right
        }
        return Element(kind: kind, section: s, item: nil, frame: frame, zIndex: ZIndex.supplementary)
    }

    /// Evaluates a rule, turning its error into the diagnostic that names the item.
    @inline(__always)
    static func ruleValue(_ rule: ItemRule, _ m: inout Machine, _ i: Int, _ s: Int) throws(Diagnostic) -> Double {
        do {
            return try rule.evaluate(&m, item: i)
        } catch {
            throw Diagnostic.error(error.message(in: "in \(rule.what) of item \(i) of section \(s)"), at: error.span,
                                   help: error.help)
        }
    }
}

/// Where `Waterfall.ShortPath` takes each item's length from.
protocol ShortLengths {
    /// Item i's length, or nil where the general loop must take over.
    mutating func length(_ i: Int, _ m: inout Machine) -> Double?
    /// Moves past the item whose length was taken.
    mutating func advance()
}

/// `height 100`.
struct ConstantLengths: ShortLengths {
    let length: Double
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? { length }
    @inline(__always) func advance() {}
}

/// `height [100, 150]`: element `at`, which moves on (cycling) with each item taken.
struct CycleLengths: ShortLengths {
    let lengths: UnsafeBufferPointer<Double>
    var at: Int
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? { lengths[at] }
    @inline(__always) mutating func advance() {
        at += 1
        if at == lengths.count { at = 0 }
    }
}

/// `c + random(lo, hi)` (`FlatRule.Simple`): no machine, `random`'s state in locals.
struct SimpleLengths: ShortLengths {
    let rule: FlatRule.Simple
    /// `random`'s hash of the section's item 0 (Machine.itemHash).
    let sectionHash: UInt64
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? {
        var k: UInt64 = 0
        return rule.value(hash: Machine.itemHash(sectionHash, item: i), k: &k)
    }
    @inline(__always) func advance() {}
}

/// Any other flat rule (FlatRule.swift) reading none of i, w and col.
struct FlatLengths: ShortLengths {
    let rule: FlatRule
    let section: Int
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? {
        m.beginItem(i, section: section, settingI: false)
        var value = 0.0
        return rule.run(&m, &value) ? value : nil
    }
    @inline(__always) func advance() {}
}
