import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import WFL

/// The pictures (issue 9): `svg` parses as XML and draws one box per element, `html` is
/// self-contained and carries the frames its slider shows, `ascii` draws the viewport; the SVG files
/// of the README are what wfl draws today.
final class PictureTests: XCTestCase {
    /// The tables of a sample as evaluated (not yet at an offset).
    func tables(_ name: String) throws -> [AttributeTable] {
        let url = Golden.root.appendingPathComponent("samples/\(name).wfl")
        let source = try Golden.source(url)
        let evaluation = Program(tree: Parser.parse(source).tree, source: source).evaluate()
        XCTAssertFalse(evaluation.diagnostics.hasErrors, name)
        return evaluation.tables
    }

    func evaluate(_ text: String) -> [AttributeTable] {
        let source = SourceFile(name: "t.wfl", bytes: Array(text.utf8))
        let evaluation = Program(tree: Parser.parse(source).tree, source: source).evaluate()
        XCTAssertFalse(evaluation.diagnostics.hasErrors, DiagnosticRenderer().render(evaluation.diagnostics, in: source))
        return evaluation.tables
    }

    /// The boxes of an SVG document, read with XMLParser (which fails on XML that is not well
    /// formed): `rect` elements whose class is an element kind, with their class and id. The root is
    /// an SVG 1.1 `svg` element in the SVG namespace.
    func boxes(_ svg: String, file: StaticString = #filePath, line: UInt = #line) throws -> [(kind: String, id: String)] {
        final class Reader: NSObject, XMLParserDelegate {
            var root: (String, [String: String])? = nil
            var boxes: [(kind: String, id: String)] = []
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                if root == nil { root = (name, attributes) }
                if name == "rect", let c = attributes["class"], ["cell", "header", "footer", "background", "attached"].contains(c) {
                    boxes.append((c, attributes["id"] ?? ""))
                }
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let reader = Reader()
        parser.delegate = reader
        XCTAssertTrue(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))", file: file, line: line)
        let root = try XCTUnwrap(reader.root, file: file, line: line)
        XCTAssertEqual(root.0, "svg", file: file, line: line)
        XCTAssertEqual(root.1["version"], "1.1", file: file, line: line)
        XCTAssertEqual(root.1["xmlns"], "http://www.w3.org/2000/svg", file: file, line: line)
        return reader.boxes
    }

    /// Every sample, checked against the samples that have table goldens, so that a loop over
    /// them cannot pass by running over none (a moved folder, a changed suffix).
    func samples(file: StaticString = #filePath, line: UInt = #line) throws -> [URL] {
        let urls = Golden.inputs("samples")
        let goldens = try FileManager.default.contentsOfDirectory(atPath: Golden.root.appendingPathComponent("Tests/Fixtures/samples").path)
            .filter { $0.hasSuffix(".table") }
        XCTAssertFalse(urls.isEmpty, "no samples found", file: file, line: line)
        XCTAssertEqual(urls.count, goldens.count, "samples against their table goldens", file: file, line: line)
        return urls
    }

    func testSVGOfEverySampleParsesAndHoldsOneBoxPerElement() throws {
        var checked = 0
        for url in try samples() {
            let stem = url.deletingPathExtension().lastPathComponent
            let ts = try tables(stem)
            let svg = SVGFormat.format(ts)
            let found = try boxes(svg)
            let expected = ts.flatMap { $0.at(.zero).elements }
            XCTAssertEqual(found.count, expected.count, stem)
            // The same number of each kind, and every id once.
            for kind in [ElementKind.cell, .header, .footer, .background, .attached] {
                XCTAssertEqual(found.filter { $0.kind == kind.rawValue }.count, expected.filter { $0.kind == kind }.count, "\(stem) \(kind)")
            }
            XCTAssertEqual(Set(found.map(\.id)).count, found.count, stem)
            checked += found.count
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// Helvetica's advance widths (its AFM, thousandths of an em) for the characters the texts
    /// beside a picture use; any other character counts as the widest of them.
    static let helvetica: [Character: Double] = {
        var w: [Character: Double] = [" ": 278, ",": 278, ".": 278, ":": 278, "·": 278, "-": 333, "(": 333, ")": 333, "'": 191, "x": 500]
        for c in "0123456789" { w[c] = 556 }
        let letters: [Double] = [556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500]
        for (c, v) in zip("abcdefghijklmnopqrstuvwyz", letters) { w[c] = v }
        return w
    }()

    /// The width of `text` in pixels at `size` px (bold: 5% wider).
    static func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
        let em = text.reduce(0.0) { $0 + (helvetica[$1] ?? 833) }
        return em / 1000 * size * (bold ? 1.05 : 1)
    }

    /// The texts of an svg element drawn from their x rightwards (no `text-anchor`, not a box's
    /// label): each `<svg`'s
    /// width with the texts inside it, their x, size and words (tags removed).
    static func leftAlignedTexts(_ document: String) -> [(width: Double, texts: [(x: Double, size: Double, bold: Bool, words: String)])] {
        func attribute(_ name: String, in tag: Substring) -> String? {
            let tag = " " + tag
            guard let r = tag.range(of: " \(name)=\"") else { return nil }
            return String(tag[r.upperBound...].prefix { $0 != "\"" })
        }
        var out: [(width: Double, texts: [(x: Double, size: Double, bold: Bool, words: String)])] = []
        for chunk in document.components(separatedBy: "<svg ").dropFirst() {
            let head = chunk.prefix { $0 != ">" }
            guard let width = attribute("width", in: head).flatMap(Double.init) else { continue }
            var texts: [(x: Double, size: Double, bold: Bool, words: String)] = []
            for piece in chunk.components(separatedBy: "<text ").dropFirst() {
                let tag = piece.prefix { $0 != ">" }
                // Box labels are centred by the style sheet, and clipped with their boxes.
                guard attribute("text-anchor", in: tag) == nil, attribute("class", in: tag)?.hasPrefix("label") != true,
                      let x = attribute("x", in: tag).flatMap(Double.init) else { continue }
                let body = piece.dropFirst(tag.count + 1).components(separatedBy: "</text>")[0]
                let words = body.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
                    .replacingOccurrences(of: "&amp;", with: "&")
                let title = attribute("class", in: tag) == "title"
                texts.append((x, title ? 14 : 11, title, words))
            }
            out.append((width, texts))
        }
        return out
    }

    /// Every text written from its x rightwards (titles, legend, the marks in the margin: the
    /// content's end, the viewport, each shelf's width) ends inside its picture, in svg and in
    /// html: samples/app-store.wfl's "shelf 0: 3720 wide, scrolls sideways" was cut at the edge.
    func testTheTextsBesideAPictureFitInIt() throws {
        var checked = 0, shelfLabels = 0
        for url in Golden.inputs("samples") {
            let stem = url.deletingPathExtension().lastPathComponent
            let ts = try tables(stem)
            for (format, document) in [("svg", SVGFormat.format(ts)), ("html", HTMLFormat.format(ts))] {
                for picture in Self.leftAlignedTexts(document) {
                    for t in picture.texts {
                        let end = t.x + Self.textWidth(t.words, size: t.size, bold: t.bold)
                        XCTAssertLessThanOrEqual(end, picture.width, "\(stem) \(format): '\(t.words)' ends at \(end), past the picture's width \(picture.width)")
                        checked += 1
                        if t.words.contains("scrolls sideways") { shelfLabels += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 100)
        XCTAssertGreaterThan(shelfLabels, 0, "no sample has a shelf label")
    }

    /// The legend names every kind the picture draws: backgrounds and attached views as well when
    /// there are some (and only then, so that other legends stay short).
    func testTheLegendNamesEveryKindDrawn() throws {
        var seen: Set<ElementKind> = []
        for url in Golden.inputs("samples") {
            let stem = url.deletingPathExtension().lastPathComponent
            for t in try tables(stem) {
                let svg = SVGFormat.format([t])
                let legend = Self.leftAlignedTexts(svg)[0].texts.map(\.words)
                let kinds = Set(t.elements.map(\.kind))
                for word in ["cell s.i", "header s", "footer s"] {
                    XCTAssertTrue(legend.contains(word), "\(stem) \(t.name): no '\(word)' in the legend \(legend)")
                }
                for (kind, word) in [(ElementKind.background, "background s"), (.attached, "attached s.i")] {
                    XCTAssertEqual(legend.contains(word), kinds.contains(kind), "\(stem) \(t.name): '\(word)' in the legend \(legend)")
                }
                seen.formUnion(kinds)
            }
        }
        XCTAssertTrue(seen.isSuperset(of: [.background, .attached]), "no sample draws backgrounds and attached views")
    }

    func testSVGLabelsAndMarkers() throws {
        let svg = SVGFormat.format(try tables("feed"))
        let doc = try XMLDocument(data: Data(svg.utf8), options: [])
        let texts = try doc.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
        for label in ["header 0", "footer 0", "0.0", "0.9", "content height 864", "viewport at 0,0", "container width 375"] {
            XCTAssertTrue(texts.contains(label), "no text '\(label)' in \(texts)")
        }
        // Every box has a tooltip with its frame.
        XCTAssertTrue(svg.contains("<title>0.1: 192.5, 54, 172.5 x 150, z 0</title>"))
    }

    func testSVGWithARectDrawsOnlyWhatOverlapsIt() throws {
        let t = try XCTUnwrap(tables("feed").first)
        let rect = Frame(x: 0, y: 300, width: 200, height: 200)
        let found = try boxes(SVGFormat.format([t], rect: rect))
        let expected = t.query(rect)
        XCTAssertGreaterThan(expected.count, 0)
        XCTAssertLessThan(expected.count, t.elements.count)
        XCTAssertEqual(found.map(\.id).sorted(), expected.map { "e0-\($0)" }.sorted())
    }

    func testALargeLayoutDrawsItsFirstScreenfulsAndSaysWhatItLeftOut() throws {
        let t = try XCTUnwrap(evaluate("container 375 x 812\ncolumns 3\nitems 9000\nheight 40 + i % 7 * 10").first)
        let limit = SVGFormat.defaultLimit
        let svg = SVGFormat.format([t])
        let found = try boxes(svg)
        XCTAssertGreaterThan(found.count, limit / 2)
        XCTAssertLessThanOrEqual(found.count, limit)
        // Whole screenfuls: every drawn element starts before a multiple of the viewport height,
        // and every element left out starts at or after it.
        let scope = PictureScope(t, offset: .zero, rect: nil, limit: limit)
        let cut = try XCTUnwrap(scope.cutoff)
        XCTAssertEqual(cut.truncatingRemainder(dividingBy: t.containerHeight), 0)
        let drawn = Set(scope.indices)
        XCTAssertEqual(drawn.count, found.count)
        for (j, e) in t.elements.enumerated() {
            XCTAssertEqual(drawn.contains(j), e.frame.y < cut, "element \(j)")
        }
        XCTAssertTrue(svg.contains("\(found.count) of 9000 elements drawn"), "no note of what was drawn")
        XCTAssertTrue(svg.contains("\(9000 - found.count) left out"), "no note of what was left out")
        // With a rect the limit does not cut.
        XCTAssertEqual(try boxes(SVGFormat.format([t], rect: Frame(x: 0, y: 0, width: 375, height: 1e9))).count, 9000)
    }

    func testHTMLIsSelfContained() throws {
        for url in try samples() {
            let stem = url.deletingPathExtension().lastPathComponent
            let ts = try tables(stem)
            let html = HTMLFormat.format(ts)
            for banned in ["http:", "https:", "//", "<link", " src=", " href="] {
                XCTAssertFalse(html.contains(banned), "\(stem): the page holds '\(banned)'")
            }
            // One table row per element, and the count the script checks against.
            let elements = ts.reduce(0) { $0 + $1.elements.count }
            XCTAssertEqual(html.components(separatedBy: "<tr data-j=").count - 1, elements, stem)
            for t in ts { XCTAssertTrue(html.contains("data-elements=\"\(t.elements.count)\""), stem) }
        }
    }

    /// The slider's data: at each of its offsets, the frames the page shows are the table at that
    /// offset.
    func testHTMLSliderCarriesTheFramesAtEachOffset() throws {
        for name in ["carousel", "pinned-feed"] {
            let t = try XCTUnwrap(tables(name).first)
            let html = HTMLFormat.format([t], offset: Offset(x: 0, y: 0))
            XCTAssertTrue(html.contains("type=\"range\""), name)
            let start = try XCTUnwrap(html.range(of: "<script type=\"application/json\" class=\"data\">"))
            let end = try XCTUnwrap(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
            let data = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
            let offsets = try XCTUnwrap(data["offsets"] as? [[Double]])
            let base = try XCTUnwrap(data["base"] as? [Double])
            let diffs = try XCTUnwrap(data["diffs"] as? [[Double]])
            XCTAssertGreaterThanOrEqual(offsets.count, 24, name)
            XCTAssertEqual(diffs.count, offsets.count)
            var moved = 0
            for (k, o) in offsets.enumerated() {
                var frames = base
                for q in stride(from: 0, to: diffs[k].count, by: 5) {
                    let j = Int(diffs[k][q])
                    for c in 0..<4 { frames[4 * j + c] = diffs[k][q + 1 + c] }
                }
                if !diffs[k].isEmpty { moved += 1 }
                let expected = t.at(Offset(x: o[0], y: o[1])).elements.flatMap { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
                XCTAssertEqual(frames, expected, "\(name) at \(o)")
            }
            XCTAssertGreaterThan(moved, offsets.count / 2, name)
        }
        // A layout that does not move has no slider.
        XCTAssertFalse(HTMLFormat.format(try tables("feed")).contains("type=\"range\""))
    }

    /// The side table has `alpha` and `zoom` columns, as the `table` format, only where some
    /// element has one that is not 1; the page carries the values at each slider offset.
    func testHTMLTableHasAlphaAndZoomColumnsWhenUsed() throws {
        let t = try XCTUnwrap(tables("cover-flow").first)
        let html = HTMLFormat.format([t], offset: .zero)
        XCTAssertTrue(html.contains("<th>z</th><th>alpha</th><th>zoom</th></tr>"))
        // Item 1 at rest: d = 47.5, z 953, alpha 1 - 47.5 / 375, zoom 1.2 - 47.5 / 375.
        XCTAssertTrue(html.contains("<td>953</td><td>0.873</td><td>1.073</td></tr>"))
        XCTAssertEqual(html.components(separatedBy: "<td>0.4</td><td>0.8</td></tr>").count - 1, 9)
        let feed = HTMLFormat.format(try tables("feed"))
        XCTAssertTrue(feed.contains("<th>z</th></tr>"))
        XCTAssertFalse(feed.contains("<th>alpha</th>") || feed.contains("\"looks\""))
    }

    /// Attribute rules at each slider offset: the z-indexes (which the script draws the boxes in
    /// the order of), alphas and zooms the page carries are the table's at that offset.
    func testHTMLSliderCarriesTheAttributesAtEachOffset() throws {
        let t = try XCTUnwrap(tables("cover-flow").first)
        let html = HTMLFormat.format([t], offset: .zero)
        let start = try XCTUnwrap(html.range(of: "<script type=\"application/json\" class=\"data\">"))
        let end = try XCTUnwrap(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let offsets = try XCTUnwrap(data["offsets"] as? [[Double]])
        let z = try XCTUnwrap(data["z"] as? [Double])
        let zs = try XCTUnwrap(data["zs"] as? [[Double]])
        let looks = try XCTUnwrap(data["looks"] as? [[Double]])
        XCTAssertEqual(zs.count, offsets.count)
        var tops: Set<Int> = []
        for (k, o) in offsets.enumerated() {
            var shown = z
            for q in stride(from: 0, to: zs[k].count, by: 2) { shown[Int(zs[k][q])] = zs[k][q + 1] }
            let at = t.at(Offset(x: o[0], y: o[1]))
            XCTAssertEqual(shown, at.elements.map { Double($0.zIndex) }, "at \(o)")
            var alphas = [Double](repeating: 1, count: z.count), zooms = alphas
            for q in stride(from: 0, to: looks[k].count, by: 3) {
                alphas[Int(looks[k][q])] = looks[k][q + 1]
                zooms[Int(looks[k][q])] = looks[k][q + 2]
            }
            for j in z.indices {
                XCTAssertEqual(alphas[j], at.alpha(of: j), accuracy: 0.0005, "at \(o)")
                XCTAssertEqual(zooms[j], at.zoom(of: j), accuracy: 0.0005, "at \(o)")
            }
            // The element drawn on top: the largest z-index, the later in table order on a tie.
            tops.insert(shown.indices.max { (shown[$0], $0) < (shown[$1], $1) }!)
        }
        XCTAssertGreaterThan(tops.count, 5)
        // The script draws again in that order as the slider moves.
        XCTAssertTrue(html.contains("restack(zs)"))
        // A layout whose z-indexes never change carries none.
        XCTAssertFalse(HTMLFormat.format(try tables("carousel")).contains("\"zs\""))
    }

    func testSliderOffsetsIncludeTheOffsetAskedFor() throws {
        let t = try XCTUnwrap(tables("carousel").first)
        let offsets = HTMLFormat.sliderOffsets(t, Offset(x: 55.5, y: 0))
        XCTAssertTrue(offsets.contains(Offset(x: 55.5, y: 0)))
        XCTAssertEqual(offsets.first, Offset(x: 0, y: 0))
        XCTAssertEqual(offsets.last, Offset(x: t.contentWidth - t.containerWidth, y: 0))
        XCTAssertEqual(offsets.map(\.x), offsets.map(\.x).sorted())
    }

    // MARK: ascii

    func testASCIIGoldenPictures() throws {
        let cases: [(String, Offset)] = [("feed", .zero), ("carousel", Offset(x: 55, y: 0)), ("pinned-feed", Offset(x: 0, y: 600)),
                                       ("app-store", Offset(x: 0, y: 300)), ("app-store-rtl", Offset(x: 0, y: 300))]
        for (name, offset) in cases {
            let text = ASCIIPicture.format(try tables(name), offset: offset, columns: 80)
            Golden.check(text, against: Golden.root.appendingPathComponent("Tests/Fixtures/ascii/\(name).txt"),
                         input: Golden.root.appendingPathComponent("samples/\(name).wfl"))
        }
    }

    func testASCIILinesAreAsWideAsAsked() throws {
        let t = try XCTUnwrap(tables("sections").first)
        for columns in [20, 41, 80, 133] {
            let lines = ASCIIPicture.draw(t, columns: columns).split(separator: "\n").dropFirst().dropLast()
            XCTAssertGreaterThan(lines.count, 3)
            for l in lines { XCTAssertEqual(l.count, columns, "\(columns): \(l)") }
        }
        // Narrower than the minimum is drawn at the minimum.
        let narrow = ASCIIPicture.draw(t, columns: 3).split(separator: "\n")
        XCTAssertEqual(narrow[1].count, ASCIIPicture.minimumColumns)
    }

    func testASCIILabelsTheBoxesInTheViewport() throws {
        let t = try XCTUnwrap(tables("feed").first)
        let wide = ASCIIPicture.draw(t, columns: 120)
        let visible = t.query(Frame(x: 0, y: 0, width: t.containerWidth, height: t.containerHeight))
        XCTAssertTrue(wide.contains("\(visible.count) of \(t.elements.count) elements"))
        for j in visible where t.elements[j].frame.maxY <= t.containerHeight {
            XCTAssertTrue(wide.contains(PictureText.label(t.elements[j])), "no label of element \(j)")
        }
        // Scrolled to the end, the footer is in view and labelled.
        let end = ASCIIPicture.draw(t, offset: Offset(x: 0, y: t.contentHeight - t.containerHeight), columns: 80)
        XCTAssertTrue(end.contains("footer 0"))
        XCTAssertFalse(ASCIIPicture.draw(t, columns: 80).contains("footer 0"))
    }

    // MARK: the README's pictures and the command line

    /// samples/feed.svg and samples/carousel.svg, shown in the README, are what `wfl run --format svg`
    /// draws today (`WFL_UPDATE_GOLDEN=1` redraws them).
    func testREADMEPicturesAreWhatWflDraws() throws {
        for name in ["feed", "carousel"] {
            let input = Golden.root.appendingPathComponent("samples/\(name).wfl")
            let run = try WFLCommand.run(["run", "samples/\(name).wfl", "--format", "svg"], directory: Golden.root)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout, SVGFormat.format(try tables(name)))
            Golden.check(run.stdout, against: Golden.root.appendingPathComponent("samples/\(name).svg"), input: input)
        }
        let readme = try String(contentsOf: Golden.root.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("samples/feed.svg") && readme.contains("samples/carousel.svg"))
    }

    func testRunDrawsPicturesFromTheCommandLine() throws {
        let ascii = try WFLCommand.run(["run", "samples/carousel.wfl", "--format", "ascii", "--offset", "110,0"], directory: Golden.root)
        XCTAssertEqual(ascii.status, 0, ascii.stderr)
        // Not a terminal: 80 columns.
        let lines = ascii.stdout.split(separator: "\n")
        XCTAssertEqual(lines[1].count, 80)
        XCTAssertEqual(ascii.stdout, ASCIIPicture.format(try tables("carousel"), offset: Offset(x: 110, y: 0), columns: 80))
        let html = try WFLCommand.run(["run", "samples/pinned-feed.wfl", "--format=html", "--offset", "0,600"], directory: Golden.root)
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.stdout.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.stdout.contains("<output>0,600</output>"))
        let svg = try WFLCommand.run(["run", "samples/feed.wfl", "--format", "svg", "--rect", "0,0,375,100"], directory: Golden.root)
        XCTAssertEqual(svg.status, 0, svg.stderr)
        XCTAssertEqual(try boxes(svg.stdout).count, try XCTUnwrap(tables("feed").first).query(Frame(x: 0, y: 0, width: 375, height: 100)).count)
    }
}
