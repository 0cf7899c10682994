/// The flow engine of LAYOUT.md ("Header and footer", "Flow"): UICollectionViewFlowLayout as far
/// as it is publicly known, a pure function of a resolved layout. Every formula is computed in
/// doubles in the order LAYOUT.md writes it.
///
/// Vertical is written out: lines are rows filled left to right within `aw`, `cs` between the
/// items of a line and `rs` between lines. Horizontal: lines are columns filled top to bottom
/// within `ah`, `rs` between the items of a column and `cs` between columns; `justify` works along
/// the column (from `ins.top`) and `align` across it. The code works on a "line" axis (x when
/// vertical) and a "stack" axis (the scroll axis: y when vertical).
public enum Flow {
    /// The tolerance of line breaking and of "the same size" (LAYOUT.md).
    static let tolerance = 1e-6

    /// Lays out every section of `layout`; warnings (overflowing items) go to `warnings`.
    public static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        Flow.layout(layout, warnings: &warnings, spareElements: [], spareLevels: [])
    }

    /// The same, building the table in the storage of an older table's elements and index levels
    /// (`AttributeTable.relayout`).
    static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                       spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure> {
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
        var itemsStart = 0.0
        // Leaf boxes of the index made as each line is placed, in the old level 0's storage.
        var spareLevels = consume spareLevels
        var leaves = RectIndex.LeafBuilder(storage: spareLevels.isEmpty ? [] : spareLevels.removeFirst())
        for section in layout.sections {
            do {
                let start = try lay(section, vertical: vertical, cw: cw, ch: ch, top: top, machine: &m, into: &table,
                                    warnings: &warnings, leaves: &leaves)
                if section.index == 0 { itemsStart = start }
                top = table.sectionStarts[table.sectionStarts.count - 1].stop
            } catch {
                return .failure(LayoutFailure([error]))
            }
        }
        // Content size: (cw, top) for vertical, (top, ch) for horizontal.
        if vertical {
            table.contentWidth = cw
            table.contentHeight = top
        } else {
            table.contentWidth = top
            table.contentHeight = ch
        }
        // snap: stride = w + cs with w the width of item 0 of section 0 (vertical: its height and rs).
        if let s0 = layout.sections.first, s0.items > 0 {
            let f = table.elements[table.sectionStarts[0].firstCell].frame
            table.snapStride = vertical ? f.height + s0.rowSpacing : f.width + s0.columnSpacing
            // zoomFirst: the size of item 0 of section 0, x0 where section 0's items start, and
            // section 0's insets.top.
            if let z = layout.zoomFirst, !vertical {
                table.zoom = Zoom(width: z.width, height: z.height, itemWidth: f.width, itemHeight: f.height,
                                  x0: itemsStart, insetTop: s0.insets.top)
            }
        }
        // Lines are sorted along the scroll axis, so table order is a good sequence for the index.
        table.index = RectIndex(table.elements, sequence: nil, reusing: consume spareLevels, leaves: leaves.boxes)
        return .success(table)
    }

    /// One section, from `top` (x when horizontal). Returns where its items start (after the
    /// header and `ins.top`); the section's stop is in its `SectionIndex`.
    static func lay(_ sec: ResolvedSection, vertical: Bool, cw: Double, ch: Double, top topIn: Double,
                    machine m: inout Machine, into table: inout AttributeTable,
                    warnings: inout [Diagnostic], leaves: inout RectIndex.LeafBuilder) throws(Diagnostic) -> Double {
        var top = topIn
        let s = sec.index
        let ins = sec.insets
        var index = AttributeTable.SectionIndex(header: nil, firstCell: 0, cellCount: sec.items, footer: nil, end: 0,
                                                pinHeaders: sec.pinHeaders)

        // 1. Header (LAYOUT.md, "Header and footer"): insets before, the frame, insets after.
        if sec.header > 0 {
            index.header = table.elements.count
            table.elements.append(Waterfall.supplementary(.header, s, sec.header, sec.headerInsets, vertical: vertical,
                                                          cw: cw, ch: ch, top: &top))
        }
        // 2. top += ins.top (ins.left when horizontal).
        top += vertical ? ins.top : ins.left
        let itemsStart = top

        // aw = cw - ins.left - ins.right; ah = ch - ins.top - ins.bottom.
        let aw = cw - ins.left - ins.right
        let ah = ch - ins.top - ins.bottom
        // Along a line: its length (aw or ah), where it starts (ins.left or ins.top) and the gap
        // between its items (cs or rs); between lines: rs (vertical) or cs (horizontal).
        let length = vertical ? aw : ah
        let left = vertical ? ins.left : ins.top
        let gap = vertical ? sec.columnSpacing : sec.rowSpacing
        let lineGap = vertical ? sec.rowSpacing : sec.columnSpacing

        // 3. Each item's size from the `size` rule (variables i, n, s, cw, ch, aw, ah). The cells
        //    go into the table at once with their sizes; lines place them below.
        m.set(.s, Double(s))
        m.set(.aw, aw)
        m.set(.ah, ah)
        m.set(.n, Double(sec.items))
        m.inItem = true
        defer { m.inItem = false }
        index.firstCell = table.elements.count
        let first = index.firstCell
        // "Every item of the section has the same size (both sides equal within 1e-6)".
        var sameSize = true
        var w0 = 0.0, h0 = 0.0
        // The rules, taken apart once rather than per item.
        var rules: (ItemRule, ItemRule)? = nil
        switch sec.size {
        case .natural(let wRule, let hRule): rules = (wRule, hRule)
        case .length(let rule):
            // The resolver refuses `height`/`width` alone in a flow layout; never reached.
            if sec.items > 0 { throw Diagnostic.error("a flow layout sizes each item with 'size W x H'", at: rule.settingSpan) }
        }
        // Work on the table's array as a local (one owner: no copy, no uniqueness checks per item).
        var elements = table.elements
        table.elements = []
        defer { table.elements = elements }
        if let (wRule, hRule) = rules {
            m.available = VarSets.flowSize | VarSets.layout
            // Flat rules (FlatRule.swift) run here without copying the rules per item.
            let wFlat = wRule.flat ?? FlatRule(), hFlat = hRule.flat ?? FlatRule()
            let hasW = wRule.flat != nil, hasH = hRule.flat != nil
            // `i` is set only before a compiled rule runs when the flat ones do not read it.
            let lazyI = hasW && hasH && (wFlat.reads | hFlat.reads) & EngineVar.i.bit == 0
            for i in 0..<sec.items {
                m.beginItem(i, section: s, settingI: !lazyI)
                var w = 0.0, h = 0.0
                var draws = m.randomCount
                if hasW, wFlat.run(&m, &w) {} else {
                    m.randomCount = draws
                    if lazyI { m.vars[EngineVar.i.rawValue] = Double(i) }
                    w = try Waterfall.ruleValue(wRule, &m, i, s)
                }
                draws = m.randomCount
                if hasH, hFlat.run(&m, &h) {} else {
                    m.randomCount = draws
                    if lazyI { m.vars[EngineVar.i.rawValue] = Double(i) }
                    h = try Waterfall.ruleValue(hRule, &m, i, s)
                }
                if !(w.isFinite && w >= 0) || !(h.isFinite && h >= 0) {
                    let (v, rule) = !(w.isFinite && w >= 0) ? (w, wRule) : (h, hRule)
                    throw Diagnostic.error("\(rule.what) of item \(i) of section \(s) is \(NumberFormat.format(v)): a size must be a finite number, at least 0",
                                           at: rule.span)
                }
                if i == 0 {
                    w0 = w
                    h0 = h
                } else if sameSize, abs(w - w0) > tolerance || abs(h - h0) > tolerance {
                    sameSize = false
                }
                elements.append(Element(cell: i, section: s, frame: Frame(x: 0, y: 0, width: w, height: h)))
            }
        }

        // 4. Lines: walk the items in order; an item joins the current line when
        //    used + cs + w <= aw + 1e-6 (the first item of a line always joins).
        var bottom = top
        var lineY = top
        var previous: (y: Double, thickness: Double)? = nil
        var j = 0
        var overflowed = false
        let n = sec.items
        while j < n {
            let firstFrame = elements[first + j].frame
            var used = vertical ? firstFrame.width : firstFrame.height
            var thickness = vertical ? firstFrame.height : firstFrame.width
            // A line's first item wider than aw overflows, with a warning (once per section).
            if used > length + tolerance, !overflowed {
                overflowed = true
                if case .natural(let wRule, let hRule) = sec.size {
                    let rule = vertical ? wRule : hRule
                    warnings.append(.warning("item \(j) of section \(s) is \(NumberFormat.format(used)) \(vertical ? "wide" : "tall") but the lines are \(NumberFormat.format(length)): it overflows its line",
                                             at: rule.span,
                                             help: "make the items at most \(vertical ? "'aw'" : "'ah'") (here \(NumberFormat.format(length))) \(vertical ? "wide" : "tall"), for example with min(..., \(vertical ? "aw" : "ah"))"))
                }
            }
            var end = j + 1
            elements.withUnsafeBufferPointer { elements in
                while end < n {
                    let f = elements[first + end].frame
                    let w = vertical ? f.width : f.height
                    guard used + gap + w <= length + tolerance else { break }
                    used = used + gap + w
                    let t = vertical ? f.height : f.width
                    // 5. lineH = the tallest item of the line.
                    if t > thickness { thickness = t }
                    end += 1
                }
            }
            // 6. y of the line: top for the first line, then previous line's y + its lineH + rs.
            if let p = previous { lineY = p.y + p.thickness + lineGap }
            let count = end - j
            let isLast = end == n

            // 7. x along the line, by `justify` (LAYOUT.md): "packed from p" puts the first item at
            //    p, then x += w + gap.
            enum Placement { case packed(Double, Double), grid(Double) }
            func packed(_ justify: Justify) -> Placement {
                switch justify {
                case .start, .uikit: return .packed(left, gap)
                case .end: return .packed(left + length - used, gap)
                case .center: return .packed(left + (length - used) / 2, gap)
                case .spread:
                    // m >= 2: packed from left with gap cs + (aw - used) / (m - 1); one item: from left.
                    return count >= 2 ? .packed(left, gap + (length - used) / Double(count - 1)) : .packed(left, gap)
                }
            }
            let placement: Placement
            if sec.justify != .uikit {
                placement = packed(sec.justify)
            } else if !isLast {
                // Not the last line: spread with two or more items, center with one.
                placement = count >= 2 ? packed(.spread) : packed(.center)
            } else if previous == nil && count == 1 {
                // The last line, also the only line, with one item: center.
                placement = packed(.center)
            } else if sameSize {
                // The last line when every item has the same size: grid-aligned.
                // k = floor((aw + cs + 1e-6) / (u + cs)); k >= 2: left + q * (u + g) with
                // g = cs + (aw - k*u - (k-1)*cs) / (k-1); k <= 1: center.
                let u = vertical ? w0 : h0
                let k = ((length + gap + tolerance) / (u + gap)).rounded(.down)
                if k >= 2 {
                    placement = .grid(gap + (length - k * u - (k - 1) * gap) / (k - 1))
                } else {
                    placement = packed(.center)
                }
            } else {
                // Else the last line: start.
                placement = packed(.start)
            }

            // 8. y across the line (`align`): center y + (lineH - h) / 2; start y; end y + lineH - h.
            var x = 0.0, step = 0.0
            if case .packed(let p, let g) = placement {
                x = p
                step = g
            }
            let align = sec.align
            elements.withUnsafeMutableBufferPointer { elements in
                for q in 0..<count {
                    var f = elements[first + j + q].frame
                    let w = vertical ? f.width : f.height
                    let t = vertical ? f.height : f.width
                    let along: Double
                    switch placement {
                    case .packed:
                        along = x
                        x += w + step
                    case .grid(let g):
                        let u = vertical ? w0 : h0
                        along = left + Double(q) * (u + g)
                    }
                    let across: Double
                    switch align {
                    case .center: across = lineY + (thickness - t) / 2
                    case .start: across = lineY
                    case .end: across = lineY + thickness - t
                    }
                    if vertical {
                        f.x = along
                        f.y = across
                    } else {
                        f.x = across
                        f.y = along
                    }
                    elements[first + j + q].frame = f
                }
            }
            // The line's elements are final: box the complete blocks below its end.
            elements.withUnsafeBufferPointer { leaves.catchUp($0, upTo: first + end) }
            // 9. bottom = last line's y + its lineH.
            bottom = lineY + thickness
            previous = (lineY, thickness)
            j = end
        }
        // 10. top = bottom + ins.bottom (ins.right when horizontal): the section's end.
        top = bottom + (vertical ? ins.bottom : ins.right)
        index.end = top
        if sec.footer > 0 {
            index.footer = elements.count
            elements.append(Waterfall.supplementary(.footer, s, sec.footer, sec.footerInsets, vertical: vertical,
                                                          cw: cw, ch: ch, top: &top))
        }
        index.stop = top
        table.sectionStarts.append(index)
        return itemsStart
    }
}
