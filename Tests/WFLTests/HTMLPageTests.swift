import Foundation
import XCTest
@testable import WFL

/// The html pages of transforms, groups and scroll paths (issues 29, 30, 31): translate and rotate
/// drawn through the spec's matrix on the slider page, its table's columns, the transitions'
/// Play animating them. (The pages in a real browser: .ci/browser-check.)
final class HTMLPageTests: XCTestCase {
    static let turning = Golden.root.appendingPathComponent("Tests/Fixtures/pictures/turning.wfl")

    func compile(_ url: URL, shelves: [Int: Double] = [:]) throws -> Compilation {
        let source = try Golden.source(url)
        let c = Pipeline.evaluate(Pipeline.parse(source), shelves: shelves)
        XCTAssertFalse(c.hasErrors, DiagnosticRenderer().render(c.diagnostics, in: source))
        return c
    }

    /// The JSON the page's script reads, of its `k`-th layout.
    func data(_ html: String, _ k: Int = 0) throws -> [String: Any] {
        var from = html.startIndex
        var range: Range<String.Index>? = nil
        for _ in 0...k {
            range = try XCTUnwrap(html.range(of: "<script type=\"application/json\" class=\"data\">", range: from..<html.endIndex))
            from = range!.upperBound
        }
        let end = try XCTUnwrap(html.range(of: "</script>", range: from..<html.endIndex))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(html[from..<end.lowerBound].utf8)) as? [String: Any])
    }

    /// At every slider offset the page carries each used translate and rotate, exact, with the
    /// zoom its matrix takes: what `wfl run --offset` gives there.
    func testSliderCarriesTranslateAndRotateAtEachOffset() throws {
        let t = try XCTUnwrap(compile(Self.turning).tables.first)
        let html = HTMLFormat.format([t])
        let d = try data(html)
        let offsets = try XCTUnwrap(d["offsets"] as? [[Double]])
        let moves = try XCTUnwrap(d["moves"] as? [[Double]])
        XCTAssertEqual(moves.count, offsets.count)
        XCTAssertGreaterThan(offsets.count, 20)
        for (k, o) in offsets.enumerated() {
            let at = t.at(Offset(x: o[0], y: o[1]))
            var expected: [Double] = []
            for j in at.elements.indices where !at.transform(of: j).isIdentity {
                let m = at.transform(of: j)
                expected += [Double(j), m.tx, m.ty, m.rotate, at.zoom(of: j)]
            }
            XCTAssertEqual(moves[k].count, expected.count, "at \(o)")
            for (a, b) in zip(moves[k], expected) { XCTAssertEqual(a, b, accuracy: 1e-9, "at \(o)") }
        }
        // The table's columns, as the table format adds them, and item 0 at rest: p = (120 -
        // 150) / 300 = -0.1, rotate -3, translate 0 x 4.
        XCTAssertTrue(html.contains("<th>z</th><th>translateX</th><th>translateY</th><th>rotate</th></tr>"), html)
        XCTAssertTrue(html.contains("<tr data-j=\"0\" class=\"cell-row\"><td>0</td><td>0</td><td>cell</td><td>20</td><td>50</td><td>200</td><td>300</td><td>0</td><td>0</td><td>4</td><td>-3</td></tr>"), html)
        // The script draws through the spec's matrix: a = z cos t, b = z sin t, c = -z sin t.
        XCTAssertTrue(html.contains("var a = z * cs, b = z * sn, c = -z * sn, dd = z * cs;"))
    }

    /// Pages of files without translate or rotate are as they were: no data, no columns, and the
    /// transitions' boxes scale only.
    func testPagesWithoutTransformsAreUnchanged() throws {
        let cover = try compile(Golden.root.appendingPathComponent("samples/cover-flow.wfl"))
        let html = HTMLFormat.format(cover.tables)
        XCTAssertFalse(html.contains("\"moves\"") || html.contains("<th>translateX</th>"))
        XCTAssertTrue(html.contains("<th>z</th><th>alpha</th><th>zoom</th></tr>"))
        let feed = try compile(Golden.root.appendingPathComponent("samples/feed-update.wfl"))
        let page = TransitionsHTML.format(try feed.transitionTables())
        XCTAssertFalse(page.contains("transform: translate(") || page.contains("<th>translateX</th>"))
        XCTAssertTrue(page.contains("transform: scale(0.5)\""))
    }

    /// The transitions' page: both ends carry translate and rotate where some end uses one, the
    /// box is drawn at `from` with them (moved, turned, scaled: CSS applies the rightmost first),
    /// the table has their columns, and Play turns the shorter way.
    func testTransitionsCarryTranslateAndRotate() throws {
        let c = try compile(Self.turning)
        let page = TransitionsHTML.format(try c.transitionTables())
        // The card inserted at 1 appears from appear { rotate 270 (-90), translate 0 x 60, zoom
        // 0.5 } to its rules' values at rest: p = (340 - 150) / 300, rotate 19, translate 0 x 25.333.
        XCTAssertTrue(page.contains("<div class=\"box cell appear\" data-j=\"1\" data-from=\"240,50,200,300,0,0.5,0,60,-90\" data-to=\"240,50,200,300,1,1,0,25.333333333333332,19\""), page)
        XCTAssertTrue(page.contains("style=\"left: 240px; top: 50px; width: 200px; height: 300px; opacity: 0; transform: translate(0px, 60px) rotate(-90deg) scale(0.5)\""), page)
        XCTAssertTrue(page.contains("<th>zoom</th><th>translateX</th><th>translateY</th><th>rotate</th><th>to x</th>"), page)
        XCTAssertTrue(page.contains("<td>0</td><td>60</td><td>-90</td>"), page)
        XCTAssertTrue(page.contains("var r = from ? from[8] + turn(v[8] - from[8]) : v[8];"))
    }

    // MARK: groups

    /// The featured sample's instances, worked by hand (samples/featured.wfl): the top group 360
    /// x 368 at (15, 8) and (15, 388); in each, the row of 240 at its origin, the vertical pair at
    /// x + 232 + 12 = 244, the row of three at y + 240 + 12 = 252.
    func testGroupOutlinesOfTheFeaturedPage() throws {
        let t = try XCTUnwrap(compile(Golden.root.appendingPathComponent("samples/featured.wfl")).tables.first)
        let g = try XCTUnwrap(t.scroll.groups.first)
        XCTAssertEqual(t.scroll.groups.count, 1)
        XCTAssertEqual(g.count, 2)
        let frames = (0..<2).flatMap { i in g.outlines.indices.map { g.frame($0, of: i) } }
        XCTAssertEqual(frames, [
            Frame(x: 15, y: 8, width: 360, height: 368), Frame(x: 15, y: 8, width: 360, height: 240),
            Frame(x: 259, y: 8, width: 116, height: 240), Frame(x: 15, y: 260, width: 360, height: 116),
            Frame(x: 15, y: 388, width: 360, height: 368), Frame(x: 15, y: 388, width: 360, height: 240),
            Frame(x: 259, y: 388, width: 116, height: 240), Frame(x: 15, y: 640, width: 360, height: 116),
        ])
        // The page outlines them above the boxes, in the picture's pixels (area at (20, 94)):
        // instance 1's top group at (35, 482).
        let html = HTMLFormat.format([t])
        XCTAssertEqual(html.components(separatedBy: "<rect class=\"group\"").count - 1, 8)
        XCTAssertTrue(html.contains("<rect class=\"group\" data-depth=\"0\" data-instance=\"1\" x=\"35\" y=\"482\" width=\"360\" height=\"368\""), html)
        XCTAssertTrue(html.contains("<rect class=\"group\" data-depth=\"1\" data-instance=\"0\" x=\"279\" y=\"102\" width=\"116\" height=\"240\""), html)
        // A file without groups has none, and the svg format draws none.
        XCTAssertFalse(HTMLFormat.format(try compile(Golden.root.appendingPathComponent("samples/feed.wfl")).tables).contains("class=\"groups\""))
        XCTAssertFalse(SVGFormat.format([t]).contains("class=\"group\""))
    }

    /// A shelf of groups: the instances are its columns, at x 16, 326, 636 (samples/shelf-of-groups.wfl),
    /// moved with the shelf's own offset, mirrored in a right-to-left layout.
    func testGroupOutlinesOfAShelfMoveAndMirror() throws {
        let url = Golden.root.appendingPathComponent("samples/shelf-of-groups.wfl")
        let t = try XCTUnwrap(compile(url).tables.first)
        let g = try XCTUnwrap(t.scroll.groups.first)
        XCTAssertEqual((0..<g.count).map { g.frame(0, of: $0) }, [16, 326, 636].map { Frame(x: $0, y: 40, width: 300, height: 232) })
        let moved = try XCTUnwrap(compile(url, shelves: [0: 100]).tables.first)
        XCTAssertEqual(try XCTUnwrap(moved.scroll.groups.first).frame(0, of: 1), Frame(x: 226, y: 40, width: 300, height: 232))
        // Every cell lies in its instance, at every offset of the shelf.
        for table in [t, moved] {
            let outlines = try XCTUnwrap(table.scroll.groups.first)
            for e in table.elements where e.kind == .cell && e.section == 0 {
                let box = outlines.frame(0, of: (e.item ?? 0) / 3)
                XCTAssertTrue(e.frame.x >= box.x && e.frame.maxX <= box.maxX && e.frame.y >= box.y && e.frame.maxY <= box.maxY, "\(e.frame) in \(box)")
            }
        }
        // Right to left: the mirror image within the container, 390 - x - 300.
        var text = try String(contentsOf: url, encoding: .utf8)
        text = "layoutDirection rightToLeft\n" + text
        let source = SourceFile(name: "rtl.wfl", text: text)
        let c = Pipeline.evaluate(Pipeline.parse(source), shelves: [0: 100])
        XCTAssertFalse(c.hasErrors, DiagnosticRenderer().render(c.diagnostics, in: source))
        let rtl = try XCTUnwrap(try XCTUnwrap(c.tables.first).scroll.groups.first)
        XCTAssertEqual(rtl.frame(0, of: 1), Frame(x: 390 - 226 - 300, y: 40, width: 300, height: 232))
    }

    // MARK: shelf sliders

    /// The compositional carousel's band is 45 + 3 * 300 + 2 * 10 + 45 = 1010 wide, so its slider
    /// runs from 0 to 1010 - 390 = 620, in 48 steps (155 and 310, the carousel's worked offsets, among
    /// them); each stop is the table `--shelf 0=X` gives, and the page carries its frames and
    /// zooms.
    func testShelfSliderStopsAreTheTablesOfShelfOffsets() throws {
        let url = Golden.root.appendingPathComponent("samples/compositional-carousel.wfl")
        let c = try compile(url)
        let sliders = c.shelfSliders(c.tables, only: nil, given: [:], after: false)
        let sl = try XCTUnwrap(sliders.first)
        XCTAssertEqual(sliders.count, 1)
        XCTAssertEqual(sl.section, 0)
        XCTAssertEqual(sl.values.first, 0)
        XCTAssertEqual(sl.values.last, 620)
        XCTAssertEqual(sl.values.count, 49)
        XCTAssertEqual(sl.start, 0)
        let k = try XCTUnwrap(sl.values.firstIndex(of: 310))
        XCTAssertEqual(sl.tables[k], try XCTUnwrap(compile(url, shelves: [0: 310]).tables.first))
        // At 310 the cards' zooms are 0.75, 1, 0.75 (docs/layout.md, "Shelf offsets and transforms").
        XCTAssertEqual((0..<3).map { sl.tables[k].zoom(of: $0) }, [0.75, 1, 0.75])
        let html = HTMLFormat.format(c.tables, shelves: sliders)
        XCTAssertTrue(html.contains("<p class=\"shelf-slider\" data-section=\"0\"><label>shelf 0 sideways sx <input type=\"range\" min=\"0\" max=\"48\" value=\"0\"></label>"), html)
        let d = try data(html)
        let shelves = try XCTUnwrap(d["shelves"] as? [[String: Any]])
        let diffs = try XCTUnwrap(shelves.first?["diffs"] as? [[Double]])
        let looks = try XCTUnwrap(shelves.first?["looks"] as? [[Double]])
        // Cards at -265, 45, 355; zooms (j, alpha, zoom).
        XCTAssertEqual(diffs[k], [0, -265, 0, 300, 200, 1, 45, 0, 300, 200, 2, 355, 0, 300, 200])
        XCTAssertEqual(looks[k], [0, 1, 0.75, 2, 1, 0.75])
        // A given --shelf is where the slider starts; a band that fits has no slider.
        let given = c.shelfSliders(c.tables, only: nil, given: [0: 100], after: false)
        XCTAssertEqual(given.first.map { $0.values[$0.start] }, 100)
        XCTAssertNil(HTMLFormat.shelfValues(390, containerWidth: 390, given: 0))
    }

    // MARK: scroll paths

    /// The worked self-sizing waterfall: the first display leaves 6-9 at their estimates, adjustments
    /// (0, 0) and (0, -160); `to 0, 500` ends at 400 with (0, -100) and (0, -100), all measured.
    func testPathStopsAreTheWorkedExample() throws {
        let c = try compile(Golden.root.appendingPathComponent("Tests/Fixtures/pictures/self-sizing.wfl"))
        let l = try XCTUnwrap(c.layouts.first)
        let p = try XCTUnwrap(try l.pathStops([PathStep(Offset(x: 0, y: 500))]))
        XCTAssertEqual(p.numbers, [1, 2])
        XCTAssertEqual(p.total, 2)
        let first = try XCTUnwrap(p.tables[0].sizing), second = try XCTUnwrap(p.tables[1].sizing)
        XCTAssertEqual(first.state, PathState(offset: .zero, offsetAdjustment: .zero, sizeAdjustment: Size(width: 0, height: -160)))
        XCTAssertEqual((0..<10).filter { first.isEstimated($0) }, [6, 7, 8, 9])
        XCTAssertEqual(p.tables[0].elements[8].frame, Frame(x: 10, y: 670, width: 180, height: 200))
        XCTAssertEqual(second.state, PathState(offset: Offset(x: 0, y: 400), offsetAdjustment: Offset(x: 0, y: -100), sizeAdjustment: Size(width: 0, height: -100)))
        XCTAssertEqual((0..<10).filter { second.isEstimated($0) }, [])
        // The same as `wfl run --scroll 0,500`.
        XCTAssertEqual(p.tables[1], try l.sized(phase: .measured, steps: [PathStep(Offset(x: 0, y: 500))], offset: nil))
        // A long path keeps `limit` stops, the first and the last among them: down by 10 to 400
        // is 41 stops.
        let long = try XCTUnwrap(try l.pathStops([PathStep(Offset(x: 0, y: 400), by: 10)], limit: 5))
        XCTAssertEqual(long.total, 41)
        XCTAssertEqual(long.numbers, [1, 11, 21, 31, 41])
        XCTAssertEqual(long.tables.last, try l.sized(phase: .measured, steps: [PathStep(Offset(x: 0, y: 400), by: 10)], offset: nil))
        // The page: a slider over the stops, starting at the last, the adjustments beside it, an
        // `estimated` column.
        let html = HTMLFormat.format([p.tables[1]], offset: Offset(x: 0, y: 400), paths: [HTMLFormat.PathPlayer(layout: 0, stops: p.tables, numbers: p.numbers, total: p.total)])
        XCTAssertTrue(html.contains("<p class=\"slider path-slider\"><label>stop <input type=\"range\" min=\"0\" max=\"1\" value=\"1\"></label> <output>0,400</output> <span class=\"adjust\">contentOffsetAdjustment 0, -100 · contentSizeAdjustment 0, -100</span> <span class=\"hint stopno\">stop 2 of 2</span>"), html)
        XCTAssertTrue(html.contains("<tspan class=\"adj1\">offset adjusted 0, -100</tspan>"), html)
        XCTAssertTrue(html.contains("<th>estimated</th></tr>"))
        let d = try data(html)
        let path = try XCTUnwrap(d["path"] as? [String: Any])
        XCTAssertEqual(path["estimated"] as? [[Int]], [[6, 7, 8, 9], []])
        XCTAssertEqual(path["adjust"] as? [[Double]], [[0, 0, 0, -160], [0, -100, 0, -100]])
        XCTAssertEqual(path["contents"] as? [[Double]], [[390, 900], [390, 800]])
    }
}
