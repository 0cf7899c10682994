import XCTest
@testable import WFL

/// Numbers that must stay numbers (docs/layout.md, "Numbers that stay numbers"): a frame that
/// would come out NaN or infinite is an error naming the element and the setting, never a table;
/// a section never ends before it starts; zero room is no room.
final class FiniteNumbersTests: XCTestCase {
    /// Every frame, content size and (with updates) transition frame of `c`, when it has no
    /// errors: all must be finite.
    static func nonFinite(_ c: Compilation) -> String? {
        func check(_ t: AttributeTable, _ what: String) -> String? {
            if !t.contentWidth.isFinite || !t.contentHeight.isFinite { return "\(what): content \(t.contentWidth) x \(t.contentHeight)" }
            for e in t.elements where !Self.finite(e.frame) { return "\(what): \(e.kind) \(e.section) \(e.item ?? -1) \(e.frame)" }
            return nil
        }
        for (k, t) in c.tables.enumerated() {
            if let bad = check(t, "table \(k)") { return bad }
            let shown = t.at(.zero)
            if shown.rules.attributeFailure == nil, let bad = check(shown, "table \(k) at (0, 0)") { return bad }
        }
        for (k, t) in c.layouts.map(\.after).enumerated() {
            if let bad = check(t, "table after \(k)") { return bad }
        }
        if let tables = try? c.transitionTables() {
            for t in tables {
                for tr in t.transitions {
                    for f in [tr.from.frame, tr.to.frame] where !Self.finite(f) { return "transition \(f)" }
                }
            }
        }
        return nil
    }

    static func finite(_ f: Frame) -> Bool { f.x.isFinite && f.y.isFinite && f.width.isFinite && f.height.isFinite }

    /// The codes of the errors of `text`.
    static func codes(_ text: String) -> [DiagnosticCode] {
        Pipeline.run(SourceFile(name: "t.wfl", text: text)).diagnostics.filter { $0.severity == .error }.map(\.code)
    }

    /// The routes that printed NaN or Infinity with exit 0: each is now an error.
    func testTheRoutesFoundAreErrors() {
        let routes: [(String, DiagnosticCode, String)] = [
            ("items 3\nattach b { offset (1e308 * 10 * 0) x 0 }\n", .badAttribute, "the x of the offset of 'attach b' of item 0 of section 0 is NaN"),
            ("items 3\nbackground items\nbackgroundInsets left (-1.7e308) right (-1.7e308)\n", .positionOverflow, "the background of section 0 comes out with width Infinity: 'backgroundInsets'"),
            ("style flow\nitems 5\ncolumnSpacing (-1.7e308)\n", .positionOverflow, "item 2 of section 0 comes out with x -Infinity: 'columnSpacing' -1.7e+308"),
            ("direction horizontal\nstyle flow\nitems 5\nrowSpacing (-1.7e308)\n", .positionOverflow, "'rowSpacing' -1.7e+308"),
            ("items 5\ncolumns 1\nrowSpacing (-1.7e308)\n", .positionOverflow, "item 2 of section 0 comes out with y -Infinity: 'rowSpacing' -1.7e+308"),
            ("items 5\ncolumns 3\ncolumnSpacing (-1.7e308)\n", .positionOverflow, "the lanes of section 0 come out Infinity wide"),
            ("direction horizontal\nlayoutDirection rightToLeft\nrows 1\nitems 1\nwidth 1.5e308\nattach b { size 10 x 10; anchor topLeft; offset (-1.7e308) x 0 }\n",
             .positionOverflow, "view 'b' of item 0 of section 0 comes out with x Infinity (mirrored right to left)"),
            ("items 3\ncolumns 1\nscale 1.7e308\n", .positionOverflow, "the lanes of section 0 come out Infinity wide"),
        ]
        for (text, code, words) in routes {
            let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
            let errors = c.diagnostics.filter { $0.severity == .error }
            XCTAssertEqual(errors.map(\.code), [code], text)
            XCTAssertTrue(errors.first?.message.contains(words) ?? false, "\(text): \(errors.map(\.message))")
            XCTAssertNil(Self.nonFinite(c), text)
        }
    }

    /// `appear` and `disappear` offsets that move a frame past the doubles: an error of the
    /// transitions naming the rule and the item.
    func testAppearOffsetsThatLeaveTheDoublesAreErrors() throws {
        for block in ["appear { offset 0 x 1.7e308 }", "disappear { offset 0 x 1e308 }"] {
            let update = block.hasPrefix("appear") ? "update { insert 0 }" : "update { delete 0 }"
            let text = "items 3\nheader 1e308\nheight 10\n\(block)\n\(update)\n"
            let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
            XCTAssertFalse(c.hasErrors, text)
            XCTAssertThrowsError(try c.transitionTables(), text) { error in
                let d = error as! Diagnostic
                XCTAssertEqual(d.code, .badAttribute)
                XCTAssertTrue(d.message.contains("of item "), d.message)
                XCTAssertTrue(d.message.contains("past the largest number"), d.message)
            }
        }
    }

    /// `zoomFirst` enlarges cells at every offset: a size that carries them past the doubles is
    /// an error where the frames are asked for.
    func testZoomFirstPastTheDoublesIsAnError() {
        let text = "direction horizontal\nstyle flow\ncontainer 300 x 50\nzoomFirst 1.7e308 x 10\nsize 50 x 50\nitems 2\ncolumnSpacing 1e308\n"
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        XCTAssertNil(Self.nonFinite(c))
        XCTAssertEqual(c.diagnostics.map(\.code), [.positionOverflow], "\(c.tables.first?.at(.zero).elements.map(\.frame) ?? [])")
        XCTAssertTrue(c.diagnostics.first?.message.contains("item 1 of section 0 comes out with x Infinity: 'zoomFirst'") ?? false)
    }

    /// A flow section never ends before it starts: lines pulled back past their start by a
    /// negative spacing are the no-room error, as a shelf's band is; a waterfall's end is its
    /// items' largest end, never above their start.
    func testAFlowSectionNeverEndsBeforeItStarts() {
        let flow = "style flow\ncontainer 100 x 500\nsize 100 x 0\nrowSpacing (-10)\nitems 3\n"
        XCTAssertEqual(Self.codes(flow), [.noRoom])
        XCTAssertTrue(Eval.errors(flow).contains("the lines of section 0 leave no room: with 'rowSpacing' -10 they end 20 before they start"), Eval.errors(flow))
        // The case: header and footer 20, items 5 high: the footer landed in the header.
        let framed = "style flow\ncontainer 100 x 500\nsize 100 x 5\nrowSpacing (-10)\nheader 20\nfooter 20\nitems 5\n"
        XCTAssertEqual(Self.codes(framed), [.noRoom])
        XCTAssertEqual(Self.codes("direction horizontal\nstyle flow\ncontainer 500 x 100\nsize 0 x 100\ncolumnSpacing (-10)\nitems 3\n"), [.noRoom])
        // An extent of exactly 0, and overlapping lines that still end after they start, stay.
        XCTAssertEqual(Self.codes("style flow\ncontainer 100 x 500\nsize 100 x 0\nrowSpacing 0\nitems 3\n"), [])
        let overlap = try? XCTUnwrap(Eval.table("style flow\ncontainer 100 x 500\nsize 100 x 30\nrowSpacing (-10)\nheader 20\nfooter 20\nitems 3\n"))
        XCTAssertEqual(overlap?.contentHeight, 110)  // 20 + (3 * 30 - 2 * 10) + 20
        // The waterfall: its items overlap, but its end is their largest maxY.
        let waterfall = Eval.table("columns 1\nheight 5\nrowSpacing (-10)\nheader 20\nfooter 20\nitems 5\n")
        XCTAssertEqual(waterfall?.contentHeight, 20 + 5 + 20)
        let footer = waterfall?.elements.first { $0.kind == .footer }
        XCTAssertEqual(footer?.frame.y, 25)
    }

    /// Routes found by the second attack: a group's `itemSpacing` that makes its copies Infinity
    /// long, and a flow line a few subnormals long whose grid alignment divided by Infinity,
    /// printed NaN frames with exit 0.
    func testGroupSpacingsAndSubnormalLinesStayNumbers() throws {
        let group = "style groups\nitems 3\ngroup horizontal gw x 100 count 3 {\n  itemSpacing (-1.7e308)\n  item 1 x gh\n}\n"
        XCTAssertEqual(Self.codes(group), [.positionOverflow])
        XCTAssertTrue(Eval.errors(group).contains("a leaf of the top group comes out with x NaN"), Eval.errors(group))
        let custom = "style groups\ncontainer 1.7e308 x 800\nitems 2\ngroup custom gw x 100 count 2 {\n  insets left 1.7e308\n  frame 1.7e308 0 10 10\n}\n"
        XCTAssertNil(FiniteNumbersTests.nonFinite(Pipeline.run(SourceFile(name: "t.wfl", text: custom))), custom)
        // The flow: k = floor((length + cs + 1e-6) / (u + cs)) is Infinity for u = 1e-320 and cs 0;
        // the last line starts at its start.
        let flow = "container 390 x 1e-320\ndirection horizontal\nstyle flow\nspacing 0\nitems 3\nsize 10 x 1e-320\n"
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: flow))
        XCTAssertFalse(c.hasErrors)
        XCTAssertNil(FiniteNumbersTests.nonFinite(c))
        XCTAssertEqual(try XCTUnwrap(c.tables.first).elements.map(\.frame.y), [0, 1e-320, 2e-320])
    }

    /// Zero room is no room: an available width, a lane width or a shelf's band that comes out
    /// 0 is the error that negative ones are.
    func testZeroRoomIsNoRoom() {
        // The available width: insets taking the whole container.
        XCTAssertEqual(Self.codes("container 300 x 600\ninsets 0 150\nitems 1\nheight 10\n"), [.noRoom])
        XCTAssertTrue(Eval.errors("container 300 x 600\ninsets 0 150\nitems 1\nheight 10\n").contains("left 150 and right 150 take all of the container's width, 300"))
        XCTAssertEqual(Self.codes("style flow\ncontainer 300 x 600\ninsets 0 150\nitems 1\n"), [.noRoom])
        XCTAssertEqual(Self.codes("direction horizontal\ncontainer 300 x 600\ninsets 300 0\nitems 1\nwidth 10\n"), [.noRoom])
        // A lane width of 0: 2 columns whose gap takes the width.
        XCTAssertEqual(Self.codes("container 300 x 600\ncolumns 2\ncolumnSpacing 300\nitems 1\nheight 10\n"), [.noRoom])
        // ... or floored to 0 by the screen scale.
        XCTAssertEqual(Self.codes("container 3 x 600\ncolumns 4\ncolumnSpacing 0\nscale 1\nitems 1\nheight 10\n"), [.noRoom])
        // A shelf band of 0: rows that cancel with their spacing.
        XCTAssertEqual(Self.codes("style shelf\nrows 2\nsize 50 x 10\nrowSpacing (-20)\nitems 4\n"), [.noRoom])
        // A shelf with no items has no band: no error.
        XCTAssertEqual(Self.codes("style shelf\nrows 2\nsize 50 x 10\nrowSpacing (-20)\nitems 0\n"), [])
        // Just above zero is room.
        XCTAssertEqual(Self.codes("container 300 x 600\ninsets 0 149.5\ncolumns 1\nitems 1\nheight 10\n"), [])
    }

    /// `collapseEmpty all` removes an empty section's header: its `background items` starts
    /// where the section does, as if there were no header.
    func testCollapsedHeaderTakesNoRoomInTheItemsBackground() throws {
        let text = "background items\nbackgroundInsets top (-30)\ncollapseEmpty all\nsection {\n  items 1\n  height 40\n}\nsection {\n  header 20\n  items 0\n}\n"
        let t = try XCTUnwrap(Eval.table(text))
        // Section 1 is empty and collapsed: it takes no room, so its items background is 0 high
        // before its insets, at the section's start (40); with top -30 it is 30 high, from 10.
        let backgrounds = t.elements.filter { $0.kind == .background && $0.section == 1 }
        XCTAssertEqual(backgrounds.map(Eval.rect), [[0, 10, 375, 30]])
        // Without a header the same background: the header that is not drawn does not count.
        let plain = try XCTUnwrap(Eval.table(text.replacingOccurrences(of: "  header 20\n", with: "")))
        XCTAssertEqual(plain.elements.filter { $0.kind == .background && $0.section == 1 }.map(Eval.rect), backgrounds.map(Eval.rect))
    }

    // MARK: The property: every numeric setting at the extremes

    /// The extreme values: the largest doubles either way, and NaN made by arithmetic.
    static let extremes = ["1.7e308", "(-1.7e308)", "(1e308 * 10 * 0)"]

    /// Layouts to put them in: each engine and direction, with what lies on top of the frames.
    static let bases = [
        "items 4\nheader 20\nfooter 20\nheight 40\nbackground items\nattach b { size 10 x 10 }\n",
        "direction horizontal\nitems 4\nwidth 40\nheader 20\nlayoutDirection rightToLeft\n",
        "style flow\nitems 6\nheader 20\nfooter 20\nsize 60 x 40\nbackground cells\n",
        "direction horizontal\nstyle flow\nitems 6\nsize 60 x 40\nzoomFirst 100 x 80\n",
        "style shelf\nrows 2\nitems 5\nsize 80 x 40\nheader 20\nlayoutDirection rightToLeft\n",
        "items 3\nheight 40\nappear { offset 0 x 40 }\ndisappear { offset 40 x 0 }\nupdate { insert 0; delete 1 }\n",
    ]

    /// Every numeric setting, as a line with `V` for the value.
    static let settings = [
        "container V x 600", "container 300 x V", "columns V", "rows V", "rowSpacing V", "columnSpacing V", "spacing V",
        "insets V", "insets top V", "insets left V", "insets bottom V", "insets right V", "header V", "footer V",
        "headerInsets V", "headerInsets left V", "footerInsets V", "footerInsets right V", "height V", "width V",
        "size V x 40", "size 40 x V", "span V", "zoomFirst V x 80", "zoomFirst 100 x V", "scale V", "seed V",
        "alpha V", "zoom V", "zIndex V", "backgroundInsets V", "backgroundInsets left V", "backgroundInsets bottom V",
        "attach v { size V x 10 }", "attach v { size 10 x V }", "attach v { offset V x 0 }", "attach v { offset 0 x V }",
        "appear { offset V x 0 }", "disappear { offset 0 x V }", "appear { alpha V }", "disappear { zoom V }",
        "columns adaptive(V)", "items V",
    ]

    /// One file: a base with each setting line in `lines` (their `V` given a value), after it.
    static func file(_ base: String, _ lines: [(String, String)]) -> String {
        base + lines.map { $0.0.replacingOccurrences(of: "V", with: $0.1) }.joined(separator: "\n") + "\n"
    }

    /// Exit 65 or finite output, for `text`.
    static func holds(_ text: String) -> String? {
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        if c.hasErrors { return nil }
        return nonFinite(c).map { "\($0) from:\n\(text)" }
    }

    /// Each setting at each extreme, alone, in each base: plainly, every setting once in every
    /// base; under `WFL_STRESS`, also pairs of settings at extremes, drawn at random.
    func testEveryNumericSettingAtTheExtremesGivesAnErrorOrFiniteOutput() {
        var files: [String] = []
        for base in Self.bases {
            for setting in Self.settings {
                for v in Self.extremes { files.append(Self.file(base, [(setting, v)])) }
            }
        }
        var rng = RobustnessTests.SplitMix64(seed: 27)
        for _ in 0..<(Stress.enabled ? 20_000 : 60) {
            let base = rng.pick(Self.bases)
            var lines: [(String, String)] = []
            for _ in 0..<2 {
                let s = rng.pick(Self.settings)
                let v = rng.chance(25) ? rng.pick(["1e300", "(-1e300)", "1e200", "8.9e307"]) : rng.pick(Self.extremes)
                lines.append((s, v))
            }
            files.append(Self.file(base, lines))
        }
        let failures = Concurrent.map(files, Self.holds).compactMap { $0 }
        XCTAssertEqual(failures.count, 0, failures.prefix(3).joined(separator: "\n\n"))
    }
}
