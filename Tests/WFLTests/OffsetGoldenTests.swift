import Foundation
import XCTest
@testable import WFL

/// Golden tables of the samples whose frames move with the scroll offset, at the offsets their
/// comments point to: what `wfl run SAMPLE --offset X,Y` prints.
final class OffsetGoldenTests: XCTestCase {
    let fixtures = Golden.root.appendingPathComponent("Tests/Fixtures/offsets")

    static let cases: [(sample: String, offsets: [Offset])] = [
        ("carousel", [.zero, Offset(x: 20, y: 0), Offset(x: 55, y: 0), Offset(x: 110, y: 0), Offset(x: 165, y: 0), Offset(x: 760, y: 0)]),
        ("pinned-feed", [Offset(x: 0, y: 200), Offset(x: 0, y: 370), Offset(x: 0, y: 600), Offset(x: 0, y: 800)]),
        ("app-store", [Offset(x: 0, y: 400), Offset(x: 0, y: 900), Offset(x: 0, y: 1203)]),
        ("app-store-rtl", [Offset(x: 0, y: 400), Offset(x: 0, y: 900), Offset(x: 0, y: 1203)]),
        ("store-front", [.zero, Offset(x: 0, y: 300), Offset(x: 0, y: 600), Offset(x: 0, y: 1300)]),
        ("cover-flow", [.zero, Offset(x: 47.5, y: 0), Offset(x: 127.5, y: 0), Offset(x: 207.5, y: 0)]),
        ("separators", [.zero, Offset(x: 0, y: 200), Offset(x: 0, y: 420)]),
    ]

    func testTablesAtOffsets() throws {
        for (sample, offsets) in OffsetGoldenTests.cases {
            let url = Golden.root.appendingPathComponent("samples/\(sample).wfl")
            let source = try Golden.source(url)
            let evaluation = Program(tree: Parser.parse(source).tree, source: source).evaluate()
            XCTAssertFalse(evaluation.diagnostics.hasErrors, sample)
            let table = try XCTUnwrap(evaluation.tables.first, sample)
            // Frames that move, or attribute rules that read the offset.
            XCTAssertTrue(table.movesWithOffset || table.rules.attributes != nil, sample)
            var previous: String? = nil
            for o in offsets {
                let text = TableFormat.format(table.at(o))
                // Each offset shows something the previous one did not.
                XCTAssertNotEqual(text, previous, "\(sample) at \(o)")
                previous = text
                let name = "\(sample)@\(NumberFormat.format(o.x)),\(NumberFormat.format(o.y)).table"
                Golden.check(text, against: fixtures.appendingPathComponent(name), input: url)
            }
            // The viewport at the last offset, as `--rect` gives it.
            let o = offsets[offsets.count - 1]
            let viewport = Frame(x: o.x, y: o.y, width: table.containerWidth, height: table.containerHeight)
            let visible = table.only(table.query(viewport, at: o), at: o)
            Golden.check(JSONFormat.format([visible]), against: fixtures.appendingPathComponent("\(sample)@viewport.json"), input: url)
        }
    }
}
