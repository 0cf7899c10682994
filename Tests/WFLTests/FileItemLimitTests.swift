import Foundation
import XCTest
@testable import WFL

/// Issue 17: at most 10,000,000 items per file, all the layouts evaluated together (it was per
/// layout, so 20 layouts of 10,000,000 items in a 600-byte file ran out of memory). The limit is
/// checked before any layout is laid out (docs/DECISIONS.md).
final class FileItemLimitTests: XCTestCase {
    func program(_ text: String) -> Program {
        let source = SourceFile(name: "t.wfl", text: text)
        let parsed = Parser.parse(source)
        XCTAssertFalse(parsed.diagnostics.hasErrors)
        return Program(tree: parsed.tree, source: source)
    }

    func layouts(_ items: [Int]) -> String {
        items.enumerated().map { "layout l\($0) {\n  items \($1)\n}\n" }.joined()
    }

    /// Two layouts of 6,000,000 items: each within a layout's limit, together over the file's.
    func testTheLimitCountsEveryLayout() {
        let p = program(layouts([6_000_000, 6_000_000]))
        let t0 = Date()
        let e = p.evaluate()
        let errors = e.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.code), [.tooManyItems])
        XCTAssertEqual(errors.first?.message.description,
                       "with the layout 'l1' the file has more than 10,000,000 items, the most wfl lays out in one file")
        XCTAssertEqual(errors.first?.notes.map(\.text.description), ["the layouts before it have 6000000 items, and 'l1' has 6000000 up to this section"])
        XCTAssertTrue(e.tables.isEmpty)
        // Found before laying anything out: no 6,000,000-item table was made.
        XCTAssertLessThan(Date().timeIntervalSince(t0), 1)
    }

    /// One error for the file, at the layout that passes the limit, not one per layout after it;
    /// a later layout's own errors are still found.
    func testTheLimitIsSaidOnce() {
        let p = program(layouts([10_000_000, 1, 10_000_000]) + "layout bad {\n  columns 0\n}\n")
        let errors = p.evaluate().diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.code), [.tooManyItems, .valueOutOfRange])
        XCTAssertTrue(errors[0].message.description.contains("'l1'"))
    }

    /// `--layout NAME` evaluates one layout, and only its items count.
    func testOneLayoutCountsItsOwnItems() throws {
        let p = program(layouts([10_000_000, 3]))
        let e = p.evaluate(only: "l1")
        XCTAssertFalse(e.diagnostics.hasErrors)
        XCTAssertEqual(e.tables.map(\.name), ["l1"])
        XCTAssertEqual(try XCTUnwrap(e.tables.first).elements.count, 3)
    }

    /// The boundary: 10,000,000 items together pass, one more does not.
    func testTheBoundary() {
        let p = program("section {\n  items 1\n}\nsection {\n  items 1\n}\n")
        func resolves(after before: Int?) -> Bool {
            var r = Resolver(program: p, layout: nil, name: "t", itemsBefore: before)
            if case .success = r.resolve() { return true }
            return false
        }
        XCTAssertTrue(resolves(after: 0))
        XCTAssertTrue(resolves(after: 9_999_998))
        XCTAssertFalse(resolves(after: 9_999_999))
        // Already reported for the file: not said again.
        XCTAssertTrue(resolves(after: nil))
    }

    /// Issue 27: the table after a batch update is laid out too, so its items count: 10,000,000
    /// items and one insert is over the limit (it laid out 10,000,001 cells, and 2,000,000 inserts
    /// 12 million), found before anything is laid out.
    func testTheLimitCountsTheTableAfterAnUpdate() {
        let p = program("items 10000000\nupdate {\n  insert 0\n}\n")
        var r = Resolver(program: p, layout: nil, name: "t")
        guard case .failure(let f) = r.resolve() else { return XCTFail("10,000,001 items after the update resolved") }
        XCTAssertEqual(f.diagnostics.map(\.code), [.tooManyItems])
        XCTAssertEqual(f.diagnostics.first?.message.description,
                       "section 0 has 10000001 items after its update: a layout has at most 10,000,000 items")
        // At the limit after the update: fine (one deleted, one inserted).
        let q = program("items 10000000\nupdate {\n  delete 0\n  insert 0\n}\n")
        var fine = Resolver(program: q, layout: nil, name: "t")
        if case .failure(let f) = fine.resolve() { XCTFail("\(f.diagnostics.map(\.message))") }
    }

    /// The sections' counts after their updates add up, with the layouts before them.
    func testTheLimitAddsTheCountsAfterUpdates() {
        let p = program("section {\n  items 5\n}\nsection {\n  items 1\n  update {\n    insert 0 1\n  }\n}\n")
        func resolves(after before: Int) -> Bool {
            var r = Resolver(program: p, layout: nil, name: "t", itemsBefore: before)
            if case .success = r.resolve() { return true }
            return false
        }
        // 6 items before the update, 8 after.
        XCTAssertTrue(resolves(after: 9_999_992))
        XCTAssertFalse(resolves(after: 9_999_993))
        // A later layout counts the earlier one's table after its update.
        let two = program("layout a {\n  items 9999998\n  update {\n    insert 0 1\n  }\n}\nlayout b {\n  items 1\n}\n")
        let errors = two.evaluate().diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.code), [.tooManyItems])
        XCTAssertTrue(errors.first?.message.description.contains("'b'") == true, "\(errors.map(\.message))")
    }
}
