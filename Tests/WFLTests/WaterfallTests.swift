import XCTest
@testable import WFL

/// The waterfall engine against published cases and docs/layout.md's rules.
final class WaterfallTests: XCTestCase {
    /// CHTCollectionViewWaterfallLayout's formulas, with natural sizes scaled and floored to 1/2.
    func testCHTFormulas() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 375 x 812
            columns 2
            spacing 10
            insets 10
            header 50
            footer 30
            scale 2
            items 5
            size [400, 1000, 1024, 640, 500] x [550, 665, 689, 427, 500]
            """))
        XCTAssertEqual(t.elements.count, 7)
        XCTAssertEqual(t.elements[0].kind, .header)
        XCTAssertEqual(Eval.rect(t.elements[0]), [0, 0, 375, 50])
        XCTAssertEqual(Eval.cells(t), [[10, 60, 172.5, 237], [192.5, 60, 172.5, 114.5], [192.5, 184.5, 172.5, 116],
                                      [10, 307, 172.5, 115], [192.5, 310.5, 172.5, 172.5]])
        XCTAssertEqual(t.elements[6].kind, .footer)
        XCTAssertEqual(Eval.rect(t.elements[6]), [0, 493, 375, 30])
        XCTAssertEqual(t.contentHeight, 523)
        XCTAssertEqual(t.contentWidth, 375)
        XCTAssertEqual(t.elements.map(\.zIndex), [10, 0, 0, 0, 0, 0, 10])
    }

    /// masonry 4.2.2's basic layout: the 120-wide item spans two 60-point columns.
    func testMasonryBasicLayout() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 180 x 400
            columns 3
            spacing 0
            items 5
            span i == 4 ? 2 : 1
            size [60, 60, 60, 60, 120] x [30, 90, 70, 70, 30]
            """))
        let cells = Eval.cells(t)
        XCTAssertEqual(cells.map { [$0[0], $0[1]] }, [[0, 0], [60, 0], [120, 0], [0, 30], [60, 90]])
        XCTAssertEqual(cells[4][2], 120)
        XCTAssertEqual(cells.map { $0[3] }, [30, 90, 70, 70, 30])
    }

    /// Jetpack Compose's LazyVerticalStaggeredGrid: three lanes in 150, no spacing.
    func testComposeStaggeredGrid() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 150 x 400
            columns 3
            spacing 0
            items 6
            height [100, 75, 50, 100, 75, 50]
            """))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 50, 100], [50, 0, 50, 75], [100, 0, 50, 50], [100, 50, 50, 100],
                                      [50, 75, 50, 75], [0, 100, 50, 50]])
        XCTAssertEqual(t.contentHeight, 150)
    }

    func testOrderLeftToRightAndRightToLeftWithSpanClamp() throws {
        let ltr = try XCTUnwrap(Eval.table("container 300 x 500\ncolumns 3\nspacing 0\norder leftToRight\nitems 4\nheight 10\nspan i == 2 ? 2 : 1"))
        // item 2 wants lane 2 but spans two lanes: clamped to lane 1.
        XCTAssertEqual(Eval.cells(ltr).map { $0[0] }, [0, 100, 100, 0])
        XCTAssertEqual(Eval.cells(ltr)[2], [100, 10, 200, 10])
        let rtl = try XCTUnwrap(Eval.table("container 300 x 500\ncolumns 3\nspacing 0\norder rightToLeft\nitems 4\nheight 10"))
        XCTAssertEqual(Eval.cells(rtl).map { $0[0] }, [200, 100, 0, 200])
        XCTAssertEqual(Eval.cells(rtl).map { $0[1] }, [0, 0, 0, 10])
    }

    func testSpanFullAndCapping() throws {
        let t = try XCTUnwrap(Eval.table("container 320 x 500\ncolumns 3\nspacing 10\ninsets 10\nitems 3\nheight 20\nspan i == 0 ? full : 7"))
        // Every item covers all lanes: 3 * 93.333 + 2 * 10 = 300.
        for c in Eval.cells(t) { XCTAssertEqual(c[2], 300, accuracy: 1e-9); XCTAssertEqual(c[0], 10) }
        XCTAssertEqual(Eval.cells(t).map { $0[1] }, [10, 40, 70])
    }

    func testAdaptiveColumns() throws {
        // aw = 375, cs = 10: floor((375 + 10) / (100 + 10)) = 3 lanes.
        let t = try XCTUnwrap(Eval.table("columns adaptive(100)\nitems 3\nheight 10"))
        XCTAssertEqual(Eval.cells(t).map { $0[2] }, [118.33333333333333, 118.33333333333333, 118.33333333333333])
        // Smaller than one lane: still one.
        let one = try XCTUnwrap(Eval.table("columns adaptive(1000)\nitems 2\nheight 10"))
        XCTAssertEqual(Eval.cells(one).map { $0[2] }, [375, 375])
    }

    func testHorizontalWaterfall() throws {
        let t = try XCTUnwrap(Eval.table("""
            direction horizontal
            container 400 x 220
            rows 2
            rowSpacing 20
            columnSpacing 5
            insets 10
            header 30
            headerInsets 4
            footer 15
            items 3
            width [50, 80, 60]
            """))
        // laneH = (200 - 20) / 2 = 90; lanes at y = 10 and 120.
        XCTAssertEqual(Eval.rect(t.elements[0]), [4, 4, 30, 212])
        // Header advances x to 4 + 30 + 4 = 38, then ins.left 10.
        XCTAssertEqual(Eval.cells(t), [[48, 10, 50, 90], [48, 120, 80, 90], [103, 10, 60, 90]])
        // Section end: 163 + 10 = 173; footer at 173, width 15.
        XCTAssertEqual(Eval.rect(t.elements[4]), [173, 0, 15, 220])
        XCTAssertEqual(t.contentWidth, 188)
        XCTAssertEqual(t.contentHeight, 220)
    }

    func testHorizontalNaturalSizeScalesWidth() throws {
        let t = try XCTUnwrap(Eval.table("direction horizontal\ncontainer 400 x 100\nrows 1\ninsets 0\nitems 1\nsize 16 x 9\nscale 3"))
        // w = W * h / H = 16 * 100 / 9 = 177.777..., floored to 1/3.
        XCTAssertEqual(Eval.cells(t)[0][2], (16 * 100 / 9.0 * 3).rounded(.down) / 3)
    }

    func testEmptySectionKeepsInsetsHeaderAndFooter() throws {
        let t = try XCTUnwrap(Eval.table("""
            insets 10 0
            section {
              header 20
              footer 5
            }
            section {
              items 1
              height 7
            }
            """))
        // 20 header, 10 + 10 insets, 5 footer; then section 1 starts at 45.
        XCTAssertEqual(t.elements.map(\.kind), [.header, .footer, .cell])
        XCTAssertEqual(Eval.rect(t.elements[1]), [0, 40, 375, 5])
        XCTAssertEqual(Eval.rect(t.elements[2])[1], 55)
        XCTAssertEqual(t.contentHeight, 72)
    }

    func testDefaultSizeIsSquareInLane() throws {
        let t = try XCTUnwrap(Eval.table("container 200 x 400\ncolumns 2\nspacing 0\nitems 2"))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 100, 100], [100, 0, 100, 100]])
    }

    func testTiesGoToTheSmallestLane() throws {
        let t = try XCTUnwrap(Eval.table("container 300 x 400\ncolumns 3\nspacing 0\nitems 4\nheight [10, 10, 10, 5]"))
        XCTAssertEqual(Eval.cells(t).map { $0[0] }, [0, 100, 200, 0])
    }

    /// A span of more lanes than the section has is capped, with one warning per section that
    /// names its first such item; `span full` and spans within the lanes say nothing.
    func testASpanPastTheLanesWarnsOncePerSection() {
        let spec = Spec(source: """
            columns 3
            section {
              items 3
              height 40
              span 4
            }
            section {
              items 2
              height 40
              span [1, 7]
            }
            section {
              items 2
              height 40
              span full
            }
            """, name: "t.wfl")
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        XCTAssertEqual(spec.diagnostics.map(\.code), [.spanCapped, .spanCapped])
        XCTAssertEqual(spec.diagnostics.map(\.message), [
            "the span of item 0 of section 0 is 4, more than the 3 lanes: it is capped at 3",
            "the span of item 1 of section 1 is 7, more than the 3 lanes: it is capped at 3",
        ])
        // Capped, the item is as wide as the container's lanes.
        XCTAssertEqual(spec.layouts.first?.cell(section: 1, item: 1)?.frame.width, 375)
    }

    /// Positions that outgrow the doubles are an error naming the section, never `Infinity` in a
    /// table: along the scroll axis in both directions, in both engines, and when appending.
    func testPositionsThatOverflowAreAnError() throws {
        for text in ["items 3\nheight 1e308", "direction horizontal\nitems 3\nwidth 1e308",
                     "style flow\nitems 3\nsize 300 x 1e308", "items 2\nheight 10\nfooter 1e308\nfooterInsets 1e308 0 0 0"] {
            let spec = Spec(source: text, name: "t.wfl")
            XCTAssertEqual(spec.diagnostics.map(\.code), [.positionOverflow], text)
            XCTAssertEqual(spec.diagnostics.first?.message, "section 0 reaches past the largest number a position can have (about 1.8e308)", text)
            XCTAssertTrue(spec.layouts.isEmpty, text)
        }
        // Appending items that overflow leaves the table as it was.
        let source = SourceFile(name: "t.wfl", text: "columns 1\nitems 1\nheight i == 0 ? 10 : 1e308\n")
        let program = try XCTUnwrap(Pipeline.parse(source).program)
        var feed = try XCTUnwrap(try IncrementalLayout(program: program, layout: "t"))
        let before = feed.table
        XCTAssertThrowsError(try feed.append(3, toSection: 0))
        XCTAssertEqual(feed.table, before)
        XCTAssertEqual(feed.layout.sections[0].items, 1)
    }
}
