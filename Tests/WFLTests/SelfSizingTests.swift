import Foundation
import XCTest
@testable import WFL

/// Self-sizing cells along scroll paths (docs/layout.md, "Self-sizing cells"): the two worked
/// examples number by number, and the properties of paths.
final class SelfSizingTests: XCTestCase {
    static let waterfall = """
        container 390 x 400
        columns 2
        spacing 10
        insets 10
        items 10
        estimate 200
        height [120, 260, 200, 80, 100, 100, 150, 150, 150, 150]
        """

    static let flow = """
        container 390 x 250
        style flow
        spacing 10
        insets 10
        items 12
        let hs = [60, 140, 100, 100, 80, 160, 50, 130, 90, 90, 100, 100]
        estimate 180 x 100
        size 180 x hs[i]
        """

    /// The first layout of `text`, evaluated without errors.
    func layout(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> EvaluatedLayout {
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        XCTAssertFalse(c.hasErrors, DiagnosticRenderer().render(c.diagnostics, in: c.source), file: file, line: line)
        return try XCTUnwrap(c.layouts.first, file: file, line: line)
    }

    func path(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> SelfSizingPath {
        let l = try layout(text, file: file, line: line)
        return try XCTUnwrap(l.selfSizing, "not self-sizing", file: file, line: line).path()
    }

    func ys(_ t: AttributeTable) -> [Double] { t.elements.filter { $0.kind == .cell }.map(\.frame.y) }

    func testWaterfallWorkedExample() throws {
        var p = try path(Self.waterfall)
        // Estimated: rows of two at y 10, 220, 430, 640, 850; item 2 = [10, 220, 180, 200]; content 1060.
        XCTAssertEqual(ys(p.table), [10, 10, 220, 220, 430, 430, 640, 640, 850, 850])
        XCTAssertEqual(Eval.rect(p.table.elements[2]), [10, 220, 180, 200])
        XCTAssertEqual(p.table.contentHeight, 1060)
        // First display: 0-5 measured; 6-9 estimates at 460, 480, 670, 690; content 900.
        try p.firstDisplay()
        XCTAssertEqual(ys(p.table), [10, 10, 140, 280, 350, 370, 460, 480, 670, 690])
        XCTAssertEqual((0..<10).map { p.isMeasured(section: 0, item: $0) }, (0..<10).map { $0 < 6 })
        XCTAssertEqual(p.table.contentHeight, 900)
        XCTAssertEqual(p.state, PathState(offset: .zero, offsetAdjustment: .zero, sizeAdjustment: Size(width: 0, height: -160)))
        // `to 0, 500`: the measured table; 6 stays at 460; oy clamps to 400.
        try p.scroll(to: Offset(x: 0, y: 500))
        let measured = try layout(Self.waterfall).before
        XCTAssertEqual(p.table.elements, measured.elements)
        XCTAssertEqual(Eval.rect(p.table.elements[9]), [200, 640, 180, 150])
        XCTAssertEqual(p.table.contentHeight, 800)
        XCTAssertEqual(p.state, PathState(offset: Offset(x: 0, y: 400), offsetAdjustment: Offset(x: 0, y: -100),
                                          sizeAdjustment: Size(width: 0, height: -100)))
        XCTAssertEqual(p.stops, 2)
    }

    func testFlowWorkedExample() throws {
        var p = try path(Self.flow)
        // Estimated: lines at y 10 + 110k; content 670.
        XCTAssertEqual(ys(p.table), (0..<12).map { Double(10 + 110 * ($0 / 2)) })
        XCTAssertEqual(p.table.contentHeight, 670)
        // First display: lines 0-2 measured at 10, 160, 270 (item 0 at 50); estimates at 440, 550, 660.
        try p.firstDisplay()
        XCTAssertEqual(ys(p.table), [50, 10, 160, 160, 310, 270, 440, 440, 550, 550, 660, 660])
        XCTAssertEqual(p.table.contentHeight, 770)
        XCTAssertEqual(p.state.offset, .zero)
        // `to 0, 450`: item 6 at 480, oy 490; adjustments (0, 40), (0, 20).
        try p.scroll(to: Offset(x: 0, y: 450))
        XCTAssertEqual(p.table.elements[6].frame.y, 480)
        XCTAssertEqual(p.table.elements[7].frame.y, 440)
        XCTAssertEqual(ys(p.table).suffix(4), [580, 580, 680, 680])
        XCTAssertEqual(p.table.contentHeight, 790)
        XCTAssertEqual(p.state, PathState(offset: Offset(x: 0, y: 490), offsetAdjustment: Offset(x: 0, y: 40),
                                          sizeAdjustment: Size(width: 0, height: 20)))
    }

    /// `by D`: max(1, ceil(|target - o| / D)) stops, D apart from where the last stop ended.
    func testStepsAndTheirLimit() throws {
        var p = try path(Self.waterfall)
        try p.firstDisplay()
        try p.scroll(to: Offset(x: 0, y: 300), by: 100)
        XCTAssertEqual(p.stops, 4)
        try p.scroll(to: Offset(x: 0, y: 300), by: 100)
        XCTAssertEqual(p.stops, 5, "a step to where the path stands is one stop")
        XCTAssertThrowsError(try p.scroll(to: Offset(x: 0, y: 0), by: 0))
        XCTAssertThrowsError(try p.scroll(to: Offset(x: 0, y: 1e9), by: 1)) { e in
            guard case PathFailure.tooManyStops = e else { return XCTFail("\(e)") }
        }
    }

    /// Every stop of `by D` measures what it shows, forward (o + k * D) and back (o - k * D), and
    /// only that: one item a line, estimates 100 tall, actual 50 (traced by hand).
    func testStepsMeasureOnTheWayForwardAndBack() throws {
        var p = try path("""
            container 100 x 100
            style flow
            spacing 0
            items 20
            estimate 100 x 100
            size 100 x 50
            """)
        func measured() -> [Int] { (0..<20).filter { p.isMeasured(section: 0, item: $0) } }
        try p.firstDisplay()
        XCTAssertEqual(measured(), [0, 1], "item 2 starts at 100, where the viewport ends")
        // Stops at 300, 600, 900, 1000: each measures the estimate it shows and the one that
        // then slides into view; the items in between stay estimates.
        try p.scroll(to: Offset(x: 0, y: 1000), by: 300)
        XCTAssertEqual(p.stops, 5)
        XCTAssertEqual(measured(), [0, 1, 4, 5, 8, 9, 12, 13, 14, 15])
        XCTAssertEqual(p.state.offset, Offset(x: 0, y: 1000))
        // Back by 450 from 1000: stops at 550, 100, then 0.
        try p.scroll(to: Offset(x: 0, y: 0), by: 450)
        XCTAssertEqual(p.stops, 8)
        XCTAssertEqual(measured(), [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 14, 15])
        XCTAssertEqual(p.table.contentHeight, 13 * 50 + 7 * 100)
        XCTAssertEqual(p.state, PathState(offset: .zero, offsetAdjustment: .zero, sizeAdjustment: Size(width: 0, height: 0)))
    }

    /// A random self-sizing file: a waterfall or a flow, estimates around the actual sizes.
    func randomFile(_ r: inout SeededRandom) -> String {
        let n = 1 + r.below(40)
        let heights = (0..<n).map { _ in String(20 + r.below(300)) }.joined(separator: ", ")
        let ch = 150 + r.below(500)
        if r.below(2) == 0 {
            return """
                container 390 x \(ch)
                columns \(1 + r.below(3))
                spacing \(r.below(12))
                insets \(r.below(20))
                items \(n)
                estimate \(10 + r.below(400))
                height [\(heights)]
                """
        }
        return """
            container 390 x \(ch)
            style flow
            spacing \(r.below(12))
            insets \(r.below(20))
            items \(n)
            estimate \(40 + r.below(300)) x \(10 + r.below(300))
            size \(40 + r.below(300)) x [\(heights)][i]
            """
    }

    /// A path visiting every screen from the top to the bottom ends in the measured table.
    func testEveryScreenTopToBottomEndsMeasured() throws {
        var r = SeededRandom(seed: 30)
        for _ in 0..<(Stress.enabled ? 400 : 40) {
            let text = randomFile(&r)
            let l = try layout(text)
            var p = try l.selfSizing!.path()
            try p.firstDisplay()
            var guardStops = 0
            while p.state.offset.y < max(0, p.table.contentHeight - p.table.containerHeight), guardStops < 10_000 {
                try p.scroll(to: Offset(x: 0, y: p.state.offset.y + p.table.containerHeight))
                guardStops += 1
            }
            XCTAssertEqual(p.table.elements, l.before.elements, text)
            XCTAssertEqual(p.table.contentHeight, l.before.contentHeight, text)
            XCTAssertTrue((0..<l.before.elements.count).allSatisfy { p.isMeasured(section: 0, item: $0) }, text)
        }
    }

    /// A waterfall or a flow section whose estimates are its cells' actual sizes (no line break
    /// at the end).
    static func exactEstimates(_ r: inout SeededRandom) -> String {
        let h = 20 + r.below(200), n = 1 + r.below(60)
        return r.below(2) == 0
            ? "container 390 x 400\ncolumns \(1 + r.below(3))\nitems \(n)\nestimate \(h)\nheight \(h)"
            : "container 390 x 400\nstyle flow\nitems \(n)\nestimate 100 x \(h)\nsize 100 x \(h)"
    }

    /// With estimates equal to the actual sizes no stop moves anything.
    func testExactEstimatesMoveNothing() throws {
        var r = SeededRandom(seed: 31)
        for _ in 0..<(Stress.enabled ? 300 : 30) {
            let text = Self.exactEstimates(&r)
            let l = try layout(text)
            var p = try l.selfSizing!.path()
            try p.firstDisplay()
            for _ in 0..<5 {
                try p.scroll(to: Offset(x: 0, y: Double(r.below(3000)) - 500), by: r.below(2) == 0 ? nil : Double(50 + r.below(400)))
                XCTAssertEqual(p.table.elements, l.before.elements, text)
                XCTAssertEqual(p.state.offsetAdjustment, .zero, text)
                XCTAssertEqual(p.state.sizeAdjustment, Size(width: 0, height: 0), text)
            }
        }
    }

    /// A cell straddling the top edge grows: it is the anchor and stays put, pushing what lies
    /// below (the jump users see); the offset does not move.
    func testAnchorAtTheTopEdgePushesWhatIsBelow() throws {
        var p = try path("container 100 x 300\ncolumns 1\nspacing 0\nitems 50\nestimate 100\nheight 200")
        try p.firstDisplay()
        try p.scroll(to: Offset(x: 0, y: 1000))
        // The first display measured items 0-2 (200 high each): estimates follow from 600, 100
        // apart; at 1000 items 7-9 were estimates, measured there; 7 stays at 1000.
        XCTAssertEqual(p.table.elements[7].frame.y, 1000)
        XCTAssertEqual(p.table.elements[7].frame.height, 200)
        XCTAssertEqual(p.state.offset.y, 1000)
        try p.scroll(to: Offset(x: 0, y: 950))
        // Item 6 (900 to 1000 as an estimate) is visible at the top edge: measured, it stays at
        // 900 and grows to 1100, and item 7 jumps 100 down.
        XCTAssertEqual(p.table.elements[6].frame.y, 900)
        XCTAssertEqual(p.table.elements[6].frame.height, 200)
        XCTAssertEqual(p.table.elements[7].frame.y, 1100)
        XCTAssertEqual(p.state.offset.y, 950)
        XCTAssertEqual(p.state.offsetAdjustment, .zero)
        XCTAssertEqual(p.state.sizeAdjustment.height, 100)
    }

    /// A cell above the first visible one grows (the anchor is below it): the anchor keeps its
    /// place on screen, so the offset moves by what grew above it.
    func testAnchorKeepsItsPlaceWhenACellAboveItGrows() throws {
        // Two lanes: item 1 (lane 1) straddles the top edge and is not the first by index once
        // item 0 is out of view; item 2 (lane 0) starts lower and is the anchor only if item 1
        // is not visible. Here: lane 0 holds 0 and 2, lane 1 holds 1 and 3.
        var p = try path("container 200 x 100\ncolumns 2\nspacing 0\norder leftToRight\nitems 40\nestimate 50\nheight [50, 120]")
        try p.firstDisplay()
        // Items 0-3 were visible at 0..100 (estimates 50 each): measured; the table from there down
        // is still estimated.
        try p.scroll(to: Offset(x: 0, y: 400))
        let before = p.table
        let f = try XCTUnwrap(p.visibleCells(at: p.state.offset.y).min())
        // Every visible cell is measured now, and the anchor kept its place on screen.
        XCTAssertTrue(p.visibleCells(at: p.state.offset.y).allSatisfy { !p.isEstimated(element: $0) })
        XCTAssertEqual(before.elements[f].frame.y - p.state.offset.y, p.table.elements[f].frame.y - p.state.offset.y)
    }

    func testErrorsOfEstimate() throws {
        XCTAssertTrue(Eval.errors("items 3\nestimate 180 x 100\nheight 50").contains("takes one length"))
        XCTAssertTrue(Eval.errors("style flow\nitems 3\nestimate 100\nsize 50 x 50").contains("takes a size"))
        XCTAssertTrue(Eval.errors("items 3\nestimate random(1, 2)\nheight 50").contains("'random' cannot be used in 'estimate'"))
        XCTAssertTrue(Eval.errors("items 3\nestimate i - 1\nheight 50").contains("'estimate' is -1 in the estimate of item 0 of section 0"))
        XCTAssertTrue(Eval.errors("direction horizontal\nlayoutDirection rightToLeft\nitems 3\nestimate 10\nwidth 50").contains("right"))
        XCTAssertEqual(Eval.errors("items 3\nestimate 10 + i\nheight 50"), "")
    }

    func testRunPrintsPhasesAndPaths() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-sizing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.waterfall.write(to: dir.appendingPathComponent("wf.wfl"), atomically: true, encoding: .utf8)
        // The measured table by default, as before.
        let plain = try WFLCommand.run(["run", "wf.wfl", "--format", "json"], directory: dir)
        XCTAssertEqual(plain.status, 0)
        XCTAssertFalse(plain.stdout.contains("offset"))
        let json = try WFLCommand.run(["run", "wf.wfl", "--format", "json", "--phase", "initial"], directory: dir)
        XCTAssertTrue(json.stdout.contains("\"offset\": [0, 0],\n      \"contentOffsetAdjustment\": [0, 0],\n      \"contentSizeAdjustment\": [0, -160],"), json.stdout)
        XCTAssertTrue(json.stdout.contains("{\"kind\": \"cell\", \"section\": 0, \"item\": 9, \"frame\": [200, 690, 180, 200], \"zIndex\": 0, \"estimated\": true}"), json.stdout)
        let path = try WFLCommand.run(["run", "wf.wfl", "--scroll", "0,200:0,500/100"], directory: dir)
        XCTAssertTrue(path.stdout.hasPrefix("wf  waterfall vertical  container 390 x 400  content 390 x 800  offset 0, 400  contentOffsetAdjustment 0, 0  contentSizeAdjustment 0, 0\n"), path.stdout)
        for bad in [["--scroll", "0,10/0"], ["--scroll", "0"], ["--scroll", "0,1e9/1"], ["--phase", "later"],
                    ["--scroll", "0,10", "--offset", "0,5"], ["--phase", "initial", "--offset", "0,5"], ["--phase", "initial", "--after"]] {
            let r = try WFLCommand.run(["run", "wf.wfl"] + bad, directory: dir)
            XCTAssertEqual(r.status, 64, "\(bad): \(r.stderr)")
        }
    }

    /// The safe area along the scroll axis: the first display stands at (0, -top) and the range
    /// ends at content + bottom - ch.
    func testPathsReadTheSafeArea() throws {
        var p = try path(Self.waterfall + "\nsafeArea 47 0 34 0")
        try p.firstDisplay()
        XCTAssertEqual(p.state.offset, Offset(x: 0, y: -47))
        try p.scroll(to: Offset(x: 0, y: 1e9))
        XCTAssertEqual(p.table.contentHeight, 800)
        XCTAssertEqual(p.state.offset, Offset(x: 0, y: 800 + 34 - 400))
        try p.scroll(to: Offset(x: 0, y: -1e9))
        XCTAssertEqual(p.state.offset, Offset(x: 0, y: -47))
    }
}
