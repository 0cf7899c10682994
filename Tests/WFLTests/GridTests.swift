import XCTest
@testable import WFL

/// Tile grids (docs/layout.md, "Tile grids"): frames worked out by hand from the steps there.
final class GridTests: XCTestCase {
    /// Flutter's quilted example: width 400, 4 columns, spacing 4, tiles 2x2, 1x1, 1x1, 2x1
    /// repeating; colW = (400 - 3 * 4) / 4 = 97.
    func testFlutterQuiltedExample() throws {
        let t = try XCTUnwrap(Eval.table("container 400 x 800\nstyle grid\ncolumns 4\nspacing 4\nitems 5\ntile [2, 1, 1, 2] x [2, 1, 1, 1]"))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 198, 198], [202, 0, 97, 97], [303, 0, 97, 97], [202, 101, 198, 97], [0, 202, 198, 198]])
        XCTAssertEqual(t.contentHeight, 400)
        XCTAssertEqual(t.style, .grid)
    }

    /// `columns 3`, `tile [1, 3, 1] x 1`: the 3-wide item 1 cannot fit after item 0 and goes to row
    /// 1; sparse never moves back, so item 2 is in row 2; dense starts again at (0, 0) and puts it
    /// in row 0, column 1.
    func testDenseAgainstSparse() throws {
        let base = "container 300 x 800\nstyle grid\ncolumns 3\nspacing 0\nitems 3\ntile [1, 3, 1] x 1\n"
        let sparse = try XCTUnwrap(Eval.table(base))
        XCTAssertEqual(Eval.cells(sparse), [[0, 0, 100, 100], [0, 100, 300, 100], [0, 200, 100, 100]])
        XCTAssertEqual(sparse.contentHeight, 300)
        let dense = try XCTUnwrap(Eval.table(base + "packing dense"))
        XCTAssertEqual(Eval.cells(dense), [[0, 0, 100, 100], [0, 100, 300, 100], [100, 0, 100, 100]])
        XCTAssertEqual(dense.contentHeight, 200)
    }

    /// Dense packing fills holes with later items of several shapes, each searched from the start.
    func testDenseFillsHolesOfSeveralShapes() throws {
        // 4 columns of 10, no spacing. Item 0: 3x1 at (0,0); item 1: 2x2 cannot fit row 0 (column
        // 3 is one wide), goes to (1,0); item 2: 1x1 fills (0,3); item 3: 2x1 at (1,2); item 4:
        // 1x2 at (2,2); item 5: 1x1 at (2,3).
        let t = try XCTUnwrap(Eval.table("container 40 x 800\nstyle grid\ncolumns 4\nspacing 0\nitems 6\npacking dense\ntile [3, 2, 1, 2, 1, 1] x [1, 2, 1, 1, 2, 1]"))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 30, 10], [0, 10, 20, 20], [30, 0, 10, 10], [20, 10, 20, 10], [20, 20, 10, 20], [30, 20, 10, 10]])
        XCTAssertEqual(t.contentHeight, 40)
    }

    /// A horizontal grid is column-major: rows 3 of 100 (ah 300), columns as wide (h); a tile's
    /// C x R stays physical.
    func testHorizontalIsColumnMajor() throws {
        let base = "direction horizontal\ncontainer 400 x 300\nstyle grid\nrows 3\nspacing 0\nitems 4\ntile [1, 2, 1, 1] x [1, 1, 3, 1]\n"
        let sparse = try XCTUnwrap(Eval.table(base))
        XCTAssertEqual(Eval.cells(sparse), [[0, 0, 100, 100], [0, 100, 200, 100], [200, 0, 100, 300], [300, 0, 100, 100]])
        XCTAssertEqual(sparse.contentWidth, 400)
        let dense = try XCTUnwrap(Eval.table(base + "packing dense"))
        XCTAssertEqual(Eval.cells(dense), [[0, 0, 100, 100], [0, 100, 200, 100], [200, 0, 100, 300], [0, 200, 100, 100]])
        XCTAssertEqual(dense.contentWidth, 300)
    }

    /// `columnWidth` in a horizontal grid, reading h (the row height).
    func testColumnWidth() throws {
        let t = try XCTUnwrap(Eval.table("direction horizontal\ncontainer 400 x 210\nstyle grid\nrows 2\nspacing 10\nitems 3\ncolumnWidth h / 2\ntile [2, 1] x 1"))
        // rh = (210 - 10) / 2 = 100; colW = 50. Item 0: 2x1 at (r0, c0): 50 * 2 + 10 = 110 wide.
        // Item 1 at (r1, c0); item 2 (2x1 again) from (r1, c0): taken; row 2 is past the 2 rows, so
        // column 1: (r0, c1) is item 0's, (r1, c1 ..< c3) free: x = 1 * (50 + 10) = 60.
        XCTAssertEqual(Eval.cells(t), [[0, 0, 110, 100], [0, 110, 50, 100], [60, 110, 110, 100]])
    }

    /// Right to left: the frames mirrored across the container.
    func testRightToLeftMirrors() throws {
        let t = try XCTUnwrap(Eval.table("container 400 x 800\nlayoutDirection rightToLeft\nstyle grid\ncolumns 4\nspacing 4\nitems 5\ntile [2, 1, 1, 2] x [2, 1, 1, 1]"))
        XCTAssertEqual(Eval.cells(t), [[202, 0, 198, 198], [101, 0, 97, 97], [0, 0, 97, 97], [0, 101, 198, 97], [202, 202, 198, 198]])
    }

    /// rowHeight reads w, the column width; the insets and the header come before the first row;
    /// adaptive columns as in a waterfall.
    func testRowHeightInsetsHeaderAdaptive() throws {
        let t = try XCTUnwrap(Eval.table("container 220 x 800\nstyle grid\ncolumns 2\nspacing 0\ninsets 10\nheader 20\nitems 3\nrowHeight w / 2\ntile 1 x [2, 1, 1]"))
        // aw 200, colW 100, rh 50; rows start at 20 + 10.
        XCTAssertEqual(Eval.cells(t), [[10, 30, 100, 100], [110, 30, 100, 50], [110, 80, 100, 50]])
        XCTAssertEqual(t.contentHeight, 140)
        let a = try XCTUnwrap(Eval.table("container 400 x 800\nstyle grid\ncolumns adaptive(90)\nspacing 4\nitems 1"))
        // floor((400 + 4 + 1e-6) / 94) = 4 columns of (400 - 12) / 4 = 97.
        XCTAssertEqual(Eval.cells(a), [[0, 0, 97, 97]])
    }

    /// `full` is the column count; a wider tile is clamped to it with one warning.
    func testFullAndClamp() throws {
        let t = try XCTUnwrap(Eval.table("container 300 x 800\nstyle grid\ncolumns 3\nspacing 0\nitems 2\ntile [full, 7] x 1"))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 300, 100], [0, 100, 300, 100]])
        let (e, _, _) = Eval.run("container 300 x 800\nstyle grid\ncolumns 3\nitems 3\ntile 7 x 1")
        XCTAssertEqual(e.diagnostics.map(\.code), [.tileClamped])
    }

    /// No items: the section's bottom is its top; `random` draws whole tiles the same each run.
    func testEmptyAndRandom() throws {
        let t = try XCTUnwrap(Eval.table("container 300 x 800\nstyle grid\ninsets 5\nitems 0"))
        XCTAssertEqual(t.contentHeight, 10)
        let text = "container 300 x 800\nstyle grid\ncolumns 3\nitems 20\ntile random(1, 3) x random(1, 3)"
        let a = Eval.cells(try XCTUnwrap(Eval.table(text))), b = Eval.cells(try XCTUnwrap(Eval.table(text)))
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.count, 20)
    }

    /// A tile 1,000 rows long is allowed; a thousand of them finish (no hang).
    func testLongTilesFinish() throws {
        let t = try XCTUnwrap(Eval.table("container 300 x 800\nstyle grid\ncolumns 3\nspacing 0\nitems 1000\ntile 1 x 1000"))
        XCTAssertEqual(t.contentHeight, 100 * 1000 * Double(1000 / 3 + 1))
    }

    /// The placement as the steps write it, over a set of taken cells that is never trimmed: the
    /// engine's sliding window of lines must place every item where this does.
    private func referencePlacement(_ tiles: [(c: Int, r: Int)], lanes n: Int, dense: Bool) -> [[Int]] {
        var taken = Set<Int>()
        var cursor = (r: 0, c: 0)
        var out: [[Int]] = []
        for t in tiles {
            var (r, c) = dense ? (0, 0) : cursor
            while true {
                if c + t.c > n { r += 1; c = 0; continue }
                var free = true
                for y in r..<r + t.r { for x in c..<c + t.c where taken.contains(y * n + x) { free = false } }
                if free { break }
                c += 1
            }
            for y in r..<r + t.r { for x in c..<c + t.c { taken.insert(y * n + x) } }
            cursor = (r, c)
            out.append([c * 10, r * 10, t.c * 10, t.r * 10])
        }
        return out
    }

    /// Random tiles, sparse and dense, enough lines that the taken map drops its top lines many
    /// times (it starts at 64 lines): the frames are the reference's.
    func testTheSlidingWindowPlacesAsTheWholeGridWould() throws {
        var random = SeededRandom(seed: 0x6752_4944)
        var cases: [(round: Int, lanes: Int, tiles: [(c: Int, r: Int)], dense: Bool)] = []
        for round in 0..<12 {
            let lanes = 1 + Int(random.next() % 5)
            let count = 150 + Int(random.next() % 100)
            let tiles = (0..<count).map { _ in (c: 1 + Int(random.next() % UInt64(lanes)), r: 1 + Int(random.next() % 4)) }
            for dense in [false, true] { cases.append((round, lanes, tiles, dense)) }
        }
        // Laid out on every core, against the reference here.
        let tables = Concurrent.map(cases) { c in
            Eval.table("container \(c.lanes * 10) x 800\nstyle grid\ncolumns \(c.lanes)\nspacing 0\nrowHeight 10\nitems \(c.tiles.count)\n"
                + (c.dense ? "packing dense\n" : "")
                + "tile [\(c.tiles.map { String($0.c) }.joined(separator: ", "))] x [\(c.tiles.map { String($0.r) }.joined(separator: ", "))]")
        }
        for (c, table) in zip(cases, tables) {
            let t = try XCTUnwrap(table, "round \(c.round)")
            XCTAssertEqual(Eval.cells(t), referencePlacement(c.tiles, lanes: c.lanes, dense: c.dense).map { $0.map(Double.init) }, "round \(c.round), dense \(c.dense)")
        }
    }

    /// A sparse grid of tall tiles holds only the lines from its cursor on: 20,000 tiles 100 lines
    /// long keep a window of a few hundred lines, not 2,000,000.
    func testTheTakenMapSlidesWithTheCursor() {
        var cells = Grid.Cells(lanes: 1, dense: false)
        for i in 0..<20_000 {
            cells.low = i * 100
            XCTAssertTrue(cells.free(i * 100, 0, along: 100, across: 1))
            cells.take(i * 100, 0, along: 100, across: 1)
        }
        // Lines are made ahead in chunks, as far as the storage holds: at least the 2,000,000 the
        // tiles reach.
        XCTAssertGreaterThanOrEqual(cells.lines, 2_000_000)
        XCTAssertLessThanOrEqual(cells.lines - cells.base, 256)
    }

    /// More than 2^30 cells held at once is refused before anything is allocated for them.
    func testTheTakenMapHasABudget() {
        var cells = Grid.Cells(lanes: 1000, dense: false)
        XCTAssertTrue(cells.free(0, 0, along: 1000, across: 1))
        XCTAssertFalse(cells.overBudget)
        XCTAssertFalse(cells.free(0, 0, along: Grid.maxCells / 1000 + 1, across: 1))
        XCTAssertTrue(cells.overBudget)
    }

    /// A staying item keeps its tile after a batch update: inserting at 0 moves items 0-2 to 1-3
    /// with their tiles (2x1, 1x1, 1x1); the inserted item evaluates the rule at 0 (2x1). Tiles by
    /// the new indices would be 2, 1, 1, 2 wide and put item 3 in row 1, column 0.
    func testAStayingItemKeepsItsTileAfterAnUpdate() throws {
        let e = Eval.run("container 40 x 800\nstyle grid\ncolumns 4\nspacing 0\nitems 3\ntile [2, 1, 1] x 1\nupdate { insert 0 }\n").0
        XCTAssertEqual(e.diagnostics.filter { $0.severity == .error }.count, 0)
        let before = try XCTUnwrap(e.layouts.first?.before), after = try XCTUnwrap(e.layouts.first?.after)
        XCTAssertEqual(Eval.cells(before), [[0, 0, 20, 10], [20, 0, 10, 10], [30, 0, 10, 10]])
        XCTAssertEqual(Eval.cells(after), [[0, 0, 20, 10], [20, 0, 20, 10], [0, 10, 10, 10], [10, 10, 10, 10]])
    }
}
