import XCTest
@testable import WFL

/// `style groups` (docs/layout.md, "Groups"): frames computed by hand from the rules.
final class GroupsTests: XCTestCase {
    /// A groups section of 390 x 844, insets 0 15 (so aw = 360), with `body` inside.
    func section(_ body: String, items: Int, extra: String = "") -> String {
        "container 390 x 844\n\(extra)section {\n  style groups\n  insets 0 15\n  items \(items)\n\(body)\n}\n"
    }

    func cells(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [[Double]] {
        guard let t = Eval.table(text, file: file, line: line) else { return [] }
        return Eval.cells(t)
    }

    func assertCells(_ got: [[Double]], _ want: [[Double]], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(got.count, want.count, "\(got)", file: file, line: line)
        for (g, w) in zip(got, want) {
            for (a, b) in zip(g, w) { XCTAssertEqual(a, b, accuracy: 0.001, "\(got)", file: file, line: line) }
        }
    }

    /// The worked example: a large item beside a vertical pair, repeating with groupSpacing 10.
    func testLargeBesideAPair() throws {
        let text = section("""
            groupSpacing 10
            group horizontal gw x 200 {
              item gw * 2/3 x gh { insets 4 }
              group vertical gw / 3 x gh {
                item gw x gh / 2 { insets 4 }
              }
            }
            """, items: 5)
        let t = try XCTUnwrap(Eval.table(text))
        assertCells(Eval.cells(t), [[19, 4, 232, 192], [259, 4, 112, 92], [259, 104, 112, 92], [19, 214, 232, 192], [259, 214, 112, 92]])
        // A partly filled last instance keeps its full size: the content ends at 210 + 200.
        XCTAssertEqual(t.contentHeight, 410)
    }

    /// The fit test: a child ending exactly at the box fits, 1e-6 past it too, 2e-6 past it not.
    func testFitEdge() {
        // 3 x 120 = 360: three fit exactly.
        XCTAssertEqual(cells(section("group horizontal gw x 50 {\n item 120 x gh\n}", items: 4)).map { $0[0] }, [15, 135, 255, 15])
        // 3 x (120 + 1e-6 / 3) ends 1e-6 past 360: still three.
        XCTAssertEqual(cells(section("group horizontal gw x 50 {\n item 120 + 0.000001 / 3 x gh\n}", items: 4)).map { $0[1] }, [0, 0, 0, 50])
        // 2e-6 past: two.
        XCTAssertEqual(cells(section("group horizontal gw x 50 {\n item 120 + 0.000002 / 3 x gh\n}", items: 4)).map { $0[1] }, [0, 0, 0, 50].enumerated().map { $0.offset < 2 ? 0 : 50 })
    }

    /// Flexible spacing: three 80s with flexible(20) spread to 15, 155, 295; with flexible(10)
    /// four fit; one child alone stays at the start.
    func testFlexibleSpacing() {
        assertCells(cells(section("group horizontal gw x 60 {\n itemSpacing flexible(20)\n item 80 x gh\n}", items: 3)),
                    [[15, 0, 80, 60], [155, 0, 80, 60], [295, 0, 80, 60]])
        assertCells(cells(section("group horizontal gw x 60 {\n itemSpacing flexible(10)\n item 80 x gh\n}", items: 4)),
                    [[15, 0, 80, 60], [108.333333, 0, 80, 60], [201.666667, 0, 80, 60], [295, 0, 80, 60]])
        assertCells(cells(section("group horizontal gw x 60 {\n itemSpacing flexible(10)\n item 300 x gh\n}", items: 1)),
                    [[15, 0, 300, 60]])
    }

    /// `count 3` with itemSpacing 10: slots of 113.333 at 15, 138.333, 261.667; with a nested
    /// vertical group in each copy, its items at the copy's x.
    func testCountWithNesting() {
        assertCells(cells(section("group horizontal gw x 60 count 3 {\n itemSpacing 10\n item 50 x gh\n}", items: 3)),
                    [[15, 0, 113.333333, 60], [138.333333, 0, 113.333333, 60], [261.666667, 0, 113.333333, 60]])
        // Each copy (170 wide: (360 - 20) / 2) is a vertical group of two 170 x 50 items.
        assertCells(cells(section("group horizontal gw x 100 count 2 {\n itemSpacing 20\n group vertical 10 x gh {\n  item gw x gh / 2\n }\n}", items: 4)),
                    [[15, 0, 170, 50], [15, 50, 170, 50], [205, 0, 170, 50], [205, 50, 170, 50]])
    }

    /// A custom group: frames by k, lists cycling, relative to the content box.
    func testCustomFrames() {
        let text = section("group custom gw x 100 count 3 {\n insets 10\n frame [0, gw / 2] (k * 30) 40 [20, 30]\n}", items: 4)
        // Box (25, 10, 340, 80): x 0, 170, 0; y 0, 30, 60; w 40; h 20, 30, 20.
        assertCells(cells(text), [[25, 10, 40, 20], [195, 40, 40, 30], [25, 70, 40, 20], [25, 110, 40, 20]])
    }

    /// Insets of nested groups add up; the cell is the slot shrunk by the item's insets.
    func testNestedInsets() {
        let text = section("group vertical gw x 100 {\n insets 5\n group horizontal gw x gh {\n  insets 10 20\n  item gw / 2 x gh { insets 1 2 3 4 }\n }\n}", items: 2)
        // Outer box (20, 5, 350, 90); inner group 350 x 90 at (20, 5), box (40, 15, 310, 70);
        // items 155 x 70 at 40 and 195; cells shrunk by (1, 2, 3, 4).
        assertCells(cells(text), [[42, 16, 149, 66], [197, 16, 149, 66]])
    }

    /// Horizontal layouts repeat the top group along x, at ins.top across.
    func testHorizontal() {
        let text = "container 300 x 200\ndirection horizontal\nsection {\n style groups\n insets 10\n groupSpacing 5\n items 3\n group vertical 100 x gh {\n  item gw x gh / 2\n }\n}\n"
        let t = Eval.table(text)!
        assertCells(Eval.cells(t), [[10, 10, 100, 90], [10, 100, 100, 90], [115, 10, 100, 90]])
        XCTAssertEqual(t.contentWidth, 10 + 105 + 100 + 10)
    }

    /// Right to left: the mirrored frames.
    func testRightToLeft() {
        let body = "group horizontal gw x 50 {\n item gw / 3 x gh\n}"
        let ltr = cells(section(body, items: 4))
        let rtl = cells(section(body, items: 4, extra: "layoutDirection rightToLeft\n"))
        XCTAssertEqual(rtl.count, ltr.count)
        for (a, b) in zip(ltr, rtl) {
            XCTAssertEqual(b[0], 390 - a[0] - a[2], accuracy: 1e-9)
            XCTAssertEqual(Array(b[1...]), Array(a[1...]))
        }
    }

    /// One horizontal group of N items (gw - (N - 1) s) / N wide with itemSpacing s, gh tall,
    /// equals the waterfall of N equal columns with that height and columnSpacing s, rowSpacing
    /// the groupSpacing.
    func testPropertyAWaterfallOfEqualColumns() {
        for (N, s, h, gs) in [(2, 10.0, 100.0, 10.0), (3, 7.5, 44.0, 0.0), (5, 0.0, 12.5, 3.0), (1, 4.0, 30.0, 8.0)] {
            for n in [0, 1, N, N + 1, 3 * N + 2] {
                let groups = "container 390 x 844\nsection {\n style groups\n insets 5 15\n groupSpacing \(gs)\n items \(n)\n group horizontal gw x \(h) {\n  itemSpacing \(s)\n  item (gw - \(N - 1) * \(s)) / \(N) x gh\n }\n}\n"
                let waterfall = "container 390 x 844\nsection {\n insets 5 15\n columns \(N)\n columnSpacing \(s)\n rowSpacing \(gs)\n order leftToRight\n items \(n)\n height \(h)\n}\n"
                let a = Eval.table(groups)!, b = Eval.table(waterfall)!
                assertCells(Eval.cells(a), Eval.cells(b))
                XCTAssertEqual(a.contentHeight, b.contentHeight, accuracy: 1e-9, "N \(N) n \(n)")
            }
        }
    }

    /// Headers, footers and backgrounds stand around a groups section as around any other.
    func testHeaderFooterBackground() throws {
        let text = "container 390 x 844\nsection {\n style groups\n header 40\n footer 20\n background cells\n items 3\n group horizontal gw x 50 {\n  item gw / 2 x gh\n }\n}\n"
        let t = try XCTUnwrap(Eval.table(text))
        XCTAssertEqual(Eval.cells(t), [[0, 40, 195, 50], [195, 40, 195, 50], [0, 90, 195, 50]])
        XCTAssertEqual(t.contentHeight, 40 + 100 + 20)
        XCTAssertTrue(t.elements.contains { $0.kind == .background && Eval.rect($0) == [0, 40, 390, 100] })
    }

    /// The errors of the tree, each with its code.
    func testErrors() {
        func code(_ body: String, extra: String = "") -> [DiagnosticCode] {
            let source = SourceFile(name: "t.wfl", text: "container 390 x 844\n\(extra)section {\n style groups\n items 3\n\(body)\n}\n")
            let parsed = Parser.parse(source)
            if parsed.diagnostics.hasErrors { return parsed.diagnostics.filter { $0.severity == .error }.map(\.code) }
            let program = Program(tree: parsed.tree, source: source)
            return program.evaluate().diagnostics.filter { $0.severity == .error }.map(\.code)
        }
        XCTAssertEqual(code(""), [.missingGroup])
        XCTAssertEqual(code("group horizontal gw x 10 { item 1 x 1 }\ngroup vertical gw x 10 { item 1 x 1 }"), [.secondGroup])
        XCTAssertEqual(code("group horizontal gw x 10 {\n}"), [.groupWithoutChildren])
        XCTAssertEqual(code("group horizontal gw x 10 count 2 {\n item 1 x 1\n item 2 x 2\n}"), [.countWithSeveralChildren])
        XCTAssertEqual(code("group custom gw x 10 {\n frame 0 0 1 1\n}"), [.badCustomGroup])
        XCTAssertEqual(code("group custom gw x 10 count 2 {\n item 1 x 1\n}"), [.badCustomGroup])
        XCTAssertEqual(code("group horizontal gw x 10 {\n frame 0 0 1 1\n item 1 x 1\n}"), [.unknownSetting])
        XCTAssertEqual(code("itemSpacing 3\ngroup horizontal gw x 10 {\n item 1 x 1\n}"), [.unknownSetting])
        XCTAssertEqual(code("group horizontal gw x -1 {\n item 1 x 1\n}"), [.badGroupSize])
        XCTAssertEqual(code("group horizontal gw x 10 count 1.5 {\n item 1 x 1\n}"), [.badGroupCount])
        XCTAssertEqual(code("group horizontal gw x 10 {\n insets 0 200\n item 1 x 1\n}"), [.groupNoRoom])
        XCTAssertEqual(code("group horizontal gw x 10 {\n item gw + 1 x 1\n}"), [.childTooLong])
        XCTAssertEqual(code("group horizontal gw x 10 {\n item random(1, 3) x 1\n}"), [.randomInGroup])
        XCTAssertEqual(code("group horizontal gw x 10 {\n item 0 x 1\n}"), [.tooManyLeaves])
        XCTAssertEqual(code("group horizontal [1, 2] x 10 {\n item 1 x 1\n}"), [.listInGroupSize])
        XCTAssertEqual(code("group diagonal gw x 10 {\n item 1 x 1\n}"), [.badGroupKind])
        XCTAssertEqual(code("item 1 x 1"), [.itemOutsideGroup])
        XCTAssertEqual(code("group horizontal gw x 10 {\n columns 2\n item 1 x 1\n}"), [.notInGroup])
        XCTAssertEqual(code("size 10 x 10\ngroup horizontal gw x 10 {\n item 1 x 1\n}"), [.unusedSetting])
        XCTAssertEqual(code("rowSpacing 3\ngroup horizontal gw x 10 {\n item 1 x 1\n}"), [.unusedSetting])
        // 33 levels: an error; 32: fine.
        func nested(_ levels: Int) -> String {
            String(repeating: "group vertical gw x gh {\n", count: levels) + "item 1 x 1\n" + String(repeating: "}\n", count: levels)
        }
        XCTAssertEqual(code(nested(32)), [])
        XCTAssertEqual(code(nested(33)), [.groupsTooDeep])
        // A group in a waterfall section.
        let source = SourceFile(name: "t.wfl", text: "section {\n items 1\n height 10\n group horizontal gw x 10 { item 1 x 1 }\n}\n")
        let program = Program(tree: Parser.parse(source).tree, source: source)
        XCTAssertEqual(program.evaluate().diagnostics.map(\.code), [.misplacedGroup])
    }

    /// `groupSpacing` is a spacing, so it may be negative: the instances overlap, in the stacker's
    /// path (beside a waterfall) and the whole-layout path alike, and in a shelf of groups; a
    /// section that would end before it starts is the no-room error at the spacing.
    func testNegativeGroupSpacing() throws {
        // H 100, groupSpacing -10: instances at y 0, 90, 180; the content ends at 180 + 100.
        let group = "groupSpacing -10\ngroup horizontal gw x 100 {\n item gw / 2 x gh\n}"
        let whole = try XCTUnwrap(Eval.table(section(group, items: 5)))
        XCTAssertEqual(Eval.cells(whole), [[15, 0, 180, 100], [195, 0, 180, 100], [15, 90, 180, 100], [195, 90, 180, 100], [15, 180, 180, 100]])
        XCTAssertEqual(whole.contentHeight, 280)
        let stacked = try XCTUnwrap(Eval.table(section(group, items: 5) + "section {\n items 1\n height 20\n columns 1\n}\n"))
        XCTAssertEqual(Eval.cells(stacked), Eval.cells(whole) + [[0, 280, 390, 20]])
        // A shelf of groups: instances at x 15, 15 + 300 - 20, ...; the band ends at 575 + 300 + 15.
        let shelf = try XCTUnwrap(Eval.table("container 390 x 844\nsection {\n style shelf\n insets 0 15\n groupSpacing -20\n items 3\n group vertical 300 x 50 {\n  item gw x gh\n }\n}\n"))
        XCTAssertEqual(Eval.cells(shelf).map { $0[0] }, [15, 295, 575])
        XCTAssertEqual(shelf.scroll.shelves.first?.width, 890)
        // H 100, groupSpacing -250, one leaf: the third instance starts at -300 and ends at -200,
        // before the items' start: no room, at 'groupSpacing', in both paths.
        func codes(_ text: String) -> [DiagnosticCode] {
            let source = SourceFile(name: "t.wfl", text: text)
            return Program(tree: Parser.parse(source).tree, source: source).evaluate().diagnostics.filter { $0.severity == .error }.map(\.code)
        }
        let far = "groupSpacing -250\ngroup horizontal gw x 100 {\n item gw x gh\n}"
        XCTAssertEqual(codes(section(far, items: 3)), [.noRoom])
        XCTAssertEqual(codes(section(far, items: 3) + "section {\n items 1\n}\n"), [.noRoom])
        // Ending exactly where they start (-200 twice, then 100) is fine, as for a flow's lines.
        XCTAssertEqual(codes(section("groupSpacing -150\ngroup horizontal gw x 100 {\n item gw x gh\n}", items: 3)), [])
    }

    /// A shelf of groups: instances side by side at ins.left + g * (W + groupSpacing), the band as
    /// tall as the group; shelfSnap over the instances for each paging.
    func testShelfOfGroups() throws {
        func shelf(_ paging: String, items: Int = 7) -> String {
            "container 390 x 844\nsection {\n style shelf\n paging \(paging)\n insets 0 15\n groupSpacing 10\n items \(items)\n group vertical 300 x 200 {\n  item gw x gh / 2 { insets 2 }\n }\n}\nsection {\n items 1\n height 50\n}\n"
        }
        let t = try XCTUnwrap(Eval.table(shelf("continuous")))
        // Instances at x 15, 325, 635, 945; the band ends at 945 + 300 + 15 = 1260.
        XCTAssertEqual(Eval.cells(t).prefix(7), [[17, 2, 296, 96], [17, 102, 296, 96], [327, 2, 296, 96], [327, 102, 296, 96],
                                                  [637, 2, 296, 96], [637, 102, 296, 96], [947, 2, 296, 96]])
        // Section 1 starts under the band (200) plus its rowSpacing-free insets.
        XCTAssertEqual(Eval.cells(t).last?[1], 200)
        let band = try XCTUnwrap(t.scroll.shelves.first)
        XCTAssertEqual(band.width, 1260)
        XCTAssertEqual(band.columnX, [15, 325, 635, 945])
        // groupPaging: b = x - 15 = 0, 310, 620, 930 (maxX 870); groupPagingCentered: g = x - 45.
        XCTAssertEqual(Shelf.snap(band, 200, containerWidth: 390), 200)
        let grouped = try XCTUnwrap(Eval.table(shelf("groupPaging")).flatMap { $0.scroll.shelves.first })
        XCTAssertEqual(Shelf.snap(grouped, 200, containerWidth: 390), 310)
        XCTAssertEqual(Shelf.snap(grouped, 1000, containerWidth: 390), 870)
        let centered = try XCTUnwrap(Eval.table(shelf("groupPagingCentered")).flatMap { $0.scroll.shelves.first })
        XCTAssertEqual(Shelf.snap(centered, 200, containerWidth: 390), 280)
        XCTAssertEqual(Shelf.snap(centered, 100, containerWidth: 390), 0)
        let paged = try XCTUnwrap(Eval.table(shelf("paging")).flatMap { $0.scroll.shelves.first })
        XCTAssertEqual(Shelf.snap(paged, 200, containerWidth: 390), 390)
        // Empty: no band width, no height.
        let empty = try XCTUnwrap(Eval.table(shelf("continuous", items: 0)))
        XCTAssertEqual(empty.scroll.shelves.first?.width, 0)
        XCTAssertEqual(Eval.cells(empty).first?[1], 0)
    }

    /// A shelf with a group refuses `size`, `rows`, `align` and the plain spacings.
    func testShelfOfGroupsErrors() {
        for setting in ["size 10 x 10", "rows 2", "align start", "rowSpacing 4", "spacing 4"] {
            let text = "section {\n style shelf\n \(setting)\n items 2\n group vertical 100 x 100 {\n  item gw x 50\n }\n}\n"
            let source = SourceFile(name: "t.wfl", text: text)
            let program = Program(tree: Parser.parse(source).tree, source: source)
            XCTAssertEqual(program.evaluate().diagnostics.map(\.code), [.shelfGroupConflict], setting)
        }
    }

    /// The whole-layout path (`GroupsEngine.layout`: templates, leaf boxes as written, an older
    /// table's storage) gives the stacker's table, index included, in both directions, with
    /// headers, footers, empty and partly filled sections; and laid out again into a longer
    /// older table it gives the same.
    func testWholePathIsTheStackersTable() throws {
        for direction in ["", "direction horizontal\n"] {
            var text = "container 390 x 844\n\(direction)style groups\ninsets 8 15\ngroupSpacing 12\nheader 30\nfooter 20\n"
            for (k, items) in [7, 0, 1, 13, 2].enumerated() {
                text += "section s\(k) {\n items \(items)\n group \(k % 2 == 0 ? "vertical" : "horizontal") 200 x 200 {\n"
                    + "  itemSpacing 5\n  item gw / 3 x gh / 2 { insets 2 }\n  group vertical gw / 3 x gh / 2 count 2 { item 1 x gh }\n }\n}\n"
            }
            let source = SourceFile(name: "t.wfl", text: text)
            let parsed = Parser.parse(source)
            XCTAssertFalse(parsed.diagnostics.hasErrors, "\(parsed.diagnostics)")
            let program = Program(tree: parsed.tree, source: source)
            guard case .success(let layout)? = program.resolve(layoutNamed: "t") else { return XCTFail("does not resolve") }
            var warnings: [Diagnostic] = []
            let stacked = try Sections.stacked(layout, warnings: &warnings)
            guard case .success(let whole) = Sections.layout(layout, warnings: &warnings) else { return XCTFail("fails") }
            XCTAssertEqual(whole, stacked, direction)
            XCTAssertEqual(whole.index, RectIndex(whole.elements), "the leaf boxes made as written are the index's")
            XCTAssertEqual(whole.elements.count, 23 + 5 + 5, "23 cells, 5 headers, 5 footers")
            // Again, into the storage of a longer table (cut to size).
            var again = try XCTUnwrap(Eval.table("container 390 x 844\nitems 100\nheight 10\n"))
            try IncrementalLayout.relayout(layout, into: &again, warnings: &warnings)
            XCTAssertEqual(again, stacked, direction)
        }
    }

    /// The REPL reads a group block typed line by line as one entry, inside its section.
    func testTheReplTakesAGroupTypedInParts() throws {
        let session = Session(name: "t")
        var reader = EntryReader()
        var entries = 0
        for line in ["container 390 x 844", "section {", "  style groups", "  items 3", "  group horizontal gw x 100 {",
                     "    itemSpacing 10", "    item (gw - 10) / 2 x gh", "  }", "}"] {
            guard let entry = reader.add(line, to: session) else { continue }
            entries += 1
            let reply = session.enter(entry)
            XCTAssertFalse(reply.failed, "'\(entry)': \(reply.diagnostics)")
        }
        XCTAssertEqual(entries, 2)
        XCTAssertNil(reader.rest())
        let shown = try session.tablesAtRest()
        XCTAssertEqual(shown.first.map(Eval.cells), [[0, 0, 190, 100], [200, 0, 190, 100], [0, 100, 190, 100]])
    }
}
