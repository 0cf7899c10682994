import Foundation
import XCTest
@testable import WFL

/// Section backgrounds (docs/layout.md, "Section backgrounds"), with frames computed by hand.
final class ElementsTests: XCTestCase {
    /// The backgrounds of `t`, section by section, as [x, y, w, h].
    func backgrounds(_ t: AttributeTable) -> [Int: [Double]] {
        var out: [Int: [Double]] = [:]
        for e in t.elements where e.kind == .background { out[e.section] = Eval.rect(e) }
        return out
    }

    static let vertical = """
        container 300 x 500
        columns 2
        spacing 10
        header 40
        footer 20
        headerInsets 5 6
        footerInsets 3
        insets 10 20
        section { items 3; height 50; background all }
        section { items 3; height 50; background items; backgroundInsets 4 (-6) }
        section { items 3; height [50, 70, 30]; background cells; backgroundInsets top -10 left 16 }
        section { items 0; background cells }
        section { items 2; height 10; background cells; backgroundInsets 0 130 }
        """

    func testEveryKindVertical() throws {
        let t = try XCTUnwrap(Eval.table(Self.vertical))
        let b = backgrounds(t)
        // Section 0: start 0. Header at 0 + 5, (6, 5, 300 - 12, 40); then top = 5 + 40 + 5 = 50
        // (itemsTop), ins.top 10: items from 60; lanes (300 - 40 - 10) / 2 = 125 wide; cells
        // end at 60 + 50 + 10 + 50 = 170 (bottom), + ins.bottom 10 = 180 (itemsEnd); footer at
        // 180 + 3 = 183, 20 tall, + 3: the section stops at 206 (end).
        // all: (0, start, cw, end - start) = (0, 0, 300, 206).
        XCTAssertEqual(b[0], [0, 0, 300, 206])
        XCTAssertEqual(Eval.rect(t.elements[t.sectionStarts[0].footer!]), [3, 183, 294, 20])
        // Section 1: start 206, itemsTop 206 + 50 = 256, items from 266 to 376, itemsEnd 386.
        // items: R = (0, 256, 300, 386 - 256 = 130); bi = 4 (-6): top 4, left -6, bottom 4, right -6:
        // (0 - 6, 256 + 4, 300 + 6 + 6, 130 - 4 - 4) = (-6, 260, 312, 122).
        XCTAssertEqual(b[1], [-6, 260, 312, 122])
        // Section 2: start 206 + 206 = 412, items from 472: item 0 (20, 472, 125, 50), item 1
        // (155, 472, 125, 70), item 2 in lane 0 at 472 + 50 + 10 = 532, (20, 532, 125, 30).
        // cells: R = (20, 472, 280 - 20 = 260, 562 - 472 = 90); top -10, left 16:
        // (20 + 16, 472 - 10, 260 - 16, 90 + 10) = (36, 462, 244, 100).
        XCTAssertEqual(Eval.cells(t)[8], [20, 532, 125, 30])
        XCTAssertEqual(b[2], [36, 462, 244, 100])
        // Section 3 has no cells: no `cells` background. Section 4: cells R = (20, y, 260, 10);
        // left and right 130: width 260 - 260 = 0, not > 0: none.
        XCTAssertNil(b[3])
        XCTAssertNil(b[4])
        XCTAssertEqual(t.elements.filter { $0.kind == .background }.count, 3)
        // Backgrounds never change the content size: 5 sections of 206, 206, 186 + ..., as without.
        let plain = try XCTUnwrap(Eval.table(["all", "items", "cells"].reduce(Self.vertical) { $0.replacingOccurrences(of: "background \($1)", with: "background none") }))
        XCTAssertEqual(t.contentSize, plain.contentSize)
        XCTAssertEqual(Eval.cells(t), Eval.cells(plain))
    }

    static let horizontal = """
        direction horizontal
        container 500 x 300
        rows 2
        spacing 10
        header 40
        footer 20
        headerInsets 5 6
        footerInsets 3
        insets 10 20
        section { items 3; width 50; background all }
        section { items 3; width 50; background items; backgroundInsets 4 (-6) }
        section { items 3; width [50, 70, 30]; background cells; backgroundInsets top -10 left 16 }
        """

    func testEveryKindHorizontal() throws {
        let t = try XCTUnwrap(Eval.table(Self.horizontal))
        let b = backgrounds(t)
        // Along x. Section 0: header at 0 + 6, (6, 5, 40, 300 - 10); top = 6 + 40 + 6 = 52
        // (itemsTop); ins.left 20: items from 72; lanes (300 - 20 - 10) / 2 = 135 tall; lane 0
        // ends at 72 + 50 + 10 + 50 = 182 (bottom), + ins.right 20 = 202 (itemsEnd); footer at
        // 205, 20 wide, + 3: stops at 228.
        // all: (start, 0, end - start, ch) = (0, 0, 228, 300).
        XCTAssertEqual(Eval.rect(t.elements[t.sectionStarts[0].header!]), [6, 5, 40, 290])
        XCTAssertEqual(b[0], [0, 0, 228, 300])
        // Section 1: start 228, itemsTop 280, items from 300 to 410, itemsEnd 430.
        // items: R = (280, 0, 150, 300); top 4, left -6, bottom 4, right -6:
        // (280 - 6, 0 + 4, 150 + 12, 300 - 8) = (274, 4, 162, 292).
        XCTAssertEqual(b[1], [274, 4, 162, 292])
        // Section 2: start 456, items from 528: item 0 (528, 10, 50, 135), item 1 (528, 155, 70,
        // 135), item 2 in lane 0 at 528 + 50 + 10 = 588, (588, 10, 30, 135).
        // cells: R = (528, 10, 618 - 528 = 90, 290 - 10 = 280); top -10, left 16:
        // (528 + 16, 10 - 10, 90 - 16, 280 + 10) = (544, 0, 74, 290).
        XCTAssertEqual(Eval.cells(t)[8], [588, 10, 30, 135])
        XCTAssertEqual(b[2], [544, 0, 74, 290])
    }

    /// Without a header or footer, `all` and `items` differ by the section's insets only when
    /// there is a header: `items` starts at the section's start, and ends at its end.
    func testItemsWithoutHeaderOrFooter() throws {
        let t = try XCTUnwrap(Eval.table("container 200 x 400\ncolumns 1\ninsets 7\nsection { items 2; height 30; spacing 5; background items }\nsection { items 1; height 10; background all }"))
        // Section 0: items from 7, (7, 7, 186, 30), (7, 42, 186, 30); bottom 72, end 79.
        // items: (0, 0, 200, 79). Section 1: start 79, end 79 + 7 + 10 + 7 = 103: (0, 79, 200, 24).
        XCTAssertEqual(backgrounds(t)[0], [0, 0, 200, 79])
        XCTAssertEqual(backgrounds(t)[1], [0, 79, 200, 24])
    }

    /// Table order: background, header, cells, footer; z-index -1, no item; the section index
    /// points past the background.
    func testTableOrderAndIndex() throws {
        let t = try XCTUnwrap(Eval.table(Self.vertical))
        let kinds = t.elements.prefix(6).map(\.kind)
        XCTAssertEqual(kinds, [.background, .header, .cell, .cell, .cell, .footer])
        let bg = t.elements[0]
        XCTAssertEqual(bg.zIndex, -1)
        XCTAssertNil(bg.item)
        XCTAssertEqual(t.sectionStarts[1].background, 6)
        XCTAssertEqual(t.sectionStarts[1].header, 7)
        XCTAssertEqual(t.sectionStarts[1].firstCell, 8)
        XCTAssertEqual(t.sectionStarts[3].background, nil)
        XCTAssertTrue(t.index.covers(t.elements.count))
    }

    /// Every format names the kind; json gives it a null item.
    func testFormats() throws {
        let t = try XCTUnwrap(Eval.table("container 100 x 100\ncolumns 1\nitems 1\nheight 10\nbackground cells\nbackgroundInsets -2"))
        let json = JSONFormat.format([t])
        XCTAssertTrue(json.contains(#"{"kind": "background", "section": 0, "item": null, "frame": [-2, -2, 104, 14], "zIndex": -1}"#), json)
        XCTAssertTrue(CSVFormat.format([t]).contains("\nt,0,,background,-2,-2,104,14,-1\n"))
        XCTAssertTrue(TableFormat.format(t).contains("0        -     background  -2  -2  104    14      -1\n"), TableFormat.format(t))
        let swift = SwiftFormat.format([t], sourceName: "t.wfl")
        XCTAssertTrue(swift.contains("        3, 0, -1, -1,\n"), swift)
        XCTAssertTrue(swift.contains(#"[nil, "UICollectionElementKindSectionHeader", "UICollectionElementKindSectionFooter", "background"][rows[4 * k]]"#), swift)
        let svg = SVGFormat.format([t])
        XCTAssertTrue(svg.contains(#"<rect class="background" style="#), svg)
    }

    /// zoomFirst's walk moves a background as it moves a footer: shifted by `total` when its x
    /// is at or past `first.maxX`, never resized. Expectations read it at offsets.
    func testZoomFirstShiftsBackgrounds() throws {
        let text = """
            style flow
            direction horizontal
            container 375 x 200
            spacing 10
            insets 10
            zoomFirst 120 x 150
            section { items 2; size 100 x 100 }
            section { items 1; size 100 x 100; background cells }
            expect background(1) == [250, 50, 100, 100]
            expect background(1, 50, 0) == [250, 50, 100, 100]
            """
        let t = try XCTUnwrap(Eval.table(text))
        // At (0, 0): first = (10, 10, 100, 100), item 0 of section 0 fully overlaps: newW =
        // 100 + 1 * 20 = 120, total 20. Section 1 starts at 10 + 100 + 10 + 100 + 10 = 230; its
        // cell at 240 and its background (240, 50, 100, 100) move by 20 to 260.
        let at0 = t.at(.zero)
        let bg = try XCTUnwrap(at0.elements.first { $0.kind == .background })
        XCTAssertEqual(Eval.rect(bg), [260, 50, 100, 100])
        // The plain table keeps its frame at rest; frame(of:at:) agrees with at().
        XCTAssertEqual(Eval.rect(t.elements[t.sectionStarts[1].background!]), [240, 50, 100, 100])
        XCTAssertEqual(t.frame(of: t.sectionStarts[1].background!, at: .zero), bg.frame)
    }

    func testBackgroundExpectations() throws {
        let text = """
            columns 1
            container 100 x 100
            section { items 1; height 10; background all }
            section { items 1; height 10 }
            expect background(0) == [0, 0, 100, 10]
            expect background(1) == [0, 0, 0, 0]
            expect count(0, 0, 100, 100) == 3
            """
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        XCTAssertFalse(c.hasErrors)
        let outcomes = Pipeline.checkExpectations(c)
        XCTAssertEqual(outcomes.map(\.passed), [true, false, true])
        XCTAssertEqual(outcomes[1].diagnostic?.message, "section 1 has no background")
    }

    /// `8 -6` in a setting of several values warns; `8 (-6)`, `8 - 6` and `(8 -6)` do not.
    func testSpacedMinusWarning() throws {
        func warnings(_ text: String) -> [String] {
            Parser.parse(SourceFile(name: "t.wfl", text: text)).diagnostics.filter { $0.code == .spacedMinus }.map(\.message)
        }
        XCTAssertEqual(warnings("backgroundInsets 8 -6\n"), ["'8 -6' is one value, 2; write '8 (-6)' for two"])
        XCTAssertEqual(warnings("spacing 10 -5\n"), ["'10 -5' is one value, 5; write '10 (-5)' for two"])
        XCTAssertEqual(warnings("let a = 3\ninsets top a -1\n"), ["'a -1' is one value; write 'a (-1)' for two"])
        XCTAssertEqual(warnings("insets 8 (-6)\ninsets 8 - 6\ninsets (8 -6)\ninsets 8-6\nheader 8 -6\n"), [])
    }
}

/// Attached views (docs/layout.md, "Attached views"), with frames computed by hand.
final class AttachedViewsTests: XCTestCase {
    func views(_ t: AttributeTable, _ name: String) -> [[Double]] {
        t.elements.filter { t.kindName(of: $0) == name }.map(Eval.rect)
    }

    /// The views of each cell, found through the views ordered by cell: with one `attach` block
    /// (its views come in cell order) and with two (the second's start over at the first cell).
    func testTheViewsOfACellAreFoundByCell() throws {
        for blocks in [["a { size 4 x 4; when i % 3 != 1 }"], ["a { size 4 x 4; when i % 3 != 1 }", "b { size 2 x 2; when i < 5 }"]] {
            let text = "columns 2\nheight 10\n" + blocks.map { "attach " + $0 + "\n" }.joined() + "section {\n  items 9\n}\nsection {\n  items 4\n}\n"
            let t = try XCTUnwrap(Eval.table(text))
            let views = try XCTUnwrap(t.rules.views)
            XCTAssertEqual(views.cells.count, blocks.count == 1 ? 6 + 3 : 6 + 3 + 5 + 4, text)
            // Two blocks: the cells of the views go back at the second block.
            XCTAssertEqual(zip(views.cells, views.cells.dropFirst()).contains { $1 < $0 }, blocks.count == 2, "\(views.cells)")
            for c in 0..<Int(views.cells.max()! + 2) {
                let brute = views.cells.indices.filter { Int(views.cells[$0]) == c }.map { Int(views.elements[$0]) }
                XCTAssertEqual(views.views(of: c), brute, "cell \(c): \(text)")
            }
        }
    }

    /// Every anchor on the cell (10, 20, 100, 60), a view 30 x 10 offset by (2, -4):
    /// frame = (x + fx * w - fx * vw + dx, y + fy * h - fy * vh + dy, vw, vh).
    func testEveryAnchor() throws {
        var text = "container 120 x 200\ncolumns 1\ninsets 20 10 0 10\nitems 1\nheight 60\n"
        for a in AttachAnchor.allCases { text += "attach \(a.rawValue)View { size 30 x 10; anchor \(a.rawValue); offset 2 x (-4) }\n" }
        let t = try XCTUnwrap(Eval.table(text))
        XCTAssertEqual(Eval.cells(t), [[10, 20, 100, 60]])
        // fx, fy = 0, 0.5, 1: x = 10 + fx * 100 - fx * 30 + 2 = 12, 47, 82; y = 20 + fy * 60 - fy * 10 - 4 = 16, 41, 66.
        let expected: [String: [Double]] = [
            "topLeft": [12, 16, 30, 10], "top": [47, 16, 30, 10], "topRight": [82, 16, 30, 10],
            "left": [12, 41, 30, 10], "center": [47, 41, 30, 10], "right": [82, 41, 30, 10],
            "bottomLeft": [12, 66, 30, 10], "bottom": [47, 66, 30, 10], "bottomRight": [82, 66, 30, 10],
        ]
        for a in AttachAnchor.allCases { XCTAssertEqual(views(t, a.rawValue + "View"), [expected[a.rawValue]!], a.rawValue) }
        // In the order of the attach blocks, after the cell, z-index 0 + 1.
        XCTAssertEqual(t.elements.dropFirst().map { t.kindName(of: $0) }, AttachAnchor.allCases.map { $0.rawValue + "View" })
        XCTAssertEqual(Set(t.elements.dropFirst().map(\.zIndex)), [1])
    }

    /// The default badge: 20 x 20 at the top right; `offset (vw / 2) x (-vh / 2)` centres it on
    /// the corner. `when` picks the cells; `w` and `h` are the cell's.
    func testBadgeDefaultsWhenAndCellSize() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 300 x 400
            columns 2
            spacing 10
            items 4
            height [50, 70]
            attach badge { when i % 2 == 0; offset (vw / 2) x (-vh / 2) }
            attach line { size w x 1; anchor bottom; zIndex 2 }
            attach plain { }
            """))
        // Cells: (0, 0, 145, 50), (155, 0, 145, 70), (0, 60, 145, 50), (155, 80, 145, 70).
        // badge on 0 and 2: x = 0 + 145 - 20 + 10 = 135, y = 0 - 10 = -10 (and 60 - 10 = 50).
        XCTAssertEqual(views(t, "badge"), [[135, -10, 20, 20], [135, 50, 20, 20]])
        // line: fx 0.5, fy 1, 145 x 1: x = x + 72.5 - 72.5, y = y + h - 1.
        XCTAssertEqual(views(t, "line"), [[0, 49, 145, 1], [155, 69, 145, 1], [0, 109, 145, 1], [155, 149, 145, 1]])
        XCTAssertEqual(t.elements.filter { t.kindName(of: $0) == "line" }.map(\.zIndex), [2, 2, 2, 2])
        // plain: every default, 20 x 20 inside the top right corner.
        XCTAssertEqual(views(t, "plain").first, [125, 0, 20, 20])
        XCTAssertEqual(t.sectionStarts[0].viewCount, 2 + 4 + 4)
    }

    /// An inner `attach` of a name replaces the outer one whole; names keep the order of their
    /// first `attach` in the file's text, wherever it stands.
    func testCascadeAndOrder() throws {
        let t = try XCTUnwrap(Eval.tables("""
            columns 1
            layout a {
              items 1
              height 40
              attach late { size 5 x 5 }
              section { items 1; height 40 }
              section { items 1; height 40; attach badge { anchor topLeft } }
            }
            attach badge { size 10 x 10; when i == 0 }
            """).first)
        XCTAssertEqual(t.attachedNames, ["late", "badge"])
        // Section 0: the file's badge (10 x 10 at the top right of a 375-wide cell), after 'late'.
        let s0 = t.elements.filter { $0.section == 0 && $0.kind == .attached }
        XCTAssertEqual(s0.map { t.kindName(of: $0) }, ["late", "badge"])
        XCTAssertEqual(Eval.rect(s0[1]), [365, 0, 10, 10])
        // Section 1: its own badge replaces the file's whole: 20 x 20 (the default), top left.
        let s1 = t.elements.filter { $0.section == 1 && $0.kind == .attached }
        // (Section 0 stops at 40: its cell 0 ..< 40, no insets.)
        XCTAssertEqual(Eval.rect(s1[1]), [0, 40, 20, 20])
    }

    /// An attached view's zIndex that is not whole names the setting and the block once.
    func testAttachedZIndexMessage() {
        let errors = Eval.errors("items 1\nattach b { zIndex 1.5 }\n")
        XCTAssertTrue(errors.contains("error: the zIndex in 'attach b' must be a whole number, not 1.5"), errors)
    }

    /// A view takes its cell's alpha (not its zoom) and adds its z-index to its cell's; zoomFirst
    /// moves it with its cell.
    func testAttributesAndZoomFirst() throws {
        let text = """
            style flow
            direction horizontal
            container 375 x 200
            spacing 10
            insets 10
            zoomFirst 120 x 150
            items 3
            size 100 x 100
            alpha i == 1 ? 0.5 : 1
            zoom 2
            zIndex 10 * i
            attach badge { size 10 x 10; zIndex 3 }
            expect attached("badge", 0, 1) == [230, 50, 10, 10]
            expect attached("badge", 0, 0, 50, 0) == [110, 37.5, 10, 10]
            """
        let t = try XCTUnwrap(Eval.table(text))
        let at0 = t.at(.zero)
        // At (0, 0) item 0 grows to (10, 25, 120, 150): its badge at 10 + 120 - 10 = 120, y 25;
        // item 1 moves by 20 to (140, 50, 100, 100): its badge at 140 + 100 - 10 = 230, y 50.
        let badges = at0.elements.indices.filter { at0.elements[$0].kind == .attached }
        XCTAssertEqual(badges.map { Eval.rect(at0.elements[$0]) }, [[120, 25, 10, 10], [230, 50, 10, 10], [340, 50, 10, 10]])
        XCTAssertEqual(badges.map { at0.alpha(of: $0) }, [1, 0.5, 1])
        XCTAssertEqual(badges.map { at0.zoom(of: $0) }, [1, 1, 1])
        XCTAssertEqual(badges.map { at0.elements[$0].zIndex }, [3, 13, 23])
        // The offset form reads the same frames as at().
        XCTAssertEqual(t.frame(of: t.sectionStarts[0].firstView + 1, at: .zero), at0.elements[badges[1]].frame)
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        // At (50, 0): first = (60, 10, 100, 100); item 0 (10 ..< 110) overlaps it by 50:
        // newW = 100 + 50 / 100 * 20 = 110, newH = 100 + 0.5 * 50 = 125, frame (10, 100 - 62.5, 110, 125);
        // its badge at 10 + 110 - 10 = 110, y 37.5.
        XCTAssertEqual(Pipeline.checkExpectations(c).map(\.passed), [true, true])
    }

    /// The REPL takes an `attach` block over several lines, and `attached` reads it.
    func testREPL() {
        let session = Session()
        XCTAssertFalse(session.enter("items 3\nheight 10").failed)
        XCTAssertTrue(session.needsMore("attach b {\n  when i == 0"))
        let r = session.enter("attach b {\n  when i == 0\n}")
        XCTAssertFalse(r.failed, r.diagnostics)
        XCTAssertTrue(r.output.hasSuffix("1 attached view added\n"), r.output)
        XCTAssertTrue(session.enter("background all").output.hasSuffix("1 background added\n"))
        XCTAssertEqual(session.enter("attached(\"b\", 0, 0)").output, "[162.5, 0, 20, 20]\n")
        XCTAssertTrue(session.enter("when i == 1").diagnostics.contains("unknown setting 'when'"))
    }

    /// Right to left: backgrounds and views are placed before the mirror (anchors name physical
    /// sides before it, so a topRight badge ends up top left), and the attribute rules read the
    /// mirrored frames (steps 1, 4, 5 and 6 of the order of evaluation).
    func testRightToLeft() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 300 x 400
            layoutDirection rightToLeft
            columns 2
            spacing 10
            items 3
            height 50
            background cells
            backgroundInsets right -4
            attach badge { size 20 x 10 }
            zIndex minX
            """))
        // Left to right: cells (0, 0, 145, 50), (155, 0, 145, 50), (0, 60, 145, 50); mirrored
        // x' = 300 - x - w: 155, 0, 155.
        XCTAssertEqual(Eval.cells(t).map { $0[0] }, [155, 0, 155])
        // The badge of cell 0 at its top right, x = 0 + 145 - 20 = 125, mirrored: 300 - 125 - 20 = 155,
        // the top left of the mirrored cell.
        XCTAssertEqual(views(t, "badge"), [[155, 0, 20, 10], [0, 0, 20, 10], [155, 60, 20, 10]])
        // cells: (0, 0, 300, 110) with right -4: (0, 0, 304, 110); mirrored: x = 300 - 0 - 304 = -4.
        let bg = try XCTUnwrap(t.elements.first { $0.kind == .background })
        XCTAssertEqual(Eval.rect(bg), [-4, 0, 304, 110])
        // zIndex minX reads the mirrored frames; a view adds its 1.
        XCTAssertEqual(t.elements.filter { $0.kind == .cell }.map(\.zIndex), [155, 0, 155])
        XCTAssertEqual(t.elements.filter { $0.kind == .attached }.map(\.zIndex), [156, 1, 156])
        XCTAssertEqual(t.frame(of: t.sectionStarts[0].firstView, at: Offset(x: 0, y: 30)), Frame(x: 155, y: 0, width: 20, height: 10))
    }

    /// `col` in an `attach` block is found from the cell's frame (`FirstLanes.fromPosition`);
    /// its plain twin lays the section out again with the lanes recorded. On waterfalls of every
    /// order, direction, span and lane count, the two agree wherever the position tells, and the
    /// position tells unless two lanes start at the same place.
    func testFirstLanesFromPositionsAgreeWithTheEngine() throws {
        var r = RobustnessTests.SplitMix64(seed: 19)
        var cases: [(text: String, vertical: Bool)] = []
        for k in 0..<300 {
            let vertical = r.next() % 2 == 0
            let lanes = 1 + Int(r.next() % 9)
            let order = ["shortest", "leftToRight", "rightToLeft"][Int(r.next() % 3)]
            let across = 200 + Int(r.next() % 400)
            // Mostly ordinary spacing; now and then cs = -aw, which puts every lane at the same
            // place (laneW + cs = (aw + cs) / C = 0).
            let aw = across - (vertical ? 11 + 13 : 7 + 5)
            let spacing = k % 10 == 0 ? "(-\(aw))" : "\(r.next() % 13)"
            let scale = r.next() % 3 == 0 ? "scale 3\n" : ""
            let lengthWord = vertical ? "height" : "width"
            var text = "layout l\(k) {\n"
            text += vertical ? "container \(across) x 800\ncolumns \(lanes)\n" : "direction horizontal\ncontainer 800 x \(across)\nrows \(lanes)\n"
            text += "\(vertical ? "columnSpacing" : "rowSpacing") \(spacing)\ninsets 7 11 5 13\norder \(order)\n\(scale)"
            for _ in 0..<2 {
                text += "section { items \(Int(r.next() % 40)); \(lengthWord) 10 + random(0, 90); span random(1, \(lanes + 2)) }\n"
            }
            text += "}\n"
            cases.append((text, vertical))
        }
        // Each layout on every core; a case's assertions are recorded against this test.
        let counts = try Concurrent.map(Array(cases.enumerated())) { k, c -> (told: Int, untold: Int) in
            let (text, vertical) = c
            var told = 0, untold = 0
            let source = SourceFile(name: "t.wfl", bytes: Array(text.utf8))
            let program = Program(tree: Parser.parse(source).tree, source: source)
            let layout = try XCTUnwrap(program.resolve(layoutNamed: "l\(k)")).get()
            var warnings: [Diagnostic] = []
            guard case .success(let table) = Sections.layout(layout, warnings: &warnings) else {
                XCTFail(text)
                return (0, 0)
            }
            for (s, sec) in layout.sections.enumerated() {
                let index = table.sectionStarts[s]
                let finder = try XCTUnwrap(FirstLanes(sec, layout, begin: index.begin))
                let recorded = try Waterfall.firstLanes(sec, layout, begin: index.begin)
                XCTAssertEqual(recorded.count, sec.items, text)
                for i in 0..<sec.items {
                    let f = table.elements[index.firstCell + i].frame
                    if let c = finder.fromPosition(vertical ? f.x : f.y, finder.geometry.C) {
                        XCTAssertEqual(c, Int(recorded[i]), "item \(i) of section \(s):\n\(text)")
                        told += 1
                    } else {
                        untold += 1
                    }
                }
            }
            return (told, untold)
        }
        let told = counts.map(\.told).reduce(0, +), untold = counts.map(\.untold).reduce(0, +)
        XCTAssertGreaterThan(told, 1000)
        XCTAssertGreaterThan(untold, 10)
    }
}
