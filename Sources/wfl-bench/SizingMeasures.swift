// MARK: - Self-sizing paths (issue 30): a screen a stop through a long self-sizing waterfall

import WFL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Measure {
    /// A self-sizing waterfall of `items` items whose estimates are too large on average.
    static func sizingFile(_ items: Int) -> String {
        """
        container 390 x 844
        columns 2
        spacing 8
        insets 8
        items \(items)
        estimate 200
        height 60 + i * 37 % 220

        """
    }

    /// `wfl run FILE --scroll 0,L/H --format json` (a stop a screen, H the container's height,
    /// from the first display down to L, the measured content height) against `wfl run FILE
    /// --format json` of the same file: docs/layout.md's performance rule, at most 10 times as
    /// long. Both are whole processes; the path's output must be the measured table (every cell
    /// measured at the end) with the path's three lines.
    static var scroll: Measure { Measure(
        name: "scroll", summary: "wfl run --scroll 0,L/H --format json (a stop a screen to the end) of a 100,000-item self-sizing waterfall, against wfl run --format json of it (10,000 items with --quick)",
        unit: "ms", target: 10, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = options.quick ? 10_000 : 100_000
        let spec = BenchSpecFile(sizingFile(n), name: "scroll")
        defer { spec.remove() }
        let wfl = siblingExecutable("wfl")
        let c = Pipeline.run(SourceFile(name: "bench.wfl", text: spec.text))
        guard !c.hasErrors, let layout = c.layouts.first else { fail("wfl-bench: the self-sizing file does not evaluate") }
        let L = layout.before.contentHeight, H = 844.0
        let path = "0,\(NumberFormat.format(L))/\(NumberFormat.format(H))"
        let scrolled = [wfl, "run", spec.path, "--scroll", path, "--format", "json"]
        let plain = [wfl, "run", spec.path, "--format", "json"]
        // The path ends in the measured table: its json is the plain run's with the path's lines.
        let out = spec.dir + "/check"
        defer { unlink(out) }
        func lines(_ args: [String]) -> [ArraySlice<UInt8>] {
            if spawn(args, stdout: out) != 0 { fail("wfl-bench: \(args.joined(separator: " ")) fails") }
            return readFile(out).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        }
        let pathLines = lines(scrolled)
        let extra: [String] = ["\"offset\"", "\"contentOffsetAdjustment\"", "\"contentSizeAdjustment\""]
        let kept = pathLines.filter { l in !extra.contains { String(decoding: l, as: UTF8.self).contains($0) } }
        guard kept == lines(plain), pathLines.count == kept.count + 3 else {
            fail("wfl-bench: the path's json is not the measured table with its offset and adjustments")
        }
        let stops = Int((L / H).rounded(.up)) + 1
        let (s, p) = Timer.interleaved(runs: options.runs ?? 5, warmups: 1,
                                       wfl: { spawn(scrolled, stdout: "/dev/null") },
                                       baseline: { spawn(plain, stdout: "/dev/null") })
        return Outcome(label: "wfl run --scroll, \(Format.grouped(n)) items, \(Format.grouped(stops)) stops", wfl: s.median * 1e3,
                       baseline: p.median * 1e3, baselineName: "wfl run",
                       notes: ["--scroll \(path) \(s.summary) (process start to exit)", "plain   \(p.summary)"])
    } }
}
