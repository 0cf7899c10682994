import XCTest
@testable import WFL

/// `IncrementalLayout.append`: appending gives exactly the table a full layout of the grown
/// layout gives (frames, sections, content size and the rect index), incrementally or not.
final class AppendTests: XCTestCase {
    /// Layout `a` of `text`, resolved and laid out.
    func laidOut(_ text: String) throws -> IncrementalLayout {
        let source = SourceFile(name: "a.wfl", text: text)
        let parsed = Parser.parse(source)
        XCTAssertFalse(parsed.diagnostics.hasErrors)
        let program = Program(tree: parsed.tree, source: source)
        return try XCTUnwrap(try IncrementalLayout(program: program, layout: "a"))
    }

    func full(_ layout: ResolvedLayout) throws -> AttributeTable {
        var w: [Diagnostic] = []
        return try (layout.style == .waterfall ? Waterfall.layout(layout) : Flow.layout(layout, warnings: &w)).get()
    }

    func check(_ text: String, appends: [Int], section: Int? = nil, incremental: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        var feed = try laidOut(text)
        XCTAssertTrue(feed.isPlain, text, file: file, line: line)
        let s = section ?? feed.layout.sections.count - 1
        for count in appends {
            let before = feed.table.elements.count
            // Whether the incremental path takes it (on a copy).
            if feed.layout.style == .waterfall {
                var copy = feed.table
                var grown = feed.layout
                grown.sections[s].items += count
                XCTAssertEqual(try Waterfall.append(grown, section: s, from: feed.layout.sections[s].items, to: &copy), incremental,
                               "incremental?", file: file, line: line)
            }
            try feed.append(count, toSection: s)
            let table = feed.table
            let expected = try full(feed.layout)
            XCTAssertEqual(table.elements.count, before + count, file: file, line: line)
            XCTAssertEqual(table, expected, "after appending \(count): \(text)", file: file, line: line)
            XCTAssertEqual(table.index, expected.index, file: file, line: line)
            // Queries over the grown table agree with a scan.
            let r = Frame(x: 0, y: table.contentHeight * 0.9, width: table.containerWidth, height: 300)
            XCTAssertEqual(table.query(r), table.elements.indices.filter { table.elements[$0].frame.overlaps(r) }, file: file, line: line)
        }
    }

    func testWaterfallFeedIncremental() throws {
        // Random heights, a header and a footer: the footer moves below the new items.
        try check("""
            layout a {
              columns 3
              spacing 10
              insets 10
              header 44
              footer 30
              items 1000
              height 50 + random(0, 150)
            }
            """, appends: [100, 1, 0, 37, 250], incremental: true)
    }

    func testWaterfallIncrementalFormsAndHorizontal() throws {
        // Fractional lane widths, spans, natural sizes with a scale, a horizontal layout, and a
        // first section before the one that grows.
        try check("""
            layout a {
              container 390 x 844
              columns 4
              spacing 7 3.5
              insets 1 2 3 4.25
              scale 3
              section { items 10; height 33.3 }
              section {
                items 501
                span i % 7 == 0 ? 2 : i % 29 == 0 ? full : 1
                size 100 + random(0, 300) x 90 + random(0, 210)
                footer 12
              }
            }
            """, appends: [100, 3, 64], incremental: true)
        try check("""
            layout a {
              direction horizontal
              rows 5
              spacing 4
              header 20
              items 300
              width [120, 80.5, 200, 151]
            }
            """, appends: [100, 9], incremental: true)
        // An empty section grows from nothing.
        try check("layout a {\n columns 2\n items 0\n height 40\n footer 10\n}\n", appends: [1, 5], incremental: true)
    }

    func testWhatFallsBackToAFullLayout() throws {
        // A rule reading n changes the items already there; a round-robin order; not the last
        // section; a flow layout.
        try check("layout a {\n columns 2\n items 50\n height 10 + n % 7 + i\n}\n", appends: [100], incremental: false)
        try check("layout a {\n columns 3\n order leftToRight\n items 50\n height 10 + random(0, 50)\n}\n", appends: [100, 7], incremental: false)
        try check("layout a {\n columns 2\n section { items 20; height 30 }\n section { items 5; height 40 }\n}\n",
                  appends: [100], section: 0, incremental: false)
        try check("layout a {\n style flow\n spacing 10\n items 40\n size 40 + random(0, 120) x 30 + random(0, 40)\n}\n",
                  appends: [100, 1], incremental: false)
    }

    func testAFailingAppendLeavesTheTable() throws {
        var feed = try laidOut("layout a {\n columns 2\n footer 5\n items 10\n height i < 15 ? 20 : 0 - 1\n}\n")
        let before = feed.table
        XCTAssertThrowsError(try feed.append(10, toSection: 0))
        XCTAssertEqual(feed.table, before)
        XCTAssertEqual(feed.layout.sections[0].items, 10)
        try feed.append(5, toSection: 0)
        XCTAssertEqual(feed.table, try full(feed.layout))
    }

    /// The short path takes only layouts whose every setting and block it knows; the others
    /// (backgrounds, attribute rules, attached views, appear rules, updates, and any setting
    /// added later) are laid out whole, and still give the full layout's table.
    func testOnlyWhatTheShortPathKnowsTakesIt() throws {
        let plain = "layout a {\n columns 3\n header 10\n items 30\n height 20 + i % 5\n}\n"
        XCTAssertTrue(try laidOut(plain).isPlain)
        let others = ["background items", "backgroundInsets 2", "alpha 0.5", "zIndex i % 2", "attach v { size 4 x 4 }",
                      "appear { alpha 0 }", "update { insert 0 }", "zoom 1"]
        for extra in others {
            let text = "layout a {\n columns 3\n header 10\n items 30\n height 20 + i % 5\n \(extra)\n}\n"
            var feed = try laidOut(text)
            XCTAssertFalse(feed.isPlain, extra)
            try feed.append(7, toSection: 0)
            var warnings: [Diagnostic] = []
            XCTAssertEqual(feed.table, try Sections.layout(feed.layout, warnings: &warnings).get(), extra)
        }
    }
}

/// `IncrementalLayout.relayout`: the table `Program.run` gives, built in the old table's storage.
extension AppendTests {
    func testRelayoutGivesTheSameTableInTheSameStorage() throws {
        for text in ["layout a {\n columns 3\n spacing 10\n insets 10\n header 4\n items 5000\n height 50 + random(0, 150)\n}\n",
                     "layout a {\n columns 3\n order rightToLeft\n items 3000\n height [10, 20, 35]\n}\n",
                     "layout a {\n style flow\n spacing 10\n items 4000\n size 40 + random(0, 120) x 30 + random(0, 40)\n}\n"] {
            let feed = try laidOut(text)
            let layout = feed.layout, first = feed.table
            var table = first
            table.elements.reserveCapacity(table.elements.count + 16) // one owner, room for the engine's reserve
            let before = table.elements.withUnsafeBufferPointer { $0.baseAddress }
            var warnings: [Diagnostic] = []
            try IncrementalLayout.relayout(layout, into: &table, warnings: &warnings)
            XCTAssertEqual(table, first, text)
            XCTAssertEqual(table.elements.withUnsafeBufferPointer { $0.baseAddress }, before, "the storage is reused")
            // A different layout in the same storage.
            var other = layout
            other.sections[0].items = 17
            try IncrementalLayout.relayout(other, into: &table, warnings: &warnings)
            XCTAssertEqual(table, try full(other))
        }
    }
}

/// Backgrounds and attached views are written in place (Decorations.rebuild): the engine's cells
/// move up in the table's own storage, and a layout laid out again copies no cell into a new array.
extension AppendTests {
    /// Decorated layouts and their plain twins (the same text without the decoration lines).
    static let decorated: [(plain: String, decorations: String)] = [
        ("layout a {\n container 300 x 500\n columns 2\n spacing 10\n header 40\n footer 20\n insets 10\n"
         + " section { items 30; height 50 + random(0, 40) }\n section { items 0 }\n section { items 7; height 20 }\n"
         + " section { items 5; height [10, 70] }\n}\n",
         " background cells\n backgroundInsets -4\n attach badge {\n  when i % 3 == 0\n  size 12 x 12\n  offset (vw / 2) x (-vh / 2)\n }\n"
         + " attach dot {\n  when i % 2 == 1\n  size 4 x 4\n }\n"),
        ("layout a {\n container 300 x 500\n columns 3\n order rightToLeft\n layoutDirection rightToLeft\n footer 10\n"
         + " section { items 20; height [10, 20, 35] }\n section { items 9; height 12 }\n}\n",
         " background all\n attach badge {\n  when i % 4 == 1\n  size 8 x 8\n }\n"),
        ("layout a {\n style flow\n container 300 x 500\n spacing 10\n header 30\n"
         + " section { items 40; size 40 + random(0, 120) x 30 }\n section { items 3; size 50 x 50 }\n}\n",
         " background items\n attach tag {\n  size 10 x 10\n }\n"),
    ]

    func testDecorationsAreWrittenInPlace() throws {
        for (plain, decorations) in Self.decorated {
            // The decorations go at the end of the layout block, for every section.
            let text = String(plain.dropLast(2)) + "\n" + decorations + "}\n"
            let feed = try laidOut(text)
            let bare = try laidOut(plain).table
            let first = feed.table
            // The engine's elements, in order, once the backgrounds and views are taken out.
            XCTAssertEqual(first.elements.filter { $0.kind != .background && $0.kind != .attached }, bare.elements, text)
            XCTAssertGreaterThan(first.elements.count, bare.elements.count, text)
            for (s, start) in first.sectionStarts.enumerated() {
                if let b = start.background { XCTAssertEqual(first.elements[b].kind, .background, text) }
                if let h = start.header { XCTAssertEqual(first.elements[h].kind, .header, text) }
                if let f = start.footer { XCTAssertEqual(first.elements[f].kind, .footer, text) }
                for k in start.firstCell..<(start.firstCell + start.cellCount) { XCTAssertEqual(first.elements[k].item, k - start.firstCell, text) }
                for k in start.firstView..<(start.firstView + start.viewCount) {
                    XCTAssertEqual(first.elements[k].kind, .attached, text)
                    XCTAssertEqual(first.elements[k].section, s, text)
                }
            }
            var table = first
            table.elements.reserveCapacity(table.elements.count + 16) // one owner
            let before = table.elements.withUnsafeBufferPointer { $0.baseAddress }
            var warnings: [Diagnostic] = []
            try IncrementalLayout.relayout(feed.layout, into: &table, warnings: &warnings)
            XCTAssertEqual(table, first, text)
            XCTAssertEqual(table.elements.withUnsafeBufferPointer { $0.baseAddress }, before, "the storage is reused: \(text)")
        }
    }
}
