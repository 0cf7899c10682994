import Foundation
import XCTest
@testable import WFL

/// The pictures at the far ends of the doubles: an offset or a rect near ±1.7e308, or a few
/// subnormals wide, draws a picture with finite numbers, never a trap or `Infinity`.
final class PictureExtremesTests: XCTestCase {
    /// The tables of some samples (vertical, horizontal, shelves, pinned, transforms).
    static let samples: [[AttributeTable]] = ["feed", "carousel", "app-store", "pinned-feed", "cover-flow"].map { name in
        let source = try! Golden.source(Golden.root.appendingPathComponent("samples/\(name).wfl"))
        return Program(tree: Parser.parse(source).tree, source: source).evaluate().tables
    }

    static let offsets = [Offset(x: 1e308, y: 1e308), Offset(x: -1.7e308, y: -1.7e308), Offset(x: 1.7e308, y: -1.7e308),
                          Offset(x: 1e-320, y: -1e-320)]
    static let rects = [Frame(x: 0, y: 0, width: 1e-320, height: 1e-320), Frame(x: 0, y: 0, width: 1e-300, height: 1e300),
                        Frame(x: -1.7e308, y: -1.7e308, width: 1.7e308, height: 1.7e308), Frame(x: 0, y: 0, width: 1.7e308, height: 1.7e308),
                        Frame(x: -1.7e308, y: 0, width: 1e-300, height: 1e-300), Frame(x: 1.7e308, y: 1.7e308, width: 1, height: 1)]

    /// The first word of `text` that is not a finite number where one is written, or nil.
    static func nonFinite(_ text: String) -> String? {
        guard let r = text.range(of: "(?<![A-Za-z_])(nan|NaN|inf|Infinity)(?![A-Za-z_])", options: .regularExpression) else { return nil }
        let start = text.index(r.lowerBound, offsetBy: -60, limitedBy: text.startIndex) ?? text.startIndex
        return String(text[start..<r.upperBound])
    }

    /// The numbers of the pictures' text: a huge one is printed whole, not multiplied past the doubles.
    func testRoundingAHugeNumberKeepsIt() {
        XCTAssertEqual(PictureText.rounded(2.1794871794871793e306, 2), "2.1794871794871793e+306")
        XCTAssertEqual(PictureText.rounded(-1.7e308, 2), "-1.7e+308")
        XCTAssertEqual(PictureText.rounded(1234.5678, 2), "1234.57")
    }

    /// `ascii` at every extreme offset and rect: a picture, not a trap (a rect 1e-320 wide gave
    /// an infinite scale and `Int(Infinity)`), and no `Infinity` in its scale line.
    func testASCIIAtTheExtremes() {
        for tables in Self.samples {
            for offset in Self.offsets {
                let text = ASCIIPicture.format(tables, offset: offset, columns: 80)
                XCTAssertNil(Self.nonFinite(text), "\(tables[0].name) at \(offset)")
            }
            for rect in Self.rects {
                for rows in [nil, 24] as [Int?] {
                    let text = ASCIIPicture.format(tables, rect: rect, columns: 80, rows: rows)
                    XCTAssertNil(Self.nonFinite(text), "\(tables[0].name) in \(rect)")
                    XCTAssertTrue(text.contains("elements; 1 column = "), text)
                }
            }
        }
    }

    /// `svg` and `html` at every extreme offset and rect: finite coordinates only. The viewport
    /// at 1.7e308 made the page `Infinity` wide; a rect near 1.7e308 at the scale a narrow rect
    /// gets put the content's box at `-Infinity`; a rect 1e-320 wide gave an infinite scale.
    func testSVGAndHTMLAtTheExtremes() {
        for tables in Self.samples {
            for offset in Self.offsets {
                XCTAssertNil(Self.nonFinite(SVGFormat.format(tables, offset: offset)), "svg of \(tables[0].name) at \(offset)")
                XCTAssertNil(Self.nonFinite(HTMLFormat.format(tables, offset: offset)), "html of \(tables[0].name) at \(offset)")
            }
            for rect in Self.rects {
                XCTAssertNil(Self.nonFinite(SVGFormat.format(tables, rect: rect)), "svg of \(tables[0].name) in \(rect)")
                XCTAssertNil(Self.nonFinite(HTMLFormat.format(tables, rect: rect)), "html of \(tables[0].name) in \(rect)")
            }
        }
    }

    /// A viewport the doubles cannot reach from the content stays out of the picture (the page
    /// keeps its size), and its label still says where it is; one within reach widens it as before.
    func testAFarViewportStaysOutOfThePicture() throws {
        let tables = try XCTUnwrap(Self.samples.first { $0[0].name == "feed" })
        let far = SVGFormat.format(tables, offset: Offset(x: 0, y: 1.7e308))
        XCTAssertTrue(far.contains("viewport at <tspan class=\"off\">0,1.7e+308</tspan>"), far)
        let atRest = PictureScope(tables[0], offset: .zero, rect: nil, limit: SVGFormat.defaultLimit)
        XCTAssertEqual(PictureScope(tables[0], offset: Offset(x: 0, y: 1.7e308), rect: nil, limit: SVGFormat.defaultLimit).region, atRest.region)
        let near = PictureScope(tables[0], offset: Offset(x: 0, y: 1e6), rect: nil, limit: SVGFormat.defaultLimit)
        XCTAssertEqual(near.region.maxY, 1e6 + tables[0].containerHeight)
    }

    /// The page of a scroll path widens its region to every stop's frames: an attached view moved
    /// to y = -1.7e308 and a cell at 1.7e308 gave a region `Infinity` tall.
    func testAScrollPathPageOverFramesFarApart() throws {
        let text = """
            section {
              items 1
              height 10
              attach b {
                offset 0 x (-1.7e308)
              }
            }
            section {
              header 1.7e308
              estimate 10
              items 2
              height 10
            }
            """
        let source = SourceFile(name: "t.wfl", bytes: Array(text.utf8))
        let c = Pipeline.run(source)
        XCTAssertFalse(c.hasErrors, DiagnosticRenderer().render(c.diagnostics, in: source))
        let l = try XCTUnwrap(c.layouts.first)
        let p = try XCTUnwrap(try l.pathStops([PathStep(Offset(x: 0, y: 100))]))
        let html = HTMLFormat.format([p.tables[p.tables.count - 1]], offset: Offset(x: 0, y: 100),
                                     paths: [HTMLFormat.PathPlayer(layout: 0, stops: p.tables, numbers: p.numbers, total: p.total)])
        XCTAssertTrue(html.contains("path-slider"))
        XCTAssertNil(Self.nonFinite(html))
    }

    /// The slider of a page whose content ends near 1.7e308: its stops stay numbers (`end * k`
    /// overflowed, the third stop of the slider was `Infinity`).
    func testASliderOverContentNearTheLimit() throws {
        for end in [1.7e308, 1e308, 1000] {
            let stops = (0...HTMLFormat.sliderSteps).map { HTMLFormat.sliderStop($0, of: end) }
            XCTAssertTrue(stops.allSatisfy(\.isFinite), "\(stops)")
            XCTAssertEqual(stops, stops.sorted())
            XCTAssertEqual(stops.last, end)
        }
        XCTAssertEqual(HTMLFormat.sliderStop(1, of: 1000), (1000.0 / Double(HTMLFormat.sliderSteps)).rounded())
        let values = try XCTUnwrap(HTMLFormat.shelfValues(1.7e308, containerWidth: 390, given: 0))
        XCTAssertTrue(values.values.allSatisfy(\.isFinite), "\(values.values)")
        // A waterfall whose header is 1.7e308 tall, pinned so that its frames move: the page.
        let text = "pinHeaders true\nsection {\n  header 1.7e308\n  items 3\n  height 100\n}\n"
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        XCTAssertFalse(c.hasErrors)
        XCTAssertNil(Self.nonFinite(HTMLFormat.format(c.tables)))
    }

    /// A cell zoomed by 1e308 and turned: its svg matrix moved the box by -Infinity.
    func testAHugeZoomInATransformMatrix() {
        let text = "container 300 x 400\nstyle flow\nsize 100 x 80\nitems 2\nzoom 1e308\nrotate 90\n"
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        XCTAssertFalse(c.hasErrors)
        let svg = SVGFormat.format(c.tables)
        XCTAssertTrue(svg.contains("transform=\"matrix(0 1e+307 -1e+307 0 "), svg)
        XCTAssertNil(Self.nonFinite(svg))
    }
}
