/// The waterfall's modes (docs/layout.md, "Waterfall"): how step 5 picks a lane for each `order`,
/// and where step 8 takes an item's length from (`height` as a constant, a list or a rule; `size
/// W x H` scaled to the lane). `Waterfall.place` calls these once per item, in its numbered steps.

extension LaneOrder {
    /// 5. The first lane c of the run of k neighbouring lanes that item `i` goes in, with `next`
    /// (C lanes) where each lane's next item would go; `scratch` (C doubles) for `shortestRun`.
    @inline(__always)
    func firstLane(item i: Int, span k: Int, next: UnsafeMutablePointer<Double>, lanes C: Int,
                   scratch: UnsafeMutablePointer<Double>) -> Int {
        switch self {
        case .shortest:
            if k == 1 { return LaneOrder.shortestLane(next, C).lane }
            // Few windows or short ones: the plain scan costs no more than two passes.
            if (C - k + 1) * (k - 1) <= 2 * C { return LaneOrder.shortestRunScan(next, C, k) }
            return LaneOrder.shortestRunSkipping(next, C, k, budget: 2 * C)
                ?? LaneOrder.shortestRun(next, C, k, scratch: scratch)
        case .leftToRight:
            return Swift.min(i % C, C - k)
        case .rightToLeft:
            return Swift.min(C - 1 - (i % C), C - k)
        }
    }

    /// The first lane of the run of k lanes whose largest `next` is smallest; ties (exactly equal
    /// doubles): the smallest. Every window's largest next, one window after another: (C - k + 1)
    /// * k steps. The plain twin of `shortestRun`.
    static func shortestRunScan(_ next: UnsafeMutablePointer<Double>, _ C: Int, _ k: Int) -> Int {
        var c = 0
        var best = Double.infinity
        for start in 0...(C - k) {
            var runMax = next[start]
            for lane in (start + 1)..<(start + k) where next[lane] > runMax { runMax = next[lane] }
            if runMax < best {
                best = runMax
                c = start
            }
        }
        return c
    }

    /// The same choice as `shortestRunScan`, passing over the windows that cannot win: a lane
    /// whose next is at least the best window's largest so far rules out every window that holds
    /// it (a window wins only with a smaller largest next). So each window's lanes are read from
    /// its right end, and at such a lane the search goes on with the window just after it; lanes
    /// a placement levelled make these steps long. A window with no such lane is a new best, its
    /// largest next taken as the scan takes it. nil once `budget` lanes are read without an
    /// answer: the caller then takes `shortestRun`, whose cost does not depend on the lanes.
    static func shortestRunSkipping(_ next: UnsafeMutablePointer<Double>, _ C: Int, _ k: Int, budget: Int) -> Int? {
        var c = 0
        var best = Double.infinity
        var start = 0
        var reads = 0
        while start <= C - k {
            var j = start + k - 1
            while j >= start, !(next[j] >= best) { j -= 1 }
            if j >= start {
                // Lane j rules out the windows start ... j.
                reads += start + k - j
                start = j + 1
            } else {
                // Every lane below the best: the window's largest next, as the scan reads it.
                var runMax = next[start]
                for lane in (start + 1)..<(start + k) where next[lane] > runMax { runMax = next[lane] }
                reads += 2 * k
                if runMax < best {
                    best = runMax
                    c = start
                }
                start += 1
            }
            if reads > budget { return nil }
        }
        return c
    }

    /// The same choice as `shortestRunScan` in about 2C steps whatever k is (van Herk and
    /// Gil-Werman): cut the lanes into blocks of k from lane 0; a window of k lanes is the end of
    /// one block and the start of the next, so its largest next is the larger of the block's
    /// suffix maximum at its first lane and the next block's prefix maximum at its last. A
    /// maximum is one of the doubles compared, so every window's value is the scan's exactly, and
    /// windows are taken in the same order with the same strict `<`.
    static func shortestRun(_ next: UnsafeMutablePointer<Double>, _ C: Int, _ k: Int, scratch suffix: UnsafeMutablePointer<Double>) -> Int {
        // Block by block, so that the inner loops carry no test for a block's edge.
        // suffix[j] = max(next[j ... the last lane of j's block]).
        var blockStart = 0
        while blockStart < C {
            var j = Swift.min(blockStart + k, C) - 1
            var running = next[j]
            suffix[j] = running
            while j > blockStart {
                j -= 1
                let v = next[j]
                running = v > running ? v : running
                suffix[j] = running
            }
            blockStart += k
        }
        // The window at c ends at lane e = c + k - 1; prefix = max(next[e's block start ... e]).
        // The lanes before k - 1 (the first block's) only build its prefix.
        var c = 0
        var best = Double.infinity
        blockStart = 0
        while blockStart < C {
            let end = Swift.min(blockStart + k, C)
            var prefix = -Double.infinity
            var e = blockStart
            while e < end, e < k - 1 {
                let v = next[e]
                prefix = v > prefix ? v : prefix
                e += 1
            }
            while e < end {
                let v = next[e]
                prefix = v > prefix ? v : prefix
                let start = e - k + 1
                let s = suffix[start]
                let windowMax = s > prefix ? s : prefix
                if windowMax < best {
                    best = windowMax
                    c = start
                }
                e += 1
            }
            blockStart += k
        }
        return c
    }

    /// The lane whose `next` is smallest, and that `next`; ties (exactly equal doubles): the
    /// smallest lane.
    @inline(__always)
    static func shortestLane(_ next: UnsafeMutablePointer<Double>, _ C: Int) -> (lane: Int, next: Double) {
        var c = 0
        var best = next[0]
        var lane = 1
        while lane < C {
            if next[lane] < best {
                best = next[lane]
                c = lane
            }
            lane += 1
        }
        return (c, best)
    }
}

/// Step 8 for a section's items: its `height` (`width` when horizontal) or `size` rule, taken apart
/// once rather than per item. `height 100` and `height [..]` read nothing of the machine and need no
/// per-item set-up; a flat length rule (FlatRule.swift) runs without copying the rule per item, and
/// when it reads none of i, w and col they are set only before the compiled rule runs.
struct ItemLengths {
    let vertical: Bool
    let scale: Double
    /// The machine's variables a length rule may read.
    let sizeMask: UInt64
    /// `height`/`width` alone, or the two sides of `size W x H`.
    let lengthRule: ItemRule?
    let naturalRules: (ItemRule, ItemRule)?
    /// `height 100`.
    let constant: Double?
    /// `height [100, 150]`, with the element the next item takes.
    let cycle: [Double]
    var cycleAt: Int
    /// A constant or a list: no machine.
    let plain: Bool
    /// The length rule's flat program, when it has one (`hasFlat`).
    let flat: FlatRule
    let hasFlat: Bool
    /// A flat rule, no span rule, and none of i, w, h, col read: set only before the compiled rule.
    let lazyVars: Bool
    /// A flat rule, no span rule, reading `i` but none of w, h, col: the short path sets `i`
    /// for each item before the flat rule runs, and the rest only the general loop needs.
    let flatReadsOnlyI: Bool

    /// The lengths of `sec`'s items from item `first` on.
    init(_ sec: ResolvedSection, scale: Double, vertical: Bool, from first: Int) {
        self.vertical = vertical
        self.scale = scale
        sizeMask = vertical ? VarSets.verticalSize : VarSets.horizontalSize
        var lengthRule: ItemRule? = nil
        var naturalRules: (ItemRule, ItemRule)? = nil
        switch sec.size {
        case .length(let r): lengthRule = r
        case .natural(let a, let b): naturalRules = (a, b)
        }
        self.lengthRule = lengthRule
        self.naturalRules = naturalRules
        var cycle: [Double] = []
        var constant: Double? = nil
        if let r = lengthRule {
            switch r.kind {
            case .cycle(let xs): cycle = xs
            case .constant(let d): constant = d
            default: break
            }
        }
        self.cycle = cycle
        self.constant = constant
        plain = !cycle.isEmpty || constant != nil
        flat = lengthRule?.flat ?? FlatRule()
        hasFlat = lengthRule?.flat != nil
        flatReadsOnlyI = hasFlat && sec.span == nil && flat.reads & (EngineVar.w.bit | EngineVar.h.bit | EngineVar.col.bit) == 0
        lazyVars = flatReadsOnlyI && flat.reads & EngineVar.i.bit == 0
        cycleAt = cycle.isEmpty ? 0 : first % cycle.count
    }

    /// True when `Waterfall.ShortPath` can take the lengths (with `order shortest` and no span
    /// rule): a constant, a list, or a flat rule reading none of w, h, col.
    var shortPathTakes: Bool { lengthRule != nil && (plain || flatReadsOnlyI) }

    /// 8. Item i's length in lane c with width w (its lane's length across): the `height` rule, or
    /// H * w / W for `size W x H` (floored to 1/scale); a diagnostic unless it is a finite number
    /// >= 0. The machine must have begun item i unless the lengths are `plain`.
    @inline(__always)
    mutating func length(_ i: Int, lane c: Int, width w: Double, section s: Int, machine m: inout Machine) throws(Diagnostic) -> Double {
        let h: Double
        if plain {
            if let d = constant {
                h = d
            } else {
                h = cycle[cycleAt]
                cycleAt += 1
                if cycleAt == cycle.count { cycleAt = 0 }
            }
        } else {
            let crossVar: EngineVar = vertical ? .w : .h
            m.available = sizeMask | VarSets.layout
            if !lazyVars {
                m.vars[crossVar.rawValue] = w
                m.vars[EngineVar.col.rawValue] = Double(c)
            }
            var value = 0.0
            let draws = m.randomCount
            if hasFlat, flat.run(&m, &value) {
                h = value
            } else if let rule = lengthRule {
                m.randomCount = draws
                if lazyVars {
                    m.vars[EngineVar.i.rawValue] = Double(i)
                    m.vars[crossVar.rawValue] = w
                    m.vars[EngineVar.col.rawValue] = Double(c)
                }
                h = try Waterfall.ruleValue(rule, &m, i, s)
            } else {
                let (wRule, hRule) = naturalRules!
                let nw = try Waterfall.ruleValue(wRule, &m, i, s)
                let nh = try Waterfall.ruleValue(hRule, &m, i, s)
                // Along the scroll axis: vertical h = H * w / W; horizontal w = W * h / H.
                let (along, across, acrossRule) = vertical ? (nh, nw, wRule) : (nw, nh, hRule)
                guard across > 0 else {
                    throw Diagnostic.error(.badNaturalSize, "\(acrossRule.what) of item \(i) of section \(s) is \(NumberFormat.format(across)): a natural size must be positive to be scaled to the lane",
                                           at: acrossRule.span)
                }
                var scaled = along * w / across
                if scale > 0 { scaled = (scaled * scale).rounded(.down) / scale }
                h = scaled
            }
        }
        guard h.isFinite, h >= 0 else {
            let rule = lengthRule ?? (vertical ? naturalRules!.1 : naturalRules!.0)
            throw Diagnostic.error(.badSize, "\(rule.what) of item \(i) of section \(s) is \(NumberFormat.format(h)): a size must be a finite number, at least 0",
                                   at: rule.span)
        }
        return h
    }
}
