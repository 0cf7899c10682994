import Foundation
import XCTest
@testable import WFL

/// The incremental relayout of scroll paths (Engines/SelfSizingRelayout.swift) against the page's
/// algorithm with a full relayout at each round, at every stop of random paths: the same offsets,
/// adjustments, measured cells, and tables (complete, index and all), and the part laid out
/// before completing is a prefix of the full table.
final class SelfSizingRelayoutTests: XCTestCase {
    /// The page's stop (docs/layout.md, "Measuring along a scroll path") with a full layout each
    /// round: the oracle.
    struct FullPath {
        let path: SelfSizingPath
        var table: AttributeTable
        var o: Double
        var offsetAdjustment = 0.0, sizeAdjustment = 0.0

        init(_ path: SelfSizingPath) throws {
            self.path = path
            table = try SelfSizingPath.lay(path.mixed)
            o = SelfSizingPath.axis(SelfSizingPath.initialOffset(path.mixed), path.vertical)
        }

        func length(_ t: AttributeTable) -> Double { path.vertical ? t.contentHeight : t.contentWidth }

        mutating func stop(_ target: Double) throws {
            let vertical = path.vertical
            let (lead, trail) = SelfSizingPath.scrollInsets(path.mixed)
            let view = vertical ? table.containerHeight : table.containerWidth
            let minO = -lead
            func maxO(_ t: AttributeTable) -> Double { max(minO, length(t) + trail - view) }
            o = min(max(target, minO), maxO(table))
            let start = (o, length(table))
            while true {
                let viewport = vertical ? Frame(x: 0, y: o, width: table.containerWidth, height: view)
                    : Frame(x: o, y: 0, width: view, height: table.containerHeight)
                let visible = table.elements.indices.filter { table.elements[$0].kind == .cell && table.elements[$0].frame.overlaps(viewport) }
                let new = visible.filter { !path.isMeasured(section: table.elements[$0].section, item: table.elements[$0].item!) }
                if new.isEmpty { break }
                let atTop = o <= minO
                let f = visible.min { (table.elements[$0].section, table.elements[$0].item!) < (table.elements[$1].section, table.elements[$1].item!) }!
                let y0 = SelfSizingPath.minAlong(table.elements[f].frame, vertical)
                for j in new { path.flags[table.elements[j].section]!.flags[table.elements[j].item!] = true }
                table = try SelfSizingPath.lay(path.mixed)
                let y1 = SelfSizingPath.minAlong(table.elements[f].frame, vertical)
                o = min(max(atTop ? minO : o + (y1 - y0), minO), maxO(table))
            }
            offsetAdjustment = o - start.0
            sizeAdjustment = length(table) - start.1
        }
    }

    /// A random self-sizing file: one to four sections of waterfall, flow and shelf, some with
    /// headers and footers, some without `estimate`; sometimes horizontal, a safe area, or a
    /// setting that makes the relayout a full one (a round-robin order, right to left, a
    /// background, a negative spacing).
    static func randomFile(_ r: inout SeededRandom) -> String {
        let horizontal = r.chance(15)
        let ch = 150 + r.below(600)
        var text = horizontal ? "container \(300 + r.below(300)) x 390\ndirection horizontal\n" : "container 390 x \(ch)\n"
        if r.chance(20) { text += "safeArea \(r.below(50)) \(r.below(20)) \(r.below(40)) \(r.below(20))\n" }
        if !horizontal, r.chance(8) { text += "layoutDirection rightToLeft\n" }
        let sections = 1 + r.below(4)
        for _ in 0..<sections {
            let n = r.below(r.chance(20) ? 400 : 60)
            let lengths = (0..<(1 + r.below(12))).map { _ in String(r.below(260) + (r.chance(10) ? 0 : 20)) }.joined(separator: ", ")
            var sec = ""
            if r.chance(40) { sec += "header \(r.below(60))\n" }
            if r.chance(30) { sec += "footer \(r.below(60))\n" }
            if r.chance(20) { sec += "pinHeaders true\n" }
            sec += "items \(n)\nspacing \(r.chance(5) ? -2 : r.below(12))\ninsets \(r.below(20))\n"
            let sizing = r.chance(80)
            let style = horizontal ? 0 : r.below(3)
            switch style {
            case 0:
                sec += "style waterfall\n\(horizontal ? "rows" : "columns") \(1 + r.below(4))\n"
                if r.chance(8) { sec += "order leftToRight\n" }
                if r.chance(10) { sec += "span [1, 1, 2][i]\n" }
                sec += "\(horizontal ? "width" : "height") [\(lengths)]\n"
                if sizing { sec += "estimate \(10 + r.below(300))\n" }
            case 1:
                sec += "style flow\nsize \(40 + r.below(200)) x [\(lengths)][i]\n"
                if sizing { sec += "estimate \(40 + r.below(200)) x \(10 + r.below(200))\n" }
            default:
                sec += "style shelf\nrows \(1 + r.below(2))\nsize \(100 + r.below(200)) x [\(lengths)][i]\n"
                if sizing { sec += "estimate \(100 + r.below(200)) x \(10 + r.below(200))\n" }
            }
            if r.chance(5) { sec += "background color\n" }
            text += "section {\n\(sec)}\n"
        }
        return text
    }

    /// Where two tables differ first: "" when they are equal.
    static func difference(_ a: AttributeTable, _ b: AttributeTable) -> String {
        if a == b { return "" }
        if a.elements.count != b.elements.count { return "\(a.elements.count) elements, not \(b.elements.count)" }
        if let j = a.elements.indices.first(where: { a.elements[$0] != b.elements[$0] }) { return "element \(j): \(a.elements[j]), not \(b.elements[j])" }
        if a.sectionStarts != b.sectionStarts { return "sections \(a.sectionStarts), not \(b.sectionStarts)" }
        if a.index != b.index {
            if a.index.sequence != b.index.sequence || a.index.count != b.index.count { return "index sequence or count" }
            if a.index.levels.count != b.index.levels.count { return "index depth \(a.index.levels.count), not \(b.index.levels.count)" }
            for l in a.index.levels.indices where a.index.levels[l] != b.index.levels[l] {
                let k = a.index.levels[l].indices.first { k in k >= b.index.levels[l].count || a.index.levels[l][k] != b.index.levels[l][k] } ?? -1
                return "index level \(l) box \(k) of \(a.index.levels[l].count): \(k >= 0 ? "\(a.index.levels[l][k])" : ""), not \(k >= 0 && k < b.index.levels[l].count ? "\(b.index.levels[l][k])" : "none") (\(b.index.levels[l].count))"
            }
        }
        if a.scroll != b.scroll { return "scroll \(a.scroll), not \(b.scroll)" }
        return "content \(a.contentSize), not \(b.contentSize), or another field"
    }

    func testIncrementalRelayoutIsAFullRelayoutAtEveryStop() throws {
        let given = ProcessInfo.processInfo.environment["WFL_TEST_SEED"].flatMap { UInt64($0) }
        var r = Stress.enabled && given == nil ? SeededRandom.forTest("relayout") : SeededRandom(seed: given ?? 3030)
        var files = 0, stops = 0, incremental = 0
        while files < (Stress.enabled ? 600 : 20) {
            let text = Self.randomFile(&r)
            let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
            guard !c.hasErrors, let l = c.layouts.first, let source = l.selfSizing else { continue }
            files += 1
            let context = "\(r.label)\n\(text)"
            var p = try source.path()
            if p.relayout.incremental { incremental += 1 }
            var q = try FullPath(try source.path())
            XCTAssertEqual(Self.difference(p.table, q.table), "", context)
            let vertical = p.vertical
            let view = vertical ? q.table.containerHeight : q.table.containerWidth
            try p.firstDisplay()
            try q.stop(SelfSizingPath.axis(SelfSizingPath.initialOffset(source.layout), vertical))
            for k in 0..<(4 + r.below(30)) {
                if k > 0 {
                    // Down a screen or so, a jump, back up, past either end.
                    let here = q.o
                    let target: Double
                    switch r.below(10) {
                    case 0..<5: target = here + view * (0.3 + r.unit())
                    case 5, 6: target = here - view * r.unit()
                    case 7: target = Double(r.below(20_000))
                    case 8: target = 1e9
                    default: target = -1e9
                    }
                    try p.scroll(to: vertical ? Offset(x: 0, y: target) : Offset(x: target, y: 0))
                    try q.stop(target)
                }
                stops += 1
                // Without completing the table: the offset, the first adjustment, the measured
                // cells, and the part laid out so far.
                XCTAssertEqual(SelfSizingPath.axis(p.reached.offset, vertical), q.o, context)
                XCTAssertEqual(SelfSizingPath.axis(p.reached.offsetAdjustment, vertical), q.offsetAdjustment, context)
                for s in source.layout.sections.indices {
                    for i in 0..<source.layout.sections[s].items where p.isMeasured(section: s, item: i) != q.path.isMeasured(section: s, item: i) {
                        XCTFail("cell \(s), \(i) measured \(p.isMeasured(section: s, item: i)) incrementally\n\(context)")
                    }
                }
                let laid = p.relayout.table.elements
                XCTAssertEqual(laid[...], q.table.elements.prefix(laid.count), context)
                // Now and then, the whole table and the size adjustment.
                if r.chance(30) || k == 0 {
                    XCTAssertEqual(Self.difference(p.table, q.table), "", context)
                    XCTAssertEqual(p.state.sizeAdjustment, vertical ? Size(width: 0, height: q.sizeAdjustment) : Size(width: q.sizeAdjustment, height: 0),
                                   context)
                }
                if p.table != q.table { return }
            }
        }
        XCTAssertGreaterThan(stops, files * 4)
        XCTAssertGreaterThan(incremental, files * 2 / 3, "most files are laid out incrementally")
    }

    /// The laid out part stays near the viewport: a path of screens down a long waterfall lays
    /// out only a little past each stop until the table is asked for.
    func testAStopLaysOutOnlyWhatItNeeds() throws {
        let text = "container 390 x 800\ncolumns 2\nitems 20000\nestimate 200\nheight [120, 260, 200, 80, 100]"
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
        var p = try XCTUnwrap(c.layouts.first?.selfSizing).path()
        XCTAssertTrue(p.relayout.incremental)
        try p.firstDisplay()
        for k in 1...20 {
            try p.scroll(to: Offset(x: 0, y: Double(k) * 800))
            let laid = p.relayout.table.elements
            // About 800 / 150 * 2 cells a screen; a chunk is 64 items.
            XCTAssertLessThan(laid.count, 64 * 2 + Int(Double(k + 2) * 800 / 80) * 2, "stop \(k)")
            XCTAssertGreaterThan(laid.last!.frame.maxY, Double(k + 1) * 800, "stop \(k)")
        }
        let full = try FullPath(try XCTUnwrap(c.layouts.first?.selfSizing).path())
        XCTAssertEqual(p.table.elements.count, full.table.elements.count)
    }
}
