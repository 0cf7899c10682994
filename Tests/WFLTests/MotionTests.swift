import Foundation
import XCTest
@testable import WFL

/// Shelf offsets, `translate`, `rotate` and the paging progress `p` (docs/language.md,
/// "Transforms and shelf offsets"; docs/layout.md, "Shelf offsets", "Transforms"), with the
/// numbers worked by hand.
final class MotionTests: XCTestCase {
    static let scalePages = """
        container 390 x 844
        direction horizontal
        style flow
        spacing 0
        items 3
        size cw x ch
        let z = clamp(1 - abs(p) * 0.25, 0.75, 1)
        zoom z
        translate (362.7 * p + (p > 0 ? 1 : -1) * (1 - z) * 195 - p * cw) x 0
        zIndex -abs(round(p))
        """

    static let carousel = """
        container 390 x 844
        style shelf
        insets 0 45
        columnSpacing 10
        items 3
        size 300 x 200
        zoom 1 - 0.25 * min(1, abs(midX - cw / 2) / 310)
        """

    /// The tables of `text` with shelves at `shelves`.
    func tables(_ text: String, shelves: [Int: Double] = [:], file: StaticString = #filePath, line: UInt = #line) -> [AttributeTable] {
        let source = SourceFile(name: "t.wfl", text: text)
        let parsed = Parser.parse(source)
        XCTAssertFalse(parsed.diagnostics.hasErrors, file: file, line: line)
        let e = Program(tree: parsed.tree, source: source).evaluate(shelves: shelves)
        XCTAssertFalse(e.diagnostics.hasErrors, DiagnosticRenderer().render(e.diagnostics, in: source), file: file, line: line)
        return e.tables
    }

    func near(_ a: Double, _ b: Double, _ what: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a, b, accuracy: 1e-9, what, file: file, line: line)
    }

    /// The page's scale pages at offset 195: p -0.5, 0.5, 1.5; zoom 0.875, 0.875, 0.75;
    /// translate X -10.725, 10.725, 7.8; zIndex -1, -1, -2; the shown centres.
    func testScalePagesWorkedExample() throws {
        let t = try XCTUnwrap(tables(Self.scalePages).first).at(Offset(x: 195, y: 0))
        XCTAssertEqual(Eval.cells(t), [[0, 0, 390, 844], [390, 0, 390, 844], [780, 0, 390, 844]])
        for (j, z) in [0.875, 0.875, 0.75].enumerated() { near(t.zoom(of: j), z) }
        for (j, x) in [-10.725, 10.725, 7.8].enumerated() {
            near(t.transform(of: j).tx, x)
            XCTAssertEqual(t.transform(of: j).ty, 0)
        }
        XCTAssertEqual(t.elements.map(\.zIndex), [-1, -1, -2])
        // Shown centres: 195 + X, 585 + X, 975 + X.
        for (j, c) in [184.275, 595.725, 982.8].enumerated() {
            let f = t.elements[j].frame
            near(t.transform(of: j).shown(f.x + f.width / 2, f.y + f.height / 2, frame: f, zoom: t.zoom(of: j)).x, c)
        }
        // json carries translate, not rotate (unused).
        let json = JSONFormat.format([t])
        XCTAssertTrue(json.contains("\"translate\": [-10.72"), json)
        XCTAssertFalse(json.contains("rotate"), json)
    }

    /// The table format adds `translateX translateY rotate` after `alpha zoom` to a layout that
    /// uses one (and not to one that does not); the pieces and the plain twin agree.
    func testTableFormatColumns() throws {
        let t = try XCTUnwrap(tables(Self.scalePages + "\nrotate i * 30").first).at(Offset(x: 195, y: 0))
        let expected = """
            t  flow horizontal  container 390 x 844  content 1170 x 844
            section  item  kind  x    y  width  height  z   alpha  zoom   translateX  translateY  rotate
            0        0     cell  0    0  390    844     -1  1      0.875  -10.725     0           0
            0        1     cell  390  0  390    844     -1  1      0.875  10.725      0           30
            0        2     cell  780  0  390    844     -2  1      0.75   7.8         0           60

            """
        XCTAssertEqual(TableFormat.format([t]), expected)
        XCTAssertEqual(TableFormat.referenceFormat([t]), expected)
        let plain = try XCTUnwrap(tables(Self.carousel).first)
        XCTAssertFalse(TableFormat.format([plain]).contains("translateX"))
    }

    /// The swift format gives each element its transform, as UIKit's attributes hold it (zoom and
    /// rotate in a, b, c, d; the translate in tx, ty), only in a layout that uses one: rotate 90 at
    /// zoom 0.5 is (0, 0.5, -0.5, 0); rotate 30 at zoom 0.5 is (0.5 cos 30, 0.5 sin 30, ...).
    func testSwiftFormatTransforms() throws {
        let t = try XCTUnwrap(tables("container 300 x 400\nstyle flow\nitems 2\nsize 100 x 100\nzoom 0.5\nrotate [90, 30]\ntranslate 0 x [0, 7]").first)
        let text = SwiftFormat.format([t], sourceName: "t.wfl")
        XCTAssertTrue(text.contains("""
                static let transforms: [Double] = [
                    0, 0.5, -0.5, 0, 0, 0,
                    0.4330127018922193, 0.24999999999999997, -0.24999999999999997, 0.4330127018922193, 0, 7,
                ]

            """), text)
        let plain = try XCTUnwrap(tables(Self.carousel).first)
        XCTAssertFalse(SwiftFormat.format([plain], sourceName: "t.wfl").contains("transforms"))
    }

    /// svg draws a transformed element as the rect of its frame with the matrix, in the picture's
    /// coordinates: item 0's frame [0, 0, 100, 100] drawn at (20, 94), centre (70, 144); rotate 90
    /// at zoom 0.5 gives a = 0, b = 0.5, c = -0.5, d = 0, e = 70 + 0.5 * 144 = 142,
    /// f = 144 - 0.5 * 70 = 109.
    func testSVGDrawsTheMatrix() throws {
        let t = try XCTUnwrap(tables("container 300 x 400\nstyle flow\nitems 2\nsize 100 x 100\nzoom 0.5\nrotate [90, 0]").first)
        let svg = SVGFormat.format([t])
        XCTAssertTrue(svg.contains(#"<rect class="cell" id="e0-0" x="20" y="94" width="100" height="100" transform="matrix(0 0.5 -0.5 0 142 109)"/>"#), svg)
        // Item 1 has no translate or rotate: its box is scaled about the centre, as before.
        XCTAssertTrue(svg.contains(#"<rect class="cell" id="e0-1" x="245" y="119" width="50" height="50"/>"#), svg)
    }

    /// The compositional carousel: x 45, 355, 665 at sx 0; at 155 and 310 the zooms of the page.
    func testCarouselAtShelfOffsets() throws {
        let t0 = try XCTUnwrap(tables(Self.carousel).first)
        XCTAssertEqual(Eval.cells(t0).map { $0[0] }, [45, 355, 665])
        let t155 = try XCTUnwrap(tables(Self.carousel, shelves: [0: 155]).first)
        XCTAssertEqual(Eval.cells(t155).map { $0[0] }, [-110, 200, 510])
        for (j, z) in [0.875, 0.875, 0.75].enumerated() { near(t155.zoom(of: j), z) }
        let t310 = try XCTUnwrap(tables(Self.carousel, shelves: [0: 310]).first)
        XCTAssertEqual(Eval.cells(t310).map { $0[0] + 150 }, [-115, 195, 505])
        for (j, z) in [0.75, 1, 0.75].enumerated() { near(t310.zoom(of: j), z) }
        // The content size stays.
        XCTAssertEqual(t310.contentWidth, t0.contentWidth)
    }

    /// `sx` and `p` in a shelf: p on the frame as shown, along x; sx the shelf's offset.
    func testShelfVariables() throws {
        let text = """
            container 400 x 800
            style shelf
            items 2
            size 100 x 100
            columnSpacing 0
            zIndex sx + round(p * 100)
            """
        // At sx 50: item 0 at -50 (midX 0): p = (0 - 200) / 400 = -0.5; item 1 midX 100: p -0.25.
        let t = try XCTUnwrap(tables(text, shelves: [0: 50]).first)
        XCTAssertEqual(t.elements.map(\.zIndex), [0, 25])
    }

    /// p along y in a vertical flow.
    func testProgressVertical() throws {
        let t = try XCTUnwrap(Eval.table("""
            container 100 x 200
            style flow
            spacing 0
            items 3
            size 100 x 100
            zIndex round(p * 100)
            """))
        // midY 50, 150, 250 against 100, over 200: -25, 25, 75.
        XCTAssertEqual(t.elements.map(\.zIndex), [-25, 25, 75])
        XCTAssertEqual(t.at(Offset(x: 0, y: 100)).elements.map(\.zIndex), [-75, -25, 25])
    }

    /// The matrix of a zoomed and rotated box against points worked by hand.
    func testMatrixAgainstHandComputedPoints() {
        // Frame (10, 20, 40, 20): centre (30, 30). zoom 2, rotate 90, translate (5, -3).
        let f = Frame(x: 10, y: 20, width: 40, height: 20)
        let t = Transform(tx: 5, ty: -3, rotate: 90)
        let m = t.matrix(frame: f, zoom: 2)
        // a = 0, b = 2, c = -2, d = 0.
        near(m.a, 0); near(m.b, 2); near(m.c, -2); near(m.d, 0)
        // The top-left corner (10, 20): offset (-20, -10) from the centre; shown at
        // (30 + 5 + 0 * -20 + -2 * -10, 30 - 3 + 2 * -20 + 0) = (55, -13).
        let p = t.shown(10, 20, frame: f, zoom: 2)
        near(p.x, 55); near(p.y, -13)
        // The centre moves by the translate only.
        let c = t.shown(30, 30, frame: f, zoom: 2)
        near(c.x, 35); near(c.y, 27)
        // e = cx + X - a cx - c cy = 30 + 5 - 0 + 60 = 95; f = cy + Y - b cx - d cy = 27 - 60 = -33.
        near(m.e, 95); near(m.f, -33)
        // rotate 30 with zoom 0.5 at the origin-centred box (-1, -1, 2, 2): the point (1, 0)
        // goes to (0.5 cos 30, 0.5 sin 30) = (0.4330127..., 0.25).
        let q = Transform(tx: 0, ty: 0, rotate: 30).shown(1, 0, frame: Frame(x: -1, y: -1, width: 2, height: 2), zoom: 0.5)
        near(q.x, 0.4330127018922193); near(q.y, 0.25)
    }

    /// rotate is normalised into (-180, 180].
    func testRotateNormalised() throws {
        XCTAssertEqual(Transform.normalised(270), -90)
        XCTAssertEqual(Transform.normalised(180), 180)
        XCTAssertEqual(Transform.normalised(-180), 180)
        XCTAssertEqual(Transform.normalised(540), 180)
        XCTAssertEqual(Transform.normalised(-190), 170)
        XCTAssertEqual(Transform.normalised(360), 0)
        XCTAssertEqual(Transform.normalised(-0.0).sign, .plus)
        let t = try XCTUnwrap(Eval.table("""
            style flow
            container 300 x 300
            items 3
            size 50 x 50
            rotate [270, 360, 45]
            translate (i * 2) x 0
            """))
        XCTAssertEqual((0..<3).map { t.transform(of: $0).rotate }, [-90, 0, 45])
        // Item 1: rotate 0 and translate (2, 0): json carries translate only; item 0 rotate only.
        let json = JSONFormat.format([t])
        XCTAssertTrue(json.contains("\"zIndex\": 0, \"rotate\": -90}"), json)
        XCTAssertTrue(json.contains("\"zIndex\": 0, \"translate\": [2, 0]}"), json)
        let csv = CSVFormat.format([t])
        XCTAssertTrue(csv.hasPrefix("layout,section,item,kind,x,y,width,height,zIndex,translateX,translateY,rotate\n"), csv)
        XCTAssertTrue(csv.contains(",0,0,-90\n"), csv)
    }

    /// A right-to-left shelf at the same --shelf shows the mirror image.
    func testRightToLeftShelfMirrors() throws {
        let ltr = try XCTUnwrap(tables(Self.carousel, shelves: [0: 155]).first)
        let rtl = try XCTUnwrap(tables(Self.carousel + "\nlayoutDirection rightToLeft", shelves: [0: 155]).first)
        XCTAssertEqual(ltr.elements.count, rtl.elements.count)
        for j in ltr.elements.indices {
            let a = ltr.elements[j].frame, b = rtl.elements[j].frame
            near(b.x, 390 - a.x - a.width)
            XCTAssertEqual(a.y, b.y)
            near(ltr.zoom(of: j), rtl.zoom(of: j))
        }
    }

    /// Moving a shelf by sx and then by -sx restores every frame: the shown frames are the
    /// engine's less sx, exactly.
    func testShelfOffsetProperty() throws {
        var rng = SeededRandom(seed: 31)
        for _ in 0..<20 {
            let items = Int(rng.next() % 12) + 1
            let text = """
                container 375 x 600
                section { style waterfall
                 items 3 }
                section { style shelf
                 rows \(Int(rng.next() % 3) + 1)
                 items \(items)
                 size (40 + i * 7) x 60
                 background cells
                 header 20 }
                """
            let sx = Double(Int(rng.next() % 2001) - 1000) / 4
            let base = try XCTUnwrap(tables(text).first)
            let moved = try XCTUnwrap(tables(text, shelves: [1: sx]).first)
            XCTAssertEqual(base.elements.count, moved.elements.count)
            for j in base.elements.indices {
                var f = moved.elements[j].frame
                if moved.elements[j].kind == .cell && moved.elements[j].section == 1 { f.x += sx }
                // Backgrounds of `cells` follow the cells.
                if moved.elements[j].kind == .background { f.x += sx }
                XCTAssertEqual(f, base.elements[j].frame, "element \(j) at sx \(sx)")
            }
            XCTAssertEqual(moved.contentWidth, base.contentWidth)
            XCTAssertEqual(moved.contentHeight, base.contentHeight)
        }
    }

    /// `sx` in a section that is not a shelf is an error at the rule, evaluated there or not.
    func testSxOutsideShelf() {
        let errors = Eval.errors("""
            zoom 1 - sx / 1000
            section { style shelf }
            section { style flow
             items 0 }
            """)
        XCTAssertTrue(errors.contains("t.wfl:1:6:"), errors)
        let (e, _, _) = Eval.run("zoom 1 - sx / 1000\nsection { style shelf }\nsection { style flow }")
        XCTAssertEqual(e.diagnostics.map(\.code), [.sxOutsideShelf])
        XCTAssertTrue(errors.contains("'sx' has no value"), errors)
        XCTAssertEqual(Eval.errors("style shelf\nrotate sx"), "")
    }

    /// A non-finite translate or rotate is an error naming the item.
    func testNonFiniteTransform() {
        let errors = Eval.errors("style flow\nitems 2\nlet big = 1e308\nrotate i == 1 ? big * 10 : 0")
        XCTAssertTrue(errors.contains("of item 1 of section 0"), errors)
    }

    /// `--shelf`: the page's numbers through the CLI, and its usage errors (64) listing the shelves.
    func testShelfOption() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-motion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.carousel.write(to: dir.appendingPathComponent("c.wfl"), atomically: true, encoding: .utf8)
        let ok = try WFLCommand.run(["run", "c.wfl", "--shelf", "0=155", "-f", "csv"], directory: dir)
        XCTAssertEqual(ok.status, 0)
        XCTAssertTrue(ok.stdout.contains("c,0,0,cell,-110,0,300,200,0,1,0.875\n"), ok.stdout)
        let negative = try WFLCommand.run(["run", "c.wfl", "--shelf=0=-1_000.5e0", "-f", "csv"], directory: dir)
        XCTAssertEqual(negative.status, 0, negative.stderr)
        XCTAssertTrue(negative.stdout.contains("c,0,0,cell,1045.5,"), negative.stdout)
        for bad in ["0=.5", "0=5.", "x=1", "0=1 ", "0=+1", "0=inf", "0=", "=1", "-1=2"] {
            let r = try WFLCommand.run(["run", "c.wfl", "--shelf", bad], directory: dir)
            XCTAssertEqual(r.status, 64, bad)
        }
        let twice = try WFLCommand.run(["run", "c.wfl", "--shelf", "0=1", "--shelf", "0=2"], directory: dir)
        XCTAssertEqual(twice.status, 64)
        let none = try WFLCommand.run(["run", "c.wfl", "--shelf", "2=1"], directory: dir)
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("the only shelf is section 0"), none.stderr)
    }

    /// The expectation forms with sx last, and count with s and sx; sx for a section that is
    /// not a shelf fails that expectation.
    func testExpectationFormsWithShelfOffset() {
        let text = Self.carousel + """

            expect frame(0, 1, 0, 0, 310) == [45, 0, 300, 200]
            expect zoom(0, 1, 0, 0, 310) == 1
            expect zoom(0, 0, 0, 0, 155) == 0.875
            expect count(0, 0, 40, 200, 0, 0, 0, 310) == 1
            expect count(0, 0, 44, 200, 0, 0, 0, 0) == 0
            expect rotate(0, 0) == 0
            expect translate(0, 0) == [0, 0]
            """
        let (e, program, _) = Eval.run(text)
        XCTAssertFalse(e.diagnostics.hasErrors)
        let c = Compilation(source: SourceFile(name: "t.wfl", text: text), parse: Parser.parse(SourceFile(name: "t.wfl", text: text)),
                            program: program, evaluation: e)
        let outcomes = Pipeline.checkExpectations(c)
        XCTAssertEqual(outcomes.count, 7)
        XCTAssertTrue(outcomes.allSatisfy { $0.diagnostic == nil }, "\(outcomes.compactMap(\.diagnostic).map(\.message))")
        let flow = "style flow\nitems 2\nexpect frame(0, 0, 0, 0, 5) == [0, 0, 50, 50]\n"
        let (fe, fp, _) = Eval.run(flow)
        let fc = Compilation(source: SourceFile(name: "t.wfl", text: flow), parse: Parser.parse(SourceFile(name: "t.wfl", text: flow)),
                             program: fp, evaluation: fe)
        XCTAssertNotNil(Pipeline.checkExpectations(fc).first?.diagnostic)
    }

    /// The ascii picture draws a cell with a translate or rotate as the upright box around it as
    /// shown (UIKit's `frame` of the attributes): cell 1, [90, 0, 80, 40] turned 90 degrees about
    /// its centre (130, 20) and moved 10 down, is the box [110, -10, 40, 80] (cut at the top);
    /// cell 0 is its frame.
    func testASCIIDrawsTheBoxAroundATransformedCell() throws {
        let b = Transform(tx: 0, ty: 10, rotate: 90).bounds(of: Frame(x: 90, y: 0, width: 80, height: 40), zoom: 1)
        for (u, v) in [(b.x, 110.0), (b.y, -10.0), (b.width, 40.0), (b.height, 80.0)] { XCTAssertEqual(u, v, accuracy: 1e-9) }
        let z = Transform(tx: 0, ty: 0, rotate: 45).bounds(of: Frame(x: 0, y: 0, width: 100, height: 100), zoom: 0.5)
        for (u, v) in [(z.x, 50 - 25 * 2.0.squareRoot()), (z.width, 50 * 2.0.squareRoot())] { XCTAssertEqual(u, v, accuracy: 1e-9) }
        let t = try XCTUnwrap(tables("container 200 x 100\nstyle flow\njustify start\nitems 2\nsize 80 x 40\nrotate [0, 90]\ntranslate 0 x [0, 10]").first)
        XCTAssertEqual(ASCIIPicture.format([t]), """
            t  flow vertical  viewport at 0,0  200 x 100  content 200 x 40
            ┌──────────────────────────────────────────────────────────────────────────────┐
            │┌─────────────────────────────┐            │     0.1      │                   │
            ││             0.0             │            │              │                   │
            ││                             │            │              │                   │
            ││                             │            │              │                   │
            ││                             │            │              │                   │
            ││                             │            │              │                   │
            ││                             │            │              │                   │
            │└─────────────────────────────┘            │              │                   │
            │                                           │              │                   │
            │                                           │              │                   │
            │                                           │              │                   │
            │                                           │              │                   │
            │                                           │              │                   │
            │                                           └──────────────┘                   │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            └──────────────────────────────────────────────────────────────────────────────┘
            2 of 2 elements; 1 column = 2.56 pt, 1 row = 5.13 pt

            """)
    }
}
