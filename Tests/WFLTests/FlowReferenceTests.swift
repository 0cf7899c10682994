import XCTest
@testable import WFL

/// The flow engine against a plain transcription of docs/layout.md's "Flow" and "Header and footer"
/// sections, over generated specs: the engine sizes and places items in batches, keeps `random`'s
/// state in registers and switches between flat and compiled rules per item, and none of that may
/// change a digit. The reference below does none of it: one item at a time, as the page reads.
final class FlowReferenceTests: XCTestCase {
    typealias Generator = WaterfallPropertyTests.Generator
    typealias Insets = Reference.Insets
    typealias Draws = Reference.Draws
    typealias Row = Reference.Row


    /// What the generator chose for one section.
    @dynamicMemberLookup
    struct Plan {
        var base = Reference.Section()
        subscript<T>(dynamicMember key: KeyPath<Reference.Section, T>) -> T { base[keyPath: key] }
        var justify = "uikit", align = "center"
        /// The `size` rule as written, and the same rule as a function of (i, aw, ah, draw) where
        /// `draw(lo, hi)` is the item's next `random`.
        var rule = ""
        var size: (Int, Double, Double, inout Draws) -> (Double, Double) = { _, _, _, _ in (0, 0) }
    }

    /// Size rules: flat (`c + random`), compiled (lists, conditionals), the two mixed in one item
    /// (so that `random`'s count passes from one to the other), equal sizes (the grid-aligned last
    /// line), items longer than the line, and three items that fill it exactly.
    /// `gap` is the spacing between the items of a line.
    static func sizeRule(_ g: inout Generator, horizontal: Bool, gap: Double) -> (String, (Int, Double, Double, inout Draws) -> (Double, Double)) {
        let ws = [40.0, 95.5, 120, 61, 200], hs = [30.0, 44, 12.25, 70]
        switch g.int(0...6) {
        case 0:
            return ("40 + random(0, 120) x 30 + random(0, 40)", { _, _, _, d in (40 + d.draw(0, 120), 30 + d.draw(0, 40)) })
        case 1:
            return ("[40, 95.5, 120, 61, 200] x [30, 44, 12.25, 70][i % 4]", { i, _, _, _ in (ws[i % 5], hs[i % 4]) })
        case 2:
            return ("40 + random(0, 120) x (i % 3 == 0 ? 30 + random(0, 40) : 50)", { i, _, _, d in
                let w = 40 + d.draw(0, 120)
                return (w, i % 3 == 0 ? 30 + d.draw(0, 40) : 50)
            })
        case 3:
            return ("(i % 2 == 0 ? 20 + random(0, 10) : 60) x 25 + random(5, 30)", { i, _, _, d in
                let w = i % 2 == 0 ? 20 + d.draw(0, 10) : 60
                return (w, 25 + d.draw(5, 30))
            })
        case 4:
            let side = Double(g.pick([50, 100, 110, 170]))
            if g.int(0...1) == 0 { return ("\(Int(side)) x 10 + random(0, 50)", { _, _, _, d in (side, 10 + d.draw(0, 50)) }) }
            return ("\(Int(side)) x \(Int(side))", { _, _, _, _ in (side, side) })
        case 5:
            // Every fourth item is longer than the line (a warning, not an error).
            return horizontal
                ? ("30 x (i % 4 == 1 ? ah + 5 : 40 + random(0, 30))", { i, _, ah, d in (30, i % 4 == 1 ? ah + 5 : 40 + d.draw(0, 30)) })
                : ("(i % 4 == 1 ? aw + 5 : 40 + random(0, 30)) x 30", { i, aw, _, d in (i % 4 == 1 ? aw + 5 : 40 + d.draw(0, 30), 30) })
        default:
            return horizontal
                ? ("20 + i % 3 x (ah - 2 * \(Int(gap))) / 3", { i, _, ah, _ in (20 + Double(i % 3), (ah - 2 * gap) / 3) })
                : ("(aw - 2 * \(Int(gap))) / 3 x 20 + i % 3", { i, aw, _, _ in ((aw - 2 * gap) / 3, 20 + Double(i % 3)) })
        }
    }

    static func spec(_ g: inout Generator) -> (text: String, horizontal: Bool, cw: Double, ch: Double, seed: UInt64, plans: [Plan]) {
        var layout = Reference.Layout.random(&g, style: "flow")
        let horizontal = layout.horizontal
        var plans: [Plan] = []
        for _ in 0..<g.int(1...3) {
            var p = Plan()
            p.base = .random(&g, items: [0, 1, 2, 3, 7, 40, 255, 256, 257, 600])
            p.justify = g.pick(["uikit", "uikit", "start", "center", "end", "spread"])
            p.align = g.pick(["center", "start", "end", "stretch"])
            (p.rule, p.size) = sizeRule(&g, horizontal: horizontal, gap: horizontal ? p.rowSpacing : p.columnSpacing)
            plans.append(p)
            let lines = p.base.lines + ["justify \(p.justify)", "align \(p.align)", "size \(p.rule)"]
            layout.text += "section {\n" + lines.map { "  " + $0 + "\n" }.joined() + "}\n"
        }
        return (layout.text, horizontal, layout.cw, layout.ch, layout.seed, plans)
    }

    /// docs/layout.md, one step at a time. Vertical is written out; horizontal swaps the axes.
    static func reference(cw: Double, ch: Double, horizontal: Bool, seed: UInt64, plans: [Plan]) -> (rows: [Row], content: (Double, Double)) {
        let vertical = !horizontal
        return Reference.stack(plans.map(\.base), cw: cw, ch: ch, horizontal: horizontal) { s, top, aw, ah, rows in
            let p = plans[s]
            // Sizes (w, h) of every item.
            var sizes: [(Double, Double)] = []
            for i in 0..<p.items {
                var d = Draws(seed: seed, s: s, i: i)
                sizes.append(p.size(i, aw, ah, &d))
            }
            // Named along the line (x when vertical) and across it.
            let length = vertical ? aw : ah, left = vertical ? p.insets.left : p.insets.top
            let cs = vertical ? p.columnSpacing : p.rowSpacing, rs = vertical ? p.rowSpacing : p.columnSpacing
            let along = sizes.map { vertical ? $0.0 : $0.1 }, across = sizes.map { vertical ? $0.1 : $0.0 }
            // Lines: an item joins when used + cs + w <= aw + 1e-6; the first always joins.
            var lines: [Range<Int>] = []
            var j = 0
            while j < p.items {
                var used = along[j], end = j + 1
                while end < p.items, used + cs + along[end] <= length + 1e-6 {
                    used = used + cs + along[end]
                    end += 1
                }
                lines.append(j..<end)
                j = end
            }
            let sameSize = sizes.allSatisfy { abs($0.0 - sizes[0].0) <= 1e-6 && abs($0.1 - sizes[0].1) <= 1e-6 }
            var y = top, bottom = top
            var cells: [[Double]] = Array(repeating: [], count: p.items)
            for (l, line) in lines.enumerated() {
                let lineH = line.map { across[$0] }.max()!
                if l > 0 { y = y + lines[l - 1].map { across[$0] }.max()! + rs }
                var used = along[line.lowerBound]
                for q in line.dropFirst() { used = used + cs + along[q] }
                let m = line.count
                let isLast = l == lines.count - 1
                // x: "packed from p" with a gap, or the grid of the last line.
                var p0 = left, gap = cs
                var grid: (u: Double, g: Double)? = nil
                var justify = p.justify
                if justify == "uikit" {
                    if !isLast { justify = m >= 2 ? "spread" : "center" }
                    else if lines.count == 1 && m == 1 { justify = "center" }
                    else if sameSize {
                        let u = along[0]
                        let k = ((length + cs + 1e-6) / (u + cs)).rounded(.down)
                        if k >= 2 { grid = (u, cs + (length - k * u - (k - 1) * cs) / (k - 1)) } else { justify = "center" }
                    } else { justify = "start" }
                }
                switch justify {
                case "end": p0 = left + length - used
                case "center": p0 = left + (length - used) / 2
                case "spread": if m >= 2 { gap = cs + (length - used) / Double(m - 1) }
                default: break
                }
                var x = p0
                for (q, item) in line.enumerated() {
                    let a: Double
                    if let (u, g) = grid { a = left + Double(q) * (u + g) } else { a = x; x += along[item] + gap }
                    let c: Double
                    var (w, h) = sizes[item]
                    switch p.align {
                    case "start": c = y
                    case "end": c = y + lineH - across[item]
                    case "stretch":
                        // The item takes lineH across (computed from the own sizes above).
                        c = y
                        if vertical { h = lineH } else { w = lineH }
                    default: c = y + (lineH - across[item]) / 2
                    }
                    cells[item] = vertical ? [a, c, w, h] : [c, a, w, h]
                }
                bottom = y + lineH
            }
            for (i, f) in cells.enumerated() { rows.append(Row(kind: .cell, section: s, item: i, frame: f, z: 0)) }
            return bottom
        }
    }

    func testGeneratedSpecsMatchTheReference() {
        var g = Generator(state: 4_2026)
        var compared = 0
        // 150 generated specs under WFL_STRESS=1, 60 in the plain run.
        let runs = Stress.enabled ? 150 : 60
        for run in 0..<runs {
            let spec = FlowReferenceTests.spec(&g)
            let expected = FlowReferenceTests.reference(cw: spec.cw, ch: spec.ch, horizontal: spec.horizontal, seed: spec.seed, plans: spec.plans)
            compared += Reference.check(spec.text, expected, run: run)
            // The index's leaf boxes, made a batch at a time as the lines are placed, are the
            // boxes of the finished table.
            if let t = Eval.table(spec.text) {
                XCTAssertEqual(t.index, RectIndex(t.elements), "run \(run): the index\n\(spec.text)")
            }
        }
        // The generator reaches past the engine's batches of 256 items.
        XCTAssertGreaterThan(compared, 120 * runs)
    }
}
