import XCTest
@testable import WFL

/// The per-item rules as one kind (Layout/ResolvedLayout.swift, Engines/Updates.swift): rules by
/// slot, the update tapes reaching every kept slot, rules compared by what they compute, an
/// evaluation's results per layout, and compiling that changes nothing.
final class RuleTests: XCTestCase {
    /// A resolved layout of `text`, failing the test when it does not resolve.
    func resolved(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> ResolvedLayout {
        let (_, program, _) = Eval.run(text, file: file, line: line)
        switch try XCTUnwrap(program.resolve(layoutAt: 0), file: file, line: line) {
        case .success(let l): return l
        case .failure(let f): XCTFail("\(f.diagnostics.map(\.message))", file: file, line: line); throw f
        }
    }

    func isRecorded(_ r: ItemRule?) -> Bool {
        if case .recorded? = r?.kind { return true }
        return false
    }

    /// Every slot a staying item keeps is recorded for the table before, and every other slot
    /// is left alone: whatever slots there are, since the tapes go through the rule sets.
    /// Two sections between them set every slot (`height` and `size` exclude each other).
    func testTheTapesReachEverySlotThatIsKept() throws {
        var layout = try resolved("""
            section { items 3; span 1 + i % 2; size 10 + i x 20; alpha 0.5 + ox * 0; zoom 1; zIndex i; translate 1 x 2; rotate 3
                appear { alpha 0.5; zoom 0.5; offset 1 x 2; translate 1 x 2; rotate 3 }
                disappear { alpha 0.5; zoom 0.5; offset 1 x 2; translate 1 x 2; rotate 3 }
                attach badge { when i % 2 == 0; size 4 x 4; offset 1 x 1 } }
            section { items 2; height 40 + i }
            """)
        for k in layout.sections.indices { layout.sections[k].mapKeptRules { $0.recording(count: 3) } }
        var seen: [SectionRule] = []
        for sec in layout.sections {
            for e in sec.rules.entries {
                seen.append(e.slot)
                XCTAssertEqual(isRecorded(e.rule), e.slot.afterUpdate == .kept, "\(e.slot)")
            }
        }
        XCTAssertEqual(Set(seen.map(\.rawValue)), Set(SectionRule.allCases.map(\.rawValue)), "the fixture sets every slot")
        let view = try XCTUnwrap(layout.sections.first?.attached.first)
        XCTAssertEqual(Set(view.rules.entries.map(\.slot.rawValue)), Set(ViewRule.allCases.map(\.rawValue)), "the fixture sets every view slot")
        for e in view.rules.entries { XCTAssertEqual(isRecorded(e.rule), e.slot.afterUpdate == .kept, "\(e.slot)") }
    }

    /// A replayed rule answers for the item it is asked about, not for whatever the machine's
    /// `i` holds (the tapes once read `i` from the machine, relying on every engine to set it
    /// first).
    func testAReplayedRuleReadsTheItemItIsGiven() throws {
        let layout = try resolved("items 3\nheight [100, 50, 60]\n")
        let rule = try XCTUnwrap(layout.sections[0].rules[.length])
        let recording = rule.recording(count: 3)
        var m = Machine()
        for i in 0..<3 { _ = try recording.evaluate(&m, item: i) }
        // Delete item 0: new items 0 and 1 are old 1 and 2; new 2 is inserted.
        let replay = recording.replaying(SectionUpdate(countBefore: 3, deleted: [0], inserted: [2]))
        m.set(.i, 7)
        XCTAssertEqual(try replay.evaluate(&m, item: 0), 50)
        XCTAssertEqual(try replay.evaluate(&m, item: 1), 60)
        XCTAssertEqual(try replay.evaluate(&m, item: 2), 60, "an inserted item evaluates the rule: [100, 50, 60][2]")
    }

    /// A `when` that gives a list keeps, for a staying item, its answer after the list's
    /// cycling: item 2's `true` (from [true, false] at 2) moves with it to index 1.
    func testAWhenListIsCycledOnceAndKept() throws {
        let e = Eval.run("items 3\nheight 10\nattach b { when [true, false] }\nupdate { delete 0 }\n").0
        XCTAssertEqual(e.diagnostics.filter { $0.severity == .error }.count, 0)
        let before = try XCTUnwrap(e.layouts.first?.before), after = try XCTUnwrap(e.layouts.first?.after)
        XCTAssertEqual(before.elements.filter { $0.kind == .attached }.map(\.item), [0, 2])
        XCTAssertEqual(after.elements.filter { $0.kind == .attached }.map(\.item), [1])
    }

    /// Tables compare their kept rules by what the rules compute: two files whose attribute
    /// rules stand at the same places but differ (in a constant, or in a `let` they read) give
    /// different tables, though their values at (0, 0) agree; one file evaluated twice gives
    /// equal ones. (Compared by place alone, the first two were equal.)
    func testRulesCompareByWhatTheyCompute() throws {
        func table(_ text: String) throws -> AttributeTable { try XCTUnwrap(Eval.table(text)) }
        let a = "items 2\nheight 10\nalpha oy > 5 ? 0.5 : 1\n", b = "items 2\nheight 10\nalpha oy > 5 ? 0.7 : 1\n"
        XCTAssertEqual(try table(a).rules.alphas, try table(b).rules.alphas)
        XCTAssertNotEqual(try table(a), try table(b))
        XCTAssertEqual(try table(a), try table(a))
        let c = "let k = 0.5\nitems 2\nheight 10\nalpha oy > 5 ? k : 1\n", d = "let k = 0.7\nitems 2\nheight 10\nalpha oy > 5 ? k : 1\n"
        XCTAssertNotEqual(try table(c), try table(d))
        XCTAssertEqual(try table(c), try table(c))
        let f = "let f(v) = v > 1 ? f(v - 1) : v\nitems 2\nheight 10\nappear { alpha f(i) }\nupdate { insert 0 }\n"
        XCTAssertEqual(try table(f), try table(f), "a recursive function has one meaning")
    }

    /// The compiler's meaning of an expression: the same for the same computation wherever it
    /// stands, different when a constant, an operator or a variable differs.
    func testMeaningIgnoresPlaceButNotComputation() throws {
        let text = "let a = 2\nlet b = 2\nlet c = 3\nexpect a + 1 == 3\nexpect  b + 1 == 3\nexpect c + 1 == 3\nexpect a - 1 == 3\n"
        let (_, p, _) = Eval.run(text)
        let meanings = Program.allExpects(of: p.file).map { p.compiler.meaning($0.expectation.condition) }
        XCTAssertEqual(meanings.count, 4)
        XCTAssertEqual(meanings[0], meanings[1], "a and b are both 2, and the places differ")
        XCTAssertNotEqual(meanings[0], meanings[2], "c is 3")
        XCTAssertNotEqual(meanings[0], meanings[3], "'-' is not '+'")
    }

    /// Compiling changes nothing: the `let` slots are given when the program is built, so asking
    /// for a `let`'s value (an editor's hover), resolving a layout by its place, and evaluating
    /// an expression typed alone leave `letCount` as it was.
    func testQueriesLeaveTheLetSlotsAlone() throws {
        let text = "let h = 40 + i\nlet g = h * 2\nlet k = 3\nitems 4\nheight g\nexpect contentHeight > 0\n"
        let source = SourceFile(name: "t.wfl", text: text)
        let parsed = Parser.parse(source)
        let program = Program(tree: parsed.tree, source: source)
        XCTAssertEqual(program.compiler.letCount, 3)
        guard case .let(let decl) = parsed.tree.statements[1].kind else { return XCTFail("not a let") }
        XCTAssertNil(program.constantValue(ofBinding: decl.name.binding, named: "g", at: decl.name.span))
        XCTAssertEqual(program.compiler.letCount, 3)
        _ = program.resolve(layoutAt: 0)
        XCTAssertEqual(program.compiler.letCount, 3)
        let expect = try XCTUnwrap(Program.allExpects(of: program.file).first)
        _ = ExpectationChecker(program: program).value(of: expect.expectation.condition, table: nil)
        XCTAssertEqual(program.compiler.letCount, 3)
        XCTAssertEqual(program.evaluate().tables.first?.elements.count, 4)
        XCTAssertEqual(program.compiler.letCount, 3)
    }

    /// A query reports nothing into the program: an evaluation after it reports the layout's
    /// error once, as without it.
    func testAQueryLeavesWhatWasReported() throws {
        let program = Program(tree: Parser.parse(SourceFile(name: "t.wfl", text: "items -2\n")).tree, source: SourceFile(name: "t.wfl", text: "items -2\n"))
        let before = program.reported
        guard case .failure(let f)? = program.resolve(layoutAt: 0) else { return XCTFail("'items -2' resolves") }
        XCTAssertFalse(f.diagnostics.isEmpty)
        XCTAssertEqual(program.reported, before)
        XCTAssertEqual(program.evaluate().diagnostics.filter { $0.severity == .error }.count, 1)
    }

    /// An expectation knows which table it reads, as a field: those inside an `update` block
    /// read the table after it.
    func testAnExpectationKnowsTheTableItReads() throws {
        let text = "items 3\nheight 10\nexpect count(0, 0, 375, 812) == 3\nupdate { delete 0; expect count(0, 0, 375, 812) == 2 }\nexpect count(0, 0, 375, 812) == 3\n"
        let (e, program, _) = Eval.run(text)
        XCTAssertEqual(Program.allExpects(of: program.file).map(\.reads), [.beforeUpdate, .afterUpdate, .beforeUpdate])
        let layout = try XCTUnwrap(e.layouts.first)
        XCTAssertEqual(layout.table(.beforeUpdate), layout.before)
        XCTAssertEqual(layout.table(.afterUpdate).sectionStarts.first?.cellCount, 2)
        XCTAssertEqual(ExpectationChecker(program: program).check(e.layouts).map(\.passed), [true, true, true])
    }

    /// A layout without `update` blocks has its one table in both states and an empty batch.
    func testALayoutWithoutUpdatesHasOneTable() throws {
        let e = Eval.run("items 3\nheight 10\n").0
        let layout = try XCTUnwrap(e.layouts.first)
        XCTAssertEqual(layout.before, layout.after)
        XCTAssertTrue(layout.batch.isEmpty)
        XCTAssertEqual(EvaluatedLayout(layout.before), layout)
    }
}
