/// The index behind rect queries (`count(x, y, w, h)`, `wfl run --rect`; docs/layout.md, "Rect
/// queries"): which elements overlap a rect, without testing every element.
///
/// ## The approach
///
/// A packed bounding-box tree over the elements in a fixed *sequence*: the elements are cut into
/// blocks of `leaf` neighbours in the sequence, each block keeps the bounding box of its frames,
/// and every `fan` boxes of one level are boxed again on the next, up to one root. A query walks
/// down from the root and skips every box that cannot hold an overlapping frame; the frames of the
/// blocks it reaches are tested exactly (open intervals on both axes, as docs/layout.md says). This is
/// sound for any sequence; it is fast when neighbours in the sequence are neighbours on the page,
/// and the engines choose the sequence so that they are:
///
/// - **Table order** for a waterfall with `order shortest`: each item starts where the lowest lane
///   ends, so minY (minX when horizontal) never decreases with the index while spans are 1, and
///   decreases only locally with spans. A block is then a thin slab along the scroll axis, and a
///   query touches the O(log n) boxes on the slab's border plus the blocks of the k answers: the
///   "running maximum of maxY plus two binary searches" of the issue, with the maximum kept per
///   block so that one very long item slows down only its own block.
/// - **Table order** for flow: lines are sorted along the scroll axis, each item inside its line.
/// - **Lane by lane** for a waterfall section with a round-robin order (`leftToRight`,
///   `rightToLeft`): lanes grow at different speeds, so table order would put items far apart on
///   the page in one block. Such a section's cells are regrouped by their first lane (index
///   order within a lane); a lane's items are disjoint and sorted along the scroll axis, spans
///   included (an item spanning lanes c..<c+k is after every earlier item of lane c). A spanning
///   item lives only in its first lane's run, and its box carries its whole width, so the
///   cross-axis test stays exact.
/// - Headers and footers stay where table order puts them, between the sections: sections stack
///   along the scroll axis, so they are sorted too.
///
/// Horizontal layouts need nothing special: boxes have both axes. The answers come out in
/// sequence order; when the sequence is not table order they are sorted (k log k).
/// Offsets (pinned headers, zoomFirst) are handled by `AttributeTable.query(_:at:)` on top of
/// this index (ScrollOffsets.swift).
package struct RectIndex: Equatable, Sendable {
    /// Elements per leaf block, and boxes per box of the next level.
    static let leaf = 8
    static let fan = 8

    /// A bounding box: the smallest minX/minY and the largest maxX/maxY of what it holds.
    package struct Box: Equatable, Sendable {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        /// Computed, not a stored `static let`: that costs a `swift_once` check at each use.
        @inline(__always) static var empty: Box { Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity) }

        @inline(__always) mutating func add(_ b: Box) {
            if b.minX < minX { minX = b.minX }
            if b.minY < minY { minY = b.minY }
            if b.maxX > maxX { maxX = b.maxX }
            if b.maxY > maxY { maxY = b.maxY }
        }

        /// True when some frame inside may overlap `r` (open intervals).
        @inline(__always) func mayOverlap(_ r: Box) -> Bool {
            minX < r.maxX && r.minX < maxX && minY < r.maxY && r.minY < maxY
        }
    }

    /// The sequence: element indices in query order; nil means table order.
    var sequence: [Int32]?
    /// How many elements it covers (to notice a table changed after it was built).
    package private(set) var count = 0
    /// levels[0]: one box per leaf block; the last level has one box.
    var levels: [[Box]] = []

    package init() {}

    /// Builds the index of `elements`; `sequence` is a permutation of their indices (nil: table
    /// order).
    package init(_ elements: [Element], sequence: [Int32]? = nil) {
        self.init(elements, sequence: sequence, reusing: [])
    }

    /// The same index, its levels built in the storage of `spare` (an older index's levels), so
    /// that laying out again allocates nothing new.
    init(_ elements: [Element], sequence: [Int32]?, reusing spare: consuming [[Box]], leaves: consuming [Box]? = nil) {
        self.sequence = sequence
        count = elements.count
        guard count > 0 else { return }
        var spare = consume spare
        spare.reverse()
        // Leaf boxes already made in table order (LeafBuilder) stand for the first blocks.
        var made: [Box]? = sequence == nil ? consume leaves : nil
        func take(_ n: Int) -> [Box] {
            var a = spare.popLast() ?? []
            a.removeAll(keepingCapacity: true)
            a.reserveCapacity(n)
            return a
        }
        let count = self.count
        let blocks = (count + RectIndex.leaf - 1) / RectIndex.leaf
        var level: [Box]
        if let m = made?.count, m <= blocks, let boxes = made.take() {
            // Moved out of `made`, not copied: one owner, so growing it copies nothing.
            level = consume boxes
            level.reserveCapacity(blocks)
        } else {
            level = take(blocks)
        }
        elements.withUnsafeBufferPointer { el in
            for b in level.count..<blocks {
                var box = Box.empty
                let end = Swift.min(count, (b + 1) * RectIndex.leaf)
                if let sequence {
                    for p in (b * RectIndex.leaf)..<end {
                        let f = el[Int(sequence[p])].frame
                        box.add(Box(minX: f.x, minY: f.y, maxX: f.maxX, maxY: f.maxY))
                    }
                } else {
                    for p in (b * RectIndex.leaf)..<end {
                        let f = el[p].frame
                        box.add(Box(minX: f.x, minY: f.y, maxX: f.maxX, maxY: f.maxY))
                    }
                }
                level.append(box)
            }
        }
        levels.append(level)
        while level.count > 1 {
            let n = (level.count + RectIndex.fan - 1) / RectIndex.fan
            var up = take(n)
            for k in 0..<n {
                var box = Box.empty
                for c in (k * RectIndex.fan)..<Swift.min(level.count, (k + 1) * RectIndex.fan) { box.add(level[c]) }
                up.append(box)
            }
            levels.append(up)
            level = up
        }
    }

    /// Leaf boxes made while an engine writes the elements (in table order), a block as soon as
    /// its last element is written and still in cache, so that building the index does not read
    /// the whole table again (`init(_:sequence:reusing:leaves:)`).
    struct LeafBuilder {
        var boxes: [Box]
        /// False for a builder whose boxes nobody will use (an append): it then does nothing.
        var active: Bool

        init(storage: [Box], active: Bool = true) {
            boxes = storage
            boxes.removeAll(keepingCapacity: true)
            self.active = active
        }

        /// Boxes every complete block of `el` not boxed yet.
        @inline(__always) mutating func catchUp(_ el: UnsafeBufferPointer<Element>) {
            catchUp(el, upTo: el.count)
        }

        /// Boxes every block of `el` not boxed yet that lies wholly below `upTo` (the elements
        /// from `upTo` on are not final yet).
        @inline(__always) mutating func catchUp(_ el: UnsafeBufferPointer<Element>, upTo: Int) {
            guard active else { return }
            let full = upTo / RectIndex.leaf
            while boxes.count < full {
                let b = boxes.count
                var box = Box.empty
                for p in (b * RectIndex.leaf)..<((b + 1) * RectIndex.leaf) {
                    let f = el[p].frame
                    box.add(Box(minX: f.x, minY: f.y, maxX: f.maxX, maxY: f.maxY))
                }
                boxes.append(box)
            }
        }
    }

    /// True when the sequence is table order.
    var isTableOrder: Bool { sequence == nil }

    /// Brings the index up to date after the elements from `first` on changed, were added or were
    /// removed, re-boxing only the blocks from `first` on and the boxes above them: the same index
    /// a full build of `elements` gives. Only for table order (else it builds it again).
    mutating func update(_ elements: [Element], changedFrom first: Int) {
        guard sequence == nil, !levels.isEmpty, !elements.isEmpty, first >= 0, first <= count, first <= elements.count else {
            self = RectIndex(elements, sequence: sequence)
            return
        }
        count = elements.count
        let blocks = (count + RectIndex.leaf - 1) / RectIndex.leaf
        var lo = first / RectIndex.leaf
        // Each level is taken out of `levels` while it is worked on (one owner: no uniqueness
        // check, retain or release per box), and put back after.
        var below: [Box] = []
        swap(&below, &levels[0])
        RectIndex.resize(&below, to: blocks)
        elements.withUnsafeBufferPointer { el in
            below.withUnsafeMutableBufferPointer { level in
                for b in lo..<blocks {
                    var box = Box.empty
                    for p in (b * RectIndex.leaf)..<Swift.min(count, (b + 1) * RectIndex.leaf) {
                        let f = el[p].frame
                        box.add(Box(minX: f.x, minY: f.y, maxX: f.maxX, maxY: f.maxY))
                    }
                    level[b] = box
                }
            }
        }
        var l = 0
        while below.count > 1 {
            let n = (below.count + RectIndex.fan - 1) / RectIndex.fan
            if l + 1 == levels.count { levels.append([]) }
            var up: [Box] = []
            swap(&up, &levels[l + 1])
            RectIndex.resize(&up, to: n)
            lo /= RectIndex.fan
            below.withUnsafeBufferPointer { from in
                up.withUnsafeMutableBufferPointer { to in
                    for k in lo..<n {
                        var box = Box.empty
                        for c in (k * RectIndex.fan)..<Swift.min(from.count, (k + 1) * RectIndex.fan) { box.add(from[c]) }
                        to[k] = box
                    }
                }
            }
            swap(&below, &levels[l])
            below = up
            l += 1
        }
        swap(&below, &levels[l])
        levels.removeSubrange((l + 1)...)
    }

    private static func resize(_ level: inout [Box], to n: Int) {
        if level.count > n {
            level.removeSubrange(n...)
        } else if level.count < n {
            level.append(contentsOf: repeatElement(Box.empty, count: n - level.count))
        }
    }

    /// Whether this index was built for a table of `n` elements.
    package func covers(_ n: Int) -> Bool { count == n }

    /// Indices of the elements of `elements` whose frames overlap `r` (already normalised) on both
    /// axes as open intervals, in table order. `elements` must be the array it was built from.
    package func query(_ r: Frame, in elements: [Element]) -> [Int] {
        var out: [Int] = []
        // A viewport's worth of answers without growing the array several times.
        out.reserveCapacity(64)
        query(r, in: elements) { out.append($0) }
        if sequence != nil { out.sort() }
        return out
    }

    /// Calls `found` with each overlapping element's index, in sequence order. Inlined into its
    /// caller, whose `append` then needs no uniqueness check (a call) per answer.
    @inline(__always)
    func query(_ r: Frame, in elements: [Element], _ found: (Int) -> Void) {
        guard count > 0, count == elements.count, let root = levels.last?.first else { return }
        let q = Box(minX: r.x, minY: r.y, maxX: r.maxX, maxY: r.maxY)
        guard root.mayOverlap(q) else { return }
        // Depth-first over the boxes that may overlap: a box's children are tested before they
        // are pushed, and pushed in reverse so that blocks come out in sequence order. The stack
        // holds at most `fan` boxes a level.
        let depth = levels.count
        withUnsafeTemporaryAllocation(of: (level: Int, k: Int).self, capacity: depth * RectIndex.fan + 1) { stack in
            var sp = 0
            stack[sp] = (depth - 1, 0)
            sp += 1
            elements.withUnsafeBufferPointer { el in
                levels.withUnsafeBufferPointer { levels in
                    while sp > 0 {
                        sp -= 1
                        let (level, k) = stack[sp]
                        if level == 0 {
                            let end = Swift.min(count, (k + 1) * RectIndex.leaf)
                            if let sequence {
                                for p in (k * RectIndex.leaf)..<end {
                                    let j = Int(sequence[p])
                                    if el[j].frame.overlaps(q) { found(j) }
                                }
                            } else {
                                for j in (k * RectIndex.leaf)..<end where el[j].frame.overlaps(q) { found(j) }
                            }
                        } else {
                            levels[level - 1].withUnsafeBufferPointer { below in
                                let first = k * RectIndex.fan
                                var c = Swift.min(below.count, first + RectIndex.fan) - 1
                                while c >= first {
                                    if below[c].mayOverlap(q) {
                                        stack[sp] = (level - 1, c)
                                        sp += 1
                                    }
                                    c -= 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension Frame {
    /// The rect with negative sizes normalised (docs/layout.md, "Rect queries").
    package var normalised: Frame {
        var f = self
        if f.width < 0 {
            f.x += f.width
            f.width = -f.width
        }
        if f.height < 0 {
            f.y += f.height
            f.height = -f.height
        }
        return f
    }

    /// Overlap on both axes as open intervals.
    @inline(__always) package func overlaps(_ b: Frame) -> Bool {
        x < b.maxX && b.x < maxX && y < b.maxY && b.y < maxY
    }

    /// Overlap with a box (its min and max on both axes), as `overlaps`.
    @inline(__always) func overlaps(_ b: RectIndex.Box) -> Bool {
        x < b.maxX && b.minX < maxX && y < b.maxY && b.minY < maxY
    }
}
