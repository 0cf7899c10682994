import XCTest
@testable import WFL

/// The waterfall engine against a plain transcription of docs/layout.md's "Waterfall" and "Header
/// and footer" sections, over generated specs: every order, spans, `scale`, adaptive lanes,
/// natural sizes, both directions, and rules of every shape the engine treats differently
/// (constants, lists, flat programs, compiled rules). The reference does one item at a time, as
/// the page reads, so the engine's short paths and fallbacks must give the same digits.
final class WaterfallReferenceTests: XCTestCase {
    typealias Generator = WaterfallPropertyTests.Generator
    typealias Insets = Reference.Insets
    typealias Draws = Reference.Draws
    typealias Row = Reference.Row

    /// The length along the scroll axis of an item, given its cross size (w, or h when
    /// horizontal), its first lane and the draws: from the `height`/`width` rule, or from `size W x H`.
    enum Length {
        case rule((Int, Double, Int, inout Draws) -> Double)
        case natural((Int, inout Draws) -> (Double, Double))
    }

    @dynamicMemberLookup
    struct Plan {
        var base = Reference.Section()
        subscript<T>(dynamicMember key: KeyPath<Reference.Section, T>) -> T { base[keyPath: key] }
        var lanes = 2, adaptive: Double? = nil
        var order = "shortest", scale = 0.0
        var span: ((Int, Int, inout Draws) -> Double)? = nil
        var length = Length.rule { _, _, _, _ in 0 }
    }

    static func spec(_ g: inout Generator) -> (text: String, horizontal: Bool, cw: Double, ch: Double, seed: UInt64, plans: [Plan]) {
        var layout = Reference.Layout.random(&g)
        let horizontal = layout.horizontal
        let lane = horizontal ? "h" : "w", lengthName = horizontal ? "width" : "height"
        var plans: [Plan] = []
        for _ in 0..<g.int(1...3) {
            var p = Plan()
            p.base = .random(&g, items: [0, 1, 2, 7, 40, 63, 64, 65, 300])
            p.order = g.pick(["shortest", "shortest", "leftToRight", "rightToLeft"])
            p.scale = Double(g.pick([0, 0, 2, 3]))
            var lines = p.base.lines + ["order \(p.order)", "scale \(Int(p.scale))"]
            if g.int(0...3) == 0 {
                p.adaptive = Double(g.pick([60, 90, 150]))
                lines.append("\(horizontal ? "rows" : "columns") adaptive(\(Int(p.adaptive!)))")
            } else {
                p.lanes = g.int(1...6)
                lines.append("\(horizontal ? "rows" : "columns") \(p.lanes)")
            }
            switch g.int(0...5) {
            case 0: break
            case 1:
                lines.append("span 1")
                p.span = { _, _, _ in 1 }
            case 2:
                lines.append("span i % 5 == 0 ? full : 1")
                p.span = { i, full, _ in i % 5 == 0 ? Double(full) : 1 }
            case 3:
                lines.append("span random(1, 4)")
                p.span = { _, _, d in d.draw(1, 4) }
            case 4:
                lines.append("span [1, 2, 3]")
                p.span = { i, _, _ in [1.0, 2, 3][i % 3] }
            default:
                lines.append("span 2 + random(0, 9)")
                p.span = { _, _, d in 2 + d.draw(0, 9) }
            }
            let lists = [40.0, 90, 65.5]
            switch g.int(0...8) {
            case 8:
                // No size rule: `size 50 x 50`, scaled to the lane (not simply square).
                p.length = .natural { _, _ in (50, 50) }
            case 0:
                lines.append("\(lengthName) 20 + random(0, 200)")
                p.length = .rule { _, _, _, d in 20 + d.draw(0, 200) }
            case 1:
                lines.append("\(lengthName) [40, 90, 65.5]")
                p.length = .rule { i, _, _, _ in lists[i % 3] }
            case 2:
                lines.append("size 16 x 9")
                p.length = .natural { _, _ in (16, 9) }
            case 3:
                lines.append("size 10 + random(0, 50) x 10 + random(0, 80)")
                p.length = .natural { _, d in
                    let w = 10 + d.draw(0, 50)
                    return (w, 10 + d.draw(0, 80))
                }
            case 4:
                lines.append("\(lengthName) \(lane) * 0.7 + i % 5")
                p.length = .rule { i, cross, _, _ in cross * 0.7 + Double(i % 5) }
            case 5:
                lines.append("\(lengthName) col * 10 + 30 + random(0, 20)")
                p.length = .rule { _, _, col, d in Double(col) * 10 + 30 + d.draw(0, 20) }
            case 6:
                lines.append("\(lengthName) 100")
                p.length = .rule { _, _, _, _ in 100 }
            default:
                lines.append("\(lengthName) i % 4 == 0 ? 120 : 35.5 + random(0, 40)")
                p.length = .rule { i, _, _, d in i % 4 == 0 ? 120 : 35.5 + d.draw(0, 40) }
            }
            layout.text += "section {\n" + lines.map { "  " + $0 + "\n" }.joined() + "}\n"
            plans.append(p)
        }
        return (layout.text, horizontal, layout.cw, layout.ch, layout.seed, plans)
    }

    /// docs/layout.md, one step at a time, on a "main" axis (the scroll axis) and a "cross" axis.
    static func reference(cw: Double, ch: Double, horizontal: Bool, seed: UInt64, plans: [Plan]) -> (rows: [Row], content: (Double, Double)) {
        let vertical = !horizontal
        return Reference.stack(plans.map(\.base), cw: cw, ch: ch, horizontal: horizontal) { s, top, aw, ah, rows in
            let p = plans[s]
            let available = vertical ? aw : ah
            // The gap between lanes (cs when vertical) and along a lane (rs when vertical).
            let laneGap = vertical ? p.columnSpacing : p.rowSpacing
            let itemGap = vertical ? p.rowSpacing : p.columnSpacing
            let C = p.adaptive.map { Swift.max(1, Int(((available + laneGap) / ($0 + laneGap)).rounded(.down))) } ?? p.lanes
            var laneW = (available - Double(C - 1) * laneGap) / Double(C)
            if p.scale > 0 { laneW = (laneW * p.scale).rounded(.down) / p.scale }
            let crossStart = vertical ? p.insets.left : p.insets.top
            var next = [Double](repeating: top, count: C)
            var bottom = top
            for i in 0..<p.items {
                var d = Draws(seed: seed, s: s, i: i)
                let k = Swift.min(C, Int(p.span?(i, C, &d) ?? 1))
                var c = 0
                switch p.order {
                case "shortest":
                    var best = Double.infinity
                    for start in 0...(C - k) {
                        let runMax = next[start..<(start + k)].max()!
                        if runMax < best { best = runMax; c = start }
                    }
                case "leftToRight": c = Swift.min(i % C, C - k)
                default: c = Swift.min(C - 1 - (i % C), C - k)
                }
                let y = next[c..<(c + k)].max()!
                let w = Double(k) * laneW + Double(k - 1) * laneGap
                var h: Double
                switch p.length {
                case .rule(let f): h = f(i, w, c, &d)
                case .natural(let f):
                    let (W, H) = f(i, &d)
                    // Vertical: h = H * w / W; horizontal: w = W * h / H (the lane's h is `w` here).
                    h = vertical ? H * w / W : W * w / H
                    if p.scale > 0 { h = (h * p.scale).rounded(.down) / p.scale }
                }
                let cross = crossStart + Double(c) * (laneW + laneGap)
                rows.append(Row(kind: .cell, section: s, item: i, frame: vertical ? [cross, y, w, h] : [y, cross, h, w], z: 0))
                for lane in c..<(c + k) { next[lane] = y + h + itemGap }
                bottom = Swift.max(bottom, y + h)
            }
            return bottom
        }
    }

    func testGeneratedSpecsMatchTheReference() {
        var g = Generator(state: 5_2026)
        var compared = 0
        // 250 generated specs under WFL_STRESS=1, 100 in the plain run.
        let runs = Stress.enabled ? 250 : 100
        for run in 0..<runs {
            let spec = WaterfallReferenceTests.spec(&g)
            let expected = WaterfallReferenceTests.reference(cw: spec.cw, ch: spec.ch, horizontal: spec.horizontal, seed: spec.seed, plans: spec.plans)
            compared += Reference.check(spec.text, expected, run: run)
        }
        XCTAssertGreaterThan(compared, 80 * runs)
    }

    /// The references' `random` gives the language's check values.
    func testDrawsGiveTheCheckValues() {
        let firsts = (0..<3).map { i -> Double in
            var d = Draws(seed: 0, s: 0, i: i)
            return d.draw(0, 150)
        }
        XCTAssertEqual(firsts, [85, 101, 96])
        var d = Draws(seed: 7, s: 1, i: 3)
        XCTAssertEqual(d.draw(0, 150), 38)
    }
}
