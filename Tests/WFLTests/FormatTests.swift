import Foundation
import XCTest
@testable import WFL

/// Number formatting and the three output formats.
final class FormatTests: XCTestCase {
    func testNumberFormatIsECMAScript() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (10, "10"), (172.5, "172.5"), (-3.25, "-3.25"), (0.1 + 0.2, "0.30000000000000004"),
            (111.66666666666667, "111.66666666666667"), (1e21, "1e+21"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"), (123456789012345680000, "123456789012345680000"), (1e15, "1000000000000000"),
            (2e16, "20000000000000000"), (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
            (-1e-7, "-1e-7"), (0.5, "0.5"), (100, "100"), (4294967296.5, "4294967296.5"), (1.25e20, "125000000000000000000"),
        ]
        for (v, s) in cases { XCTAssertEqual(NumberFormat.format(v), s, "\(v)") }
    }

    func sample() -> [AttributeTable] {
        Eval.tables("layout \"a, \\\"b\\\"\" {\n  items 1\n  height 10\n  header 5\n}\nlayout plain {\n  items 0\n}")
    }

    func testJSONShape() throws {
        let text = JSONFormat.format(sample())
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let layouts = try XCTUnwrap(json["layouts"] as? [[String: Any]])
        XCTAssertEqual(layouts.count, 2)
        XCTAssertEqual(layouts[0]["name"] as? String, "a, \"b\"")
        XCTAssertEqual(layouts[0]["style"] as? String, "waterfall")
        XCTAssertEqual(layouts[0]["direction"] as? String, "vertical")
        XCTAssertEqual(layouts[0]["container"] as? [Double], [375, 812])
        XCTAssertEqual(layouts[0]["contentSize"] as? [Double], [375, 15])
        let elements = try XCTUnwrap(layouts[0]["elements"] as? [[String: Any]])
        XCTAssertEqual(elements.count, 2)
        XCTAssertEqual(elements[0]["kind"] as? String, "header")
        XCTAssertTrue(elements[0]["item"] is NSNull)
        XCTAssertEqual(elements[0]["zIndex"] as? Int, 10)
        XCTAssertEqual(elements[1]["item"] as? Int, 0)
        XCTAssertEqual(elements[1]["frame"] as? [Double], [0, 5, 182.5, 10])
        XCTAssertEqual((layouts[1]["elements"] as? [Any])?.count, 0)
    }

    func testCSVQuoting() {
        let text = CSVFormat.format(sample())
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "layout,section,item,kind,x,y,width,height,zIndex")
        XCTAssertEqual(lines[1], "\"a, \"\"b\"\"\",0,,header,0,0,375,5,10")
        XCTAssertEqual(lines[2], "\"a, \"\"b\"\"\",0,0,cell,0,5,182.5,10,0")
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(CSVFormat.field("plain"), "plain")
        XCTAssertEqual(CSVFormat.field("two\nlines"), "\"two\nlines\"")
    }

    func testTableAlignsColumns() throws {
        let text = TableFormat.format(try XCTUnwrap(sample().first))
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "a, \"b\"  waterfall vertical  container 375 x 812  content 375 x 15")
        XCTAssertEqual(lines[1], "section  item  kind    x  y  width  height  z")
        XCTAssertEqual(lines[2], "0        -     header  0  0  375    5       10")
        XCTAssertEqual(lines[3], "0        0     cell    0  5  182.5  10      0")
    }
}
