import Foundation
import XCTest
import WFL
import WFLTesting

/// The neutral part of WFLTesting, as a test target that adds the package uses it: recordings
/// built by hand or read from json, compared with specs, and asserted. The failure texts are
/// pinned whole.
///
/// The spec: two columns 172.5 wide ((375 - 2 * 10 - 10) / 2), a header 44 tall, then the cells
/// from y 54 (the inset 10): item 0 at (10, 54), item 1 at (192.5, 54), item 2 under item 0 at
/// y 164; content height 164 + 100 + 10 = 274.
let feedSource = """
    layout feed {
      container 375 x 812
      columns 2
      spacing 10
      insets 10
      header 44
      items 3
      height 100
    }
    """

/// What a layout that follows the spec records, built by hand: centres and sizes.
func feedRecording() -> LayoutRecording {
    LayoutRecording(name: "feed", contentWidth: 375, contentHeight: 274, elements: [
        RecordedElement(kind: "UICollectionElementKindSectionHeader", section: 0, item: nil, centerX: 187.5, centerY: 22, width: 375, height: 44,
                        zIndex: 10),
        RecordedElement(section: 0, item: 0, centerX: 96.25, centerY: 104, width: 172.5, height: 100),
        RecordedElement(section: 0, item: 1, centerX: 278.75, centerY: 104, width: 172.5, height: 100),
        RecordedElement(section: 0, item: 2, centerX: 96.25, centerY: 214, width: 172.5, height: 100),
    ])
}

extension LayoutRecording {
    /// The recording with element `k` changed by `change`.
    func changing(_ k: Int, _ change: (inout RecordedElement) -> Void) -> LayoutRecording {
        var r = self
        change(&r.elements[k])
        return r
    }
}

final class RecordingTests: XCTestCase {
    let spec = LayoutSpec.source(feedSource)

    func testAMatchingRecordingMatches() {
        let c = compare(feedRecording(), spec)
        XCTAssertTrue(c.matches, c.message)
        XCTAssertEqual(c.message, "")
        XCTAssertEqual(c.lines, [])
        // In any order: elements are matched by kind, section and item.
        var shuffled = feedRecording()
        shuffled.elements.reverse()
        XCTAssertTrue(compare(shuffled, spec).matches)
        XCTAssertLayout(feedRecording(), matches: spec)
        // The recording of the spec's own table matches too.
        let table = Spec(source: feedSource).layouts[0]
        XCTAssertEqual(LayoutRecording(table), feedRecording())
    }

    func testOneFrameOffByMoreThanTheTolerance() {
        let moved = feedRecording().changing(2) { $0.centerX += 0.5 }
        let c = compare(moved, spec, tolerance: 0.25)
        XCTAssertFalse(c.matches)
        XCTAssertEqual(c.message, """
            feed: frame(0, 1) moved by dx +0.5: [192.5, 54, 172.5, 100] -> [193, 54, 172.5, 100]
            1 difference

            """)
        XCTAssertEqual(c.lines, ["feed: frame(0, 1) moved by dx +0.5: [192.5, 54, 172.5, 100] -> [193, 54, 172.5, 100]"])
        // A size off: the frame keeps its centre, so x moves by half of it.
        let wider = feedRecording().changing(1) { $0.width += 2 }
        XCTAssertEqual(compare(wider, spec).message, """
            feed: frame(0, 0) moved by dx -1, dw +2: [10, 54, 172.5, 100] -> [9, 54, 174.5, 100]
            1 difference

            """)
    }

    func testOneFrameOffByLessThanTheTolerance() {
        let moved = feedRecording().changing(2) { $0.centerX += 0.25; $0.centerY -= 0.25 }
        XCTAssertTrue(compare(moved, spec, tolerance: 0.25).matches)
        // The default tolerance is wfl's 0.001.
        XCTAssertFalse(compare(moved, spec).matches)
        XCTAssertTrue(compare(feedRecording().changing(2) { $0.centerX += 0.0009 }, spec).matches)
    }

    func testAMissingElement() {
        var r = feedRecording()
        r.elements.removeLast()
        XCTAssertEqual(compare(r, spec).message, """
            feed: frame(0, 2) missing from the recording (in spec.wfl at [10, 164, 172.5, 100])
            1 difference

            """)
    }

    func testAnExtraElement() {
        var r = feedRecording()
        r.elements.append(RecordedElement(kind: "badge", section: 0, item: 1, frame: Frame(x: 355, y: 44, width: 20, height: 20), zIndex: 1))
        r.elements.append(RecordedElement(section: 0, item: 3, frame: Frame(x: 192.5, y: 164, width: 172.5, height: 100)))
        XCTAssertEqual(compare(r, spec).message, """
            feed: badge(0, 1) extra in the recording at [355, 44, 20, 20] (not in spec.wfl)
            feed: frame(0, 3) extra in the recording at [192.5, 164, 172.5, 100] (not in spec.wfl)
            2 differences

            """)
    }

    func testZIndexAlphaAndTransformDifferences() {
        let r = feedRecording()
            .changing(0) { $0.zIndex = 0 }
            .changing(1) { $0.alpha = 0.5 }
            .changing(2) { $0.transform = LayoutTransform(zoom: 1.2) }
            .changing(3) { $0.transform = LayoutTransform(rotate: 10, translateX: 3) }
        XCTAssertEqual(compare(r, spec).message, """
            feed: header(0) zIndex 10 -> 0
            feed: frame(0, 0) alpha 1 -> 0.5
            feed: frame(0, 1) zoom 1 -> 1.2
            feed: frame(0, 2) translate 0 x 0 -> 3 x 0; rotate 0 -> 10
            4 differences

            """)
        // A transform wfl does not state (a mirror) is named before the differences.
        let mirrored = feedRecording().changing(1) { $0.transform = LayoutTransform(a: -1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
        XCTAssertEqual(compare(mirrored, spec).message, """
            feed: frame(0, 0) in the recording has the transform [-1, 0, 0, 1, 0, 0], which is not a zoom, turn and move
            feed: frame(0, 0) rotate 0 -> 180
            1 difference

            """)
    }

    func testAContentSizeDifference() {
        var r = feedRecording()
        r.contentHeight = 284
        XCTAssertEqual(compare(r, spec).message, """
            feed: content size 375 x 274 -> 375 x 284
            1 difference

            """)
    }

    func testTheTransformOfWflsZoomTurnAndMove() {
        let t = LayoutTransform(zoom: 2, rotate: 90, translateX: 5, translateY: -1)
        XCTAssertEqual(t, LayoutTransform(a: 0, b: 2, c: -2, d: 0, tx: 5, ty: -1))
        XCTAssertEqual(t.zoom, 2)
        XCTAssertEqual(t.rotate, 90)
        XCTAssertEqual(LayoutTransform(rotate: -180).rotate, 180)
        XCTAssertEqual(LayoutTransform(rotate: 30).rotate, 30, accuracy: 1e-12)
        XCTAssertTrue(t.isZoomTurnAndMove(tolerance: 0.001))
        XCTAssertFalse(LayoutTransform(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0).isZoomTurnAndMove(tolerance: 0.001))
    }

    /// The json is wfl's: `init(json:)` reads it back, and reads what `wfl run --format json` writes.
    func testJSON() throws {
        let r = LayoutRecording(name: "small", contentWidth: 100, contentHeight: 50.5, elements: [
            RecordedElement(kind: "header", section: 0, item: nil, frame: Frame(x: 0, y: 0, width: 100, height: 10), zIndex: 10),
            RecordedElement(section: 0, item: 0, frame: Frame(x: 0, y: 10, width: 50, height: 40.5), alpha: 0.25,
                            transform: LayoutTransform(zoom: 0.5, rotate: -90, translateX: 1, translateY: 2)),
        ])
        XCTAssertEqual(r.json, """
            {
              "layouts": [
                {
                  "name": "small",
                  "contentSize": [100, 50.5],
                  "elements": [
                    {"kind": "header", "section": 0, "item": null, "frame": [0, 0, 100, 10], "zIndex": 10},
                    {"kind": "cell", "section": 0, "item": 0, "frame": [0, 10, 50, 40.5], "zIndex": 0, "alpha": 0.25, "zoom": 0.5, "translate": [1, 2], "rotate": -90}
                  ]
                }
              ]
            }

            """)
        XCTAssertEqual(try LayoutRecording(json: r.json), r)
        // What `wfl run --format json` writes, read as a recording, matches its spec.
        let written = JSONFormat.format(Spec(source: feedSource).layouts)
        XCTAssertEqual(try LayoutRecording(json: written, layout: "feed"), feedRecording())
        XCTAssertLayout(try LayoutRecording(json: written), matches: spec)
    }

    func testJSONErrors() {
        XCTAssertThrowsError(try LayoutRecording(json: "{\"layouts\": [{\"name\": \"a\", \"elements\": [{\"section\": 0}]}]}")) { e in
            XCTAssertEqual((e as? RecordingError)?.description, "1:41: the element has no \"frame\"")
        }
        XCTAssertThrowsError(try LayoutRecording(json: "{\"layouts\": []}")) { e in
            XCTAssertEqual((e as? RecordingError)?.message, "the json has 0 layouts (): name the one to read with 'layout:'")
        }
        XCTAssertThrowsError(try LayoutRecording(json: JSONFormat.format(Spec(source: feedSource).layouts), layout: "feeds")) { e in
            XCTAssertEqual((e as? RecordingError)?.message, "the json has no layout 'feeds'; it has 'feed'")
        }
    }

    /// The spec as a file, with a layout chosen by name, at an offset, after its update; and the
    /// reasons there is nothing to compare with.
    func testSpecsFromFilesAndTheirProblems() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfltesting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("feed.wfl").path
        try (feedSource + "\nlayout other { items 1 }\n").write(toFile: path, atomically: true, encoding: .utf8)
        // Two layouts: the recording's name picks one.
        XCTAssertTrue(compare(feedRecording(), .file(path)).matches)
        var unnamed = feedRecording()
        unnamed.name = "recording"
        XCTAssertEqual(compare(unnamed, .file(path)).message,
                       "feed.wfl has no layout 'recording'; its layouts are 'feed', 'other': name one with 'layout:'\n")
        XCTAssertTrue(compare(unnamed, .file(path, layout: "feed")).matches)
        XCTAssertEqual(compare(feedRecording(), .file(dir.appendingPathComponent("none.wfl").path)).message,
                       "cannot read the spec '\(dir.appendingPathComponent("none.wfl").path)'\n")
        XCTAssertTrue(compare(feedRecording(), .source("items 2\nheigth 10\n", name: "typo.wfl")).message
            .hasPrefix("the spec has errors:\ntypo.wfl:2:1: error: unknown setting 'heigth'"))
    }
}

/// XCTAssertLayout fails at the caller's file and line, with `wfl diff`'s text.
final class AssertionTests: XCTestCase {
    var recorded: [(description: String, file: String, line: Int)] = []
    var capturing = false

    #if os(Linux)
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { recorded.append((description, filePath, lineNumber)) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #else
    override func record(_ issue: XCTIssue) {
        if capturing { recorded.append((issue.compactDescription, issue.sourceCodeContext.location?.fileURL.path ?? "", issue.sourceCodeContext.location?.lineNumber ?? 0)) } else {
            super.record(issue)
        }
    }
    #endif

    func testAFailureIsRecordedAtTheCallersLine() {
        let moved = feedRecording().changing(2) { $0.centerY += 1 }
        capturing = true
        XCTAssertLayout(moved, matches: .source(feedSource, name: "feed.wfl"), tolerance: 0.5); let line = #line
        XCTAssertLayout(feedRecording(), matches: .source(feedSource, name: "feed.wfl"))
        capturing = false
        XCTAssertEqual(recorded.count, 1)
        guard let failure = recorded.first else { return }
        XCTAssertEqual(failure.line, line)
        XCTAssertEqual(failure.file, #filePath)
        XCTAssertTrue(failure.description.hasSuffix("""
            XCTAssertLayout: the recording does not match feed.wfl:
            feed: frame(0, 1) moved by dy +1: [192.5, 54, 172.5, 100] -> [192.5, 55, 172.5, 100]
            1 difference

            """), failure.description)
    }
}
