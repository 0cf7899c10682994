import Foundation
import XCTest
@testable import WFL

/// `wfl test`: expectation files that must pass, and files that must fail in known ways, with
/// the full text pinned in `Tests/Fixtures/test/fail/*.expected`.
final class TestCommandTests: XCTestCase {
    static let dir = Golden.root.appendingPathComponent("Tests/Fixtures/test")

    /// What `wfl test args` prints, as pinned: the command, the exit status, both streams.
    func transcript(_ args: [String]) throws -> (String, WFLCommand.Result) {
        let r = try WFLCommand.run(["test"] + args, directory: Self.dir)
        let text = "$ wfl test \(args.joined(separator: " "))\nexit status \(r.status)\n--- stdout ---\n\(r.stdout)--- stderr ---\n\(r.stderr)"
        return (text, r)
    }

    /// The `expect` statements written in a file (one a line in these fixtures).
    func expectCount(_ url: URL) throws -> Int {
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("expect ") }.count
    }

    func wflFiles(under folder: String) -> [URL] {
        let root = Self.dir.appendingPathComponent(folder)
        let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var out: [URL] = []
        while let u = e?.nextObject() as? URL {
            if u.pathExtension == "wfl" { out.append(u) }
        }
        return out
    }

    func testPassingFilesPassEveryExpectation() throws {
        let (text, r) = try transcript(["pass"])
        XCTAssertEqual(r.status, 0, text)
        XCTAssertEqual(r.stderr, "", text)
        let files = wflFiles(under: "pass")
        XCTAssertEqual(files.count, 5)
        let expected = try files.map(expectCount).reduce(0, +)
        XCTAssertGreaterThan(expected, 30)
        // Every expectation is counted, in nested folders too, and nothing else is printed.
        XCTAssertEqual(r.stdout, "\(expected) passed, 0 failed\n", text)
    }

    /// The same files through the Swift API: every expectation holds, and each is counted.
    func testPassingFilesThroughTheAPI() throws {
        for url in wflFiles(under: "pass") {
            let spec = Spec(file: try Golden.source(url))
            XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
            let outcomes = spec.checkExpectations()
            XCTAssertEqual(outcomes.count, try expectCount(url), url.lastPathComponent)
            XCTAssertEqual(spec.failedExpectations.count, 0, spec.expectationReport)
            XCTAssertEqual(spec.expectationReport, "")
        }
    }

    /// Each failing file's whole output is pinned.
    func testFailingFilesFailAsPinned() throws {
        let inputs = Golden.inputs("Tests/Fixtures/test/fail")
        XCTAssertEqual(inputs.count, 7)
        for url in inputs {
            let name = "fail/" + url.lastPathComponent
            let (text, r) = try transcript([name])
            XCTAssertNotEqual(r.status, 0, text)
            XCTAssertTrue(r.stdout.hasSuffix(" failed\n") && !r.stdout.hasSuffix(" 0 failed\n"), text)
            Golden.check(text, against: url.deletingPathExtension().appendingPathExtension("expected"), input: url)
        }
    }

    /// A directory: files in sorted path order, counts added up, 65 because one file does not
    /// evaluate (over 1 for failed expectations).
    func testADirectoryOfFailingFiles() throws {
        let (text, r) = try transcript(["fail"])
        XCTAssertEqual(r.status, 65, text)
        let order = r.stdout.split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("fail/") ? String(line.prefix { $0 != ":" }) : nil
        }
        var unique: [String] = []
        for o in order where unique.last != o { unique.append(o) }
        XCTAssertEqual(unique, ["fail/comparisons.wfl", "fail/evaluation-errors.wfl", "fail/layout-error.wfl", "fail/parse-error.wfl", "fail/scroll-paths.wfl", "fail/shelf-snap-errors.wfl", "fail/updates.wfl"])
        Golden.check(text, against: Self.dir.appendingPathComponent("fail.expected"), input: Self.dir.appendingPathComponent("fail"))
    }

    func testFailedComparisonShowsBothSides() throws {
        let spec = Spec(source: "columns 2\nitems 2\nheight 100\nexpect frame(0, 1) == [192, 0, 182.5, 100], \"right lane\"\n", name: "t.wfl")
        let failed = spec.failedExpectations
        XCTAssertEqual(failed.count, 1)
        let f = try XCTUnwrap(failed.first)
        XCTAssertEqual(f.verdict, .failed)
        XCTAssertEqual(f.label, "right lane")
        XCTAssertEqual(f.sides?.op, .equal)
        XCTAssertEqual(f.sides?.left, .list([.number(192.5), .number(0), .number(182.5), .number(100)]))
        XCTAssertEqual(f.sides?.right, .list([.number(192), .number(0), .number(182.5), .number(100)]))
        XCTAssertEqual(f.report(in: spec.source),
                       "t.wfl:4:8: failed: frame(0, 1) == [192, 0, 182.5, 100] (\"right lane\"): left is [192.5, 0, 182.5, 100], right is [192, 0, 182.5, 100]")
    }

    func testAnErrorFailsOnlyItsExpectation() throws {
        let spec = Spec(source: "items 2\nexpect frame(0, 5)[0] == 0\nexpect contentHeight == 182.5\n", name: "t.wfl")
        let outcomes = spec.checkExpectations()
        XCTAssertEqual(outcomes.map(\.verdict), [.error, .passed])
        XCTAssertEqual(outcomes[0].diagnostic?.message, "section 0 has no item 5: it has 2")
    }

    func testUsageAndUnreadablePaths() throws {
        let none = try WFLCommand.run(["test"], directory: Self.dir)
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("'test' needs a PATH"), none.stderr)
        let option = try WFLCommand.run(["test", "--fast", "pass"], directory: Self.dir)
        XCTAssertEqual(option.status, 64)
        let missing = try WFLCommand.run(["test", "no-such-dir", "pass"], directory: Self.dir)
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.stderr.contains("cannot read 'no-such-dir'"), missing.stderr)
        // The other path is still tested; the unreadable one counts as a failure.
        XCTAssertTrue(missing.stdout.hasSuffix(" passed, 1 failed\n"), missing.stdout)
    }

    func testStandardInput() throws {
        let r = try WFLCommand.run(["test", "-"], input: Data("items 1\nexpect contentHeight == 1\n".utf8))
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "<stdin>:2:8: failed: contentHeight == 1: left is 182.5, right is 1\n0 passed, 1 failed\n")
    }

    func testSamplesPass() throws {
        let r = try WFLCommand.run(["test", "samples"], directory: Golden.root)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix(" passed, 0 failed\n"), r.stdout)
        XCTAssertFalse(r.stdout.hasPrefix("0 passed"), r.stdout)
    }
}
