import XCTest
@testable import WFL

/// The flow engine against a plain transcription of LAYOUT.md's "Flow" and "Header and footer"
/// sections, over generated specs: the engine sizes and places items in batches, keeps `random`'s
/// state in registers and switches between flat and compiled rules per item, and none of that may
/// change a digit. The reference below does none of it: one item at a time, as the page reads.
final class FlowReferenceTests: XCTestCase {
    typealias Generator = WaterfallPropertyTests.Generator

    struct Insets { var top = 0.0, left = 0.0, bottom = 0.0, right = 0.0 }

    /// What the generator chose for one section.
    struct Plan {
        var items = 0
        var insets = Insets(), headerInsets = Insets(), footerInsets = Insets()
        var header = 0.0, footer = 0.0
        var rowSpacing = 0.0, columnSpacing = 0.0
        var justify = "uikit", align = "center"
        /// The `size` rule as written, and the same rule as a function of (i, aw, ah, draw) where
        /// `draw(lo, hi)` is the item's next `random`.
        var rule = ""
        var size: (Int, Double, Double, inout Draws) -> (Double, Double) = { _, _, _, _ in (0, 0) }
    }

    /// LANGUAGE.md's `random`: the mixer over (seed, s, i, k), k counting the item's draws.
    struct Draws {
        let seed: UInt64, s: Int, i: Int
        var k: UInt64 = 0
        mutating func draw(_ lo: Double, _ hi: Double) -> Double {
            var z = (seed &+ 1) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(s) &* 0xC2B2_AE3D_27D4_EB4F
                &+ UInt64(i) &* 0x1656_67B1_9E37_79F9 &+ k &* 0xD6E8_FEB8_6659_FD93
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z = z ^ (z >> 31)
            k += 1
            return lo + Double(z % UInt64(hi - lo))
        }
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
        let horizontal = g.int(0...2) == 0
        let cw = Double(g.int(150...500)), ch = Double(g.int(200...900))
        let seed = UInt64(g.int(0...1000))
        var text = "style flow\ncontainer \(Int(cw)) x \(Int(ch))\nseed \(seed)\n"
        if horizontal { text += "direction horizontal\n" }
        var plans: [Plan] = []
        func insets(_ g: inout Generator) -> Insets {
            Insets(top: Double(g.int(0...20)), left: Double(g.int(0...20)), bottom: Double(g.int(0...20)), right: Double(g.int(0...20)))
        }
        func written(_ i: Insets) -> String { "\(Int(i.top)) \(Int(i.left)) \(Int(i.bottom)) \(Int(i.right))" }
        for _ in 0..<g.int(1...3) {
            var p = Plan()
            p.items = g.pick([0, 1, 2, 3, 7, 40, 255, 256, 257, 600])
            p.insets = insets(&g)
            p.headerInsets = insets(&g)
            p.footerInsets = insets(&g)
            p.header = Double(g.pick([0, 0, 30, 44]))
            p.footer = Double(g.pick([0, 0, 20]))
            p.rowSpacing = Double(g.int(0...15))
            p.columnSpacing = Double(g.int(0...15))
            p.justify = g.pick(["uikit", "uikit", "start", "center", "end", "spread"])
            p.align = g.pick(["center", "start", "end"])
            (p.rule, p.size) = sizeRule(&g, horizontal: horizontal, gap: horizontal ? p.rowSpacing : p.columnSpacing)
            plans.append(p)
            text += """
                section {
                  items \(p.items)
                  insets \(written(p.insets))
                  headerInsets \(written(p.headerInsets))
                  footerInsets \(written(p.footerInsets))
                  header \(Int(p.header))
                  footer \(Int(p.footer))
                  rowSpacing \(Int(p.rowSpacing))
                  columnSpacing \(Int(p.columnSpacing))
                  justify \(p.justify)
                  align \(p.align)
                  size \(p.rule)
                }

                """
        }
        return (text, horizontal, cw, ch, seed, plans)
    }

    struct Row: Equatable, CustomStringConvertible {
        var kind: ElementKind, section: Int, item: Int?, frame: [Double], z: Int
        var description: String { "\(kind) \(section).\(item.map(String.init) ?? "-") \(frame) z \(z)" }
    }

    /// LAYOUT.md, one step at a time. Vertical is written out; horizontal swaps the axes.
    static func reference(cw: Double, ch: Double, horizontal: Bool, seed: UInt64, plans: [Plan]) -> (rows: [Row], content: (Double, Double)) {
        let vertical = !horizontal
        var rows: [Row] = []
        var top = 0.0
        // "Header and footer": insets before, the frame across the container, insets after.
        func supplementary(_ kind: ElementKind, _ s: Int, _ size: Double, _ i: Insets) {
            guard size > 0 else { return }
            if vertical {
                top += i.top
                rows.append(Row(kind: kind, section: s, item: nil, frame: [i.left, top, cw - i.left - i.right, size], z: 10))
                top += size + i.bottom
            } else {
                top += i.left
                rows.append(Row(kind: kind, section: s, item: nil, frame: [top, i.top, size, ch - i.top - i.bottom], z: 10))
                top += size + i.right
            }
        }
        for (s, p) in plans.enumerated() {
            supplementary(.header, s, p.header, p.headerInsets)
            top += vertical ? p.insets.top : p.insets.left
            let aw = cw - p.insets.left - p.insets.right
            let ah = ch - p.insets.top - p.insets.bottom
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
                    switch p.align {
                    case "start": c = y
                    case "end": c = y + lineH - across[item]
                    default: c = y + (lineH - across[item]) / 2
                    }
                    cells[item] = vertical ? [a, c, sizes[item].0, sizes[item].1] : [c, a, sizes[item].0, sizes[item].1]
                }
                bottom = y + lineH
            }
            for (i, f) in cells.enumerated() { rows.append(Row(kind: .cell, section: s, item: i, frame: f, z: 0)) }
            top = bottom + (vertical ? p.insets.bottom : p.insets.right)
            supplementary(.footer, s, p.footer, p.footerInsets)
        }
        return (rows, vertical ? (cw, top) : (top, ch))
    }

    func testGeneratedSpecsMatchTheReference() {
        var g = Generator(state: 4_2026)
        var compared = 0
        for run in 0..<150 {
            let spec = FlowReferenceTests.spec(&g)
            guard let t = Eval.table(spec.text) else { XCTFail("run \(run): no table\n\(spec.text)"); continue }
            let expected = FlowReferenceTests.reference(cw: spec.cw, ch: spec.ch, horizontal: spec.horizontal, seed: spec.seed, plans: spec.plans)
            let actual = t.elements.map { Row(kind: $0.kind, section: $0.section, item: $0.item, frame: Eval.rect($0), z: $0.zIndex) }
            XCTAssertEqual(t.contentWidth, expected.content.0, "run \(run): content width\n\(spec.text)")
            XCTAssertEqual(t.contentHeight, expected.content.1, "run \(run): content height\n\(spec.text)")
            XCTAssertEqual(actual.count, expected.rows.count, "run \(run): element count\n\(spec.text)")
            if let k = zip(actual, expected.rows).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                XCTFail("run \(run): element \(k) is \(actual[k]), LAYOUT.md gives \(expected.rows[k])\n\(spec.text)")
            }
            compared += actual.count
        }
        // The generator reaches past the engine's batches of 256 items.
        XCTAssertGreaterThan(compared, 20_000)
    }
}
