import XCTest
@testable import WFL

/// Lists and operator chains long enough to leave the parser's shared stacks for arrays of their
/// own (`ScratchStack.spillCount`), and chains whose constant head the compiler folds as it reads
/// them: the same trees and values as short ones, the same errors in the same places.
final class LongExpressionTests: XCTestCase {
    let long = ScratchStack<Expr>.spillCount * 2 + 7

    func testALongListKeepsEveryItemInOrder() throws {
        let items = (0..<long).map { String($0 % 97 + 1) }
        let parsed = Parser.parse(SourceFile(name: "t.wfl", text: "height [\(items.joined(separator: ", "))]\n"))
        XCTAssertTrue(parsed.diagnostics.isEmpty)
        guard case .setting(let s) = parsed.tree.statements.first?.kind, case .value(.list(let xs, _))? = s.arguments.first else {
            return XCTFail("no list in \(parsed.tree.statements)")
        }
        XCTAssertEqual(xs.count, long)
        let values = xs.map { e -> Double in if case .number(let d, _) = e { return d } else { return -1 } }
        XCTAssertEqual(values, (0..<long).map { Double($0 % 97 + 1) })
    }

    func testAListInsideALongListIsItsOwn() throws {
        // Nested lists share the stack with the long one while it is still there, and after.
        let items = (0..<long).map { $0 % 1000 == 0 ? "[\($0), \($0 + 1)]" : String($0) }
        let parsed = Parser.parse(SourceFile(name: "t.wfl", text: "let xs = [\(items.joined(separator: ", "))]\n"))
        XCTAssertTrue(parsed.diagnostics.isEmpty)
        guard case .let(let decl) = parsed.tree.statements.first?.kind, case .list(let xs, _) = decl.value else {
            return XCTFail("no list")
        }
        XCTAssertEqual(xs.count, long)
        for k in stride(from: 0, to: long, by: 1000) {
            guard case .list(let inner, _) = xs[k], inner.count == 2, case .number(let a, _) = inner[0], case .number(let b, _) = inner[1] else {
                return XCTFail("item \(k) is \(xs[k])")
            }
            XCTAssertEqual([a, b], [Double(k), Double(k + 1)])
        }
    }

    func testALongChainIsOneNodeWithEveryOperand() {
        let text = "height 1" + String(repeating: " + 2", count: long) + "\n"
        let parsed = Parser.parse(SourceFile(name: "t.wfl", text: text))
        XCTAssertTrue(parsed.diagnostics.isEmpty)
        guard case .setting(let s) = parsed.tree.statements.first?.kind, case .value(.binary(let chain))? = s.arguments.first, case let rest = chain.operands, case let span = chain.span else {
            return XCTFail("no chain")
        }
        XCTAssertEqual(rest.count, long)
        XCTAssertEqual(span.end, text.utf8.count - 1)
    }

    /// A call keeps its arguments in its own node (in the node's tail, or, past the shared
    /// stack's spill count, in the array they were gathered in): short and long calls alike give
    /// every argument in order and the value of the call.
    func testShortAndLongCallsKeepEveryArgumentInOrder() throws {
        for n in [1, 3, long] {
            let args = (0..<n).map { String($0 % 89 + 1) }
            let text = "items 1\nheight max(\(args.joined(separator: ", ")))\n"
            let parsed = Parser.parse(SourceFile(name: "t.wfl", text: text))
            XCTAssertEqual(parsed.diagnostics, [])
            guard case .setting(let s) = parsed.tree.statements.last?.kind, case .value(.call(let call))? = s.arguments.first else {
                return XCTFail("no call for \(n) arguments")
            }
            XCTAssertEqual(call.callee.text, "max")
            XCTAssertEqual(call.span.end, text.utf8.count - 1)
            let values = call.arguments.map { e -> Double in if case .number(let d, _) = e { return d } else { return -1 } }
            XCTAssertEqual(values, (0..<n).map { Double($0 % 89 + 1) })
            // The same text parses to an equal tree; one argument changed does not.
            XCTAssertEqual(Parser.parse(SourceFile(name: "t.wfl", text: text)).tree, parsed.tree)
            let changed = text.replacingOccurrences(of: "max(1", with: "max(2")
            XCTAssertNotEqual(Parser.parse(SourceFile(name: "t.wfl", text: changed)).tree, parsed.tree)
        }
    }

    /// A chain compares by its operators and operands, not by its storage.
    func testChainsCompareByTheirOperands() {
        let a = Parser.parse(SourceFile(name: "t.wfl", text: "let v = 1 + 2 * 3 - 4\n")).tree
        XCTAssertEqual(Parser.parse(SourceFile(name: "t.wfl", text: "let v = 1 + 2 * 3 - 4\n")).tree, a)
        XCTAssertNotEqual(Parser.parse(SourceFile(name: "t.wfl", text: "let v = 1 + 2 * 3 + 4\n")).tree, a)
        XCTAssertNotEqual(Parser.parse(SourceFile(name: "t.wfl", text: "let v = 1 + 2 * 5 - 4\n")).tree, a)
    }

    func testAnErrorAfterALongListIsOneError() {
        let items = (0..<long).map(String.init).joined(separator: ", ")
        let parsed = Parser.parse(SourceFile(name: "t.wfl", text: "items 2\nheight [\(items), @, 1]\ncolumns 3\n"))
        XCTAssertEqual(parsed.diagnostics.map(\.code), [.unexpectedCharacter])
    }

    func testAFoldedHeadGivesTheValuesOfTheChainUnfolded() throws {
        // 0.1 added again and again rounds at every step: folding must add in the same order.
        let terms = String(repeating: " + 0.1", count: long)
        let folded = try XCTUnwrap(Eval.table("items 3\nheight 1\(terms) + i\n"))
        var expected = 1.0
        for _ in 0..<long { expected += 0.1 }
        XCTAssertEqual(Eval.cells(folded).map { $0[3] }, [expected, expected + 1, expected + 2])
        // A head that is not constant: nothing is folded, and the sum is the same left to right.
        let unfolded = try XCTUnwrap(Eval.table("items 3\nheight i * 0 + 1\(terms) + i\n"))
        XCTAssertEqual(Eval.cells(unfolded).map { $0[3] }, [expected, expected + 1, expected + 2])
    }

    func testADivisionByZeroAfterAFoldedHeadIsReportedWhereItStands() throws {
        // Folding stops before the zero, which fails when each item is evaluated, as unfolded.
        let text = "items 2\nheight 2" + String(repeating: " * 1", count: long) + " / 0 * 3\n"
        let (evaluation, _, source) = Eval.run(text)
        let d = try XCTUnwrap(evaluation.diagnostics.first { $0.severity == .error })
        XCTAssertEqual(d.code, .divisionByZero)
        XCTAssertTrue(d.message.contains("in the height of item 0 of section 0"), d.message)
        // From the chain's start to the divisor, as the short chain `2 * 1 / 0 * 3` reports it.
        let start = "items 2\nheight ".utf8.count, end = text.utf8.count - " * 3\n".utf8.count
        XCTAssertEqual([d.span.start, d.span.end], [start, end])
        XCTAssertTrue(source.text(d.span).hasSuffix("* 1 / 0"))
    }
}
