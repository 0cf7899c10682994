import WFL

// MARK: - Backgrounds, attached views and attributes (issue 19)

extension Measure {
    /// 1,000,000 items with a badge on every tenth and a `cells` background against the same
    /// layout without them: what the decorations add to a layout.
    static var elements: Measure { Measure(
        name: "elements", summary: "a 1,000,000-item waterfall with a badge on every tenth item and a cells background, against the same layout without them",
        unit: "ns/item", target: 8, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = items(options)
        let plainText = EngineSpecs.random(3, n)
        let decorated = plainText + "background cells\nbackgroundInsets -8\nattach badge {\n  when i % 10 == 0\n  size 24 x 24\n  offset (vw / 2) x (-vh / 2)\n}\n"
        let (plainProgram, plainLayout) = EngineSpecs.resolve(plainText)
        let (program, layout) = EngineSpecs.resolve(decorated)
        var table = EngineSpecs.run(program, layout)
        var plain = EngineSpecs.run(plainProgram, plainLayout)
        guard table.elements.count == plain.elements.count + 1 + (n + 9) / 10 else {
            fail("wfl-bench: elements: \(table.elements.count) elements, expected \(plain.elements.count + 1 + (n + 9) / 10)")
        }
        var warnings: [Diagnostic] = []
        let (wfl, base) = Timer.interleaved(
            runs: options.runs ?? (options.quick ? 7 : 11), warmups: 2,
            wfl: { () -> Int in
                do { try IncrementalLayout.relayout(layout, into: &table, warnings: &warnings) } catch { fail("wfl-bench: elements: \(error)") }
                return table.elements.count
            },
            baseline: { () -> Int in
                do { try IncrementalLayout.relayout(plainLayout, into: &plain, warnings: &warnings) } catch { fail("wfl-bench: elements: \(error)") }
                return plain.elements.count
            })
        return Outcome(label: "badges + background, \(Format.grouped(n)) items", wfl: wfl.median * 1e9 / Double(n),
                       baseline: base.median * 1e9 / Double(n), baselineName: "plain",
                       notes: ["wfl   \(wfl.summary) (engine, background, \(Format.grouped((n + 9) / 10)) badges, table and index)",
                               "plain \(base.summary) (the same layout without them)"])
    }}

    /// A 100,000-item cover flow whose zoom, alpha and z-index follow the offset, answered at 100
    /// offsets as `wfl run --offset X,0 --rect` answers the viewport: the rules run only for the
    /// cells in the rect. Against the same queries on the carousel without rules.
    static var coverFlow: Measure { Measure(
        name: "coverflow", summary: "a 100,000-item cover flow: the viewport at 100 offsets with its attribute rules, against the same queries without them",
        unit: "µs/offset", target: 15, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = options.quick ? 10_000 : 100_000
        let (wfl, base) = coverFlowTimes(options, name: "coverflow", rules: coverFlowRules, baselineRules: "")
        return Outcome(label: "cover flow, \(Format.grouped(n)) items, 100 offsets", wfl: wfl.median * 1e6 / 100,
                       baseline: base.median * 1e6 / 100, baselineName: "no rules",
                       notes: ["wfl      \(wfl.summary) (query, frames and the rules of the cells in the viewport)",
                               "no rules \(base.summary) (query and frames)"])
    }}

    /// The cover flow's rules: zoom, alpha and z-index from the distance to the viewport's centre.
    static let coverFlowRules = "let d = abs(midX - (ox + cw / 2))\nzoom max(0.8, 1.2 - d / cw)\nalpha max(0.4, 1 - d / cw)\nzIndex round(max(0, 1000 - d))\n"

    /// The cover flow's twin with MOTION's transforms (issue 31): the same queries with a
    /// `translate` and a `rotate` that follow the paging progress `p` beside the three rules,
    /// against the cover flow row's rules measured in the same run. Target: within 1.5x.
    static var coverFlowMotion: Measure { Measure(
        name: "coverflow-motion", summary: "the 100,000-item cover flow with translate and rotate as well, against the same cover flow without them",
        unit: "µs/offset", target: 1.5, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let n = options.quick ? 10_000 : 100_000
        let motion = coverFlowRules + "translate (-20 * p) x (abs(p) * 12)\nrotate clamp(p * -40, -60, 60)\n"
        let (wfl, base) = coverFlowTimes(options, name: "coverflow-motion", rules: motion, baselineRules: coverFlowRules)
        return Outcome(label: "cover flow + translate, rotate, \(Format.grouped(n)) items", wfl: wfl.median * 1e6 / 100,
                       baseline: base.median * 1e6 / 100, baselineName: "cover flow",
                       notes: ["wfl        \(wfl.summary) (the cover flow's rules, translate and rotate of the cells in the viewport)",
                               "cover flow \(base.summary) (zoom, alpha and zIndex only)"])
    }}

    /// The cover flow's carousel (100,000 items; 10,000 with `--quick`) with `rules` and with
    /// `baselineRules`, each answered as `wfl run --offset X,0 --rect` answers the viewport at 100
    /// offsets across the content, in alternation: both timings.
    static func coverFlowTimes(_ options: Options, name: String, rules: String, baselineRules: String) -> (wfl: Sample, baseline: Sample) {
        let n = options.quick ? 10_000 : 100_000
        let plainText = "style flow\ndirection horizontal\ncontainer 375 x 240\nspacing 10\ninsets 20 0\nitems \(n)\nsize 150 x 150\n"
        let (baseProgram, baseLayout) = EngineSpecs.resolve(plainText + baselineRules)
        let (program, layout) = EngineSpecs.resolve(plainText + rules)
        let table = EngineSpecs.run(program, layout)
        let base = EngineSpecs.run(baseProgram, baseLayout)
        let end = table.contentSize.width - 375
        let offsets = (0..<100).map { Offset(x: (end * Double($0) / 99).rounded(), y: 0) }
        func viewports(_ t: AttributeTable) -> Int {
            var count = 0
            for o in offsets {
                let shown = t.only(t.query(Frame(x: o.x, y: 0, width: 375, height: 240), at: o), at: o)
                if shown.rules.attributeFailure != nil { fail("wfl-bench: \(name): a rule failed at \(o)") }
                count += shown.elements.count
            }
            return count
        }
        return Timer.interleaved(
            runs: options.runs ?? (options.quick ? 7 : 11), warmups: 2,
            wfl: { viewports(table) },
            baseline: { viewports(base) })
    }
}
