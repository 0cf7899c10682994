import Foundation
import XCTest
@testable import WFL

/// Every sample: golden attribute tables (table and json), and every `expect` holds.
final class SampleLayoutTests: XCTestCase {
    let fixtures = Golden.root.appendingPathComponent("Tests/Fixtures/samples")

    func testSampleTables() throws {
        let samples = Golden.inputs("samples")
        XCTAssertGreaterThanOrEqual(samples.count, 6)
        for url in samples {
            let source = try Golden.source(url)
            let stem = url.deletingPathExtension().lastPathComponent
            let parsed = Parser.parse(source)
            XCTAssertFalse(parsed.diagnostics.hasErrors, stem)
            let evaluation = Program(tree: parsed.tree, source: source).evaluate()
            XCTAssertEqual(DiagnosticRenderer().render(evaluation.diagnostics, in: source), "", stem)
            XCTAssertFalse(evaluation.tables.isEmpty, stem)
            // What `wfl run` prints: the tables at offset (0, 0) (pinned headers, zoomFirst).
            let tables = evaluation.tables.map { $0.at(.zero) }
            Golden.check(TableFormat.format(tables), against: fixtures.appendingPathComponent("\(stem).table"), input: url)
            Golden.check(JSONFormat.format(tables), against: fixtures.appendingPathComponent("\(stem).json"), input: url)
        }
    }

    /// Evaluates each sample's `expect` lines against its table: the hand-computed numbers and the
    /// engine must agree.
    func testSampleExpectationsHold() throws {
        var checked = 0
        for url in Golden.inputs("samples") {
            let source = try Golden.source(url)
            let stem = url.deletingPathExtension().lastPathComponent
            let compilation = Pipeline.run(source)
            XCTAssertFalse(compilation.hasErrors, stem)
            for r in Pipeline.checkExpectations(compilation) {
                checked += 1
                let line = source.position(of: r.span.start).line
                XCTAssertNil(r.diagnostic.map { DiagnosticRenderer().render($0, in: source) }, "\(stem):\(line)")
                XCTAssertEqual(r.passed, true, "\(stem):\(line): \(r.expression)")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }

    /// A wrong expectation is caught (so the check above can fail).
    func testAWrongExpectationFails() throws {
        let (e, program, _) = Eval.run("items 1\nheight 10\nexpect contentHeight == 11\nexpect frame(0, 0) == [0, 0, 182.5, 10]\nexpect frame(0, 3)[0] == 1")
        let results = ExpectationChecker(program: program).check(layout: "t", table: try XCTUnwrap(e.tables.first))
        XCTAssertEqual(results.map(\.verdict), [.failed, .passed, .error])
        XCTAssertTrue(results[2].diagnostic?.message.contains("no item 3") ?? false)
    }
}
