import Foundation
import XCTest
@testable import WFL

/// `scroll` blocks (docs/language.md, "Scroll paths"): each its own path from the first display,
/// its `expect`s reading the state after it; the page's two worked examples number by number
/// through blocks, and the properties of paths written as blocks.
final class ScrollBlockTests: XCTestCase {
    /// The outcomes of every `expect` of `text`, which must evaluate without errors.
    func outcomes(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [ExpectationOutcome] {
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        XCTAssertFalse(c.hasErrors, DiagnosticRenderer().render(c.diagnostics, in: c.source), file: file, line: line)
        return Pipeline.checkExpectations(c)
    }

    /// Every `expect` of `text` holds; there are `count` of them.
    func assertPasses(_ text: String, count: Int, file: StaticString = #filePath, line: UInt = #line) {
        let o = outcomes(text, file: file, line: line)
        XCTAssertEqual(o.count, count, file: file, line: line)
        let source = SourceFile(name: "t.wfl", text: text)
        let failed = o.filter { !$0.passed }.map { $0.report(in: source) }
        XCTAssertEqual(failed, [], file: file, line: line)
    }

    func testWaterfallWorkedExample() {
        assertPasses(SelfSizingTests.waterfall + """

            // Outside a path: the measured table, every cell measured.
            expect measured(0, 9) && frame(0, 9) == [200, 640, 180, 150] && contentHeight == 800
            scroll {
              // The first display: 0-5 measured; 6-9 estimates at 460, 480, 670, 690.
              expect measured(0, 0) && measured(0, 5) && !measured(0, 6) && !measured(0, 9)
              expect frame(0, 2) == [10, 140, 180, 200]
              expect frame(0, 4) == [10, 350, 180, 100]
              expect [frame(0, 6)[1], frame(0, 7)[1], frame(0, 8)[1], frame(0, 9)[1]] == [460, 480, 670, 690]
              expect frame(0, 9) == [200, 690, 180, 200]
              expect contentHeight == 900
              expect [ox, oy] == [0, 0]
              expect offsetAdjustment == [0, 0]
              expect sizeAdjustment == [0, -160]
            }
            scroll {
              to 0, 500
              // The measured table; 6 stays at 460; oy 500 clamps to 800 - 400.
              expect measured(0, 6) && measured(0, 9)
              expect frame(0, 6)[1] == 460
              expect frame(0, 9) == [200, 640, 180, 150]
              expect contentHeight == 800
              expect oy == 400
              expect offsetAdjustment == [0, -100]
              expect sizeAdjustment == [0, -100]
            }
            """, count: 17)
    }

    func testFlowWorkedExample() {
        assertPasses(SelfSizingTests.flow + """

            scroll {
              // Lines 0-2 measured: line 0 (140 high) at 10, item 0 at 50; line 1 at 160; line 2 at 270.
              expect frame(0, 0) == [10, 50, 180, 60]
              expect frame(0, 1)[1] == 10 && frame(0, 2)[1] == 160 && frame(0, 5)[1] == 270
              // Lines 3-5 estimates at 440, 550, 660.
              expect frame(0, 6) == [10, 440, 180, 100] && frame(0, 9)[1] == 550 && frame(0, 11)[1] == 660
              expect !measured(0, 6) && measured(0, 5)
              expect contentHeight == 770
              expect oy == 0, "item 0 moved 40, but the view is at its top"
              expect offsetAdjustment == [0, 0] && sizeAdjustment == [0, 100]
            }
            scroll {
              to 0, 450
              expect frame(0, 6) == [10, 480, 180, 50]
              expect frame(0, 7)[1] == 440
              expect frame(0, 8)[1] == 580 && frame(0, 10)[1] == 680
              expect contentHeight == 790
              expect oy == 490, "item 6 stays 10 above the top"
              expect offsetAdjustment == [0, 40]
              expect sizeAdjustment == [0, 20]
              expect measured(0, 11)
            }
            """, count: 15)
    }

    /// `by D`: the stops D apart from where the last stop ended; the expects see the last stop's
    /// adjustments only. `cw` and `ch` may be used in `to`.
    func testStepsAndConstants() {
        assertPasses(SelfSizingTests.waterfall + """

            scroll {
              to 0, ch / 2 by 100
              to 0, 0
              // The stop at 100 measured items 6 and 7 (8 moves to 620, 9 to 640: content 850);
              // those at 200 and back at the top measured nothing.
              expect oy == 0 && offsetAdjustment == [0, 0] && sizeAdjustment == [0, 0]
              expect contentHeight == 850 && measured(0, 7) && !measured(0, 8)
              expect frame(0, 8) == [10, 620, 180, 200] && frame(0, 9) == [200, 640, 180, 200]
            }
            """, count: 3)
    }

    /// A layout without `estimate` follows a path too: its offset clamps, nothing moves.
    func testPathsOfAPlainLayout() {
        assertPasses("""
            container 300 x 400
            columns 1
            spacing 0
            items 10
            height 100
            scroll {
              to 0, 250
              expect oy == 250 && ox == 0 && offsetAdjustment == [0, 0] && sizeAdjustment == [0, 0]
              expect measured(0, 9)
              expect count(0, 250, 300, 400) == 5, "the viewport at the path's end: items 2 to 6"
            }
            scroll {
              to 0, 5000 by 1000
              expect oy == 600
            }
            """, count: 4)
    }

    /// Each block is its own path from the first display; `wfl test` counts its expects.
    func testEachBlockStartsAfresh() {
        assertPasses(SelfSizingTests.waterfall + """

            scroll {
              to 0, 500
              expect oy == 400
            }
            scroll {
              expect !measured(0, 6) && oy == 0
            }
            """, count: 2)
    }

    /// A path that cannot be followed fails each expect of its block with the error, at its
    /// position; other blocks are unaffected.
    func testBadPathsFailTheirBlock() {
        let text = "items 3\nheight 100\nscroll {\n  to 0, 10 by -1\n  expect oy == 0\n  expect ox == 0\n}\nscroll {\n  expect oy == 0\n}\n"
        let o = outcomes(text)
        XCTAssertEqual(o.map(\.verdict), [.error, .error, .passed])
        XCTAssertEqual(o[0].diagnostic?.code, .badScrollStep)
        XCTAssertEqual(o[0].report(in: SourceFile(name: "t.wfl", text: text)), "t.wfl:5:10: failed: oy == 0: a step of 'by' must be above 0, not -1")
        XCTAssertEqual(o[0].diagnostic.map { SourceFile(name: "t.wfl", text: text).text($0.span) }, "-1")
        let many = outcomes("items 3\nscroll {\n  to 0, 10\n  to 0, 2000000 by 1\n  expect oy == 0\n}\n")
        XCTAssertEqual(many.first?.diagnostic?.code, .tooManyStops)
        // The first display and 999,999 stops: the limit exactly.
        XCTAssertEqual(outcomes("items 3\nscroll {\n  to 0, 999999 by 1\n  expect oy == 0\n}\n").first?.verdict, .passed)
        XCTAssertEqual(outcomes("items 3\nscroll {\n  to 0, 1000000 by 1\n  expect oy == 0\n}\n").first?.diagnostic?.code, .tooManyStops)
    }

    /// A random self-sizing waterfall or flow, estimates around the actual sizes.
    static func randomFile(_ r: inout SeededRandom) -> String {
        let n = 1 + r.below(40)
        let lengths = (0..<n).map { _ in String(20 + r.below(300)) }.joined(separator: ", ")
        let head = "container 390 x \(150 + r.below(500))\nspacing \(r.below(12))\ninsets \(r.below(20))\nitems \(n)\n"
        if r.below(2) == 0 {
            return head + "columns \(1 + r.below(3))\nestimate \(10 + r.below(400))\nheight [\(lengths)]\n"
        }
        return head + "style flow\nestimate \(40 + r.below(300)) x \(10 + r.below(300))\nsize \(40 + r.below(300)) x [\(lengths)][i]\n"
    }

    /// A path visiting every screen from the top to the bottom, written as a block of `to`s a
    /// screen apart, ends in the measured table.
    func testEveryScreenTopToBottomEndsMeasured() {
        var r = SeededRandom(seed: 3030)
        for _ in 0..<(Stress.enabled ? 300 : 30) {
            let text = Self.randomFile(&r)
            let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
            guard let measured = c.layouts.first?.before else { return XCTFail(text) }
            let screens = Int((measured.contentHeight / measured.containerHeight).rounded(.up)) + 1
            var block = "\nscroll {\n"
            for k in 1...screens { block += "  to 0, \(k) * ch\n" }
            for (i, e) in measured.elements.enumerated() where e.kind == .cell {
                block += "  expect measured(0, \(i)) && frame(0, \(i)) == [\(e.frame.x), \(e.frame.y), \(e.frame.width), \(e.frame.height)]\n"
            }
            block += "  expect contentHeight == \(measured.contentHeight)\n}\n"
            let o = outcomes(text + block)
            XCTAssertEqual(o.filter { !$0.passed }.map { $0.expression }, [String](), text)
        }
    }

    /// With estimates equal to the actual sizes no stop moves anything.
    func testExactEstimatesMoveNothing() {
        var r = SeededRandom(seed: 3031)
        for _ in 0..<(Stress.enabled ? 200 : 20) {
            var text = SelfSizingTests.exactEstimates(&r) + "\n"
            let y = r.below(3000) - 500, by = r.below(2) == 0 ? "" : " by \(50 + r.below(400))"
            text += "scroll {\n  to 0, \(y)\(by)\n  expect offsetAdjustment == [0, 0] && sizeAdjustment == [0, 0]\n}\n"
            XCTAssertEqual(outcomes(text).map(\.verdict), [.passed], text)
        }
    }

    /// A cell whose top lies above the viewport grows as it is measured: in a flow line it
    /// drags the line's first item, the anchor, down with it (centred in the taller line); the
    /// offset follows, so the anchor keeps its place on screen.
    func testAnchorWhenACellAboveTheViewportGrows() {
        // Lines of two 100-wide items, estimates 50 high: line k at 50k, content 1000. Item 21
        // measures 150. `to 0, 520` shows lines 10-16 (500..850): F = item 20 at 500, 20 above
        // the top. Measured, line 10 is 150 high: item 21 spans 500..650, item 20 is centred at
        // 550 (+50), the lines below move 100 down; oy = 520 + 50 = 570, and item 20 is again
        // 20 above the top. Lines 10-15 are visible at 570..870, all measured: the stop ends.
        assertPasses("""
            container 200 x 300
            style flow
            spacing 0
            items 40
            estimate 100 x 50
            size 100 x (i == 21 ? 150 : 50)
            scroll {
              to 0, 520
              expect frame(0, 20) == [0, 550, 100, 50]
              expect frame(0, 21) == [100, 500, 100, 150]
              expect frame(0, 22)[1] == 650 && frame(0, 33)[1] == 900
              expect measured(0, 33) && !measured(0, 34) && !measured(0, 19)
              expect frame(0, 20)[1] - oy == 500 - 520, "the anchor keeps its place on screen"
              expect oy == 570
              expect offsetAdjustment == [0, 50]
              expect sizeAdjustment == [0, 100]
              expect contentHeight == 1100
            }
            """, count: 9)
    }
}
