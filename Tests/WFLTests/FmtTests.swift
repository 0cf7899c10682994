import Foundation
import XCTest
@testable import WFL

/// `wfl fmt`: golden canonical forms, fixed points, the same meaning, and `-w`.
final class FmtTests: XCTestCase {
    typealias Formatted = Result<String, FormatFailure>

    /// The formatted text of `source` (or `formatted`, its formatting done already); a failure
    /// fails the test.
    func format(_ source: SourceFile, formatted: Formatted? = nil, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch formatted ?? Formatter.format(source) {
        case .success(let text): return text
        case .failure(.errors(let ds)):
            XCTFail("\(source.name) has errors: \(DiagnosticRenderer().render(ds, in: source))", file: file, line: line)
        case .failure(.wouldChangeMeaning(let why)):
            XCTFail("\(source.name): \(why)", file: file, line: line)
        }
        return nil
    }

    /// Messy input, and the canonical text pinned beside it.
    func testGoldenFormats() throws {
        let inputs = Golden.inputs("Tests/Fixtures/fmt")
        XCTAssertGreaterThanOrEqual(inputs.count, 5)
        for url in inputs {
            let source = try Golden.source(url)
            guard let text = format(source) else { continue }
            XCTAssertNotEqual(Array(text.utf8), source.bytes, "\(url.lastPathComponent) is already canonical: it tests nothing")
            Golden.check(text, against: url.deletingPathExtension().appendingPathExtension("expected"), input: url)
        }
    }

    /// Every `.wfl` file of the project that parses.
    func allSpecs() -> [URL] {
        var out: [URL] = []
        for folder in ["samples", "Tests/Fixtures"] {
            let e = FileManager.default.enumerator(at: Golden.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let u = e?.nextObject() as? URL {
                if u.pathExtension == "wfl" { out.append(u) }
            }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// What a file means: its tables as json, or its evaluation errors' messages (positions move).
    func meaning(_ source: SourceFile) -> String {
        let spec = Spec(file: source)
        if spec.hasErrors {
            return spec.diagnostics.filter { $0.severity == .error }.map(\.message).joined(separator: "\n")
        }
        let tables = spec.layouts.map { $0.at(.zero) }
        let expectations = spec.checkExpectations().map { "\($0.verdict) \($0.sides.map { "\($0.left.description) \($0.right.description)" } ?? "") \($0.label ?? "")" }
        return JSONFormat.format(tables) + expectations.joined(separator: "\n")
    }

    /// Formatting every sample and fixture is a fixed point after one pass and keeps the tables
    /// (and the expectations' verdicts) exactly.
    func testEverySpecFormatsToAFixedPointWithTheSameTable() throws {
        var formatted = 0, evaluated = 0
        // Formatted on every core; asserted here, in order.
        let runs = try Concurrent.map(allSpecs()) { url -> (source: SourceFile, once: Formatted, twice: (SourceFile, Formatted, before: String, after: String)?)? in
            let source = try Golden.source(url)
            guard !Parser.parse(source).diagnostics.hasErrors else { return nil }
            let once = Formatter.format(source)
            guard case .success(let text) = once else { return (source, once, nil) }
            let onceSource = SourceFile(name: source.name, text: text)
            return (source, once, (onceSource, Formatter.format(onceSource), meaning(source), meaning(onceSource)))
        }
        for (url, run) in zip(allSpecs(), runs) {
            guard let run, let once = format(run.source, formatted: run.once), let second = run.twice,
                  let twice = format(second.0, formatted: second.1) else { continue }
            let before = second.before, after = second.after
            XCTAssertEqual(twice, once, "\(url.lastPathComponent) is not a fixed point")
            XCTAssertEqual(before, after, "\(url.lastPathComponent) means something else after formatting:\n\(once)")
            formatted += 1
            if before.hasPrefix("{") { evaluated += 1 }
        }
        XCTAssertGreaterThanOrEqual(formatted, 40)
        XCTAssertGreaterThanOrEqual(evaluated, 20)
    }

    func testCanonicalTextIsLeftAlone() throws {
        for url in Golden.inputs("samples") {
            let source = try Golden.source(url)
            let text = try XCTUnwrap(format(source))
            // The samples are written canonically already.
            XCTAssertEqual(text, String(decoding: source.bytes, as: UTF8.self), url.lastPathComponent)
        }
    }

    func testSpacingThatChangesMeaningIsKept() throws {
        let source = SourceFile(name: "t.wfl", text: "let pad = 4\ninsets pad (pad*2)\nspacing 10 (-5)\nlet f(k)=k\nheight f(2)+[1,2][i%2]\n")
        XCTAssertEqual(format(source), "let pad = 4\ninsets pad (pad * 2)\nspacing 10 (-5)\nlet f(k) = k\nheight f(2) + [1, 2][i % 2]\n")
    }

    /// A file whose only errors are about names parses: it is formatted (the names are `wfl run`'s
    /// business), while a syntax error still leaves a file alone.
    func testNameErrorsDoNotStopFormatting() throws {
        let source = SourceFile(name: "t.wfl", text: "items   4\nheight foo+[1,2][i%2]\nlet f(k)=g(k)\n")
        XCTAssertTrue(Parser.parse(source).diagnostics.hasErrors)
        XCTAssertEqual(format(source), "items 4\nheight foo + [1, 2][i % 2]\nlet f(k) = g(k)\n")
        guard case .failure(.errors(let ds)) = Formatter.format(SourceFile(name: "t.wfl", text: "items 4\nheight (foo\n")) else {
            return XCTFail("a syntax error should stop formatting")
        }
        XCTAssertEqual(ds.map(\.code), [.unclosed])
    }

    // MARK: - The command

    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testWriteRewritesFilesAndLeavesBrokenOnesAlone() throws {
        let messy = "columns 2;items 4\nheight   100\n"
        let broken = "colums 2\nitems 4\n"
        try Data(messy.utf8).write(to: work.appendingPathComponent("a.wfl"))
        try Data(broken.utf8).write(to: work.appendingPathComponent("b.wfl"))
        try Data("items 1\n".utf8).write(to: work.appendingPathComponent("c.wfl"))

        let printed = try WFLCommand.run(["fmt", "a.wfl", "c.wfl"], directory: work)
        XCTAssertEqual(printed.status, 0)
        XCTAssertEqual(printed.stdout, "columns 2\nitems 4\nheight 100\nitems 1\n")
        // Printing changes nothing.
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("a.wfl"), encoding: .utf8), messy)

        let r = try WFLCommand.run(["fmt", "-w", "a.wfl", "b.wfl", "c.wfl"], directory: work)
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("b.wfl:1:1: error: unknown setting 'colums'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("wfl: 'b.wfl' has errors: it is left as it is"), r.stderr)
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("a.wfl"), encoding: .utf8), "columns 2\nitems 4\nheight 100\n")
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("b.wfl"), encoding: .utf8), broken)
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("c.wfl"), encoding: .utf8), "items 1\n")
        // No temporary file is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
        XCTAssertEqual(names, ["a.wfl", "b.wfl", "c.wfl"])
    }

    func testWriteFailureLeavesTheFileWhole() throws {
        guard getuid() != 0 else { throw XCTSkip("root can write into a read-only directory") }
        let dir = work.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let messy = "columns 2;items 4\n"
        try Data(messy.utf8).write(to: dir.appendingPathComponent("a.wfl"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }
        let r = try WFLCommand.run(["fmt", "-w", "ro/a.wfl"], directory: work)
        XCTAssertEqual(r.status, 74)
        XCTAssertTrue(r.stderr.hasPrefix("wfl: cannot write 'ro/a.wfl'"), r.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("a.wfl"), encoding: .utf8), messy)
    }

    func testUsage() throws {
        XCTAssertEqual(try WFLCommand.run(["fmt"]).status, 64)
        XCTAssertEqual(try WFLCommand.run(["fmt", "--check", "x.wfl"]).status, 64)
        XCTAssertEqual(try WFLCommand.run(["fmt", "-w", "-"]).status, 64)
        let missing = try WFLCommand.run(["fmt", "nowhere.wfl"], directory: work)
        XCTAssertEqual(missing.status, 74)
        let stdin = try WFLCommand.run(["fmt", "-"], input: Data("items  3".utf8))
        XCTAssertEqual(stdin.stdout, "items 3\n")
    }
}
