/// The waterfall's common case on a short path: `order shortest`, no span rule, and a length that
/// is a constant, a list or a flat rule reading none of i, w, col (`ItemLengths.shortPathTakes`).
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
                var short = FlatLengths(rule: lengths.flat, section: s)
                loop(&short, from: &start, next: next, bottom: &bottom, machine: &m, into: &elements, leaves: &leaves)
            }
        }

        /// The loop for one kind of length.
        @inline(never)
        func loop<Lengths: ShortLengths>(_ lengths: inout Lengths, from start: inout Int, next: UnsafeMutablePointer<Double>,
                                        bottom: inout Double, machine m: inout Machine, into elements: inout [Element],
                                        leaves: inout RectIndex.LeafBuilder) {
            while start < end {
                let i = start
                // 5. The lane whose next is smallest; ties: the smallest c.
                let (c, y) = LaneOrder.shortestLane(next, C)
                // 8. h.
                guard let h = lengths.length(i, &m), h.isFinite, h >= 0 else { break }
                lengths.advance()
                // 9. frame = (laneX(c), y, w, h); 10. next[c] = y + h + rs.
                let cross = crossStart + Double(c) * pitch
                elements.append(Element(cell: i, section: s, frame: vertical
                    ? Frame(x: cross, y: y, width: laneW, height: h) : Frame(x: y, y: cross, width: h, height: laneW)))
                next[c] = y + h + itemGap
                let maxAlong = y + h
                if maxAlong > bottom { bottom = maxAlong }
                start += 1
                if elements.count & (RectIndex.leaf - 1) == 0 { elements.withUnsafeBufferPointer { leaves.catchUp($0) } }
            }
        }
    }
}

/// Where `Waterfall.ShortPath` takes each item's length from.
protocol ShortLengths {
    /// Item i's length, or nil where the general loop must take over.
    mutating func length(_ i: Int, _ m: inout Machine) -> Double?
    /// Moves past the item whose length was taken.
    mutating func advance()
}

/// `height 100`.
struct ConstantLengths: ShortLengths {
    let length: Double
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? { length }
    @inline(__always) func advance() {}
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

/// Any other flat rule (FlatRule.swift) reading none of i, w and col.
struct FlatLengths: ShortLengths {
    let rule: FlatRule
    let section: Int
    @inline(__always) func length(_ i: Int, _ m: inout Machine) -> Double? {
        m.beginItem(i, section: section, settingI: false)
        var value = 0.0
        return rule.run(&m, &value) ? value : nil
    }
    @inline(__always) func advance() {}
}
