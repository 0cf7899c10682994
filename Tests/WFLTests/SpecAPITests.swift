import Foundation
import XCTest
import WFL

/// The Swift API as docs/usage.md shows it, through a plain (not @testable) import: only what is
/// public is used here.
final class SpecAPITests: XCTestCase {
    /// docs/usage.md's example, word for word.
    func testTheReadmeExample() throws {
        let spec = Spec(source: """
            columns 2
            spacing 10
            insets 10
            items 4
            height [100, 150]
            expect contentHeight == 330
            """, name: "feed.wfl")
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)          // diagnostics as wfl prints them
        let feed = try XCTUnwrap(spec.layout(named: "feed"))           // or spec.layouts[0]
        XCTAssertEqual(feed.cell(section: 0, item: 1)?.frame, Frame(x: 192.5, y: 10, width: 172.5, height: 150))
        XCTAssertEqual(feed.contentSize.height, 330)
        XCTAssertEqual(feed.elements(in: Frame(x: 0, y: 0, width: 375, height: 100)).count, 2)
        XCTAssertEqual(spec.failedExpectations.count, 0, spec.expectationReport)
    }

    /// A batch update from Swift: the table after it and the transitions. Two columns 182.5 wide
    /// (375 - 10 = 365, halved), heights 100, 150, 100, 150. Before: item 2 under item 0 at
    /// y 110, item 3 under item 1 at y 160 (lane 1 ends at 150 + 10, lane 0 at 210 + 10).
    /// Delete item 0: the items keep their heights (150, 100, 150), so new 0 is at (0, 0), new 1 at
    /// (192.5, 0), new 2 under the shorter lane 1 (ends at 110) at (192.5, 110).
    func testUpdatesAndTransitions() throws {
        let spec = Spec(source: "columns 2\nspacing 10\nitems 4\nheight [100, 150]\nupdate { delete 0 }\n")
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        let after = try XCTUnwrap(spec.layoutsAfterUpdate.first)
        XCTAssertEqual(after.cell(section: 0, item: 0)?.frame, Frame(x: 0, y: 0, width: 182.5, height: 150))
        XCTAssertEqual(after.cell(section: 0, item: 2)?.frame, Frame(x: 192.5, y: 110, width: 182.5, height: 150))
        XCTAssertNil(after.cell(section: 0, item: 3))
        let t = try XCTUnwrap(try spec.transitions().first)
        XCTAssertEqual(t.counts.move, 3)
        XCTAssertEqual(t.counts.disappear, 1)
        // The order: the table after, then what disappears.
        XCTAssertEqual(t.transitions.map(\.itemBefore), [1, 2, 3, 0])
        XCTAssertEqual(t.transitions[1].from.frame, Frame(x: 0, y: 110, width: 182.5, height: 100))
        XCTAssertEqual(t.transitions[1].to.frame, Frame(x: 192.5, y: 0, width: 182.5, height: 100))
        XCTAssertEqual(t.transitions[3].change, .disappear)
        XCTAssertEqual(t.transitions[3].to.alpha, 0)
    }

    func testErrorsAreReported() {
        let spec = Spec(source: "colums 3\n", name: "t.wfl")
        XCTAssertTrue(spec.hasErrors)
        XCTAssertTrue(spec.layouts.isEmpty)
        XCTAssertEqual(spec.checkExpectations().count, 0)
        XCTAssertTrue(spec.diagnosticText.hasPrefix("t.wfl:1:1: error: unknown setting 'colums'"), spec.diagnosticText)
        XCTAssertEqual(spec.expectationReport, spec.diagnosticText)
    }

    /// Frames at an offset: pinned headers through the API, as `header(s, ox, oy)` in `expect`.
    func testOffsetsAndSupplementaryViews() throws {
        let spec = Spec(source: "pinHeaders true\nheader 40\nfooter 20\nitems 6\nheight 100\nexpect header(0, 0, 150)[1] == 150\n", name: "pinned.wfl")
        let t = try XCTUnwrap(spec.layouts.first)
        XCTAssertEqual(t.sectionCount, 1)
        XCTAssertEqual(t.header(section: 0)?.frame.y, 0)
        XCTAssertEqual(t.header(section: 0, at: Offset(x: 0, y: 150))?.frame.y, 150)
        XCTAssertEqual(t.at(Offset(x: 0, y: 150)).elements.first?.frame.y, 150)
        XCTAssertEqual(t.footer(section: 0)?.frame.y, 360)
        XCTAssertNil(t.header(section: 1))
        XCTAssertNil(t.cell(section: 0, item: 6))
        XCTAssertEqual(spec.checkExpectations().map(\.passed), [true])
        // The pinned header is found where it stands at the offset.
        let seen = t.elements(in: Frame(x: 0, y: 150, width: 375, height: 10), at: Offset(x: 0, y: 150))
        XCTAssertEqual(seen.map(\.kind), [.header, .cell, .cell])
    }

    func testExpectationOutcomes() {
        let spec = Spec(source: """
            layout a {
              items 1
              expect contentHeight == 100, "tall"
              expect frame(0, 1)[0] == 0
            }
            layout b {
              items 2
              expect contentWidth == 375
            }
            """, name: "two.wfl")
        let outcomes = spec.checkExpectations()
        XCTAssertEqual(outcomes.map(\.layout), ["a", "a", "b"])
        XCTAssertEqual(outcomes.map(\.verdict), [.failed, .error, .passed])
        XCTAssertEqual(outcomes[0].sides?.left, .number(182.5))
        XCTAssertEqual(outcomes[0].label, "tall")
        XCTAssertEqual(spec.expectationReport, """
            two.wfl:3:10: failed: contentHeight == 100 ("tall"): left is 182.5, right is 100
            two.wfl:4:10: failed: frame(0, 1)[0] == 0: section 0 has no item 1: it has 1
            two.wfl:4:19: error: section 0 has no item 1: it has 1
              4 |   expect frame(0, 1)[0] == 0
                |                   ^

            """)
    }

    /// A spec at the documented limits (240 nested parentheses, user recursion 60 deep) through
    /// `Spec` on a thread with a 1 MiB stack: the library runs its stages on a large stack of its
    /// own, so this neither crashes nor needs the caller to know.
    func testDeepSpecOnASmallStack() throws {
        let open = String(repeating: "(", count: 240), close = String(repeating: ")", count: 240)
        let text = """
            let depth(k) = k == 0 ? 0 : 1 + depth(k - 1)
            let nested = \(open)1\(close)
            items 2
            height 10 * nested + depth(60)
            expect frame(0, 0)[3] == 70
            expect \(open)contentHeight + 0\(close) == 70
            """
        final class Box: @unchecked Sendable { var spec: Spec?; var outcomes: [ExpectationOutcome] = [] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.spec = Spec(source: text, name: "deep.wfl")
            box.outcomes = box.spec?.checkExpectations() ?? []
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        let spec = try XCTUnwrap(box.spec)
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        XCTAssertEqual(spec.layouts.first?.cell(section: 0, item: 1)?.frame, Frame(x: 192.5, y: 0, width: 182.5, height: 70))
        XCTAssertEqual(box.outcomes.map(\.verdict), [.passed, .passed], spec.expectationReport)
    }
}
