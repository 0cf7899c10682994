import WFL

// MARK: - Spans under `order shortest` (issue 17)

extension Measure {
    /// The spans layout: 1,000 lanes, `span` from `span`, 100,000 items.
    static func spanSpec(_ span: String) -> String {
        "container 12000 x 812\ncolumns 1000\nspacing 2\nitems 100000\nheight 50 + random(0, 150)\nspan \(span)\n"
    }

    /// `order shortest` with spans up to 500 of 1,000 lanes against the same layout with span 1:
    /// the shortest run of k lanes must not cost k times the shortest lane.
    static var spans: Measure { Measure(
        name: "spans", summary: "waterfall, 1,000 lanes, order shortest, span 1 + i % 500, 100,000 items, against the same layout with span 1",
        unit: "ns/item", target: 3, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = 100_000
        let (program, wide) = EngineSpecs.resolve(spanSpec("1 + i % 500"))
        let (_, narrow) = EngineSpecs.resolve(spanSpec("1"))
        var wideTable = EngineSpecs.run(program, wide)
        var narrowTable = EngineSpecs.run(program, narrow)
        var warnings: [Diagnostic] = []
        let (w, b) = Timer.interleaved(
            runs: options.runs ?? 5, warmups: 1,
            wfl: { () -> Int in
                do { try IncrementalLayout.relayout(wide, into: &wideTable, warnings: &warnings) } catch { fail("wfl-bench: spans: \(error)") }
                return wideTable.elements.count
            },
            baseline: { () -> Int in
                do { try IncrementalLayout.relayout(narrow, into: &narrowTable, warnings: &warnings) } catch { fail("wfl-bench: spans: \(error)") }
                return narrowTable.elements.count
            })
        return Outcome(label: "1,000 lanes, span 1 + i % 500, \(Format.grouped(n)) items", wfl: w.median * 1e9 / Double(n),
                       baseline: b.median * 1e9 / Double(n), baselineName: "span 1",
                       notes: ["span 1 + i % 500: \(w.summary)", "span 1:           \(b.summary)"])
    } }
}
