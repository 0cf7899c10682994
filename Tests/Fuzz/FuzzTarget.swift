// The libFuzzer target for the whole pipeline: lex and parse, render the diagnostics, format
// (and check that formatting is stable), evaluate, lay out, and write every output format.
// Built by Tests/Fuzz/run (not by SwiftPM): it is compiled together with Sources/WFL.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one input may ask for. Larger inputs are legal (the limits of docs/language.md are tested
/// elsewhere) but slow: the harness skips laying them out, so that they are not taken for hangs.
let fuzzMaxItems = 20_000
let fuzzMaxLanes = 200
/// 100,000 and 100,000,000 calls of user functions take minutes here: a tenth of a second's worth.
let fuzzOptions = PipelineOptions(callsPerValue: 20_000, calls: 200_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data!, count: size))
    // The wfl command evaluates and formats on a thread with a large stack: so does the harness.
    fuzzOnLargeStack { fuzzPipeline(bytes) }
    return 0
}

func fuzzCheck(_ ok: Bool, _ what: @autoclosure () -> String) {
    if !ok {
        fputs("fuzz: \(what())\n", stderr)
        abort()
    }
}

func fuzzPipeline(_ bytes: [UInt8]) {
    let source = SourceFile(name: "fuzz.wfl", bytes: bytes)
    let parsed = Parser.parse(source)
    let renderer = DiagnosticRenderer(color: false)
    _ = renderer.render(parsed.diagnostics, in: source)
    _ = ASTPrinter.print(parsed.tree, source: source)

    // Formatting: refused with errors; otherwise it must not change the meaning, and formatting
    // its own output must give the same text.
    switch Formatter.format(source) {
    case .failure(.errors):
        fuzzCheck(parsed.diagnostics.hasErrors, "fmt refused a file the parser accepts")
    case .failure(.wouldChangeMeaning(let why)):
        fuzzCheck(false, "fmt would change the meaning: \(why)")
    case .success(let text):
        fuzzCheck(!parsed.diagnostics.contains { $0.severity == .error && !$0.code.keepsTheTreeWhole }, "fmt formatted a file that does not parse")
        switch Formatter.format(SourceFile(name: "fuzz.wfl", text: text)) {
        case .success(let again): fuzzCheck(again == text, "fmt is not stable:\n\(text)\n---\n\(again)")
        case .failure: fuzzCheck(false, "fmt cannot format its own output:\n\(text)")
        }
    }
    if parsed.diagnostics.hasErrors { return }

    let program = Program(tree: parsed.tree, source: source, options: fuzzOptions)
    var items = 0
    for name in program.layoutNames {
        guard case .success(let layout)? = program.resolve(layoutNamed: name) else { continue }
        for s in layout.sections {
            items += s.items
            // The lanes of a waterfall, the rows of a shelf's band.
            let lanes = (s.engine as? WaterfallEngine)?.lanes ?? (s.engine as? ShelfEngine)?.rows ?? 1
            if lanes > fuzzMaxLanes { return }
        }
    }
    if items > fuzzMaxItems { return }

    let evaluation = program.evaluate()
    _ = renderer.render(evaluation.diagnostics, in: source)
    let tables = evaluation.tables
    fuzzCheck(evaluation.diagnostics.hasErrors ? tables.isEmpty : tables.count == program.layoutNames.count,
          "\(tables.count) tables for \(program.layoutNames.count) layouts (errors: \(evaluation.diagnostics.hasErrors))")
    for t in tables {
        for e in t.elements {
            fuzzCheck(!e.frame.x.isNaN && !e.frame.y.isNaN && !e.frame.width.isNaN && !e.frame.height.isNaN,
                  "a frame that is not a number in '\(t.name)'")
        }
        _ = ExpectationChecker(program: program).check(layout: t.name, table: t)
    }
    let offset = Offset(x: 0, y: 40)
    let rect = Frame(x: 0, y: 0, width: 375, height: 400)
    let moved = tables.map { $0.at(offset) }
    let queried = tables.map { $0.only($0.query(rect, at: offset), at: offset) }
    _ = TableFormat.format(moved)
    _ = JSONFormat.format(queried)
    _ = CSVFormat.format(tables)
    _ = SwiftFormat.format(tables, sourceName: "fuzz.wfl")
    _ = SVGFormat.format(tables, offset: offset, rect: rect)
    _ = HTMLFormat.format(tables)
    _ = ASCIIPicture.format(tables, offset: offset, rect: nil, columns: 60)
    // The transitions of the batch updates (a failing rule is a diagnostic, not a crash).
    for layout in evaluation.layouts {
        if let t = try? Transitions.table(before: layout.before, after: layout.after, update: layout.batch, at: offset) {
            fuzzCheck(t.transitions.count >= layout.after.elements.count, "fewer transitions than elements after the update in '\(t.before.name)'")
            _ = TransitionFormat.json([t])
            _ = TransitionFormat.csv([t])
            _ = TransitionFormat.table([t])
            _ = TransitionsHTML.format([t])
        }
    }
}

/// Runs `body` on the pipeline's large stack (Sources/WFL/Pipeline/LargeStack.swift), which the
/// target is compiled with.
func fuzzOnLargeStack(_ body: @escaping () -> Void) {
    LargeStack.run(body)
}
