import Foundation
import XCTest
@testable import WFL

/// `wfl diff` and the table reader behind it.
final class DiffTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: work.appendingPathComponent(name))
    }

    func diff(_ args: [String]) throws -> WFLCommand.Result {
        try WFLCommand.run(["diff"] + args, directory: work)
    }

    func sampleTables(_ name: String) throws -> [AttributeTable] {
        let spec = Spec(file: try Golden.source(Golden.root.appendingPathComponent("samples/\(name).wfl")))
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        return spec.layouts.map { $0.at(.zero) }
    }

    /// Every sample's table against itself, in json, in csv and across the two: no difference.
    func testATableAgainstItselfIsEmpty() throws {
        let samples = Golden.inputs("samples").map { $0.deletingPathExtension().lastPathComponent }
        XCTAssertGreaterThanOrEqual(samples.count, 10)
        var pairs: [[String]] = []
        for name in samples {
            let tables = try sampleTables(name)
            try write("\(name).json", JSONFormat.format(tables))
            try write("\(name).csv", CSVFormat.format(tables))
            pairs += [["\(name).json", "\(name).json"], ["\(name).csv", "\(name).csv"], ["\(name).json", "\(name).csv"]]
        }
        for (pair, r) in zip(pairs, try Concurrent.map(pairs, diff)) {
            XCTAssertEqual(r.status, 0, "\(pair): \(r.stdout)\(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(pair)")
            XCTAssertEqual(r.stderr, "", "\(pair)")
        }
    }

    /// One frame moved by 0.5: exactly that element is reported, with its delta.
    func testOneFrameMovedByHalfAPoint() throws {
        let tables = try sampleTables("sections")
        var moved = tables
        let k = try XCTUnwrap(moved[0].elements.firstIndex { $0.kind == .cell && $0.section == 1 && $0.item == 4 })
        let before = moved[0].elements[k].frame
        moved[0].elements[k].frame.y += 0.5
        try write("spec.json", JSONFormat.format(tables))
        try write("app.csv", CSVFormat.format(moved))
        let r = try diff(["spec.json", "app.csv"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let f = NumberFormat.format
        let from = "[\(f(before.x)), \(f(before.y)), \(f(before.width)), \(f(before.height))]"
        let to = "[\(f(before.x)), \(f(before.y + 0.5)), \(f(before.width)), \(f(before.height))]"
        XCTAssertEqual(r.stdout, "store: frame(1, 4) moved by dy +0.5: \(from) -> \(to)\n1 difference\n")
        // Within the tolerance it is the same table.
        let tolerant = try diff(["spec.json", "app.csv", "--tolerance", "0.5"])
        XCTAssertEqual(tolerant.status, 0)
        XCTAssertEqual(tolerant.stdout, "")
        let tight = try diff(["spec.json", "app.csv", "--tolerance=0.4"])
        XCTAssertEqual(tight.status, 1)
    }

    /// `translate` and `rotate` where used (absent: unused), compared within the tolerance; a
    /// turn compared the short way round (180 and -180 are one turn).
    func testTranslateAndRotate() throws {
        let cell = #"{"kind": "cell", "section": 0, "item": 0, "frame": [0, 0, 10, 10], "zIndex": 0"#
        try write("a.json", #"{"layouts": [{"name": "f", "elements": ["# + cell + "}]}]}")
        try write("b.json", #"{"layouts": [{"name": "f", "elements": ["# + cell + #", "translate": [3, -1], "rotate": 180}]}]}"#)
        try write("c.json", #"{"layouts": [{"name": "f", "elements": ["# + cell + #", "translate": [3.0005, -1], "rotate": -180}]}]}"#)
        let r = try diff(["a.json", "b.json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout, "f: frame(0, 0) translate 0 x 0 -> 3 x -1; rotate 0 -> 180\n1 difference\n")
        XCTAssertEqual(try diff(["b.json", "c.json"]).stdout, "")
        try write("bad.json", #"{"layouts": [{"name": "f", "elements": ["# + cell + #", "translate": [3]}]}]}"#)
        XCTAssertTrue(try diff(["a.json", "bad.json"]).stderr.contains("\"translate\" must be an array of 2 numbers"))
    }

    func testMissingExtraAndZIndex() throws {
        let tables = try sampleTables("feed")
        var changed = tables
        let header = try XCTUnwrap(changed[0].elements.firstIndex { $0.kind == .header })
        changed[0].elements.remove(at: header)
        changed[0].elements[1].zIndex = 3
        changed[0].elements.append(Element(kind: .cell, section: 0, item: 10, frame: Frame(x: 1, y: 2, width: 3, height: 4), zIndex: 0))
        try write("a.json", JSONFormat.format(tables))
        try write("b.json", JSONFormat.format(changed))
        let r = try diff(["a.json", "b.json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, """
            feed: header(0) missing from b.json (in a.json at [0, 0, 375, 44])
            feed: frame(0, 1) zIndex 0 -> 3
            feed: frame(0, 10) extra in b.json at [1, 2, 3, 4] (not in a.json)
            3 differences

            """)
    }

    /// z-indexes are compared with the tolerance, as frames are: `--tolerance 3` lets 0 -> 3 pass,
    /// the default 0.001 does not.
    func testZIndexWithinTheTolerance() throws {
        let tables = try sampleTables("feed")
        var changed = tables
        changed[0].elements[1].zIndex = 3
        try write("a.json", JSONFormat.format(tables))
        try write("b.json", JSONFormat.format(changed))
        XCTAssertEqual(try diff(["a.json", "b.json"]).status, 1)
        XCTAssertEqual(try diff(["a.json", "b.json", "--tolerance", "2.5"]).status, 1)
        let r = try diff(["a.json", "b.json", "--tolerance", "3"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "")
    }

    /// At most 20 lines, then how many more, then the count.
    func testLongDiffsAreCut() throws {
        let a = try sampleTables("three-columns")
        var b = a
        for k in b[0].elements.indices { b[0].elements[k].frame.x += 1 }
        try write("a.json", JSONFormat.format(a))
        try write("b.json", JSONFormat.format(b))
        let r = try diff(["a.json", "b.json"])
        let lines = r.stdout.split(separator: "\n")
        let n = a[0].elements.count
        XCTAssertGreaterThan(n, 22)
        XCTAssertEqual(lines.count, 22)
        XCTAssertEqual(lines[20], "... and \(n - 20) more")
        XCTAssertEqual(lines[21], "\(n) differences")
    }

    /// Layouts are matched by name, unless each file holds one.
    func testLayoutsByName() throws {
        let csvA = "layout,section,item,kind,x,y,width,height,zIndex\none,0,0,cell,0,0,10,10,0\ntwo,0,0,cell,0,0,10,10,0\n"
        let csvB = "layout,section,item,kind,x,y,width,height,zIndex\none,0,0,cell,0,0,10,10,0\nthree,0,0,cell,0,0,10,10,0\n"
        try write("a.csv", csvA)
        try write("b.csv", csvB)
        let r = try diff(["a.csv", "b.csv"])
        XCTAssertEqual(r.stdout, "layout 'two' missing from b.csv\nlayout 'three' extra in b.csv (not in a.csv)\n2 differences\n")
        try write("c.csv", "layout,section,item,kind,x,y,width,height,zIndex\nother,0,0,cell,0,0,10,10,0\n")
        try write("d.csv", "layout,section,item,kind,x,y,width,height,zIndex\n\"my, app\",0,0,cell,0,0,10,10,0\n")
        XCTAssertEqual(try diff(["c.csv", "d.csv"]).status, 0)
    }

    /// What docs/usage.md's snippet writes: UIKit's kind names, null for a cell, no zIndex.
    func testAnAppDump() throws {
        try write("spec.json", JSONFormat.format(try sampleTables("flow-sections")))
        let tables = try sampleTables("flow-sections")
        var dump = "{\"layouts\": [{\"name\": \"app\", \"contentSize\": [\(tables[0].contentWidth), \(tables[0].contentHeight)], \"elements\": [\n"
        dump += tables[0].elements.reversed().map { e in
            let kind = e.kind == .cell ? "null" : e.kind == .header ? "\"UICollectionElementKindSectionHeader\"" : "\"UICollectionElementKindSectionFooter\""
            return "{\"kind\": \(kind), \"section\": \(e.section), \"item\": \(e.item.map(String.init) ?? "null"), \"frame\": [\(e.frame.x), \(e.frame.y), \(e.frame.width), \(e.frame.height)]}"
        }.joined(separator: ",\n")
        dump += "]}]}"
        try write("app.json", dump)
        let r = try diff(["spec.json", "app.json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }

    func testBadInputs() throws {
        try write("good.csv", "layout,section,item,kind,x,y,width,height,zIndex\nt,0,0,cell,0,0,10,10,0\n")
        let cases: [(String, String, Int32, String)] = [
            ("cut.json", "{\"layouts\": [{\"name\": \"t\", \"elements\": [\n  {\"kind\": \"cell\", \"section\": 0, ",
             65, "wfl: cut.json:2:34: expected a member name in double quotes, found the end of the file\n"),
            ("shape.json", "{\"tables\": []}", 65, "wfl: shape.json:1:1: the object has no \"layouts\" member\n"),
            ("frame.json", "{\"layouts\": [{\"elements\": [{\"section\": 0, \"item\": 0, \"frame\": [1, 2, 3]}]}]}",
             65, "wfl: frame.json:1:63: \"frame\" must be an array of 4 numbers\n"),
            ("number.csv", "layout,section,item,kind,x,y,width,height,zIndex\nt,0,0,cell,0,zero,10,10,0\n",
             65, "wfl: number.csv:2:14: 'zero' in column 'y' is not a number\n"),
            ("fields.csv", "layout,section,item,kind,x,y,width,height,zIndex\nt,0,0,cell,0,0,10\n",
             65, "wfl: fields.csv:2:1: a row must have 9 fields, this one has 7\n"),
            ("twice.csv", "layout,section,item,kind,x,y,width,height,zIndex\nt,0,0,cell,0,0,10,10,0\nt,0,0,cell,0,5,10,10,0\n",
             65, "wfl: twice.csv:3:1: frame(0, 0) of layout 't' appears twice, on lines 2 and 3\n"),
            ("empty.json", "  \n", 65, "wfl: empty.json:1:1: the file is empty: expected a table in wfl's json or csv format\n"),
        ]
        for (name, text, status, message) in cases {
            try write(name, text)
            let r = try diff(["good.csv", name])
            XCTAssertEqual(r.status, status, name)
            XCTAssertEqual(r.stderr, message, name)
            XCTAssertEqual(r.stdout, "", name)
        }
        let missing = try diff(["good.csv", "nowhere.json"])
        XCTAssertEqual(missing.status, 74)
        XCTAssertEqual(missing.stderr, "wfl: cannot read 'nowhere.json': no such file or directory\n")
        XCTAssertEqual(try diff(["good.csv"]).status, 64)
        XCTAssertEqual(try diff(["good.csv", "good.csv", "--tolerance", "-1"]).status, 64)
        XCTAssertEqual(try diff(["good.csv", "good.csv", "--colour"]).status, 64)
        // A deeply nested document is an error, not a crash.
        try write("deep.json", String(repeating: "[", count: 100_000))
        let deep = try diff(["good.csv", "deep.json"])
        XCTAssertEqual(deep.status, 65)
        XCTAssertTrue(deep.stderr.contains("nests more than 256 levels"), deep.stderr)
    }
}
