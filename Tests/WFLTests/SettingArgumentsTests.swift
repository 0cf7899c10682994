import XCTest
@testable import WFL

/// Settings' arguments live in stores shared by many settings (AST.swift `SettingArguments`):
/// each setting sees its own arguments, a setting read wrong leaves none behind, a short file
/// holds a small store, and the two halves of a parse never write into one store.
final class SettingArgumentsTests: XCTestCase {
    /// The settings of `statements`, blocks included, in source order.
    func settings(_ statements: [Statement]) -> [Setting] {
        var out: [Setting] = []
        for s in statements {
            switch s.kind {
            case .setting(let setting): out.append(setting)
            case .layout(let b), .section(let b), .attach(let b), .update(let b), .scroll(let b): out += settings(b.statements)
            default: break
            }
        }
        return out
    }

    /// The numbers of `arguments`' values (`.value` of a number; a size gives its two sides).
    func numbers(_ arguments: SettingArguments) -> [Double] {
        arguments.flatMap { a -> [Double] in
            switch a {
            case .value(.number(let v, _)): return [v]
            case .size(.number(let w, _), .number(let h, _), _): return [w, h]
            default: return [.nan]
            }
        }
    }

    func parse(_ text: String) -> ParseResult { Parser.parse(SourceFile(name: "t.wfl", text: text)) }

    func testEachSettingSeesItsOwnArgumentsAndManyShareAStore() {
        let text = (0..<200).map { "section s\($0) {\n  items \($0 + 1)\n  insets 1 2 3 \($0)\n  size 10 x \($0 + 5)\n}\n" }.joined()
        let result = parse(text)
        XCTAssertEqual(result.diagnostics, [])
        let all = settings(result.tree.statements)
        XCTAssertEqual(all.count, 600)
        for k in 0..<200 {
            XCTAssertEqual(numbers(all[3 * k].arguments), [Double(k + 1)])
            XCTAssertEqual(numbers(all[3 * k + 1].arguments), [1, 2, 3, Double(k)])
            XCTAssertEqual(numbers(all[3 * k + 2].arguments), [10, Double(k + 5)])
        }
        // 1,200 arguments: stores of 8, 16, ... 256, then of 256: about ten, not one a setting.
        let stores = Set(all.compactMap { $0.arguments.store.map(ObjectIdentifier.init) })
        XCTAssertTrue((2...10).contains(stores.count), "\(stores.count) stores")
        XCTAssertTrue(all.allSatisfy { ($0.arguments.store?.size ?? 0) <= 256 })
    }

    func testASettingReadWrongLeavesNothingInTheStore() {
        // `insets` reads three values, then finds three is not a count it takes.
        let result = parse("insets 1 2 3\ncolumns 2\nsize 5 x\nrowSpacing 4\n")
        XCTAssertEqual(result.diagnostics.map(\.code), [.badArguments, .missingValue])
        let all = settings(result.tree.statements)
        XCTAssertEqual(all.map(\.name.text), ["columns", "rowSpacing"])
        XCTAssertEqual(all.map { numbers($0.arguments) }, [[2], [4]])
        // The arguments of the two wrong settings were dropped: the store holds the two kept.
        XCTAssertEqual(all[0].arguments.store?.count, 2)
        XCTAssertEqual(all[1].arguments.start, 1)
    }

    func testEverySettingFitsTheRoomMadeForIt() {
        // `beginArguments` makes room for `maxSettingArguments`; a setting taking more would
        // stop at the store's precondition.
        for info in SettingTable.all {
            if case .values(_, let max) = info.shape { XCTAssertLessThanOrEqual(max, Parser.maxSettingArguments, info.name) }
        }
    }

    func testAShortFileHoldsASmallStore() {
        let all = settings(parse("columns 2\n").tree.statements)
        XCTAssertEqual(all.first?.arguments.store?.size, 8)
    }

    func testArgumentsMadeApartEqualThoseRead() {
        let read = settings(parse("columns 2\n").tree.statements)[0].arguments
        XCTAssertEqual(read, SettingArguments([.value(.number(2, Span(8, 9)))]))
        XCTAssertNotEqual(read, SettingArguments([.value(.number(3, Span(8, 9)))]))
        XCTAssertNotEqual(read, [])
        XCTAssertEqual(SettingArguments([]), [])
    }

    func testTheTwoHalvesWriteIntoStoresOfTheirOwn() {
        let text = "columns 2\n" + (0..<400).map { "section s\($0) {\n  items \($0 + 1)\n  insets \($0)\n}\n" }.joined()
        let source = SourceFile(name: "t.wfl", text: text)
        // Cut where section 200 starts, after the `}` line of the one before.
        let split = text.utf8.count - text.split(separator: "section s200 {", maxSplits: 1)[1].utf8.count - "section s200 {".utf8.count
        let (result, way) = Parser.readInHalves(source, at: split, options: .standard)
        XCTAssertEqual(way, .joined)
        var first = Set<ObjectIdentifier>(), second = Set<ObjectIdentifier>()
        for s in result.tree.statements {
            guard case .section(let b) = s.kind else { continue }
            for setting in settings(b.statements) {
                guard let store = setting.arguments.store else { continue }
                if s.span.start < split { first.insert(ObjectIdentifier(store)) } else { second.insert(ObjectIdentifier(store)) }
            }
        }
        XCTAssertFalse(first.isEmpty)
        XCTAssertFalse(second.isEmpty)
        XCTAssertTrue(first.isDisjoint(with: second))

        // The same, step by step on one thread: the opening's store has room left, and the
        // parser forked from it must not take it.
        var opening = Parser(source: source, lexed: Lexer.tokenize(source, upTo: split), options: .standard)
        _ = opening.parseStatements(until: .firstBlock)
        XCTAssertEqual(opening.argumentStore?.count, 1)
        var second2 = opening.forked(onto: Lexer.tokenize(source, from: split), after: opening.bindingsAhead())
        let read = second2.parseStatements(until: .firstError)
        XCTAssertFalse(read.isEmpty)
        XCTAssertNotNil(second2.argumentStore)
        XCTAssertFalse(second2.argumentStore === opening.argumentStore)
        XCTAssertEqual(opening.argumentStore?.count, 1)
    }
}
