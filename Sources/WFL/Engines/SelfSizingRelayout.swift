/// Laying a self-sizing layout out again as a scroll path measures its cells, without starting
/// over (docs/layout.md, "Self-sizing cells", "Performance"): a relayout resumes at the first
/// measured cell and goes no further than the stop needs.
///
/// The layout is laid out section by section, as the section stacker does (`Sections.stacked`,
/// the same `SectionStack` steps and engines), and what is laid out so far is a prefix of the
/// table: the finished sections' rows, and at most one waterfall section still open with its
/// lanes (`next`, `bottom`). A waterfall section is laid out in chunks of `chunk` items, and the
/// lanes at the start of each chunk are kept (a checkpoint), so that a relayout resumes at the
/// chunk of the first measured cell; any other section is laid out whole, and a relayout
/// resumes where it began. Everything before is kept.
///
/// How far: every element not laid out yet starts (along the scroll axis) at or after the
/// *frontier*, and the content length is at least the frontier. Positions only grow (the
/// layouts taken here have no negative spacing, and insets, sizes and spacings add up from 0):
/// a waterfall's next item starts at the largest `next` of its lanes, at least their smallest;
/// its footer and the sections after it at or after `bottom`; a section after a finished one
/// at or after where that one stopped. So the frontier is `min(bottom, min(next))` with a
/// waterfall section open, else where the next section starts. A stop whose viewport ends
/// before the frontier sees every cell it can see, and is not clamped when the scrollable
/// range computed from the frontier already reaches it.
///
/// Layouts with something placed over the whole table (backgrounds, attributes, attached views,
/// `appear` rules), a mirror, shelf offsets, `zoomFirst`, a negative spacing, a round-robin
/// waterfall (whose index is not in table order) or a section of another engine are laid out
/// whole at each relayout, as before. The table, once completed, is exactly what
/// `Sections.layout` gives (SelfSizingTests compare them at every stop of random paths).
final class ResumableLayout {
    /// The layout with its self-sizing choices (`SelfSizingPath.mixed`).
    let layout: ResolvedLayout
    let stack: SectionStack
    /// True when the layout is laid out incrementally; false: every relayout is a full one.
    let incremental: Bool
    /// The table laid out so far (complete when `complete`), the machine, and what section 0's
    /// flow notes for the scroll geometry.
    private(set) var w: ElementWriter
    /// True when `w.table` is the whole table, index, content size and all.
    private(set) var complete = false
    /// Where the next section starts, when none is open.
    private var top: Double
    /// The waterfall section being laid out, if any.
    private var open: OpenWaterfall? = nil
    /// For each section laid out (finished or open): where it began.
    private var opened: [Opened] = []
    /// For each waterfall section: the lanes at the start of each chunk.
    private var checkpoints: [[Checkpoint]] = []
    /// Elements from this one on changed since the index was last brought up to date.
    private var indexFrom = 0
    /// `next` of the open waterfall section: as many lanes as the most of any section.
    private let next: UnsafeMutablePointer<Double>
    private let capacity: Int
    /// The error a step of laying out met: the layout is not laid out further.
    private var failure: PathFailure? = nil
    /// The content length when the last stop of the path began, nil when the table was not laid
    /// out to its end then; the cells that stop measured (SelfSizingPath.state).
    var lastStopStart: Double? = nil
    var lastStopMeasured: [(Int, Int)] = []

    struct Opened {
        /// The element count where the section began, and its `top`.
        var firstElement: Int
        var begin: Double
    }

    struct OpenWaterfall {
        var section: Int
        var row: AttributeTable.SectionIndex
        var g: Waterfall.Geometry
        var bottom: Double
        /// The next item to place.
        var item: Int
    }

    struct Checkpoint {
        var next: [Double]
        var bottom: Double
    }

    init(_ layout: ResolvedLayout) {
        self.layout = layout
        stack = SectionStack(layout)
        incremental = ResumableLayout.takes(layout)
        w = ElementWriter(table: SectionStack.table(for: layout), machine: stack.machine(for: layout),
                          leaves: RectIndex.LeafBuilder(storage: [], active: false))
        top = layout.start
        capacity = layout.sections.reduce(1) { Swift.max($0, ($1.engine as? WaterfallEngine)?.lanes ?? 1) }
        next = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        next.initialize(repeating: 0, count: capacity)
    }

    deinit { next.deallocate() }

    /// True when `layout` can be laid out incrementally (see above).
    static func takes(_ layout: ResolvedLayout) -> Bool {
        guard !layout.rightToLeft, !layout.decorates, layout.shelfOffsets.isEmpty, layout.zoomFirst == nil,
              TableRules.of(layout, .transitions) == nil else { return false }
        return layout.sections.allSatisfy { sec in
            guard sec.rowSpacing >= 0, sec.columnSpacing >= 0 else { return false }
            switch sec.style {
            case .waterfall:
                // Round robin: the index groups the cells by lane (RectIndex.swift).
                guard let e = sec.engine as? WaterfallEngine else { return false }
                return e.order == .shortest || e.lanes == 1 || sec.items <= 1
            case .flow, .shelf: return true
            default: return false
            }
        }
    }

    /// Items of a chunk of a waterfall section of `lanes` lanes.
    static func chunk(_ lanes: Int) -> Int { Swift.max(64, lanes) }

    /// The whole table.
    var table: AttributeTable { w.table }

    /// The content length along the scroll axis (the table must be complete).
    var contentLength: Double { stack.vertical ? w.table.contentHeight : w.table.contentWidth }

    /// Every element not laid out yet starts at or after it, and the content is at least as long.
    var frontier: Double {
        if complete { return .infinity }
        guard let o = open else { return top }
        var low = o.bottom
        for c in 0..<o.g.C where next[c] < low { low = next[c] }
        return low
    }

    // MARK: Laying out

    /// Lays out the rest and completes the table.
    func finish() throws(PathFailure) {
        while !complete { try step() }
    }

    /// Lays out until the frontier is at least `x` (or everything is).
    func reach(_ x: Double) throws(PathFailure) {
        while !complete && !(frontier >= x) { try step() }
    }

    /// Lays out until cell `item` of section `s` is.
    func reach(section s: Int, item: Int) throws(PathFailure) {
        while !complete {
            if s < w.table.sectionStarts.count { return }
            if let o = open, o.section == s, o.item > item { return }
            try step()
        }
    }

    /// The element index of cell `item` of section `s`, laid out.
    func cell(section s: Int, item: Int) -> Int {
        if s < w.table.sectionStarts.count { return w.table.sectionStarts[s].firstCell + item }
        return open!.row.firstCell + item
    }

    /// One step: a chunk of the open waterfall section, the next section, or the table's end.
    private func step() throws(PathFailure) {
        if let failure { throw failure }
        do throws(PathFailure) {
            try stepOnce()
        } catch {
            failure = error
            throw error
        }
    }

    private func stepOnce() throws(PathFailure) {
        guard incremental else {
            w.table = try SelfSizingPath.lay(layout)
            complete = true
            return
        }
        if open == nil, w.table.sectionStarts.count == layout.sections.count { return try close() }
        do throws(Diagnostic) {
            if open != nil {
                try placeChunk()
                return
            }
            let s = w.table.sectionStarts.count
            let sec = layout.sections[s]
            opened.append(Opened(firstElement: w.table.elements.count, begin: top))
            if let e = sec.engine as? WaterfallEngine {
                // The header and `ins.top`, then steps 1-3 of the waterfall (Waterfall.items).
                let (row, start) = stack.open(sec, at: top, into: &w.table.elements)
                let g = Waterfall.Geometry(sec, e, stack)
                next.update(repeating: start, count: g.C)
                open = OpenWaterfall(section: s, row: row, g: g, bottom: start, item: 0)
                checkpoints.append([])
                if sec.items == 0 { try closeWaterfall() }
            } else {
                checkpoints.append([])
                top = try stack.lay(sec, sec.engine, top: top, into: &w)
            }
        } catch {
            throw .layout(LayoutFailure([error]))
        }
    }

    /// Steps 4-10 for the items of the open waterfall section's next chunk.
    private func placeChunk() throws(Diagnostic) {
        guard var o = open else { return }
        let sec = layout.sections[o.section]
        let k = ResumableLayout.chunk(o.g.C)
        if o.item % k == 0, checkpoints[o.section].count == o.item / k {
            checkpoints[o.section].append(Checkpoint(next: Array(UnsafeBufferPointer(start: next, count: o.g.C)), bottom: o.bottom))
        }
        let end = Swift.min(sec.items, o.item - o.item % k + k)
        o.g.enter(sec, stack, machine: &w.machine)
        var noLanes: [UInt16] = []
        var noLeaves = RectIndex.LeafBuilder(storage: [], active: false)
        // Warnings (a capped span) are the measured table's; not said again here.
        var capped: Waterfall.CappedSpan? = nil
        // The machine and the elements as locals (one owner each, no overlapping accesses to `w`).
        var m = w.machine
        var elements = w.table.elements
        w.table.elements = []
        var failure: Diagnostic? = nil
        do {
            try Waterfall.place(sec, o.g, o.item..<end, next: next, bottom: &o.bottom, machine: &m, into: &elements,
                                recordLanes: false, firstLanes: &noLanes, leaves: &noLeaves, capped: &capped)
        } catch {
            failure = error
        }
        m.inItem = false
        w.machine = m
        w.table.elements = elements
        if let failure { throw failure }
        o.item = end
        open = o
        if end == sec.items { try closeWaterfall() }
    }

    /// `ins.bottom` and the footer of the open waterfall section.
    private func closeWaterfall() throws(Diagnostic) {
        guard var o = open else { return }
        top = try stack.close(layout.sections[o.section], bottom: o.bottom, index: &o.row, into: &w.table.elements)
        w.table.sectionStarts.append(o.row)
        open = nil
    }

    /// The end of the table: what `Sections.layout` adds to the sections (its content size, its
    /// scroll geometry, the environment, its index, the check of its frames).
    private func close() throws(PathFailure) {
        stack.setContentSize(&w.table, top: top)
        // The waterfall's whole-layout path notes no scroll geometry; the others do.
        if layout.style != .waterfall { w.table.noteScrollGeometry(layout, itemsStart: w.itemsStart, firstSize: w.firstSize) }
        if layout.safeArea != Insets() || !layout.device.isEmpty {
            w.table.scroll.safeArea = layout.safeArea
            w.table.scroll.device = layout.device
        }
        updateIndex()
        if case .failure(let f) = FiniteFrames.checked(layout, .success(w.table)) { throw .layout(f) }
        complete = true
    }

    /// Brings the index up to date with the elements laid out.
    func updateIndex() {
        let from = Swift.min(indexFrom, w.table.index.count, w.table.elements.count)
        if from < w.table.elements.count || w.table.index.count != w.table.elements.count {
            w.table.index.update(w.table.elements, changedFrom: from)
        }
        indexFrom = w.table.elements.count
    }

    /// Cell `item` of section `s` changed its size: what follows it is laid out again when needed.
    func changed(section s: Int, item: Int) throws(PathFailure) {
        if let failure { throw failure }
        guard incremental else {
            w.table = try SelfSizingPath.lay(layout)
            complete = true
            return
        }
        complete = false
        let sec = layout.sections[s]
        let cut: Int
        if let engine = sec.engine as? WaterfallEngine {
            // Resume at the chunk of the cell, with its lanes.
            let k = ResumableLayout.chunk(engine.lanes)
            let c = item / k
            let cp = checkpoints[s][c]
            var o: OpenWaterfall
            if let current = open, current.section == s {
                o = current
            } else {
                // A finished section opens again: closing it rewrites its end, stop and footer.
                o = OpenWaterfall(section: s, row: w.table.sectionStarts[s], g: Waterfall.Geometry(sec, engine, stack),
                                  bottom: 0, item: 0)
            }
            o.bottom = cp.bottom
            o.item = c * k
            cp.next.withUnsafeBufferPointer { b in
                for lane in 0..<b.count { next[lane] = b[lane] }
            }
            cut = o.row.firstCell + o.item
            open = o
            opened.removeSubrange((s + 1)...)
            checkpoints.removeSubrange((s + 1)...)
            checkpoints[s].removeSubrange((c + 1)...)
        } else {
            // Lay the section out again from where it began.
            cut = opened[s].firstElement
            top = opened[s].begin
            open = nil
            opened.removeSubrange(s...)
            checkpoints.removeSubrange(s...)
        }
        if w.table.sectionStarts.count > s { w.table.sectionStarts.removeSubrange(s...) }
        w.table.elements.removeSubrange(cut...)
        // What the engines keep of a section beside its elements: a shelf's band.
        w.table.scroll.shelves.removeAll { $0.section >= s }
        indexFrom = Swift.min(indexFrom, cut)
    }

    /// The cells whose frames overlap `view` (rect queries' test), in table order: the laid out
    /// part must reach past the view (`reach`).
    func cells(overlapping view: Frame) -> [Int] {
        updateIndex()
        return w.table.index.query(view, in: w.table.elements).filter { w.table.elements[$0].kind == .cell }
    }
}
