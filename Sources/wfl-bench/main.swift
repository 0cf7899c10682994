// wfl-bench: throughput figures beside their baselines, measured in the same run.
//
//     swift build -c release --product wfl     (the `process` measure times this executable)
//     swift run -c release wfl-bench [--quick] [--runs N] [--size MB] [MEASURE...]
//
// Each selected measure (all by default) prints one row: the measure, wfl's figure, the baseline's
// figure, their ratio, the target and PASS or MISS. Timings are medians of several runs after a
// warm-up, on a monotonic clock; wfl and its baseline run in alternation. The exit status is 0
// when every target is met, 1 when one is missed, 2 for a usage error and 3 when the benchmark
// cannot be trusted (the generated spec does not parse cleanly).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line.
struct Options {
    /// The size of the generated spec: 10 MB, or 1 MB with `--quick`.
    var specBytes = 10_000_000
    /// Timed runs per measure; nil for each measure's own default.
    var runs: Int? = nil
    var quick = false
    /// `--write-spec PATH`: write the generated spec there (to profile `wfl` on it, say).
    var writeSpec: String? = nil
    var selected: [Measure] = []

    static let usage = """
        usage: wfl-bench [--quick] [--runs N] [--size MB] [MEASURE...]

          --quick     a 1 MB spec instead of 10 MB, 100,000 items instead of 1,000,000
                      (a smoke test; figures are noisier)
          --runs N    timed runs per measure (default: each measure's own)
          --size MB   the size of the generated spec in MB (10^6 bytes)
          --write-spec PATH
                      also write the generated spec to PATH
          MEASURE     run only these measures (default: all)

        measures:
        """

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var names: [String] = []
        var sizeSet = false
        var k = 0
        func value(_ flag: String) -> String {
            k += 1
            guard k < args.count else { usageError("\(flag) needs a value") }
            return args[k]
        }
        while k < args.count {
            let a = args[k]
            switch a {
            case "-h", "--help":
                print(helpText)
                exit(0)
            case "--quick":
                o.quick = true
            case "--runs":
                guard let n = Int(value(a)), n >= 1 else { usageError("--runs takes a whole number >= 1") }
                o.runs = n
            case "--size":
                guard let mb = Double(value(a)), mb > 0, mb <= 64 else { usageError("--size takes a number of MB, at most 64") }
                o.specBytes = Int(mb * 1e6)
                sizeSet = true
            case "--write-spec":
                o.writeSpec = value(a)
            default:
                if a.hasPrefix("-") { usageError("unknown option '\(a)'") }
                names.append(a)
            }
            k += 1
        }
        if o.quick, !sizeSet { o.specBytes = 1_000_000 }
        if names.isEmpty {
            o.selected = Measure.all
        } else {
            for n in names {
                guard let m = Measure.named(n) else {
                    usageError("unknown measure '\(n)'; the measures are \(Measure.all.map(\.name).joined(separator: ", "))")
                }
                if !o.selected.contains(where: { $0.name == m.name }) { o.selected.append(m) }
            }
        }
        return o
    }

    static var helpText: String {
        usage + "\n" + Measure.all.map { "  \(Format.pad($0.name, 10)) \($0.summary); target \($0.lowerIsBetter ? "<=" : ">=") \(Format.figure($0.target))\($0.targetIsRatio ? "x the baseline" : " " + $0.unit)" }
            .joined(separator: "\n")
    }

    static func usageError(_ message: String) -> Never {
        var err = StandardError()
        print("wfl-bench: \(message)\n\n\(helpText)", to: &err)
        exit(2)
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        let bytes = Array(string.utf8)
        #if canImport(Glibc)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        #else
        _ = bytes.withUnsafeBytes { Darwin.write(2, $0.baseAddress, $0.count) }
        #endif
    }
}

// MARK: - Running

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--memory-child" {
    memoryChild(CommandLine.arguments[2])
}
if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "--peak-child" {
    peakChild(Array(CommandLine.arguments.dropFirst(2)))
}
let options = Options.parse(Array(CommandLine.arguments.dropFirst()))

#if DEBUG
print("wfl-bench: WARNING: this is a debug build; the figures mean nothing. Use `swift run -c release wfl-bench`.\n")
#endif

let work = Workload(options: options)
let generationTime = Timer.time { work.source }
print("wfl-bench: a generated spec of \(Format.grouped(work.source.bytes.count)) bytes (\(Format.grouped(work.layouts)) layouts, "
      + "\(Format.grouped(work.tokenCount)) tokens, \(Format.grouped(work.source.lineStarts.count)) lines), "
      + "checked: no diagnostics; generated and checked in \(Format.ms(generationTime))")
if let path = options.writeSpec {
    guard let file = fopen(path, "wb"),
          work.source.bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file) }) == work.source.bytes.count,
          fclose(file) == 0 else {
        fail("wfl-bench: cannot write the spec to \(path)")
    }
    print("wfl-bench: wrote the spec to \(path)")
}
for note in work.featureNotes { print("wfl-bench: NOTE: lexer bug: \(note)") }
print("Figures are medians; wfl and its baseline alternate. The machine is shared, so expect some noise.\n")

var rows: [[String]] = [["measure", "wfl", "baseline", "ratio", "target", ""]]
var notes: [String] = []
var missed = 0
for m in options.selected {
    let o = m.run(work, options)
    let figure = m.targetIsRatio ? o.wfl / o.baseline : o.wfl
    let pass = m.lowerIsBetter ? figure <= m.target : figure >= m.target
    if !pass { missed += 1 }
    rows.append([
        o.label,
        "\(Format.figure(o.wfl)) \(m.unit)",
        "\(o.baselineName) \(Format.figure(o.baseline)) \(m.unit)",
        "\(Format.fixed(o.wfl / o.baseline, 2))x",
        (m.lowerIsBetter ? "<= " : ">= ") + (m.targetIsRatio ? "\(Format.figure(m.target))x" : "\(Format.figure(m.target)) \(m.unit)"),
        pass ? "PASS" : "MISS",
    ])
    notes += o.notes.map { "\(m.name): \($0)" }
}

// The table: columns padded to their widest cell, figures right-aligned.
let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
for (r, row) in rows.enumerated() {
    let cells = row.enumerated().map { c, cell in Format.pad(cell, widths[c], right: r > 0 && (c == 1 || c == 3)) }
    print(cells.joined(separator: " | "))
    if r == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")) }
}
print()
for n in notes { print(n) }
if missed > 0 {
    print("\n\(missed) of \(options.selected.count) target(s) missed.")
    exit(1)
}
