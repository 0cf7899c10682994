import XCTest
@testable import WFL

final class RendererTests: XCTestCase {
    func testGutterWidensWithTheLineNumber() {
        let text = String(repeating: "\n", count: 11) + "  colums 3\n"
        let source = SourceFile(name: "f.wfl", text: text)
        let d = Diagnostic.error(.unknownSetting, "unknown setting 'colums'", at: Span(13, 19), help: "did you mean 'columns'?")
        XCTAssertEqual(DiagnosticRenderer().render(d, in: source), """
            f.wfl:12:3: error: unknown setting 'colums'
              12 |   colums 3
                 |   ^~~~~~
              = help: did you mean 'columns'?

            """)
    }

    func testSpanOverSeveralLinesMarksItsFirstLineAndNotesHaveTheirOwnPlace() {
        let source = SourceFile(name: "f.wfl", text: "let a = [1,\n  2\n")
        let d = Diagnostic.error(.unexpectedToken, "something", at: Span(8, 15), notes: [Note("here", span: Span(8, 9)), Note("plain")])
        XCTAssertEqual(DiagnosticRenderer().render(d, in: source), """
            f.wfl:1:9: error: something
              1 | let a = [1,
                |         ^~~
            f.wfl:1:9: note: here
              1 | let a = [1,
                |         ^
              = note: plain

            """)
    }

    func testColourOnlyWhenAsked() {
        let source = SourceFile(name: "f.wfl", text: "x\n")
        let d = Diagnostic.warning(.setTwice, "w", at: Span(0, 1))
        XCTAssertEqual(DiagnosticRenderer(color: true).render(d, in: source), """
            \u{1B}[1mf.wfl:1:1:\u{1B}[0m \u{1B}[1;33mwarning\u{1B}[0m: \u{1B}[1mw\u{1B}[0m
              \u{1B}[1;34m1 |\u{1B}[0m x
              \u{1B}[1;34m  |\u{1B}[0m \u{1B}[1;33m^\u{1B}[0m

            """)
        XCTAssertFalse(DiagnosticRenderer().render(d, in: source).contains("\u{1B}"))
    }

    func testColumnsCountScalarsAndCRLFIsOneNewline() {
        let source = SourceFile(name: "f.wfl", text: "a\r\n\"héé\" colums\r\n")
        let d = Diagnostic.error(.unexpectedToken, "e", at: Span(11, 17))
        XCTAssertEqual(DiagnosticRenderer().render(d, in: source), """
            f.wfl:2:7: error: e
              2 | "héé" colums
                |       ^~~~~~

            """)
    }

    func testALongLineIsShownAsAWindowAroundTheSpan() {
        let text = "items 1 " + String(repeating: " ", count: 1000) + "colums 3 " + String(repeating: "x", count: 500) + "\n"
        let source = SourceFile(name: "f.wfl", text: text)
        let d = Diagnostic.error(.unknownSetting, "unknown setting 'colums'", at: Span(1008, 1014))
        XCTAssertEqual(DiagnosticRenderer().render(d, in: source), """
            f.wfl:1:1009: error: unknown setting 'colums'
              1 | ...\(String(repeating: " ", count: 60))colums 3 \(String(repeating: "x", count: 51))...
                |    \(String(repeating: " ", count: 60))^~~~~~

            """)
    }
}
