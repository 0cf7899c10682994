import Foundation
import XCTest
@testable import WFL

/// What diagnostics put on a terminal: escaped control characters, carets aligned by display
/// width, a bounded number of diagnostics, and a cost proportional to what is shown.
final class TerminalRenderingTests: XCTestCase {
    func testControlCharactersInAQuotedLineAreEscapedAndTheCaretsFollow() {
        // Clear the screen, set the window title, a lone CR: none of them reach the terminal.
        let text = "x \u{1B}[2J\u{1B}]0;t\u{07} \r colums 3\n"
        let source = SourceFile(name: "f.wfl", text: text)
        let start = Array(text.utf8).firstIndex(of: UInt8(ascii: "c"))!
        let d = Diagnostic.error(.unknownSetting, "unknown setting 'colums'", at: Span(start, start + 6))
        let out = DiagnosticRenderer().render(d, in: source)
        XCTAssertEqual(out, """
            f.wfl:1:16: error: unknown setting 'colums'
              1 | x \\u{1B}[2J\\u{1B}]0;t\\u{7} \\u{D} colums 3
                | \(String(repeating: " ", count: 2 + 6 + 3 + 6 + 4 + 5 + 1 + 5 + 1))^~~~~~

            """)
        XCTAssertFalse(out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control character but the line breaks")
    }

    func testAControlCharacterUnderTheCaretsIsMarkedWholeAndTabsStayTabs() {
        let source = SourceFile(name: "f.wfl", text: "\titems 1 \u{1B} 2\n")
        let d = Diagnostic.error(.unexpectedCharacter, "unexpected character U+001B", at: Span(9, 10))
        XCTAssertEqual(DiagnosticRenderer().render(d, in: source), """
            f.wfl:1:10: error: unexpected character U+001B
              1 | \titems 1 \\u{1B} 2
                | \t        ^~~~~~

            """)
    }

    func testControlCharactersInTheWordsAreEscaped() {
        let source = SourceFile(name: "f.wfl", text: "x\n")
        let d = Diagnostic.error(.invalidEscape, "unknown escape '\\\u{1B}' in a string", at: Span(0, 1), help: "not \u{9B}2J")
        let out = DiagnosticRenderer().render(d, in: source)
        XCTAssertTrue(out.contains("unknown escape '\\\\u{1B}' in a string"), out)
        XCTAssertTrue(out.contains("= help: not \\u{9B}2J"), out)
    }

    func testCaretsStandUnderWideAndCombiningCharactersByDisplayWidth() {
        // Columns in the header count scalars; the caret line counts terminal cells.
        let text = "let 名前 = \"e\u{301}😀\" zz\n"
        let source = SourceFile(name: "f.wfl", text: text)
        let bytes = Array(text.utf8)
        let z = bytes.firstIndex(of: UInt8(ascii: "z"))!
        let d = Diagnostic.error(.unexpectedToken, "e", at: Span(z, z + 2), notes: [Note("n", span: Span(4, 10))])
        XCTAssertEqual(DiagnosticRenderer().render(d, in: source), """
            f.wfl:1:16: error: e
              1 | let 名前 = "e\u{301}😀" zz
                | \(String(repeating: " ", count: 4 + 4 + 3 + 1 + 1 + 0 + 2 + 1 + 1))^~
            f.wfl:1:5: note: n
              1 | let 名前 = "e\u{301}😀" zz
                |     ^~~~

            """)
    }

    func testWidths() {
        XCTAssertEqual(TerminalText.width("a"), 1)
        XCTAssertEqual(TerminalText.width("é"), 1)
        XCTAssertEqual(TerminalText.width("\u{301}"), 0)
        XCTAssertEqual(TerminalText.width("\u{200D}"), 0)
        XCTAssertEqual(TerminalText.width("\u{FE0F}"), 0)
        XCTAssertEqual(TerminalText.width("名"), 2)
        XCTAssertEqual(TerminalText.width("한"), 2)
        XCTAssertEqual(TerminalText.width("Ａ"), 2)
        XCTAssertEqual(TerminalText.width("😀"), 2)
        XCTAssertEqual(TerminalText.width("🤖"), 2)
        XCTAssertEqual(TerminalText.width("\u{20000}"), 2)
        XCTAssertEqual(TerminalText.width("\u{FFFD}"), 1)
        XCTAssertEqual(TerminalText.escape("\u{1B}"), "\\u{1B}")
        XCTAssertEqual(TerminalText.escape("\u{0}"), "\\u{0}")
        XCTAssertEqual(TerminalText.escape("\u{202E}"), "\\u{202E}")
    }

    // MARK: - Many diagnostics

    func testAListShowsAtMostAHundredDiagnosticsThenCountsTheRest() {
        let source = SourceFile(name: "f.wfl", text: String(repeating: "x\n", count: 200))
        var ds = (0..<150).map { Diagnostic.error(.unknownName, "unknown name 'x'", at: Span(2 * $0, 2 * $0 + 1)) }
        ds += (150..<153).map { Diagnostic.warning(.setTwice, "w", at: Span(2 * $0, 2 * $0 + 1)) }
        let out = DiagnosticRenderer().render(ds, in: source)
        XCTAssertEqual(out.components(separatedBy: ": error: ").count - 1, 100)
        XCTAssertFalse(out.contains(": warning: "))
        XCTAssertTrue(out.hasSuffix("  100 | x\n      | ^\nf.wfl: 50 more errors and 3 more warnings, not shown\n"), String(out.suffix(200)))
        XCTAssertTrue(DiagnosticRenderer().render(Array(ds.prefix(101)), in: source).hasSuffix("| ^\nf.wfl: 1 more error, not shown\n"))
        XCTAssertFalse(DiagnosticRenderer().render(Array(ds.prefix(100)), in: source).contains("not shown"))
        // The Swift API keeps them all; its text is the list's.
        let spec = Spec(source: String(repeating: "colums 3\n", count: 150) + "items 1\n", name: "s.wfl")
        XCTAssertEqual(spec.diagnostics.count, 150)
        XCTAssertTrue(spec.diagnosticText.hasSuffix("s.wfl: 50 more errors, not shown\n"), String(spec.diagnosticText.suffix(100)))
    }

    /// Every command prints a file's diagnostics through the list: `run`, `fmt` and `test` stop
    /// at a hundred too.
    func testCommandsPrintAtMostAHundredDiagnostics() throws {
        let text = "items 1\n" + String(repeating: "colums 3\n", count: 250)
        for args in [["run", "-"], ["fmt", "-"], ["test", "-"]] {
            let r = try WFLCommand.run(args, input: Data(text.utf8))
            XCTAssertEqual(r.status, 65, "\(args)")
            XCTAssertEqual(r.stderr.components(separatedBy: ": error: ").count - 1, 100, "\(args)")
            XCTAssertTrue(r.stderr.contains("<stdin>: 150 more errors, not shown\n"), "\(args): \(r.stderr.suffix(300))")
        }
    }

    /// 20,000 statements on one line of 200 KB: each diagnostic used to decode its whole line
    /// (131 s in a release build). It counts; the time limit only catches a hang.
    func testTwentyThousandDiagnosticsOnOneLongLine() {
        // 20,000 under WFL_STRESS=1, 2,000 in the plain run: both far more than the 100 shown.
        let n = Stress.enabled ? 20_000 : 2_000
        let line = String(repeating: "colums 3; ", count: n)
        let source = SourceFile(name: "f.wfl", text: "items 1; " + line + "\n")
        let started = Date()
        let parsed = Pipeline.parse(source)
        XCTAssertEqual(parsed.diagnostics.count, n)
        let out = DiagnosticRenderer().render(parsed.diagnostics, in: source)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        XCTAssertEqual(out.components(separatedBy: ": error: ").count - 1, 100)
        XCTAssertEqual(out.split(separator: "\n").count, 100 * 4 + 1)
        XCTAssertTrue(out.hasSuffix("f.wfl: \(n - 100) more errors, not shown\n"))
        XCTAssertTrue(out.contains("f.wfl:1:1000: error: unknown setting 'colums'"), "columns still count from the line's start")
    }

    // MARK: - The window and the columns against their plain twins

    /// The plain way: the whole line decoded to scalars, the window cut from the array.
    static func plainRender(_ file: SourceFile, _ span: Span) -> String {
        let index = file.lineIndex(of: span.start)
        let lineStart = file.lineStart(index), lineEnd = file.lineBytes(index).endIndex
        var scalars: [(offset: Int, scalar: Unicode.Scalar)] = []
        var i = lineStart
        while i < lineEnd {
            let len = UTF8Check.sequenceLength(file.bytes, i, lineEnd)
            scalars.append((i, len == 0 ? "\u{FFFD}" : String(decoding: file.bytes[i..<(i + len)], as: UTF8.self).unicodeScalars.first!))
            i += Swift.max(1, len)
        }
        let first = scalars.firstIndex { $0.offset >= span.start } ?? scalars.count
        var from = 0, to = scalars.count
        if scalars.count > 160 {
            from = Swift.max(0, first - 60)
            to = Swift.min(scalars.count, from + 120)
        }
        var text = from > 0 ? "..." : "", lead = from > 0 ? "   " : ""
        var carets = 0
        for k in from..<to {
            let s = scalars[k].scalar
            let shown = TerminalText.needsEscape(s) ? TerminalText.escape(s) : String(s)
            let width = TerminalText.needsEscape(s) ? shown.count : s == "\t" ? 1 : TerminalText.width(s)
            text += shown
            if k < first { lead += s == "\t" ? "\t" : String(repeating: " ", count: width) }
            else if scalars[k].offset < span.end { carets += width }
        }
        if to < scalars.count { text += "..." }
        let p = file.position(of: span.start)
        let number = String(index + 1)
        return "f.wfl:\(p.line):\(p.column): error: e\n"
            + "  \(number) |" + (text.isEmpty ? "" : " " + text) + "\n"
            + "  \(String(repeating: " ", count: number.count)) | " + lead + "^" + String(repeating: "~", count: Swift.max(1, carets) - 1) + "\n"
    }

    func testTheWindowAndTheColumnsAreThoseOfThePlainWay() {
        var r = RobustnessTests.SplitMix64(seed: 17)
        let pieces: [[UInt8]] = ["a", "b", " ", "\t", "é", "名", "😀", "\u{301}", "\u{1B}", "\r", ";"].map { Array($0.utf8) }
            + [[0xFF], [0x80], [0xE6, 0x97], [0xC3], [0xF0, 0x9F, 0x98]]
        for _ in 0..<(Stress.enabled ? 400 : 50) {
            var bytes: [UInt8] = []
            for _ in 0..<r.pick([1, 2, 3]) {
                for _ in 0..<r.pick([0, 3, 50, 159, 160, 161, 200, 600]) { bytes += r.pick(pieces) }
                bytes.append(r.chance(20) ? 0x0D : 0x20)
                bytes.append(0x0A)
            }
            let file = SourceFile(name: "f.wfl", bytes: bytes)
            // Spans start where a scalar starts, as every token's does.
            var starts: [Int] = []
            var i = 0
            while i <= bytes.count {
                starts.append(i)
                if i == bytes.count { break }
                i += Swift.max(1, UTF8Check.sequenceLength(bytes, i, bytes.count))
            }
            var spans = (0..<20).map { _ -> Span in
                let s = r.pick(starts)
                return Span(s, Swift.min(bytes.count, s + r.below(12)))
            }
            spans.sort { $0.start < $1.start }
            let ds = spans.map { Diagnostic.error(.unexpectedToken, "e", at: $0) }
            let plain = spans.map { TerminalRenderingTests.plainRender(file, $0) }.joined()
            XCTAssertEqual(DiagnosticRenderer().render(ds, in: file), plain)
            var cursor = ColumnCursor(file)
            for s in spans + spans.reversed() {
                XCTAssertEqual(cursor.position(of: s.start), file.position(of: s.start), "\(bytes) \(s)")
            }
        }
    }
}
