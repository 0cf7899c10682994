import XCTest
@testable import WFL

/// Properties of the waterfall over many generated specs (seeded, so every run tests the same ones).
final class WaterfallPropertyTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), seeded so every run tests the same specs.
    typealias Generator = SeededRandom

    /// What the generator chose for a section, to check the table against.
    struct SectionPlan {
        var insets: (top: Double, left: Double, bottom: Double, right: Double)
        var header: Double, headerInsets: Double, footer: Double, footerInsets: Double
    }

    static func spec(_ g: inout Generator) -> (String, Bool, [SectionPlan]) {
        let horizontal = g.int(0...3) == 0
        let cw = Double(g.int(150...500)), ch = Double(g.int(200...900))
        var text = "container \(Int(cw)) x \(Int(ch))\nseed \(g.int(0...1000))\n"
        if horizontal { text += "direction horizontal\n" }
        var plans: [SectionPlan] = []
        for _ in 0..<g.int(1...3) {
            let lanes = g.int(1...6)
            let ins = (Double(g.int(0...20)), Double(g.int(0...20)), Double(g.int(0...20)), Double(g.int(0...20)))
            let plan = SectionPlan(insets: ins, header: Double(g.pick([0, 0, 30, 44])), headerInsets: Double(g.int(0...8)),
                                   footer: Double(g.pick([0, 0, 20])), footerInsets: Double(g.int(0...8)))
            plans.append(plan)
            text += "section {\n"
            text += "  \(horizontal ? "rows" : "columns") \(lanes)\n"
            text += "  spacing \(g.int(0...15)) \(g.int(0...15))\n"
            text += "  insets \(Int(ins.0)) \(Int(ins.1)) \(Int(ins.2)) \(Int(ins.3))\n"
            text += "  header \(Int(plan.header))\n  headerInsets \(Int(plan.headerInsets))\n"
            text += "  footer \(Int(plan.footer))\n  footerInsets \(Int(plan.footerInsets))\n"
            text += "  items \(g.int(0...60))\n"
            text += "  order \(g.pick(["shortest", "shortest", "leftToRight", "rightToLeft"]))\n"
            text += "  scale \(g.pick([0, 0, 2, 3]))\n"
            let rule = horizontal ? "width" : "height"
            text += "  " + g.pick(["\(rule) 20 + random(0, 200)", "\(rule) [40, 90, 65.5]", "size 16 x 9",
                                   "size 10 + random(0, 50) x 10 + random(0, 80)", "\(rule) \(horizontal ? "h" : "w") * 0.7 + i % 5"]) + "\n"
            text += "  " + g.pick(["span 1", "span i % 5 == 0 ? full : 1", "span random(1, 4)", "span [1, 2, 3]"]) + "\n"
            text += "}\n"
        }
        return (text, horizontal, plans)
    }

    func testGeneratedSpecs() throws {
        var g = Generator(state: 2026)
        let eps = 1e-6
        // 300 generated specs under WFL_STRESS=1, 100 in the plain run.
        for run in 0..<(Stress.enabled ? 300 : 100) {
            let (text, horizontal, plans) = WaterfallPropertyTests.spec(&g)
            let tables = Eval.tables(text)
            guard let t = tables.first else { XCTFail("run \(run) gave no table:\n\(text)"); continue }
            // The same spec evaluates to the same table twice.
            XCTAssertEqual(Eval.tables(text), tables, "run \(run)")
            var sectionStart = 0.0
            for (s, plan) in plans.enumerated() {
                let index = t.sectionStarts[s]
                let cells = t.elements[index.firstCell..<(index.firstCell + index.cellCount)].map(\.frame)
                // Along the scroll axis (main) and across it (cross), in physical terms.
                let (mainBefore, mainAfter) = horizontal ? (plan.insets.left, plan.insets.right) : (plan.insets.top, plan.insets.bottom)
                let (crossBefore, crossAfter) = horizontal ? (plan.insets.top, plan.insets.bottom) : (plan.insets.left, plan.insets.right)
                let crossSize = horizontal ? t.containerHeight : t.containerWidth
                let itemStart = sectionStart + (plan.header > 0 ? plan.headerInsets * 2 + plan.header : 0) + mainBefore
                for (k, f) in cells.enumerated() {
                    let (m0, m1) = horizontal ? (f.x, f.maxX) : (f.y, f.maxY)
                    let (c0, c1) = horizontal ? (f.y, f.maxY) : (f.x, f.maxX)
                    // Every cell lies inside the section's insets.
                    XCTAssertGreaterThanOrEqual(c0, crossBefore - eps, "run \(run) s \(s) item \(k)")
                    XCTAssertLessThanOrEqual(c1, crossSize - crossAfter + eps, "run \(run) s \(s) item \(k)")
                    XCTAssertGreaterThanOrEqual(m0, itemStart - eps, "run \(run) s \(s) item \(k)")
                    XCTAssertLessThanOrEqual(m1, index.end - mainAfter + eps, "run \(run) s \(s) item \(k)")
                }
                // Cells of one section never overlap.
                for a in 0..<cells.count {
                    for b in (a + 1)..<max(a + 1, cells.count) {
                        let p = cells[a], q = cells[b]
                        let overlap = p.x < q.maxX - eps && q.x < p.maxX - eps && p.y < q.maxY - eps && q.y < p.maxY - eps
                        XCTAssertFalse(overlap, "run \(run): cells \(a) and \(b) of section \(s) overlap\n\(text)")
                    }
                }
                sectionStart = index.end + (plan.footer > 0 ? plan.footerInsets * 2 + plan.footer : 0)
            }
            // The content size covers every element.
            for e in t.elements {
                XCTAssertLessThanOrEqual(e.frame.maxX, t.contentWidth + eps, "run \(run)")
                XCTAssertLessThanOrEqual(e.frame.maxY, t.contentHeight + eps, "run \(run)")
                XCTAssertGreaterThanOrEqual(e.frame.x, -eps)
                XCTAssertGreaterThanOrEqual(e.frame.y, -eps)
            }
            XCTAssertEqual(horizontal ? t.contentWidth : t.contentHeight, sectionStart, accuracy: 1e-9, "run \(run)")
        }
    }

    /// The short path of `Waterfall.place` (order shortest, no span rule; a constant, a list, a
    /// `c + random` rule or another flat rule) gives the general loop's table, digit for digit:
    /// `span 1` written out sends the same layout through the general loop.
    func testShortPathIsTheGeneralLoop() {
        let rules = ["100", "[100, 150, 37.25, 80]", "50 + random(0, 150)", "random(0, 7) + random(3, 9) * 10",
                     "0.5 + random(20, 90)", "LANE * 0.5 + random(0, 30)", "i % 7 * 12 + 10"]
        var g = Generator(state: 77)
        for rule in rules {
            for _ in 0..<6 {
                let horizontal = g.int(0...2) == 0
                let lanes = g.int(1...8)
                var text = "container \(g.int(200...500)) x \(g.int(300...900))\nseed \(g.int(0...99))\n"
                if horizontal { text += "direction horizontal\n" }
                for _ in 0..<g.int(1...3) {
                    text += "section {\n  \(horizontal ? "rows" : "columns") \(lanes)\n  spacing \(g.int(0...12)) \(g.int(0...12))\n"
                    text += "  insets \(g.int(0...20))\n  header \(g.pick([0, 40]))\n  items \(g.pick([0, 1, 5, 63, 64, 65, 300]))\n"
                    let written = rule.replacingOccurrences(of: "LANE", with: horizontal ? "h" : "w")
                    text += "  \(horizontal ? "width" : "height") \(written)\n}\n"
                }
                let short = Eval.tables(text)
                let general = Eval.tables(text.replacingOccurrences(of: "}\n", with: "  span 1\n}\n"))
                XCTAssertFalse(short.isEmpty, text)
                XCTAssertEqual(short.first?.elements, general.first?.elements, "\(rule):\n\(text)")
                XCTAssertEqual(short.first?.contentWidth, general.first?.contentWidth)
                XCTAssertEqual(short.first?.contentHeight, general.first?.contentHeight)
            }
        }
        // Where the short path stops (an invalid length in the middle of a list, a flat rule that
        // gives up), the error is the general loop's.
        for rule in ["[100, 150, -3]", "100 / (4 - i)", "10 + random(i, 6)"] {
            let text = "columns 3\nitems 9\nheight \(rule)\n"
            let error = Eval.errors(text)
            XCTAssertFalse(error.isEmpty, rule)
            XCTAssertEqual(error, Eval.errors(text + "span 1\n"), rule)
        }
    }
}
