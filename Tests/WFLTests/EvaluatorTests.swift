import XCTest
@testable import WFL

/// The evaluator: cascade, lets, functions, random, checks and errors.
final class EvaluatorTests: XCTestCase {
    /// The check values of docs/language.md of `random`.
    func testRandomCheckValues() throws {
        let t0 = try XCTUnwrap(Eval.table("seed 0\nitems 3\nheight random(0, 150)"))
        XCTAssertEqual(Eval.cells(t0).map { $0[3] }, [85, 101, 96])
        let t7 = try XCTUnwrap(Eval.table("seed 7\nsection { items 1 }\nsection {\n items 4\n height random(0, 150)\n}"))
        XCTAssertEqual(Eval.cells(t7)[4][3], 38)
    }

    func testRandomCountsCallsPerItemSpanFirst() throws {
        // k counts calls within the item: span's call is k = 0, the height's is k = 1.
        let a = try XCTUnwrap(Eval.table("items 3\nspan 1 + random(0, 1)\nheight random(0, 150)"))
        let b = try XCTUnwrap(Eval.table("items 3\nheight random(0, 1) * 0 + random(0, 150)"))
        XCTAssertEqual(Eval.cells(a).map { $0[3] }, Eval.cells(b).map { $0[3] })
        XCTAssertNotEqual(Eval.cells(a).map { $0[3] }, [85, 101, 96])
        // Adding items after does not change earlier ones.
        let more = try XCTUnwrap(Eval.table("seed 0\nitems 10\nheight random(0, 150)"))
        XCTAssertEqual(Eval.cells(more).prefix(3).map { $0[3] }, [85, 101, 96])
    }

    func testLetWithoutParametersIsEvaluatedOncePerItem() throws {
        let t = try XCTUnwrap(Eval.table("let r = random(10, 100)\ncolumns 1\nitems 20\nsize r x r\nspacing 0\ncontainer 100 x 100"))
        // size r x r is square: h = r * w / r = w.
        for c in Eval.cells(t) { XCTAssertEqual(c[3], 100) }
        // A function is evaluated at each call: f() + 0 * f() draws twice, so the next item differs from a single draw.
        let once = try XCTUnwrap(Eval.table("let r = random(0, 1000)\nitems 4\nheight r + r - r"))
        let single = try XCTUnwrap(Eval.table("items 4\nheight random(0, 1000)"))
        XCTAssertEqual(Eval.cells(once).map { $0[3] }, Eval.cells(single).map { $0[3] })
        let twice = try XCTUnwrap(Eval.table("let f() = random(0, 1000)\nitems 4\nheight f() + 0 * f()"))
        XCTAssertEqual(Eval.cells(twice).map { $0[3] }, Eval.cells(single).map { $0[3] })
        let second = try XCTUnwrap(Eval.table("let f() = random(0, 1000)\nitems 4\nheight 0 * f() + f()"))
        XCTAssertNotEqual(Eval.cells(second).map { $0[3] }, Eval.cells(single).map { $0[3] })
    }

    func testLetUsesEachItemsOwnVariables() throws {
        let t = try XCTUnwrap(Eval.table("let tall = i % 3 == 0\ncolumns 1\nitems 4\nheight tall ? 100 : 10"))
        XCTAssertEqual(Eval.cells(t).map { $0[3] }, [100, 10, 10, 100])
    }

    func testFunctions() throws {
        func h(_ expr: String) throws -> Double {
            let t = try XCTUnwrap(Eval.table("items 1\nheight \(expr)"))
            return Eval.cells(t)[0][3]
        }
        XCTAssertEqual(try h("min(5, 3, 9)"), 3)
        XCTAssertEqual(try h("max([4, 8, 2])"), 8)
        XCTAssertEqual(try h("max(1, 2)"), 2)
        XCTAssertEqual(try h("clamp(50, 0, 20)"), 20)
        XCTAssertEqual(try h("abs(-7)"), 7)
        XCTAssertEqual(try h("floor(2.7)"), 2)
        XCTAssertEqual(try h("ceil(2.1)"), 3)
        XCTAssertEqual(try h("round(2.5)"), 3)
        XCTAssertEqual(try h("round(-2.5) + 10"), 7)
        XCTAssertEqual(try h("sqrt(16)"), 4)
        XCTAssertEqual(try h("len([1, 2, 3])"), 3)
        XCTAssertEqual(try h("7 % 3 + -7 % 3"), 0)
        XCTAssertEqual(try h("1 + 2 * 3 - 4 / 2"), 5)
        XCTAssertEqual(try h("[1, 2] == [1, 2.0005] ? 1 : 2"), 1)
        XCTAssertEqual(try h("0.1 + 0.2 == 0.3 ? 1 : 2"), 1)
        XCTAssertEqual(try h("1 == 1.002 ? 1 : 2"), 2)
        XCTAssertEqual(try h("1 <= 0.9995 ? 1 : 2"), 1)
        XCTAssertEqual(try h("1 < 1.0005 ? 1 : 2"), 2)
        XCTAssertEqual(try h("true && false || !false ? 1 : 2"), 1)
        XCTAssertEqual(try h("false && 1 / 0 == 1 ? 1 : 2"), 2)
    }

    func testUserFunctionsAndRecursion() throws {
        let t = try XCTUnwrap(Eval.table("let sq(a) = a * a\nlet fact(k) = k <= 1 ? 1 : k * fact(k - 1)\nitems 2\nheight sq(i + 2) + fact(4)"))
        XCTAssertEqual(Eval.cells(t).map { $0[3] }, [28, 33])
        // 64 nested calls work; the 65th is an error.
        XCTAssertEqual(Eval.errors("let d(k) = k <= 1 ? 0 : 1 + d(k - 1)\nitems 1\nheight d(64)"), "")
        XCTAssertTrue(Eval.errors("let d(k) = k <= 1 ? 0 : 1 + d(k - 1)\nitems 1\nheight d(65)")
            .contains("more than 64 nested calls of user functions"))
    }

    func testCascadeAndSides() throws {
        let tables = Eval.tables("""
            container 300 x 600
            insets 20
            spacing 4
            layout a {
              columns 1
              section {
                insets left 0
                items 1
                height 10
              }
            }
            layout b {
              insets 1 2 3 4
              columns 1
              items 1
              height 10
            }
            """)
        XCTAssertEqual(tables.map(\.name), ["a", "b"])
        // (20, 0, 20, 20): left 0, right 20.
        XCTAssertEqual(Eval.cells(tables[0])[0], [0, 20, 280, 10])
        XCTAssertEqual(tables[0].contentHeight, 50)
        XCTAssertEqual(Eval.cells(tables[1])[0], [2, 1, 294, 10])
    }

    func testItemRuleInnermostWins() throws {
        let t = try XCTUnwrap(Eval.table("height 10\nsection {\n  items 1\n  size 1 x 1\n}\nsection {\n  items 1\n}"))
        XCTAssertEqual(Eval.cells(t).map { $0[3] }, [182.5, 10])
    }

    func testListsCycle() throws {
        let t = try XCTUnwrap(Eval.table("let hs = [100, 150]\ncolumns 1\nitems 5\nheight hs"))
        XCTAssertEqual(Eval.cells(t).map { $0[3] }, [100, 150, 100, 150, 100])
        let d = try XCTUnwrap(Eval.table("columns 1\nitems 3\nheight i < 10 ? [7, 8] : 1"))
        XCTAssertEqual(Eval.cells(d).map { $0[3] }, [7, 8, 7])
    }

    func testVariables() throws {
        let t = try XCTUnwrap(Eval.table("container 400 x 600\ninsets 10\ncolumns 2\nspacing 20\nitems 3\nheight w + col * 1000 + n * 0.5 + s\nheader cw / 10\nfooter ah - aw"))
        // w = (380 - 20) / 2 = 180.
        XCTAssertEqual(Eval.cells(t).map { $0[3] }, [181.5, 1181.5, 181.5])
        XCTAssertEqual(t.elements[0].frame.height, 40)
        XCTAssertEqual(t.elements.last!.frame.height, 200)
    }

    func testVariableWithoutValueSaysWhereItCanBeUsed() {
        let text = Eval.errors("items 2\nspan w > 10 ? 2 : 1")
        XCTAssertTrue(text.contains("'w' has no value in the span of item 0 of section 0"), text)
        XCTAssertTrue(text.contains("vertical waterfall"), text)
        XCTAssertTrue(Eval.errors("insets aw / 10\nitems 1").contains("'aw' has no value in 'insets'"))
    }

    func testErrorsNameTheItemAndAreReportedOnce() {
        let text = Eval.errors("items 8\nheight 10 + 100 / (3 - i % 4)")
        XCTAssertTrue(text.contains("division by zero in the height of item 3 of section 0"), text)
        XCTAssertEqual(text.components(separatedBy: "error:").count - 1, 1)
        XCTAssertTrue(Eval.errors("items 2\nheight i == true ? 1 : 2").contains("'==' cannot compare a number with a boolean in the height of item 0 of section 0"))
    }

    func testWholeNumbersAndLimits() {
        XCTAssertTrue(Eval.errors("items 2.5").contains("whole number, not 2.5"))
        XCTAssertTrue(Eval.errors("columns 0\nitems 1").contains("at least 1"))
        XCTAssertTrue(Eval.errors("columns 1001\nitems 1").contains("at most 1000 lanes"))
        XCTAssertTrue(Eval.errors("items 10000001").contains("at most 10,000,000 items"))
        XCTAssertTrue(Eval.errors("section {\n  items 6000000\n}\nsection {\n  items 6000000\n}").contains("more than 10,000,000 items"))
        XCTAssertTrue(Eval.errors("items 1e300").contains("at most 10,000,000 items"))
        XCTAssertEqual(Eval.errors("columns 1000\nspacing 0\nitems 1"), "")
        XCTAssertTrue(Eval.errors("items 2\nspan 1.5").contains("whole number of lanes"))
        XCTAssertTrue(Eval.errors("seed -1\nitems 1").contains("negative"))
        XCTAssertTrue(Eval.errors("container 0 x 100").contains("more than 0"))
    }

    func testSizesMustBeFiniteAndNotNegative() {
        XCTAssertTrue(Eval.errors("items 3\nheight 20 - i * 15").contains("the height of item 2 of section 0 is -10"))
        XCTAssertTrue(Eval.errors("items 1\nheight 1e308 * 10").contains("Infinity"))
        XCTAssertTrue(Eval.errors("items 1\nsize 0 x 10").contains("must be positive"))
    }

    func testUnusedSettings() {
        let horizontal = Eval.errors("direction horizontal\ncolumns 3\nitems 1\nwidth 10")
        XCTAssertTrue(horizontal.contains("in a horizontal layout lanes are rows: use 'rows 3'"), horizontal)
        XCTAssertTrue(Eval.errors("items 1\nwidth 10").contains("use 'height 10'"))
        XCTAssertTrue(Eval.errors("justify center\nitems 1").contains("a waterfall does not use it"))
        // Inherited from the file, they are ignored.
        XCTAssertEqual(Eval.errors("columns 3\nheight 5\nlayout a {\n  direction horizontal\n  items 2\n}"), "")
        XCTAssertEqual(Eval.errors("style flow\nitems 1"), "")
        XCTAssertTrue(Eval.errors("style flow\nitems 1\nheight 10").contains("use 'size 50 x 10'"))
        XCTAssertTrue(Eval.errors("style flow\nitems 1\nspan 2").contains("'span' places items in the lanes of a waterfall"))
        XCTAssertTrue(Eval.errors("style flow\nitems 1\nzoomFirst 10 x 10").contains("'zoomFirst' works only in a horizontal flow layout"))
        // Inherited from the file, waterfall settings are ignored by a flow layout.
        XCTAssertEqual(Eval.errors("columns 3\nheight 5\nlayout a {\n  style flow\n  items 2\n}"), "")
    }

    func testNoRoomErrors() {
        XCTAssertTrue(Eval.errors("insets 0 200\nitems 1").contains("the insets leave no room"))
        let lanes = Eval.errors("columns 10\ncolumnSpacing 50\nitems 1")
        XCTAssertTrue(lanes.contains("10 columns with columnSpacing 50 leave no room"), lanes)
        // Header and footer insets must leave room for a header or footer that is there...
        XCTAssertTrue(Eval.errors("items 1\nheader 20\nheaderInsets 0 400 0 0").contains("'headerInsets' leave no room in section 0: the header would be -25 wide"))
        XCTAssertTrue(Eval.errors("direction horizontal\nitems 1\nfooter 20\nfooterInsets 900 0 0 0").contains("the footer would be -88 tall"))
        // ...and are not used without one, in any section (inherited from the file here).
        XCTAssertEqual(Eval.errors("headerInsets 0 400 0 0\nfooterInsets 0 0 0 400\nsection {\n  items 1\n}\nsection {\n  items 1\n}"), "")
        let sections = Eval.errors("headerInsets 0 400 0 0\nsection {\n  items 1\n}\nsection {\n  header 10\n  items 1\n}")
        XCTAssertTrue(sections.contains("leave no room in section 1: the header would be -25 wide"), sections)
    }

    func testRandomOnlyInItemRules() {
        XCTAssertTrue(Eval.errors("columns 1 + random(0, 2)\nitems 1").contains("'random' outside an item rule"))
        XCTAssertTrue(Eval.errors("items 1\nexpect random(0, 2) == 1").contains("'random' outside an item rule"))
        XCTAssertTrue(Eval.errors("items 1\nheight frame(0, 0)[3]").contains("'frame' can be used only in 'expect'"))
    }

    func testExpectIsCheckedButNotJudged() {
        XCTAssertEqual(Eval.errors("items 1\nexpect contentHeight == 12345"), "")
        XCTAssertTrue(Eval.errors("items 1\nexpect i == 1").contains("'i' has no value in 'expect'"))
        XCTAssertTrue(Eval.errors("items 1\nexpect contentHeight + 1").contains("must be a condition"))
    }

    func testImplicitLayoutIsNamedAfterTheFile() {
        let (e, program, _) = Eval.run("items 1", name: "dir/feed.wfl")
        XCTAssertEqual(program.layoutNames, ["feed"])
        XCTAssertEqual(e.tables.first?.name, "feed")
        XCTAssertEqual(Program.stem("<stdin>"), "stdin")
    }

    func testSameSpecSameTable() {
        let text = "seed 3\ncolumns 3\nitems 200\nheight 30 + random(0, 90)\nspan random(1, 3)"
        XCTAssertEqual(Eval.table(text), Eval.table(text))
    }

    /// `%` takes whole operands through the integer remainder: the same bits as the C library's
    /// `fmod` (truncatingRemainder) for every sign, zeros of both signs, halves, huge and
    /// non-finite values; and through a rule, compiled or flat, as in a constant.
    func testRemainderHasTheBitsOfFmod() throws {
        var g = SeededRandom.forTest("EvaluatorTests.testRemainderHasTheBitsOfFmod")
        var values: [Double] = [0, -0.0, 1, -1, 2, -2, 3, 10, -10, 7.5, -7.5, 0.5, 1e15, -1e15, 9.0e15, 9.007199254740993e15,
                                1e300, -1e300, .infinity, -.infinity, .nan, 4503599627370497, -4503599627370497]
        for _ in 0..<3000 {
            let v = Double(Int.random(in: -1000...1000, using: &g))
            values.append(Bool.random(using: &g) ? v : v / 4)
        }
        for _ in 0..<20_000 {
            let a = values[Int.random(in: 0..<values.count, using: &g)], b = values[Int.random(in: 0..<values.count, using: &g)]
            guard b != 0 else { continue }
            XCTAssertEqual(languageRemainder(a, b).bitPattern, a.truncatingRemainder(dividingBy: b).bitPattern, "\(a) % \(b)")
        }
        let t = try XCTUnwrap(Eval.table("items 6\nlet k = 3 - i * 2.5\nheight 10 + k % 2 + (i - 3) % 2\n"))
        XCTAssertEqual(Eval.cells(t).map { $0[3] }, [10, 10.5, 9, 9.5, 10, 8.5])
        let c = try XCTUnwrap(Eval.table("items 1\nheight 10 + (-7 % 2) + (7 % -2) + (7.5 % 2)\n"))
        XCTAssertEqual(Eval.cells(c)[0][3], 10 - 1 + 1 + 1.5)
    }

    func testLongChainDoesNotRecurse() throws {
        let sum = "items 1\nheight " + Array(repeating: "1", count: 100_000).joined(separator: " + ")
        let t = try XCTUnwrap(Eval.table(sum))
        XCTAssertEqual(Eval.cells(t)[0][3], 100_000)
    }

    /// `len` of a string counts its Unicode scalars (an emoji is one, `e` with a combining accent
    /// two); of anything but a list or a string it is an error.
    func testLenOfAString() {
        let spec = Spec(source: #"""
            items 1
            height 10 * len("swift")
            expect len("\u{1F600}e\u{301}") == 3
            expect len("") == 0
            expect len([1, 2]) == 2
            """#, name: "t.wfl")
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        XCTAssertEqual(spec.layouts.first?.cell(section: 0, item: 0)?.frame.height, 50)
        XCTAssertEqual(spec.failedExpectations.count, 0, spec.expectationReport)
        let bad = Spec(source: "items 1\nheight len(true)\n", name: "t.wfl")
        XCTAssertEqual(bad.diagnostics.map(\.code), [.typeMismatch])
    }

    /// A block's table of properties keeps one bit a property (`PropertyTable.mask`): there is room
    /// for every property, and a property set and then cleared is gone.
    func testEveryPropertyHasABitInABlocksTable() {
        XCTAssertLessThanOrEqual(Property.allCases.count, 128)
        let name = Name("x", Span(0, 1))
        let w = Written(value: .word(name), setting: Setting(name: name, arguments: []), level: .file, span: Span(0, 1))
        var t = PropertyTable()
        for p in Property.allCases {
            XCTAssertNil(t[p])
            t[p] = w
            XCTAssertNotNil(t[p])
        }
        t[.items] = nil
        XCTAssertNil(t[.items])
        XCTAssertNotNil(t[.seed])
        XCTAssertEqual(t.written.count, Property.allCases.count - 1)
    }
}
