import XCTest
@testable import WFL

/// Helpers shared by the evaluation tests.
enum Eval {
    /// Parses `text` (failing the test on parse errors) and evaluates it.
    static func run(_ text: String, name: String = "t.wfl", options: PipelineOptions = .standard,
                    file: StaticString = #filePath, line: UInt = #line) -> (Evaluation, Program, SourceFile) {
        let source = SourceFile(name: name, text: text)
        let parsed = Parser.parse(source, options: options)
        XCTAssertFalse(parsed.diagnostics.hasErrors, "parse errors: \(DiagnosticRenderer().render(parsed.diagnostics, in: source))",
                       file: file, line: line)
        let program = Program(tree: parsed.tree, source: source, options: options)
        return (program.evaluate(), program, source)
    }

    /// The tables of `text`, failing the test when it has errors.
    static func tables(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [AttributeTable] {
        let (e, _, source) = run(text, file: file, line: line)
        XCTAssertFalse(e.diagnostics.hasErrors, DiagnosticRenderer().render(e.diagnostics, in: source), file: file, line: line)
        return e.tables
    }

    /// The first layout's table.
    static func table(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> AttributeTable? {
        tables(text, file: file, line: line).first
    }

    /// The rendered errors of `text` (empty when it evaluates).
    static func errors(_ text: String, options: PipelineOptions = .standard, file: StaticString = #filePath, line: UInt = #line) -> String {
        let (e, _, source) = run(text, options: options, file: file, line: line)
        return DiagnosticRenderer().render(e.diagnostics.filter { $0.severity == .error }, in: source)
    }

    /// Frames of the cells, as [x, y, w, h].
    static func cells(_ t: AttributeTable) -> [[Double]] {
        t.elements.filter { $0.kind == .cell }.map { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
    }

    static func rect(_ e: Element) -> [Double] { [e.frame.x, e.frame.y, e.frame.width, e.frame.height] }
}
