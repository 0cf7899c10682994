import Foundation
import XCTest
@testable import WFL

/// Diagnostic codes: each is given by some input, and `docs/diagnostics.md` lists them as the
/// catalogue in the code says.
final class DiagnosticCodeTests: XCTestCase {
    /// Codes no input can reach: internal fallbacks for what an earlier stage already refuses
    /// (a compiled name the parser rejected; a flow section the resolver rejected).
    static let unreachable: Set<DiagnosticCode> = [.earlierError, .flowNeedsSize]
    /// Codes an input reaches only by touching about a gigabyte (a grid holding 2^30 cells): too
    /// slow for a fixture; GridTests reaches them through the structure that gives them.
    static let reachedElsewhere: Set<DiagnosticCode> = [.gridTooLarge]

    /// Every `.wfl` under Tests/Fixtures, evaluated, with its expectations checked: the codes seen.
    func fixtureCodes() throws -> [DiagnosticCode: String] {
        var seen: [DiagnosticCode: String] = [:]
        let fixtures = Golden.root.appendingPathComponent("Tests/Fixtures")
        let walker = FileManager.default.enumerator(atPath: fixtures.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".wfl") else { continue }
            let source = try Golden.source(fixtures.appendingPathComponent(path))
            let c = Pipeline.run(source)
            var ds = c.diagnostics
            ds += Pipeline.checkExpectations(c).compactMap(\.diagnostic)
            for d in ds where seen[d.code] == nil { seen[d.code] = path }
        }
        return seen
    }

    func testEveryCodeIsGivenBySomeInput() throws {
        let seen = try fixtureCodes()
        let missing = DiagnosticCode.allCases.filter { seen[$0] == nil && !Self.unreachable.contains($0) && !Self.reachedElsewhere.contains($0) }
        XCTAssertEqual(missing, [], "no fixture gives these codes")
    }

    func testCodesAreWarningsOrErrorsByTheirLetter() {
        for c in DiagnosticCode.allCases {
            XCTAssertTrue(c.rawValue.hasPrefix("E") || c.rawValue.hasPrefix("W"), c.rawValue)
            XCTAssertEqual(c.rawValue.count, 5, c.rawValue)
            XCTAssertFalse(c.summary.isEmpty, c.rawValue)
        }
        XCTAssertEqual(DiagnosticCode.unknownSetting.severity, .error)
        XCTAssertEqual(DiagnosticCode.setTwice.severity, .warning)
    }

    /// The catalogue page in docs/ is what the code generates.
    func testTheDocsListEveryCode() throws {
        let url = Golden.root.appendingPathComponent("docs/diagnostics.md")
        let generated = DiagnosticCode.catalogue()
        for c in DiagnosticCode.allCases { XCTAssertTrue(generated.contains("`\(c.rawValue)`"), c.rawValue) }
        Golden.check(generated, against: url, input: Golden.root.appendingPathComponent("Sources/WFL/Diagnostics/DiagnosticCode.swift"))
    }

    /// What a diagnostic is about is read from its code: the REPL's session numbers a line
    /// reference anew when it shows an entry alone.
    func testLineReferencesAreSpansNotDigits() throws {
        let source = SourceFile(name: "t.wfl", text: "items 2\nsection {\n  items 3\n")
        let d = try XCTUnwrap(Parser.parse(source).diagnostics.first { $0.code == .unclosed })
        XCTAssertEqual(d.message, "'}' expected to close '{' at line 2")
        guard case .line(let ref)? = d.text.pieces.first(where: { if case .line = $0 { return true } else { return false } }) else {
            return XCTFail("no line reference in \(d.text.pieces)")
        }
        XCTAssertEqual(source.text(ref.span), "{")
        XCTAssertEqual(ref.line, 2)
    }
}
