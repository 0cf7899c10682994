/// The geometry of scrolling (docs/layout.md, "Pinned headers", "zoomFirst", "snap", "Rect
/// queries"): frames at a scroll offset, and rect queries at an offset. It lives beside the engines
/// because it is layout geometry like theirs, only applied late: the engines lay out the table at
/// rest, and the frames that depend on where the view is scrolled are derived here on demand.
///
/// The table itself holds the frames of the plain layout (mirrored with `layoutDirection
/// rightToLeft`). At an offset (ox, oy):
/// 1. a header of a section with `pinHeaders` gets `y = max(naturalY, min(oy, limit))` (x and ox
///    when horizontal), `limit = (footer y, or the section's end) - header`; a footer of a section
///    with `pinFooters` gets `y = min(naturalY, max(oy + ch - footer, limit))`, `limit` = the
///    header's maxY, or the section's first y; each limit reads the other's natural frame;
/// 2. then, with `zoomFirst`, the walk of docs/layout.md, "zoomFirst" runs over those frames in
///    table order.
/// Right to left, pinning works on the frames before the mirror (docs/layout.md, "Right to
/// left"): in a horizontal layout the stored x is mirrored back, pinned with the mirrored offset
/// `ox' = max(contentWidth, cw) - ox - cw`, and mirrored again; vertical pinning moves y only.
/// Everything `wfl run` prints and every `expect` function reads goes through here; without an
/// offset the offset is (0, 0), where a carousel's first item is already zoomed. What `snap` and
/// `zoomFirst` take from the layout is fixed when the flow engine builds the table
/// (`noteScrollGeometry`); `snap(p)` itself is an expectation function (Expectations.swift).

/// What scrolling needs of a table, fixed when the engines build it: kept beside its elements
/// (`AttributeTable.scroll`).
package struct ScrollGeometry: Equatable, Sendable {
    /// `zoomFirst` of a horizontal flow layout, with what it needs from the table.
    package var zoom: Zoom? = nil
    /// Flow: `snap`'s stride (item 0 of section 0's length along the scroll axis plus the spacing
    /// there); nil in a waterfall or when section 0 has no item 0.
    package var snapStride: Double? = nil
    /// `snapping` of the layout.
    package var snapping: Snapping = .next
    /// `layoutDirection rightToLeft`: the frames are stored mirrored (docs/layout.md, "Right to left").
    package var rightToLeft = false
    /// The band of each shelf section, in section order (Engines/Shelf.swift), for `shelfSnap`.
    package var shelves: [Shelf.Band] = []
    /// `safeArea`, physical: along the scroll axis the adjusted content inset (docs/layout.md,
    /// "The environment"): the initial offset, pinning and the scrollable range read it.
    package var safeArea = Insets()
    /// The device in force, in the command-line form (`iPhone13.portrait`), or "": what the
    /// variable `device` of an `expect` reads.
    package var device = ""
    /// The group instances of each groups section and shelf of groups, for the pictures'
    /// outlines (GroupOutlines below); empty without groups.
    package var groups: [GroupOutlines] = []
}

/// The group instances of one section (docs/layout.md, "Groups"), as the pictures outline them:
/// the groups of one instance of the top group (the top group first, then its nested groups,
/// depth-first), relative to the instance's origin, and the instances' origins, `origin + g *
/// stride` for g in 0 ..< count (a partly filled last instance keeps its size). A shelf's own
/// offset moves them (`shift`, added to x) and the mirror of right to left flips them within
/// `mirror` (x' = mirror - x - w), as the cells.
package struct GroupOutlines: Equatable, Sendable {
    package var section: Int
    /// The groups of one instance, the top group first.
    package var outlines: [Frame]
    /// Instance 0's origin, and the step from one instance to the next.
    package var origin: Offset
    package var stride: Offset
    package var count: Int
    /// Added to x: a shelf's cells move by -sx (step 1 of the order of evaluation).
    package var shift = 0.0
    /// Set by the mirror: the width frames are mirrored within.
    package var mirror: Double? = nil

    /// Outline k of instance g, in the table's coordinates.
    package func frame(_ k: Int, of g: Int) -> Frame {
        let o = outlines[k]
        let x = origin.x + Double(g) * stride.x + o.x + shift
        let f = Frame(x: x, y: origin.y + Double(g) * stride.y + o.y, width: o.width, height: o.height)
        guard let w = mirror else { return f }
        return Frame(x: w - f.x - f.width, y: f.y, width: f.width, height: f.height)
    }
}

/// What `zoomFirst` needs, fixed when the table is built.
package struct Zoom: Equatable, Sendable {
    /// `zoomFirst W x H`.
    package var width: Double, height: Double
    /// The size of item 0 of section 0 (its flow frame).
    package var itemWidth: Double, itemHeight: Double
    /// x0: where section 0's items start; and section 0's `insets.top`.
    package var x0: Double, insetTop: Double
}

/// The cells `zoomFirst` enlarges at one offset, and the shift they cause.
struct ZoomState {
    /// `first` of the walk (docs/layout.md, "zoomFirst").
    var first: Frame
    /// The enlarged cells, in table order, with their new frames.
    var cells: [Int] = []
    var frames: [Frame] = []
    /// totals[k]: the shift of an element after cells[k - 1] and before cells[k] (totals[0] = 0);
    /// totals.last is the shift after every enlarged cell.
    var totals: [Double] = [0]

    /// The position in `cells` of the first enlarged cell at or after element `j`.
    func position(_ j: Int) -> Int {
        var lo = 0, hi = cells.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cells[mid] < j { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The least and greatest shift any element gets.
    var shiftRange: (Double, Double) {
        var lo = 0.0, hi = 0.0
        for t in totals {
            if t < lo { lo = t }
            if t > hi { hi = t }
        }
        return (lo, hi)
    }
}

extension AttributeTable {
    /// What `snap` and `zoomFirst` need from a flow layout, from item 0 of section 0 once the
    /// table is laid out; `itemsStart` is where section 0's items start along the scroll axis.
    /// `firstSize` is the own size of that item, before `align stretch`.
    mutating func noteScrollGeometry(_ layout: ResolvedLayout, itemsStart: Double, firstSize: (Double, Double)?) {
        scroll.snapping = layout.snapping
        guard let s0 = layout.sections.first, s0.style == .flow, s0.items > 0 else { return }
        let vertical = layout.direction == .vertical
        let f = elements[sectionStarts[0].firstCell].frame
        let (w, h) = firstSize ?? (f.width, f.height)
        // snap: stride = w + cs with w the own width of item 0 of section 0 (vertical: its height
        // and rs).
        scroll.snapStride = vertical ? h + s0.rowSpacing : w + s0.columnSpacing
        // zoomFirst: the size of item 0 of section 0, x0 where section 0's items start, and
        // section 0's insets.top.
        if let z = layout.zoomFirst, !vertical {
            scroll.zoom = Zoom(width: z.width, height: z.height, itemWidth: f.width, itemHeight: f.height,
                        x0: itemsStart, insetTop: s0.insets.top)
        }
    }

    /// The initial offset (docs/layout.md, "The environment"): (0, -safeArea.top) in a vertical
    /// layout, (-safeArea.left, 0) in a horizontal one; (0, 0) without a safe area. Wherever an
    /// offset is not given, this is the offset.
    package var initialOffset: Offset {
        direction == .vertical ? Offset(x: 0, y: -scroll.safeArea.top) : Offset(x: -scroll.safeArea.left, y: 0)
    }

    /// The scrollable range along the scroll axis, [minO, maxO]: minO = -at (-al when
    /// horizontal), maxO = content length + ab - container length (ar), at least minO.
    package var scrollableRange: (min: Double, max: Double) {
        let sa = scroll.safeArea
        let vertical = direction == .vertical
        let lo = vertical ? -sa.top : -sa.left
        let hi = vertical ? contentHeight + sa.bottom - containerHeight : contentWidth + sa.right - containerWidth
        return (lo, Swift.max(lo, hi))
    }

    /// True when frames depend on the offset: a pinned header or footer, or `zoomFirst`.
    package var movesWithOffset: Bool {
        scroll.zoom != nil || sectionStarts.contains { $0.pinHeaders && $0.header != nil || $0.pinFooters && $0.footer != nil }
    }

    /// True for a pinned header or footer of its section.
    @inline(__always) func isPinned(_ j: Int, _ sec: SectionIndex) -> Bool {
        sec.pinHeaders && sec.header == j || sec.pinFooters && sec.footer == j
    }

    /// The natural frame of element `j` before the mirror of a horizontal right-to-left layout
    /// (its stored frame otherwise): the frame pinning works on.
    @inline(__always) func unmirrored(_ j: Int) -> Frame {
        var f = elements[j].frame
        if scroll.rightToLeft, direction == .horizontal { f.x = mirrorWidth - f.x - f.width }
        return f
    }

    /// The pinned frame of header or footer element `j` of section `s` at `offset` (docs/layout.md,
    /// "Pinned headers", "Pinned footers"); other elements unchanged.
    func pinned(_ j: Int, section s: Int, _ offset: Offset) -> Frame {
        let sec = sectionStarts[s]
        guard isPinned(j, sec) else { return elements[j].frame }
        let vertical = direction == .vertical
        let mirrored = scroll.rightToLeft && !vertical
        var f = unmirrored(j)
        // Horizontal right to left: pinning runs before the mirror, with ox' = max(contentWidth,
        // cw) - ox - cw.
        let ox = mirrored ? mirrorWidth - offset.x - containerWidth : offset.x
        // The safe area along the axis: at, ab (vertical); al, ar (horizontal), whose x edges
        // swap before the mirror (docs/layout.md, "The environment").
        let sa = scroll.safeArea
        let (al, ar) = mirrored ? (sa.right, sa.left) : (sa.left, sa.right)
        if sec.header == j {
            // y = max(naturalY, min(oy + at, limit)), limit = (the section's footer y, or its
            // end) - header, the footer's natural frame.
            if vertical {
                let limit = (sec.footer.map { unmirrored($0).y } ?? sec.end) - f.height
                f.y = Swift.max(f.y, Swift.min(offset.y + sa.top, limit))
            } else {
                let limit = (sec.footer.map { unmirrored($0).x } ?? sec.end) - f.width
                f.x = Swift.max(f.x, Swift.min(ox + al, limit))
            }
        } else {
            // y = min(naturalY, max(oy + ch - ab - footer, limit)), limit = the header's natural
            // maxY, or the section's first y.
            if vertical {
                let limit = sec.header.map { unmirrored($0).maxY } ?? sec.begin
                f.y = Swift.min(f.y, Swift.max(offset.y + containerHeight - sa.bottom - f.height, limit))
            } else {
                let limit = sec.header.map { unmirrored($0).maxX } ?? sec.begin
                f.x = Swift.min(f.x, Swift.max(ox + containerWidth - ar - f.width, limit))
            }
        }
        if mirrored { f.x = mirrorWidth - f.x - f.width }
        return f
    }

    /// The zoomFirst walk's enlarged cells at `offset`, found with the index (they overlap
    /// `first`), or nil without zoomFirst.
    func zoomState(_ offset: Offset) -> ZoomState? {
        guard let z = scroll.zoom else { return nil }
        // first = (x0 + ox, ins.top + oy, w, h).
        let w = z.itemWidth, h = z.itemHeight
        var state = ZoomState(first: Frame(x: z.x0 + offset.x, y: z.insetTop + offset.y, width: w, height: h))
        let first = state.first
        var total = 0.0
        // Cells whose frame overlaps `first` with positive width and height (a subset of the
        // open-interval overlap the index answers).
        for j in indexedQuery(first) where elements[j].kind == .cell {
            let f = pinned(j, section: elements[j].section, offset)
            let iw = Swift.min(f.maxX, first.maxX) - Swift.max(f.x, first.x)
            let ih = Swift.min(f.maxY, first.maxY) - Swift.max(f.y, first.y)
            guard iw > 0, ih > 0 else { continue }
            // newW = w + iw / w * (W - w);  newH = h + iw / w * (H - h)
            let newW = w + iw / w * (z.width - w)
            let newH = h + iw / w * (z.height - h)
            // frame = (x + total, centre y - newH / 2, newW, newH)
            let centreY = f.y + f.height / 2
            state.cells.append(j)
            state.frames.append(Frame(x: f.x + total, y: centreY - newH / 2, width: newW, height: newH))
            // total += newW - w
            total += newW - w
            state.totals.append(total)
        }
        return state
    }

    /// The frame of element `j` at `offset`, given the zoom state of that offset.
    func frame(_ j: Int, _ offset: Offset, _ zs: ZoomState?) -> Frame {
        // An attached view sits on its cell's frame as it is at the offset (Decorations.swift).
        // Only zoomFirst moves cells, and it is never mirrored: elsewhere the stored frame is it.
        if scroll.zoom != nil, let views = rules.views, elements[j].storedKind >= 4, let k = views.position(of: j) {
            return placeView(k, on: frame(Int(views.cells[k]), offset, zs))
        }
        var f = pinned(j, section: elements[j].section, offset)
        guard let zs, !zs.cells.isEmpty else { return f }
        // An enlarged cell takes its new frame; an element whose minX >= first.maxX moves by the
        // total so far.
        let k = zs.position(j)
        if k < zs.cells.count, zs.cells[k] == j { return zs.frames[k] }
        if f.x >= zs.first.maxX { f.x += zs.totals[k] }
        return f
    }

    /// The frame of element `j` at `offset`.
    package func frame(of j: Int, at offset: Offset) -> Frame {
        frame(j, offset, zoomState(offset))
    }

    /// The frames of the table as it stands at `offset` (steps 1 to 5 of the order of evaluation;
    /// `at` adds the attributes).
    func framesAt(_ offset: Offset) -> AttributeTable {
        guard movesWithOffset else { return self }
        var out = self
        let zs = zoomState(offset)
        if let zs, !zs.cells.isEmpty {
            // The walk (docs/layout.md, "zoomFirst") in table order.
            var k = 0
            var total = 0.0
            for j in elements.indices {
                if k < zs.cells.count, zs.cells[k] == j {
                    out.elements[j].frame = zs.frames[k]
                    total = zs.totals[k + 1]
                    k += 1
                    continue
                }
                var f = pinned(j, section: elements[j].section, offset)
                if f.x >= zs.first.maxX { f.x += total }
                out.elements[j].frame = f
            }
            out.rules.attributeFailure = FiniteFrames.zoomFailure(out, at: offset)
        } else {
            for s in sectionStarts.indices {
                if let h = sectionStarts[s].header, sectionStarts[s].pinHeaders { out.elements[h].frame = pinned(h, section: s, offset) }
                if let f = sectionStarts[s].footer, sectionStarts[s].pinFooters { out.elements[f].frame = pinned(f, section: s, offset) }
            }
        }
        // The copy is a picture at one offset: it no longer moves, and it needs its own index.
        out.scroll.zoom = nil
        for s in out.sectionStarts.indices {
            out.sectionStarts[s].pinHeaders = false
            out.sectionStarts[s].pinFooters = false
        }
        out.index = RectIndex(out.elements)
        return out
    }

    /// The frames of only the elements `indices` (in table order), at `offset` (`only` adds the
    /// attributes).
    func framesOnly(_ indices: [Int], at offset: Offset) -> AttributeTable {
        var out = self
        let zs = zoomState(offset)
        out.elements = indices.map { j in
            var e = elements[j]
            e.frame = frame(j, offset, zs)
            return e
        }
        if let zs, !zs.cells.isEmpty { out.rules.attributeFailure = FiniteFrames.zoomFailure(out, at: offset) }
        out.sectionStarts = []
        out.scroll.zoom = nil
        out.index = RectIndex(out.elements)
        return out
    }

    /// The base query, with an index built on the spot if the table has none (a table made by
    /// hand, say).
    func indexedQuery(_ r: Frame) -> [Int] {
        if index.covers(elements.count) { return index.query(r, in: elements) }
        return RectIndex(elements).query(r, in: elements)
    }

    /// The elements whose frames at `offset` overlap `rect` (negative sizes normalised; open
    /// intervals on both axes), in table order: `count(x, y, w, h)` and `wfl run --rect`.
    ///
    /// Without anything that moves, this is the index's query. Otherwise the candidates are
    /// (a) the index's answer for the rect widened by the zoom walk's greatest shift, (b) the
    /// enlarged cells, (c) the pinned headers whose section's extent along the scroll axis (where
    /// a pinned header stays) meets the rect, found by binary search over the sections, which
    /// stack in order; each candidate's frame at the offset is then tested exactly.
    package func query(_ rect: Frame, at offset: Offset = .zero) -> [Int] {
        let r = rect.normalised
        guard movesWithOffset else { return indexedQuery(r) }
        let zs = zoomState(offset)
        let (lo, hi) = zs?.shiftRange ?? (0, 0)
        // An element shifted by t overlaps r only if its own frame overlaps r moved by -t.
        var wide = r
        wide.x -= hi
        wide.width += hi - lo
        var candidates = indexedQuery(wide)
        if let zs { candidates += zs.cells }
        if let zs, let views = rules.views { for c in zs.cells { candidates += views.views(of: c) } }
        candidates += pinnedCandidates(r, lo, hi)
        candidates.sort()
        var out: [Int] = []
        var last = -1
        for j in candidates where j != last {
            last = j
            if frame(j, offset, zs).overlaps(r) { out.append(j) }
        }
        return out
    }

    /// Pinned headers and footers that may overlap `r` at some offset: a pinned header or footer
    /// stays within its section's extent along the scroll axis, from where the section begins to
    /// where the next one starts, so that extent must meet the rect, widened by the zoom shift.
    /// Right to left in a horizontal layout the extents are those before the mirror, so the rect
    /// is mirrored back first.
    func pinnedCandidates(_ r: Frame, _ lo: Double, _ hi: Double) -> [Int] {
        let vertical = direction == .vertical
        var rMin = (vertical ? r.y : r.x) - hi - 1, rMax = (vertical ? r.maxY : r.maxX) - lo + 1
        if scroll.rightToLeft, !vertical { (rMin, rMax) = (mirrorWidth - rMax, mirrorWidth - rMin) }
        // Section s spans [begin, stop]; both never decrease with s. The first section whose stop
        // is past rMin:
        var a = 0, b = sectionStarts.count
        while a < b {
            let mid = (a + b) / 2
            if sectionStarts[mid].stop > rMin { b = mid } else { a = mid + 1 }
        }
        var out: [Int] = []
        var s = a
        while s < sectionStarts.count, sectionStarts[s].begin < rMax {
            let sec = sectionStarts[s]
            if sec.pinHeaders, let h = sec.header { out.append(h) }
            if sec.pinFooters, let f = sec.footer { out.append(f) }
            s += 1
        }
        return out
    }
}
