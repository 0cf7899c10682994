import Foundation
import XCTest
@testable import WFL

/// Golden tokens and trees for every sample, and golden diagnostics for every mistake in
/// `Tests/Fixtures/diagnostics`.
final class FrontEndGoldenTests: XCTestCase {
    let fixtures = Golden.root.appendingPathComponent("Tests/Fixtures")

    func testSampleTokensAndTrees() throws {
        let samples = Golden.inputs("samples")
        XCTAssertGreaterThanOrEqual(samples.count, 6, "the samples are missing")
        for url in samples {
            let source = try Golden.source(url)
            let stem = url.deletingPathExtension().lastPathComponent
            let lexed = Lexer.tokenize(source)
            XCTAssertTrue(lexed.errors.isEmpty, "\(stem): the sample does not lex cleanly")
            Golden.check(TokenPrinter.print(lexed, source: source),
                         against: fixtures.appendingPathComponent("samples/\(stem).tokens"), input: url)
            let parsed = Parser.parse(source)
            XCTAssertEqual(DiagnosticRenderer().render(parsed.diagnostics, in: source), "", "\(stem): the sample has diagnostics")
            Golden.check(ASTPrinter.print(parsed.tree, source: source),
                         against: fixtures.appendingPathComponent("samples/\(stem).ast"), input: url)
        }
    }

    /// Each file holds one mistake; its `.expected` is the whole rendered text, which must hold
    /// exactly one error (warnings aside) unless the file's name ends in `-multi`.
    func testDiagnostics() throws {
        let inputs = Golden.inputs("Tests/Fixtures/diagnostics")
        XCTAssertGreaterThanOrEqual(inputs.count, 25)
        for url in inputs {
            let source = try Golden.source(url)
            let parsed = Parser.parse(source)
            let stem = url.deletingPathExtension().lastPathComponent
            let errors = parsed.diagnostics.filter { $0.severity == .error }.count
            if stem.hasPrefix("warning-") {
                XCTAssertEqual(errors, 0, "\(stem): a warning fixture gave errors")
                XCTAssertFalse(parsed.diagnostics.isEmpty, "\(stem): no warning")
            } else if !stem.hasSuffix("-multi") {
                XCTAssertEqual(errors, 1, "\(stem): one mistake should give one error, not \(errors)")
            }
            Golden.check(DiagnosticRenderer().render(parsed.diagnostics, in: source),
                         against: url.deletingPathExtension().appendingPathExtension("expected"), input: url)
        }
    }
}
