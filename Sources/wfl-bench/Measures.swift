import CBaseline
import WFL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The named measures of `wfl-bench`, each with its target and its baseline.
///
/// To add one (issue 7: waterfall placement, flow line breaking, JSON output), append a `Measure`
/// to `Measure.all`: a name for the command line, a target, and a `run` that times wfl's code and
/// its baseline on a workload (usually in alternation with `Timer.interleaved`) and returns both
/// figures. Put a new workload (a generated item list, say) in `Workload` as a lazy property, so
/// that it is built only when a selected measure needs it, and a new C yardstick in its own file
/// of `Sources/CBaseline/`.
struct Measure {
    /// The name the command line selects it by: `wfl-bench lex`.
    var name: String
    /// One line for `--help`.
    var summary: String
    /// The unit of both figures; higher is better.
    var unit: String
    /// The figure wfl must reach, in `unit`.
    var target: Double
    /// True when the target is a ratio to the baseline (wfl / baseline >= target), not a figure.
    var targetIsRatio = false
    /// True when lower figures are better (times, bytes): the target is then a ceiling.
    var lowerIsBetter = false
    var run: (Workload, Options) -> Outcome

    /// One row of the table: what was measured, both figures and notes to print under the table.
    struct Outcome {
        /// "lex 10 MB".
        var label: String
        var wfl: Double
        var baseline: Double
        /// What the baseline is: "C tokens".
        var baselineName: String
        var notes: [String] = []
    }

    static var all: [Measure] { [lex, parse, waterfall3, waterfall8, random, flow, rect, append, process, table, json10m, memory, inputMemory, repl, swift1k, swift10k, spans, lsp1k, lsp5k, elements, coverFlow, coverFlowMotion, layoutCount,
                                   devices,
                                   scroll,
                                   groups, grid] }

    static func named(_ name: String) -> Measure? { all.first { $0.name == name } }
}

// MARK: - Front end (issue 2)

extension Measure {
    /// `Lexer.tokenize` against the C tokenizer of the same grammar. The target is a ratio: the
    /// machine sets the absolute figure, and the C loop measured in the same run says what it is.
    static var lex: Measure { Measure(
        name: "lex", summary: "Lexer.tokenize over the generated spec, against C's wflc_count_tokens",
        unit: "MB/s", target: 0.8, targetIsRatio: true
    ) { work, options in
        let source = work.source
        let bytes = source.bytes
        var tokenCount = 0, cCount = 0
        let (wfl, c) = Timer.interleaved(
            runs: options.runs ?? 15, warmups: 2,
            wfl: { () -> Lexer.Output in
                let out = Lexer.tokenize(source)
                tokenCount = out.tokens.count
                return out
            },
            baseline: { () -> Int in
                cCount = bytes.withUnsafeBufferPointer { wflc_count_tokens($0.baseAddress, $0.count) }
                return cCount
            })
        return Outcome(
            label: "lex \(Format.megabytes(bytes.count))",
            wfl: Double(bytes.count) / 1e6 / wfl.median,
            baseline: Double(bytes.count) / 1e6 / c.median,
            baselineName: "C tokens",
            notes: ["wfl \(wfl.summary), \(Format.grouped(tokenCount)) tokens",
                    "C   \(c.summary), \(Format.grouped(cCount)) tokens"])
    } }

    /// `Parser.parse` (which lexes too) against the C tokenizer: what the whole front end costs
    /// beside a bare byte loop. The full run parses a 1 MB spec as well as the 10 MB one (the
    /// parser must be linear in its input) and its figure is the slower of the two.
    static var parse: Measure { Measure(
        name: "parse", summary: "Parser.parse (lexing included) over the generated spec (and a 1 MB one beside a larger spec: the slower counts), against C's wflc_count_tokens",
        unit: "MB/s", target: 75
    ) { work, options in
        func runs(_ source: SourceFile) -> Int { options.runs ?? (source.bytes.count > 2_000_000 ? 7 : 15) }
        func timed(_ source: SourceFile) -> (wfl: Sample, c: Sample, statements: Int) {
            let bytes = source.bytes
            var statements = 0
            let (wfl, c) = Timer.interleaved(
                runs: runs(source), warmups: 1,
                wfl: { () -> ParseResult in
                    let result = Parser.parse(source)
                    statements = result.tree.statements.count
                    return result
                },
                baseline: { () -> Int in
                    bytes.withUnsafeBufferPointer { wflc_count_tokens($0.baseAddress, $0.count) }
                })
            return (wfl, c, statements)
        }
        var sizes = [work.source]
        if let small = work.smallSource { sizes.insert(small, at: 0) }
        var rows: [(label: String, wfl: Double, c: Double)] = []
        var notes: [String] = []
        for source in sizes {
            let n = source.bytes.count
            let (wfl, c, statements) = timed(source)
            let label = Format.megabytes(n)
            rows.append((label, Double(n) / 1e6 / wfl.median, Double(n) / 1e6 / c.median))
            notes += ["\(label): wfl \(wfl.summary), \(Format.grouped(statements)) top-level statements",
                      "\(label): C   \(c.summary)"]
            // The same file read by one parser on this thread, after the timed runs: how much the
            // second thread gains is the figure to watch (docs/performance.md, "Two threads
            // read slower than one").
            var one = Sample()
            for k in 0...runs(source) {
                let s = Timer.time { Parser.parseWhole(source, .standard) }
                if k > 0 { one.seconds.append(s) }
            }
            notes.append("\(label): one thread (no halves): \(one.summary), \(Format.figure(Double(n) / 1e6 / one.median)) MB/s; "
                         + "two threads: \(Format.fixed(one.median / wfl.median, 2))x as fast")
            if let share = Parser.learntShare(ofFileOf: n) {
                notes.append("\(label): the first thread's share of the file after these parses: \(Format.fixed(Double(share) / 1000, 3)) (learnt: docs/performance.md)")
            }
        }
        if rows.count == 2 {
            notes.append("time per byte at \(rows[1].label) over that at \(rows[0].label): \(Format.fixed(rows[0].wfl / rows[1].wfl, 2)) (1.00 is linear; "
                         + "the C loop's \(Format.fixed(rows[0].c / rows[1].c, 2)))")
        }
        let slowest = rows.min { $0.wfl < $1.wfl }!
        return Outcome(
            label: "parse " + rows.map(\.label).joined(separator: " and ") + (rows.count == 2 ? " (the slower)" : ""),
            wfl: slowest.wfl, baseline: slowest.c, baselineName: "C tokens", notes: notes)
    } }
}

// MARK: - Rect queries (issue 4)

extension Measure {
    /// `AttributeTable.query` (the index built with the table) against a brute-force scan of the
    /// same table, at 1,000,000 items: viewport-sized rects spread over the whole content.
    static var rect: Measure { Measure(
        name: "rect", summary: "rect queries on a 1,000,000-item waterfall: the index against a brute-force scan of the same table",
        unit: "queries/s", target: 1000, targetIsRatio: true
    ) { work, options in
        var notes: [String] = []
        var main: (wfl: Double, brute: Double) = (0, 0)
        for (k, (label, table)) in work.millionTables.enumerated() {
            let n = table.elements.count
            let W = table.contentWidth, H = table.contentHeight
            let cw = table.containerWidth, ch = table.containerHeight
            // Viewports at evenly spread offsets along the scroll axis.
            let queries = 2000, bruteQueries = 8
            let rects: [Frame] = (0..<queries).map { q in
                table.direction == .vertical
                    ? Frame(x: 0, y: H * Double(q) / Double(queries), width: cw, height: ch)
                    : Frame(x: W * Double(q) / Double(queries), y: 0, width: cw, height: ch)
            }
            func brute(_ r: Frame) -> [Int] {
                var out: [Int] = []
                table.elements.withUnsafeBufferPointer { el in
                    for j in 0..<el.count where el[j].frame.overlaps(r) { out.append(j) }
                }
                return out
            }
            // The two must agree before their speed means anything.
            for q in stride(from: 0, to: queries, by: queries / bruteQueries) where table.query(rects[q]) != brute(rects[q]) {
                fail("wfl-bench: the index and the brute-force scan disagree on \(label) at rect \(rects[q])")
            }
            // The baseline: C's brute-force scan over the same frames, as a plain array.
            let frames = table.elements.map { wflc_frame(x: $0.frame.x, y: $0.frame.y, width: $0.frame.width, height: $0.frame.height) }
            var hits = [Int32](repeating: 0, count: n)
            func cScan(_ r: Frame) -> Int {
                frames.withUnsafeBufferPointer { f in hits.withUnsafeMutableBufferPointer { h in
                    wflc_rect_scan(f.baseAddress, n, r.x, r.y, r.width, r.height, h.baseAddress)
                } }
            }
            if cScan(rects[0]) != brute(rects[0]).count { fail("wfl-bench: the C scan disagrees on \(label)") }
            var found = 0, bruteFound = 0
            let (wfl, b) = Timer.interleaved(
                runs: options.runs ?? 7, warmups: 1,
                wfl: { () -> Int in
                    found = 0
                    for r in rects { found += table.query(r).count }
                    return found
                },
                baseline: { () -> Int in
                    bruteFound = 0
                    for q in stride(from: 0, to: queries, by: queries / bruteQueries) { bruteFound += cScan(rects[q]) }
                    return bruteFound
                })
            let perQuery = wfl.median / Double(queries), brutePerQuery = b.median / Double(bruteQueries)
            notes.append("\(label), \(Format.grouped(n)) elements: index \(Format.fixed(perQuery * 1e6, 2)) µs a query "
                         + "(\(Format.fixed(Double(found) / Double(queries), 1)) elements found on average), "
                         + "brute force \(Format.fixed(brutePerQuery * 1e3, 2)) ms a query: \(Format.fixed(brutePerQuery / perQuery, 0))x")
            if k == 0 { main = (1 / perQuery, 1 / brutePerQuery) }
        }
        return Outcome(label: "rect 1M items", wfl: main.wfl, baseline: main.brute, baselineName: "C brute force", notes: notes)
    } }
}

// MARK: - Workloads

/// The inputs of the measures, built on first use and shared by the measures of one run.
final class Workload {
    let options: Options

    init(options: Options) { self.options = options }

    /// The generated spec, checked: it parses with no diagnostic, and the C yardstick counts the
    /// same tokens as wfl's lexer (so both read the same grammar and do the same work).
    lazy var source: SourceFile = checkedSpec(bytes: options.specBytes, counting: true)

    /// A 1 MB spec when the run's spec is larger (the parse row times both sizes); nil otherwise.
    lazy var smallSource: SourceFile? = options.specBytes > 1_000_000 ? checkedSpec(bytes: 1_000_000, counting: false) : nil

    /// A generated spec of about `bytes` bytes, checked as `source` says; `counting` sets the
    /// facts of the heading from it.
    private func checkedSpec(bytes size: Int, counting: Bool) -> SourceFile {
        let bytes = SpecGenerator.generate(bytes: size, features: features)
        let source = SourceFile(name: "<wfl-bench>", bytes: bytes)
        let result = Parser.parse(source)
        if !result.diagnostics.isEmpty {
            var message = "wfl-bench: the generated spec does not parse cleanly: \(result.diagnostics.count) diagnostic(s); the first:\n"
            for d in result.diagnostics.prefix(10) {
                let at = source.position(of: d.span.start)
                let lineText = String(decoding: source.lineBytes(at.line - 1), as: UTF8.self)
                message += "  \(at): \(d.message)\n    | \(lineText)\n"
            }
            fail(message + "Fix SpecGenerator.swift (or the parser): the figures would be meaningless.")
        }
        let tokens = Lexer.tokenize(source).tokens.count
        let cTokens = bytes.withUnsafeBufferPointer { wflc_count_tokens($0.baseAddress, $0.count) }
        if tokens != cTokens {
            fail("wfl-bench: wfl's lexer finds \(tokens) tokens but the C yardstick \(cTokens): they do not read the same grammar.")
        }
        if counting {
            layouts = result.tree.statements.reduce(0) { n, s in if case .layout = s.kind { return n + 1 } else { return n } }
            tokenCount = tokens
        }
        return source
    }

    /// What the generator may use: the forms the lexer reads correctly today.
    lazy var features: SpecGenerator.Features = {
        var f = SpecGenerator.Features()
        let compact = Lexer.tokenize(SourceFile(name: "probe", text: "375x812")).tokens.map(\.kind)
        if compact != [.number, .identifier, .number, .eof]
            || !Parser.parse(SourceFile(name: "probe", text: "container 375x812\n")).diagnostics.isEmpty {
            f.compactSizes = false
            featureNotes.append("'375x812' does not lex as number, 'x', number (docs/language.md): the spec writes '375 x 812' instead")
        }
        if !Parser.parse(SourceFile(name: "probe", text: "// caf\u{E9} \u{1F642}\n/* na\u{EF}ve */\ncolumns 2\n")).diagnostics.isEmpty {
            f.nonASCIIComments = false
            featureNotes.append("comments with letters beyond ASCII give 'invalid UTF-8' errors: the spec keeps them to strings")
        }
        return f
    }()
    /// 1,000,000-item layouts for the rect measure: the waterfall of the measure's figure, then a
    /// round-robin waterfall, a flow and a horizontal flow (in the notes).
    lazy var millionTables: [(String, AttributeTable)] = {
        let specs = [
            ("waterfall shortest", "columns 2\nspacing 10\ninsets 10\nheader 44\nitems 1_000_000\nheight 50 + random(0, 150)\nfooter 30\n"),
            ("waterfall leftToRight", "columns 3\norder leftToRight\nspacing 10\nitems 1_000_000\nheight 50 + random(0, 150)\nspan i % 50 == 0 ? full : 1\n"),
            ("flow", "style flow\nspacing 10\nitems 1_000_000\nsize 40 + random(0, 120) x 30 + random(0, 40)\n"),
            ("flow horizontal", "style flow\ndirection horizontal\nspacing 10\nitems 1_000_000\nsize 40 + random(0, 120) x 30 + random(0, 40)\n"),
        ]
        return specs.map { label, text in
            let source = SourceFile(name: "<rect>", text: text)
            let evaluation = Program(tree: Parser.parse(source).tree, source: source).evaluate()
            guard let t = evaluation.tables.first, !evaluation.diagnostics.hasErrors else {
                fail("wfl-bench: the \(label) layout of the rect measure does not evaluate: \(evaluation.diagnostics.map(\.message))")
            }
            return (label, t)
        }
    }()

    /// Why forms were left out of the spec, for the heading.
    private(set) var featureNotes: [String] = []

    /// Facts about the spec, for the heading.
    private(set) var layouts = 0
    private(set) var tokenCount = 0
}

/// Prints to standard error and exits with status 3: the benchmark cannot be trusted.
func fail(_ message: String) -> Never {
    var err = StandardError()
    print(message, to: &err)
    exit(3)
}
