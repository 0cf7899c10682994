import Foundation
import XCTest
@testable import WFL

/// Golden diagnostics for evaluation errors: each file in `Tests/Fixtures/evaluation` parses
/// cleanly and fails to evaluate with exactly one error (files named `*-multi` with several, in
/// the order they are written).
final class EvaluationDiagnosticsTests: XCTestCase {
    func testEvaluationDiagnostics() throws {
        let inputs = Golden.inputs("Tests/Fixtures/evaluation")
        XCTAssertGreaterThanOrEqual(inputs.count, 15)
        for url in inputs {
            let source = try Golden.source(url)
            let stem = url.deletingPathExtension().lastPathComponent
            let parsed = Parser.parse(source)
            XCTAssertFalse(parsed.diagnostics.hasErrors, "\(stem): the fixture should parse cleanly")
            let evaluation = Program(tree: parsed.tree, source: source).evaluate()
            let errors = evaluation.diagnostics.filter { $0.severity == .error }.count
            if stem.hasSuffix("-multi") {
                XCTAssertGreaterThan(errors, 1, "\(stem): a '-multi' fixture should give several errors")
            } else {
                XCTAssertEqual(errors, 1, "\(stem): one mistake should give one error, not \(errors)")
            }
            // In source order, as the parser's are.
            let starts = evaluation.diagnostics.map(\.span.start)
            XCTAssertEqual(starts, starts.sorted(), "\(stem): the diagnostics are not in source order")
            XCTAssertTrue(evaluation.tables.isEmpty, stem)
            Golden.check(DiagnosticRenderer().render(parsed.diagnostics + evaluation.diagnostics, in: source),
                         against: url.deletingPathExtension().appendingPathExtension("expected"), input: url)
        }
    }
}
