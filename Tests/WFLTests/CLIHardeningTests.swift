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

    // MARK: - plain decimal numbers in options

    /// Swift's `Double(String)` reads hexadecimal, `inf`, `nan` and more: the options take plain
    /// decimals only, with their usage errors.
    func testOptionsTakePlainDecimalsOnly() throws {
        try write("a.wfl", "columns 2\nitems 4\nheight 50\n")
        let offsetError = "is not an offset: write X,Y, two numbers, for example '--offset 0,120'"
        let bads = ["0x10,0", "0,0x1p4", "inf,0", "0,nan", "0,infinity", "1_000,0", "1..2,0", "1.2.3,0", "+-1,0", "1e,0",
                    "e5,0", ".,0", "1e5.5,0", "0,0x", "٣,0", "1 2,0", "1,", ",1", "1,2,3"]
        let runs = try Concurrent.map(bads) { bad in (try wfl(["run", "a.wfl", "--offset", bad]), try wfl(["run", "a.wfl", "--offset=\(bad)"])) }
        for (bad, (r, joined)) in zip(bads, runs) {
            XCTAssertEqual(r.status, 64, bad)
            XCTAssertEqual(r.stdout, "", bad)
            XCTAssertTrue(r.stderr.hasPrefix("wfl: '--offset \(bad)' \(offsetError)\n"), "\(bad): \(r.stderr)")
            XCTAssertEqual(joined.status, 64, bad)
        }
        for bad in ["0x0,0,375,812", "0,0,375,inf", "0,0,nan,1"] {
            let r = try wfl(["run", "a.wfl", "--rect", bad])
            XCTAssertEqual(r.status, 64, bad)
            XCTAssertTrue(r.stderr.hasPrefix("wfl: '--rect \(bad)' is not a rect: write X,Y,W,H, four numbers"), "\(bad): \(r.stderr)")
        }
        // A rect whose corner is not a number (drawn, it started at -Infinity).
        for bad in ["-1.7e308,0,-1.7e308,10", "0,1e308,10,1e308"] {
            let (r, joined) = (try wfl(["run", "a.wfl", "--rect", bad]), try wfl(["run", "a.wfl", "--rect=\(bad)", "--format", "svg"]))
            XCTAssertEqual(r.status, 64, bad)
            XCTAssertTrue(r.stderr.hasPrefix("wfl: '--rect \(bad)' reaches past the largest number a position can have"), "\(bad): \(r.stderr)")
            XCTAssertEqual(joined.status, 64, bad)
            XCTAssertEqual(joined.stdout, "", bad)
        }
        for bad in ["0x1", "inf", "nan", "1e400", "0x0p0", "-1", " "] {
            let r = try wfl(["diff", "x.json", "y.json", "--tolerance", bad])
            XCTAssertEqual(r.status, 64, bad)
            XCTAssertTrue(r.stderr.hasPrefix("wfl: '--tolerance \(bad)' is not a tolerance: write a number at least 0"), "\(bad): \(r.stderr)")
        }
        // Every plain form still works, and means what it says.
        let at = try wfl(["run", "a.wfl", "--format", "csv"]).stdout
        for good in ["0,0", "+0,-0", "0.0,0.", ".0,0e0", "0E+3,0e-3", " 0 , 0 ", "0.000,00"] {
            let r = try wfl(["run", "a.wfl", "--format", "csv", "--offset", good])
            XCTAssertEqual(r.status, 0, "\(good): \(r.stderr)")
            XCTAssertEqual(r.stdout, at, good)
        }
        let moved = try wfl(["run", "a.wfl", "--format", "csv", "--rect", "0,1.5e1,1E3,+.5"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(moved.stdout.split(separator: "\n").count, 3, "the header row and the two cells of the first row: \(moved.stdout)")
        try write("t.csv", "layout,section,item,kind,x,y,width,height,zIndex\na,0,0,cell,0,0,10,10,0\n")
        for good in ["0", "0.5", "5e-1", ".5", "1.", "+2"] {
            XCTAssertEqual(try wfl(["diff", "t.csv", "t.csv", "--tolerance", good]).status, 0, good)
        }
    }

    // MARK: - --layout with many layouts

    /// At most 20 names, then how many more there are.
    func testAnUnknownLayoutListsAtMostTwentyNames() throws {
        try write("many.wfl", (0..<25).map { "layout l\($0) {\n  items 1\n}\n" }.joined())
        let r = try wfl(["run", "many.wfl", "--layout", "nope"])
        XCTAssertEqual(r.status, 64)
        let names = (0..<20).map { "'l\($0)'" }.joined(separator: ", ")
        XCTAssertTrue(r.stderr.hasPrefix("wfl: 'many.wfl' has no layout 'nope': its layouts are \(names) and 5 more\nusage: "), r.stderr)
        // Twenty are all listed.
        try write("twenty.wfl", (0..<20).map { "layout l\($0) {\n  items 1\n}\n" }.joined())
        let all = try wfl(["run", "twenty.wfl", "--layout", "nope"])
        XCTAssertTrue(all.stderr.hasPrefix("wfl: 'twenty.wfl' has no layout 'nope': its layouts are \(names)\nusage: "), all.stderr)
        // One is the only one.
        try write("one.wfl", "layout only {\n  items 1\n}\n")
        let one = try wfl(["run", "one.wfl", "--layout", "nope"])
        XCTAssertTrue(one.stderr.hasPrefix("wfl: 'one.wfl' has no layout 'nope': its only layout is 'only'\nusage: "), one.stderr)
    }

    /// 100,000 layouts: the message stays one short line.
    func testAnUnknownLayoutAmongAHundredThousand() throws {
        try Stress.only()
        try write("many.wfl", (0..<100_000).map { "layout l\($0) {\n  items 1\n}\n" }.joined())
        let r = try wfl(["run", "many.wfl", "--layout", "nope"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("'l19' and 99980 more\n"), String(r.stderr.prefix(500)))
        XCTAssertLessThan(r.stderr.utf8.count, 600)
    }

    // MARK: - standard input that is a directory

    /// Runs `wfl args` with standard input the folder `work`.
    func withDirectoryInput(_ args: [String]) throws -> WFLCommand.Result {
        let p = Process()
        p.executableURL = WFLCommand.binary
        p.arguments = args
        p.currentDirectoryURL = work
        let out = url("stdout"), err = url("stderr")
        _ = fm.createFile(atPath: out.path, contents: nil)
        _ = fm.createFile(atPath: err.path, contents: nil)
        let o = try FileHandle(forWritingTo: out), e = try FileHandle(forWritingTo: err)
        let dir = try XCTUnwrap(FileHandle(forReadingAtPath: work.path))
        p.standardInput = dir
        p.standardOutput = o
        p.standardError = e
        try p.run()
        p.waitQuickly()
        try o.close(); try e.close(); try dir.close()
        defer { try? fm.removeItem(at: out); try? fm.removeItem(at: err) }
        return WFLCommand.Result(status: p.terminationStatus,
                                 stdout: try String(contentsOf: out, encoding: .utf8),
                                 stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// `wfl repl < /tmp` and every command reading `-` from a directory: 74 and the reason.
    func testStandardInputThatIsADirectory() throws {
        let message = "wfl: cannot read standard input: is a directory\n"
        let repl = try withDirectoryInput(["repl"])
        XCTAssertEqual(repl.status, 74)
        XCTAssertEqual(repl.stdout, "")
        XCTAssertEqual(repl.stderr, message)
        try write("t.csv", "layout,section,item,kind,x,y,width,height,zIndex\na,0,0,cell,0,0,10,10,0\n")
        for args in [["run", "-"], ["-"], ["tokens", "-"], ["ast", "-"], ["fmt", "-"], ["test", "-"], ["diff", "-", "t.csv"]] {
            let r = try withDirectoryInput(args)
            XCTAssertEqual(r.status, 74, "\(args)")
            // `test` counts the file it could not read as a failure.
            XCTAssertEqual(r.stdout, args[0] == "test" ? "0 passed, 1 failed\n" : "", "\(args)")
            XCTAssertEqual(r.stderr, message, "\(args)")
        }
    }

    // MARK: - signals during -o

    /// SIGTERM or SIGINT while `-o` writes: the temporary file is removed, the old output stays,
    /// and the exit status says which signal ended wfl.
    func testASignalDuringOutputRemovesTheTemporaryFile() throws {
        try Stress.only()
        try write("big.wfl", "columns 3\nitems 2000000\nheight 40 + i % 7 * 10\n")
        let old = Data("the old output\n".utf8)
        func temporaries() throws -> [String] {
            try fm.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".out.json.wfl-tmp-") }
        }
        for sig in [SIGTERM, SIGINT] {
            var caught = 0
            for _ in 0..<4 where caught < 1 {
                try old.write(to: url("out.json"))
                let p = Process()
                p.executableURL = WFLCommand.binary
                p.arguments = ["run", "big.wfl", "-o", "out.json"]
                p.currentDirectoryURL = work
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try p.run()
                let deadline = Date().addingTimeInterval(300)
                var sent = false
                while p.isRunning && Date() < deadline {
                    if try !temporaries().isEmpty {
                        kill(p.processIdentifier, sig)
                        sent = true
                        break
                    }
                    usleep(100)
                }
                p.waitQuickly()
                let now = try Data(contentsOf: url("out.json"))
                if sent && p.terminationReason == .uncaughtSignal {
                    caught += 1
                    XCTAssertEqual(p.terminationStatus, sig, "the exit status says which signal ended it")
                    XCTAssertEqual(now, old, "the old output is intact")
                } else {
                    // The write ended before the signal came: the new output is whole.
                    XCTAssertEqual(p.terminationStatus, 0)
                    XCTAssertEqual(now.suffix(2), Data("}\n".utf8))
                }
                XCTAssertEqual(try temporaries(), [], "signal \(sig): no temporary file is left")
            }
            XCTAssertGreaterThan(caught, 0, "signal \(sig): wfl was never caught in the middle of writing")
        }
    }

    /// A signal wfl ignored when it started stays ignored during `-o`: the write ends whole.
    func testAnIgnoredSignalStaysIgnoredDuringOutput() throws {
        try Stress.only()
        try write("big.wfl", "columns 3\nitems 2000000\nheight 40 + i % 7 * 10\n")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `trap '' TERM` makes the shell's children start with SIGTERM ignored.
        p.arguments = ["-c", "trap '' TERM; exec \"$0\" run big.wfl -o out.json", WFLCommand.binary.path]
        p.currentDirectoryURL = work
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(300)
        var sent = false
        while p.isRunning && Date() < deadline {
            if try fm.contentsOfDirectory(atPath: work.path).contains(where: { $0.hasPrefix(".out.json.wfl-tmp-") }) {
                kill(p.processIdentifier, SIGTERM)
                sent = true
                break
            }
            usleep(100)
        }
        p.waitQuickly()
        XCTAssertTrue(sent, "the temporary file was never seen")
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(try Data(contentsOf: url("out.json")).suffix(2), Data("}\n".utf8))
    }
}
