import XCTest
@testable import WFL

final class ParserTests: XCTestCase {
    func parse(_ text: String) -> ParseResult { Parser.parse(SourceFile(name: "t.wfl", text: text)) }

    /// The outline of a file that must parse without diagnostics, positions removed.
    /// With `errors`, the outline of a file with those errors.
    func outline(_ text: String, errors: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = parse(text)
        XCTAssertEqual(r.diagnostics.map(\.message), errors, file: file, line: line)
        return ASTPrinter.print(r.tree, source: SourceFile(name: "t.wfl", text: text))
            .split(separator: "\n").dropFirst()
            .map { $0.dropFirst(2).replacingOccurrences(of: #" \[[^\]]*\]$"#, with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }

    func errors(_ text: String) -> [String] { parse(text).diagnostics.filter { $0.severity == .error }.map(\.message) }

    /// A suggestion quotes the expression on one line, whatever the file's line ends: a mutant of
    /// a sample (`expect(0)=(` then a line break) quoted its '\n' or '\r\n' as written.
    func testSuggestionsQuoteOneLineWhateverTheLineEnds() {
        func helps(_ text: String) -> [String] { parse(text).diagnostics.flatMap { $0.help.map(\.description) } }
        for (text, quoted) in [("expect(0)=(\n", "expect (0) == ("), ("expect (1\n) = 2\n", "expect (1 ) == 2")] {
            let lf = helps(text)
            XCTAssertEqual(lf, ["'=' gives a name a value; to compare, write '==': '\(quoted)'"])
            XCTAssertEqual(helps(text.replacingOccurrences(of: "\n", with: "\r\n")), lf)
        }
    }

    func testPrecedence() {
        XCTAssertEqual(outline("height 1 + 2 * 3 - -4 % 5"), """
            setting height
              binary + -
                number 1
                binary *
                  number 2
                  number 3
                binary %
                  unary -
                    number 4
                  number 5
            """)
        XCTAssertEqual(outline("pinHeaders s == 0 || !(s > 1) && i < n ? true : false"), """
            setting pinHeaders
              conditional
                binary ||
                  binary ==
                    name s
                    number 0
                  binary &&
                    unary !
                      binary >
                        name s
                        number 1
                    binary <
                      name i
                      name n
                boolean true
                boolean false
            """)
    }

    /// Every name of the tree with what it is bound to: "a=1" for binding 1, "a" for a free name.
    func boundNames(_ text: String) -> [String] {
        let r = parse(text)
        XCTAssertEqual(r.diagnostics.filter { $0.severity == .error }.map(\.message), [])
        var out: [String] = []
        func name(_ n: Identifier) { out.append(n.binding == Binding.free ? n.text : "\(n.text)=\(n.binding)") }
        func expr(_ e: Expr) {
            switch e {
            case .name(let n): name(n)
            case .call(let call): name(call.callee); call.arguments.forEach(expr)
            case .list(let items, _): items.forEach(expr)
            case .unary(_, let x, _): expr(x)
            case .binary(let chain): expr(chain.head); chain.operands.forEach { expr($0.rhs) }
            case .conditional(let c, let a, let b, _): expr(c); expr(a); expr(b)
            case .index(let b, let x, _): expr(b); expr(x)
            default: break
            }
        }
        func statements(_ ss: [Statement]) {
            for s in ss {
                switch s.kind {
                case .let(let d):
                    name(d.name)
                    d.parameters?.forEach(name)
                    expr(d.value)
                case .layout(let b), .section(let b), .attach(let b), .update(let b), .scroll(let b): statements(b.statements)
                case .to(let stop): expr(stop.x); expr(stop.y); if let step = stop.step { expr(step) }
                case .change(let c): c.arguments.forEach(expr)
                case .group(let g):
                    expr(g.width); expr(g.height)
                    if let c = g.count { expr(c) }
                    statements(g.block.statements)
                case .item(let item):
                    expr(item.width); expr(item.height)
                    statements(item.block?.statements ?? [])
                case .appear(let a): statements(a.block.statements)
                case .expect(let e): expr(e.condition)
                case .setting(let st):
                    for a in st.arguments {
                        switch a {
                        case .value(let e), .adaptive(let e, _), .side(_, let e): expr(e)
                        case .size(let w, let h, _): expr(w); expr(h)
                        case .word: break
                        }
                    }
                }
            }
        }
        statements(r.tree.statements)
        return out
    }

    func testNamesCarryTheirBindings() {
        // Shadowing in a block, a `let` seen only after it, a value that reads the outer binding
        // of its own name, engine variables free.
        XCTAssertEqual(boundNames("""
            let a = 1
            layout x {
              height a
              let a = a + i
              height a
            }
            height a
            """), ["a=0", "a=0", "a=1", "a=0", "i", "a=1", "a=0"])
        // A function sees itself and its parameters; a parameter hides an outer name.
        let r = parse("let k = 2\nlet f(k, m) = k > 0 ? f(k - 1, m) : m\nheight f(k, i)\nitems max(1, k)")
        XCTAssertEqual(r.tree.bindings.map(\.kind), [.value, .function(arity: 2), .parameter(index: 0), .parameter(index: 1)])
        XCTAssertEqual(boundNames("let k = 2\nlet f(k, m) = k > 0 ? f(k - 1, m) : m\nheight f(k, i)\nitems max(1, k)"),
                       ["k=0", "f=1", "k=2", "m=3", "k=2", "f=1", "k=2", "m=3", "m=3", "f=1", "k=0", "i", "max", "k=0"])
    }

    func testExpectKeepsItsConditionAsWritten() {
        let text = "columns 2\nexpect (contentHeight\n  > 0) , \"tall\"\nexpect cw == 375\n"
        let r = parse(text)
        XCTAssertEqual(r.diagnostics.map(\.message), [])
        let written = r.tree.statements.compactMap { s -> String? in
            if case .expect(let e) = s.kind { return SourceFile(name: "t.wfl", text: text).text(e.written) }
            return nil
        }
        XCTAssertEqual(written, ["(contentHeight\n  > 0)", "cw == 375"])
    }

    func testSettingsSetTypedProperties() {
        func properties(_ text: String) -> [Property] {
            let r = parse(text)
            XCTAssertEqual(r.diagnostics.map(\.message), [])
            guard case .setting(let s)? = r.tree.statements.first?.kind, let info = SettingTable.info(s.name.text) else { return [] }
            return info.properties(of: s.arguments)
        }
        XCTAssertEqual(properties("spacing 4"), [.rowSpacing, .columnSpacing])
        XCTAssertEqual(properties("insets 4 8"), [.insetsTop, .insetsLeft, .insetsBottom, .insetsRight])
        XCTAssertEqual(properties("headerInsets right 2 top 1"), [.headerInsets(.right), .headerInsets(.top)])
        XCTAssertEqual(properties("footerInsets bottom 3"), [.footerInsetsBottom])
        XCTAssertEqual(properties("height 10") + properties("width 10") + properties("size 1 x 2"), [.sizeRule, .sizeRule, .sizeRule])
        XCTAssertEqual(properties("pinFooters true") + properties("paging groupPaging") + properties("collapseEmpty all")
                       + properties("layoutDirection rightToLeft") + properties("snapping nearest") + properties("style shelf"),
                       [.pinFooters, .paging, .collapseEmpty, .layoutDirection, .snapping, .style])
        // `style` may now be written in a section; `layoutDirection` and `snapping` may not.
        XCTAssertEqual(parse("section {\n style shelf\n items 1\n}").diagnostics.map(\.message), [])
        XCTAssertEqual(parse("section {\n snapping nearest\n layoutDirection rightToLeft\n}").diagnostics.map(\.code), [.layoutOnlySetting, .layoutOnlySetting])
        // One bit a property: the duplicate-setting warning tells them apart.
        XCTAssertEqual(Set(Property.allCases.map(\.bit)).count, Property.allCases.count)
        XCTAssertEqual(SettingTable.propertyMasks[SettingTable.all.firstIndex { $0.name == "spacing" }!],
                       Property.rowSpacing.bit | Property.columnSpacing.bit)
    }

    func testConditionalIsRightAssociative() {
        XCTAssertEqual(outline("height i == 0 ? 1 : i == 1 ? 2 : 3"), """
            setting height
              conditional
                binary ==
                  name i
                  number 0
                number 1
                conditional
                  binary ==
                    name i
                    number 1
                  number 2
                  number 3
            """)
    }

    func testArgumentsAreReadAsFarAsTheyGo() {
        // One argument, as the warning says (docs/language.md, "Settings").
        XCTAssertEqual(outline("spacing 10 - 5"), "setting spacing\n  binary -\n    number 10\n    number 5")
        XCTAssertEqual(parse("spacing 10 -5").diagnostics.map(\.code), [.spacedMinus])
        XCTAssertEqual(parse("spacing 10 -5").tree.statements.count, 1)
        if case .setting(let s)? = parse("spacing 10 -5").tree.statements.first?.kind { XCTAssertEqual(s.arguments.count, 1) } else { XCTFail() }
        XCTAssertEqual(outline("spacing 10 (-5)"), "setting spacing\n  number 10\n  unary -\n    number 5")
        XCTAssertEqual(outline("let pad = 4\ninsets pad (pad * 2)").split(separator: "\n").dropFirst(2).joined(separator: "\n"), """
            setting insets
              name pad
              binary *
                name pad
                number 2
            """)
    }

    func testSettingShapes() {
        XCTAssertEqual(outline("container 375x812"), "setting container\n  size\n    number 375\n    number 812")
        XCTAssertEqual(outline("columns adaptive(150)"), "setting columns\n  adaptive\n    number 150")
        XCTAssertEqual(outline("insets top 10 left -4"), """
            setting insets
              side top
                number 10
              side left
                unary -
                  number 4
            """)
        XCTAssertEqual(outline("order leftToRight"), "setting order\n  word leftToRight")
        XCTAssertEqual(outline("size w x w * 1.5"), "setting size\n  size\n    name w\n    binary *\n      name w\n      number 1.5")
        XCTAssertEqual(outline("insets 1 2 3 4").split(separator: "\n").count, 5)
    }

    func testListsCallsAndIndexing() {
        XCTAssertEqual(outline("let hs = [\n  100,\n  150,\n]\nheight hs[i % len(hs)]").split(separator: "\n").count, 11)
        XCTAssertEqual(outline("height max(1, 2,)"), "setting height\n  call max\n    number 1\n    number 2")
        XCTAssertEqual(outline("let m = [[1, 2], [3]]\nheight m[0][1]").split(separator: "\n").suffix(6).joined(separator: "\n"), """
            setting height
              index
                index
                  name m
                  number 0
                number 1
            """)
    }

    func testStatementsEndAtSemicolonsAndBraces() {
        XCTAssertEqual(outline("section { items 3; height 10 }\nsection a { }"), """
            section
              setting items
                number 3
              setting height
                number 10
            section a
            """)
    }

    /// A block header whose `{` was left out, where a later `}` that nothing else opens closes
    /// it: one error at the header, and the lines after it are read as its body (their own
    /// mistakes reported). Without such a `}`, the header alone is the error.
    func testBlockWithItsOpenBraceLeftOut() {
        XCTAssertEqual(errors("section\n  items 3\n}"), ["expected '{' after 'section', found the end of the line"])
        XCTAssertEqual(outline("section\n  items 3\n}\nsection { }", errors: ["expected '{' after 'section', found the end of the line"]), """
            section
              setting items
                number 3
            section
            """)
        XCTAssertEqual(errors("layout a {\n  section\n    items 3 3\n  }\n}"),
                       ["expected '{' after 'section', found the end of the line", "'items' takes one value"])
        // The `}` is the layout's: the section's header is the only error, its lines the layout's.
        XCTAssertEqual(errors("layout a {\n  section\n    items 3\n}"), ["expected '{' after 'section', found the end of the line"])
        XCTAssertEqual(outline("layout a {\n  section\n    items 3\n}", errors: ["expected '{' after 'section', found the end of the line"]), """
            layout a
              setting items
                number 3
            """)
    }

    func testLetScopes() {
        XCTAssertEqual(errors("section {\n  let a = 1\n}\nheight a"), ["unknown name 'a'"])
        XCTAssertEqual(errors("height a\nlet a = 1"), ["unknown name 'a'"])
        XCTAssertEqual(errors("let f(n) = n <= 1 ? 1 : n * f(n - 1)\nheight f(3)"), [])
        XCTAssertEqual(errors("let f(a, b) = a + b\nheight f(1)"), ["'f' takes 2 arguments, not 1"])
        XCTAssertEqual(errors("let r = r + 1"), ["unknown name 'r'"])
        XCTAssertEqual(errors("let tall = i % 3 == 0\nheight tall ? 200 : 100"), [])
        XCTAssertEqual(errors("let g(a, a) = a"), ["the parameter 'a' is named twice"])
        // A name in parentheses is resolved once, and is the callee of a call that follows.
        XCTAssertEqual(errors("height (zz)"), ["unknown name 'zz'"])
        XCTAssertEqual(errors("let v = 1\nheight (v)(2)"), ["'v' is a value, not a function"])
    }

    func testOneErrorPerMistake() {
        XCTAssertEqual(errors("colums 3\nitems 4\nspacing 1.2.3\nstyle flw"),
                       ["unknown setting 'colums'", "invalid number '1.2.3'", "'flw' is not a value of 'style'"])
        XCTAssertEqual(errors("height ((1)\nitems 2"), ["')' expected to close '(' at line 1"])
        XCTAssertEqual(errors("let a = [1,\n2\nitems 3\n"), ["']' expected to close '[' at line 1"])
        XCTAssertEqual(errors("section {\n  items 2\n"), ["'}' expected to close '{' at line 1"])
        XCTAssertTrue(parse("section {\n  items 2\n").incomplete)
        XCTAssertTrue(parse("let a = (1 +\n").incomplete)
        XCTAssertFalse(parse("let a = 1 +\n").incomplete)
    }

    func testPlacementRules() {
        XCTAssertEqual(errors("layout a { section { section { } } }"), ["sections cannot be nested"])
        XCTAssertEqual(errors("section { layout a { } }"), ["'layout' cannot stand inside a section"])
        XCTAssertEqual(errors("layout a { layout b { } }"), ["'layout' cannot stand inside a layout"])
        XCTAssertEqual(errors("section { seed 3 }"), ["'seed' applies to a whole layout and cannot be set in a section"])
        XCTAssertEqual(errors("layout { }"), ["a layout needs a name"])
    }

    func testWarnings() {
        let r = parse("columns 2\nsize 10 x 10\nheight 4\nlet a = 1\nlet a = 2\n")
        XCTAssertEqual(r.diagnostics.map(\.severity), [.warning, .warning])
        XCTAssertEqual(r.diagnostics.map(\.message), ["'height' sets what 'size' already set in this block; the later one wins",
                                                      "'a' is defined again in this block"])
        XCTAssertEqual(parse("insets 10\nsection { insets left 0 }\ninsets top 2").diagnostics.count, 1)
    }

    /// Sections named alike (in a layout at the top level, or at the top level) and `attach`
    /// blocks named alike (in a block reached through layouts and sections only) are checked as
    /// the blocks are read, no longer by a walk over the finished tree: the same warnings, where
    /// they were, in source order; and across a resumed parse (the REPL's appended entries).
    /// `parseStatement` reads a word that names a setting as a setting before it tests the words
    /// that open other statements: no setting may be named as one of them.
    func testNoSettingIsNamedAsAStatementWord() {
        for w in BlockWord.allCases {
            XCTAssertNil(SettingTable.info(w.word), "'\(w.word)' is a setting and a statement word")
        }
    }

    func testNamesAlikeAreCheckedWhereTheyStand() {
        func warnings(_ text: String) -> [String] {
            let source = SourceFile(name: "t.wfl", text: text)
            return parse(text).diagnostics.filter { $0.severity == .warning }
                .map { "\(source.position(of: $0.span.start).line) \($0.code.rawValue) \($0.notes.count)" }
        }
        let file = """
            attach dot { size 4 x 4 }
            attach dot { size 5 x 5 }
            section a { attach b { size 1 x 1 }; attach b { size 2 x 2 } }
            section a { }
            section c { section d { attach e { size 1 x 1 }; attach e { size 1 x 1 } } }
            layout l {
              attach dot { size 1 x 1 }
              section a { }
              section a { }
              section m { attach f { size 1 x 1 } }
              section n { attach f { size 1 x 1 } }
              layout k { section a { }; section a { }; attach g { size 1 x 1 }; attach g { size 1 x 1 } }
            }
            layout l2 { section a { }; update { attach h { size 1 x 1 }; attach h { size 1 x 1 } } }
            """
        XCTAssertEqual(warnings(file), [
            "2 W0403 1",
            "3 W0403 1",
            "4 W0201 1",
            "5 W0403 1",
            "9 W0201 1",
            "12 W0403 1",
        ])
        // Resumed: the names of the top level so far are remembered, a statement's own are new.
        let first = "section a { }\nattach dot { size 1 x 1 }\n"
        let (_, parser) = Parser.parseResumable(SourceFile(name: "t.wfl", text: first))
        let more = first + "section a { attach x { size 1 x 1 }; attach x { size 1 x 1 } }\nattach dot { size 2 x 2 }\nsection b { }\n"
        let (resumed, _) = parser.resume(SourceFile(name: "t.wfl", text: more), from: first.utf8.count)
        XCTAssertEqual(resumed.diagnostics.map(\.code.rawValue), ["W0201", "W0403", "W0403"])
        let lines = resumed.diagnostics.map { SourceFile(name: "t.wfl", text: more).position(of: $0.span.start).line }
        XCTAssertEqual(lines, [3, 3, 4])
    }

    func testLongChainIsOneNode() {
        let terms = 100_000
        let text = "let a = " + Array(repeating: "1", count: terms).joined(separator: " + ")
        let r = parse(text)
        XCTAssertEqual(r.diagnostics, [])
        guard case .let(let decl) = r.tree.statements[0].kind, case .binary(let chain) = decl.value, case let rest = chain.operands else {
            return XCTFail("not a binary chain")
        }
        XCTAssertEqual(rest.count, terms - 1)
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let depth = 100_000
        let text = "let a = " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth) + "\nitems 2"
        XCTAssertEqual(errors(text), ["expression nested too deeply: more than 256 levels"])
        let ok = "let a = " + String(repeating: "(", count: 256) + "1" + String(repeating: ")", count: 256)
        XCTAssertEqual(errors(ok), [])
        let tooDeep = "let a = " + String(repeating: "(", count: 257) + "1" + String(repeating: ")", count: 257)
        XCTAssertEqual(errors(tooDeep), ["expression nested too deeply: more than 256 levels"])
    }

    /// `parseExpr` reads a lone number or name without the operator machinery: the tree and the
    /// diagnostics must be those of the general path, for every sample and fixture and for lone
    /// operands in every position an expression stands in.
    func testShortPathIsTheGeneralPath() throws {
        var sources: [SourceFile] = []
        for folder in ["samples", "Tests/Fixtures/diagnostics", "Tests/Fixtures/evaluation", "Tests/Fixtures/fmt"] {
            for url in Golden.inputs(folder) { sources.append(try Golden.source(url)) }
        }
        let operands = ["7", "1_000", "2.5e3", "i", "w", "full", "heights", "nope", "x", "f", "true", "\"s\""]
        for (k, a) in operands.enumerated() {
            let b = operands[(k + 5) % operands.count]
            sources.append(SourceFile(name: "lone\(k).wfl", text: """
                let heights = [1, 2]
                let f(q) = q
                columns \(a)
                spacing \(a) \(b)
                insets \(a) \(b) (\(a)) \(b)
                items \(a)
                height \(a)
                size \(a) x \(b)
                span i == 0 ? \(a) : \(b)
                let v\(k) = \(a)
                expect [\(a), \(b)] == f(\(a)), "lone"
                """))
        }
        XCTAssertGreaterThan(sources.count, 60)
        for source in sources {
            let fast = Parser.parse(source)
            let plain = Parser.parse(source, options: PipelineOptions(parserShortPaths: false))
            XCTAssertEqual(fast.tree, plain.tree, source.name)
            XCTAssertEqual(fast.diagnostics, plain.diagnostics, source.name)
        }
    }

    /// Numbers with an exponent take the parser's exact fast path when they can (up to 15 digits,
    /// a power of ten up to 22) and the general conversion otherwise: either way the value is
    /// Swift's own reading of the digits.
    func testNumbersWithExponentsHaveTheValueOfTheirDigits() {
        let literals = ["1e3", "2.5e-3", "1_000e2", "0e0", "7E+2", "123456789012345e7", "1.25e22", "3e-22",
                        "9e23", "1e-23", "4.5e1_0", "1234567890123456e2", "0.1e1", "1e400", "5e-400", "12.5E-2"]
        for literal in literals {
            let r = parse("let v = \(literal)\n")
            XCTAssertEqual(r.diagnostics, [], literal)
            guard case .let(let decl) = r.tree.statements[0].kind, case .number(let value, _) = decl.value else {
                XCTFail("not a number: \(literal)"); continue
            }
            XCTAssertEqual(value, Double(literal.replacingOccurrences(of: "_", with: "")), literal)
        }
    }
}
