/// Appending items to a laid-out waterfall section in time proportional to the new items
/// (`IncrementalLayout.append`, Engines/Incremental.swift): the lane state (docs/layout.md, "Waterfall") is recovered from
/// the table, then steps 4-10 run for the new items only, with the same code as a full layout, so the
/// table is exactly the one a full layout gives.

extension Waterfall {
    /// Appends the items `old ..< sec.items` of the last section of `layout` to `table`, which is
    /// the layout of the same file with `old` items in that section. Returns false, having changed
    /// nothing, when that cannot be done incrementally (the caller then lays out again):
    /// a round-robin order, a rule reading `n`, a section that is not the last, a layout with
    /// something on top of its frames (Decorations.swift), or a table whose
    /// lanes do not read back exactly.
    static func append(_ layout: ResolvedLayout, section s: Int, from old: Int,
                       to table: inout AttributeTable) throws(Diagnostic) -> Bool {
        let sec = layout.sections[s]
        guard let e = sec.engine as? WaterfallEngine else { return false }
        guard s == layout.sections.count - 1, table.sectionStarts.count == layout.sections.count, !layout.decorates,
              e.order == .shortest || e.lanes == 1, old >= 0, old <= sec.items,
              !(sec.span?.readsItemCount ?? false), table.index.isTableOrder,
              sec.rowSpacing >= 0, sec.columnSpacing >= 0 else { return false }
        switch sec.size {
        case .length(let r): if r.readsItemCount { return false }
        case .natural(let a, let b): if a.readsItemCount || b.readsItemCount { return false }
        }
        var index = table.sectionStarts[s]
        guard index.cellCount == old else { return false }
        let stack = SectionStack(layout)
        let vertical = stack.vertical

        // The section's start, its header and `top += ins.top`, and steps 1-2, as `lay` has them.
        let top = stack.opening(sec, at: s == 0 ? 0 : table.sectionStarts[s - 1].stop).itemsStart
        let g = Geometry(sec, e, stack)
        let C = g.C
        guard g.pitch > 0 else { return false }

        // Step 3 carried forward: next[c] is `y + h + rs` of the last item covering lane c (top when
        // none does), and bottom the largest maxY. Lanes only grow (rs >= 0), so the largest maxY is
        // that of some lane's last item: walking back until every lane is covered finds both.
        let next = UnsafeMutablePointer<Double>.allocate(capacity: C)
        defer { next.deallocate() }
        // A lane not covered yet holds NaN (a covered one holds a finite number; a table's frames
        // are finite), so no second array is made.
        next.initialize(repeating: .nan, count: C)
        var uncovered = C
        var bottom = top
        var j = index.firstCell + old - 1
        while j >= index.firstCell && uncovered > 0 {
            let f = table.elements[j].frame
            let (y, h, cross, w) = vertical ? (f.y, f.height, f.x, f.width) : (f.x, f.width, f.y, f.height)
            // The lane and span, read back and checked against the formulas of steps 7 and 9.
            let cD = ((cross - g.crossStart) / g.pitch).rounded()
            let kD = ((w + g.laneGap) / g.pitch).rounded()
            guard cD >= 0, kD >= 1, cD + kD <= Double(C) else { return false }
            let c = Int(cD), k = Int(kD)
            guard g.crossStart + Double(c) * (g.laneW + g.laneGap) == cross,
                  (k == 1 ? g.laneW : Double(k) * g.laneW + Double(k - 1) * g.laneGap) == w else { return false }
            let after = y + h + g.itemGap
            guard !after.isNaN else { return false }
            for lane in c..<(c + k) where next[lane].isNaN {
                uncovered -= 1
                next[lane] = after
            }
            if y + h > bottom { bottom = y + h }
            j -= 1
        }
        for lane in 0..<C where next[lane].isNaN { next[lane] = top }

        // The footer (the table's last element) goes; the new cells and then the footer follow.
        let savedFooter = index.footer.map { table.elements[$0] }
        let firstChanged = index.firstCell + old
        var elements = table.elements
        table.elements = []
        if index.footer != nil { elements.removeLast() }
        let needed = elements.count + (sec.items - old) + 1
        if elements.capacity < needed {
            elements.reserveCapacity(Swift.max(needed, elements.count + elements.count / 2))
            // The new storage is touched here, while it grows (placeholders written and taken
            // back): else each later append writing into fresh pages of it takes a page fault,
            // more than its own work costs.
            let spare = elements.capacity - elements.count
            elements.append(contentsOf: repeatElement(Element(cell: 0, section: 0, frame: Frame(x: 0, y: 0, width: 0, height: 0)), count: spare))
            elements.removeLast(spare)
        }

        var m = stack.machine(for: layout)
        g.enter(sec, stack, machine: &m)
        var noLanes: [UInt16] = []
        var noLeaves = RectIndex.LeafBuilder(storage: [], active: false)
        // Appending gives no warnings: the first layout of the section gave them.
        var capped: Waterfall.CappedSpan? = nil
        var stop = 0.0
        do {
            try place(sec, g, old..<sec.items, next: next, bottom: &bottom, machine: &m, into: &elements,
                      recordLanes: false, firstLanes: &noLanes, leaves: &noLeaves, capped: &capped)
            // top = bottom + ins.bottom, the section's end; the footer, as `lay` has them.
            index.cellCount = sec.items
            stop = try stack.close(sec, bottom: bottom, index: &index, into: &elements)
        } catch {
            // Leave the table as it was.
            elements.removeSubrange(firstChanged...)
            if let savedFooter { elements.append(savedFooter) }
            table.elements = elements
            throw error
        }
        table.sectionStarts[s] = index
        stack.setContentSize(&table, top: stop)
        table.elements = elements
        table.index.update(table.elements, changedFrom: firstChanged)
        return true
    }
}
