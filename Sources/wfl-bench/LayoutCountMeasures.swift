// MARK: - Many layouts (issue 17; a timed unit test until issue 27)

import WFL

extension Measure {
    /// A file of `layouts` small layouts, each with an expectation.
    static func manyLayouts(_ layouts: Int) -> SourceFile {
        var text = ""
        for k in 0..<layouts { text += "layout l\(k) {\n  items 1\n  expect cw == 375\n}\n" }
        return SourceFile(name: "many.wfl", text: text)
    }

    /// Evaluating a file of many layouts, checking its expectations and resolving each layout by
    /// name, against a quarter of the layouts: about 4x when linear, 16x when quadratic.
    static var layoutCount: Measure { Measure(
        name: "layouts", summary: "evaluating 12,000 one-item layouts with their expectations and resolving each by name, against 3,000 (3,000 and 750 with --quick)",
        unit: "ms", target: 6, targetIsRatio: true, lowerIsBetter: true
    ) { _, options in
        let large = options.quick ? 3_000 : 12_000, small = large / 4
        func work(_ source: SourceFile) -> () -> Int {
            {
                let p = Program(tree: Parser.parse(source).tree, source: source)
                let evaluation = p.evaluate()
                let outcomes = ExpectationChecker(program: p).check(evaluation.layouts)
                var resolved = 0
                for name in p.layoutNames where p.resolve(layoutNamed: name) != nil { resolved += 1 }
                return evaluation.tables.count + outcomes.count + resolved
            }
        }
        let big = manyLayouts(large), little = manyLayouts(small)
        if work(big)() != 3 * large || work(little)() != 3 * small {
            fail("wfl-bench: the many-layouts file does not evaluate to a table, an outcome and a layout each")
        }
        let (wfl, base) = Timer.interleaved(runs: options.runs ?? 5, warmups: 1, wfl: work(big), baseline: work(little))
        return Outcome(label: "\(Format.grouped(large)) layouts", wfl: wfl.median * 1e3, baseline: base.median * 1e3,
                       baselineName: "\(Format.grouped(small)) layouts",
                       notes: ["\(Format.grouped(large)) layouts \(wfl.summary)", "\(Format.grouped(small)) layouts \(base.summary)"])
    } }
}
