/// What a layout adds on top of the frames its engine places (docs/layout.md, "Section
/// backgrounds"): step 1 of the order of evaluation at a scroll offset computes the backgrounds
/// from the frames at rest. The engines call `Decorations.add` last, only for a layout that has
/// something to add (`ResolvedLayout.decorates`), so a layout without these settings builds its
/// table exactly as before.
///
/// Table order, section by section: the background, the header, the cells by index, the footer.

enum Decorations {
    /// Adds what `layout` puts on top of the frames of `table`, which its engine has just built:
    /// the section backgrounds, and the attribute rules with their values at offset (0, 0).
    static func add(_ layout: ResolvedLayout, to table: inout AttributeTable) throws(Diagnostic) {
        if layout.sections.contains(where: { $0.background != .none }) { addBackgrounds(layout, to: &table) }
        if let rules = AttributeRules.of(layout) {
            table.attributes = rules
            // The values at offset (0, 0), where `wfl run` shows the table: an error there is an
            // error of the layout.
            let shown = table.at(.zero)
            if let failure = shown.attributeFailure { throw failure }
            table.alphas = shown.alphas
            table.zooms = shown.zooms
            for j in table.elements.indices where table.elements[j].kind == .cell { table.elements[j].zIndex = shown.elements[j].zIndex }
        }
    }

    /// Adds the section backgrounds and builds the rect index again over the grown table.
    static func addBackgrounds(_ layout: ResolvedLayout, to table: inout AttributeTable) {
        let vertical = layout.direction == .vertical
        var elements: [Element] = []
        elements.reserveCapacity(table.elements.count + layout.sections.count)
        var starts = table.sectionStarts
        for s in starts.indices {
            let sec = layout.sections[s]
            let old = table.sectionStarts[s]
            // The section's elements are one run of the table: header, cells, footer.
            let lo = old.header ?? old.firstCell
            let hi = old.footer.map { $0 + 1 } ?? old.firstCell + old.cellCount
            if let frame = background(sec, s, table, vertical: vertical) {
                starts[s].background = elements.count
                elements.append(Element(kind: .background, section: s, item: nil, frame: frame, zIndex: ZIndex.background))
            } else {
                starts[s].background = nil
            }
            let shift = elements.count - lo
            starts[s].header = old.header.map { $0 + shift }
            starts[s].firstCell = old.firstCell + shift
            starts[s].footer = old.footer.map { $0 + shift }
            if lo < hi { elements.append(contentsOf: table.elements[lo..<hi]) }
        }
        table.elements = elements
        table.sectionStarts = starts
        table.index = RectIndex(table.elements)
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
        // start: where the previous section stops (0 for the first).
        let start = s == 0 ? 0 : table.sectionStarts[s - 1].stop
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
            let headerLength = sec.header > 0 ? (vertical ? hi.top + sec.header + hi.bottom : hi.left + sec.header + hi.right) : 0
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
