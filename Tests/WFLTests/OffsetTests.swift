import Foundation
import XCTest
@testable import WFL

/// Pinned headers, zoomFirst and snap (docs/layout.md), and the offset forms of the `expect`
/// functions.
final class OffsetTests: XCTestCase {
    func rect(_ f: Frame) -> [Double] { [f.x, f.y, f.width, f.height] }

    /// Evaluates the `expect` lines of `text`, which must all hold.
    func expectAll(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (e, program, source) = Eval.run(text, file: file, line: line)
        XCTAssertFalse(e.diagnostics.hasErrors, DiagnosticRenderer().render(e.diagnostics, in: source), file: file, line: line)
        let table = try XCTUnwrap(e.tables.first, file: file, line: line)
        let results = ExpectationChecker(program: program).check(layout: table.name, table: table)
        XCTAssertFalse(results.isEmpty, file: file, line: line)
        for r in results {
            XCTAssertNil(r.diagnostic.map { DiagnosticRenderer().render($0, in: source) }, r.expression, file: file, line: line)
            XCTAssertEqual(r.verdict, .passed, r.expression, file: file, line: line)
        }
    }

    /// Header (0, 0, 375, 40); cells from 40 to 250; footer at 250: limit = 250 - 40 = 210.
    let pinned = """
        container 375 x 600
        columns 2
        pinHeaders true
        section {
          header 40
          items 4
          height 100
          footer 20
        }
        section {
          header 30
          items 2
          height 50
        }
        """

    func testPinnedHeadersVertical() throws {
        let t = try XCTUnwrap(Eval.table(pinned))
        let h0 = try XCTUnwrap(t.sectionStarts[0].header), h1 = try XCTUnwrap(t.sectionStarts[1].header)
        // y = max(naturalY, min(oy, limit)).
        XCTAssertEqual(rect(t.frame(of: h0, at: Offset(x: 0, y: -50))), [0, 0, 375, 40])
        XCTAssertEqual(rect(t.frame(of: h0, at: Offset(x: 0, y: 100))), [0, 100, 375, 40])
        XCTAssertEqual(rect(t.frame(of: h0, at: Offset(x: 0, y: 210))), [0, 210, 375, 40])
        XCTAssertEqual(rect(t.frame(of: h0, at: Offset(x: 0, y: 400))), [0, 210, 375, 40])
        // Section 1 starts at 270 (after the footer); no footer: limit = end (270 + 30 + 50) - 30.
        XCTAssertEqual(rect(t.frame(of: h1, at: Offset(x: 0, y: 100))), [0, 270, 375, 30])
        XCTAssertEqual(rect(t.frame(of: h1, at: Offset(x: 0, y: 300))), [0, 300, 375, 30])
        XCTAssertEqual(rect(t.frame(of: h1, at: Offset(x: 0, y: 900))), [0, 320, 375, 30])
        // Cells and footers never move; ox is ignored in a vertical layout.
        XCTAssertEqual(rect(t.frame(of: 1, at: Offset(x: 77, y: 100))), rect(t.elements[1].frame))
        XCTAssertEqual(t.at(Offset(x: 0, y: 100)).elements[0].frame.y, 100)
        try expectAll(pinned + """

            expect header(0) == [0, 0, 375, 40]
            expect header(0, 0, 100) == [0, 100, 375, 40]
            expect header(0, 0, 1000) == [0, 210, 375, 40]
            expect header(1, 0, 300)[1] == 300
            expect frame(0, 3, 0, 500) == frame(0, 3)
            """)
    }

    func testUnpinnedHeadersStay() throws {
        let t = try XCTUnwrap(Eval.table(pinned.replacingOccurrences(of: "pinHeaders true", with: "pinHeaders s == 1")))
        XCTAssertEqual(t.frame(of: 0, at: Offset(x: 0, y: 100)).y, 0)
        XCTAssertEqual(t.frame(of: t.sectionStarts[1].header!, at: Offset(x: 0, y: 300)).y, 300)
        XCTAssertFalse(try XCTUnwrap(Eval.table("items 2\nheader 10")).movesWithOffset)
    }

    /// Horizontal: the same along x with ox, in both engines.
    func testPinnedHeadersHorizontal() throws {
        for style in ["waterfall\nrows 1\nwidth 100", "flow\nsize 100 x 100"] {
            let t = try XCTUnwrap(Eval.table("direction horizontal\ncontainer 300 x 200\nspacing 10\npinHeaders true\nheader 40\nitems 3\nstyle \(style)"))
            // Items from 40 to 360 (flow: one item a column in 200), end 360: limit 320.
            XCTAssertEqual(t.contentWidth, 360, style)
            XCTAssertEqual(rect(t.frame(of: 0, at: Offset(x: 150, y: 999))), [150, 0, 40, 200], style)
            XCTAssertEqual(rect(t.frame(of: 0, at: Offset(x: 500, y: 0))), [320, 0, 40, 200], style)
        }
    }

    /// The carousel of seed 002: 100x100 items, zoomFirst 120 x 150, insets 10, one item a column.
    let carousel = """
        style flow
        direction horizontal
        container 375 x 200
        spacing 10
        insets 10
        zoomFirst 120 x 150
        items 6
        size 100 x 100
        """

    func testZoomFirst() throws {
        let t = try XCTUnwrap(Eval.table(carousel))
        // Flow frames: one item a column (210 > ah 180), centred along it: y = 10 + (180 - 100) / 2;
        // x = 10, 120, 230, ...
        XCTAssertEqual(rect(t.elements[0].frame), [10, 50, 100, 100])
        XCTAssertEqual(rect(t.elements[1].frame), [120, 50, 100, 100])
        // Offset 0: first = (10, 10, 100, 100) covers item 0: iw = 100, newW = 120, newH = 150;
        // y = centre 100 - 75. Items from x >= 110 move by 20.
        let at0 = t.at(.zero)
        XCTAssertEqual(rect(at0.elements[0].frame), [10, 25, 120, 150])
        XCTAssertEqual(rect(at0.elements[1].frame), [140, 50, 100, 100])
        XCTAssertEqual(rect(at0.elements[5].frame), [580, 50, 100, 100])
        // Offset 50: first = (60, 10, 100, 100). Item 0: iw = 50, newW = 110, newH = 125,
        // y = 100 - 62.5; total 10. Item 1 (120..220): iw = 40, newW = 108, newH = 120, x = 130,
        // y = 40; total 18. The rest move by 18.
        let at50 = t.at(Offset(x: 50, y: 0))
        XCTAssertEqual(rect(at50.elements[0].frame), [10, 37.5, 110, 125])
        XCTAssertEqual(rect(at50.elements[1].frame), [130, 40, 108, 120])
        XCTAssertEqual(rect(at50.elements[2].frame), [248, 50, 100, 100])
        // Offset 110 (a snap point): first = (120, 10, 100, 100); item 1 fully zoomed, item 0
        // (10 to 110) does not meet first and is not after it, the rest move by 20.
        let at110 = t.at(Offset(x: 110, y: 0))
        XCTAssertEqual(rect(at110.elements[0].frame), [10, 50, 100, 100])
        XCTAssertEqual(rect(at110.elements[1].frame), [120, 25, 120, 150])
        XCTAssertEqual(rect(at110.elements[2].frame), [250, 50, 100, 100])
        // The content size stays that of the plain flow layout.
        XCTAssertEqual(at50.contentWidth, t.contentWidth)
        // The single-element form agrees with the whole walk.
        for o in [0.0, 20, 50, 110, 165, 400] {
            let whole = t.at(Offset(x: o, y: 0))
            for j in t.elements.indices {
                XCTAssertEqual(rect(t.frame(of: j, at: Offset(x: o, y: 0))), rect(whole.elements[j].frame), "offset \(o), element \(j)")
            }
        }
        try expectAll(carousel + """

            expect frame(0, 0) == [10, 25, 120, 150]
            expect frame(0, 1, 50, 0) == [130, 40, 108, 120]
            expect snap(50) == 110
            expect snap(110) == 110
            expect snap(111) == 220
            expect snap(0) == 0
            expect count(0, 0, 375, 200) == 4
            """)
    }

    func testSnap() throws {
        // Vertical flow: stride = item 0's height + rs = 50. Sixty items, three a line: 20 lines,
        // content 20 * 42 + 19 * 8 = 992, so the offset rests in [0, 992 - 812 = 180]. (Before
        // snap was clamped, snap(-60) was -50 and snap(170) 200; this test used three items,
        // whose content is shorter than the container and now snaps to 0 everywhere.)
        try expectAll("style flow\nspacing 8 10\nitems 60\nsize 100 x 42\nexpect snap(1) == 50\nexpect snap(100) == 100\nexpect snap(-60) == 0\nexpect snap(170) == 180")
        try expectAll("style flow\nspacing 8 10\nitems 3\nsize 100 x 42\nexpect snap(1) == 0\nexpect snap(100) == 0")
        // snapping nearest: round(p / 50) * 50, half away from zero, then clamped.
        try expectAll("style flow\nsnapping nearest\nspacing 8 10\nitems 60\nsize 100 x 42\nexpect snap(24) == 0\nexpect snap(25) == 50\nexpect snap(74) == 50\nexpect snap(160) == 150\nexpect snap(176) == 180")
        // Horizontal: along x, within [0, contentWidth - cw].
        try expectAll("style flow\ndirection horizontal\ncontainer 300 x 100\nsnapping nearest\nitems 10\nsize 90 x 90\nexpect contentWidth == 990\nexpect snap(140) == 100\nexpect snap(700) == 690")
        let (e, program, _) = Eval.run("items 3\nheight 10\nexpect snap(3) == 1")
        let r = ExpectationChecker(program: program).check(layout: "t", table: try XCTUnwrap(e.tables.first))
        XCTAssertEqual(r.first?.verdict, .error)
        XCTAssertTrue(r.first?.diagnostic?.message.contains("'snap' works only in a flow layout") ?? false)
        let (e2, p2, _) = Eval.run("style flow\nsection {\n}\nsection {\n items 2\n}\nexpect snap(3) == 1")
        let r2 = ExpectationChecker(program: p2).check(layout: "t", table: try XCTUnwrap(e2.tables.first))
        XCTAssertTrue(r2.first?.diagnostic?.message.contains("section 0 has no items") ?? false)
    }
}
