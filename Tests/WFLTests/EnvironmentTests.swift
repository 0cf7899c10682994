import Foundation
import XCTest
@testable import WFL

/// The environment and devices (docs/layout.md, "The environment", "Devices"): the safe area
/// along the scroll axis (initial offset, pinning, scrollable range) and across it (reference
/// edges), right to left, the presets, and every existing file's tables unchanged.
final class EnvironmentTests: XCTestCase {
    /// Evaluates `text`, on `device` when given (as `--device` does).
    func run(_ text: String, device: DevicePreset? = nil, file: StaticString = #filePath, line: UInt = #line) -> Compilation {
        let parsed = Pipeline.parse(SourceFile(name: "t.wfl", text: text))
        parsed.program?.device = device
        let c = Pipeline.evaluate(parsed)
        XCTAssertFalse(c.hasErrors, DiagnosticRenderer().render(c.diagnostics, in: c.source), file: file, line: line)
        return c
    }

    func table(_ text: String, device: DevicePreset? = nil, file: StaticString = #filePath, line: UInt = #line) -> AttributeTable {
        run(text, device: device, file: file, line: line).tables[0]
    }

    func frame(_ f: Frame) -> [Double] { [f.x, f.y, f.width, f.height] }

    /// Each preset in each orientation, worked out by hand from the table of docs/layout.md:
    /// (container W, H; safe area T, L, B, R).
    static let presets: [(String, Double, Double, Double, Double, Double, Double)] = [
        ("iPhoneSe.portrait", 320, 568, 20, 0, 0, 0), ("iPhoneSe.landscape", 568, 320, 0, 0, 0, 0),
        ("iPhone8.portrait", 375, 667, 20, 0, 0, 0), ("iPhone8.landscape", 667, 375, 0, 0, 0, 0),
        ("iPhone8Plus.portrait", 414, 736, 20, 0, 0, 0), ("iPhone8Plus.landscape", 736, 414, 0, 0, 0, 0),
        ("iPhoneX.portrait", 375, 812, 44, 0, 34, 0), ("iPhoneX.landscape", 812, 375, 0, 44, 24, 44),
        ("iPhoneXr.portrait", 414, 896, 44, 0, 34, 0), ("iPhoneXr.landscape", 896, 414, 0, 44, 24, 44),
        ("iPhoneXsMax.portrait", 414, 896, 44, 0, 34, 0), ("iPhoneXsMax.landscape", 896, 414, 0, 44, 24, 44),
        ("iPhone12.portrait", 390, 844, 47, 0, 34, 0), ("iPhone12.landscape", 844, 390, 0, 47, 21, 47),
        ("iPhone12Pro.portrait", 390, 844, 47, 0, 34, 0), ("iPhone12Pro.landscape", 844, 390, 0, 47, 21, 47),
        ("iPhone13.portrait", 390, 844, 47, 0, 34, 0), ("iPhone13.landscape", 844, 390, 0, 47, 21, 47),
        ("iPhone13Pro.portrait", 390, 844, 47, 0, 34, 0), ("iPhone13Pro.landscape", 844, 390, 0, 47, 21, 47),
        ("iPhone12ProMax.portrait", 428, 926, 47, 0, 34, 0), ("iPhone12ProMax.landscape", 926, 428, 0, 47, 21, 47),
        ("iPhone13ProMax.portrait", 428, 926, 47, 0, 34, 0), ("iPhone13ProMax.landscape", 926, 428, 0, 47, 21, 47),
        ("iPhone13Mini.portrait", 375, 812, 50, 0, 34, 0), ("iPhone13Mini.landscape", 812, 375, 0, 50, 21, 50),
        ("iPadMini.portrait", 768, 1024, 20, 0, 0, 0), ("iPadMini.landscape", 1024, 768, 20, 0, 0, 0),
        ("iPadPro10_5.portrait", 834, 1112, 20, 0, 0, 0), ("iPadPro10_5.landscape", 1112, 834, 20, 0, 0, 0),
        ("iPadPro12_9.portrait", 1024, 1366, 20, 0, 0, 0), ("iPadPro12_9.landscape", 1366, 1024, 20, 0, 0, 0),
        ("iPadPro11.portrait", 834, 1194, 24, 0, 20, 0), ("iPadPro11.landscape", 1194, 834, 24, 0, 20, 0),
    ]

    /// One column, a pinned header and footer: per preset the cell spans the safe area across,
    /// the header pins below the top inset and the footer above the bottom one, and the initial
    /// offset is (0, -top); the same through `device NAME ORIENTATION` in the file.
    func testSafeAreaOfEveryDeviceOrientation() throws {
        XCTAssertEqual(Devices.all.map(\.id), Self.presets.map(\.0), "the 34 presets, in the table's order")
        let body = "columns 1\nitems 1\nheight 2000\nheader 40\npinHeaders true\nfooter 30\npinFooters true\nexpect device != \"\"\n"
        for (id, cw, ch, t, l, b, r) in Self.presets {
            let preset = try XCTUnwrap(Devices.preset(named: id), id)
            let parts = id.split(separator: ".")
            for tb in [table(body, device: preset), table("device \(parts[0]) \(parts[1])\n" + body)] {
                XCTAssertEqual([tb.containerWidth, tb.containerHeight], [cw, ch], id)
                XCTAssertEqual(tb.scroll.device, id)
                XCTAssertEqual(tb.initialOffset, Offset(x: 0, y: -t), id)
                let cell = tb.elements[tb.sectionStarts[0].firstCell].frame
                XCTAssertEqual(frame(cell), [l, 40, cw - l - r, 2000], id)
                // Header: max(0, min(oy + at, 2040 - 40 - 40)); footer: min(2040, max(oy + ch - ab - 30, 40)).
                let shown = tb.at(Offset(x: 0, y: 100))
                XCTAssertEqual(shown.elements[0].frame.y, 100 + t, id)
                XCTAssertEqual(shown.elements[2].frame.y, 100 + ch - b - 30, id)
                let initial = tb.at(tb.initialOffset)
                XCTAssertEqual(initial.elements[0].frame.y, 0, id)
                XCTAssertEqual(initial.elements[2].frame.y, ch - t - b - 30, id)
            }
        }
        // A bare name: portrait for iPhones, landscape for iPads.
        XCTAssertEqual(table("device iPhone13\nitems 1\n").scroll.device, "iPhone13.portrait")
        XCTAssertEqual(table("device iPadMini\nitems 1\n").scroll.device, "iPadMini.landscape")
        XCTAssertEqual(Devices.preset(named: "iPadPro11")?.width, 1194)
        XCTAssertNil(Devices.preset(named: "iPhone13.sideways"))
    }

    /// `device` sets the container "as if written there": a `container` after it wins, and
    /// `--device` wins over both.
    func testDeviceIsAsIfWritten() throws {
        let t = table("device iPhone13\ncontainer 200 x 300\nitems 1\n")
        XCTAssertEqual([t.containerWidth, t.containerHeight], [200, 300])
        XCTAssertEqual(t.initialOffset, Offset(x: 0, y: -47), "the safe area stays the device's")
        let o = table("container 200 x 300\nsafeArea 5\nitems 1\n", device: Devices.preset("iPadMini", .portrait))
        XCTAssertEqual([o.containerWidth, o.containerHeight, o.initialOffset.y], [768, 1024, -20])
        // The variable `device`.
        let c = run("device iPadMini\nitems 1\nexpect device == \"iPadMini.landscape\"\nexpect device != \"\"\n")
        XCTAssertEqual(Pipeline.checkExpectations(c).map(\.passed), [true, true])
        let none = run("items 1\nexpect device == \"\"\n")
        XCTAssertEqual(Pipeline.checkExpectations(none).map(\.passed), [true])
    }

    /// Across the axis: the four references, by hand.
    func testReferenceEdges() {
        let base = "container 1024 x 768\nsafeArea 20 4 0 6\nlayoutMargins 8 10 8 12\ncolumns 1\nitems 1\nheight 10\n"
        func cell(_ reference: String) -> [Double] {
            let t = table(base + "insetsReference \(reference)\ninsets 0 1 0 2\n")
            return frame(t.elements[0].frame)
        }
        XCTAssertEqual(cell("none"), [1, 0, 1021, 10])
        XCTAssertEqual(cell("safeArea"), [5, 0, 1024 - 4 - 6 - 3, 10])
        // m1 = 14, m2 = 18.
        XCTAssertEqual(cell("layoutMargins"), [15, 0, 1024 - 14 - 18 - 3, 10])
        // g = 1024 - 32 = 992, d = (992 - 672) / 2 = 160: e1 = 174, e2 = 178, aw = 672 - 3.
        XCTAssertEqual(cell("readableContent"), [175, 0, 669, 10])
        // Narrower than the readable width: d = 0.
        let narrow = table("container 300 x 600\ninsetsReference readableContent\ncolumns 1\nitems 1\nheight 10\n")
        XCTAssertEqual(frame(narrow.elements[0].frame), [8, 0, 284, 10])
        // aw reads the edges too.
        let aw = run(base + "insetsReference layoutMargins\nexpect frame(0, 0)[2] == 1024 - 32\n")
        XCTAssertEqual(Pipeline.checkExpectations(aw).map(\.passed), [true])
        // Horizontal: the edges on y (readableContent is layoutMargins there).
        let h = table("direction horizontal\ncontainer 800 x 400\nsafeArea 10 0 20 0\ninsetsReference readableContent\nrows 1\nitems 1\nwidth 50\n")
        XCTAssertEqual(frame(h.elements[0].frame), [0, 18, 50, 400 - 18 - 28])
        XCTAssertEqual(h.initialOffset, Offset(x: 0, y: 0))
    }

    /// Right to left, the x edges swap before the mirror: the cells still sit inside the
    /// physical safe area and margins; a horizontal layout pins to its right edge less the
    /// right inset.
    func testRightToLeftSwapsTheEdgesBeforeTheMirror() {
        let v = table("container 300 x 600\nsafeArea 0 10 0 30\nlayoutDirection rightToLeft\ncolumns 1\nitems 1\nheight 100\n")
        XCTAssertEqual(frame(v.elements[0].frame), [10, 0, 260, 100])
        let m = table("container 300 x 600\nsafeArea 0 10 0 30\nlayoutMargins 8 4 8 6\ninsetsReference layoutMargins\nlayoutDirection rightToLeft\ncolumns 1\nitems 1\nheight 100\n")
        // Before the mirror e1 = 30 + 6, e2 = 10 + 4: x = 36, width 250; mirrored 300 - 36 - 250.
        XCTAssertEqual(frame(m.elements[0].frame), [14, 0, 250, 100])
        // Horizontal: content 1040; at ox 500 the viewport is [500, 800] and the header pins to
        // 800 - 30 (the right inset): x = 730. ox' = 1040 - 500 - 300 = 240; x' = 240 + 30.
        let h = table("direction horizontal\ncontainer 300 x 200\nsafeArea 0 10 0 30\nlayoutDirection rightToLeft\nrows 1\nitems 1\nwidth 1000\nheader 40\npinHeaders true\n")
        XCTAssertEqual(h.initialOffset, Offset(x: -10, y: 0), "physical, right to left too")
        XCTAssertEqual(h.at(Offset(x: 500, y: 0)).elements[0].frame.x, 730)
        let ltr = table("direction horizontal\ncontainer 300 x 200\nsafeArea 0 10 0 30\nrows 1\nitems 1\nwidth 1000\nheader 40\npinHeaders true\n")
        XCTAssertEqual(ltr.at(Offset(x: 500, y: 0)).elements[0].frame.x, 510)
    }

    /// Along the axis: the header pins below the top inset, the footer above the bottom one,
    /// default offsets are the initial offset, and `snap` clamps to [-at, content + ab - ch].
    func testPinningBelowTheTopInsetAndTheScrollableRange() {
        let text = "container 390 x 844\nsafeArea 47 0 34 0\ncolumns 1\nitems 1\nheight 2000\nheader 40\npinHeaders true\nfooter 30\npinFooters true\n"
        let t = table(text)
        XCTAssertEqual(t.at(Offset(x: 0, y: 500)).elements[0].frame.y, 547)
        XCTAssertEqual(t.at(Offset(x: 0, y: 500)).elements[2].frame.y, 500 + 844 - 34 - 30)
        XCTAssertEqual(t.scrollableRange.min, -47)
        XCTAssertEqual(t.scrollableRange.max, 2070 + 34 - 844)
        let c = run(text + "expect header(0)[1] == 0\nexpect footer(0)[1] == 844 - 47 - 34 - 30\nexpect header(0, 0, 100)[1] == 147\n")
        XCTAssertEqual(Pipeline.checkExpectations(c).map(\.passed), [true, true, true])
        let flow = run("style flow\ncontainer 390 x 844\nsafeArea 47 0 34 0\nsize 100 x 100\nitems 30\nexpect snap(-200) == -47\nexpect snap(100000) == contentHeight + 34 - 844\n")
        XCTAssertEqual(Pipeline.checkExpectations(flow).map(\.passed), [true, true])
    }

    /// Every sample and fixture keeps its tables: the digest of each file's json (or "error")
    /// is the one recorded when the environment came (the same json as before it, checked then
    /// against the previous build's `wfl run --format json` of every file). Files added since
    /// are not in the record; a recorded file that is gone is skipped.
    func testEveryFileKeepsItsTables() throws {
        let golden = Golden.root.appendingPathComponent("Tests/Fixtures/environment/tables.digest")
        func digest(_ path: String) throws -> String {
            let c = Pipeline.run(try Golden.source(Golden.root.appendingPathComponent(path)))
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            let text = c.hasErrors ? "error" : JSONFormat.format(c.tables)
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16)
        }
        if Golden.updating, !FileManager.default.fileExists(atPath: golden.path) {
            var lines: [String] = []
            let folders = ["samples"] + ["after", "ascii", "diagnostics", "engines", "evaluation", "fmt", "offsets", "repl", "test", "transitions"].map { "Tests/Fixtures/" + $0 }
            for folder in folders {
                for url in Golden.inputs(folder) {
                    let path = folder + "/" + url.lastPathComponent
                    lines.append("\(path) \(try digest(path))")
                }
            }
            try (lines.joined(separator: "\n") + "\n").write(to: golden, atomically: true, encoding: .utf8)
        }
        let recorded = try String(contentsOf: golden, encoding: .utf8).split(separator: "\n")
        XCTAssertGreaterThan(recorded.count, 150)
        for line in recorded {
            let parts = line.split(separator: " ")
            let path = String(parts[0])
            guard FileManager.default.fileExists(atPath: Golden.root.appendingPathComponent(path).path) else { continue }
            XCTAssertEqual(try digest(path), String(parts[1]), "\(path): its tables changed")
        }
    }
}
