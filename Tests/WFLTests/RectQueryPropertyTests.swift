import Foundation
import XCTest
@testable import WFL

/// Rect queries (`count`, `--rect`) against a brute-force filter of the table, on generated specs
/// of both engines and both directions, with and without offsets (seeded: every run tests the
/// same ones).
final class RectQueryPropertyTests: XCTestCase {
    typealias Generator = WaterfallPropertyTests.Generator

    /// A spec: waterfall or flow, or (vertical) a mix of waterfall, flow and shelf sections whose
    /// shelves reach past the container; vertical or horizontal, several sections with headers,
    /// footers, spans, every order, pinned headers and footers, section backgrounds, attached
    /// views and (horizontal flow) zoomFirst.
    static func spec(_ g: inout Generator) -> String {
        let flow = g.int(0...1) == 1
        let horizontal = g.int(0...2) == 0
        let mixed = !horizontal && g.int(0...2) == 0
        let cw = g.int(150...500), ch = g.int(200...900)
        var text = "container \(cw) x \(ch)\nseed \(g.int(0...1000))\n"
        text += "style \(flow ? "flow" : "waterfall")\n"
        if horizontal { text += "direction horizontal\n" }
        if flow && horizontal && g.int(0...1) == 0 { text += "zoomFirst \(g.int(20...200)) x \(g.int(20...200))\n" }
        for _ in 0..<g.int(1...4) {
            let style = mixed ? g.pick(["waterfall", "flow", "shelf"]) : flow ? "flow" : "waterfall"
            text += "section {\n"
            if mixed { text += "  style \(style)\n" }
            text += "  spacing \(g.int(0...15)) \(g.int(0...15))\n"
            text += "  insets \(g.int(0...20)) \(g.int(0...20)) \(g.int(0...20)) \(g.int(0...20))\n"
            text += "  header \(g.pick([0, 0, 30, 44]))\n  headerInsets \(g.int(0...8))\n"
            text += "  footer \(g.pick([0, 0, 20]))\n  footerInsets \(g.int(0...8))\n"
            text += "  items \(g.pick([0, 1, 5, g.int(0...80), g.int(50...400)]))\n"
            text += "  pinHeaders \(g.pick(["true", "false", "s % 2 == 0"]))\n"
            text += "  pinFooters \(g.pick(["false", "false", "true", "s % 2 == 1"]))\n"
            switch style {
            case "flow", "shelf":
                if style == "flow" { text += "  justify \(g.pick(["uikit", "uikit", "start", "center", "end", "spread"]))\n" }
                if style == "shelf" {
                    text += "  rows \(g.int(1...3))\n"
                    text += "  paging \(g.pick(["continuous", "leadingBoundary", "paging", "groupPaging", "groupPagingCentered"]))\n"
                }
                text += "  align \(g.pick(["center", "start", "end"]))\n"
                text += "  " + g.pick(["size 20 + random(0, 120) x 20 + random(0, 90)", "size 100 x 100", "size (aw - 20) / 3 x 40",
                                       "size [40, 90, 0][i % 3] x [30, 0, 65.5][i % 3]", "size 30 + i % 7 * 20 x 44"]) + "\n"
            default:
                text += "  \(horizontal ? "rows" : "columns") \(g.int(1...7))\n"
                text += "  order \(g.pick(["shortest", "shortest", "leftToRight", "rightToLeft"]))\n"
                text += "  scale \(g.pick([0, 0, 2, 3]))\n"
                let rule = horizontal ? "width" : "height"
                text += "  " + g.pick(["\(rule) 20 + random(0, 200)", "\(rule) [40, 90, 0, 65.5]", "size 16 x 9",
                                       "\(rule) i % 9 == 0 ? 600 : 20 + random(0, 50)"]) + "\n"
                text += "  " + g.pick(["span 1", "span i % 5 == 0 ? full : 1", "span random(1, 4)", "span [1, 2, 3]"]) + "\n"
            }
            // Section backgrounds of every kind, insets growing or shrinking them.
            if g.int(0...2) > 0 {
                text += "  background \(g.pick(["items", "cells", "all", "none"]))\n"
                text += "  backgroundInsets \(g.int(-12...12)) (\(g.int(-12...12)))\n"
            }
            text += "}\n"
        }
        // Attached views at file level (after the sections: the order is by name's first block).
        if g.int(0...2) == 0 {
            text += "attach badge { when i % \(g.int(1...4)) == 0; size \(g.int(0...30)) x 24; anchor \(g.pick(AttachAnchor.allCases.map(\.rawValue))); offset (vw / 2) x (-vh / 2) }\n"
        }
        if g.int(0...3) == 0 { text += "attach line { size w x 1; anchor bottom; zIndex 2 }\n" }
        return text
    }

    /// Rects inside, across and outside the content, with negative and zero sizes.
    static func rects(_ g: inout Generator, _ t: AttributeTable) -> [Frame] {
        // Shelves reach past the content's width: rects go there too.
        let W = Swift.max(t.contentWidth, t.elements.map(\.frame.maxX).max() ?? 0), H = t.contentHeight
        var out: [Frame] = []
        func r(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(g.int(0...1000)) / 1000 }
        for _ in 0..<14 {
            out.append(Frame(x: r(-50, W + 50), y: r(-50, H + 50), width: r(-200, 400), height: r(-200, 400)))
        }
        // The viewport at some offsets, the whole content, outside it, degenerate rects, and
        // rects whose edges lie exactly on element edges.
        out.append(Frame(x: 0, y: 0, width: W, height: H))
        out.append(Frame(x: 0, y: r(0, H), width: t.containerWidth, height: t.containerHeight))
        out.append(Frame(x: r(0, W), y: 0, width: t.containerWidth, height: t.containerHeight))
        out.append(Frame(x: -100, y: -100, width: 50, height: 50))
        out.append(Frame(x: W + 1, y: H + 1, width: 100, height: 100))
        out.append(Frame(x: r(0, W), y: r(0, H), width: 0, height: 0))
        out.append(Frame(x: r(0, W), y: -10, width: 0, height: H + 20))
        if !t.elements.isEmpty {
            for _ in 0..<4 {
                let f = t.elements[g.int(0...(t.elements.count - 1))].frame
                out.append(Frame(x: f.x, y: f.y, width: f.width, height: f.height))
                out.append(Frame(x: f.maxX, y: f.y, width: 5, height: 5))
            }
        }
        return out
    }

    func testQueriesMatchBruteForce() throws {
        var g = Generator(state: 4_2026)
        // 250 generated layouts under WFL_STRESS=1, 50 in the plain run; each run (its offsets
        // and rects drawn from a generator of its own) on every core.
        let runs = Stress.enabled ? 250 : 50
        let texts = (0..<runs).map { _ in RectQueryPropertyTests.spec(&g) }
        struct Seen { var queries = 0, nonEmpty = 0, moving = 0, pastTheEdge = 0, decorated = 0, attached = 0 }
        let seen = try Concurrent.map(Array(texts.enumerated())) { run, text -> Seen in
            var seen = Seen()
            var g = Generator(state: 4_2026 &+ UInt64(run) &* 7919)
            let (e, _, source) = Eval.run(text)
            guard !e.diagnostics.hasErrors, let t = e.tables.first else {
                XCTFail("run \(run): \(DiagnosticRenderer().render(e.diagnostics, in: source))\n\(text)")
                return seen
            }
            if t.movesWithOffset { seen.moving += 1 }
            if t.style == .mixed, t.elements.contains(where: { $0.frame.maxX > t.containerWidth }) { seen.pastTheEdge += 1 }
            if t.elements.contains(where: { $0.kind == .background }) { seen.decorated += 1 }
            if t.elements.contains(where: { $0.kind == .attached }) { seen.attached += 1 }
            XCTAssertTrue(t.index.covers(t.elements.count), "run \(run): the engine built no index")
            var offsets = [Offset.zero]
            for _ in 0..<3 {
                offsets.append(Offset(x: Double(g.int(-100...Int(t.contentWidth) + 100)), y: Double(g.int(-100...Int(t.contentHeight) + 100))))
            }
            for o in offsets {
                let snapshot = t.at(o)
                for r in RectQueryPropertyTests.rects(&g, snapshot) {
                    let n = r.normalised
                    let brute = snapshot.elements.indices.filter { j in
                        let f = snapshot.elements[j].frame
                        return f.x < n.x + n.width && n.x < f.x + f.width && f.y < n.y + n.height && n.y < f.y + f.height
                    }
                    let fast = t.query(r, at: o)
                    seen.queries += 1
                    if !brute.isEmpty { seen.nonEmpty += 1 }
                    if fast != brute {
                        XCTFail("run \(run), offset \(o), rect \(r): index \(fast) != brute force \(brute)\n\(text)")
                        return seen
                    }
                    if o == .zero {
                        // count(x, y, w, h) in `expect` reads offset (0, 0).
                        let v = try TableQueries(table: t).call(.count, [.number(r.x), .number(r.y), .number(r.width), .number(r.height)],
                                                                span: Span(0, 0), argSpans: Array(repeating: Span(0, 0), count: 4))
                        XCTAssertEqual(v, .number(Double(brute.count)), "run \(run): count")
                    }
                }
            }
            return seen
        }
        let queries = seen.map(\.queries).reduce(0, +), nonEmpty = seen.map(\.nonEmpty).reduce(0, +)
        let moving = seen.map(\.moving).reduce(0, +), pastTheEdge = seen.map(\.pastTheEdge).reduce(0, +)
        let decorated = seen.map(\.decorated).reduce(0, +), attached = seen.map(\.attached).reduce(0, +)
        // The generator must reach the interesting cases.
        XCTAssertGreaterThan(nonEmpty, queries / 3)
        XCTAssertGreaterThan(moving, runs / 5)
        XCTAssertGreaterThan(pastTheEdge, runs / 25, "mixed layouts whose shelves reach past the container")
        XCTAssertGreaterThan(decorated, runs * 8 / 25)
        XCTAssertGreaterThan(attached, runs / 5)
    }

    /// A hand-made table (no engine, so no index) still answers, through an index built on the
    /// spot.
    func testTableWithoutIndex() {
        var t = AttributeTable(name: "t", style: .waterfall, direction: .vertical, containerWidth: 100, containerHeight: 100)
        for k in 0..<100 {
            t.elements.append(Element(kind: .cell, section: 0, item: k, frame: Frame(x: Double(k % 3) * 10, y: Double(k * 7 % 50), width: 9, height: 9), zIndex: 0))
        }
        let r = Frame(x: 5, y: 20, width: -10, height: 15)
        let brute = t.elements.indices.filter { t.elements[$0].frame.overlaps(r.normalised) }
        XCTAssertFalse(brute.isEmpty)
        XCTAssertEqual(t.query(r), brute)
    }

    /// The round-robin sequence groups cells lane by lane and is a permutation.
    func testRoundRobinSequence() throws {
        let t = try XCTUnwrap(Eval.table("columns 3\norder leftToRight\nheader 10\nitems 7\nheight 10 + i\nfooter 5"))
        let seq = try XCTUnwrap(t.index.sequence)
        XCTAssertEqual(seq, [0, 1, 4, 7, 2, 5, 3, 6, 8])
        XCTAssertNil(try XCTUnwrap(Eval.table("columns 3\nitems 7\nheight 10")).index.sequence)
    }

    /// `wfl run --rect` and `--offset` through the binary print the elements the query gives.
    func testRunRectAndOffset() throws {
        let spec = "style flow\ndirection horizontal\ncontainer 375 x 200\nspacing 10\ninsets 10\nzoomFirst 120 x 150\nitems 6\nsize 100 x 100\n"
        let r = try WFLCommand.run(["run", "-", "--format", "csv", "--offset", "50,0", "--rect", "0,0,-200,300"], input: Data(spec.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "layout,section,item,kind,x,y,width,height,zIndex\n")
        let r2 = try WFLCommand.run(["run", "-", "--format", "csv", "--offset=50,0", "--rect=200,0,50,300"], input: Data(spec.utf8))
        XCTAssertEqual(r2.stdout, """
            layout,section,item,kind,x,y,width,height,zIndex
            stdin,0,1,cell,130,40,108,120,0
            stdin,0,2,cell,248,50,100,100,0

            """)
        let plain = try WFLCommand.run(["run", "-", "--format", "csv"], input: Data(spec.utf8))
        XCTAssertTrue(plain.stdout.contains("stdin,0,0,cell,10,25,120,150,0"), plain.stdout)
        for bad in [["--offset", "1"], ["--offset", "a,b"], ["--rect", "1,2,3"], ["--offset"], ["--rect=1,2,3,nan"]] {
            let b = try WFLCommand.run(["run", "-"] + bad, input: Data(spec.utf8))
            XCTAssertEqual(b.status, 64, "\(bad)")
            XCTAssertTrue(b.stderr.contains("X,Y"), b.stderr)
        }
    }
}
