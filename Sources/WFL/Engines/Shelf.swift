/// The shelf engine (docs/layout.md, "Shelves"): a section of a vertical layout whose items lie in
/// a band that scrolls sideways, as a compositional section with orthogonal scrolling. Item i goes
/// to column `floor(i / R)` and row `i mod R` of the band (R = `rows`), so items fill a column top to
/// bottom before the next column starts. A pure function of a resolved section; every formula is
/// computed in doubles in the order docs/layout.md writes it.
package enum Shelf {
    /// What `shelfSnap` needs of a shelf, fixed when the table is built.
    package struct Band: Equatable, Sendable {
        /// The section.
        package var section: Int
        package var paging: Paging
        /// `ins.left`: where column 0 starts.
        package var insetLeft: Double
        /// x of each column, and its width (the widest item of the column).
        package var columnX: [Double]
        package var columnWidth: [Double]
        /// bandWidth = x of the last column + its colW + ins.right; 0 when the shelf is empty.
        package var width: Double
        /// Where its rows start and end along y (`top` and `bottom` of docs/layout.md, "Shelves").
        package var top: Double = 0, bottom: Double = 0
    }

    /// Lays out the items of shelf section `sec` from `top`, its header and insets already
    /// written: appends its cells to `out` and its band to `bands`. Returns where its items end.
    static func items(_ sec: ResolvedSection, _ e: ShelfEngine, _ stack: SectionStack, top: Double, machine m: inout Machine,
                      into out: inout [Element], bands: inout [Band]) throws(Diagnostic) -> Double {
        let s = sec.index
        let ins = sec.insets
        let n = sec.items
        let R = e.rows
        // bottom = top and bandWidth = 0 when the shelf is empty.
        var bottom = top
        var band = Band(section: s, paging: e.paging, insetLeft: ins.left, columnX: [], columnWidth: [], width: 0, top: top, bottom: top)
        if n > 0 {
            guard case .natural(let wRule, let hRule) = sec.size else {
                // The resolver gives a shelf a `size` rule (or 50 x 50); never reached.
                throw Diagnostic.error(.flowNeedsSize, "a shelf sizes each item with 'size W x H'", at: sec.place)
            }
            // Sizes from the `size` rule, with flow's variables (i, n, s, cw, ch, aw, ah).
            stack.enter(sec, machine: &m)
            m.available = VarSets.flowSize | VarSets.layout
            m.inItem = true
            defer { m.inItem = false }
            let sizing = Flow.Sizing(wRule, hRule, section: s, seed: m.seed)
            var cells = [Element](repeating: Element(cell: 0, section: s, frame: Frame(x: 0, y: 0, width: 0, height: 0)), count: n)
            let failure: Diagnostic? = cells.withUnsafeMutableBufferPointer { buffer in
                do throws(Diagnostic) {
                    try sizing.size(buffer, first: 0, 0..<n, machine: &m)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            // rowH[r] = the tallest item of row r; colW[c] = the widest item of column c.
            let rowsUsed = Swift.min(R, n)
            let columns = (n + R - 1) / R
            var rowH = [Double](repeating: 0, count: rowsUsed)
            var colW = [Double](repeating: 0, count: columns)
            for i in 0..<n {
                let f = cells[i].frame
                let r = i % R, c = i / R
                if f.height > rowH[r] { rowH[r] = f.height }
                if f.width > colW[c] { colW[c] = f.width }
            }
            // y of row 0 = top; y of row r+1 = y of row r + rowH[r] + rs.
            var rowY = [Double](repeating: top, count: rowsUsed)
            for r in 1..<Swift.max(1, rowsUsed) { rowY[r] = rowY[r - 1] + rowH[r - 1] + sec.rowSpacing }
            // x of column 0 = ins.left; x of column c+1 = x of column c + colW[c] + cs.
            var colX = [Double](repeating: ins.left, count: columns)
            for c in 1..<Swift.max(1, columns) { colX[c] = colX[c - 1] + colW[c - 1] + sec.columnSpacing }
            // item frame = (x of its column, y of its row + a * (rowH[r] - h), w, h), a = 0, 0.5, 1
            // for start, center, end; `stretch`: h = rowH[r] at the row's y.
            for i in 0..<n {
                var f = cells[i].frame
                let r = i % R, c = i / R
                f.x = colX[c]
                switch e.align {
                case .start: f.y = rowY[r]
                case .center: f.y = rowY[r] + 0.5 * (rowH[r] - f.height)
                case .end: f.y = rowY[r] + 1 * (rowH[r] - f.height)
                case .stretch:
                    f.y = rowY[r]
                    f.height = rowH[r]
                }
                out.append(Element(cell: i, section: s, frame: f))
            }
            // bottom = y of the last used row + its rowH.
            bottom = rowY[rowsUsed - 1] + rowH[rowsUsed - 1]
            // The band is the rows' extent across; it must be more than 0 (docs/language.md,
            // "Values": a line that comes out with no room is an error).
            if bottom - top <= 0 {
                throw Diagnostic.error(.noRoom, "the rows of shelf section \(s) leave no room: with 'rowSpacing' \(NumberFormat.format(sec.rowSpacing)) its band is \(NumberFormat.format(bottom - top)) tall",
                                       at: sec.rowSpacingPlace ?? sec.place, help: "make 'rowSpacing' larger, or use fewer 'rows'")
            }
            // bandWidth = x of the last column + its colW + ins.right.
            band.columnX = colX
            band.columnWidth = colW
            band.width = colX[columns - 1] + colW[columns - 1] + ins.right
            band.bottom = bottom
            try checkWidth(band, sec)
        }
        bands.append(band)
        return bottom
    }

    /// A shelf of groups (docs/layout.md, "Shelves of groups"): the top group's instances side by
    /// side in the band, as a compositional section with orthogonal scrolling lays its groups.
    /// Each instance is a column of the band (for `paging` and `shelfSnap`), W wide.
    static func groups(_ sec: ResolvedSection, _ pattern: GroupPattern, _ e: ShelfEngine, top: Double,
                       into out: inout [Element], bands: inout [Band]) throws(Diagnostic) -> Double {
        let s = sec.index
        let ins = sec.insets
        let n = sec.items
        let m = pattern.cells.count
        var band = Band(section: s, paging: e.paging, insetLeft: ins.left, columnX: [], columnWidth: [], width: 0, top: top, bottom: top)
        // bottom = top when empty, and bandWidth 0.
        guard n > 0 else {
            bands.append(band)
            return top
        }
        // instance g at (ins.left + g * (W + groupSpacing), top).
        let instances = (n + m - 1) / m
        let stride = pattern.width + e.groupSpacing
        band.columnX = (0..<instances).map { ins.left + Double($0) * stride }
        band.columnWidth = Array(repeating: pattern.width, count: instances)
        out.reserveCapacity(out.count + n)
        for i in 0..<n {
            let c = pattern.cells[i % m]
            let x = band.columnX[i / m]
            out.append(Element(cell: i, section: s, frame: Frame(x: x + c.x, y: top + c.y, width: c.width, height: c.height)))
        }
        // bottom = top + H; bandWidth = x of the last instance + W + ins.right.
        let bottom = top + pattern.height
        band.width = band.columnX[instances - 1] + pattern.width + ins.right
        band.bottom = bottom
        try checkWidth(band, sec)
        bands.append(band)
        return bottom
    }

    /// The columns add up along x, which no section end checks: a band past the doubles' range is
    /// an error rather than frames with Infinity in them.
    static func checkWidth(_ band: Band, _ sec: ResolvedSection) throws(Diagnostic) {
        guard band.width.isFinite else {
            throw Diagnostic.error(.positionOverflow, "the band of shelf section \(sec.index) reaches past the largest number a position can have (about 1.8e308)",
                                   at: sec.place, help: "the sizes or spacings add up to more than a double holds: make them smaller")
        }
    }

    /// `shelfSnap(s, x)` for `band` in a container `cw` wide (docs/layout.md, "Shelves"): where the
    /// shelf comes to rest when its sideways scroll is released at x.
    package static func snap(_ band: Band, _ x: Double, containerWidth cw: Double) -> Double {
        // maxX = max(0, bandWidth - cw).
        let maxX = Swift.max(0, band.width - cw)
        let target: Double
        switch band.paging {
        case .continuous:
            target = x
        case .leadingBoundary, .groupPaging:
            // The b[c] nearest to x, b[c] = x of column c - ins.left.
            target = nearest(to: x, band.columnX.indices.map { band.columnX[$0] - band.insetLeft })
        case .paging:
            // round(x / cw) * cw, half away from zero.
            target = (x / cw).rounded(.toNearestOrAwayFromZero) * cw
        case .groupPagingCentered:
            // The g[c] nearest to x, g[c] = x of column c + colW[c] / 2 - cw / 2.
            target = nearest(to: x, band.columnX.indices.map { band.columnX[$0] + band.columnWidth[$0] / 2 - cw / 2 })
        }
        // Clamped to [0, maxX].
        return Swift.min(Swift.max(target, 0), maxX)
    }

    /// The candidate nearest to x; candidates whose distances differ by at most 0.001 tie, and the
    /// smaller candidate wins.
    static func nearest(to x: Double, _ candidates: [Double]) -> Double {
        var best = candidates[0]
        var bestDistance = abs(candidates[0] - x)
        for c in candidates.dropFirst() {
            let d = abs(c - x)
            if d < bestDistance - 0.001 || (abs(d - bestDistance) <= 0.001 && c < best) {
                best = c
                bestDistance = d
            }
        }
        return best
    }
}

/// The shelf engine's configuration of a section (docs/layout.md, "Shelves"): the items in each
/// column of its band, where an item sits in its row, and where sideways scrolling rests.
package struct ShelfEngine: Engine {
    /// `rows`: the items of each column.
    package var rows: Int
    package var align: Align
    package var paging: Paging
    /// `groupSpacing`: the gap between instances of a shelf of groups' top group.
    package var groupSpacing = 0.0

    package static let style = LayoutStyle.shelf

    package static func configure(_ settings: inout some SectionSettings) -> ShelfEngine {
        let paging = settings.word(.paging, Paging.continuous)
        let align = settings.word(.align, Align.center)
        // `rows` counts across `ah` as a horizontal waterfall's lanes do; 1 by default.
        let rows = settings.lanes(across: false, default: 1, checkRoom: false, scale: 0)
        return ShelfEngine(rows: rows, align: align, paging: paging, groupSpacing: settings.spacing(.groupSpacing, default: 0))
    }

    package func place(_ sec: ResolvedSection, from start: Double, _ stack: SectionStack,
                       into w: inout ElementWriter) throws(Diagnostic) -> Double {
        if let pattern = sec.groups {
            let bottom = try Shelf.groups(sec, pattern, self, top: start, into: &w.table.elements, bands: &w.table.scroll.shelves)
            // The instances, for the pictures' outlines: at (ins.left + g * (W + groupSpacing), top).
            if let band = w.table.scroll.shelves.last, !band.columnX.isEmpty {
                w.table.scroll.groups.append(GroupOutlines(section: sec.index, outlines: pattern.outlines, origin: Offset(x: band.columnX[0], y: start),
                                                           stride: Offset(x: pattern.width + groupSpacing, y: 0), count: band.columnX.count))
            }
            return bottom
        }
        return try Shelf.items(sec, self, stack, top: start, machine: &w.machine, into: &w.table.elements, bands: &w.table.scroll.shelves)
    }
}
