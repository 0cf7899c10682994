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
            let mixed = try Sections.mixed(layout, warnings: &warnings)
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
}
