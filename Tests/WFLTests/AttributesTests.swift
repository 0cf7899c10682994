import Foundation
import XCTest
@testable import WFL

/// `alpha`, `zoom` and `zIndex` (docs/language.md, "Attributes"): evaluated per cell at the scroll
/// offset on the frames as shown, with values computed by hand.
final class AttributesTests: XCTestCase {
    static let coverFlow = """
        style flow
        direction horizontal
        container 300 x 200
        items 8
        size 100 x 100
        let d = abs(midX - (ox + cw / 2))
        zoom max(0.8, 1.2 - d / cw)
        alpha max(0.4, 1 - d / cw)
        zIndex round(1000 - d)
        """

    func testCoverFlowAtOffsets() throws {
        let t = try XCTUnwrap(Eval.table(Self.coverFlow))
        // Cells at x = 10 * k + 100 * k... spacing 10: item k at 110 k, 100 wide, y 50.
        // At (0, 0): item 1's centre 160, the viewport's 150: d = 10;
        // zoom = max(0.8, 1.2 - 10 / 300) = 1.1666..., alpha = max(0.4, 1 - 10 / 300), zIndex 990.
        let at0 = t.at(.zero)
        XCTAssertEqual(at0.zoom(of: 1), 1.2 - 10.0 / 300)
        XCTAssertEqual(at0.alpha(of: 1), 1 - 10.0 / 300)
        XCTAssertEqual(at0.elements[1].zIndex, 990)
        // Item 0: d = |50 - 150| = 100: zIndex 900, zoom 1.2 - 1/3, alpha 1 - 1/3.
        XCTAssertEqual(at0.elements[0].zIndex, 900)
        // At (150, 0) the viewport's centre is 300: item 2 (centre 270) d = 30, zIndex 970;
        // item 0 d = 250: zoom max(0.8, 0.3666) = 0.8, alpha max(0.4, 0.1666) = 0.4.
        let at150 = t.at(Offset(x: 150, y: 0))
        XCTAssertEqual(at150.elements[2].zIndex, 970)
        XCTAssertEqual(at150.zoom(of: 0), 0.8)
        XCTAssertEqual(at150.alpha(of: 0), 0.4)
        // The frames never change: zoom is reported beside the untransformed frame.
        XCTAssertEqual(at150.elements.map(\.frame), t.elements.map(\.frame))
        // The plain table holds the values at (0, 0).
        XCTAssertEqual(t.elements[1].zIndex, 990)
        XCTAssertEqual(t.zoom(of: 1), at0.zoom(of: 1))
    }

    /// The rules see the frames as shown: after zoomFirst's walk (step 6 after step 3).
    func testRulesSeeFramesAfterZoomFirst() throws {
        let t = try XCTUnwrap(Eval.table("""
            style flow
            direction horizontal
            container 375 x 200
            spacing 10
            insets 10
            zoomFirst 120 x 150
            items 3
            size 100 x 100
            zIndex minX
            """))
        // At (0, 0): item 0 grows to (10, 25, 120, 150), total 20: item 1 moves from 120 to 140,
        // item 2 from 230 to 250.
        XCTAssertEqual(t.at(.zero).elements.map(\.zIndex), [10, 140, 250])
    }

    func testRangesClampAndRefuse() throws {
        func values(_ rule: String) -> (String, [Double], [Int]) {
            let (e, _, source) = Eval.run("columns 1\nitems 2\nheight 10\n" + rule)
            let errors = DiagnosticRenderer().render(e.diagnostics.filter { $0.severity == .error }, in: source)
            guard let t = e.tables.first else { return (errors, [], []) }
            return (errors, [t.alpha(of: 0), t.alpha(of: 1), t.zoom(of: 0), t.zoom(of: 1)], t.elements.map(\.zIndex))
        }
        // Within 0.001 of the range: clamped.
        XCTAssertEqual(values("alpha [1.0004, -0.0009]").1, [1, 0, 1, 1])
        XCTAssertEqual(values("zoom [-0.001, 3]").1, [1, 1, 0, 3])
        XCTAssertEqual(values("zIndex [2.0004, -1000000.0009]").2, [2, -1_000_000])
        // Further out: an error naming the item.
        XCTAssertTrue(values("alpha [1, 1.002]").0.contains("error: the alpha of item 1 of section 0 is 1.002: an alpha is from 0 to 1"))
        XCTAssertTrue(values("zoom -0.0011").0.contains("error: the zoom of item 0 of section 0 is -0.0011: a zoom is finite and at least 0"))
        XCTAssertTrue(values("zIndex 0.5").0.contains("a z-index is a whole number"))
        XCTAssertTrue(values("zIndex 1000001").0.contains("a z-index is from -1,000,000 to 1,000,000"))
        XCTAssertTrue(values("zoom 1 / (i - 1) + 2").0.contains("division by zero in the zoom of item 1 of section 0"))
        XCTAssertTrue(values("let k = random(0, 2)\nalpha k").0.contains("error: 'random' cannot be used in 'alpha'"))
        XCTAssertTrue(values("alpha minX + contentWidth").0.contains("'contentWidth' has no value"))
    }

    /// Without values other than 1 the outputs are as before; with them, json keys only where not
    /// 1, csv and table columns.
    func testFormatsShowAlphaAndZoomOnlyWhenUsed() throws {
        let plain = try XCTUnwrap(Eval.table("columns 1\nitems 2\nheight 10"))
        let ones = try XCTUnwrap(Eval.table("columns 1\nitems 2\nheight 10\nalpha 1\nzoom 2 - 1\nzIndex 0"))
        XCTAssertEqual(JSONFormat.format([ones]), JSONFormat.format([plain]))
        XCTAssertEqual(CSVFormat.format([ones]), CSVFormat.format([plain]))
        XCTAssertEqual(TableFormat.format(ones), TableFormat.format(plain))

        let t = try XCTUnwrap(Eval.table("columns 1\nitems 2\nheight 10\nalpha i == 0 ? 0.5 : 1\nzoom i == 1 ? 1.25 : 1\nzIndex i"))
        let json = JSONFormat.format([t])
        XCTAssertTrue(json.contains(#"{"kind": "cell", "section": 0, "item": 0, "frame": [0, 0, 375, 10], "zIndex": 0, "alpha": 0.5}"#), json)
        XCTAssertTrue(json.contains(#"{"kind": "cell", "section": 0, "item": 1, "frame": [0, 20, 375, 10], "zIndex": 1, "zoom": 1.25}"#), json)
        XCTAssertEqual(CSVFormat.format([plain, t]), """
            layout,section,item,kind,x,y,width,height,zIndex,alpha,zoom
            t,0,0,cell,0,0,375,10,0,1,1
            t,0,1,cell,0,20,375,10,0,1,1
            t,0,0,cell,0,0,375,10,0,0.5,1
            t,0,1,cell,0,20,375,10,1,1,1.25

            """)
        XCTAssertEqual(TableFormat.format(t), """
            t  waterfall vertical  container 375 x 812  content 375 x 30
            section  item  kind  x  y   width  height  z  alpha  zoom
            0        0     cell  0  0   375    10      0  0.5    1
            0        1     cell  0  20  375    10      1  1      1.25

            """)
        // The table's pieces agree with its plain twin.
        XCTAssertEqual(TableFormat.format(t), TableFormat.referenceFormat([t]))
        // Pictures: alpha as opacity, zoom as a box scaled about the centre.
        let svg = SVGFormat.format([t])
        XCTAssertTrue(svg.contains(#"<g opacity="0.5"><rect class="cell""#), svg)
        XCTAssertTrue(svg.contains("zoom 1.25</title>"), svg)
    }

    /// `--rect` evaluates the rules only for the cells the query returns: a rule that fails for
    /// cells elsewhere does not fail the query.
    func testRectEvaluatesOnlyTheCellsItReturns() throws {
        let t = try XCTUnwrap(Eval.table("columns 1\nitems 10\nheight 10\nspacing 0\nalpha oy > 0 && i > 5 ? 2 : 1"))
        let o = Offset(x: 0, y: 1)
        let indices = t.query(Frame(x: 0, y: 0, width: 10, height: 30), at: o)
        XCTAssertEqual(indices, [0, 1, 2])
        XCTAssertNil(t.only(indices, at: o).rules.attributeFailure)
        XCTAssertEqual(t.at(o).rules.attributeFailure?.message, "the alpha of item 6 of section 0 at scroll offset 0,1 is 2: an alpha is from 0 to 1")
    }

    func testExpectationFunctions() throws {
        let text = Self.coverFlow + """

            expect zIndex(0, 0) == 900
            expect zoom(0, 1) == 1.2 - 10 / 300
            expect alpha(0, 0, 150, 0) == 0.4
            expect zIndex(0, 0, 150, 0) == 750
            expect zoom(0, 9) == 1
            expect alpha(0, 3) == 1
            """
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        XCTAssertFalse(c.hasErrors)
        let outcomes = Pipeline.checkExpectations(c)
        XCTAssertEqual(outcomes.map(\.passed), [true, true, true, true, false, false])
        XCTAssertEqual(outcomes[4].diagnostic?.message, "section 0 has no item 9: it has 8")
    }

    /// `wfl diff` compares alpha and zoom as it compares frames, within the tolerance.
    func testDiffComparesAlphaAndZoom() throws {
        let a = try XCTUnwrap(Eval.table("columns 1\nitems 2\nheight 10\nalpha i == 0 ? 0.5 : 1"))
        let b = try XCTUnwrap(Eval.table("columns 1\nitems 2\nheight 10\nalpha i == 0 ? 0.5004 : 1\nzoom i == 1 ? 2 : 1"))
        let d = TableDiff.compare([ReadLayout(a.at(.zero))], [ReadLayout(b.at(.zero))])
        XCTAssertEqual(d.map { $0.describe(a: "A", b: "B") }, ["t: frame(0, 1) zoom 1 -> 2"])
        // Read back from json and csv, the same values.
        for text in [JSONFormat.format([b]), CSVFormat.format([b])] {
            let read = try TableReader.read(Array(text.utf8)).get()
            XCTAssertEqual(TableDiff.compare(read, [ReadLayout(b.at(.zero))]), [])
            XCTAssertEqual(TableDiff.compare(read, [ReadLayout(a.at(.zero))]).count, 1)
        }
    }

    /// The rect path (`only`, the rules run for the returned elements alone) gives what the whole
    /// table at the offset (`at`) gives for those elements: frames, z-indexes, alphas and zooms.
    func testOnlyIsAtFiltered() throws {
        let text = Self.coverFlow.replacingOccurrences(of: "items 8", with: "items 40")
            + "\nzoomFirst 120 x 150\nattach badge { when i % 3 == 0; size 20 x 10 }\nbackground cells\n"
        let t = try XCTUnwrap(Eval.table(text))
        for x in stride(from: 0.0, through: 4000, by: 137.5) {
            let o = Offset(x: x, y: 0)
            let whole = t.at(o)
            let indices = t.query(Frame(x: x - 40, y: 0, width: 300, height: 200), at: o)
            XCTAssertFalse(indices.isEmpty)
            let part = t.only(indices, at: o)
            XCTAssertNil(part.rules.attributeFailure)
            for (k, j) in indices.enumerated() {
                XCTAssertEqual(part.elements[k], whole.elements[j], "offset \(x), element \(j)")
                XCTAssertEqual(part.alpha(of: k), whole.alpha(of: j), "offset \(x), element \(j)")
                XCTAssertEqual(part.zoom(of: k), whole.zoom(of: j), "offset \(x), element \(j)")
            }
        }
    }

    /// The new settings written with values that add nothing (no background, alpha and zoom 1,
    /// z-index 0, a view on no cell) print exactly what the layout prints without them, on
    /// generated specs of both engines and directions.
    func testInertSettingsPrintTheSame() throws {
        var g = WaterfallPropertyTests.Generator(state: 19)
        let texts = (0..<40).map { _ in
            RectQueryPropertyTests.spec(&g)
                .replacingOccurrences(of: "attach badge", with: "attach notBadge")
                .split(separator: "\n").filter { !$0.contains("background") && !$0.contains("attach") }.joined(separator: "\n") + "\n"
        }
        // Each layout on every core; a run's assertions are recorded against this test.
        Concurrent.forEach(Array(texts.enumerated())) { run, text in
            let inert = text + "background none\nbackgroundInsets -5\nalpha 1\nzoom 1\nzIndex 0\nattach never { when false }\n"
            let (a, _, _) = Eval.run(text)
            let (b, _, _) = Eval.run(inert)
            guard let ta = a.tables.first, let tb = b.tables.first else { return XCTFail("run \(run)") }
            XCTAssertEqual(JSONFormat.format([ta.at(.zero)]), JSONFormat.format([tb.at(.zero)]), "run \(run)")
            XCTAssertEqual(CSVFormat.format([ta.at(.zero)]), CSVFormat.format([tb.at(.zero)]), "run \(run)")
            XCTAssertEqual(TableFormat.format(ta.at(.zero)), TableFormat.format(tb.at(.zero)), "run \(run)")
        }
    }

    /// The cover flow of samples/cover-flow.wfl (covers 150 wide, 10 apart, inset 20 at top and
    /// bottom, viewport 375 wide) at rest: cover k's centre is 75 + 160 k, d = 160 k - 112.5, and
    /// `round(1000 - d)` falls below -1,000,000 when d > 1,001,000, from cover 6,257 on: an error.
    /// The sample and docs/language.md clamp it with `max(-1000000, ...)`.
    func testTheCoverFlowsZIndexIsClampedForLongCarousels() throws {
        let sample = try String(contentsOf: Golden.root.appendingPathComponent("samples/cover-flow.wfl"), encoding: .utf8)
        XCTAssertTrue(sample.contains("zIndex max(-1000000, round(1000 - d))"))
        let long = sample.replacingOccurrences(of: "items 12", with: "items 6300")
            .split(separator: "\n").filter { !$0.hasPrefix("expect") }.joined(separator: "\n")
        XCTAssertNotEqual(long, sample)
        let t = try XCTUnwrap(Eval.table(long))
        // Cover 6,299: d = 160 * 6299 - 112.5 = 1,007,727.5, clamped to -1,000,000.
        XCTAssertEqual(t.elements[6299].zIndex, -1_000_000)
        // Cover 6,256: d = 1,000,847.5: round(-999,847.5) = -999,848 (half away from zero).
        XCTAssertEqual(t.elements[6256].zIndex, -999_848)
        let unclamped = long.replacingOccurrences(of: "zIndex max(-1000000, round(1000 - d))", with: "zIndex round(1000 - d)")
        XCTAssertTrue(Eval.errors(unclamped).contains("item 6257 of section 0"), Eval.errors(unclamped))
    }
}
