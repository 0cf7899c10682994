import XCTest
@testable import WFL

/// Issue 27: a file of 1,000,000 `section {}` lines (11 MB) took 2.7 GB, 2.3 KB of it each
/// section's resolved form, whose 14 item rules (most of them unset, each with its flat program
/// inline) were all stored in it. `wfl-bench inputmem` measures a file of sections; these sizes
/// keep the parts from growing back.
final class SectionMemoryTests: XCTestCase {
    func testAResolvedSectionIsSmall() {
        // 2,304 bytes before: 14 inline item rules of 160 bytes.
        XCTAssertLessThanOrEqual(MemoryLayout<ResolvedSection>.stride, 560)
        XCTAssertLessThanOrEqual(MemoryLayout<ItemRule>.stride, 80)
        XCTAssertLessThanOrEqual(MemoryLayout<RuleSet<SectionRule>>.stride, 8)
        XCTAssertLessThanOrEqual(MemoryLayout<RuleSet<ViewRule>>.stride, 8)
    }

    /// The rule sets behave as values: a copy keeps its rules when the original's change.
    func testRuleSetsAreValues() {
        let rule = ItemRule(kind: .constant(0.5), what: "the alpha", span: Span(0, 1), settingSpan: Span(0, 1))
        var a = RuleSet<SectionRule>()
        XCTAssertTrue(a.isEmpty)
        a[.alpha] = rule
        let copy = a
        a[.alpha] = nil
        a[.zoom] = rule
        XCTAssertNotNil(copy[.alpha])
        XCTAssertNil(copy[.zoom])
        XCTAssertNil(a[.alpha])
        XCTAssertFalse(a.isEmpty)
    }

    /// A block that holds nothing but settings keeps no room for what it does not hold, and one
    /// that does finds it again.
    func testBlockRecordsHoldWhatTheyHold() {
        let source = SourceFile(name: "t.wfl", text: "layout a {\n  section {\n    items 2\n    expect cw > 0\n  }\n  section {\n  }\n}\n")
        let p = Program(tree: Parser.parse(source).tree, source: source)
        XCTAssertEqual(p.file.layouts.count, 1)
        let layout = p.file.layouts[0]
        XCTAssertEqual(layout.sections.count, 2)
        XCTAssertEqual(layout.sectionsWithExpects.count, 1)
        XCTAssertEqual(layout.sections[0].expects.count, 1)
        XCTAssertTrue(layout.sections[1].expects.isEmpty)
        XCTAssertTrue(layout.sections[1].sections.isEmpty)
        XCTAssertEqual(p.evaluate().tables.first?.elements.count, 2)
    }
}
