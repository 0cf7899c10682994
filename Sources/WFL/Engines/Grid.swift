/// The tile grid engine (docs/layout.md, "Tile grids"): a grid of N equal lanes (columns when
/// vertical, rows when horizontal) and equal lines along the scroll axis, each item covering the
/// `tile C x R` cells its rule gives, placed as CSS Grid's auto-placement places spanning items
/// (`grid-auto-flow: row` or `row dense`; horizontal: `column`, column-major). A pure function of a
/// resolved section; every formula is computed in doubles in the order docs/layout.md writes it.
///
/// The code works on a "main" axis (the scroll axis: rows of a vertical grid) and a "cross" axis
/// (the N lanes): a tile is `along` lines long and `across` lanes wide, C x R physically.
package enum Grid {
    /// The most lines a tile may cover along the scroll axis.
    static let maxAlong = 1_000

    /// The most cells the taken map holds at once (1 GiB): beyond it a layout is an error, not a
    /// failed allocation.
    static let maxCells = 1 << 30

    /// Which cells are taken: one byte a cell, `lanes` to a line, for a window of lines that slides
    /// along the scroll axis. Cells are only ever taken, never freed: what did not fit somewhere
    /// never fits there later, so the lines no search starts from again are dropped (sparse: those
    /// above the cursor's line; dense: the full lines at the top) when the window would grow.
    struct Cells: ~Copyable {
        let lanes: Int
        let dense: Bool
        /// The first line held; lines `base ..< lines` exist.
        private(set) var base = 0
        private(set) var lines = 0
        /// Every line above it is full (dense: where searches start, the grid's start in effect).
        private(set) var firstNonFull = 0
        /// Sparse: the cursor's line, above which no search starts again.
        var low = 0
        /// Set when the window would pass `maxCells`; the engine then reports the error.
        private(set) var overBudget = false
        private var taken: UnsafeMutablePointer<UInt8>
        private var capacity: Int

        init(lanes: Int, dense: Bool) {
            self.lanes = lanes
            self.dense = dense
            capacity = lanes * 64
            taken = .allocate(capacity: capacity)
        }

        deinit { taken.deallocate() }

        @inline(__always)
        private func full(_ line: Int) -> Bool {
            let row = taken + (line - base) * lanes
            for k in 0..<lanes where row[k] == 0 { return false }
            return true
        }

        /// Makes lines up to `count` exist (free when new) for a search at line `a`; false when
        /// that would pass `maxCells`. Inlined where it is a comparison; the rest is `grow`.
        @inline(__always)
        mutating func ensure(_ a: Int, _ count: Int) -> Bool {
            count <= lines || grow(a, count)
        }

        /// `ensure` when lines up to `count` do not exist yet.
        @inline(never)
        private mutating func grow(_ a: Int, _ count: Int) -> Bool {
            if (count - base) * lanes > capacity {
                // Drop the lines no search reads again (never line `a`, being read).
                if dense {
                    while firstNonFull < lines && full(firstNonFull) { firstNonFull += 1 }
                }
                let drop = min(dense ? firstNonFull : low, a, lines) - base
                if drop > 0 {
                    taken.update(from: taken + drop * lanes, count: (lines - base - drop) * lanes)
                    base += drop
                }
            }
            let needed = (count - base) * lanes
            if needed > capacity {
                guard needed <= Grid.maxCells else {
                    overBudget = true
                    return false
                }
                var grown = capacity * 2
                while grown < needed { grown *= 2 }
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
                bigger.update(from: taken, count: (lines - base) * lanes)
                taken.deallocate()
                taken = bigger
                capacity = grown
            }
            // Lines made ahead, as far as the storage holds (up to 256): free lines are what a
            // line not made yet is, and this is not done again for each new line.
            let made = Swift.max(count, Swift.min(lines + 256, base + capacity / lanes))
            (taken + (lines - base) * lanes).initialize(repeating: 0, count: (made - lines) * lanes)
            lines = made
            return true
        }

        /// True when lines a ..< a + along by lanes b ..< b + across are all free (false, and
        /// `overBudget` set, when they would pass `maxCells`).
        @inline(__always)
        mutating func free(_ a: Int, _ b: Int, along: Int, across: Int) -> Bool {
            guard ensure(a, a &+ along) else { return false }
            var row = taken + ((a &- base) &* lanes &+ b)
            var r = 0
            while r < along {
                var k = 0
                while k < across {
                    if row[k] != 0 { return false }
                    k &+= 1
                }
                row += lanes
                r &+= 1
            }
            return true
        }

        /// Takes lines a ..< a + along by lanes b ..< b + across.
        @inline(__always)
        mutating func take(_ a: Int, _ b: Int, along: Int, across: Int) {
            var row = taken + (a - base) * lanes + b
            for _ in 0..<along {
                row.update(repeating: 1, count: across)
                row += lanes
            }
        }
    }

    /// The cursor each tile shape searches from under `packing dense`: since cells are never
    /// freed, a shape that did not fit before a place never fits there later, so its search may
    /// start where the last item of that shape went (the grid's start for a new shape). Each
    /// item then scans from its shape's cursor, which only moves forward: linear time for a
    /// bounded set of shapes. Shapes are few (a quilted pattern's); kept in a short array.
    struct DenseCursors {
        var shapes: [Int] = []
        /// Where the last item of each shape went: its line and lane.
        var places: [(line: Int, lane: Int)] = []

        @inline(__always)
        mutating func slot(_ shape: Int) -> Int {
            let found: Int? = shapes.withUnsafeBufferPointer { b in
                for k in b.indices where b[k] == shape { return k }
                return nil
            }
            if let found { return found }
            shapes.append(shape)
            places.append((0, 0))
            return shapes.count - 1
        }
    }

    /// The steps of docs/layout.md, "Tile grids", for the items of one section, from `top`, its
    /// header and insets already written; returns where its items end (`bottom`).
    static func items(_ sec: ResolvedSection, _ e: GridEngine, _ stack: SectionStack, top: Double,
                      into w: inout ElementWriter) throws(Diagnostic) -> Double {
        let s = sec.index
        let n = sec.items
        let vertical = stack.vertical
        let ins = sec.insets
        let (aw, ah) = stack.available(sec)
        // 1. N = columns (rows when horizontal), adaptive already applied.
        let N = e.lanes
        // 2. colW = (aw - (N - 1) * cs) / N; rh = rowHeight (w = colW). Horizontal:
        //    rh = (ah - (N - 1) * rs) / N; colW = columnWidth (h = rh).
        let laneGap = vertical ? sec.columnSpacing : sec.rowSpacing
        let lineGap = vertical ? sec.rowSpacing : sec.columnSpacing
        let laneW = ((vertical ? aw : ah) - Double(N - 1) * laneGap) / Double(N)
        let lineL = e.lineLength ?? laneW
        let crossStart = vertical ? ins.left : ins.top
        // bottom: the largest maxY (maxX) of the items; top when there are none.
        var bottom = top
        guard n > 0 else { return bottom }

        stack.enter(sec, machine: &w.machine)
        w.machine.set(.full, Double(N))
        w.machine.inItem = true
        defer { w.machine.inItem = false }
        let columnsRule = sec.rules[.tileColumns], rowsRule = sec.rules[.tileRows]
        var clamped: (item: Int, side: Double)? = nil
        // Tiles from constants or lists of constants (a quilted pattern) are read without the
        // machine when every value is a valid side; otherwise each item's rule runs (and an
        // invalid value stops at the first item that has it).
        func constants(_ r: ItemRule?) -> [Double]? {
            guard let r else { return [1] }
            switch r.kind {
            case .constant(let d): return [d]
            case .cycle(let xs) where !xs.isEmpty: return xs
            default: return nil
            }
        }
        var pattern: (columns: [Double], rows: [Double])? = nil
        if let cs = constants(columnsRule), let rs = constants(rowsRule),
           (cs + rs).allSatisfy({ isWhole($0) && $0 >= 1 }), (vertical ? rs : cs).allSatisfy({ $0 <= Double(maxAlong) }) {
            pattern = (cs, rs)
        }

        // 3. cursor = (0, 0); every cell free.
        var cells = Cells(lanes: N, dense: e.packing == .dense)
        let dense = e.packing == .dense
        var cursor = (line: 0, lane: 0)
        var cursors = DenseCursors()
        var elements = w.table.elements
        w.table.elements = []
        defer { w.table.elements = elements }
        elements.reserveCapacity(elements.count + n)
        // The index's leaf blocks boxed as the cells are written (the block in progress starts
        // with the elements before this section's that no box holds yet).
        var boxer = LeafBoxer(active: w.leaves.active)
        elements.withUnsafeBufferPointer { el in
            w.leaves.catchUp(el)
            for p in (el.count - el.count % RectIndex.leaf)..<el.count { boxer.add(el[p].frame, &w.leaves) }
        }
        // The pattern's positions, moving on with each item (i mod its lengths).
        var atColumns = 0, atRows = 0
        let hasPattern = pattern != nil, patternColumns = pattern?.columns ?? [], patternRows = pattern?.rows ?? []
        for i in 0..<n {
            // 4. tile C x R from the item rule: C drawn before R, each a whole number >= 1.
            var C = 1.0, R = 1.0
            if hasPattern {
                C = patternColumns[atColumns]
                R = patternRows[atRows]
                atColumns += 1
                if atColumns == patternColumns.count { atColumns = 0 }
                atRows += 1
                if atRows == patternRows.count { atRows = 0 }
            } else if columnsRule != nil || rowsRule != nil {
                w.machine.beginItem(i, section: s)
                w.machine.available = VarSets.span | VarSets.layout
                if let rule = columnsRule { C = try side(rule, &w.machine, i, s) }
                if let rule = rowsRule { R = try side(rule, &w.machine, i, s) }
            }
            // The span along the scroll axis is at most 1,000; across, more than N is clamped to N.
            let (alongSide, acrossSide) = vertical ? (R, C) : (C, R)
            if alongSide > Double(maxAlong) {
                let rule = (vertical ? rowsRule : columnsRule)!
                throw Diagnostic.error(.tileTooLong, "item \(i) of section \(s) is \(NumberFormat.format(alongSide)) \(vertical ? "rows" : "columns") long: a tile covers at most 1,000 along the scroll axis",
                                       at: rule.span, help: "make the tile shorter along the scroll axis")
            }
            if acrossSide > Double(N), clamped == nil { clamped = (i, acrossSide) }
            let along = Int(alongSide)
            let across = acrossSide > Double(N) ? N : Int(acrossSide)

            // 5. (a, b) = the cursor (sparse) or (0, 0) (dense; here its shape's cursor, which
            //    no earlier place fits); repeat: if b + across > N, the next line at lane 0;
            //    else if the cells are free, stop; else the next lane.
            let shapeSlot = dense ? cursors.slot(across &* 1001 &+ along) : 0
            //    The lines above the first one not full hold no place: dense searches start there.
            var (a, b) = dense ? cursors.places[shapeSlot] : cursor
            if dense, a < cells.firstNonFull { (a, b) = (cells.firstNonFull, 0) }
            cells.low = a
            while true {
                if b + across > N {
                    a += 1
                    b = 0
                } else if cells.free(a, b, along: along, across: across) {
                    break
                } else if cells.overBudget {
                    throw Diagnostic.error(.gridTooLarge, "section \(s) is a grid too large to place: item \(i) would need more than \(NumberFormat.format(Double(Grid.maxCells))) cells held at once",
                                           at: (vertical ? rowsRule : columnsRule)?.span ?? sec.place, help: "make the tiles shorter along the scroll axis, or the grid narrower")
                } else {
                    b += 1
                }
            }
            // 6. Take them; cursor = (a, b).
            cells.take(a, b, along: along, across: across)
            if dense { cursors.places[shapeSlot] = (a, b) } else { cursor = (a, b) }
            // 7. frame = (ins.left + c * (colW + cs), top + r * (rh + rs), C * colW + (C - 1) * cs,
            //    R * rh + (R - 1) * rs); horizontal: (top + c * (colW + cs), ins.top + r * (rh + rs), ...).
            let crossPos = crossStart + Double(b) * (laneW + laneGap)
            let alongPos = top + Double(a) * (lineL + lineGap)
            let crossLen = Double(across) * laneW + Double(across - 1) * laneGap
            let alongLen = Double(along) * lineL + Double(along - 1) * lineGap
            let frame = vertical ? Frame(x: crossPos, y: alongPos, width: crossLen, height: alongLen)
                : Frame(x: alongPos, y: crossPos, width: alongLen, height: crossLen)
            elements.append(Element(cell: i, section: s, frame: frame))
            boxer.add(frame, &w.leaves)
            let end = alongPos + alongLen
            if end > bottom { bottom = end }
        }
        if let clamped {
            let rule = (vertical ? columnsRule : rowsRule)!
            let word = vertical ? "columns" : "rows"
            w.warnings.append(.warning(.tileClamped, "item \(clamped.item) of section \(s) is a tile \(NumberFormat.format(clamped.side)) \(word) wide, more than the grid's \(N): it is clamped to \(N)",
                                       at: rule.span, help: "write 'full' for a tile across the whole grid"))
        }
        return bottom
    }

    /// One side of `tile` for item i: a whole number at least 1.
    @inline(__always)
    static func side(_ rule: ItemRule, _ m: inout Machine, _ i: Int, _ s: Int) throws(Diagnostic) -> Double {
        let v = try Waterfall.ruleValue(rule, &m, i, s)
        guard isWhole(v), v >= 1 else {
            throw Diagnostic.error(.badTile, "\(rule.what) of item \(i) of section \(s) is \(NumberFormat.format(v)): a tile's side is a whole number of cells, at least 1",
                                   at: rule.span, help: "write, for example, 'tile 2 x 1'")
        }
        return v
    }
}

/// `packing`: how a grid places its items (CSS Grid's `grid-auto-flow`).
package enum Packing: String, Sendable { case sparse, dense }

/// The grid engine's configuration of a section (docs/layout.md, "Tile grids"): its lanes, the
/// length of its lines along the scroll axis, and its packing.
package struct GridEngine: Engine {
    /// N: columns when vertical, rows when horizontal, adaptive already applied.
    package var lanes: Int
    /// `rowHeight` (vertical) or `columnWidth` (horizontal) when written; nil: the lane width, square cells.
    package var lineLength: Double?
    package var packing: Packing

    package static let style = LayoutStyle.grid

    package static func configure(_ settings: inout some SectionSettings) -> GridEngine {
        let vertical = settings.direction == .vertical
        let packing = settings.word(.packing, Packing.sparse)
        // `columns` counts the columns of a vertical grid, `rows` the rows of a horizontal one;
        // lanes 0 wide or less are the no-room error (docs/language.md).
        let lanes = settings.lanes(across: vertical, default: 2, checkRoom: true, scale: 0)
        let laneW = settings.laneWidth(lanes, across: vertical)
        let lineLength = settings.length(vertical ? .rowHeight : .columnWidth, variable: vertical ? .w : .h, value: laneW)
        return GridEngine(lanes: lanes, lineLength: lineLength, packing: packing)
    }

    package func place(_ sec: ResolvedSection, from start: Double, _ stack: SectionStack,
                       into w: inout ElementWriter) throws(Diagnostic) -> Double {
        try Grid.items(sec, self, stack, top: start, into: &w)
    }
}
