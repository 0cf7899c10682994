import XCTest
@testable import WFL

// What the reference tests of the engines share (FlowReferenceTests, WaterfallReferenceTests):
// the language's `random`, docs/layout.md's headers and footers, and the comparison with the
// engine.
enum Reference {
    typealias Generator = WaterfallPropertyTests.Generator

    struct Insets {
        var top = 0.0, left = 0.0, bottom = 0.0, right = 0.0

        static func random(_ g: inout Generator) -> Insets {
            Insets(top: Double(g.int(0...20)), left: Double(g.int(0...20)), bottom: Double(g.int(0...20)), right: Double(g.int(0...20)))
        }

        /// As `insets` takes it: top, left, bottom, right.
        var written: String { "\(Int(top)) \(Int(left)) \(Int(bottom)) \(Int(right))" }
    }

    /// A generated layout: its file-level lines (container, seed, direction) and what they set.
    struct Layout {
        var text: String
        let horizontal: Bool, cw: Double, ch: Double, seed: UInt64

        /// `style` is the first line, when given.
        static func random(_ g: inout Generator, style: String? = nil) -> Layout {
            let horizontal = g.int(0...2) == 0
            let cw = Double(g.int(150...500)), ch = Double(g.int(200...900))
            let seed = UInt64(g.int(0...1000))
            var text = style.map { "style \($0)\n" } ?? ""
            text += "container \(Int(cw)) x \(Int(ch))\nseed \(seed)\n"
            if horizontal { text += "direction horizontal\n" }
            return Layout(text: text, horizontal: horizontal, cw: cw, ch: ch, seed: seed)
        }
    }

    /// What a generated section of either engine sets besides its engine's own settings.
    struct Section {
        var items = 0
        var insets = Insets(), headerInsets = Insets(), footerInsets = Insets()
        var header = 0.0, footer = 0.0
        var rowSpacing = 0.0, columnSpacing = 0.0

        /// With an item count from `items`.
        static func random(_ g: inout Generator, items: [Int]) -> Section {
            Section(items: g.pick(items), insets: .random(&g), headerInsets: .random(&g), footerInsets: .random(&g),
                    header: Double(g.pick([0, 0, 30, 44])), footer: Double(g.pick([0, 0, 20])),
                    rowSpacing: Double(g.int(0...15)), columnSpacing: Double(g.int(0...15)))
        }

        /// Its settings, a line each.
        var lines: [String] {
            ["items \(items)", "insets \(insets.written)", "headerInsets \(headerInsets.written)",
             "footerInsets \(footerInsets.written)", "header \(Int(header))", "footer \(Int(footer))",
             "rowSpacing \(Int(rowSpacing))", "columnSpacing \(Int(columnSpacing))"]
        }
    }

    /// The language's `random`: the mixer over (seed, s, i, k), k counting the item's draws.
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

    struct Row: Equatable, CustomStringConvertible {
        var kind: ElementKind, section: Int, item: Int?, frame: [Double], z: Int
        var description: String { "\(kind) \(section).\(item.map(String.init) ?? "-") \(frame) z \(z)" }
    }

    /// The sections of a layout stacked along the scroll axis, with docs/layout.md's "Header and
    /// footer" around each: insets before, the frame across the container, insets after; then
    /// `ins.top` (`ins.left` when horizontal) before the items, which `cells` lays out from `top`
    /// with aw and ah, appending their rows and returning their `bottom`; then `ins.bottom`
    /// (`ins.right`). Also the content size.
    static func stack(_ sections: [Section], cw: Double, ch: Double, horizontal: Bool,
                      cells: (_ s: Int, _ top: Double, _ aw: Double, _ ah: Double, _ rows: inout [Row]) -> Double)
        -> (rows: [Row], content: (Double, Double)) {
        let vertical = !horizontal
        var rows: [Row] = []
        var top = 0.0
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
        for (s, p) in sections.enumerated() {
            supplementary(.header, s, p.header, p.headerInsets)
            top += vertical ? p.insets.top : p.insets.left
            let bottom = cells(s, top, cw - p.insets.left - p.insets.right, ch - p.insets.top - p.insets.bottom, &rows)
            top = bottom + (vertical ? p.insets.bottom : p.insets.right)
            supplementary(.footer, s, p.footer, p.footerInsets)
        }
        return (rows, vertical ? (cw, top) : (top, ch))
    }

    /// Fails unless the table of `text` is `expected`, digit for digit; returns how many
    /// elements it compared.
    static func check(_ text: String, _ expected: (rows: [Row], content: (Double, Double)), run: Int,
                      file: StaticString = #filePath, line: UInt = #line) -> Int {
        guard let t = Eval.table(text, file: file, line: line) else {
            XCTFail("run \(run): no table\n\(text)", file: file, line: line)
            return 0
        }
        let actual = t.elements.map { Row(kind: $0.kind, section: $0.section, item: $0.item, frame: Eval.rect($0), z: $0.zIndex) }
        XCTAssertEqual(t.contentWidth, expected.content.0, "run \(run): content width\n\(text)", file: file, line: line)
        XCTAssertEqual(t.contentHeight, expected.content.1, "run \(run): content height\n\(text)", file: file, line: line)
        XCTAssertEqual(actual.count, expected.rows.count, "run \(run): element count\n\(text)", file: file, line: line)
        if let k = zip(actual, expected.rows).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            XCTFail("run \(run): element \(k) is \(actual[k]), docs/layout.md gives \(expected.rows[k])\n\(text)", file: file, line: line)
        }
        return actual.count
    }
}
