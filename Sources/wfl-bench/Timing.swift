/// Timing with a monotonic clock, and the formatting of figures.

/// The durations of the timed runs of one piece of work, in seconds.
struct Sample {
    var seconds: [Double] = []

    var sorted: [Double] { seconds.sorted() }
    var median: Double {
        let s = sorted
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    var min: Double { seconds.min() ?? .nan }
    var max: Double { seconds.max() ?? .nan }

    /// "median 21.4 ms (min 20.9, max 24.0, 15 runs)".
    var summary: String {
        "median \(Format.ms(median)) (min \(Format.ms(min).dropLast(3)), max \(Format.ms(max).dropLast(3)), \(seconds.count) runs)"
    }
}

enum Timer {
    static let clock = ContinuousClock()

    /// Runs `body` once, timing only the call: the result is released after the clock stops, so
    /// freeing a token array or a syntax tree is not part of the figure.
    @inline(never)
    static func time<T>(_ body: () -> T) -> Double {
        let start = clock.now
        let result = body()
        let elapsed = clock.now - start
        withExtendedLifetime(result) {}
        let (s, atto) = elapsed.components
        return Double(s) + Double(atto) * 1e-18
    }

    /// Times `wfl` and its `baseline` in alternation (warm-ups first, untimed), so that load from
    /// other processes on the machine falls on both alike.
    static func interleaved<A, B>(runs: Int, warmups: Int, wfl: () -> A, baseline: () -> B) -> (wfl: Sample, baseline: Sample) {
        for _ in 0..<warmups {
            _ = time(wfl)
            _ = time(baseline)
        }
        var a = Sample(), b = Sample()
        for k in 0..<runs {
            // Alternate which goes first, so neither always runs on a cache the other warmed.
            if k % 2 == 0 {
                a.seconds.append(time(wfl))
                b.seconds.append(time(baseline))
            } else {
                b.seconds.append(time(baseline))
                a.seconds.append(time(wfl))
            }
        }
        return (a, b)
    }
}

/// Number formatting without Foundation.
enum Format {
    /// `value` with `digits` digits after the point.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (Swift.abs(value) * scale).rounded()
        let whole = (scaled / scale).rounded(.towardZero)
        var text = (value < 0 && scaled > 0 ? "-" : "") + String(Int64(whole))
        if digits > 0 {
            let frac = String(Int64(scaled - whole * scale))
            text += "." + String(repeating: "0", count: digits - frac.count) + frac
        }
        return text
    }

    /// Three significant figures or so: 412, 57.3, 0.46.
    static func figure(_ value: Double) -> String {
        let a = Swift.abs(value)
        if a >= 1, a < 1e15, value == value.rounded() { return String(Int64(value)) }
        return fixed(value, a >= 100 ? 0 : a >= 10 ? 1 : 2)
    }

    static func ms(_ seconds: Double) -> String { fixed(seconds * 1000, seconds < 0.01 ? 2 : 1) + " ms" }

    /// "10 MB" or "1.05 MB" (1 MB = 10^6 bytes).
    static func megabytes(_ bytes: Int) -> String {
        let mb = Double(bytes) / 1e6
        return (Swift.abs(mb - mb.rounded()) < 0.05 ? String(Int(mb.rounded())) : figure(mb)) + " MB"
    }

    /// "2,468,013".
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (k, d) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: Swift.max(0, width - s.count))
        return right ? fill + s : s + fill
    }
}
