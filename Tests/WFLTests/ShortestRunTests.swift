import XCTest
@testable import WFL

/// Issue 17: `order shortest` with spans looked at every lane of every run for each item (items x
/// lanes x span). `LaneOrder.shortestRun` makes the same choice in about two passes over the
/// lanes, whatever the span; here it is proved equal to its plain twin, `shortestRunScan`.
final class ShortestRunTests: XCTestCase {
    typealias Generator = WaterfallPropertyTests.Generator

    /// The choice of both on one state of the lanes.
    func check(_ next: [Double], _ k: Int, _ what: @autoclosure () -> String) {
        let C = next.count
        let lanes = UnsafeMutablePointer<Double>.allocate(capacity: C)
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: C)
        defer { lanes.deallocate(); scratch.deallocate() }
        lanes.initialize(from: next, count: C)
        let plain = LaneOrder.shortestRunScan(lanes, C, k)
        let fast = LaneOrder.shortestRun(lanes, C, k, scratch: scratch)
        let chosen = LaneOrder.shortest.firstLane(item: 0, span: k, next: lanes, lanes: C, scratch: scratch)
        let skipping = LaneOrder.shortestRunSkipping(lanes, C, k, budget: Int.max)
        if plain != fast || plain != chosen || plain != skipping {
            XCTFail("\(what()): C \(C), k \(k): the scan chooses \(plain), shortestRun \(fast), firstLane \(chosen), shortestRunSkipping \(skipping.map(String.init) ?? "nil"); next \(next)")
        }
        XCTAssertEqual(Array(UnsafeBufferPointer(start: lanes, count: C)), next, "the lanes are only read")
    }

    /// `shortestRunSkipping` reads a window only while its lanes are below the best so far: with
    /// NaN and infinities among the lanes it still chooses as the scan does, and with a small
    /// budget it gives up (nil) rather than answer from part of the lanes.
    func testTheSkippingChoiceIsThePlainScans() {
        var g = Generator(state: 29)
        for _ in 0..<4_000 {
            let C = g.pick([2, 3, 5, 8, 16, 40, 100])
            let k = g.int(1...C)
            let values: [Double] = g.int(0...1) == 0 ? [1, 2, .nan, .infinity, -.infinity] : [0, -0.0, 3, 3, 7]
            let next = (0..<C).map { _ in g.pick(values) }
            let lanes = UnsafeMutablePointer<Double>.allocate(capacity: C)
            defer { lanes.deallocate() }
            lanes.initialize(from: next, count: C)
            let plain = LaneOrder.shortestRunScan(lanes, C, k)
            XCTAssertEqual(LaneOrder.shortestRunSkipping(lanes, C, k, budget: Int.max), plain, "C \(C), k \(k), next \(next)")
            if let early = LaneOrder.shortestRunSkipping(lanes, C, k, budget: 0) { XCTAssertEqual(early, plain) }
        }
        // Lanes falling to the right: every window is a new best, so a budget of C gives up.
        let rising = UnsafeMutablePointer<Double>.allocate(capacity: 100)
        defer { rising.deallocate() }
        for c in 0..<100 { rising[c] = Double(100 - c) }
        XCTAssertNil(LaneOrder.shortestRunSkipping(rising, 100, 10, budget: 100))
        XCTAssertEqual(LaneOrder.shortestRunSkipping(rising, 100, 10, budget: Int.max), 90)
    }

    /// Random lane counts and spans, lanes from a few values (ties everywhere, 0 and -0 among
    /// them), from many values, and sorted both ways (a run's largest at its start or its end).
    func testTheFastChoiceIsThePlainScans() {
        var g = Generator(state: 17)
        for run in 0..<4_000 {
            let C = run % 100 == 0 ? 1000 : g.pick([2, 3, 4, 5, 7, 8, 9, 16, 31, 64, 100, 257])
            let k = g.int(2...C)
            let values: [Double]
            switch g.int(0...3) {
            case 0: values = [0, -0.0, 10]
            case 1: values = [5, 5.5, 6, 100]
            case 2: values = (0..<50).map { Double($0) * 0.25 }
            default: values = (0..<4).map { _ in Double(g.int(0...1_000_000)) / 7 }
            }
            var next = (0..<C).map { _ in g.pick(values) }
            switch g.int(0...5) {
            case 0: next.sort()
            case 1: next.sort(by: >)
            case 2: next = next.map { _ in values[0] }
            default: break
            }
            check(next, k, "run \(run)")
        }
    }

    /// The states a waterfall really passes through: each item takes the run chosen, and its
    /// lanes all take one value, at least their largest (heights and gaps with many ties).
    func testAlongPlacedItems() {
        var g = Generator(state: 1717)
        // 60 runs under WFL_STRESS=1, 20 in the plain run.
        for run in 0..<(Stress.enabled ? 60 : 20) {
            let C = g.pick([6, 12, 40, 100, 333])
            let heights: [Double] = g.pick([[0, 10], [10, 10, 20], [50, 80, 120.5, 7.25], [1]])
            let gap = Double(g.pick([0, 0, 2, 10]))
            let maxSpan = g.pick([2, 3, C / 2, C])
            var next = [Double](repeating: Double(g.pick([0, 44])), count: C)
            for i in 0..<300 {
                let k = min(C, max(2, g.int(1...maxSpan)))
                check(next, k, "run \(run), item \(i)")
                let lanes = UnsafeMutablePointer<Double>.allocate(capacity: C)
                lanes.initialize(from: next, count: C)
                let c = LaneOrder.shortestRunScan(lanes, C, k)
                lanes.deallocate()
                let y = next[c..<(c + k)].max()!
                let after = y + g.pick(heights) + gap
                for lane in c..<(c + k) { next[lane] = after }
            }
        }
    }

    /// Whole layouts with many lanes and spans against a plain transcription of the waterfall's
    /// steps (docs/layout.md, "Waterfall") that picks runs by the scan.
    func testLayoutsWithManyLanesAndSpans() throws {
        var g = Generator(state: 4242)
        for run in 0..<40 {
            let C = g.pick([9, 24, 50, 120])
            let cs = Double(g.pick([0, 1, 3])), rs = Double(g.pick([0, 0, 5]))
            let heights: [Double] = g.pick([[10, 10, 20], [0, 30], [12.5, 40, 7, 7, 90]])
            let spans: [Int] = (0..<g.int(1...6)).map { _ in g.int(1...(C + 3)) }
            let n = g.int(1...300)
            let text = """
                container 2000 x 800
                columns \(C)
                columnSpacing \(Int(cs))
                rowSpacing \(Int(rs))
                items \(n)
                height [\(heights.map { NumberFormat.format($0) }.joined(separator: ", "))]
                span [\(spans.map(String.init).joined(separator: ", "))]

                """
            let table = try XCTUnwrap(Eval.table(text), text)
            // The reference.
            let laneW = (2000 - Double(C - 1) * cs) / Double(C)
            var next = [Double](repeating: 0, count: C)
            var expected: [[Double]] = []
            for i in 0..<n {
                let k = min(spans[i % spans.count], C)
                var c = 0, best = Double.infinity
                for start in 0...(C - k) {
                    let m = next[start..<(start + k)].max()!
                    if m < best { best = m; c = start }
                }
                let y = next[c..<(c + k)].max()!
                let w = k == 1 ? laneW : Double(k) * laneW + Double(k - 1) * cs
                let h = heights[i % heights.count]
                expected.append([Double(c) * (laneW + cs), y, w, h])
                for lane in c..<(c + k) { next[lane] = y + h + rs }
            }
            XCTAssertEqual(Eval.cells(table), expected, "run \(run):\n\(text)")
        }
    }
}

extension ShortestRunTests {
    /// Spans up to 500 of 1,000 lanes cost about what span 1 costs (about 150 times as much by
    /// the scan).
    func testSpansCostAboutWhatSpanOneCosts() throws {
        func seconds(_ span: String) throws -> Double {
            let text = "container 12000 x 812\ncolumns 1000\nspacing 2\nitems 3000\nheight 50 + random(0, 150)\nspan \(span)\n"
            let source = SourceFile(name: "t.wfl", text: text)
            let program = Program(tree: Parser.parse(source).tree, source: source)
            let layout = try XCTUnwrap(program.resolve(layoutNamed: "t")).get()
            var best = Double.infinity
            for _ in 0..<2 {
                let t0 = ContinuousClock.now
                _ = try program.run(layout).get()
                let d = (ContinuousClock.now - t0).components
                best = min(best, Double(d.seconds) + Double(d.attoseconds) * 1e-18)
            }
            return best
        }
        let one = try seconds("1"), wide = try seconds("1 + i % 500")
        XCTAssertLessThan(wide / one, 6, "span 1: \(one) s, span 1 + i % 500: \(wide) s")
    }
}
