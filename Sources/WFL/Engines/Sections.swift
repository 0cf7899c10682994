/// Laying out a layout section by section (docs/layout.md, "Mixed sections"): each section by its
/// engine, stacked along the scroll axis by `SectionStack.lay`. A layout whose sections share an
/// engine with a whole-layout path (the waterfall's, the flow's) goes to that path (its fast paths
/// stay as they are); any other goes through the stacker. Then come the decorations and, with
/// `layoutDirection rightToLeft`, the mirror.
package enum Sections {
    /// Lays out every section of `layout` with its own engine.
    package static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        Sections.layout(layout, warnings: &warnings, spareElements: [], spareLevels: [])
    }

    /// The same, building the table in the storage of an older table's elements and index levels
    /// where the engine can (`AttributeTable.relayout`).
    static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                       spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure> {
        var result: Result<AttributeTable, LayoutFailure>
        // An engine without a whole-layout path never takes the spare storage: the stacker
        // builds in it then.
        if let engine = Engines.engine(layout.style), engine.hasWholePath {
            result = engine.layoutWhole(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
                ?? stackedResult(layout, warnings: &warnings)
        } else {
            result = stackedResult(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
        }
        // The environment along the scroll axis rides on the table (ScrollOffsets.swift).
        if case .success(var table) = result, layout.safeArea != Insets() || !layout.device.isEmpty {
            table.scroll.safeArea = layout.safeArea
            table.scroll.device = layout.device
            result = .success(table)
        }
        let appearRules = TableRules.of(layout, .transitions)
        guard layout.rightToLeft || layout.decorates || appearRules != nil || !layout.shelfOffsets.isEmpty else {
            return FiniteFrames.checked(layout, result)
        }
        // Taken out of `result` (consumed, not copied): the table's arrays keep one owner, so the
        // steps below change them in place.
        var table: AttributeTable
        switch consume result {
        case .success(let t): table = t
        case .failure(let f): return .failure(f)
        }
        // Step 1: a shelf's cells move by its own offset, before the backgrounds and the mirror.
        if !layout.shelfOffsets.isEmpty { table.shiftShelves(layout) }
        // Section backgrounds and attached views are placed from the frames in left-to-right
        // coordinates (steps 1 and 4 of the order of evaluation, docs/layout.md), then mirrored.
        if layout.decorates {
            do throws(Diagnostic) { try Decorations.place(layout, &table) } catch { return .failure(LayoutFailure([error])) }
        }
        // The mirror is the last step of placing (docs/layout.md, "Right to left"): whatever is
        // placed from the frames before it (section backgrounds from the sections' extents,
        // views attached to cells) must be placed above this line, in left-to-right
        // coordinates, and is mirrored with the rest; whatever reads frames as shown (attribute
        // rules, transitions) reads the table after it. Pinning, which comes before the mirror
        // too, is derived at an offset from these stored frames (ScrollOffsets.swift, `pinned`).
        if layout.rightToLeft { table.mirror() }
        // The attribute rules read the frames as shown, mirrored (step 6).
        if layout.decorates {
            do throws(Diagnostic) { try Decorations.evaluate(layout, &table) } catch { return .failure(LayoutFailure([error])) }
        }
        // Step 7, the transitions of a batch update (`appear`, `disappear`), reads the frames,
        // alphas and zooms as they stand here, at the offset (`at`); the rules ride on the table
        // (Table/TransitionPairing.swift).
        table.rules.appearRules = appearRules
        return FiniteFrames.checked(layout, .success(table))
    }

    /// `stacked` as a result.
    static func stackedResult(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element] = [],
                              spareLevels: consuming [[RectIndex.Box]] = []) -> Result<AttributeTable, LayoutFailure> {
        do throws(Diagnostic) {
            return .success(try stacked(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels))
        } catch {
            return .failure(LayoutFailure([error]))
        }
    }

    /// Each section with its engine, one after another, in the storage of an older table's
    /// elements and index levels when given (`AttributeTable.relayout`): a table laid out again
    /// then takes no fresh pages.
    static func stacked(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element] = [],
                        spareLevels: consuming [[RectIndex.Box]] = []) throws(Diagnostic) -> AttributeTable {
        let stack = SectionStack(layout)
        // The index is built at the end, over every section, from the leaf boxes the engines
        // made as they wrote their cells (in the old level 0's storage) where it is in table order.
        var spareLevels = consume spareLevels
        var w = ElementWriter(table: SectionStack.table(for: layout), machine: stack.machine(for: layout),
                              leaves: RectIndex.LeafBuilder(storage: spareLevels.isEmpty ? [] : spareLevels.removeFirst()))
        w.table.elements = consume spareElements
        w.table.elements.removeAll(keepingCapacity: true)
        w.table.elements.reserveCapacity(layout.sections.reduce(0) { $0 + $1.items + ($1.header > 0 ? 1 : 0) + ($1.footer > 0 ? 1 : 0) })
        w.table.sectionStarts.reserveCapacity(layout.sections.count)
        defer { warnings += w.warnings }
        // Sections stack along the scroll axis with nothing between them; `top` starts at 0.
        var top = layout.start
        for sec in layout.sections {
            top = try stack.lay(sec, sec.engine, top: top, into: &w)
        }
        stack.setContentSize(&w.table, top: top)
        w.table.noteScrollGeometry(layout, itemsStart: w.itemsStart, firstSize: w.firstSize)
        var boxes: [RectIndex.Box] = []
        swap(&boxes, &w.leaves.boxes)
        w.table.index = RectIndex(w.table.elements, sequence: Waterfall.sequence(w.laneGroups, count: w.table.elements.count),
                                  reusing: consume spareLevels, leaves: boxes)
        return w.table
    }
}

extension AttributeTable {
    /// Mirrors every frame for `layoutDirection rightToLeft` (docs/layout.md, "Right to left"):
    /// vertical `x' = cw - x - w`; horizontal `x' = max(contentWidth, cw) - x - w`. The index is
    /// built again over the mirrored frames, in the same sequence.
    mutating func mirror() {
        let width = mirrorWidth
        for j in elements.indices {
            let f = elements[j].frame
            elements[j].frame.x = width - f.x - f.width
        }
        scroll.rightToLeft = true
        for k in scroll.groups.indices { scroll.groups[k].mirror = width }
        index = RectIndex(elements, sequence: index.sequence)
    }

    /// Moves the cells of every shelf of `layout.shelfOffsets` left by its offset (step 1 of the
    /// order of evaluation, docs/layout.md "Shelf offsets"): `x - sx`; the header, the footer and
    /// the content size stay. The index is built again.
    mutating func shiftShelves(_ layout: ResolvedLayout) {
        var moved = false
        for (s, sx) in layout.shelfOffsets where sx != 0 && s < sectionStarts.count && layout.sections[s].style == .shelf {
            let st = sectionStarts[s]
            for j in st.firstCell..<(st.firstCell + st.cellCount) { elements[j].frame.x -= sx }
            for k in scroll.groups.indices where scroll.groups[k].section == s { scroll.groups[k].shift -= sx }
            moved = true
        }
        if moved { index = RectIndex(elements, sequence: index.sequence) }
    }

    /// The width frames are mirrored within: cw when vertical, max(contentWidth, cw) when
    /// horizontal.
    var mirrorWidth: Double { direction == .vertical ? containerWidth : Swift.max(contentWidth, containerWidth) }
}
