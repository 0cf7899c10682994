import XCTest
@testable import WFL

/// `update` blocks and the table after them (docs/language.md, "Batch updates"): frames worked
/// by hand, values carried by staying items, `expect`s inside `update`, and the table after
/// checked against the table of a file that writes the carried values out.
final class UpdateTests: XCTestCase {
    /// The evaluation of `text`, failing the test on errors.
    func evaluate(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Evaluation {
        let (e, _, source) = Eval.run(text, file: file, line: line)
        XCTAssertFalse(e.diagnostics.hasErrors, DiagnosticRenderer().render(e.diagnostics, in: source), file: file, line: line)
        return e
    }

    /// 2 columns of 182.5 ((375 - 10) / 2), heights 100, 50, 60, 200 by the shortest lane:
    /// item 0 lane 0 at y 0 (lane 0 next 110), item 1 lane 1 at 0 (next 60), item 2 lane 1 at 60
    /// (next 130), item 3 lane 0 at 110 (next 320). Deleting item 3, the tallest of lane 0,
    /// leaves lane 1's items 1 and 2 where they were (and item 0 too): 3 stay, 1 disappears; the
    /// content ends at max(100, 120) = 120.
    func testWaterfallDeleteKeepsTheOtherLane() throws {
        let e = evaluate("columns 2\nitems 4\nheight [100, 50, 60, 200]\nupdate { delete 3 }\n")
        let before = try XCTUnwrap(e.tables.first), after = try XCTUnwrap(e.layouts.first?.after)
        XCTAssertEqual(Eval.cells(before), [[0, 0, 182.5, 100], [192.5, 0, 182.5, 50], [192.5, 60, 182.5, 60], [0, 110, 182.5, 200]])
        XCTAssertEqual(Eval.cells(after), [[0, 0, 182.5, 100], [192.5, 0, 182.5, 50], [192.5, 60, 182.5, 60]])
        XCTAssertEqual(after.contentHeight, 120)
        XCTAssertEqual(e.layouts.first?.batch, BatchUpdate(sections: [SectionUpdate(countBefore: 4, deleted: [3])]))
        XCTAssertEqual(cellChanges(before: before, after: after, update: e.layouts[0].batch), CellChangeCount(stay: 3, disappear: 1))
    }

    /// Deleting item 0 instead: the staying items keep their heights (50, 60, 200), not the
    /// list's values at their new indices (100, 50, 60). After: old 1 (50) lane 0 at 0 (next
    /// 60), old 2 (60) lane 1 at 0 (next 70), old 3 (200) lane 0 at 60.
    func testStayingItemsKeepTheirHeights() throws {
        let e = evaluate("columns 2\nitems 4\nheight [100, 50, 60, 200]\nupdate { delete 0 }\n")
        XCTAssertEqual(Eval.cells(try XCTUnwrap(e.layouts.first?.after)), [[0, 0, 182.5, 50], [192.5, 0, 182.5, 60], [0, 60, 182.5, 200]])
    }

    /// A height that reads the lane is the cell's data too: `col == 0 ? 100 : 50` gives item 0
    /// (lane 0) 100, item 1 (lane 1) 50 and item 2 (lane 1, 60 < 110) 50. After deleting item 0,
    /// old item 1 lands in lane 0 but keeps its 50, and old item 2 goes to lane 1 with 50.
    func testALaneRuleKeepsItsValueInAnotherLane() throws {
        let e = evaluate("columns 2\nitems 3\nheight col == 0 ? 100 : 50\nupdate { delete 0 }\n")
        XCTAssertEqual(Eval.cells(try XCTUnwrap(e.tables.first)).map { $0[3] }, [100, 50, 50])
        XCTAssertEqual(Eval.cells(try XCTUnwrap(e.layouts.first?.after)), [[0, 0, 182.5, 50], [192.5, 0, 182.5, 50]])
    }

    /// An attached view's `when` that reads the lane is kept too: before, items 1 and 2 are in
    /// lane 1 (heights 100, 50, 50: item 2 goes to lane 1, 60 < 110) and have views; after
    /// deleting item 0, old item 1 lands in lane 0 and keeps its view, and old item 2 has one in
    /// lane 1.
    func testAViewsWhenKeepsItsLane() throws {
        let e = evaluate("columns 2\nitems 3\nheight [100, 50, 50]\nattach b { when col == 1 }\nupdate { delete 0 }\n")
        XCTAssertEqual(try XCTUnwrap(e.tables.first).elements.filter { $0.attachedIndex != nil }.map(\.item), [1, 2])
        let after = try XCTUnwrap(e.layouts.first?.after)
        XCTAssertEqual(Eval.cells(after).map { $0[0] }, [0, 192.5])
        XCTAssertEqual(after.elements.filter { $0.attachedIndex != nil }.map(\.item), [0, 1])
    }

    /// A flow line of 375 with spacing 10: widths 150, 100, 100 fit one line (370). Inserting at
    /// 0 gives 4 items: the new item 0 evaluates `i == 0` (150); old item 0, now 1, keeps 150;
    /// 150 + 10 + 150 = 310, and + 10 + 100 = 420 > 375, so old item 1 (now 2) is pushed onto
    /// the next line, at y = 50 + 10 = 60, with old item 2 after it at x = 100 + 10 = 110.
    func testFlowInsertPushesAnItemOntoTheNextLine() throws {
        let e = evaluate("style flow\nitems 3\nsize (i == 0 ? 150 : 100) x 50\nupdate { insert 0 }\n")
        let before = try XCTUnwrap(e.tables.first), after = try XCTUnwrap(e.layouts.first?.after)
        XCTAssertEqual(Eval.cells(before).map { $0[1] }, [0, 0, 0])
        let cells = Eval.cells(after)
        XCTAssertEqual(cells.map { $0[2] }, [150, 150, 100, 100])
        XCTAssertEqual(cells.map { $0[1] }, [0, 0, 60, 60])
        XCTAssertEqual(cells[2], [0, 60, 100, 50])
        XCTAssertEqual(cells[3], [110, 60, 100, 50])
        XCTAssertEqual(cellChanges(before: before, after: after, update: e.layouts[0].batch), CellChangeCount(stay: 0, move: 3, appear: 1))
    }

    /// `random` keyed on the index: after deleting item 0 and inserting at 4, each staying item
    /// has the height it had before at its old index, and the inserted item 4 the height item 4
    /// had before (the same seed, section and index draw the same value).
    func testRandomHeightsAreCarriedOver() throws {
        let e = evaluate("columns 2\nitems 5\nseed 7\nheight random(50, 150)\nupdate {\n  delete 0\n  insert 4\n}\n")
        let before = Eval.cells(try XCTUnwrap(e.tables.first)).map { $0[3] }
        let after = Eval.cells(try XCTUnwrap(e.layouts.first?.after)).map { $0[3] }
        XCTAssertEqual(Array(after[0..<4]), Array(before[1..<5]))
        XCTAssertEqual(after[4], before[4])
        // The heights differ, so the test could tell them apart.
        XCTAssertNotEqual(Array(before[0..<4]), Array(before[1..<5]))
    }

    /// An attached view's `when` is the cell's data: old item 0 keeps its view at index 1, and
    /// the item inserted at 0 evaluates `i == 0` and gets one. `alpha` is evaluated afresh: the
    /// new item 0 is at 0.5, old item 0 (now 1) at 1.
    func testAttachedViewsKeepWhenAndAlphaIsAfresh() throws {
        let e = evaluate("items 3\nalpha i == 0 ? 0.5 : 1\nattach b { when i == 0; size 10 x 10 }\nupdate { insert 0 }\n")
        let after = try XCTUnwrap(e.layouts.first?.after).at(.zero)
        let views = after.elements.filter { $0.attachedIndex != nil }
        XCTAssertEqual(views.map(\.item), [0, 1])
        let cells = after.elements.indices.filter { after.elements[$0].kind == .cell }
        XCTAssertEqual(cells.map { after.rules.alphas.isEmpty ? 1 : after.rules.alphas[$0] }, [0.5, 1, 1, 1])
    }

    /// `expect` inside `update` reads the table after; the others the table before.
    func testExpectInsideUpdateReadsTheTableAfter() {
        let spec = Spec(source: """
            columns 2
            items 4
            height [100, 50, 60, 200]
            expect count(0, 0, 375, 812) == 4
            update {
              delete 3
              expect count(0, 0, 375, 812) == 3
              expect contentHeight == 120
              expect frame(0, 2, 0, 50) == [192.5, 60, 182.5, 60]
            }
            expect contentHeight == 310
            """, name: "t.wfl")
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        let outcomes = spec.checkExpectations()
        XCTAssertEqual(outcomes.count, 5)
        XCTAssertEqual(spec.failedExpectations.count, 0, spec.expectationReport)
    }

    /// `wfl run --after` in table, json and csv, and at an offset (pinned headers), pinned in
    /// Tests/Fixtures/after/; without `--after` the same file prints its tables before.
    func testRunAfterGoldens() throws {
        let inputs = Golden.inputs("Tests/Fixtures/after")
        XCTAssertFalse(inputs.isEmpty)
        for url in inputs {
            let stem = url.deletingPathExtension()
            for (args, ext) in [(["--format", "table"], "table"), (["--format", "json"], "json"), (["--format", "csv"], "csv"),
                                (["--offset", "0,200"], "@0,200.table")] {
                let r = try WFLCommand.run(["run", url.path, "--after"] + args)
                XCTAssertEqual(r.status, 0, r.stderr)
                let expected = ext.hasPrefix("@") ? URL(fileURLWithPath: stem.path + ext) : stem.appendingPathExtension(ext)
                Golden.check(r.stdout, against: expected, input: url)
            }
            let before = try WFLCommand.run(["run", url.path])
            let after = try WFLCommand.run(["run", url.path, "--after"])
            XCTAssertNotEqual(before.stdout, after.stdout)
        }
    }

    /// `zoomFirst` does nothing in a table whose section 0 has no items: deleting both items of
    /// a carousel leaves no zoom in the table after, and its frames at an offset are its frames.
    func testZoomFirstWithoutItemsAfterTheUpdate() throws {
        let e = evaluate("style flow\ndirection horizontal\nzoomFirst 200 x 200\nsize 100 x 100\nsection {\n  items 2\n  update { delete 0 1 }\n}\nsection { items 3 }\n")
        XCTAssertNotNil(e.tables.first?.scroll.zoom)
        let after = try XCTUnwrap(e.layouts.first?.after)
        XCTAssertNil(after.scroll.zoom)
        XCTAssertEqual(after.at(Offset(x: 60, y: 0)).elements, after.elements)
    }

    /// `update`, `insert` and `delete` are not reserved; a statement's words elsewhere.
    func testWordsAreNotReserved() throws {
        let e = evaluate("let update = 3\nlet insert = 1\nlet delete = 0\nitems update\nupdate {\n  delete delete\n  insert insert n\n}\n")
        XCTAssertEqual(e.layouts.first?.batch.sections.first, SectionUpdate(countBefore: 3, deleted: [0], inserted: [1, 3]))
    }

    /// The tree: an `update` block holds `delete` and `insert` statements, each with its
    /// indices, and `expect`s.
    func testTree() {
        let source = SourceFile(name: "t.wfl", text: "items 3\nupdate {\n  delete 2 n - 3\n  insert 0\n  expect true\n}\n")
        let parsed = Parser.parse(source)
        XCTAssertEqual(parsed.diagnostics.count, 0)
        XCTAssertEqual(ASTPrinter.print(parsed.tree, source: source), """
            file [1:1-7:1]
              setting items [1:1-1:8]
                number 3 [1:7-1:8]
              update [2:1-6:2]
                delete [3:3-3:17]
                  number 2 [3:10-3:11]
                  binary - [3:12-3:17]
                    name n [3:12-3:13]
                    number 3 [3:16-3:17]
                insert [4:3-4:11]
                  number 0 [4:10-4:11]
                expect [5:3-5:14]
                  boolean true [5:10-5:14]

            """)
    }

    /// `update` opens a block only before a `{`; elsewhere the words are names, and an `update`
    /// block nests in nothing but a section, a layout or the file.
    func testWordsInTheirPositions() {
        XCTAssertEqual(Eval.errors("let update = 2\nitems update * 2\nlet insert = 1\nheight insert + 40\n"), "")
        let nested = Parser.parse(SourceFile(name: "t.wfl", text: "items 2\nattach b {\n  update { delete 0 }\n}\n")).diagnostics
        XCTAssertEqual(nested.first?.code, .misplacedStatement)
        XCTAssertEqual(nested.first?.message.description, "'update' cannot stand inside an 'attach' block")
        let twice = Parser.parse(SourceFile(name: "t.wfl", text: "items 2\nupdate {\n  update { delete 0 }\n}\n")).diagnostics
        XCTAssertEqual(twice.first?.code, .misplacedStatement)
        let minus = Parser.parse(SourceFile(name: "t.wfl", text: "items 4\nupdate {\n  delete 3 -1\n}\n")).diagnostics
        XCTAssertEqual(minus.map(\.code), [.spacedMinus])
    }

    /// The REPL: an entry with an `update` block says what it does to the cells. 30 squares in
    /// 2 columns; deleting item 0 and inserting at 5 moves old items 1-5 to 0-4 (each to the
    /// other lane), leaves items 6-29 where they were, and adds one.
    func testReplCountsTheCells() {
        let session = Session()
        _ = session.enter("items 30")
        let reply = session.enter("update {\n  delete 0\n  insert 5\n  expect frame(0, 5)[1] == 192.5 * 2\n}")
        XCTAssertFalse(reply.failed, reply.diagnostics)
        XCTAssertEqual(reply.output, "1 section, 30 items, content 375 x 2877.5; nothing moved\nupdate: 24 cells stay, 5 move, 1 appears, 1 disappears\nexpectation holds\n")
        XCTAssertEqual(session.afterTables.first?.sectionStarts.first?.cellCount, 30)
        XCTAssertEqual(session.updates.first?.sections.first, SectionUpdate(countBefore: 30, deleted: [0], inserted: [5]))
    }

    /// Deletes and inserts over several statements add up and are sorted; indices are
    /// expressions with n the count before.
    func testChangesAddUp() {
        let e = evaluate("items 6\nupdate {\n  delete 5 n - 4\n  insert 0\n  delete 0\n  insert n - 3 1\n}\n")
        XCTAssertEqual(e.layouts.first?.batch.sections.first, SectionUpdate(countBefore: 6, deleted: [0, 2, 5], inserted: [0, 1, 3]))
        XCTAssertEqual(e.layouts.first?.after.sectionStarts.first?.cellCount, 6)
    }

    /// A layout without `update` has its one table twice, and an empty batch.
    func testWithoutUpdateTheTableAfterIsTheTable() {
        let e = evaluate("layout a {\n  items 3\n}\nlayout b {\n  section {\n    items 2\n    update { delete 0 }\n  }\n  section { items 1 }\n}\n")
        XCTAssertEqual(e.tables.count, 2)
        XCTAssertEqual(e.layouts[0].after, e.tables[0])
        XCTAssertTrue(e.layouts[0].batch.isEmpty)
        XCTAssertEqual(e.layouts[1].after.sectionStarts.map(\.cellCount), [1, 1])
        XCTAssertEqual(e.layouts[1].batch.sections, [SectionUpdate(countBefore: 2, deleted: [0]), SectionUpdate(countBefore: 1)])
    }

    /// The table after equals the table of a file that writes out the values the items carry:
    /// for each staying item its value at its old index, for each inserted item the list's
    /// value at its new index. Over generated layouts of every engine, both directions, right
    /// to left, pinned headers, compared at rest and at scroll offsets.
    func testTheTableAfterIsTheTableOfTheCarriedValues() {
        var g = SeededRandom.forTest("UpdateTests.testTheTableAfterIsTheTableOfTheCarriedValues")
        let seed = g.label
        // 150 rounds under WFL_STRESS=1, 60 in the plain run.
        for round in 0..<(Stress.enabled ? 150 : 60) {
            let vertical = Bool.random(using: &g)
            let styles: [String] = vertical ? ["waterfall", "flow", "shelf"] : ["waterfall", "flow"]
            var layout = "direction \(vertical ? "vertical" : "horizontal")\n"
            if Bool.random(using: &g) { layout += "layoutDirection rightToLeft\n" }
            var updated = layout, written = layout
            for s in 0..<Int.random(in: 1...3, using: &g) {
                let style = styles.randomElement(using: &g)!
                let n = Int.random(in: 0...6, using: &g)
                let lengths = (0..<5).map { _ in Double(Int.random(in: 10...90, using: &g)) }
                let widths = (0..<5).map { _ in Double(Int.random(in: 20...120, using: &g)) }
                let deleted = (0..<n).filter { _ in Int.random(in: 0..<3, using: &g) == 0 }
                let after = n - deleted.count + Int.random(in: 0...3, using: &g)
                let inserted = (0..<after).shuffled(using: &g).prefix(after - (n - deleted.count)).sorted()
                let u = SectionUpdate(countBefore: n, deleted: deleted, inserted: Array(inserted))
                // The value each item has after the update: carried, or the list's at its index.
                let carried = u.indicesBefore().enumerated().map { (new, old) in old ?? new }
                func list(_ xs: [Double], _ indices: [Int]) -> String {
                    "[" + (indices.isEmpty ? [xs[0]] : indices.map { xs[$0 % xs.count] }).map { NumberFormat.format($0) }.joined(separator: ", ") + "]"
                }
                var common = "style \(style); header \(Int.random(in: 0...20, using: &g)); pinHeaders \(Bool.random(using: &g))"
                func rule(_ indices: [Int]) -> String {
                    switch style {
                    case "waterfall":
                        let lanes = vertical ? "columns" : "rows"
                        return "\(lanes) \(1 + s % 3); \(vertical ? "height" : "width") \(list(lengths, indices)); span \(list([1, 1, 2, 1, 1], indices))"
                    default:
                        return "size \(list(widths, indices)) x \(list(lengths, indices))"
                    }
                }
                let changes = (deleted.isEmpty ? "" : "delete " + deleted.map(String.init).joined(separator: " ") + "; ")
                    + (inserted.isEmpty ? "" : "insert " + inserted.map(String.init).joined(separator: " ") + "; ")
                // An attached view whose when, size and offset are lists: carried as the rules are.
                let whens = (0..<5).map { _ in Bool.random(using: &g) }
                func views(_ indices: [Int]) -> String {
                    let when = "[" + (indices.isEmpty ? [whens[0]] : indices.map { whens[$0 % 5] }).map(String.init).joined(separator: ", ") + "]"
                    return "attach v { when \(when); size \(list(widths, indices)) x 8; offset \(list(lengths, indices)) x 2 }"
                }
                let attach = Bool.random(using: &g)
                updated += "section { items \(n); \(common); \(rule(Array(0..<5))); \(attach ? views(Array(0..<5)) + "; " : "")update { \(changes)expect true } }\n"
                written += "section { items \(after); \(common); \(rule(carried))\(attach ? "; " + views(carried) : "") }\n"
            }
            let (e, _, _) = Eval.run(updated)
            let (w, _, _) = Eval.run(written)
            XCTAssertFalse(e.diagnostics.hasErrors, "\(seed), round \(round):\n\(updated)\(e.diagnostics.map(\.message))")
            guard let a = e.layouts.first?.after, let b = w.tables.first else {
                XCTFail("\(seed), round \(round): no table\n\(updated)\(w.diagnostics.map(\.message))")
                return
            }
            XCTAssertEqual(a.elements, b.elements, "\(seed), round \(round):\n\(updated)---\n\(written)")
            XCTAssertEqual(a.sectionStarts, b.sectionStarts, "\(seed), round \(round)")
            XCTAssertEqual(a.contentWidth, b.contentWidth, "\(seed), round \(round)")
            XCTAssertEqual(a.contentHeight, b.contentHeight, "\(seed), round \(round)")
            for offset in [Offset(x: 0, y: 40), Offset(x: 35, y: 0), Offset(x: 80, y: 130)] {
                XCTAssertEqual(a.at(offset).elements, b.at(offset).elements, "\(seed), round \(round) at \(offset)")
            }
            if a.elements != b.elements { return }
        }
    }
}
