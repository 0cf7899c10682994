import XCTest
@testable import WFL

/// Sections of every kind (docs/layout.md, "Mixed sections", "Shelves", "Pinned footers", "Right
/// to left"), with numbers worked out by hand.
final class SectionsTests: XCTestCase {
    /// A waterfall, a flow and a shelf section in one layout, stacked along y.
    /// Waterfall (container 300, columns 2, cs 10): laneW = (300 - 10) / 2 = 145; header 20, so
    /// items from 20: [0, 20, 145, 50], [155, 20, 145, 80], [0, 80, 145, 50]; bottom 130.
    /// Flow from 130 (justify start, inherited from the layout): 100-wide items, two a line:
    /// [0, 130], [110, 130], [0, 170], [110, 170]; bottom 200.
    /// Shelf from 200 + ins.top 10 = 210, rows 2: items (80x40) (120x60) | (80x50) (120x40) | (80x60).
    /// rowH = [max(40, 50, 60), max(60, 40)] = [60, 60]; colW = [120, 120, 80];
    /// rows at 210 and 210 + 60 + 10 = 280; columns at 10, 10 + 120 + 10 = 140, 270.
    /// align center: item 0 at 210 + 0.5 * (60 - 40) = 220; item 2 at 215; item 4 at 210;
    /// item 1 at 280; item 3 at 290. bottom = 280 + 60 = 340, the end 350, the footer 350..365.
    func testMixedSections() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 300 x 600
            justify start
            section {
              columns 2
              items 3
              height [50, 80]
              header 20
            }
            section {
              style flow
              items 4
              size 100 x 30
            }
            section {
              style shelf
              rows 2
              items 5
              size [80, 120] x [40, 60, 50]
              insets 10
              footer 15
            }
            """))
        XCTAssertEqual(t.style, .mixed)
        XCTAssertEqual(Eval.cells(t), [
            [0, 20, 145, 50], [155, 20, 145, 80], [0, 80, 145, 50],
            [0, 130, 100, 30], [110, 130, 100, 30], [0, 170, 100, 30], [110, 170, 100, 30],
            [10, 220, 80, 40], [10, 280, 120, 60], [140, 215, 80, 50], [140, 290, 120, 40], [270, 210, 80, 60],
        ])
        XCTAssertEqual(t.elements.last?.frame, Frame(x: 0, y: 350, width: 300, height: 15))
        XCTAssertEqual(t.contentHeight, 365)
        XCTAssertTrue(JSONFormat.format([t]).contains("\"style\": \"mixed\""))
        // Every section a shelf: the table's style is theirs.
        let shelves = try XCTUnwrap(Eval.table("style shelf\nitems 3\nsize 60 x 40"))
        XCTAssertEqual(shelves.style, .shelf)
        XCTAssertTrue(JSONFormat.format([shelves]).contains("\"style\": \"shelf\""))
    }

    /// The same layout laid out by the mixed path and by the one engine of its style agree (the
    /// engines' fast paths are what a layout of one style takes).
    func testOneStyleThroughTheMixedPathIsTheEngine() throws {
        for text in ["columns 3\nitems 40\nheight 30 + i % 7 * 11\nheader 10\nfooter 5\nsection {\n items 5\n}\nsection {\n items 9\n order leftToRight\n}",
                     "style flow\nitems 40\nsize 40 + i % 5 * 30 x 20 + i % 3 * 10\nheader 10\nsection {\n items 5\n}\nsection {\n items 30\n}"] {
            let (e, program, _) = Eval.run(text)
            XCTAssertFalse(e.diagnostics.hasErrors)
            let layout = try XCTUnwrap(try? program.resolve(layoutNamed: "t")?.get())
            var warnings: [Diagnostic] = []
            let mixed = try Sections.stacked(layout, warnings: &warnings)
            let engine = try XCTUnwrap(e.tables.first)
            XCTAssertEqual(mixed.elements, engine.elements)
            XCTAssertEqual(mixed.sectionStarts, engine.sectionStarts)
            XCTAssertEqual(mixed.contentHeight, engine.contentHeight)
            for y in stride(from: -20.0, to: 700, by: 37) {
                let r = Frame(x: 20, y: y, width: 100, height: 60)
                XCTAssertEqual(mixed.query(r), engine.query(r))
            }
        }
    }

    /// The rule for settings a section's engine does not use (docs/language.md, "Blocks and
    /// cascading").
    func testSettingsASectionDoesNotUse() {
        // At layout level, fine when some section it reaches uses it.
        XCTAssertEqual(Eval.errors("justify start\nsection {\n items 1\n}\nsection {\n style flow\n items 1\n}"), "")
        // ... an error when none does.
        XCTAssertTrue(Eval.errors("justify start\nsection {\n items 1\n}\nsection {\n style shelf\n items 1\n}")
            .contains("'justify' places items in the lines of a flow layout"))
        // A section that sets it itself is not reached: the layout's is then unused everywhere it
        // reaches (nowhere), which is no error.
        XCTAssertEqual(Eval.errors("justify start\nsection {\n style flow\n justify end\n items 1\n}"), "")
        // An inherited item size rule a section cannot use gives it size 50 x 50.
        let t = Eval.table("height 80\nsection {\n items 1\n}\nsection {\n style flow\n items 1\n}\nsection {\n style shelf\n items 1\n}")
        XCTAssertEqual(t.map(Eval.cells), [[0, 0, 182.5, 80], [162.5, 80, 50, 50], [0, 130, 50, 50]])
        // zoomFirst and snap go by section 0.
        XCTAssertTrue(Eval.errors("direction horizontal\nzoomFirst 100 x 100\nsection {\n items 1\n width 50\n}\nsection {\n style flow\n items 1\n}")
            .contains("'zoomFirst' works only in a horizontal flow layout"))
        XCTAssertEqual(Eval.errors("direction horizontal\nzoomFirst 100 x 100\nsection {\n style flow\n items 1\n}\nsection {\n items 1\n width 50\n}"), "")
        // A file-level value a layout cannot take is ignored there: `style shelf` in a horizontal
        // layout gives the default, a waterfall.
        let tables = Eval.tables("style shelf\nitems 2\nlayout a {\n size 40 x 30\n}\nlayout b {\n direction horizontal\n width 40\n}")
        XCTAssertEqual(tables.map(\.style), [.shelf, .waterfall])
    }

    // MARK: Shelves

    /// rows 1 (the default), uneven sizes, container 300, spacing 10, align center.
    /// Sizes (60x50) (100x30) (80x70) (40x40): one row, rowH = 70; colW = the widths;
    /// x = 0, 0 + 60 + 10 = 70, 70 + 100 + 10 = 180, 180 + 80 + 10 = 270;
    /// y = 0 + 0.5 * (70 - h) = 10, 20, 0, 15; bottom = 70; bandWidth = 270 + 40 + 0 = 310.
    func testShelfOneRow() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 300 x 600
            style shelf
            items 4
            size [60, 100, 80, 40][i] x [50, 30, 70, 40][i]
            """))
        XCTAssertEqual(Eval.cells(t), [[0, 10, 60, 50], [70, 20, 100, 30], [180, 0, 80, 70], [270, 15, 40, 40]])
        XCTAssertEqual(t.contentHeight, 70)
        XCTAssertEqual(t.contentWidth, 300, "the band does not widen the content")
        XCTAssertEqual(t.scroll.shelves.map(\.width), [310])
    }

    /// rows 2, uneven sizes, align end, a header 20 and insets 5 (so top = 20 + 5 = 25, x from 5).
    /// Items (60x50) (100x30) | (80x70) (40x40) | (50x20): item i in column i / 2, row i % 2.
    /// rowH = [max(50, 70, 20), max(30, 40)] = [70, 40]; colW = [max(60, 100), max(80, 40), 50] =
    /// [100, 80, 50]; rows at 25 and 25 + 70 + 10 = 105; columns at 5, 5 + 100 + 10 = 115, 115 + 80
    /// + 10 = 205. align end: y + 1 * (rowH - h): 25 + 20 = 45, 105 + 10 = 115, 25, 105, 25 + 50 = 75.
    /// bottom = 105 + 40 = 145; the end 150; bandWidth = 205 + 50 + 5 = 260.
    func testShelfTwoRows() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 300 x 600
            style shelf
            rows 2
            align end
            header 20
            insets 5
            items 5
            size [60, 100, 80, 40, 50][i] x [50, 30, 70, 40, 20][i]
            """))
        XCTAssertEqual(Eval.cells(t), [[5, 45, 60, 50], [5, 115, 100, 30], [115, 25, 80, 70], [115, 105, 40, 40], [205, 75, 50, 20]])
        XCTAssertEqual(t.contentHeight, 150)
        XCTAssertEqual(t.scroll.shelves.first?.width, 260)
        XCTAssertEqual(t.scroll.shelves.first?.columnX, [5, 115, 205])
        // An empty shelf has no band: its section is its header and insets.
        let empty = try XCTUnwrap(Eval.table("style shelf\nheader 20\ninsets 5\nitems 0"))
        XCTAssertEqual(empty.contentHeight, 30)
        XCTAssertEqual(empty.scroll.shelves.first?.width, 0)
    }

    /// A band whose columns add up past the doubles' range is an error, not Infinity in a frame.
    func testShelfBandOverflowIsAnError() {
        XCTAssertTrue(Eval.errors("style shelf\nitems 4\nsize 1e308 x 10").contains("reaches past the largest number"))
    }

    /// shelfSnap for each `paging`, container 300: six 100-wide items in one row, insets 0 20,
    /// cs 10. Columns at 20, 130, 240, 350, 460, 570; bandWidth = 570 + 100 + 20 = 690, so maxX =
    /// 690 - 300 = 390. Boundaries b = x - 20 = 0, 110, 220, 330, 440, 550; centres g = x + 50 -
    /// 150 = -80, 30, 140, 250, 360, 470.
    func testShelfSnap() throws {
        func snap(_ paging: String, _ x: Double) throws -> Double {
            let t = try XCTUnwrap(Eval.table("container 300 x 600\nstyle shelf\npaging \(paging)\ninsets 0 20\nitems 6\nsize 100 x 50"))
            let v = try TableQueries(table: t).call(.shelfSnap, [.number(0), .number(x)], span: Span(0, 0), argSpans: [Span(0, 0), Span(0, 0)])
            guard case .number(let d) = v else { XCTFail("\(v)"); return .nan }
            return d
        }
        // continuous: x itself, clamped to [0, 390].
        XCTAssertEqual(try snap("continuous", 123.4), 123.4)
        XCTAssertEqual(try snap("continuous", -5), 0)
        XCTAssertEqual(try snap("continuous", 500), 390)
        for paging in ["leadingBoundary", "groupPaging"] {
            // 160: 110 (50 away) beats 220 (60 away).
            XCTAssertEqual(try snap(paging, 160), 110)
            // 165: 55 from both: the smaller wins; within 0.001 is still a tie.
            XCTAssertEqual(try snap(paging, 165), 110)
            XCTAssertEqual(try snap(paging, 165.0004), 110)
            // 165.01: 54.99 against 55.01 is no tie.
            XCTAssertEqual(try snap(paging, 165.01), 220)
            // 500: 550 is nearest, clamped to 390.
            XCTAssertEqual(try snap(paging, 500), 390)
        }
        // paging: round(x / 300) * 300, half away from zero, then clamped.
        XCTAssertEqual(try snap("paging", 149), 0)
        XCTAssertEqual(try snap("paging", 150), 300)
        XCTAssertEqual(try snap("paging", 460), 390, "round(1.53) * 300 = 600, clamped")
        XCTAssertEqual(try snap("paging", -200), 0, "round(-0.67) * 300 = -300, clamped")
        // groupPagingCentered: the nearest centre.
        XCTAssertEqual(try snap("groupPagingCentered", 100), 140)
        XCTAssertEqual(try snap("groupPagingCentered", 85), 30, "55 from 30 and from 140: the smaller")
        XCTAssertEqual(try snap("groupPagingCentered", -50), 0, "-80 is nearest, clamped")
        XCTAssertEqual(try snap("groupPagingCentered", 480), 390, "470 is nearest, clamped")
        // A band narrower than the container rests at 0 whatever the behaviour.
        let narrow = try XCTUnwrap(Eval.table("container 300 x 600\nstyle shelf\npaging paging\nitems 2\nsize 100 x 50"))
        XCTAssertEqual(try TableQueries(table: narrow).call(.shelfSnap, [.number(0), .number(250)], span: Span(0, 0), argSpans: [Span(0, 0), Span(0, 0)]), .number(0))
    }

    /// A shelf reaching far past the container keeps the rect index tight: a viewport-sized rect
    /// meets a handful of the index's leaf boxes, not a share of the table.
    func testRectIndexStaysTightPastTheContainer() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 375 x 800
            section {
              items 2000
              height 40 + i % 7 * 10
            }
            section {
              style shelf
              rows 2
              items 5000
              size 120 x 80
            }
            section {
              style flow
              items 2000
              size 100 x 40
            }
            """))
        XCTAssertEqual(t.style, .mixed)
        let leaves = t.index.levels[0]
        XCTAssertGreaterThan(leaves.count, 1000)
        for r in [Frame(x: 0, y: 0, width: 375, height: 800), Frame(x: 0, y: t.sectionStarts[1].begin, width: 375, height: 800),
                  Frame(x: 300_000, y: t.sectionStarts[1].begin, width: 375, height: 200), Frame(x: 0, y: t.contentHeight - 800, width: 375, height: 800)] {
            let q = RectIndex.Box(minX: r.x, minY: r.y, maxX: r.maxX, maxY: r.maxY)
            let touched = leaves.filter { $0.mayOverlap(q) }.count
            let answers = t.query(r).count
            XCTAssertLessThanOrEqual(touched, answers / RectIndex.leaf + 12, "rect \(r): \(touched) leaf boxes for \(answers) answers")
            let brute = t.elements.indices.filter { t.elements[$0].frame.overlaps(r) }
            XCTAssertEqual(t.query(r), brute)
        }
    }

    /// Pictures draw a shelf's band past the container's edge, clipped, with its scrollable width:
    /// svg (and html, which holds the svg picture) an outline and a label, ascii a line.
    func testPicturesShowTheBandPastTheEdge() throws {
        let t = try XCTUnwrap(Eval.table("container 300 x 400\nsection {\n style shelf\n rows 2\n items 9\n size 120 x 60\n insets 10\n}\nsection {\n items 3\n}"))
        // Columns at 10, 140, 270, 400, 530: bandWidth = 530 + 120 + 10 = 660.
        XCTAssertEqual(t.scroll.shelves.first?.width, 660)
        let svg = SVGFormat.format([t])
        XCTAssertTrue(svg.contains("shelf 0: 660 wide, scrolls sideways"), svg)
        // The band's outline, 660 wide from x 0 and 60 + 10 + 60 tall from the top inset, and the clip at 1.5 container widths (450).
        XCTAssertTrue(svg.contains("class=\"band\" x=\"20\" y=\"104\" width=\"660\" height=\"130\""), svg)
        XCTAssertTrue(svg.contains("<clipPath id=\"clip-0\"><rect x=\"20\" y=\"94\" width=\"450\""), svg)
        XCTAssertTrue(HTMLFormat.format([t]).contains("shelf 0: 660 wide, scrolls sideways"))
        let ascii = ASCIIPicture.draw(t, columns: 60)
        XCTAssertTrue(ascii.hasSuffix("shelf 0: band 660 wide, clipped at the container's right edge (scrolls sideways)\n"), ascii)
        // A layout without shelves draws as before: no band.
        XCTAssertFalse(SVGFormat.format([try XCTUnwrap(Eval.table("items 3"))]).contains("class=\"band\""))
    }

    // MARK: Pinned footers

    /// container 300 x 200, one column, rs 10. Section 0: four 100-tall items, 0..430. Section 1
    /// (pinHeaders, pinFooters): header 430..450, ten 50-tall items from 450 to 450 + 500 + 90 =
    /// 1040, footer 1040..1070. Section 2: three 100-tall items, to 1390.
    /// Footer y = min(1040, max(oy + 200 - 30, 450)), 450 being the header's natural maxY.
    /// Header y = max(430, min(oy, 1040 - 20)), 1040 being the footer's natural y.
    func testPinnedFootersVertical() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 300 x 200
            columns 1
            section {
              items 4
              height 100
            }
            section {
              pinHeaders true
              pinFooters true
              header 20
              footer 30
              items 10
              height 50
            }
            section {
              items 3
              height 100
            }
            """))
        XCTAssertEqual(t.contentHeight, 1390)
        let q = TableQueries(table: t)
        func footer(_ oy: Double) throws -> Value { try q.call(.footer, [.number(1), .number(0), .number(oy)], span: Span(0, 0), argSpans: Array(repeating: Span(0, 0), count: 3)) }
        func header(_ oy: Double) throws -> Value { try q.call(.header, [.number(1), .number(0), .number(oy)], span: Span(0, 0), argSpans: Array(repeating: Span(0, 0), count: 3)) }
        func frame(_ y: Double, _ h: Double) -> Value { .list([.number(0), .number(y), .number(300), .number(h)]) }
        // Before the section: max(0 + 170, 450) = 450, under the header's natural place.
        XCTAssertEqual(try footer(0), frame(450, 30))
        XCTAssertEqual(try footer(200), frame(450, 30))
        // Inside: max(500 + 170, 450) = 670, at the viewport's bottom (700).
        XCTAssertEqual(try footer(500), frame(670, 30))
        XCTAssertEqual(try header(500), frame(500, 20))
        // After: min(1040, 1000 + 170) = 1040, its natural place; the header stops at 1020.
        XCTAssertEqual(try footer(1000), frame(1040, 30))
        XCTAssertEqual(try footer(1030), frame(1040, 30))
        XCTAssertEqual(try header(1030), frame(1020, 20))
        // The offset forms of count see the pinned footer: at oy 500 the rect 660..700 holds it
        // and the cells at 630..680 and 690..740; at rest only the two cells.
        let count = { (args: [Double]) throws -> Value in try q.call(.count, args.map { .number($0) }, span: Span(0, 0), argSpans: Array(repeating: Span(0, 0), count: args.count)) }
        XCTAssertEqual(try count([0, 660, 300, 40, 0, 500]), .number(3))
        XCTAssertEqual(try count([0, 660, 300, 40]), .number(2))
        // The table at an offset is what the queries say.
        XCTAssertEqual(t.at(Offset(x: 0, y: 500)).elements[t.sectionStarts[1].footer!].frame, Frame(x: 0, y: 670, width: 300, height: 30))
    }

    /// Horizontal: container 200 x 300, one row, cs 10. Section 0: two 100-wide items, 0..210.
    /// Section 1: header 210..230, ten 50-wide items to 230 + 500 + 90 = 820, footer 820..850.
    /// Footer x = min(820, max(ox + 200 - 30, 230)); without a header the limit would be where the
    /// section begins, 210.
    func testPinnedFootersHorizontal() throws {
        func table(header: Bool) throws -> AttributeTable {
            try XCTUnwrap(Eval.table("""
                direction horizontal
                container 200 x 300
                rows 1
                section {
                  items 2
                  width 100
                }
                section {
                  pinFooters true
                  header \(header ? 20 : 0)
                  footer 30
                  items 10
                  width 50
                }
                """))
        }
        let t = try table(header: true)
        let f = t.sectionStarts[1].footer!
        XCTAssertEqual(t.frame(of: f, at: Offset(x: 0, y: 0)).x, 230)
        XCTAssertEqual(t.frame(of: f, at: Offset(x: 300, y: 0)).x, 470)
        XCTAssertEqual(t.frame(of: f, at: Offset(x: 900, y: 0)).x, 820, "after: min(820, 1070)")
        let bare = try table(header: false)
        let g = bare.sectionStarts[1].footer!
        // Without a header the items start at 210 and end at 800; the limit is 210.
        XCTAssertEqual(bare.frame(of: g, at: Offset(x: 0, y: 0)).x, 210)
        XCTAssertEqual(bare.frame(of: g, at: Offset(x: 300, y: 0)).x, 470)
        XCTAssertEqual(bare.frame(of: g, at: Offset(x: 900, y: 0)).x, 800)
    }

    // MARK: Right to left

    /// Vertical: frames mirror within cw, x' = 300 - x - 145 (lanes 145 wide, cs 10); with `order
    /// rightToLeft` the lanes are chosen first and mirrored after, so the two compose.
    /// Horizontal: x' = max(contentWidth, cw) - x - w; items 50, 80, 60 wide at 0, 60, 150
    /// (content 210): in a 200-wide container 160, 70, 0; in a 400-wide one 350, 260, 190.
    func testRightToLeftByHand() throws {
        let plain = "container 300 x 600\nlayoutDirection rightToLeft\ncolumns 2\nitems 3\nheight [50, 80]\n"
        XCTAssertEqual(Eval.table(plain).map(Eval.cells), [[155, 0, 145, 50], [0, 0, 145, 80], [155, 60, 145, 50]])
        XCTAssertEqual(Eval.table(plain + "order rightToLeft\n").map(Eval.cells), [[0, 0, 145, 50], [155, 0, 145, 80], [0, 60, 145, 50]])
        let horizontal = "direction horizontal\nlayoutDirection rightToLeft\nrows 1\nitems 3\nwidth [50, 80, 60]\n"
        XCTAssertEqual(Eval.table("container 200 x 300\n" + horizontal).map { Eval.cells($0).map { $0[0] } }, [160, 70, 0])
        XCTAssertEqual(Eval.table("container 400 x 300\n" + horizontal).map { Eval.cells($0).map { $0[0] } }, [350, 260, 190])
        // A shelf mirrors within cw too: its band now reaches past the left edge.
        let shelf = try XCTUnwrap(Eval.table("container 300 x 600\nlayoutDirection rightToLeft\nstyle shelf\nitems 4\nsize 100 x 50"))
        XCTAssertEqual(Eval.cells(shelf).map { $0[0] }, [200, 90, -20, -130])
        // Pinned headers and footers in a horizontal layout pin with ox' = max(contentWidth, cw) -
        // ox - cw, then mirror. LTR: header 0..20, items 20..(20 + 500 + 90 = 610), footer 610..640,
        // content 640, container 200: at ox = 0 (ox' = 440) the LTR header is at min(440, 610 - 20)
        // = 440, mirrored 640 - 440 - 20 = 180: the right edge of the view, where it starts.
        let pinned = try XCTUnwrap(Eval.table("direction horizontal\ncontainer 200 x 300\nlayoutDirection rightToLeft\nrows 1\npinHeaders true\npinFooters true\nheader 20\nfooter 30\nitems 10\nwidth 50"))
        let h = pinned.sectionStarts[0].header!, f = pinned.sectionStarts[0].footer!
        XCTAssertEqual(pinned.elements[h].frame.x, 620)
        XCTAssertEqual(pinned.frame(of: h, at: .zero).x, 180)
        // The footer: LTR x = min(610, max(440 + 200 - 30, 20)) = 610, mirrored 0: its natural place.
        XCTAssertEqual(pinned.frame(of: f, at: .zero).x, 0)
        // At ox = 440 (ox' = 0): the header at its natural LTR 0, mirrored 620; the footer at LTR
        // max(170, 20) = 170, mirrored 640 - 170 - 30 = 440: the left edge of the view.
        XCTAssertEqual(pinned.frame(of: h, at: Offset(x: 440, y: 0)).x, 620)
        XCTAssertEqual(pinned.frame(of: f, at: Offset(x: 440, y: 0)).x, 440)
    }

    /// Over generated specs (the rect-query generator's, without zoomFirst): the right-to-left
    /// table is the left-to-right one mirrored; mirroring it again gives the left-to-right frames
    /// back; at offsets (pinning with the mirrored offset when horizontal) the same holds; and rect
    /// queries agree with a brute-force filter of the mirrored table.
    func testRightToLeftMirrorsTheLeftToRightTable() throws {
        var g = WaterfallPropertyTests.Generator(state: 18_2026)
        func close(_ a: Frame, _ b: Frame, _ scale: Double) -> Bool {
            let e = 1e-9 * Swift.max(1, scale)
            return abs(a.x - b.x) <= e && abs(a.y - b.y) <= e && abs(a.width - b.width) <= e && abs(a.height - b.height) <= e
        }
        var checked = 0, moving = 0
        // 120 generated layouts under WFL_STRESS=1, 40 in the plain run.
        let runs = Stress.enabled ? 120 : 40
        // The layouts are generated first and evaluated on every core.
        let texts = (0..<runs).map { _ in RectQueryPropertyTests.spec(&g).split(separator: "\n").filter { !$0.hasPrefix("zoomFirst") }.joined(separator: "\n") + "\n" }
        let tables = Concurrent.map(texts) { text in (Eval.table(text), Eval.table(text + "layoutDirection rightToLeft\n")) }
        for run in 0..<runs {
            let text = texts[run]
            let ltr = try XCTUnwrap(tables[run].0, "run \(run)")
            let rtl = try XCTUnwrap(tables[run].1, "run \(run)")
            XCTAssertTrue(rtl.scroll.rightToLeft)
            XCTAssertEqual(rtl.elements.count, ltr.elements.count)
            let vertical = ltr.direction == .vertical
            let W = vertical ? ltr.containerWidth : Swift.max(ltr.contentWidth, ltr.containerWidth)
            func mirrored(_ f: Frame) -> Frame { Frame(x: W - f.x - f.width, y: f.y, width: f.width, height: f.height) }
            for j in ltr.elements.indices {
                XCTAssertEqual(rtl.elements[j].frame, mirrored(ltr.elements[j].frame), "run \(run), element \(j)\n\(text)")
                XCTAssertTrue(close(mirrored(rtl.elements[j].frame), ltr.elements[j].frame, W), "run \(run): mirroring twice")
            }
            if rtl.movesWithOffset { moving += 1 }
            for _ in 0..<3 {
                let o = Offset(x: Double(g.int(-50...Int(W) + 50)), y: Double(g.int(-50...Int(ltr.contentHeight) + 50)))
                let lo = vertical ? o : Offset(x: W - o.x - ltr.containerWidth, y: o.y)
                let a = rtl.at(o), b = ltr.at(lo)
                for j in a.elements.indices {
                    XCTAssertTrue(close(a.elements[j].frame, mirrored(b.elements[j].frame), W), "run \(run), offset \(o), element \(j): \(a.elements[j].frame) != mirrored \(b.elements[j].frame)\n\(text)")
                }
                for r in RectQueryPropertyTests.rects(&g, a) {
                    let n = r.normalised
                    let brute = a.elements.indices.filter { a.elements[$0].frame.overlaps(n) }
                    XCTAssertEqual(rtl.query(r, at: o), brute, "run \(run), offset \(o), rect \(r)\n\(text)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, runs * 8)
        XCTAssertGreaterThan(moving, runs / 4)
    }

    // MARK: Smaller additions

    /// An empty section with header 20 (headerInsets 5 0), footer 10 and insets 15, then one
    /// 50-tall item in the next section.
    /// none: header 5..25, top 30, + 15 = 45, end 45 + 15 = 60, footer 60..70, the item at 70;
    /// insets: the header and footer stay with their own insets, the section insets go: header
    /// 5..25, end 30, footer 30..40, the item at 40; all: nothing, the item at 0.
    func testCollapseEmpty() throws {
        func layout(_ collapse: String, items: Int = 0) throws -> AttributeTable {
            try XCTUnwrap(Eval.table("""
                container 300 x 600
                columns 1
                section {
                  collapseEmpty \(collapse)
                  header 20
                  headerInsets 5 0
                  footer 10
                  insets 15
                  items \(items)
                  height 30
                }
                section {
                  items 1
                  height 50
                }
                """))
        }
        let none = try layout("none")
        XCTAssertEqual(none.elements.map(\.frame.y), [5, 60, 70])
        let insets = try layout("insets")
        XCTAssertEqual(insets.elements.map(\.frame.y), [5, 30, 40])
        XCTAssertEqual(insets.elements.map(\.kind), [.header, .footer, .cell])
        let all = try layout("all")
        XCTAssertEqual(all.elements.map(\.frame.y), [0])
        XCTAssertEqual(all.sectionStarts[0].header, nil)
        XCTAssertEqual(all.contentHeight, 50)
        // A section with items collapses nothing: header 5..25, items from 45, 30 tall, end 90.
        for collapse in ["none", "insets", "all"] {
            XCTAssertEqual(try layout(collapse, items: 1).elements.map(\.frame.y), [5, 45, 90, 100], collapse)
        }
        // The same in a flow and a shelf section, and horizontally.
        XCTAssertEqual(Eval.table("style flow\ncollapseEmpty all\nheader 20\nitems 0").map { $0.elements.count }, 0)
        XCTAssertEqual(Eval.table("style shelf\ncollapseEmpty insets\ninsets 10\nheader 20\nitems 0").map(\.contentHeight), 20)
        XCTAssertEqual(Eval.table("direction horizontal\ncollapseEmpty insets\ninsets 10\nheader 20\nitems 0").map(\.contentWidth), 20)
    }

    /// align stretch in a flow section, container 300, spacing 10, justify start: sizes 60x20,
    /// 80x50, 40x30 | 100x40 (60 + 10 + 80 + 10 + 40 = 200; + 10 + 100 = 310 > 300). Line 1: lineH
    /// 50 from the own sizes, every item 50 tall at y 0; line 2 at 60, the item 40 tall.
    func testAlignStretchFlow() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 300 x 50
            style flow
            justify start
            align stretch
            items 4
            size [60, 80, 40, 100][i] x [20, 50, 30, 40][i]
            expect snap(1) == 30, "the stride is item 0's own height 20 + rs 10, not its stretched 50 + 10"
            """))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 60, 50], [70, 0, 80, 50], [160, 0, 40, 50], [0, 60, 100, 40]])
        // snap's stride uses item 0's own height: 20 + 10 = 30 (the stretched one would give 60,
        // clamped to 100 - 50 = 50).
        let snap = try TableQueries(table: t).call(.snap, [.number(1)], span: Span(0, 0), argSpans: [Span(0, 0)])
        XCTAssertEqual(snap, .number(30))
        // The uikit last line's same-size test reads the own sizes: 100x40 then four 100x60 in
        // 330, three to a line (320). Own sizes differ, so the last line (items 3, 4) is `start`,
        // at 0 and 110; stretched sizes would all be 60 and grid-align it at 0 and 115.
        let u = try XCTUnwrap(Eval.table("container 330 x 600\nstyle flow\nalign stretch\nitems 5\nsize 100 x (i == 0 ? 40 : 60)"))
        XCTAssertEqual(Eval.cells(u).map { $0[0] }, [0, 115, 230, 0, 110])
        XCTAssertEqual(Eval.cells(u).map { $0[3] }, [60, 60, 60, 60, 60])
        // Horizontal flow: items take the column's width.
        let h = try XCTUnwrap(Eval.table("direction horizontal\ncontainer 300 x 100\nstyle flow\nalign stretch\njustify start\nitems 3\nsize [30, 50, 20][i] x 40"))
        XCTAssertEqual(Eval.cells(h), [[0, 0, 50, 40], [0, 50, 50, 40], [60, 0, 20, 40]])
    }

    /// align stretch in a shelf, rows 2: heights 30, 50 | 40, 20 give rowH [40, 50]; each item
    /// takes its row's height at the row's y (0 and 40 + 10 = 50).
    func testAlignStretchShelf() throws {
        let t = try XCTUnwrap(Eval.table("style shelf\nrows 2\nalign stretch\nitems 4\nsize 60 x [30, 50, 40, 20][i]"))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 60, 40], [0, 50, 60, 50], [70, 0, 60, 40], [70, 50, 60, 50]])
        XCTAssertEqual(t.contentHeight, 100)
    }

    /// Negative spacings overlap items; lanes still need room; adaptive counts with + 1e-6.
    func testNegativeSpacingsAndAdaptive() throws {
        // Waterfall, container 300, cs -10: laneW = (300 + 10) / 2 = 155, lanes at 0 and 145; rs
        // -5: the third item starts at 50 - 5 = 45.
        let w = try XCTUnwrap(Eval.table("container 300 x 600\nspacing (-5) (-10)\nitems 3\nheight 50"))
        XCTAssertEqual(Eval.cells(w), [[0, 0, 155, 50], [145, 0, 155, 50], [0, 45, 155, 50]])
        // Flow: 100-wide items, cs -20: 100 + (-20 + 100) * 3 = 340 > 300, so three a line.
        let f = try XCTUnwrap(Eval.table("container 300 x 600\nstyle flow\njustify start\nspacing 0 (-20)\nitems 4\nsize 100 x 30"))
        XCTAssertEqual(Eval.cells(f).map { [$0[0], $0[1]] }, [[0, 0], [80, 0], [160, 0], [0, 30]])
        // The uikit last line with u + cs <= 0 is `start`.
        let g = try XCTUnwrap(Eval.table("container 300 x 600\nstyle flow\nspacing 0 (-40)\nitems 2\nsize 30 x 30"))
        XCTAssertEqual(Eval.cells(g).map { $0[0] }, [0, -10])
        // Insets still leave no room when they pass the container.
        XCTAssertTrue(Eval.errors("container 300 x 600\ninsets 0 200\nitems 1\nheight 10").contains("leave no room"))
        // adaptive: MIN + spacing <= 0 is an error ...
        XCTAssertTrue(Eval.errors("columnSpacing -10\ncolumns adaptive(10)\nitems 1\nheight 10").contains("leaves no room"))
        // ... and the count takes + 1e-6: 174 / (174 * 0.2) is 4.999... in doubles, counted as 5.
        let a = try XCTUnwrap(Eval.table("container 174 x 600\ncolumnSpacing 0\ncolumns adaptive(174 * 0.2)\nitems 5\nheight 10"))
        XCTAssertEqual(Eval.cells(a).map { $0[1] }, [0, 0, 0, 0, 0], "five lanes: every item in the first row")
    }

    /// len of a string counts Unicode scalars.
    func testLenOfAString() throws {
        XCTAssertEqual(Eval.errors("items 1\nexpect len(\"h\u{e9}llo\u{1F600}\") == 6\nexpect len(\"\") == 0"), "")
        let (e, program, _) = Eval.run("items 1\nexpect len(\"h\u{e9}llo\u{1F600}\") == 6\nexpect len([1, 2]) == 2\nexpect len(\"e\u{301}\") == 2")
        let r = ExpectationChecker(program: program).check(layout: "t", table: try XCTUnwrap(e.tables.first))
        XCTAssertEqual(r.map(\.verdict), [.passed, .passed, .passed])
    }

    // MARK: Samples

    /// Every sample laid out right to left is its left-to-right table mirrored (the carousel,
    /// whose zoomFirst is not defined right to left, aside), and app-store-rtl.wfl is app-store.wfl
    /// mirrored.
    func testEverySampleMirrors() throws {
        var mirrored = 0
        for url in Golden.inputs("samples") {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard !text.contains("zoomFirst"), !text.contains("layoutDirection") else { continue }
            let ltr = Eval.tables(text)
            let rtl = Eval.tables(text + "\nlayoutDirection rightToLeft\n")
            XCTAssertEqual(ltr.count, rtl.count, url.lastPathComponent)
            for (a, b) in zip(ltr, rtl) {
                let W = a.direction == .vertical ? a.containerWidth : Swift.max(a.contentWidth, a.containerWidth)
                XCTAssertEqual(b.elements.map(\.frame), a.elements.map { e in
                    Frame(x: W - e.frame.x - e.frame.width, y: e.frame.y, width: e.frame.width, height: e.frame.height)
                }, url.lastPathComponent)
                mirrored += 1
            }
        }
        XCTAssertGreaterThanOrEqual(mirrored, 10)
        let ltr = try XCTUnwrap(Eval.table(try String(contentsOf: Golden.root.appendingPathComponent("samples/app-store.wfl"), encoding: .utf8)))
        let rtl = try XCTUnwrap(Eval.table(try String(contentsOf: Golden.root.appendingPathComponent("samples/app-store-rtl.wfl"), encoding: .utf8)))
        XCTAssertTrue(rtl.scroll.rightToLeft)
        XCTAssertEqual(rtl.elements.map(\.frame), ltr.elements.map { e in
            Frame(x: 390 - e.frame.x - e.frame.width, y: e.frame.y, width: e.frame.width, height: e.frame.height)
        })
    }

    /// The shelf engine against a plain transcription of docs/layout.md, "Shelves", over generated
    /// specs: rows, align (stretch included), insets, spacings (negative ones included) and uneven
    /// sizes, with a waterfall section before it so that the shelf starts part way down.
    func testShelfMatchesTheReference() throws {
        var g = WaterfallPropertyTests.Generator(state: 18_0018)
        var compared = 0
        for run in 0..<200 {
            let cw = Double(g.int(150...500))
            let R = g.int(1...4), n = g.pick([0, 1, 2, 5, g.int(0...60)])
            let align = g.pick(["start", "center", "end", "stretch"])
            let ins = (top: Double(g.int(0...20)), left: Double(g.int(0...20)), bottom: Double(g.int(0...20)), right: Double(g.int(0...20)))
            let rs = Double(g.int(-3...15)), cs = Double(g.int(-20...15))
            let a = g.int(1...97), b = g.int(1...89)
            let text = """
                container \(Int(cw)) x 700
                section {
                  items 3
                  height 40
                }
                section {
                  style shelf
                  rows \(R)
                  align \(align)
                  insets \(Int(ins.top)) \(Int(ins.left)) \(Int(ins.bottom)) \(Int(ins.right))
                  spacing (\(Int(rs))) (\(Int(cs)))
                  items \(n)
                  size 20 + i * \(a) % 90 x 10 + i * \(b) % 70
                }
                """
            let t = try XCTUnwrap(Eval.table(text), "run \(run)\n\(text)")
            // The waterfall section ends at 40 + 10 + 40 = 90 (two lanes, three items).
            let top = 90 + ins.top
            let w = (0..<n).map { 20 + Double($0 * a % 90) }, h = (0..<n).map { 10 + Double($0 * b % 70) }
            // rowH[r], colW[c]; rows and columns placed one after another.
            let rowsUsed = min(R, n), columns = (n + R - 1) / R
            var rowH = [Double](repeating: 0, count: rowsUsed), colW = [Double](repeating: 0, count: columns)
            for i in 0..<n {
                rowH[i % R] = max(rowH[i % R], h[i])
                colW[i / R] = max(colW[i / R], w[i])
            }
            var rowY = [top], colX = [ins.left]
            for r in 0..<max(0, rowsUsed - 1) { rowY.append(rowY[r] + rowH[r] + rs) }
            for c in 0..<max(0, columns - 1) { colX.append(colX[c] + colW[c] + cs) }
            var expected: [[Double]] = []
            for i in 0..<n {
                let r = i % R, c = i / R
                let k = align == "start" ? 0.0 : align == "center" ? 0.5 : 1
                if align == "stretch" {
                    expected.append([colX[c], rowY[r], w[i], rowH[r]])
                } else {
                    expected.append([colX[c], rowY[r] + k * (rowH[r] - h[i]), w[i], h[i]])
                }
            }
            let bottom = n == 0 ? top : rowY[rowsUsed - 1] + rowH[rowsUsed - 1]
            XCTAssertEqual(Array(Eval.cells(t).dropFirst(3)), expected, "run \(run)\n\(text)")
            XCTAssertEqual(t.contentHeight, bottom + ins.bottom, "run \(run)")
            XCTAssertEqual(t.scroll.shelves.first?.width, n == 0 ? 0 : colX[columns - 1] + colW[columns - 1] + ins.right, "run \(run)")
            compared += n
        }
        XCTAssertGreaterThan(compared, 1500)
    }

    /// Each section's settings are evaluated with one machine restarted for each
    /// (`Machine.restart`): a `let` read by a setting is computed again for each section (it
    /// depends on `s`), not taken from the cache of the section before; and the calls of user
    /// functions count from zero in each section.
    func testALetReadBySectionSettingsIsComputedForEachSection() throws {
        let t = try XCTUnwrap(Eval.table("""
            let f(k) = k * 10
            let a = f(s) + 1
            header a
            section { items a; height 10 }
            section { items a; height 10 }
            section { items a; height 10 }
            """))
        var counts = [0, 0, 0], headers = [0.0, 0.0, 0.0]
        for e in t.elements {
            if e.kind == .cell { counts[e.section] += 1 }
            if e.kind == .header { headers[e.section] = e.frame.height }
        }
        XCTAssertEqual(counts, [1, 11, 21])
        XCTAssertEqual(headers, [1, 11, 21])
    }

    /// `Machine.restart` leaves a machine as a new one, but for the room of its `let` cache.
    func testARestartedMachineIsANewOne() {
        var m = Machine(seed: 3, letCount: 4)
        m.set(.s, 2)
        m.place = "'items'"
        m.inItem = true
        m.calls = 7
        m.restart(seed: 5)
        let new = Machine(seed: 5)
        XCTAssertEqual(m.vars, new.vars)
        XCTAssertEqual(m.available, new.available)
        XCTAssertEqual(m.place, new.place)
        XCTAssertEqual(m.inItem, new.inItem)
        XCTAssertEqual(m.seed, 5)
        XCTAssertEqual(m.calls, 0)
        XCTAssertEqual(m.letValues.count, 4)
        XCTAssertTrue(m.letGenerations.allSatisfy { $0 < m.generation })
    }
}
