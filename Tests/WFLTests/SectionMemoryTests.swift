import XCTest
@testable import WFL

/// Issue 27: a file of 1,000,000 `section {}` lines (11 MB) took 2.7 GB, 2.3 KB of it each
/// section's resolved form, whose 14 item rules (most of them unset, each with its flat program
/// inline) were all stored in it. `wfl-bench inputmem` measures a file of sections; these sizes
/// keep the parts from growing back.
final class SectionMemoryTests: XCTestCase {
    func testAResolvedSectionIsSmall() {
        // 2,304 bytes before: 14 inline item rules of 160 bytes.
        // 520 after the rule set; 160 once the rare settings moved into a shared box.
        XCTAssertLessThanOrEqual(MemoryLayout<ResolvedSection>.stride, 160)
        // 128 bytes before its positions were 32 bits.
        XCTAssertLessThanOrEqual(MemoryLayout<AttributeTable.SectionIndex>.stride, 56)
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

    /// Plain sections share the default box of rare settings and the default size rules; a
    /// section that sets one keeps its own box, and sections with the same settings share one.
    func testPlainSectionsShareTheirDefaults() {
        let source = SourceFile(name: "t.wfl", text: "rowSpacing 4\nsection {}\nsection {}\nsection { pinFooters true\nfooter 5 }\nsection {}\n")
        let p = Program(tree: Parser.parse(source).tree, source: source)
        guard case .success(let layout) = p.resolve(nil, name: "Layout") else { return XCTFail("it resolves") }
        let s = layout.sections
        XCTAssertEqual(s.count, 4)
        XCTAssertEqual(s[0].rules, RuleSet<SectionRule>.defaultSize)
        XCTAssertNotNil(s[0].rowSpacingPlace)
        XCTAssertEqual(s[0].rowSpacingPlace, s[1].rowSpacingPlace)
        XCTAssertTrue(s[0].sharesRareSettings(with: s[1]))
        XCTAssertTrue(s[2].pinFooters)
        XCTAssertFalse(s[0].pinFooters)
        XCTAssertFalse(s[2].sharesRareSettings(with: s[1]))
        // A write to a shared box copies it: the others keep their settings.
        var copy = s[1]
        copy.pinFooters = true
        XCTAssertFalse(s[0].pinFooters)
        XCTAssertFalse(copy.sharesRareSettings(with: s[0]))
    }
}
