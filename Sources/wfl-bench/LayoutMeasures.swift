import CBaseline
import WFL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Engines, output and memory (issue 7)

/// The specs of the engine measures, with the C yardstick doing the same work.
enum EngineSpecs {
    static let heights: [Double] = [120, 80, 200, 150, 95, 170, 60, 240, 110, 130]
    static func list(_ columns: Int, _ n: Int) -> String {
        "columns \(columns)\nspacing 10\ninsets 10\nitems \(n)\nheight [\(heights.map { NumberFormat.format($0) }.joined(separator: ", "))]\n"
    }
    static func random(_ columns: Int, _ n: Int) -> String {
        "columns \(columns)\nspacing 10\ninsets 10\nitems \(n)\nheight 50 + random(0, 150)\n"
    }
    /// The top group of samples/featured.wfl, repeating.
    static func groups(_ n: Int) -> String {
        "container 390 x 844\nstyle groups\ninsets 8 15\ngroupSpacing 12\nitems \(n)\ngroup vertical gw x 368 {\n itemSpacing 12\n"
            + " group horizontal gw x 240 {\n  itemSpacing 12\n  item (gw - 12) * 2 / 3 x gh\n  group vertical (gw - 12) / 3 x gh {\n   itemSpacing 12\n   item gw x (gh - 12) / 2\n  }\n }\n"
            + " group horizontal gw x 116 count 3 {\n  itemSpacing 12\n  item 1 x gh\n }\n}\n"
    }
    /// Flutter's quilted pattern repeating in a dense grid of 4 columns.
    static let gridColumns: [Int32] = [2, 1, 1, 2], gridRows: [Int32] = [2, 1, 1, 1]
    static func grid(_ n: Int) -> String {
        "container 400 x 844\nstyle grid\ncolumns 4\nspacing 4\npacking dense\nitems \(n)\ntile [2, 1, 1, 2] x [2, 1, 1, 1]\n"
    }
    static func flow(_ n: Int) -> String {
        "style flow\nspacing 10\nitems \(n)\nsize 40 + random(0, 120) x 30 + random(0, 40)\n"
    }

    /// The resolved layout of `text` (a file named bench.wfl), failing the benchmark on errors.
    static func resolve(_ text: String) -> (Program, ResolvedLayout) {
        let source = SourceFile(name: "bench.wfl", text: text)
        let parsed = Parser.parse(source)
        let program = Program(tree: parsed.tree, source: source)
        guard !parsed.diagnostics.hasErrors, case .success(let layout)? = program.resolve(layoutNamed: "bench") else {
            fail("wfl-bench: the spec does not resolve:\n\(text)")
        }
        return (program, layout)
    }

    /// wfl's engine run (table and index), failing on errors.
    static func run(_ program: Program, _ layout: ResolvedLayout) -> AttributeTable {
        switch program.run(layout) {
        case .success(let t): return t
        case .failure(let f): fail("wfl-bench: the layout fails: \(f.diagnostics.map(\.message))")
        }
    }

    /// Checks that wfl's cells and C's frames are the same doubles.
    static func same(_ t: AttributeTable, _ c: [wflc_frame], _ what: String) {
        guard t.elements.count == c.count else { fail("wfl-bench: \(what): \(t.elements.count) elements in wfl, \(c.count) in C") }
        for (k, e) in t.elements.enumerated() {
            let f = e.frame, g = c[k]
            if f.x != g.x || f.y != g.y || f.width != g.width || f.height != g.height {
                fail("wfl-bench: \(what): wfl and the C yardstick disagree at item \(k): \(f) against \(g)")
            }
        }
    }
}

extension Measure {
    /// Items of the engine measures: 1,000,000, or 100,000 with --quick.
    static func items(_ o: Options) -> Int { o.quick ? 100_000 : 1_000_000 }

    /// An engine measure: `Program.run` of `spec` (placement, table and rect index) against a C
    /// loop writing the same frames; both in ns an item.
    static func engine(name: String, summary: String, target: Double, label: String, spec: @escaping (Int) -> String,
                       baselineName: String, c: @escaping (Int, UnsafeMutablePointer<wflc_frame>) -> Void) -> Measure {
        Measure(name: name, summary: summary, unit: "ns/item", target: target, targetIsRatio: true, lowerIsBetter: true) { _, options in
            let n = items(options)
            let (program, layout) = EngineSpecs.resolve(spec(n))
            var frames = [wflc_frame](repeating: wflc_frame(), count: n)
            frames.withUnsafeMutableBufferPointer { c(n, $0.baseAddress!) }
            var table = EngineSpecs.run(program, layout)
            EngineSpecs.same(table, frames, name)
            var warnings: [Diagnostic] = []
            // wfl lays out into the same table each time (IncrementalLayout.relayout), as C writes
            // into the same array of frames: neither pays for fresh pages.
            let (wfl, base) = Timer.interleaved(
                runs: options.runs ?? (options.quick ? 7 : 11), warmups: 2,
                wfl: { () -> Int in
                    do { try IncrementalLayout.relayout(layout, into: &table, warnings: &warnings) } catch { fail("wfl-bench: \(name): \(error)") }
                    return table.elements.count
                },
                baseline: { () -> Int in
                    frames.withUnsafeMutableBufferPointer { c(n, $0.baseAddress!) }
                    return n
                })
            EngineSpecs.same(table, frames, name)
            return Outcome(label: "\(label), \(Format.grouped(n)) items", wfl: wfl.median * 1e9 / Double(n),
                           baseline: base.median * 1e9 / Double(n), baselineName: baselineName,
                           notes: ["wfl \(wfl.summary) (placement, table and rect index; relayout into the same table)", "C   \(base.summary) (placement into an array of frames)"])
        }
    }

    static var waterfall3: Measure { engine(
        name: "waterfall3", summary: "waterfall, heights from a list, 3 columns: the engine against a C loop", target: 1.5,
        label: "waterfall list 3 cols", spec: { EngineSpecs.list(3, $0) }, baselineName: "C loop"
    ) { n, out in
        _ = EngineSpecs.heights.withUnsafeBufferPointer { wflc_waterfall_list(3, $0.baseAddress, $0.count, n, 375, 10, 10, out) }
    } }

    static var waterfall8: Measure { engine(
        name: "waterfall8", summary: "waterfall, heights from a list, 8 columns: the engine against a C loop", target: 1.5,
        label: "waterfall list 8 cols", spec: { EngineSpecs.list(8, $0) }, baselineName: "C loop"
    ) { n, out in
        _ = EngineSpecs.heights.withUnsafeBufferPointer { wflc_waterfall_list(8, $0.baseAddress, $0.count, n, 375, 10, 10, out) }
    } }

    static var random: Measure { engine(
        name: "random", summary: "waterfall, height 50 + random(0, 150) through the compiled rule, against C doing the same arithmetic",
        target: 3, label: "waterfall random 3 cols", spec: { EngineSpecs.random(3, $0) }, baselineName: "C loop"
    ) { n, out in
        _ = wflc_waterfall_random(3, 0, n, 375, 10, 10, out)
    } }

    static var flow: Measure { engine(
        name: "flow", summary: "flow, sizes from a rule (two randoms an item), line breaking and placement, against a C loop",
        target: 2, label: "flow, sizes from a rule", spec: { EngineSpecs.flow($0) }, baselineName: "C loop"
    ) { n, out in
        _ = wflc_flow_random(0, n, 375, 10, out)
    } }

    static var groups: Measure { engine(
        name: "groups", summary: "groups, the featured tree of samples/featured.wfl repeating: the engine against a C loop", target: 3,
        label: "groups, featured tree", spec: { EngineSpecs.groups($0) }, baselineName: "C loop"
    ) { n, out in
        _ = wflc_groups_featured(n, 390, 8, 15, 12, 12, out)
    } }

    static var grid: Measure { engine(
        name: "grid", summary: "grid, Flutter's quilted pattern repeating, packing dense: the engine against a C loop", target: 3,
        label: "grid, dense quilted", spec: { EngineSpecs.grid($0) }, baselineName: "C loop"
    ) { n, out in
        _ = EngineSpecs.gridColumns.withUnsafeBufferPointer { c in
            EngineSpecs.gridRows.withUnsafeBufferPointer { r in wflc_grid_dense(n, 4, c.baseAddress, r.baseAddress, 4, 400, 4, out) }
        }
    } }

    /// Appending 100 items to a laid-out section against 100 times the per-item cost of laying it
    /// out whole.
    static var append: Measure { Measure(
        name: "append", summary: "appending 100 items to a laid-out 1,000,000-item section (IncrementalLayout.append) against 100x the per-item cost",
        unit: "µs", target: 3, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = items(options)
        let (program, layout) = EngineSpecs.resolve(EngineSpecs.random(3, n) + "header 44\nfooter 30\n")
        var feed: IncrementalLayout
        do {
            guard let made = try IncrementalLayout(program: program, layout: "bench") else { fail("wfl-bench: append: no layout 'bench'") }
            feed = made
        } catch { fail("wfl-bench: append: \(error)") }
        if !feed.isPlain { fail("wfl-bench: append: the feed does not take the short path") }
        var full = Sample()
        var scratch = EngineSpecs.run(program, layout)
        var warnings: [Diagnostic] = []
        for k in 0..<(options.quick ? 4 : 8) {
            let s = Timer.time { () -> Int in
                do { try IncrementalLayout.relayout(layout, into: &scratch, warnings: &warnings) } catch { fail("wfl-bench: append: \(error)") }
                return scratch.elements.count
            }
            if k > 0 { full.seconds.append(s) }
        }
        let perItem = full.median / Double(n)
        var appends = Sample()
        let runs = options.runs ?? 21
        for k in 0..<(runs + 2) {
            let clock = Timer.clock
            let start = clock.now
            do { try feed.append(100, toSection: 0) } catch { fail("wfl-bench: append fails: \(error)") }
            let (s, atto) = (clock.now - start).components
            // The first two are the warm-up (the first grows the table's storage).
            if k >= 2 { appends.seconds.append(Double(s) + Double(atto) * 1e-18) }
        }
        let expected = EngineSpecs.run(program, feed.layout)
        if feed.table != expected { fail("wfl-bench: appending gave another table than a full layout") }
        return Outcome(label: "append 100 to \(Format.grouped(n)) items", wfl: appends.median * 1e6, baseline: 100 * perItem * 1e6,
                       baselineName: "100 x per-item", notes: [
                        "append median \(Format.fixed(appends.median * 1e6, 2)) µs (min \(Format.fixed(appends.min * 1e6, 2)), max \(Format.fixed(appends.max * 1e6, 2)), \(appends.seconds.count) runs after 2 warm-ups, the first of which grows the storage), now \(Format.grouped(feed.layout.sections[0].items)) items, checked equal to a full layout",
                        "full layout (relayout into the same table) \(full.summary): \(Format.fixed(perItem * 1e9, 1)) ns an item"])
    } }

    /// The whole `wfl run --format json` process against C laying out and printing the same json.
    static var process: Measure { Measure(
        name: "process", summary: "whole process: wfl run --format json of a 1,000,000-item spec to /dev/null, against C placing and fprintf-ing it",
        unit: "ms", target: 1, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = items(options)
        let wfl = siblingExecutable("wfl")
        // bench.wfl, so that the layout is named "bench" as in the C output.
        let dir = "/tmp/wfl-bench-\(getpid())"
        mkdir(dir, 0o755)
        let path = dir + "/bench.wfl"
        let spec = EngineSpecs.random(3, n)
        writeFile(path, Array(spec.utf8))
        defer { unlink(path); rmdir(dir) }
        // The output must be the json of the table.
        let (program, layout) = EngineSpecs.resolve(spec)
        let expectedSize = JSONFormat.bytes([EngineSpecs.run(program, layout)]).count
        let check = "/tmp/wfl-bench-\(getpid()).json"
        if spawn([wfl, "run", "--format", "json", path], stdout: check) != 0 { fail("wfl-bench: \(wfl) run fails") }
        let size = fileSize(check)
        unlink(check)
        if size != expectedSize { fail("wfl-bench: wfl run wrote \(size) bytes, JSONFormat \(expectedSize)") }
        var frames = [wflc_frame](repeating: wflc_frame(), count: n)
        let (w, c) = Timer.interleaved(
            runs: options.runs ?? 5, warmups: 1,
            wfl: { spawn([wfl, "run", "--format", "json", path], stdout: "/dev/null") },
            baseline: { () -> Int32 in
                frames.withUnsafeMutableBufferPointer { f in
                    let h = wflc_waterfall_random(3, 0, n, 375, 10, 10, f.baseAddress!)
                    return wflc_write_json("/dev/null", "bench", 375, 812, 375, h, f.baseAddress!, n)
                }
            })
        return Outcome(label: "wfl run --format json, \(Format.grouped(n)) items", wfl: w.median * 1e3, baseline: c.median * 1e3,
                       baselineName: "C printf", notes: ["wfl \(w.summary), \(Format.grouped(expectedSize)) bytes of json (process start to exit)",
                                                          "C   \(c.summary) (placement, then fprintf \"%.17g\" to /dev/null, in process)"])
    } }

    /// The whole `wfl run --format table` process against `--format json` of the same spec.
    static var table: Measure { Measure(
        name: "table", summary: "whole process: wfl run --format table of a 1,000,000-item spec to /dev/null, against --format json of it",
        unit: "ms", target: 1.5, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = items(options)
        let spec = BenchSpecFile(EngineSpecs.random(3, n))
        defer { spec.remove() }
        let wfl = siblingExecutable("wfl")
        // The output must be the table of the layout.
        let (program, layout) = EngineSpecs.resolve(spec.text)
        var w = ByteWriter()
        TableFormat.pieces([EngineSpecs.run(program, layout)]).writeAll(into: &w)
        let expectedSize = w.bytes.count
        w = ByteWriter()
        let size = spec.outputSize([wfl, "run", "--format", "table", spec.path])
        if size != expectedSize { fail("wfl-bench: wfl run --format table wrote \(size) bytes, TableFormat \(expectedSize)") }
        let (t, j) = Timer.interleaved(
            runs: options.runs ?? 5, warmups: 1,
            wfl: { spawn([wfl, "run", "--format", "table", spec.path], stdout: "/dev/null") },
            baseline: { spawn([wfl, "run", "--format", "json", spec.path], stdout: "/dev/null") })
        return Outcome(label: "wfl run --format table, \(Format.grouped(n)) items", wfl: t.median * 1e3, baseline: j.median * 1e3,
                       baselineName: "json", notes: ["table \(t.summary), \(Format.grouped(expectedSize)) bytes (process start to exit)",
                                                     "json  \(j.summary)"])
    } }

    /// `wfl run --format json` of ten times the items against the usual count: the cost must stay
    /// linear (a ratio of at most 11 leaves room for the larger numbers and the page faults).
    static var json10m: Measure { Measure(
        name: "json10m", summary: "whole process: wfl run --format json of a 10,000,000-item spec against the 1,000,000-item one (1,000,000 and 100,000 with --quick)",
        unit: "ms", target: 11, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = items(options), big = 10 * n
        let small = BenchSpecFile(EngineSpecs.random(3, n)), large = BenchSpecFile(EngineSpecs.random(3, big), name: "bench10")
        defer { small.remove(); large.remove() }
        let wfl = siblingExecutable("wfl")
        // The large output's size, formatted here piece by piece (1.3 GB at 10,000,000 items is
        // never held whole), must be the size of the file wfl writes.
        let (program, layout) = EngineSpecs.resolve(large.text)
        let pieces = JSONFormat.pieces([EngineSpecs.run(program, layout)])
        var w = ByteWriter(), expectedSize = 0
        for k in 0..<pieces.count {
            w.removeAll()
            pieces.write(k, into: &w)
            expectedSize += w.bytes.count
        }
        w = ByteWriter()
        let size = large.outputSize([wfl, "run", "--format", "json", large.path])
        if size != expectedSize { fail("wfl-bench: wfl run --format json wrote \(size) bytes at \(Format.grouped(big)) items, JSONFormat \(expectedSize)") }
        let (l, s) = Timer.interleaved(
            runs: options.runs ?? 5, warmups: 1,
            wfl: { spawn([wfl, "run", "--format", "json", large.path], stdout: "/dev/null") },
            baseline: { spawn([wfl, "run", "--format", "json", small.path], stdout: "/dev/null") })
        return Outcome(label: "wfl run --format json, \(Format.grouped(big)) items", wfl: l.median * 1e3, baseline: s.median * 1e3,
                       baselineName: "\(Format.grouped(n)) items", notes: [
                        "\(Format.grouped(big)) items \(l.summary), \(Format.grouped(expectedSize)) bytes of json (process start to exit)",
                        "\(Format.grouped(n)) items \(s.summary)"])
    } }

    /// Peak memory of evaluating a spec (layout and index, no output) in a fresh child process.
    static var memory: Measure { Measure(
        name: "memory", summary: "peak memory of layout plus index (no output), in a child process: bytes an item",
        unit: "B/item", target: 64, lowerIsBetter: true
    ) { _, options in
        let n = items(options)
        let path = "/tmp/wfl-bench-mem-\(getpid()).wfl", out = "/tmp/wfl-bench-mem-\(getpid()).txt"
        writeFile(path, Array(EngineSpecs.random(3, n).utf8))
        defer { unlink(path); unlink(out) }
        var peaks: [Double] = [], heaps: [Double] = [], codes: [Double] = []
        for _ in 0..<3 {
            if spawn([selfExecutable(), "--memory-child", path], stdout: out) != 0 { fail("wfl-bench: the memory child failed") }
            let fields = String(decoding: readFile(out), as: UTF8.self).split(separator: " ").compactMap { Double($0.trimmingCharacters(in: " \n")) }
            guard fields.count == 3 else { fail("wfl-bench: the memory child wrote nothing useful") }
            peaks.append(fields[0] / Double(n))
            heaps.append(fields[1] / Double(n))
            codes.append(fields[2])
        }
        let peak = Sample(seconds: peaks).median, heap = Sample(seconds: heaps).median, code = Sample(seconds: codes).median
        return Outcome(label: "peak memory, \(Format.grouped(n)) items", wfl: peak, baseline: Double(MemoryLayout<wflc_frame>.stride),
                       baselineName: "C frames", notes: [
                        "peak RSS growth (VmHWM after, peak reset by /proc/self/clear_refs, minus VmRSS before) of Program.evaluate: \(Format.fixed(peak, 1)) B/item; heap kept (mallinfo2): \(Format.fixed(heap, 1)) B/item; 3 child runs",
                        "the code a first evaluation pages in, \(Format.grouped(Int(code / 1024))) KB of file-backed pages, is paged in before the peak is reset (a warm-up evaluation of 64 items)",
                        "an Element is \(MemoryLayout<Element>.stride) bytes; C's bare frame array \(MemoryLayout<wflc_frame>.stride)"])
    } }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

/// The memory child: `wfl-bench --memory-child SPEC`: parses SPEC, then measures evaluating it.
/// It prints the peak's growth, the heap kept and what the warm-up paged in, in bytes.
///
/// The first evaluation in a process pages in the code it runs (the resolver, the compiler, the
/// engine, the index; the kernel maps up to 64 KB of the file around each page it faults in):
/// about 0.8 MB of file-backed pages, the program's and not the table's, and shared with any
/// other process running it. A warm-up evaluation of a small layout of the memory row's shape
/// (`EngineSpecs.random`, 64 items) pages it in first, so that the peak counts the table and
/// what building it takes.
func memoryChild(_ path: String) -> Never {
    let source = SourceFile(name: "bench.wfl", bytes: readFile(path))
    let parsed = Parser.parse(source)
    let program = Program(tree: parsed.tree, source: source)
    let codeBefore = status("RssFile:")
    let warmSource = SourceFile(name: "bench.wfl", text: EngineSpecs.random(3, 64))
    let warm = Program(tree: Parser.parse(warmSource).tree, source: warmSource).evaluate()
    guard warm.tables.count == 1 else { exit(1) }
    let code = status("RssFile:") - codeBefore
    // Reset the peak (VmHWM) to the current RSS, then evaluate.
    writeFile("/proc/self/clear_refs", Array("5".utf8))
    let before = status("VmRSS:"), heapBefore = wflc_heap_in_use()
    let evaluation = program.evaluate()
    let peak = status("VmHWM:"), heapAfter = wflc_heap_in_use()
    withExtendedLifetime(evaluation) {}
    guard evaluation.tables.count == 1 else { exit(1) }
    print("\(peak - before) \(Int(heapAfter) - Int(heapBefore)) \(code)")
    exit(0)
}

/// A field of /proc/self/status in bytes ("VmHWM:   1234 kB").
func status(_ field: String) -> Int {
    let text = String(decoding: readFile("/proc/self/status"), as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix(field) {
        let digits = line.dropFirst(field.count).filter { $0.isNumber }
        return (Int(digits) ?? 0) * 1024
    }
    return 0
}

func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let k = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
        if k <= 0 { break }
        out.append(contentsOf: chunk[0..<k])
    }
    return out
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    guard let f = fopen(path, "wb") else { fail("wfl-bench: cannot write \(path)") }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
}

func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : -1
}

func selfExecutable() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let k = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard k > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buf[0..<k].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// An executable built beside wfl-bench (the same configuration), or a failure saying how to build it.
func siblingExecutable(_ name: String) -> String {
    let me = selfExecutable()
    let dir = me.lastIndex(of: "/").map { String(me[..<$0]) } ?? "."
    let path = dir + "/" + name
    guard access(path, X_OK) == 0 else {
        fail("wfl-bench: no \(path): build it first, in the same configuration (swift build -c release --product wfl)")
    }
    return path
}

/// Runs `args` with standard output to `stdout` (a path) and waits; returns its exit status.
@discardableResult
func spawn(_ args: [String], stdout: String) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var pid = pid_t()
    let cargs = args.map { strdup($0) } + [nil]
    defer { for a in cargs { free(a) } }
    guard posix_spawn(&pid, args[0], &actions, nil, cargs, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xFF
}

/// A generated spec written to a file for `wfl run`, named so that its layout is "bench".
struct BenchSpecFile {
    let text: String
    let dir: String
    let path: String

    init(_ text: String, name: String = "bench") {
        self.text = text
        dir = "/tmp/wfl-bench-\(getpid())-\(name)"
        mkdir(dir, 0o755)
        path = dir + "/bench.wfl"
        writeFile(path, Array(text.utf8))
    }

    /// The size of what `args` writes to standard output, failing the benchmark when it fails.
    func outputSize(_ args: [String]) -> Int {
        let out = dir + "/out"
        defer { unlink(out) }
        if spawn(args, stdout: out) != 0 { fail("wfl-bench: \(args.joined(separator: " ")) fails") }
        return fileSize(out)
    }

    func remove() {
        unlink(path)
        rmdir(dir)
    }
}
