import XCTest
@testable import WFL

/// The flow engine against docs/layout.md's "Flow" section, with numbers worked out by hand.
final class FlowTests: XCTestCase {
    func cells(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [[Double]] {
        guard let t = Eval.table(text, file: file, line: line) else {
            XCTFail("no table", file: file, line: line)
            return []
        }
        return Eval.cells(t)
    }

    /// The derived case of issue 4: container 320, spacing 10, five sizes.
    /// Line 1: 100 + 10 + 150 = 260 (80 more makes 350 > 320): spread, gap 10 + 60 = 70, lineH 60,
    /// the 40-high item centred at 10. Line 2 at 70: 80, 200 (used 290), gap 40, lineH 40, the
    /// 30-high item at 75. Line 3 at 120: the last line, sizes differ: start.
    func testDerivedCase() {
        let c = cells("""
            style flow
            container 320 x 600
            spacing 10
            let sizes = [[100, 40], [150, 60], [80, 40], [200, 30], [50, 30]]
            items 5
            size sizes[i][0] x sizes[i][1]
            """)
        XCTAssertEqual(c.map { [$0[0], $0[1]] }, [[0, 10], [170, 0], [0, 70], [120, 75], [0, 120]])
        XCTAssertEqual(c.map { [$0[2], $0[3]] }, [[100, 40], [150, 60], [80, 40], [200, 30], [50, 30]])
    }

    /// Seven 100x100 items in 375: three a line (320 used), spread with gap 37.5; the seventh on
    /// the last line is grid-aligned: k = floor(385 / 110) = 3, g = 10 + (375 - 300 - 20) / 2.
    func testSevenSquares() throws {
        let t = try XCTUnwrap(Eval.table("style flow\ncontainer 375 x 812\nitems 7\nsize 100 x 100"))
        let c = Eval.cells(t)
        XCTAssertEqual(c.map { $0[0] }, [0, 137.5, 275, 0, 137.5, 275, 0])
        XCTAssertEqual(c.map { $0[1] }, [0, 0, 0, 110, 110, 110, 220])
        XCTAssertEqual(t.contentHeight, 320)
        // Five: the last line's two items sit where a full line's first two would.
        XCTAssertEqual(cells("style flow\nitems 5\nsize 100 x 100").map { $0[0] }, [0, 137.5, 275, 0, 137.5])
    }

    /// Three items of (aw - 2*cs) / 3 fit one line although the sum may round above aw.
    func testToleranceFitsThree() {
        for aw in [375.0, 320, 414, 100.1, 333.3] {
            let c = cells("style flow\ncontainer \(aw) x 800\ninsets 0 7\nitems 3\nsize (aw - 2 * 10) / 3 x 20")
            XCTAssertEqual(Set(c.map { $0[1] }), [0], "aw \(aw - 14): all three on one line")
        }
        // Without the tolerance 0.1 + 0.2 > 0.3: with widths 0.1, 0.2 and no gap they fit in 0.3.
        let c = cells("style flow\ncontainer 0.3 x 10\nspacing 0\nitems 2\nsize [0.1, 0.2][i] x 1")
        XCTAssertEqual(c.map { $0[1] }, [0, 0])
        // A width beyond the tolerance breaks the line.
        let d = cells("style flow\ncontainer 0.3 x 10\nspacing 0\nitems 2\nsize [0.1, 0.2 + 2e-6][i] x 1")
        XCTAssertEqual(d.map { $0[1] }, [0, 1])
    }

    func testJustifyModes() {
        // Line of 100, 50 in 300: used 160, 140 left.
        let base = "style flow\ncontainer 300 x 500\nitems 3\nsize [100, 50, 200][i] x 10\n"
        XCTAssertEqual(cells(base + "justify start").map { $0[0] }, [0, 110, 0])
        XCTAssertEqual(cells(base + "justify end").map { $0[0] }, [140, 250, 100])
        XCTAssertEqual(cells(base + "justify center").map { $0[0] }, [70, 180, 50])
        // spread: gap 10 + 140 / 1; a line of one item packed from left.
        XCTAssertEqual(cells(base + "justify spread").map { $0[0] }, [0, 250, 0])
        // uikit: the first line spreads, the last (sizes differ) starts.
        XCTAssertEqual(cells(base + "justify uikit").map { $0[0] }, [0, 250, 0])
        // Insets move the packing start: left = ins.left, aw = 300 - 30 - 20.
        XCTAssertEqual(cells(base + "justify end\ninsets 0 30 0 20").map { $0[0] }, [120, 230, 80])
    }

    func testUIKitRules() {
        // The only line with one item: centred.
        XCTAssertEqual(cells("style flow\ncontainer 300 x 500\nitems 1\nsize 100 x 10").map { $0[0] }, [100])
        // A line that is not the last with one item (the next does not fit): centred.
        XCTAssertEqual(cells("style flow\ncontainer 300 x 500\nitems 2\nsize [200, 150][i] x 10").map { $0[0] }, [50, 0])
        // The last line of same-size items with k <= 1 (only one fits a line): centred.
        XCTAssertEqual(cells("style flow\ncontainer 300 x 500\nitems 2\nsize 200 x 10").map { $0[0] }, [50, 50])
        // Same size within 1e-6 counts as the same size: grid-aligned last line.
        let g = cells("style flow\ncontainer 375 x 500\nitems 4\nsize 100 + (i == 3 ? 1e-7 : 0) x 100")
        XCTAssertEqual(g[3][0], 0)
        // Heights differing make the last line start-packed: x stays 0 either way here, so
        // check a last line of two where grid and start differ.
        let same = cells("style flow\ncontainer 375 x 500\nitems 5\nsize 100 x 100").map { $0[0] }
        let mixed = cells("style flow\ncontainer 375 x 500\nitems 5\nsize 100 x (i == 0 ? 90 : 100)").map { $0[0] }
        XCTAssertEqual(same[4], 137.5)
        XCTAssertEqual(mixed[4], 110)
    }

    func testAlign() {
        let base = "style flow\ncontainer 300 x 500\nitems 2\nsize 100 x [40, 60][i]\n"
        XCTAssertEqual(cells(base).map { $0[1] }, [10, 0])
        XCTAssertEqual(cells(base + "align start").map { $0[1] }, [0, 0])
        XCTAssertEqual(cells(base + "align end").map { $0[1] }, [20, 0])
    }

    /// Headers, footers, insets and two sections, worked out with docs/layout.md's header formulas.
    func testSectionsHeadersFooters() throws {
        let t = try XCTUnwrap(Eval.table("""
            style flow
            container 320 x 600
            spacing 10
            insets 10 20
            section {
              header 40
              headerInsets 5
              items 3
              size 100 x 50
              footer 20
            }
            section {
              items 2
              size 60 x 30
              justify start
            }
            """))
        let rows = t.elements.map { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
        // Header: top 0 + 5, x 5, width 320 - 10; then top = 5 + 40 + 5 = 50, + ins.top 10 = 60.
        XCTAssertEqual(rows[0], [5, 5, 310, 40])
        // aw = 280: two a line (210 + 110 > 280); spread gap 10 + 70; last line grid: k = 2.
        XCTAssertEqual(rows[1], [20, 60, 100, 50])
        XCTAssertEqual(rows[2], [200, 60, 100, 50])
        XCTAssertEqual(rows[3], [20, 120, 100, 50])
        // end = 170 + 10; footer at 180.
        XCTAssertEqual(rows[4], [0, 180, 320, 20])
        // Section 1 starts at 200, items at 210.
        XCTAssertEqual(rows[5], [20, 210, 60, 30])
        XCTAssertEqual(rows[6], [90, 210, 60, 30])
        XCTAssertEqual(t.contentHeight, 250)
        XCTAssertEqual(t.elements.map(\.zIndex), [10, 0, 0, 0, 10, 0, 0])
    }

    /// An empty section takes its insets and header.
    func testEmptySection() throws {
        let t = try XCTUnwrap(Eval.table("style flow\ninsets 10\nsection {\n header 30\n}\nsection {\n items 1\n size 10 x 10\n}"))
        XCTAssertEqual(Eval.rect(t.elements[0]), [0, 0, 375, 30])
        XCTAssertEqual(Eval.rect(t.elements[1]), [182.5, 60, 10, 10])
    }

    /// Horizontal: lines are columns filled top to bottom within ah, rs between the items of a
    /// column, cs between columns; justify along the column from ins.top; align across.
    func testHorizontal() throws {
        let t = try XCTUnwrap(Eval.table("""
            style flow
            direction horizontal
            container 500 x 300
            spacing 10 20
            insets 10
            items 5
            size [40, 60][i % 2] x 100
            header 30
            """))
        let rows = t.elements.map(Eval.rect)
        // Header: a column of width 30 at x 0, full height.
        XCTAssertEqual(rows[0], [0, 0, 30, 300])
        // ah = 280: two items a column (210; 320 > 280): spread gap 10 + 70, from ins.top 10;
        // column width 60, the 40-wide item centred across it.
        XCTAssertEqual(rows[1], [50, 10, 40, 100])
        XCTAssertEqual(rows[2], [40, 190, 60, 100])
        // Next column at 40 + 60 + cs 20 = 120.
        XCTAssertEqual(rows[3], [130, 10, 40, 100])
        XCTAssertEqual(rows[4], [120, 190, 60, 100])
        // The last column, sizes differ: start.
        XCTAssertEqual(rows[5], [200, 10, 40, 100])
        XCTAssertEqual(t.contentWidth, 250)
        XCTAssertEqual(t.contentHeight, 300)
    }

    func testSizeVariablesAndRandom() throws {
        let c = cells("style flow\ncontainer 320 x 600\ninsets 0 10\nitems 4\nsize (aw - 10) / 2 x ah / 10 + i")
        XCTAssertEqual(c.map { $0[2] }, [145, 145, 145, 145])
        XCTAssertEqual(c.map { $0[3] }, [60, 61, 62, 63])
        // random in a flow rule: the seed's draws, 85, 101, 96 for items 0, 1, 2.
        let r = cells("style flow\nitems 3\nsize 10 x random(0, 150)")
        XCTAssertEqual(r.map { $0[3] }, [85, 101, 96])
        XCTAssertTrue(Eval.errors("style flow\nitems 1\nsize w x 10").contains("'w' has no value"))
    }

    func testOverflowWarning() {
        let (e, _, _) = Eval.run("style flow\ncontainer 100 x 300\nitems 3\nsize 150 x 10")
        XCTAssertFalse(e.diagnostics.hasErrors)
        let warnings = e.diagnostics.filter { $0.severity == .warning }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.message.contains("overflows its line") ?? false)
        XCTAssertEqual(e.tables.first.map(Eval.cells)?.map { $0[0] }, [-25, -25, -25])
        // Exactly aw wide does not warn.
        let (ok, _, _) = Eval.run("style flow\ncontainer 100 x 300\nitems 3\nsize 100 x 10")
        XCTAssertTrue(ok.diagnostics.isEmpty)
    }

    func testErrors() {
        XCTAssertTrue(Eval.errors("style flow\nitems 3\nsize 10 x 40 - i * 30").contains("the height of 'size' of item 2 of section 0 is -20"))
        XCTAssertTrue(Eval.errors("style flow\ndirection horizontal\nitems 1\nrows 2").contains("a flow layout has no lanes"))
    }
}
