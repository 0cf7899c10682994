/// The groups engine (docs/layout.md, "Groups"): a section whose items are the leaves of a tree of
/// groups, as UICollectionViewCompositionalLayout lays out its items and groups. The top group is
/// laid out once (`GroupLayout.pattern`, called by the resolver so that its errors are found
/// whether or not the section has items), then repeats along the scroll axis: item i is leaf
/// `i mod m` of instance `floor(i / m)`. A pure function of a resolved section.

/// Lays out a resolved group tree (Evaluation/GroupResolver.swift).
package enum GroupLayout {
    /// How far past its group's content box a child may end and still fit (docs/layout.md,
    /// "Groups", step 2).
    static let fitTolerance = 1e-6

    /// The leaves of one instance of `top`, at its origin (0, 0), numbered depth-first, and the
    /// outlines of its groups.
    package static func pattern(_ top: GroupNode) throws(Diagnostic) -> GroupPattern {
        var out = GroupPattern(width: top.width, height: top.height, cells: [], outlines: [])
        try lay(top, x: 0, y: 0, into: &out)
        return out
    }

    /// Step 1: node `g` at (x, y), its size its own.
    static func lay(_ g: GroupNode, x: Double, y: Double, into out: inout GroupPattern) throws(Diagnostic) {
        switch g.kind {
        case .item:
            // An item's cell is its slot shrunk by its insets.
            let i = g.insets
            let cell = Frame(x: x + i.left, y: y + i.top, width: g.width - i.left - i.right, height: g.height - i.top - i.bottom)
            guard FiniteFrames.isFinite(cell) else { throw overflow(cell, g) }
            out.cells.append(cell)
            try checkLeaves(out, g)
            return
        default:
            break
        }
        if out.outlines.count < 100_000 { out.outlines.append(Frame(x: x, y: y, width: g.width, height: g.height)) }
        // The content box: the group less its insets.
        let bx = x + g.insets.left, by = y + g.insets.top
        let bw = g.width - g.insets.left - g.insets.right, bh = g.height - g.insets.top - g.insets.bottom
        if g.kind == .custom {
            // Step 4: leaf k at `frame` k, relative to the box's origin.
            for f in g.frames {
                let cell = Frame(x: bx + f.x, y: by + f.y, width: f.width, height: f.height)
                guard FiniteFrames.isFinite(cell) else { throw overflow(cell, g) }
                out.cells.append(cell)
                try checkLeaves(out, g)
            }
            return
        }
        let alongX = g.kind == .horizontal
        let L = alongX ? bw : bh
        let S = g.spacing
        func len(_ c: GroupNode) -> Double { alongX ? c.width : c.height }
        func place(_ c: GroupNode, at p: Double, _ out: inout GroupPattern) throws(Diagnostic) {
            try lay(c, x: alongX ? bx + p : bx, y: alongX ? by : by + p, into: &out)
        }
        if let n = g.count {
            // Step 3: exactly N copies, each (L - S * (N - 1)) / N long (the resolver sized them),
            // copy q at q * (len + S); no fit test.
            let c = g.children[0]
            let l = len(c)
            for q in 0..<n { try place(c, at: Double(q) * (l + S), &out) }
            return
        }
        // Step 2: the children, the list repeating, while each fits (p + len <= L + 1e-6).
        var offsets: [Double] = []
        var p = 0.0
        var j = 0
        while true {
            let c = g.children[j % g.children.count]
            if p + len(c) > L + fitTolerance {
                if offsets.isEmpty {
                    throw Diagnostic.error(.childTooLong, "the first child of this group is \(NumberFormat.format(len(c))) \(alongX ? "wide" : "tall"), longer than the group's content box, \(NumberFormat.format(L))",
                                           at: c.place, help: "make the child shorter along the group's axis (for example 'gw / 2'), or the group longer")
                }
                break
            }
            offsets.append(p)
            p = p + len(c) + S
            j += 1
            // A whole pass over the children that does not move p forward repeats without end.
            if j == g.children.count, p <= 0 { throw tooMany(g) }
            if out.cells.count + offsets.count > Resolver.maxLeaves { throw tooMany(g) }
        }
        // flexible, q >= 2 placed: child j moves by j * (L - used) / (q - 1), used = p - S.
        let q = offsets.count
        if g.flexible, q >= 2 {
            let used = p - S
            let extra = (L - used) / Double(q - 1)
            for k in 0..<q { offsets[k] += Double(k) * extra }
        }
        for k in 0..<q { try place(g.children[k % g.children.count], at: offsets[k], &out) }
    }

    @inline(__always)
    static func checkLeaves(_ out: GroupPattern, _ g: GroupNode) throws(Diagnostic) {
        if out.cells.count > Resolver.maxLeaves { throw tooMany(g) }
    }

    /// A leaf whose frame is not finite: a spacing, size or inset of its groups near the doubles'
    /// limit (`itemSpacing (-1.7e308)` in a group with `count 3` makes each copy Infinity long and
    /// puts the second at NaN). An error at the leaf, never a table with NaN in it.
    static func overflow(_ cell: Frame, _ g: GroupNode) -> Diagnostic {
        Diagnostic.error(.positionOverflow, "a leaf of the top group comes out with \(FiniteFrames.firstBadSide(cell)): the spacings, sizes or insets of its groups carry it past the largest number a position can have (about 1.8e308)",
                         at: g.place, help: "make the groups' 'itemSpacing', sizes and insets small enough for a screen")
    }

    static func tooMany(_ g: GroupNode) -> Diagnostic {
        Diagnostic.error(.tooManyLeaves, "the top group has more than 10,000,000 leaves, the most one group lays out", at: g.place,
                         help: "a child that is 0 long repeats without end: give it a length, or use 'count N'")
    }
}

/// The groups engine's configuration of a section: the gap between instances of the top group.
package struct GroupsEngine: Engine {
    /// `groupSpacing`: a spacing, so any finite number (negative: the instances overlap).
    package var groupSpacing: Double
    /// Where `groupSpacing` is written, for the no-room error of `checkExtent`.
    package var groupSpacingPlace: Span? = nil

    package static let style = LayoutStyle.groups

    package static func configure(_ settings: inout some SectionSettings) -> GroupsEngine {
        GroupsEngine(groupSpacing: settings.spacing(.groupSpacing, default: 0), groupSpacingPlace: settings.place(.groupSpacing))
    }

    /// 7. A section never ends before it starts (docs/layout.md, "Negative spacings"): a negative
    /// `groupSpacing` that pulls the last instance back so far that `bottom` is above the items'
    /// start is the no-room error at the spacing, as a flow's lines are.
    func checkExtent(_ sec: ResolvedSection, itemsStart: Double, bottom: Double) throws(Diagnostic) {
        if bottom >= itemsStart { return }
        throw Diagnostic.error(.noRoom, "the groups of section \(sec.index) leave no room: with 'groupSpacing' \(NumberFormat.format(groupSpacing)) they end \(NumberFormat.format(itemsStart - bottom)) before they start",
                               at: groupSpacingPlace ?? sec.place,
                               help: "make 'groupSpacing' larger, at least minus the top group's length along the scroll axis")
    }

    package func place(_ sec: ResolvedSection, from start: Double, _ stack: SectionStack,
                       into w: inout ElementWriter) throws(Diagnostic) -> Double {
        guard sec.groups != nil, sec.items > 0 else { return start }
        // Written through a buffer long enough for the section.
        let base = w.table.elements.count
        w.table.elements.append(contentsOf: repeatElement(Element(cell: 0, section: sec.index, frame: Frame(x: 0, y: 0, width: 0, height: 0)),
                                                          count: sec.items))
        // Taken out of the writer, not copied: appending to a copy would copy every box.
        var leaves = RectIndex.LeafBuilder(storage: [], active: false)
        swap(&leaves, &w.leaves)
        let bottom = w.table.elements.withUnsafeMutableBufferPointer { buffer in
            write(sec, from: start, vertical: stack.vertical, into: buffer, at: base, leaves: &leaves)
        }
        w.leaves = leaves
        try checkExtent(sec, itemsStart: start, bottom: bottom)
        if let o = outlines(sec, from: start, vertical: stack.vertical) { w.table.scroll.groups.append(o) }
        return bottom
    }

    /// The instances of `sec` (items at `start`), for the pictures' outlines: instance g at
    /// (ins.left, start + g * stride) (horizontal: (start + g * stride, ins.top)); nil when empty.
    func outlines(_ sec: ResolvedSection, from start: Double, vertical: Bool) -> GroupOutlines? {
        guard let pattern = sec.groups, sec.items > 0 else { return nil }
        let m = pattern.cells.count
        let stride = (vertical ? pattern.height : pattern.width) + groupSpacing
        let ins = sec.insets
        return GroupOutlines(section: sec.index, outlines: pattern.outlines,
                             origin: vertical ? Offset(x: ins.left, y: start) : Offset(x: start, y: ins.top),
                             stride: vertical ? Offset(x: 0, y: stride) : Offset(x: stride, y: 0), count: (sec.items + m - 1) / m)
    }

    /// The cells of `sec` (items at `start` along the scroll axis) written into `buffer` from
    /// `base` on, boxing the index's leaf blocks as each instance is written; returns `bottom`.
    ///
    /// vertical: instance g at (ins.left, top + g * (H + groupSpacing)); horizontal: at
    /// (top + g * (W + groupSpacing), ins.top). Each leaf's element is made once, the axis across
    /// already placed (a template); an instance copies the templates, adding its origin along the
    /// scroll axis and numbering the items.
    func write(_ sec: ResolvedSection, from start: Double, vertical: Bool, into buffer: UnsafeMutableBufferPointer<Element>, at base: Int,
               leaves: inout RectIndex.LeafBuilder) -> Double {
        guard let pattern = sec.groups, sec.items > 0 else { return start }
        let m = pattern.cells.count
        let n = sec.items
        let ins = sec.insets
        let stride = (vertical ? pattern.height : pattern.width) + groupSpacing
        // Each leaf's frame with the axis across placed (a template); an instance adds its origin
        // along the scroll axis.
        let templates = pattern.cells.map { c in
            vertical ? Frame(x: ins.left + c.x, y: c.y, width: c.width, height: c.height) : Frame(x: c.x, y: ins.top + c.y, width: c.width, height: c.height)
        }
        // The index's leaf blocks are boxed as the cells are written (the block in progress
        // starts with the elements before `base` that no box holds yet).
        leaves.catchUp(UnsafeBufferPointer(buffer), upTo: base)
        var boxer = LeafBoxer(active: leaves.active)
        for p in (base - base % RectIndex.leaf)..<base { boxer.add(buffer[p].frame, &leaves) }
        let s = sec.index
        templates.withUnsafeBufferPointer { t in
            var out = buffer.baseAddress! + base
            var i = 0, g = 0
            while i < n {
                let origin = start + Double(g) * stride
                let count = Swift.min(m, n - i)
                for k in 0..<count {
                    var f = t[k]
                    if vertical { f.y = origin + f.y } else { f.x = origin + f.x }
                    out.initialize(to: Element(cell: i &+ k, section: s, frame: f))
                    out += 1
                    boxer.add(f, &leaves)
                }
                i += count
                g += 1
            }
        }
        // bottom = the last instance's y + H (horizontal: x + W); a partly filled one keeps its size.
        let last = (n - 1) / m
        return start + Double(last) * stride + (vertical ? pattern.height : pattern.width)
    }

    /// A layout whose sections are all groups sections, laid out whole (`GroupsEngine.layout`).
    package static var hasWholePath: Bool { true }

    package static func layoutWhole(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                                    spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure>? {
        GroupsEngine.layout(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
    }

    /// Every section of `layout` (all groups sections, else the stacker's path), in the storage
    /// of an older table's elements and index levels (`AttributeTable.relayout`), as the flow's
    /// whole-layout path does: the elements are written through a pointer into an array made
    /// long enough first and cut to size after, and the index's leaf blocks are boxed as they
    /// are written.
    static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                       spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure> {
        let engines = layout.sections.compactMap { $0.engine as? GroupsEngine }
        guard engines.count == layout.sections.count else {
            return Sections.stackedResult(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
        }
        var table = SectionStack.table(for: layout)
        var elements = SectionStack.writableElements(spareElements, for: layout)
        let most = elements.count
        let stack = SectionStack(layout)
        table.sectionStarts.reserveCapacity(layout.sections.count)
        // Sections stack along the scroll axis with nothing between them; `top` starts at 0.
        var top = layout.start
        var spareLevels = consume spareLevels
        var leaves = RectIndex.LeafBuilder(storage: spareLevels.isEmpty ? [] : spareLevels.removeFirst())
        leaves.boxes.reserveCapacity(most / RectIndex.leaf + 1)
        var count = 0
        let failure: Diagnostic? = elements.withUnsafeMutableBufferPointer { buffer in
            var out = Flow.Output(elements: buffer, count: 0)
            defer { count = out.count }
            for (sec, engine) in zip(layout.sections, engines) {
                do throws(Diagnostic) {
                    // The header and ins.top, the cells, ins.bottom and the footer (SectionStack.lay).
                    var (index, start) = stack.open(sec, at: top, into: &out)
                    let bottom = engine.write(sec, from: start, vertical: stack.vertical, into: buffer, at: out.count, leaves: &leaves)
                    try engine.checkExtent(sec, itemsStart: start, bottom: bottom)
                    if let o = engine.outlines(sec, from: start, vertical: stack.vertical) { table.scroll.groups.append(o) }
                    // No pattern (never without an error from the resolver): no cells.
                    if sec.groups != nil { out.count += sec.items }
                    top = try stack.close(sec, bottom: bottom, index: &index, into: &out)
                    table.sectionStarts.append(index)
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
        table.noteScrollGeometry(layout, itemsStart: 0, firstSize: nil)
        // The leaves taken out of the builder, so that the index owns them alone (no copy when it
        // adds to them).
        var boxes: [RectIndex.Box] = []
        swap(&boxes, &leaves.boxes)
        table.index = RectIndex(table.elements, sequence: nil, reusing: consume spareLevels, leaves: boxes)
        return .success(table)
    }
}

/// The box of the index's leaf block in progress, made as its elements are written; each block
/// completed joins `LeafBuilder.boxes` (the same boxes `LeafBuilder.catchUp` makes).
struct LeafBoxer {
    let active: Bool
    var box = RectIndex.Box.empty
    var filled = 0

    init(active: Bool) { self.active = active }

    @inline(__always) mutating func add(_ f: Frame, _ leaves: inout RectIndex.LeafBuilder) {
        box.add(RectIndex.Box(minX: f.x, minY: f.y, maxX: f.maxX, maxY: f.maxY))
        filled += 1
        if filled == RectIndex.leaf {
            if active { leaves.boxes.append(box) }
            box = .empty
            filled = 0
        }
    }
}
