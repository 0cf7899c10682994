/// The waterfall's common case on a short path: `order shortest`, no span rule, and a length that
/// is a constant, a list or a flat rule reading none of w, h, col (`ItemLengths.shortPathTakes`).
/// The same steps 5-10 of `Waterfall.place` with k = 1, compiled once for each kind of length
/// (`ShortLengths`) so that each loop keeps its state in registers.
/// `WaterfallPropertyTests.testShortPathIsTheGeneralLoop` proves it equal to the general loop.

extension Waterfall {
    /// At the first item it cannot take (the flat rule gives up, or h is not a finite number
    /// >= 0) it stops, and `place`'s general loop carries on from that item, state and all.
    struct ShortPath {
        let s: Int, C: Int
        let vertical: Bool
        let laneW: Double, pitch: Double, crossStart: Double, itemGap: Double
        /// The item after the section's last.
        let end: Int

        init(s: Int, _ g: Geometry, end: Int) {
            self.s = s
            C = g.C
            vertical = g.vertical
            laneW = g.laneW
            pitch = g.pitch
            crossStart = g.crossStart
            itemGap = g.itemGap
            self.end = end
        }

        /// Places the items from `start` on with the `ShortLengths` that fits `lengths`, moving
        /// `start` (and a list's position in `lengths`) past the items placed.
        func run(_ lengths: inout ItemLengths, from start: inout Int, next: UnsafeMutablePointer<Double>,
                 bottom: inout Double, machine m: inout Machine, into elements: inout [Element],
                 leaves: inout RectIndex.LeafBuilder) {
            m.available = lengths.sizeMask | VarSets.layout
            if let d = lengths.constant {
                var short = ConstantLengths(length: d)
                loop(&short, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
            } else if !lengths.cycle.isEmpty {
                var at = lengths.cycleAt
                lengths.cycle.withUnsafeBufferPointer { cyc in
                    var short = CycleLengths(lengths: cyc, at: at)
                    loop(&short, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
                    at = short.at
                }
                lengths.cycleAt = at
            } else if let simple = lengths.flat.simple {
                var short = SimpleLengths(rule: simple, sectionHash: Machine.itemHash(seed: m.seed, section: s, item: 0))
                loop(&short, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
            } else {
                var short = FlatLengths(rule: lengths.flat, section: s, settingI: !lengths.lazyVars)
                loop(&short, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
            }
        }

        /// The loop for one kind of length. The cells are written straight into the array's
        /// spare capacity (`Array.appendInPlace`), the loop's state in locals: per item the loop
        /// writes its frame, section, item, z-index and kind and nothing else.
        @inline(never)
        func loop<Lengths: ShortLengths>(_ lengths: inout Lengths, from start: inout Int, next: UnsafeMutablePointer<Double>,
                                        bottom: inout Double, machine m: inout Machine, into elements: inout [Element],
                                        leaves: inout RectIndex.LeafBuilder) {
            guard start < end else { return }
            let C = self.C, vertical = self.vertical, laneW = self.laneW, pitch = self.pitch, crossStart = self.crossStart
            let itemGap = self.itemGap, end = self.end, s = self.s
            // Lengths known valid up front (a constant, a list) are not checked per item.
            let checked = lengths.allValid
            var i = start, low = bottom
            let before = elements.count
            elements.appendInPlace(upTo: end - start) { table, first in
                // The loop's state in locals, written back after it.
                var out = table + first, k = i, b = low, l = lengths
                // The index's leaf blocks boxed as the cells are written, from the frames in
                // registers (the block in progress starts with the elements before `first` that
                // no box holds yet).
                leaves.catchUp(UnsafeBufferPointer(start: table, count: first), upTo: first)
                var boxer = LeafBoxer(active: leaves.active)
                for p in (first - first % RectIndex.leaf)..<first { boxer.add(table[p].frame, &leaves) }
                defer {
                    i = k
                    low = b
                    lengths = l
                }
                while k < end {
                    // 5. The lane whose next is smallest; ties: the smallest c.
                    let (c, y) = LaneOrder.shortestLane(next, C)
                    // 8. h (a finite number >= 0: NaN fails both tests).
                    let h: Double
                    if checked {
                        h = l.validLength(k, &m)
                    } else {
                        guard let v = l.length(k, &m), v >= 0, v < .infinity else { break }
                        h = v
                    }
                    l.advance()
                    // 9. frame = (laneX(c), y, w, h); 10. next[c] = y + h + rs.
                    let cross = crossStart + Double(c) * pitch
                    let frame = vertical ? Frame(x: cross, y: y, width: laneW, height: h) : Frame(x: y, y: cross, width: h, height: laneW)
                    out.initialize(to: Element(cell: k, section: s, frame: frame))
                    out += 1
                    boxer.add(frame, &leaves)
                    next[c] = y + h + itemGap
                    let maxAlong = y + h
                    if maxAlong > b { b = maxAlong }
                    k += 1
                }
                return out - table - first
            }
            precondition(elements.count - before == i - start)
            start = i
            bottom = low
        }
    }
}

extension Array where Element == TableElement {
    /// Appends up to `count` elements that `body` initialises in place: it gets the array's
    /// storage and the position of the first new element (the array's count), and returns how
    /// many it wrote there (at most `count`). The storage is grown first when it has less spare
    /// capacity than `count` (the engines reserve the whole table up front, so it never is in a
    /// layout). Nothing is written twice and nothing is checked per element, unlike `append`.
    ///
    /// `append(contentsOf:)` hands a sequence the array's spare capacity to initialise
    /// (`Sequence._copyContents(initializing:)`); `InPlace` answers it with `body`.
    mutating func appendInPlace(upTo count: Int, _ body: (UnsafeMutablePointer<TableElement>, Int) -> Int) {
        guard count > 0 else { return }
        if capacity - self.count < count { reserveCapacity(self.count + count) }
        let first = self.count
        withoutActuallyEscaping(body) { body in
            append(contentsOf: ElementsInPlace(first: first, limit: count, body: body))
        }
    }
}

/// A sequence whose elements `body` writes into the storage `append(contentsOf:)` offers
/// (`Array.appendInPlace`). Not nested in the array's extension: a type nested there is generic,
/// and its metadata would be looked up at each call.
private struct ElementsInPlace: Sequence {
    let first: Int, limit: Int
    let body: (UnsafeMutablePointer<TableElement>, Int) -> Int

    struct Iterator: IteratorProtocol {
        func next() -> TableElement? { nil }
    }
    func makeIterator() -> Iterator { Iterator() }
    var underestimatedCount: Int { 0 }

    func _copyContents(initializing spare: UnsafeMutableBufferPointer<TableElement>) -> (Iterator, Int) {
        guard let start = spare.baseAddress, spare.count >= limit else {
            preconditionFailure("appendInPlace: the array's spare capacity is smaller than asked")
        }
        let written = body(start - first, first)
        precondition(written >= 0 && written <= limit, "appendInPlace: wrote more than asked")
        return (Iterator(), written)
    }
}

/// Where `Waterfall.ShortPath` takes each item's length from.
protocol ShortLengths {
    /// Item i's length, or nil where the general loop must take over.
    mutating func length(_ i: Int, _ m: inout Machine) -> Double?
    /// Moves past the item whose length was taken.
    mutating func advance()
    /// True when every length it gives is a finite number >= 0 (known when it was made).
    var allValid: Bool { get }
    /// Item i's length, when `allValid`.
    mutating func validLength(_ i: Int, _ m: inout Machine) -> Double
}

extension ShortLengths {
    var allValid: Bool { false }
    @inline(__always) mutating func validLength(_ i: Int, _ m: inout Machine) -> Double { length(i, &m) ?? 0 }
}

/// `height 100`.
struct ConstantLengths: ShortLengths {
    let length: Double
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? { length }
    @inline(__always) func advance() {}
    var allValid: Bool { length >= 0 && length < .infinity }
    @inline(__always) func validLength(_ i: Int, _ m: inout Machine) -> Double { length }
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
    var allValid: Bool { lengths.allSatisfy { $0 >= 0 && $0 < .infinity } }
    @inline(__always) func validLength(_ i: Int, _ m: inout Machine) -> Double { lengths[at] }
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

/// Any other flat rule (FlatRule.swift) reading none of w, h and col; `i` is set for each item
/// when the rule reads it.
struct FlatLengths: ShortLengths {
    let rule: FlatRule
    let section: Int
    let settingI: Bool
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? {
        m.beginItem(i, section: section, settingI: settingI)
        var value = 0.0
        return rule.run(&m, &value) ? value : nil
    }
    @inline(__always) func advance() {}
}
