import Foundation
import XCTest
import WFL
import WFLTesting

// The fixtures in Fixtures/ are generated from samples/feed-update.wfl (a golden test in
// WFLTests keeps them current); they compile together here, and one line each makes them specs.
extension FeedUpdateLayout: LayoutFixture {}
extension FeedUpdateLayoutAfterUpdate: LayoutFixture {}
extension StoreLayout: LayoutFixture {}
extension TurnedCardsLayout: LayoutFixture {}

/// TurnedCardsLayout's table without its `transforms`: the fixture protocol's default (none).
enum PlainTurnedCards: LayoutFixture {
    static var contentSize: CGSize { TurnedCardsLayout.contentSize }
    static var rows: [Int] { TurnedCardsLayout.rows }
    static var frames: [Double] { TurnedCardsLayout.frames }
    static var looks: [Double] { TurnedCardsLayout.looks }
}

final class FixtureTests: XCTestCase {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/feed-update.wfl").path

    /// A recording of the sample's table matches the fixture of it, before and after the update;
    /// one frame off, the difference names the fixture.
    func testRecordingsMatchTheFixtures() throws {
        let spec = Spec(file: SourceFile(name: "feed-update.wfl", bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.sample)))))
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        let before = LayoutRecording(spec.layouts[0]), after = LayoutRecording(spec.layoutsAfterUpdate[0])
        XCTAssertLayout(before, matches: .fixture(FeedUpdateLayout.self))
        XCTAssertLayout(after, matches: .fixture(FeedUpdateLayoutAfterUpdate.self))
        XCTAssertLayout(after, matches: .file(Self.sample, afterUpdate: true))
        XCTAssertFalse(compare(before, .fixture(FeedUpdateLayoutAfterUpdate.self)).matches)
        var moved = before
        let k = try XCTUnwrap(moved.elements.firstIndex { $0.kind == "footer" })
        moved.elements[k].centerY += 2
        XCTAssertEqual(compare(moved, .fixture(FeedUpdateLayout.self)).message, """
            FeedUpdateLayout: footer(0) moved by dy +2: [0, 834, 375, 30] -> [0, 836, 375, 30]
            1 difference

            """)
    }

    /// A fixture with a section background (kind 3) and attached views (kinds 4 and up): the
    /// recording of its spec matches it, and one without the background names it.
    func testAFixtureWithBackgroundsAndAttachedViews() throws {
        let path = URL(fileURLWithPath: Self.sample).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/transitions/store-rtl.wfl").path
        let spec = Spec(file: SourceFile(name: "store-rtl.wfl", bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        let store = try XCTUnwrap(spec.layout(named: "store"))
        var recording = LayoutRecording(store)
        XCTAssertTrue(recording.elements.contains { $0.kind == "badge" })
        XCTAssertLayout(recording, matches: .fixture(StoreLayout.self))
        XCTAssertLayout(recording, matches: .file(path))
        XCTAssertEqual(StoreLayoutTransitions.attachedKinds, ["badge"])
        // Right to left: the header of section 1, 30 wide, stands at the right edge of 320.
        recording.elements.removeAll { $0.kind == "header" }
        let lines = compare(recording, .fixture(StoreLayout.self)).lines
        XCTAssertEqual(lines, ["StoreLayout: header(1) missing from the recording (in StoreLayout at [290, 0, 30, 200])"])
    }

    /// A fixture with `transforms` (Tests/Fixtures/transitions/turned-cards.wfl): the recording of
    /// its spec matches it; a recording whose cell is turned or moved otherwise, as UIKit's
    /// attributes would hold it, differs in rotate or translate; and the same fixture without its
    /// transforms (a spec of plain frames) does not match the turned recording.
    func testAFixtureWithTransforms() throws {
        let path = URL(fileURLWithPath: Self.sample).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/transitions/turned-cards.wfl").path
        let spec = Spec(file: SourceFile(name: "turned-cards.wfl", bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        let recording = LayoutRecording(spec.layouts[0])
        XCTAssertLayout(recording, matches: .fixture(TurnedCardsLayout.self))
        XCTAssertLayout(recording, matches: .file(path))
        // Item 3: zoom 0.5, rotate 200 (written -160), translate 15 x 0; its fixture row is
        // (0.5 cos 200, 0.5 sin 200, -0.5 sin 200, 0.5 cos 200, 15, 0).
        let k = try XCTUnwrap(recording.elements.firstIndex { $0.item == 3 })
        XCTAssertEqual(recording.elements[k].transform.rotate, -160, accuracy: 1e-9)
        let t = 200 * Double.pi / 180
        for (j, v) in [0.5 * cos(t), 0.5 * sin(t), -0.5 * sin(t), 0.5 * cos(t), 15, 0].enumerated() {
            XCTAssertEqual(TurnedCardsLayout.transforms[18 + j], v, accuracy: 1e-12)
        }
        var turned = recording
        turned.elements[k].transform = LayoutTransform(zoom: 0.5, rotate: -155, translateX: 15, translateY: 0)
        XCTAssertEqual(compare(turned, .fixture(TurnedCardsLayout.self)).lines,
                       ["TurnedCardsLayout: frame(0, 3) rotate -160 -> -155"])
        var moved = recording
        moved.elements[k].transform = LayoutTransform(zoom: 0.5, rotate: 200, translateX: 15, translateY: 3)
        XCTAssertEqual(compare(moved, .fixture(TurnedCardsLayout.self)).lines,
                       ["TurnedCardsLayout: frame(0, 3) translate 15 x 0 -> 15 x 3"])
        // Without the transforms the fixture states every cell unturned: the turned cells differ.
        XCTAssertEqual(compare(recording, .fixture(PlainTurnedCards.self)).lines.count, 3)
        XCTAssertEqual(TurnedCardsLayoutTransitions.transforms.count, 12 * TurnedCardsLayoutTransitions.transitions.count)
    }

    /// The transitions fixture holds the sample's transitions: the new post grows from half its
    /// size at the top of the first column; posts 3 and 6 slide 40 down as they fade.
    func testTheTransitionsFixture() {
        let t = FeedUpdateLayoutTransitions.transitions
        XCTAssertEqual(t.count, 13)
        XCTAssertEqual(t[1].kind, nil)
        XCTAssertEqual(t[1].item, 0)
        XCTAssertEqual(t[1].itemBefore, nil)
        XCTAssertEqual(t[1].change, "appear")
        XCTAssertEqual(t[1].from.frame, CGRect(x: 10, y: 54, width: 172.5, height: 100))
        XCTAssertEqual(t[1].from.zoom, 0.5)
        XCTAssertEqual(t[1].from.alpha, 0)
        XCTAssertEqual(t[0].kind, "UICollectionElementKindSectionHeader")
        XCTAssertEqual(t[0].change, "stay")
        let gone = t.filter { $0.change == "disappear" }
        XCTAssertEqual(gone.map(\.itemBefore), [3, 6])
        XCTAssertEqual(gone[0].to.frame, CGRect(x: 192.5, y: 254, width: 172.5, height: 50))
        XCTAssertEqual(FeedUpdateLayoutTransitions.contentSizeBefore.height, 864)
        XCTAssertEqual(FeedUpdateLayoutTransitions.contentSize.height, 814)
    }
}
