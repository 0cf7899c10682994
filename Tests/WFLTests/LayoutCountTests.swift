import Foundation
import XCTest
@testable import WFL

/// Issue 17: a file with many layouts. Their names were computed again for every layout, so
/// 20,000 layouts took seconds and 100,000 minutes; evaluating is now linear in the layouts.
final class LayoutCountTests: XCTestCase {
    func program(layouts: Int) -> Program {
        var text = ""
        for k in 0..<layouts { text += "layout l\(k) {\n  items 1\n  expect cw == 375\n}\n" }
        let source = SourceFile(name: "many.wfl", text: text)
        let parsed = Parser.parse(source)
        XCTAssertFalse(parsed.diagnostics.hasErrors)
        return Program(tree: parsed.tree, source: source)
    }

    /// Evaluating, checking the expectations and resolving each layout by name: every layout is
    /// there. (How the time grows with the layouts is `wfl-bench layouts`'s row, not a timed test.)
    func check(layouts: Int) {
        let p = program(layouts: layouts)
        let evaluation = p.evaluate()
        let outcomes = ExpectationChecker(program: p).check(evaluation.layouts)
        var resolved = 0
        for name in p.layoutNames where p.resolve(layoutNamed: name) != nil { resolved += 1 }
        XCTAssertEqual(evaluation.tables.count, layouts)
        XCTAssertEqual(evaluation.tables.last?.name, "l\(layouts - 1)")
        XCTAssertEqual(outcomes.count, layouts)
        XCTAssertEqual(resolved, layouts)
    }

    /// 1,000 layouts in the plain run, 12,000 under WFL_STRESS=1.
    func testManyLayouts() {
        check(layouts: Stress.enabled ? 12_000 : 1_000)
    }

    func testLayoutsAreFoundByName() {
        let p = program(layouts: 50)
        XCTAssertEqual(p.layoutNames, (0..<50).map { "l\($0)" })
        for (k, name) in p.layoutNames.enumerated() { XCTAssertEqual(p.layoutIndex(named: name), k) }
        XCTAssertNil(p.layoutIndex(named: "nope"))
        XCTAssertNil(p.resolve(layoutNamed: "nope"))
        XCTAssertEqual(try p.resolve(layoutNamed: "l7")?.get().name, "l7")
        XCTAssertEqual(p.evaluate(only: "l49").tables.map(\.name), ["l49"])
    }
}
