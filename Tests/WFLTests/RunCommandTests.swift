import Foundation
import XCTest
@testable import WFL

/// `wfl run` through the built binary: exit codes, formats, `--layout`, `-o`.
final class RunCommandTests: XCTestCase {
    /// The `wfl` binary built beside the test bundle.
    static let binary: URL? = {
        var candidates: [URL] = []
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent().appendingPathComponent("wfl")) }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("wfl"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("wfl"))
        for b in Bundle.allBundles { candidates.append(b.bundleURL.deletingLastPathComponent().appendingPathComponent("wfl")) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    func wfl(_ args: [String], stdin: String? = nil, env: [String: String] = [:]) throws -> Output {
        let bin = try XCTUnwrap(RunCommandTests.binary, "the wfl binary is not built beside the tests")
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        let r = try Spawn.run(bin.path, args, input: stdin.map { Data($0.utf8) }, environment: environment)
        return Output(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: String(decoding: r.stderr, as: UTF8.self))
    }

    var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = tmp.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testRunPrintsEachFormat() throws {
        let feed = Golden.root.appendingPathComponent("samples/feed.wfl").path
        let table = try wfl(["run", feed])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasPrefix("feed  waterfall vertical  container 375 x 812  content 375 x 864\n"))
        XCTAssertEqual(table.stderr, "")
        // `wfl FILE` is the short form.
        XCTAssertEqual(try wfl([feed]).stdout, table.stdout)
        let json = try wfl(["run", feed, "--format", "json"])
        XCTAssertEqual(json.status, 0)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)))
        let csv = try wfl(["run", "--format", "csv", feed])
        XCTAssertTrue(csv.stdout.hasPrefix("layout,section,item,kind,x,y,width,height,zIndex\nfeed,0,,header,0,0,375,44,10\n"))
    }

    func testStandardInputIsNamedStdin() throws {
        let r = try wfl(["run", "-", "--format", "csv"], stdin: "items 1\nheight 7\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\nstdin,0,0,cell,0,0,182.5,7,0\n"), r.stdout)
    }

    func testExitCodes() throws {
        let bad = try write("bad.wfl", "items 3\nheight 100 / (1 - i)\n")
        let r = try wfl(["run", bad], env: ["NO_COLOR": "1"])
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("bad.wfl:2:8: error: division by zero in the height of item 1 of section 0"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\u{1B}["), "no colour on a pipe")
        let parseError = try write("p.wfl", "colums 3\n")
        XCTAssertEqual(try wfl(["run", parseError]).status, 65)
        XCTAssertEqual(try wfl(["run", tmp.appendingPathComponent("missing.wfl").path]).status, 74)
        XCTAssertEqual(try wfl(["run", tmp.path]).status, 74)
        let ok = try write("ok.wfl", "items 1\n")
        XCTAssertEqual(try wfl(["run", ok, "--bogus"]).status, 64)
        XCTAssertEqual(try wfl(["run", ok, "--format", "yaml"]).status, 64)
        XCTAssertEqual(try wfl(["run"]).status, 64)
        // Warnings do not change the status.
        let warn = try write("w.wfl", "items 1\nitems 2\n")
        let w = try wfl(["run", warn])
        XCTAssertEqual(w.status, 0)
        XCTAssertTrue(w.stderr.contains("warning"))
    }

    func testLayoutOption() throws {
        let file = try write("two.wfl", "layout a {\n  items 1\n}\nlayout \"b c\" {\n  items 2\n}\n")
        let only = try wfl(["run", file, "--layout", "b c", "--format", "csv"])
        XCTAssertEqual(only.status, 0, only.stderr)
        XCTAssertEqual(only.stdout.split(separator: "\n").count, 3)
        XCTAssertTrue(only.stdout.contains("b c,0,1,cell"))
        let unknown = try wfl(["run", file, "--layout", "z"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("no layout 'z'"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("'a', 'b c'"), unknown.stderr)
    }

    func testOutputFileIsWholeOrNotAtAll() throws {
        let ok = try write("ok.wfl", "items 2\n")
        let target = tmp.appendingPathComponent("out.json")
        let r = try wfl(["run", ok, "--format", "json", "-o", target.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        let written = try String(contentsOf: target, encoding: .utf8)
        XCTAssertTrue(written.contains("\"name\": \"ok\""))
        // A failing spec leaves the old file as it was, and no temporary file behind.
        let bad = try write("bad.wfl", "items 2\nheight 1 / 0\n")
        XCTAssertEqual(try wfl(["run", bad, "-o", target.path]).status, 65)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), written)
        // A directory that does not exist: 74, nothing written.
        let nowhere = tmp.appendingPathComponent("no/such/dir/out.txt").path
        XCTAssertEqual(try wfl(["run", ok, "-o", nowhere]).status, 74)
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(left, [])
    }
}
