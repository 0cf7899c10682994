import XCTest
@testable import WFL

/// Numbers for people (docs/usage.md): `table`, the pictures and the REPL round to 3 decimals;
/// json, csv and swift stay exact.
final class PeopleNumberTests: XCTestCase {
    func testForPeopleRoundsToThreeDecimals() {
        let cases: [(Double, String)] = [
            (2254.9999999999995, "2255"), (1724.7420000000002, "1724.742"), (-0.0, "0"), (-0.0004, "0"),
            (111.66666666666667, "111.667"), (0.05, "0.05"), (0.005, "0.005"), (0.025, "0.025"), (12.5, "12.5"),
            (-3.25, "-3.25"), (1e-7, "0"), (0.0006, "0.001"), (-131.66666666666669, "-131.667"), (375, "375"),
            (1e21, "1e+21"), (Double.nan, "NaN"), (-Double.infinity, "-Infinity"), (0x1p43 + 0.5, "8796093022208.5"),
        ]
        for (v, s) in cases { XCTAssertEqual(NumberFormat.forPeople(v), s, "\(v)") }
        // The machine text is unchanged.
        XCTAssertEqual(NumberFormat.format(2254.9999999999995), "2254.9999999999995")
        XCTAssertEqual(NumberFormat.format(1724.7420000000002), "1724.7420000000002")
    }

    /// The thousandths writer against its plain twin (round, then the shortest digits), and the
    /// width it predicts against what it writes.
    func testForPeopleAgreesWithItsPlainTwin() {
        var rng = SeededRandom.forTest("PeopleNumberTests.testForPeopleAgreesWithItsPlainTwin")
        var values: [Double] = [0x1p43, -0x1p43, 0x1p43.nextDown, 0x1p43.nextUp, 999.9995, 0.0005, -0.0005, 9.9995]
        for _ in 0..<(Stress.enabled ? 200_000 : 50_000) {
            let magnitude = Double.random(in: -8...14, using: &rng)
            var v = Double.random(in: 1...10, using: &rng) * pow10(magnitude.rounded(.down))
            if Bool.random(using: &rng) { v = -v }
            // Also near-halves and near-integers, where the rounding decides.
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: v = ((v * 1000).rounded() + 0.5) / 1000
            case 1: v = v.rounded() + Double.random(in: -1e-9...1e-9, using: &rng)
            default: break
            }
            values.append(v)
        }
        for v in values {
            let fast = NumberFormat.forPeople(v)
            XCTAssertEqual(fast, NumberFormat.referenceForPeople(v), "\(v)")
            XCTAssertEqual(ByteWriter.roundedWidth(v), fast.utf8.count, "\(v)")
            if fast != NumberFormat.referenceForPeople(v) { return }
        }
    }

    func pow10(_ e: Double) -> Double {
        var p = 1.0
        for _ in 0..<Int(Swift.abs(e)) { p *= 10 }
        return e < 0 ? 1 / p : p
    }

    /// A table of the issue's numbers, built by hand, in the table format: rounded, aligned on the
    /// rounded widths.
    func testTableShowsRoundedNumbers() {
        var t = AttributeTable(name: "feed", style: .waterfall, direction: .vertical, containerWidth: 375, containerHeight: 812)
        t.elements = [
            Element(kind: .header, section: 0, item: nil, frame: Frame(x: -0.0, y: 0, width: 375, height: 2254.9999999999995), zIndex: 10),
            Element(kind: .cell, section: 0, item: 0, frame: Frame(x: 10, y: 2254.9999999999995, width: 111.66666666666667, height: 1724.7420000000002), zIndex: 0),
        ]
        t.contentWidth = 375
        t.contentHeight = 3979.7420000000002
        let expected = """
            feed  waterfall vertical  container 375 x 812  content 375 x 3979.742
            section  item  kind    x   y     width    height    z
            0        -     header  0   0     375      2255      10
            0        0     cell    10  2255  111.667  1724.742  0

            """
        XCTAssertEqual(TableFormat.format([t]), expected)
        XCTAssertEqual(TableFormat.referenceFormat([t]), expected)
        // json stays exact.
        XCTAssertTrue(JSONFormat.format([t]).contains("[10, 2254.9999999999995, 111.66666666666667, 1724.7420000000002]"))
    }

    /// The table in pieces, formatted separately in any grouping, is its plain twin's text.
    func testTablePiecesGiveThePlainText() {
        let tables = Eval.tables("""
            layout "a \\"q\\"" {
              columns 3
              spacing 10
              insets 10
              header 44.123456
              footer 30
              section { items 250; height 50 + random(0, 150) / 7 }
              section { items 0 }
            }
            layout b {
              style flow
              spacing 7
              items 300
              size 40 + random(0, 120) / 3 x 30 + random(0, 40)
            }
            layout empty { items 0 }
            """)
        XCTAssertEqual(tables.count, 3)
        let whole = TableFormat.referenceFormat(tables)
        XCTAssertEqual(TableFormat.format(tables), whole)
        XCTAssertTrue(whole.contains("\n\nb  flow vertical"), "a blank line between layouts")
        for per in [1, 7, 64, 100_000] {
            let pieces = TableFormat.pieces(tables, rowsPerPiece: per)
            var parts = [[UInt8]](repeating: [], count: pieces.count)
            var writers = [ByteWriter(), ByteWriter()]
            for k in (0..<pieces.count).reversed() {
                writers[k % 2].removeAll()
                pieces.write(k, into: &writers[k % 2])
                parts[k] = writers[k % 2].bytes
            }
            XCTAssertEqual(String(decoding: parts.flatMap { $0 }, as: UTF8.self), whole, "\(per) rows a piece")
        }
    }

    func spec() -> [AttributeTable] {
        Eval.tables("columns 1\nitems 1\nspacing 0\nheader 2254.9999999999995\nheight 1724.7420000000002\n")
    }

    func testPictureLabelsAreRounded() throws {
        let tables = spec()
        XCTAssertEqual(tables.first?.elements.last?.frame.y, 2254.9999999999995)
        let svg = SVGFormat.format(tables)
        XCTAssertTrue(svg.contains("0, 2255, 375 x 1724.742, z 0</title>"), svg)
        XCTAssertFalse(svg.contains("2254.9999999999995"))
        XCTAssertFalse(svg.contains("1724.7420000000002"))
        let html = HTMLFormat.format(tables)
        XCTAssertTrue(html.contains("<td>2255</td><td>375</td><td>1724.742</td>"), html)
        XCTAssertFalse(html.contains("1724.7420000000002"))
        let ascii = ASCIIPicture.format(tables, offset: .zero, rect: nil, columns: 80)
        XCTAssertFalse(ascii.contains("2254.99"), ascii)
        XCTAssertTrue(ascii.contains("content 375 x 3979.742"), ascii)
    }

    func testReplShowsRoundedValues() {
        let s = Session()
        for e in ["columns 1", "items 1", "spacing 0", "header 2254.9999999999995", "height 1724.7420000000002"] {
            XCTAssertFalse(s.enter(e).failed, e)
        }
        XCTAssertEqual(s.enter("frame(0, 0)").output, "[0, 2255, 375, 1724.742]\n")
        XCTAssertEqual(s.enter("contentHeight").output, "3979.742\n")
        XCTAssertEqual(s.enter("-0.0001").output, "0\n")
        XCTAssertTrue(s.enter("items 2").output.contains("content 375 x 5704.484"))
        // The value itself is exact: the language compares within 0.001, and prints exactly elsewhere.
        XCTAssertEqual(Value.number(2254.9999999999995).description, "2254.9999999999995")
        XCTAssertEqual(Value.list([.number(1724.7420000000002), .string("a")]).descriptionForPeople, "[1724.742, \"a\"]")
    }

    /// A layout name with terminal control characters is shown escaped in the table's title and
    /// the ascii picture's, so printing a table cannot clear a screen or set a window's title;
    /// json keeps the name as it is (quoted by JSON's rules).
    func testLayoutNamesAreEscapedForTheTerminal() {
        let spec = Spec(source: "layout \"a\\u{1B}[2Jb\" {\n  items 1\n}\n", name: "t.wfl")
        XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
        let table = TableFormat.format(spec.layouts)
        XCTAssertTrue(table.hasPrefix("a\\u{1B}[2Jb  waterfall vertical"), table)
        XCTAssertFalse(table.unicodeScalars.contains("\u{1B}"))
        let ascii = ASCIIPicture.format(spec.layouts, offset: .zero, rect: nil, columns: 60)
        XCTAssertTrue(ascii.hasPrefix("a\\u{1B}[2Jb  "), ascii)
        XCTAssertTrue(JSONFormat.format(spec.layouts).contains(#""name": "a\u001b[2Jb""#))
    }
}
