import Foundation
import XCTest
@testable import WFL

/// `appear` / `disappear` and the transitions of a batch update (docs/layout.md, "Transitions"),
/// worked by hand. The table after an update is written here as a spec of its own: a staying item
/// keeps its per-item values, so the lists of heights are those of the items that stay, in order.
final class TransitionTests: XCTestCase {
    /// The transitions from the table of `before` to that of `after` for `update`.
    func transitions(_ before: String, _ after: String, _ update: BatchUpdate, at offset: Offset = .zero,
                     file: StaticString = #filePath, line: UInt = #line) throws -> TransitionTable {
        let b = try XCTUnwrap(Eval.table(before, file: file, line: line), file: file, line: line)
        let a = try XCTUnwrap(Eval.table(after, file: file, line: line), file: file, line: line)
        return try Transitions.table(before: b, after: a, update: update, at: offset)
    }

    /// One transition as text: kind section item itemBefore change from -> to.
    func row(_ t: TransitionTable, _ x: Transition) -> String {
        func end(_ e: TransitionEnd) -> String {
            let f = e.frame
            return [f.x, f.y, f.width, f.height, e.alpha, e.zoom].map { NumberFormat.format($0) }.joined(separator: " ")
        }
        return "\(t.kindName(of: x)) \(x.section) \(x.item.map(String.init) ?? "-") \(x.itemBefore.map(String.init) ?? "-") \(x.change.rawValue) \(end(x.from)) -> \(end(x.to))"
    }

    func rows(_ t: TransitionTable) -> [String] { t.transitions.map { row(t, $0) } }

    // MARK: The language

    func testAppearParsesAndIsNotReserved() throws {
        let r = Parser.parse(SourceFile(name: "t.wfl", text: "let appear = 2\nappear { alpha 0.5; offset 0 x appear }\nsection { disappear { zoom 0 } }\n"))
        XCTAssertEqual(r.diagnostics.map(\.message), [])
        guard r.tree.statements.count == 3, case .appear(let a) = r.tree.statements[1].kind, case .section(let s) = r.tree.statements[2].kind,
              case .appear(let d) = s.statements.first?.kind else { return XCTFail("\(r.tree.statements.map(\.kind))") }
        XCTAssertFalse(a.disappear)
        XCTAssertEqual(a.block.statements.count, 2)
        XCTAssertTrue(d.disappear)
    }

    /// Each of alpha, zoom and offset cascades on its own: the section's `appear { zoom }` keeps
    /// the file's alpha and offset.
    func testEachSettingCascadesOnItsOwn() throws {
        let spec = { (items: Int) in
            "columns 1\nheight 100\nappear { alpha 0.25; offset 0 x 40 }\nsection { items \(items)\nappear { zoom 0.5 } }\n"
        }
        let t = try transitions(spec(1), spec(2), BatchUpdate(sections: [SectionUpdate(countBefore: 1, inserted: [1])]))
        // Cell 1 after: (0, 110, 375, 100); it starts 40 lower, alpha 0.25 (file), zoom 0.5 (section).
        XCTAssertEqual(rows(t), [
            "cell 0 0 0 stay 0 0 375 100 1 1 -> 0 0 375 100 1 1",
            "cell 0 1 - appear 0 150 375 100 0.25 0.5 -> 0 110 375 100 1 1",
        ])
    }

    // MARK: Pairing, worked by hand

    /// A 2-column waterfall (lanes (375 - 10) / 2 = 182.5 wide, `order shortest`), heights
    /// [100, 500, 300, 50, 50]:
    ///   0: lane 0, y 0    (lane 0 ends at 100)     1: lane 1, y 0 (ends at 500)
    ///   2: lane 0, y 110  (ends at 410)            3: lane 0, y 420 (ends at 470)
    ///   4: lane 0, y 480  (ends at 530)
    /// Deleting item 2, the tallest of lane 0: the items after it are [50, 50], and lane 0 still
    /// ends before lane 1, so they stay in lane 0 and move up: 3 to y 110, 4 to y 170. Item 1,
    /// alone in lane 1, stays.
    func testWaterfallDeleteTheTallestOfALane() throws {
        let before = "columns 2\nitems 5\nheight [100, 500, 300, 50, 50]\n"
        let after = "columns 2\nitems 4\nheight [100, 500, 50, 50]\n"
        let t = try transitions(before, after, BatchUpdate(sections: [SectionUpdate(countBefore: 5, deleted: [2])]))
        XCTAssertEqual(rows(t), [
            "cell 0 0 0 stay 0 0 182.5 100 1 1 -> 0 0 182.5 100 1 1",
            "cell 0 1 1 stay 192.5 0 182.5 500 1 1 -> 192.5 0 182.5 500 1 1",
            "cell 0 2 3 move 0 420 182.5 50 1 1 -> 0 110 182.5 50 1 1",
            "cell 0 3 4 move 0 480 182.5 50 1 1 -> 0 170 182.5 50 1 1",
            // Last, the element that disappears: default disappear, alpha 0 in place.
            "cell 0 - 2 disappear 0 110 182.5 300 1 1 -> 0 110 182.5 300 0 1",
        ])
        // Content height: max(530, 500) before, max(220, 500) after.
        XCTAssertEqual(t.before.contentSize.height, 530)
        XCTAssertEqual(t.after.contentSize.height, 500)
        XCTAssertEqual(t.counts.stay, 2)
        XCTAssertEqual(t.counts.move, 2)
        XCTAssertEqual(t.counts.disappear, 1)
    }

    /// A flow of 100 x 50 items, `justify start`: three fit a line of 375 (3 * 100 + 2 * 10 = 320;
    /// four would need 430). Inserting at 0 pushes old item 2 onto a second line at y 50 + 10 = 60.
    func testFlowInsertPushesAnItemOntoTheNextLine() throws {
        let spec = { (items: Int) in "style flow\njustify start\nsize 100 x 50\nitems \(items)\n" }
        let t = try transitions(spec(3), spec(4), BatchUpdate(sections: [SectionUpdate(countBefore: 3, inserted: [0])]))
        XCTAssertEqual(rows(t), [
            "cell 0 0 - appear 0 0 100 50 0 1 -> 0 0 100 50 1 1",
            "cell 0 1 0 move 0 0 100 50 1 1 -> 110 0 100 50 1 1",
            "cell 0 2 1 move 110 0 100 50 1 1 -> 220 0 100 50 1 1",
            "cell 0 3 2 move 220 0 100 50 1 1 -> 0 60 100 50 1 1",
        ])
    }

    /// A badge (20 x 20, top right) on every cell of a 2-column waterfall of 100-high cells;
    /// inserting item 2 puts it at lane 0 (both lanes end at 100; the first wins), y 110, and its
    /// badge at (0 + 182.5 - 20, 110) = (162.5, 110). Both appear: the cell from 40 lower at zoom
    /// 0.5, the badge likewise (appear is evaluated for views too), alpha 0 by default.
    func testAnAttachedViewAppearsWithItsCell() throws {
        let spec = { (items: Int) in "columns 2\nheight 100\nitems \(items)\nattach badge { size 20 x 20 }\nappear { zoom 0.5; offset 0 x 40 }\n" }
        let t = try transitions(spec(2), spec(3), BatchUpdate(sections: [SectionUpdate(countBefore: 2, inserted: [2])]))
        XCTAssertEqual(rows(t), [
            "cell 0 0 0 stay 0 0 182.5 100 1 1 -> 0 0 182.5 100 1 1",
            "cell 0 1 1 stay 192.5 0 182.5 100 1 1 -> 192.5 0 182.5 100 1 1",
            "cell 0 2 - appear 0 150 182.5 100 0 0.5 -> 0 110 182.5 100 1 1",
            "badge 0 0 0 stay 162.5 0 20 20 1 1 -> 162.5 0 20 20 1 1",
            "badge 0 1 1 stay 355 0 20 20 1 1 -> 355 0 20 20 1 1",
            "badge 0 2 - appear 162.5 150 20 20 0 0.5 -> 162.5 110 20 20 1 1",
        ])
    }

    /// A `cells` background appears when its section gains its first cell, and fades in (alpha 0,
    /// zoom 1, no offset, whatever `appear` says). Section 0 ends at 100 (its two cells side by
    /// side); section 1's one cell is at (0, 100, 182.5, 100), and so is its background.
    func testACellsBackgroundAppearsWithTheFirstCell() throws {
        let spec = { (items: Int) in "columns 2\nheight 100\nappear { zoom 0.5 }\nsection { items 2 }\nsection { items \(items); background cells }\n" }
        let t = try transitions(spec(0), spec(1), BatchUpdate(sections: [SectionUpdate(countBefore: 2), SectionUpdate(countBefore: 0, inserted: [0])]))
        XCTAssertEqual(rows(t), [
            "cell 0 0 0 stay 0 0 182.5 100 1 1 -> 0 0 182.5 100 1 1",
            "cell 0 1 1 stay 192.5 0 182.5 100 1 1 -> 192.5 0 182.5 100 1 1",
            "background 1 - - appear 0 100 182.5 100 0 1 -> 0 100 182.5 100 1 1",
            "cell 1 0 - appear 0 100 182.5 100 0 0.5 -> 0 100 182.5 100 1 1",
        ])
    }

    /// The order: the elements of the table after, in its order (section by section), then the
    /// ones that disappear in the order of the table before, whatever their sections. A header
    /// that only moves is a `move`; one whose frame is unchanged a `stay`.
    func testOrderAfterThenDisappearingInTheOrderBefore() throws {
        let before = "columns 1\nheader 20\nsection { items 3; height [10, 20, 30] }\nsection { items 2; height [40, 50] }\n"
        let after = "columns 1\nheader 20\nsection { items 2; height [10, 30] }\nsection { items 1; height [50] }\n"
        let t = try transitions(before, after, BatchUpdate(sections: [SectionUpdate(countBefore: 3, deleted: [1]), SectionUpdate(countBefore: 2, deleted: [0])]))
        // Before: section 0 header (0, 0, 375, 20), cells at 20, 40, 70 (10, 20, 30 tall, spacing
        // 10); it ends at 100. Section 1: header at 100, cells at 120 (40) and 170 (50).
        // After: section 0 header at 0, cells at 20 (10) and 40 (30), ending at 70; section 1:
        // header at 70, its cell (old 1) at 90.
        XCTAssertEqual(rows(t), [
            "header 0 - - stay 0 0 375 20 1 1 -> 0 0 375 20 1 1",
            "cell 0 0 0 stay 0 20 375 10 1 1 -> 0 20 375 10 1 1",
            "cell 0 1 2 move 0 70 375 30 1 1 -> 0 40 375 30 1 1",
            "header 1 - - move 0 100 375 20 1 1 -> 0 70 375 20 1 1",
            "cell 1 0 1 move 0 170 375 50 1 1 -> 0 90 375 50 1 1",
            "cell 0 - 1 disappear 0 40 375 20 1 1 -> 0 40 375 20 0 1",
            "cell 1 - 0 disappear 0 120 375 40 1 1 -> 0 120 375 40 0 1",
        ])
    }

    /// `disappear` sees the table before: `i` and `n` there, and the frame as shown; a list
    /// cycles by `i`. Deleting items 0 and 3 of 4 (one column, 100 tall, at y 0, 110, 220, 330):
    /// item 0 ends (0, 0 + 10 * 0 + 4, ...) with alpha [0.5, 0.25][0] = 0.5, item 3 at
    /// 330 + 10 * 3 + 4 = 364, alpha [0.5, 0.25][3 % 2] = 0.25; the zoom reads minY: 1 + 0 / 1000
    /// and 1 + 330 / 1000.
    func testDisappearSeesTheTableBefore() throws {
        let spec = { (items: Int) in "columns 1\nheight 100\nitems \(items)\ndisappear { alpha [0.5, 0.25]; zoom 1 + minY / 1000; offset 0 x (10 * i + n) }\n" }
        let t = try transitions(spec(4), spec(2), BatchUpdate(sections: [SectionUpdate(countBefore: 4, deleted: [0, 3])]))
        XCTAssertEqual(Array(rows(t).suffix(2)), [
            "cell 0 - 0 disappear 0 0 375 100 1 1 -> 0 4 375 100 0.5 1",
            "cell 0 - 3 disappear 0 330 375 100 1 1 -> 0 364 375 100 0.25 1.33",
        ])
    }

    /// A value of an `appear` rule outside its range, for an element that appears, is an error
    /// naming the item; elements that do not appear never evaluate it.
    func testAnAppearValueOutOfRangeIsAnError() throws {
        let spec = { (items: Int) in "columns 1\nheight 100\nitems \(items)\nappear { alpha i - 1 }\n" }
        // Item 1 appears: alpha 0, fine (item 0 would have been -1, but it stays).
        XCTAssertNoThrow(try transitions(spec(1), spec(2), BatchUpdate(sections: [SectionUpdate(countBefore: 1, inserted: [1])])))
        do {
            _ = try transitions(spec(1), spec(2), BatchUpdate(sections: [SectionUpdate(countBefore: 1, inserted: [0])]))
            XCTFail("no error")
        } catch {
            let d = try XCTUnwrap(error as? Diagnostic)
            XCTAssertEqual(d.code, .badAttribute)
            XCTAssertEqual(d.message, "the alpha of 'appear' of item 0 of section 0 is -1: an alpha is from 0 to 1")
        }
    }

    /// Right to left: the frames are mirrored before the transitions, and the offset stays
    /// physical (`offset 40 x 0` moves right). One column of 100 x 100 items, `size` in a flow,
    /// `justify start`: after the mirror item 0 is at x 375 - 100 = 275; it starts at 315.
    func testRightToLeftOffsetIsPhysical() throws {
        let spec = { (items: Int) in "style flow\njustify start\nsize 100 x 100\nlayoutDirection rightToLeft\nitems \(items)\nappear { offset 40 x 0 }\n" }
        let t = try transitions(spec(0), spec(1), BatchUpdate(sections: [SectionUpdate(countBefore: 0, inserted: [0])]))
        XCTAssertEqual(rows(t), ["cell 0 0 - appear 315 0 100 100 0 1 -> 275 0 100 100 1 1"])
    }

    /// `--offset` applies to both tables: a pinned header at offset y 150 sits at y 150 in both
    /// (a stay), though the update moves the cells. One column, header 40, items 100 tall at
    /// 40, 150, 260; deleting item 0 moves the others up by 110.
    func testTheOffsetAppliesToBothTables() throws {
        let spec = { (items: Int) in "columns 1\nheader 40\npinHeaders true\nheight 100\nitems \(items)\n" }
        let t = try transitions(spec(3), spec(2), BatchUpdate(sections: [SectionUpdate(countBefore: 3, deleted: [0])]), at: Offset(x: 0, y: 150))
        XCTAssertEqual(rows(t), [
            "header 0 - - stay 0 150 375 40 1 1 -> 0 150 375 40 1 1",
            "cell 0 0 1 move 0 150 375 100 1 1 -> 0 40 375 100 1 1",
            "cell 0 1 2 move 0 260 375 100 1 1 -> 0 150 375 100 1 1",
            "cell 0 - 0 disappear 0 40 375 100 1 1 -> 0 40 375 100 0 1",
        ])
    }

    /// Without an update every element stays.
    func testNoUpdateIsAllStay() throws {
        let spec = "columns 2\nitems 3\nheight [10, 20, 30]\nheader 10\nbackground all\n"
        let t = try transitions(spec, spec, BatchUpdate(sections: [SectionUpdate(countBefore: 3)]))
        XCTAssertEqual(t.transitions.count, t.after.elements.count)
        XCTAssertTrue(t.transitions.allSatisfy { $0.change == .stay && $0.from == $0.to })
    }
}

/// `--transitions` formats on a table worked by hand, and the command's usage errors.
final class TransitionFormatTests: XCTestCase {
    /// The flow insert of TransitionTests: three 100 x 50 items, one inserted at 0 (item 2 goes to
    /// the second line at y 60); content 375 x 50 before, 375 x 110 after.
    func flowInsert() throws -> TransitionTable {
        let spec = { (items: Int) in "style flow\njustify start\nsize 100 x 50\nitems \(items)\nappear { zoom 0.5 }\n" }
        let b = try XCTUnwrap(Eval.table(spec(3))), a = try XCTUnwrap(Eval.table(spec(4)))
        return try Transitions.table(before: b, after: a, update: BatchUpdate(sections: [SectionUpdate(countBefore: 3, inserted: [0])]))
    }

    func testJSON() throws {
        let t = try flowInsert()
        XCTAssertEqual(TransitionFormat.json([t]), """
            {
              "layouts": [
                {
                  "name": "t",
                  "style": "flow",
                  "direction": "vertical",
                  "container": [375, 812],
                  "contentSizeBefore": [375, 50],
                  "contentSize": [375, 110],
                  "transitions": [
                    {"kind": "cell", "section": 0, "item": 0, "itemBefore": null, "change": "appear", "from": {"frame": [0, 0, 100, 50], "alpha": 0, "zoom": 0.5}, "to": {"frame": [0, 0, 100, 50], "alpha": 1, "zoom": 1}},
                    {"kind": "cell", "section": 0, "item": 1, "itemBefore": 0, "change": "move", "from": {"frame": [0, 0, 100, 50], "alpha": 1, "zoom": 1}, "to": {"frame": [110, 0, 100, 50], "alpha": 1, "zoom": 1}},
                    {"kind": "cell", "section": 0, "item": 2, "itemBefore": 1, "change": "move", "from": {"frame": [110, 0, 100, 50], "alpha": 1, "zoom": 1}, "to": {"frame": [220, 0, 100, 50], "alpha": 1, "zoom": 1}},
                    {"kind": "cell", "section": 0, "item": 3, "itemBefore": 2, "change": "move", "from": {"frame": [220, 0, 100, 50], "alpha": 1, "zoom": 1}, "to": {"frame": [0, 60, 100, 50], "alpha": 1, "zoom": 1}}
                  ]
                }
              ]
            }

            """)
        // Parsed back: the keys in their order, as the spec writes them.
        let parsed = try JSONSerialization.jsonObject(with: Data(TransitionFormat.json([t]).utf8)) as? [String: Any]
        let layout = try XCTUnwrap((parsed?["layouts"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(layout.keys), ["name", "style", "direction", "container", "contentSizeBefore", "contentSize", "transitions"])
        XCTAssertEqual(TransitionFormat.json([]), "{\n  \"layouts\": []\n}\n")
    }

    /// Translate and rotate in transitions: `appear`'s (absolute; 450 normalised to 90) on the
    /// `from` of an inserted cell, the attribute rules' on both ends, each field only where used;
    /// csv then ends with the six transform columns. A staying cell needs its rotate equal after
    /// normalising (10 and 370 stay), and a cell whose rotate changes moves.
    func testTranslateAndRotate() throws {
        func insert(_ rotate: String) throws -> TransitionTable {
            let spec = { (items: Int) in "style flow\njustify start\nsize 100 x 50\nitems \(items)\nrotate \(rotate)\nappear { translate 0 x 20\n rotate 450 }\n" }
            let b = try XCTUnwrap(Eval.table(spec(2))), a = try XCTUnwrap(Eval.table(spec(3)))
            return try Transitions.table(before: b, after: a, update: BatchUpdate(sections: [SectionUpdate(countBefore: 2, inserted: [2])]))
        }
        let same = try insert("n == 2 ? 10 : 370")
        XCTAssertEqual(same.transitions.map(\.change), [.stay, .stay, .appear])
        let json = TransitionFormat.json([same])
        XCTAssertTrue(json.contains(#"{"kind": "cell", "section": 0, "item": 2, "itemBefore": null, "change": "appear", "from": {"frame": [220, 0, 100, 50], "alpha": 0, "zoom": 1, "translate": [0, 20], "rotate": 90}, "to": {"frame": [220, 0, 100, 50], "alpha": 1, "zoom": 1, "rotate": 10}}"#), json)
        XCTAssertTrue(json.contains(#""from": {"frame": [0, 0, 100, 50], "alpha": 1, "zoom": 1, "rotate": 10}, "to": {"frame": [0, 0, 100, 50], "alpha": 1, "zoom": 1, "rotate": 10}"#), json)
        XCTAssertEqual(TransitionFormat.csv([same]), """
            layout,section,item,itemBefore,kind,change,fromX,fromY,fromWidth,fromHeight,fromAlpha,fromZoom,toX,toY,toWidth,toHeight,toAlpha,toZoom,fromTranslateX,fromTranslateY,fromRotate,toTranslateX,toTranslateY,toRotate
            t,0,0,0,cell,stay,0,0,100,50,1,1,0,0,100,50,1,1,0,0,10,0,0,10
            t,0,1,1,cell,stay,110,0,100,50,1,1,110,0,100,50,1,1,0,0,10,0,0,10
            t,0,2,,cell,appear,220,0,100,50,0,1,220,0,100,50,1,1,0,20,90,0,0,10

            """)
        XCTAssertEqual(try insert("n * 10").transitions.map(\.change), [.move, .move, .appear])
    }

    /// The same update in the table and swift formats: each end's `translateX translateY rotate`
    /// after its zoom in the table, and in the swift fixture `transforms` (from's six numbers of
    /// `CGAffineTransform`, then to's: rotate 90 is (0, 1, -1, 0)); neither where no end uses one
    /// (testTable and the feed-update golden keep their text).
    func testTransformsInTableAndSwift() throws {
        let spec = { (items: Int) in "style flow\njustify start\nsize 100 x 50\nitems \(items)\nrotate i == 0 ? 0 : 370\nappear { translate 0 x 20\n rotate 450 }\n" }
        let b = try XCTUnwrap(Eval.table(spec(2))), a = try XCTUnwrap(Eval.table(spec(3)))
        let t = try Transitions.table(before: b, after: a, update: BatchUpdate(sections: [SectionUpdate(countBefore: 2, inserted: [0])]))
        XCTAssertEqual(TransitionFormat.table([t]), """
            t  flow vertical  container 375 x 812  content 375 x 50 -> 375 x 50
            section  item  before  kind  change  x    y  width  height  alpha  zoom  translateX  translateY  rotate  ->  x    y  width  height  alpha  zoom  translateX  translateY  rotate
            0        0     -       cell  appear  0    0  100    50      0      1     0           20          90      ->  0    0  100    50      1      1     0           0           0
            0        1     0       cell  move    0    0  100    50      1      1     0           0           0       ->  110  0  100    50      1      1     0           0           10
            0        2     1       cell  move    110  0  100    50      1      1     0           0           10      ->  220  0  100    50      1      1     0           0           10

            """)
        let swift = SwiftFormat.transitions([t], sourceName: "t.wfl")
        XCTAssertTrue(swift.contains("""
                static let transforms: [Double] = [
                    0, 1, -1, 0, 0, 20, 1, 0, 0, 1, 0, 0,
                    1, 0, 0, 1, 0, 0, 0.9848077530122081, 0.17364817766693033, -0.17364817766693033, 0.9848077530122081, 0, 0,
                    0.9848077530122081, 0.17364817766693033, -0.17364817766693033, 0.9848077530122081, 0, 0, 0.9848077530122081, 0.17364817766693033, -0.17364817766693033, 0.9848077530122081, 0, 0,
                ]

            """), swift)
        XCTAssertFalse(SwiftFormat.transitions([try flowInsert()], sourceName: "t.wfl").contains("transforms"))
    }

    /// A translate of -0 is unused and written 0 in every transform cell (`Transform.cells`): the
    /// csv of the transitions, the json's `translate` and the table's columns.
    func testMinusZeroIsWrittenZero() throws {
        XCTAssertEqual(Transform(tx: -0.0, ty: 5, rotate: -0.0).cells.map(\.sign), [.plus, .plus, .plus])
        XCTAssertEqual(Transform.unsigned(-0.0).sign, .plus)
        XCTAssertEqual(Transform.unsigned(-2), -2)
        let spec = { (items: Int) in "style flow\njustify start\nsize 100 x 50\nitems \(items)\ntranslate (-0) x (i == 0 ? 5 : -0)\n" }
        let b = try XCTUnwrap(Eval.table(spec(1))), a = try XCTUnwrap(Eval.table(spec(2)))
        let t = try Transitions.table(before: b, after: a, update: BatchUpdate(sections: [SectionUpdate(countBefore: 1, inserted: [1])]))
        XCTAssertEqual(TransitionFormat.csv([t]), """
            layout,section,item,itemBefore,kind,change,fromX,fromY,fromWidth,fromHeight,fromAlpha,fromZoom,toX,toY,toWidth,toHeight,toAlpha,toZoom,fromTranslateX,fromTranslateY,fromRotate,toTranslateX,toTranslateY,toRotate
            t,0,0,0,cell,stay,0,0,100,50,1,1,0,0,100,50,1,1,0,5,0,0,5,0
            t,0,1,,cell,appear,110,0,100,50,0,1,110,0,100,50,1,1,0,0,0,0,0,0

            """)
        XCTAssertTrue(TransitionFormat.json([t]).contains(#""from": {"frame": [0, 0, 100, 50], "alpha": 1, "zoom": 1, "translate": [0, 5]}"#))
        XCTAssertEqual(TransitionFormat.table([t]), """
            t  flow vertical  container 375 x 812  content 375 x 50 -> 375 x 50
            section  item  before  kind  change  x    y  width  height  alpha  zoom  translateX  translateY  rotate  ->  x    y  width  height  alpha  zoom  translateX  translateY  rotate
            0        0     0       cell  stay    0    0  100    50      1      1     0           5           0       ->  0    0  100    50      1      1     0           5           0
            0        1     -       cell  appear  110  0  100    50      0      1     0           0           0       ->  110  0  100    50      1      1     0           0           0

            """)
    }

    /// A constant non-finite translate or rotate in `appear` is an error naming the item that
    /// appears (MOTION's errors), found when the transitions are made, not when the file is read.
    func testANonFiniteAppearTransformNamesTheItem() throws {
        for (block, message) in [("translate 1e308 * 10 x 0", "the x of the translate of 'appear' of item 1 of section 0 is Infinity"),
                                 ("rotate -1e308 * 10", "the rotate of 'appear' of item 1 of section 0 is -Infinity")] {
            let spec = { (items: Int) in "style flow\njustify start\nsize 100 x 50\nitems \(items)\nappear { \(block) }\n" }
            let b = try XCTUnwrap(Eval.table(spec(1))), a = try XCTUnwrap(Eval.table(spec(2)))
            XCTAssertThrowsError(try Transitions.table(before: b, after: a, update: BatchUpdate(sections: [SectionUpdate(countBefore: 1, inserted: [1])]))) {
                XCTAssertTrue(($0 as? Diagnostic)?.message.hasPrefix(message) ?? false, "\($0)")
            }
        }
    }

    func testCSV() throws {
        XCTAssertEqual(TransitionFormat.csv([try flowInsert()]), """
            layout,section,item,itemBefore,kind,change,fromX,fromY,fromWidth,fromHeight,fromAlpha,fromZoom,toX,toY,toWidth,toHeight,toAlpha,toZoom
            t,0,0,,cell,appear,0,0,100,50,0,0.5,0,0,100,50,1,1
            t,0,1,0,cell,move,0,0,100,50,1,1,110,0,100,50,1,1
            t,0,2,1,cell,move,110,0,100,50,1,1,220,0,100,50,1,1
            t,0,3,2,cell,move,220,0,100,50,1,1,0,60,100,50,1,1

            """)
    }

    func testTable() throws {
        XCTAssertEqual(TransitionFormat.table([try flowInsert()]), """
            t  flow vertical  container 375 x 812  content 375 x 50 -> 375 x 110
            section  item  before  kind  change  x    y  width  height  alpha  zoom  ->  x    y   width  height  alpha  zoom
            0        0     -       cell  appear  0    0  100    50      0      0.5   ->  0    0   100    50      1      1
            0        1     0       cell  move    0    0  100    50      1      1     ->  110  0   100    50      1      1
            0        2     1       cell  move    110  0  100    50      1      1     ->  220  0   100    50      1      1
            0        3     2       cell  move    220  0  100    50      1      1     ->  0    60  100    50      1      1

            """)
    }

    /// The page draws every box at its `from` and carries both ends for the script.
    func testHTMLDrawsTheTableBeforeWithBothEnds() throws {
        let page = TransitionsHTML.format([try flowInsert()])
        XCTAssertEqual(page.components(separatedBy: "class=\"box ").count - 1, 4)
        XCTAssertTrue(page.contains("<div class=\"box cell appear\" data-j=\"0\" data-from=\"0,0,100,50,0,0.5\" data-to=\"0,0,100,50,1,1\" data-label-from=\"0.0 (new)\" data-label-to=\"0.0\" style=\"left: 0px; top: 0px; width: 100px; height: 50px; opacity: 0; transform: scale(0.5)\""))
        XCTAssertTrue(page.contains("data-j=\"3\" data-from=\"220,0,100,50,1,1\" data-to=\"0,60,100,50,1,1\""))
        XCTAssertTrue(page.contains("<button type=\"button\" class=\"play\">Play</button>"))
        // Self-contained: no URLs, no line comments.
        XCTAssertFalse(page.contains("//"))
        XCTAssertFalse(page.contains("src="))
    }

    func testUsageErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-transitions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("t.wfl")
        try "items 2\n".write(to: spec, atomically: true, encoding: .utf8)
        for (args, message) in [
            (["--format", "svg"], "'--transitions' prints as table, json, csv, html or swift, not 'svg'"),
            (["-f", "ascii"], "'--transitions' prints as table, json, csv, html or swift, not 'ascii'"),
            (["-o", dir.appendingPathComponent("out.svg").path], "'--transitions' prints as table, json, csv, html or swift, not 'svg', the format of '\(dir.appendingPathComponent("out.svg").path)'"),
            (["--rect", "0,0,10,10"], "'--transitions' and '--rect' cannot be used together"),
            (["--rect=0,0,10,10"], "'--transitions' and '--rect' cannot be used together"),
            (["--after"], "'--transitions' and '--after' cannot be used together"),
        ] {
            let out = try WFLCommand.run(["run", spec.path, "--transitions"] + args)
            XCTAssertEqual(out.status, 64, "\(args)")
            XCTAssertTrue(out.stderr.hasPrefix("wfl: " + message), "\(args): \(out.stderr)")
            XCTAssertEqual(out.stdout, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.svg").path))
        // The four formats, also from -o's extension.
        for format in ["table", "json", "csv", "html"] {
            let out = try WFLCommand.run(["run", spec.path, "--transitions", "--format", format])
            XCTAssertEqual(out.status, 0, "\(format): \(out.stderr)")
        }
        // A rule that fails for an element that appears is an error of the file (65), with its
        // diagnostic.
        let bad = dir.appendingPathComponent("bad.wfl")
        try "items 2\nheight 100\nappear { alpha i - 1 }\nupdate { insert 0 }\n".write(to: bad, atomically: true, encoding: .utf8)
        let failed = try WFLCommand.run(["run", bad.path, "--transitions"])
        XCTAssertEqual(failed.status, 65)
        XCTAssertTrue(failed.stderr.contains("error: the alpha of 'appear' of item 0 of section 0 is -1: an alpha is from 0 to 1"), failed.stderr)
        XCTAssertEqual(failed.stdout, "")
        // The same file without --transitions is fine: the rule runs only for transitions.
        XCTAssertEqual(try WFLCommand.run(["run", bad.path]).status, 0)
        let file = dir.appendingPathComponent("t.csv").path
        XCTAssertEqual(try WFLCommand.run(["run", spec.path, "--transitions", "-o", file]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).hasPrefix(TransitionFormat.csvHeader + "\n"))
    }
}

/// `wfl run --transitions` in table, json, csv and swift, as goldens: every input of
/// Tests/Fixtures/transitions and every sample with an `update` block (its expected files beside
/// the fixtures, named after it).
final class TransitionGoldenTests: XCTestCase {
    func testTransitionFormats() throws {
        let dir = Golden.root.appendingPathComponent("Tests/Fixtures/transitions")
        let samples = Golden.inputs("samples").filter { url in
            ((try? String(contentsOf: url, encoding: .utf8)) ?? "").contains("update {")
        }
        XCTAssertFalse(samples.isEmpty, "a sample shows an update")
        let inputs = Golden.inputs("Tests/Fixtures/transitions") + samples
        XCTAssertGreaterThanOrEqual(inputs.count, 2)
        for url in inputs {
            let c = Pipeline.run(try Golden.source(url))
            XCTAssertFalse(c.hasErrors, "\(url.lastPathComponent): \(c.diagnostics.map(\.message))")
            let tables = try c.transitionTables()
            XCTAssertEqual(tables.count, c.tables.count)
            let stem = url.deletingPathExtension().lastPathComponent
            Golden.check(TransitionFormat.table(tables), against: dir.appendingPathComponent("\(stem).table"), input: url)
            Golden.check(TransitionFormat.json(tables), against: dir.appendingPathComponent("\(stem).json"), input: url)
            Golden.check(TransitionFormat.csv(tables), against: dir.appendingPathComponent("\(stem).csv"), input: url)
            Golden.check(SwiftFormat.transitions(tables, sourceName: url.lastPathComponent), against: dir.appendingPathComponent("\(stem).swift"), input: url)
        }
    }

    /// The sample's transitions, worked by hand. Heights before [100, 150, 150, 50, 130, 180,
    /// 200, 100, 110, 200]; delete 3 and 6 (50 and 200, both in the right column), insert at 0.
    /// After: [100 (new), 100, 150, 150, 130, 180, 100, 110, 200], lanes from y 54 (header 44 and
    /// insets 10), 172.5 wide at x 10 and 192.5:
    ///   new 0: left, 54 (left ends 154)    old 0: right, 54 (154)    old 1: left, 164 (314)
    ///   old 2: right, 164 (314)            old 4: left, 324 (454)    old 5: right, 324 (504)
    ///   old 7: left, 464 (564)             old 8: right, 514 (624)   old 9: left, 574 (774)
    /// Content 774 + 10 + 30 = 814. Old 3 was at (192.5, 214) and slides to 254, fading.
    func testTheSampleByHand() throws {
        let c = Pipeline.run(try Golden.source(Golden.root.appendingPathComponent("samples/feed-update.wfl")))
        let t = try XCTUnwrap(try c.transitionTables().first)
        XCTAssertEqual(t.after.contentSize.height, 814)
        let byBefore = Dictionary(uniqueKeysWithValues: t.transitions.filter { $0.kind == .cell && $0.itemBefore != nil }.map { ($0.itemBefore!, $0) })
        XCTAssertEqual(byBefore[0]?.to.frame, Frame(x: 192.5, y: 54, width: 172.5, height: 100))
        XCTAssertEqual(byBefore[9]?.to.frame, Frame(x: 10, y: 574, width: 172.5, height: 200))
        XCTAssertEqual(byBefore[3]?.change, .disappear)
        XCTAssertEqual(byBefore[3]?.to, TransitionEnd(frame: Frame(x: 192.5, y: 254, width: 172.5, height: 50), alpha: 0, zoom: 1))
        let inserted = try XCTUnwrap(t.transitions.first { $0.change == .appear })
        XCTAssertEqual(inserted.item, 0)
        XCTAssertEqual(inserted.from, TransitionEnd(frame: Frame(x: 10, y: 54, width: 172.5, height: 100), alpha: 0, zoom: 0.5))
        XCTAssertEqual(t.counts.stay, 1)      // the header
        XCTAssertEqual(t.counts.move, 9)      // eight cells and the footer
        XCTAssertEqual(t.counts.appear, 1)
        XCTAssertEqual(t.counts.disappear, 2)
    }

    /// `:transitions` in the REPL prints the transition table of the session.
    func testReplTransitions() throws {
        let s = Session()
        _ = s.enter("columns 1")
        _ = s.enter("height 100")
        _ = s.enter("items 2")
        _ = s.enter("update { insert 0 }")
        let tables = try s.transitionTables()
        XCTAssertEqual(TransitionFormat.table(tables), """
            repl  waterfall vertical  container 375 x 812  content 375 x 210 -> 375 x 320
            section  item  before  kind  change  x  y    width  height  alpha  zoom  ->  x  y    width  height  alpha  zoom
            0        0     -       cell  appear  0  0    375    100     0      1     ->  0  0    375    100     1      1
            0        1     0       cell  move    0  0    375    100     1      1     ->  0  110  375    100     1      1
            0        2     1       cell  move    0  110  375    100     1      1     ->  0  220  375    100     1      1

            """)
    }
}
