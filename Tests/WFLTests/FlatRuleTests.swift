import XCTest
@testable import WFL

/// FlatRule: the straight-line programs of simple item rules give the compiled rule's doubles,
/// bit for bit, draw `random` in the same order, and give up exactly where it throws.
final class FlatRuleTests: XCTestCase {
    func rule(_ expr: String, _ prelude: String = "") throws -> ItemRule {
        let source = SourceFile(name: "f.wfl", text: "layout f {\n\(prelude)\n columns 3\n items 10\n height \(expr)\n}\n")
        let parsed = Parser.parse(source)
        XCTAssertFalse(parsed.diagnostics.hasErrors, expr)
        let layout = try XCTUnwrap(Program(tree: parsed.tree, source: source).resolve(layoutNamed: "f")).get()
        // A broken precondition is a failure, not a skip: every expression here is a height rule.
        guard case .length(let r) = layout.sections[0].size else { return try XCTUnwrap(ItemRule?.none, "\(expr): the height is not a length rule") }
        return r
    }

    func testFlatProgramsAgreeWithTheCompiledRules() throws {
        let flat = ["50 + random(0, 150)", "w * 1.5 + i % 7", "-(w / 3) + random(i, i + 10) * 0.1", "i / (i - 3)",
                    "(i + 1) % (i % 4) - s * n", "random(0, 7) + random(3, 9) - random(0, 2) * random(1, 5)",
                    "100 - cw / 7 + aw * 0.3333 - col * 2 + full", "random(i % 3, 2)", "random(0.5, 3)", "1e308 * 10 - w",
                    "0 - i * -1", "-i * 1", "random(-5, 5) + 10", "0.5 + random(3, 40)",
                    // `%` by a whole constant (Modulus): signs, zeros, sizes past 9e15, fractions.
                    "i % 7 - (i - 150) % 7", "-i % 3", "i % -4", "(i - 150) % -7", "-i % -3", "(i - 150) % 1", "(i * 1e14) % 7", "(i - 150) * 1e13 % 9",
                    "i % 2.5", "i / 4 % 3", "i % 0", "(0 - i) % 5 * -1", "i % 8999999999999999", "i % 1e16", "w % 10"]
        for expr in flat {
            let r = try rule(expr)
            XCTAssertNotNil(r.flat, "\(expr) is flattened")
            var compiled = r
            compiled.flat = nil
            for i in 0..<300 {
                func machine() -> Machine {
                    var m = Machine(seed: 7, letCount: 0)
                    m.set(.cw, 375); m.set(.ch, 812); m.set(.s, 2); m.set(.aw, 355); m.set(.ah, 792); m.set(.n, 10); m.set(.full, 3)
                    m.inItem = true
                    m.beginItem(i, section: 2)
                    m.available = VarSets.verticalSize | VarSets.layout
                    m.vars[EngineVar.w.rawValue] = 111.66666666666667
                    m.vars[EngineVar.col.rawValue] = Double(i % 3)
                    return m
                }
                var a = machine(), b = machine()
                var flatValue = 0.0
                let ok = try XCTUnwrap(r.flat).run(&a, &flatValue)
                do {
                    let v = try compiled.evaluate(&b, item: i)
                    XCTAssertTrue(ok, "\(expr) at \(i): the flat program gave up where the rule gives \(v)")
                    XCTAssertEqual(flatValue.bitPattern, v.bitPattern, "\(expr) at \(i)")
                    XCTAssertEqual(a.randomCount, b.randomCount)
                } catch {
                    XCTAssertFalse(ok, "\(expr) at \(i): the flat program gave \(flatValue) where the rule throws")
                }
                // Through ItemRule.evaluate (flat, then the fallback) the result is the compiled one's.
                var c = machine(), d = machine()
                let viaFlat = Result { () throws(EvalError) -> Double in try r.evaluate(&c, item: i) }
                let viaCode = Result { () throws(EvalError) -> Double in try compiled.evaluate(&d, item: i) }
                switch (viaFlat, viaCode) {
                case (.success(let x), .success(let y)): XCTAssertEqual(x.bitPattern, y.bitPattern)
                case (.failure(let x), .failure(let y)): XCTAssertEqual(x, y)
                default: XCTFail("\(expr) at \(i): \(viaFlat) against \(viaCode)")
                }
            }
        }
        // `%` by a whole constant other than 0 takes the remainder by multiplication.
        XCTAssertEqual(try rule("i % 10").flat?.code.map(\.op), [.variable, .remainderConstant])
        XCTAssertEqual(try rule("i % 2.5").flat?.code.map(\.op), [.variable, .constant, .remainder])
        XCTAssertEqual(try rule("i % 0").flat?.code.map(\.op), [.variable, .constant, .remainder])
        // Beyond the flat forms: compiled rules only.
        for (expr, prelude) in [("base + i", "let base = 3"), ("i > 2 ? 10 : 20", ""), ("max(w, 30)", ""), ("[1, 2][i % 2]", ""),
                                ("f(i)", "let f(a) = a * 2"), ("random(0, 5)", "let random(a, b) = a + b")] {
            XCTAssertNil(try rule(expr, prelude).flat, expr)
        }
    }

    /// A whole layout's errors are the compiled rule's, with the flat program in front.
    func testErrorsAreTheCompiledRulesErrors() {
        XCTAssertTrue(Eval.errors("columns 2\nitems 10\nheight 100 / (4 - i) + 1000\n").contains("division by zero in the height of item 4 of section 0"))
        XCTAssertTrue(Eval.errors("columns 2\nitems 10\nheight 10 + random(i, 3)\n").contains("item 3"))
    }

    /// `Modulus` (the remainder by multiplication that `random` with constant bounds uses) is `%`,
    /// for divisors at the edges of its shifts and for numbers at the edges of each divisor.
    func testModulusIsTheRemainder() {
        var g = WaterfallPropertyTests.Generator(state: 150)
        var divisors: [UInt64] = [1, 2, 3, 5, 7, 10, 40, 120, 150, 255, 256, 257, 1000, 1 << 31, (1 << 32) - 1, 1 << 32,
                                  (1 << 32) + 1, 1 << 53, (1 << 62) + 3, (1 << 63) - 1, 1 << 63]
        for _ in 0..<200 { divisors.append(1 + g.next() >> (g.next() % 64)) }
        // Both forms are taken: the short one (no correction step) for 40 and 120, as a C
        // compiler's; the one with the correction for 7 and 1.
        XCTAssertTrue(Modulus(40).short && Modulus(120).short && Modulus(1 << 63).short)
        XCTAssertFalse(Modulus(7).short || Modulus(1).short)
        for d in divisors where d <= 1 << 63 {
            let m = Modulus(d)
            XCTAssertEqual(m.double(UInt64.max - 3, short: m.short), Double((UInt64.max - 3) % d), "\(d)")
            var numbers: [UInt64] = [0, 1, d - 1, d, d &+ 1, d &* 2 &- 1, UInt64.max, UInt64.max - 1, UInt64.max / 2]
            for _ in 0..<300 { numbers.append(g.next()) }
            for n in numbers {
                XCTAssertEqual(m.remainder(n), n % d, "\(n) % \(d)")
                XCTAssertEqual(m.double(n), Double(n % d), "\(n) % \(d)")
            }
        }
    }
}

/// FlatCondition: an attached view's `when` that compares two flat programs gives the compiled
/// rule's value item by item and gives up where it throws (`random` is refused in a `when`).
extension FlatRuleTests {
    func when(_ expr: String) throws -> ItemRule {
        let source = SourceFile(name: "f.wfl", text: "layout f {\n columns 3\n items 10\n height 50\n attach badge {\n  when \(expr)\n  size 4 x 4\n }\n}\n")
        let parsed = Parser.parse(source)
        XCTAssertFalse(parsed.diagnostics.hasErrors, expr)
        let layout = try XCTUnwrap(Program(tree: parsed.tree, source: source).resolve(layoutNamed: "f")).get()
        return try XCTUnwrap(layout.sections[0].attached.first?.rules[.when], expr)
    }

    func testFlatConditionsAgreeWithTheCompiledRules() throws {
        let flat = ["i % 10 == 0", "i % 3 != 1", "i / 3 == 0.3333", "0.3333 != i / 3", "w > 100", "i < 5.0005", "i <= 4.9995",
                    "i > 4.9995", "i >= 5.0005", "10 / (i % 3) > 4", "0 == i % 4", "w * 2 > cw - i * 3", "vw > 0", "-i <= -7",
                    "i * 0.1 == 0.3", "1e308 * 10 - i > 0"]
        for expr in flat {
            let r = try when(expr)
            let condition = try XCTUnwrap(r.flatCondition, "\(expr) is flattened")
            var holdsSomewhere = false
            for i in 0..<300 {
                func machine() -> Machine {
                    var m = Machine(seed: 7, letCount: 0)
                    m.set(.cw, 375); m.set(.ch, 812); m.set(.s, 0); m.set(.aw, 355); m.set(.ah, 792); m.set(.n, 10)
                    m.inItem = true
                    m.beginItem(i, section: 0)
                    m.set(.w, 100 + Double(i % 7)); m.set(.h, 50)
                    m.available = VarSets.attach
                    return m
                }
                var a = machine(), b = machine()
                let flatValue = condition.run(&a)
                do {
                    let v = try r.condition(&b, item: i)
                    XCTAssertEqual(flatValue.map(Value.boolean), v, "\(expr) at \(i)")
                    XCTAssertEqual(a.randomCount, b.randomCount, "\(expr) at \(i)")
                    holdsSomewhere = holdsSomewhere || flatValue == true
                } catch {
                    XCTAssertNil(flatValue, "\(expr) at \(i): the flat condition gave \(flatValue!) where the rule throws")
                }
            }
            if expr != "vw > 0" { XCTAssertTrue(holdsSomewhere, "\(expr) holds for some item") }
        }
        // Beyond: the compiled rule only.
        for expr in ["i % 2 == 0 && i > 3", "i > 2 ? true : false", "[true, false]", "max(i, 3) == 3", "true", "(i == 3) == true"] {
            XCTAssertNil(try when(expr).flatCondition, expr)
        }
    }

    /// IndexCondition: a `when` on the index alone is decided from the integer as the flat
    /// condition decides it, and `next` finds the first item that holds.
    func testIndexConditionsAgreeWithTheFlatConditions() throws {
        let indexed = ["i % 10 == 0", "i % 10 == 3", "0 == i % 4", "i % 3 != 1", "i % 7 < 2.0005", "i % 7 <= 1.9995", "i % 64 > 62",
                       "i % 65 >= 64", "i % 100 == 99", "i % 10 == 10", "i % 10 == 0.0005", "i % 1 == 0",
                       "i < 5.0005", "i <= 4.9995", "i > 250", "i >= 120", "i == 17", "i != 0", "3 > i % 5", "250 < i",
                       // A negative divisor, written `-6`: the remainder takes the index's sign, so the same items.
                       "i % -6 == 5", "i % -7 < 3", "i % -65 == 64"]
        for expr in indexed {
            let condition = try XCTUnwrap(try when(expr).flatCondition, expr)
            let index = try XCTUnwrap(condition.byIndex, "\(expr) is a test of the index")
            var holding: [Int] = []
            for i in 0..<300 {
                var m = Machine(seed: 7, letCount: 0)
                m.beginItem(i, section: 0)
                m.available = VarSets.attach
                let flat = try XCTUnwrap(condition.run(&m), "\(expr) at \(i)")
                XCTAssertEqual(index.holds(i), flat, "\(expr) at \(i)")
                if flat { holding.append(i) }
            }
            var found: [Int] = [], i = 0
            while i < 300 {
                let j = index.next(from: i, end: 300)
                XCTAssertTrue(j >= i && j <= 300, "\(expr): next from \(i) is \(j)")
                if j < 300 { found.append(j) }
                i = j + 1
            }
            XCTAssertEqual(found, holding, expr)
            if let n = index.count(below: 300) { XCTAssertEqual(n, holding.count, expr) }
            if let n = index.count(below: 37) { XCTAssertEqual(n, holding.filter { $0 < 37 }.count, expr) }
        }
        XCTAssertEqual(try when("i % 10 == 3").flatCondition?.byIndex?.count(below: 95), 10)
        XCTAssertNil(try when("i % 100 == 3").flatCondition?.byIndex?.count(below: 95), "no mask past 64")
        for expr in ["i % 10 == 0 + 0", "i % -(3 * 2) == 5", "i % (5 * 2) == 0", "i * 1 == 3", "w % 10 == 0", "i + 0 < 4", "i % 2.5 == 0", "i % 10 == n"] {
            XCTAssertNil(try XCTUnwrap(try when(expr).flatCondition, expr).byIndex, expr)
        }
    }

    /// Through a whole layout, with and without lanes read: the index test places the same views
    /// as the same condition run by the flat programs (`0 + 0` is not a number the index test takes).
    func testIndexConditionsInALayout() throws {
        for (when, same) in [("i % 10 == 3", "i % 10 == 3 + 0"), ("i % 7 != 2", "i % 7 != 2 + 0"), ("i > 25", "i > 25 + 0"),
                             ("i % 100 < 40", "i % 100 < 40 + 0")] {
            for body in ["size 4 x 4", "size (col + 1) x 4\n offset col x 0"] {
                func spec(_ w: String) -> String { "columns 3\nitems 90\nheight 10 + i % 13\nbackground cells\nattach badge {\n when \(w)\n \(body)\n}\n" }
                let a = try XCTUnwrap(Eval.table(spec(when)))
                let b = try XCTUnwrap(Eval.table(spec(same)))
                XCTAssertGreaterThan(a.elements.filter { $0.kind == .attached }.count, 0, when)
                XCTAssertEqual(a.elements, b.elements, "\(when) with \(body)")
            }
        }
    }

    /// Through a whole layout: the views and the errors are the compiled rule's.
    func testFlatConditionsInALayout() throws {
        let t = try XCTUnwrap(Eval.table("columns 2\nitems 40\nheight 10\nattach badge {\n when i % 10 == 0\n size 4 x 4\n}\n"))
        XCTAssertEqual(t.elements.filter { $0.kind == .attached }.map(\.item), [0, 10, 20, 30])
        XCTAssertTrue(Eval.errors("columns 2\nitems 10\nheight 10\nattach badge {\n when 10 / (i % 3) > 4\n size 4 x 4\n}\n")
            .contains("division by zero in 'when' of 'attach badge' of item 0 of section 0"))
    }
}
