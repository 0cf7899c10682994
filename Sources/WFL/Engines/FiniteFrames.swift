/// Frames stay numbers (docs/layout.md, "Numbers that stay numbers"): a layout whose frames come
/// out NaN or infinite is an error naming the element and the setting that took it there, never a
/// table with `Infinity` in it (which json cannot hold, and which `wfl diff` then refuses).
///
/// Every value that enters a layout is checked where it enters: settings when they are resolved
/// (finite, lane widths finite and above 0), item sizes by the engines, an attached view's size
/// and offset when it is placed, an `appear`/`disappear` offset when it moves its frame. With
/// those, positions stay finite as long as they only grow, which `SectionStack.close` checks once
/// a section (where it ends). Positions can also move backwards, or be moved by something
/// else, only in a layout with a negative spacing, a screen `scale` (whose floors multiply by
/// it) or a right-to-left mirror: such a layout gets one pass over its finished table here, so
/// the common layout pays nothing in the engines' loops. What is placed on top of the frames
/// (backgrounds, attached views) leaves the engine's cells as they are: only those elements are
/// checked then.
enum FiniteFrames {
    /// True when the cells, headers and footers of `layout` can leave the doubles' range
    /// although every value entering it is finite and its sections' ends are: see above.
    static func mayLeaveTheDoubles(_ layout: ResolvedLayout) -> Bool {
        if layout.rightToLeft { return true }
        return layout.sections.withUnsafeBufferPointer { b in
            for k in b.indices where b[k].rowSpacing < 0 || b[k].columnSpacing < 0 || ((b[k].engine as? WaterfallEngine)?.scale ?? 0) > 0 { return true }
            return false
        }
    }

    /// `result`, or the error of its first frame that is not finite. `zoomFirst` enlarges cells
    /// at every offset (ScrollOffsets.swift): its frames at rest, which `wfl run` shows, are
    /// checked here too.
    static func checked(_ layout: ResolvedLayout, _ result: Result<AttributeTable, LayoutFailure>) -> Result<AttributeTable, LayoutFailure> {
        guard case .success(let table) = result else { return result }
        if mayLeaveTheDoubles(layout) {
            if let j = firstNonFinite(table.elements) { return .failure(LayoutFailure([diagnostic(layout, table, j)])) }
        } else if layout.decorates, let j = firstNonFiniteDecoration(table) {
            return .failure(LayoutFailure([diagnostic(layout, table, j)]))
        }
        if layout.zoomFirst != nil, let failure = table.framesAt(.zero).rules.attributeFailure { return .failure(LayoutFailure([failure])) }
        return result
    }

    /// The error of `table`, the frames of a `zoomFirst` layout at `offset`, when one of them is
    /// not finite; nil when all are.
    static func zoomFailure(_ table: AttributeTable, at offset: Offset) -> Diagnostic? {
        guard let j = firstNonFinite(table.elements) else { return nil }
        let e = table.elements[j]
        let at = offset == .zero ? "" : " at scroll offset \(NumberFormat.format(offset.x)),\(NumberFormat.format(offset.y))"
        return .error(.positionOverflow, "the frame of \(describe(e, in: table))\(at) comes out with \(firstBadSide(e.frame)): 'zoomFirst' carries it past the largest number a position can have (about 1.8e308)",
                      at: .point(0), help: "make the sizes of 'zoomFirst' small enough for a screen")
    }

    /// The index of the first background or attached view of `table` whose frame is not finite
    /// (they stand in table order: a section's background, then its views).
    static func firstNonFiniteDecoration(_ table: AttributeTable) -> Int? {
        for start in table.sectionStarts {
            if let b = start.background, !isFinite(table.elements[b].frame) { return b }
            for j in start.firstView..<(start.firstView + start.viewCount) where !isFinite(table.elements[j].frame) { return j }
        }
        return nil
    }

    /// The index of the first element of `elements` whose frame has a side that is NaN or
    /// infinite; nil when every frame is finite. One branch-free pass (a double is not finite
    /// when its exponent bits are all ones: adding one to them carries into the sign bit), then a
    /// search only when it found one.
    static func firstNonFinite(_ elements: [Element]) -> Int? {
        let exponent: UInt64 = 0x7FF0_0000_0000_0000, one: UInt64 = 0x0010_0000_0000_0000
        let marks: UInt64 = elements.withUnsafeBufferPointer { b in
            var marks: UInt64 = 0
            for e in b {
                let f = e.frame
                marks |= ((f.x.bitPattern & exponent) &+ one) | ((f.y.bitPattern & exponent) &+ one)
                    | ((f.width.bitPattern & exponent) &+ one) | ((f.height.bitPattern & exponent) &+ one)
            }
            return marks
        }
        guard marks & (1 << 63) != 0 else { return nil }
        return elements.firstIndex { !isFinite($0.frame) }
    }

    @inline(__always) static func isFinite(_ f: Frame) -> Bool {
        f.x.isFinite && f.y.isFinite && f.width.isFinite && f.height.isFinite
    }

    /// The first side of `f` that is not finite, as "x -Infinity".
    static func firstBadSide(_ f: Frame) -> String {
        for (name, v) in [("x", f.x), ("y", f.y), ("width", f.width), ("height", f.height)] where !v.isFinite {
            return "\(name) \(NumberFormat.format(v))"
        }
        return "finite"
    }

    /// The element `e` of `table` in words: "item 3 of section 0", "the header of section 1",
    /// "view 'badge' of item 2 of section 0".
    static func describe(_ e: Element, in table: AttributeTable) -> String {
        switch e.kind {
        case .cell: return "item \(e.item ?? 0) of section \(e.section)"
        case .header, .footer, .background: return "the \(e.kind.rawValue) of section \(e.section)"
        case .attached: return "view '\(table.kindName(of: e))' of item \(e.item ?? 0) of section \(e.section)"
        }
    }

    /// The error for element `j`, whose frame is not finite. A background or a view is placed
    /// from the cells: when a cell, header or footer of its section is not finite either, that
    /// one is named, as the cause. The setting named is, for a background, its
    /// `backgroundInsets`; for a view, its `attach` block; otherwise the section's setting of
    /// largest size among those that place frames (spacings, insets, header, footer, scale), or
    /// the element's own size when that is larger: with finite values, only a very large one
    /// carries a position past the doubles.
    static func diagnostic(_ layout: ResolvedLayout, _ table: AttributeTable, _ j: Int) -> Diagnostic {
        var j = j
        if table.elements[j].kind == .background || table.elements[j].kind == .attached {
            let s = table.elements[j].section
            if let k = table.elements.firstIndex(where: { $0.section == s && ($0.kind == .cell || $0.kind == .header || $0.kind == .footer) && !isFinite($0.frame) }) {
                j = k
            }
        }
        let e = table.elements[j]
        let sec = layout.sections[e.section]
        let what = describe(e, in: table)
        let cause: String
        var place = sec.place
        switch e.kind {
        case .background:
            cause = "'backgroundInsets' \(sides(sec.backgroundInsets)) of section \(e.section)"
        case .attached:
            cause = "the size and offset of 'attach \(table.kindName(of: e))'"
        default:
            var settings: [(String, Double)] = [("'rowSpacing'", sec.rowSpacing), ("'columnSpacing'", sec.columnSpacing), ("'header'", sec.header),
                                                ("'footer'", sec.footer), ("'scale'", (sec.engine as? WaterfallEngine)?.scale ?? 0)]
            for (word, ins) in [("insets", sec.insets), ("headerInsets", sec.headerInsets), ("footerInsets", sec.footerInsets)] {
                for (side, v) in [("top", ins.top), ("left", ins.left), ("bottom", ins.bottom), ("right", ins.right)] {
                    settings.append(("the \(side) of '\(word)'", v))
                }
            }
            let (name, value) = settings.max { abs($0.1) < abs($1.1) }!
            let own = [e.frame.width, e.frame.height].filter(\.isFinite).map(abs).max() ?? 0
            if e.kind == .cell, own > abs(value) {
                cause = "the size of item \(e.item ?? 0) (\(NumberFormat.format(own)))"
            } else {
                if name == "'rowSpacing'" { place = sec.rowSpacingPlace ?? place }
                if name == "'columnSpacing'" { place = sec.columnSpacingPlace ?? place }
                cause = "\(name) \(NumberFormat.format(value)) of section \(e.section)"
            }
        }
        let mirrored = layout.rightToLeft ? " (mirrored right to left)" : ""
        return .error(.positionOverflow, "the frame of \(what) comes out with \(firstBadSide(e.frame))\(mirrored): \(cause) carries it past the largest number a position can have (about 1.8e308)",
                      at: place, help: "make the sizes, spacings and insets small enough for a screen")
    }

    static func sides(_ i: Insets) -> String {
        "\(NumberFormat.format(i.top)) \(NumberFormat.format(i.left)) \(NumberFormat.format(i.bottom)) \(NumberFormat.format(i.right))"
    }
}

extension FiniteFrames {
    /// An attached view's offset `d`, of rule `rule`, that is not finite (for item `i` of section
    /// `s`): an error, as an `appear` offset's is.
    static func badOffset(_ rule: borrowing ItemRule, _ d: Double, item i: Int, section s: Int) -> Diagnostic {
        .error(.badAttribute, "\(rule.what) of item \(i) of section \(s) is \(NumberFormat.format(d)): an offset is finite", at: rule.span,
               help: "give the offset a finite value")
    }

    /// An `appear` or `disappear` offset (`dx`, `dy`, of rules `x` and `y`) that moves the frame
    /// `f` of the element `place` names past the doubles' range: an error naming the rule.
    static func checkMoved(_ f: Frame, dx: Double, dy: Double, _ x: ItemRule?, _ y: ItemRule?, place: String) throws(Diagnostic) {
        let mx = f.x + dx, my = f.y + dy
        if mx.isFinite && my.isFinite { return }
        let (side, v, d) = mx.isFinite ? ("y", my, dy) : ("x", mx, dx)
        let what = (mx.isFinite ? y : x)?.what ?? "the offset"
        let span = (mx.isFinite ? y : x)?.span ?? .point(0)
        throw Diagnostic.error(.badAttribute, "\(what) \(place) is \(NumberFormat.format(d)): it moves the frame's \(side) to \(NumberFormat.format(v)), past the largest number a position can have (about 1.8e308)",
                               at: span, help: "make the offset smaller")
    }
}
