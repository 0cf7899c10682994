import Foundation
import XCTest
@testable import WFL

/// Reading a file in two halves on two threads (ParserHalves.swift) gives what one parser gives:
/// the same tree, bindings included, the same diagnostics, wherever the cut falls.
final class ParserHalvesTests: XCTestCase {
    /// One parser's result, whatever the file's size.
    func whole(_ source: SourceFile) -> ParseResult {
        var p = Parser(source: source)
        let tree = p.parseFile()
        return ParseResult(tree: tree, diagnostics: p.diagnostics, incomplete: p.incomplete)
    }

    /// Parses `source` cut at `cut`, fails unless the result is one parser's, and gives the way taken.
    @discardableResult
    func check(_ source: SourceFile, cut: Int, file: StaticString = #filePath, line: UInt = #line) -> Parser.HalvesWay {
        let (halves, way) = Parser.readInHalves(source, at: cut, options: .standard)
        let one = whole(source)
        if halves.tree != one.tree || halves.diagnostics != one.diagnostics || halves.incomplete != one.incomplete {
            let text = String(decoding: source.bytes, as: UTF8.self)
            XCTFail("""
                \(source.name) cut at \(cut) (the \(way) way) reads differently from one parser.
                input:
                \(text.prefix(cut))<CUT>\(text.dropFirst(cut))
                one parser: \(one.diagnostics.map { "\($0.span) \($0.message)" }), bindings \(one.tree.bindings.count)
                in halves:  \(halves.diagnostics.map { "\($0.span) \($0.message)" }), bindings \(halves.tree.bindings.count)
                """, file: file, line: line)
        }
        return way
    }

    /// The `.wfl` files under `folder`, at any depth.
    func files(under folder: String) -> [URL] {
        let root = Golden.root.appendingPathComponent(folder)
        let all = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return all.filter { $0.hasSuffix(".wfl") }.sorted().map { root.appendingPathComponent($0) }
    }

    /// Every fixture and sample (errors, warnings, every construct), cut at every sixth line
    /// start (each file from another of the six; every line under `WFL_STRESS`): each of the
    /// three ways is taken, and each gives one parser's result.
    func testEveryFixtureCutAtItsLinesReadsAsOne() throws {
        var ways: [Parser.HalvesWay: Int] = [:]
        let urls = files(under: "Tests/Fixtures") + files(under: "samples")
        XCTAssertGreaterThan(urls.count, 200)
        let every = Stress.enabled ? 1 : 6
        for (n, url) in urls.enumerated() {
            let source = try Golden.source(url)
            for (k, cut) in source.lineStarts.enumerated() where k % every == n % every && cut > 0 && cut < source.bytes.count {
                ways[check(source, cut: cut), default: 0] += 1
            }
        }
        XCTAssertGreaterThan(ways[.joined, default: 0], 100 / every, "\(ways)")
        XCTAssertGreaterThan(ways[.readOn, default: 0], 100 / every, "\(ways)")
        XCTAssertGreaterThan(ways[.again, default: 0], 100 / every, "\(ways)")
    }

    /// Mutants of the samples and random inputs (bad bytes, comments and strings left open, lone
    /// CRs: RobustnessTests' generators), each cut at up to four line starts: one parser's result
    /// every time. A stress test.
    func testMutantsAndRandomInputsCutAnywhereReadAsOne() throws {
        try Stress.only()
        let inputs = RobustnessTests.sampleInputs(try RobustnessTests.samples(), mutantsPerFile: 100, truncateEvery: 997)
            + (0..<400).map { k in ("random input \(k)", RobustnessTests.randomInput(seed: 0x4A1F_0000 + UInt64(k))) }
        var cuts = 0
        var r = SeededRandom(seed: 0x4A1F)
        for (name, bytes) in inputs {
            let source = SourceFile(name: name, bytes: bytes)
            let starts = source.lineStarts.filter { $0 > 0 && $0 < bytes.count }
            guard !starts.isEmpty else { continue }
            for _ in 0..<4 {
                check(source, cut: starts[r.below(starts.count)])
                cuts += 1
            }
        }
        XCTAssertGreaterThan(cuts, 4000)
    }

    /// Cuts that a second half read alone from the first half's opening would get wrong: each
    /// reads on as one parser, and the result is one parser's.
    func testWhatTheSecondHalfOwesTheFirstMakesItReadOn() {
        let cases: [(String, String)] = [
            // A name bound at the top level after the opening, which the second half alone reads as the engine's.
            ("layout a {\n  columns 2\n}\nlet w = 5\n", "layout b {\n  height w\n}\n"),
            // A layout named in both halves.
            ("layout a {\n  columns 2\n}\n", "layout a {\n  columns 3\n}\n"),
            // A setting of the top level set after the opening and in the second half.
            ("section a {\n  items 3\n}\ncolumns 2\n", "columns 3\nsection b {\n  items 2\n}\n"),
            // A top-level section, then a layout.
            ("section a {\n  items 3\n}\n", "layout b {\n  columns 3\n}\n"),
            // A layout, then a top-level section.
            ("layout a {\n  columns 3\n}\n", "section b {\n  items 3\n}\n"),
            // Top-level sections named alike.
            ("section a {\n  items 3\n}\n", "section a {\n  items 2\n}\n"),
            // Top-level `attach` blocks named alike.
            ("section a {\n  items 3\n}\nattach badge {\n  size 10 x 10\n}\n", "attach badge {\n  size 20 x 20\n}\n"),
            // An error in the second half.
            ("layout a {\n  columns 2\n}\n", "layout b {\n  columns 2 +\n}\n"),
            // The opening is the whole first half: nothing to share.
            ("let gap = 3\n", "layout b {\n  columns gap\n}\n"),
        ]
        for (first, second) in cases {
            let source = SourceFile(name: "t.wfl", text: first + second)
            XCTAssertEqual(check(source, cut: first.utf8.count), .readOn, first + second)
        }
    }

    /// What the opening binds and sets (before the first `layout` or `section`) is the whole
    /// file's: the second half's reader starts from it, and uses and shadows its names, sets its
    /// settings again, attaches its names again, as one parser does; its `expect` is checked once.
    func testTheSecondHalfStartsFromTheOpening() {
        let opening = "let w = 4\nlet gap = 8\ncolumns 2\nexpect 1 == 1\nattach badge {\n  size 10 x 10\n}\n"
        let first = opening + "layout a {\n  columns gap\n  height w\n}\n"
        let second = "layout b {\n  let gap = 2\n  columns gap + w\n}\ncolumns 3\nattach badge {\n  size 20 x 20\n}\n"
        let source = SourceFile(name: "t.wfl", text: first + second)
        XCTAssertEqual(check(source, cut: first.utf8.count), .joined)
        let codes = Parser.parseInHalves(source, at: first.utf8.count).diagnostics.map(\.code)
        // The `expect` of the opening stands outside the layouts: one error, made at the end.
        XCTAssertEqual(codes, [.hidesEngineVariable, .misplacedStatement, .shadows, .setTwice, .attachTwice])
    }

    /// A clean cut: the second half's names, its own `let`s, functions and parameters, point past
    /// the first half's bindings once joined; the checks made at the end see both halves.
    func testAJoinedSecondHalfPointsPastTheFirstHalfsBindings() {
        let first = "layout a {\n  let gap = 2\n  let twice(a) = a + gap\n  columns twice(gap)\n  section {\n    items gap * 3\n    height w > 10 ? gap : -gap\n  }\n}\n"
        let second = "layout b {\n  let m = 3\n  let pick(a, b) = [a, b, m][a % 2]\n  columns pick(1, m) + m\n  section {\n    items !(m > 2) ? 1 : m\n    height pick(i, m)\n  }\n}\nexpect contentHeight == 1\n"
        let source = SourceFile(name: "t.wfl", text: first + second)
        XCTAssertEqual(check(source, cut: first.utf8.count), .joined)
        let tree = Parser.parseInHalves(source, at: first.utf8.count).tree
        XCTAssertEqual(tree.bindings.count, 7)
        // The top-level `expect` in a file with layouts: the check made at the end saw the layouts of the first half.
        XCTAssertEqual(Parser.parseInHalves(source, at: first.utf8.count).diagnostics.map(\.code), [.misplacedStatement])
        XCTAssertEqual(check(SourceFile(name: "t.wfl", text: "layout a {\n  columns 2 +\n}\n" + second), cut: first.utf8.count), .again)
    }

    /// A file past the threshold is cut by `parse` itself, a little past its middle, and read as one parser reads it.
    func testALargeFileIsReadInHalvesAsOne() {
        var layouts = ["let base = 10"]
        var size = 0
        while size < Parser.halvesThreshold + 1000 {
            let k = layouts.count
            layouts.append("layout l\(k) {\n  let extra = \(k % 7)\n  let grow(a) = a * extra + base\n  columns 2\n  section {\n    items extra + 1\n    height grow(i)\n  }\n}")
            size += layouts[k].utf8.count + 1
        }
        let source = SourceFile(name: "big.wfl", text: layouts.joined(separator: "\n") + "\n")
        guard let cut = Parser.halfway(source, share: 571), let later = Parser.halfway(source, share: 800) else { return XCTFail("no cut found") }
        XCTAssertEqual(source.bytes[cut - 2], UInt8(ascii: "}"))
        XCTAssertEqual(source.bytes[later - 2], UInt8(ascii: "}"))
        XCTAssertLessThan(abs(cut - source.bytes.count / 1000 * 571), 200)
        XCTAssertLessThan(abs(later - source.bytes.count / 1000 * 800), 200)
        // `base`, bound in the opening, is used in both halves.
        XCTAssertEqual(check(source, cut: cut), .joined)
        let parsed = Parser.parse(source)
        XCTAssertTrue(parsed.diagnostics.isEmpty)
        XCTAssertEqual(parsed.tree, whole(source).tree)
        XCTAssertNil(Parser.halfway(SourceFile(name: "small.wfl", text: "layout a {\n}\n")))
    }

    /// The first thread's share moves a quarter of the way to where the last parse would have
    /// had both threads finish together, within its bounds; a time that is not a positive number
    /// leaves it. Files learn it by size class.
    func testTheShareMovesTowardsEvenTimes() {
        // Equal speeds: half the file each; from 571, a quarter of the way there.
        XCTAssertEqual(Parser.nextShare(571, first: 600, in: 0.6, second: 400, in: 0.4), 553)
        // The first thread twice as fast: two thirds of the file for it.
        XCTAssertEqual(Parser.nextShare(667, first: 500, in: 0.25, second: 500, in: 0.5), 667)
        XCTAssertEqual(Parser.nextShare(500, first: 500, in: 0.25, second: 500, in: 0.5), 541)
        // Bounds: a second thread that seems to take forever, or no time at all.
        XCTAssertEqual(Parser.nextShare(850, first: 500, in: 0.001, second: 500, in: 100), 850)
        XCTAssertEqual(Parser.nextShare(300, first: 500, in: 100, second: 500, in: 0.001), 300)
        XCTAssertEqual(Parser.nextShare(600, first: 500, in: 0, second: 500, in: 0.5), 600)
        XCTAssertEqual(Parser.nextShare(600, first: 500, in: 0.5, second: 500, in: -1), 600)
        XCTAssertEqual(Parser.nextShare(600, first: 500, in: .nan, second: 500, in: 0.5), 600)
        // Size classes: 1 MB and 10 MB learn apart.
        XCTAssertEqual([0, 100_000, 199_999, 200_000, 1_000_000, 10_000_000, 64 << 20].map(Parser.sizeClass), [0, 0, 0, 1, 3, 6, 7])
    }
}
