import Foundation
import XCTest
@testable import WFL

/// The command-line findings of issue 17: empty layouts in `wfl diff`, numbers in options, long
/// lists of layout names, signals during `-o`, and standard input that is a directory.
final class CLIHardeningTests: XCTestCase {
    var work: URL!
    let fm = FileManager.default

    override func setUpWithError() throws {
        work = fm.temporaryDirectory.appendingPathComponent("wfl-hardening-\(UUID().uuidString)")
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? fm.removeItem(at: work)
    }

    func url(_ name: String) -> URL { work.appendingPathComponent(name) }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url(name))
    }

    func wfl(_ args: [String], input: Data? = nil) throws -> WFLCommand.Result {
        try WFLCommand.run(args, input: input, directory: work)
    }

    // MARK: - diff: a layout without elements

    static let withEmpty = """
        layout a {
          columns 2
          items 3
          height 50
        }
        layout b {
          items 0
        }

        """

    /// The csv of a layout without elements has no row for it: json, csv and the spec itself
    /// agree all the same, both ways round.
    func testALayoutWithoutElementsEqualsAnAbsentOne() throws {
        try write("e.wfl", CLIHardeningTests.withEmpty)
        XCTAssertEqual(try wfl(["run", "e.wfl", "-o", "e.json"]).status, 0)
        XCTAssertEqual(try wfl(["run", "e.wfl", "-o", "e.csv"]).status, 0)
        XCTAssertFalse(try String(contentsOf: url("e.csv"), encoding: .utf8).contains("\nb,"), "the csv has no row for 'b'")
        for pair in [["e.json", "e.csv"], ["e.csv", "e.json"], ["e.wfl", "e.csv"], ["e.csv", "e.wfl"]] {
            let r = try wfl(["diff"] + pair)
            XCTAssertEqual(r.status, 0, "\(pair): \(r.stdout)\(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(pair)")
        }
    }

    /// Only a layout without elements is let off: a missing layout with elements is still a
    /// difference, and an empty layout that both sides have still compares its content size.
    func testALayoutWithElementsIsStillMissing() throws {
        try write("e.wfl", CLIHardeningTests.withEmpty)
        try write("f.wfl", CLIHardeningTests.withEmpty.replacingOccurrences(of: "items 0", with: "items 1\n  height 20"))
        XCTAssertEqual(try wfl(["run", "e.wfl", "-o", "e.csv"]).status, 0)
        let r = try wfl(["diff", "f.wfl", "e.csv"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "layout 'b' missing from e.csv\n1 difference\n")

        try write("g.wfl", CLIHardeningTests.withEmpty.replacingOccurrences(of: "items 0", with: "items 0\n  container 300 x 500"))
        let sizes = try wfl(["diff", "e.wfl", "g.wfl"])
        XCTAssertEqual(sizes.status, 1)
        XCTAssertEqual(sizes.stdout, "b: content size 375 x 0 -> 300 x 0\n1 difference\n")
    }

    /// At the level of the library: an empty layout absent from the other side is no
    /// difference, and what is left pairs as the tables without it would.
    func testTableDiffDropsUnmatchedEmptyLayouts() {
        func layout(_ name: String, _ n: Int) -> ReadLayout {
            ReadLayout(name: name, contentSize: nil, elements: (0..<n).map {
                ReadElement(kind: "cell", section: 0, item: $0, frame: Frame(x: 0, y: Double($0) * 10, width: 10, height: 10), zIndex: 0, line: 0)
            })
        }
        XCTAssertEqual(TableDiff.compare([layout("a", 2), layout("b", 0)], [layout("a", 2)]), [])
        XCTAssertEqual(TableDiff.compare([layout("a", 2)], [layout("b", 0), layout("a", 2)]), [])
        XCTAssertEqual(TableDiff.compare([layout("e", 0)], []), [])
        XCTAssertEqual(TableDiff.compare([], [layout("e", 0)]), [])
        // One layout each once the empty one is gone: compared whatever their names, as two
        // single-layout tables are.
        XCTAssertEqual(TableDiff.compare([layout("e", 0), layout("spec", 2)], [layout("app", 2)]), [])
        // A layout with elements is still missing.
        XCTAssertEqual(TableDiff.compare([layout("a", 1), layout("b", 1)], [layout("a", 1)]),
                       [TableDifference(layout: "b", element: "", change: .layout(inA: true))])
    }
}
