/// The one driver of the stages: source → tokens → tree → program (names, cascade, compiled
/// rules) → resolved layouts → engine → attribute tables → expectations. `wfl run`, `wfl test`,
/// the REPL's session and the `Spec` API all go through it, so they agree on what a file means.
///
/// Every stage that can recurse as deep as the input nests runs on a large stack (`LargeStack`),
/// whatever thread calls it.

/// A file taken through the stages: parsed, and evaluated when it parsed without errors.
package struct Compilation {
    /// The source, with the name diagnostics show.
    package let source: SourceFile
    /// The tree and the lexer's and parser's diagnostics.
    package let parse: ParseResult
    /// The evaluated program; nil when parsing failed.
    package let program: Program?
    /// The tables and the evaluator's diagnostics; nil when parsing failed or evaluation was not
    /// asked for.
    package let evaluation: Evaluation?

    /// Every error and warning, the parser's first.
    package var diagnostics: [Diagnostic] { parse.diagnostics + (evaluation?.diagnostics ?? []) }
    /// True when some stage found an error.
    package var hasErrors: Bool { diagnostics.hasErrors }
    /// The attribute table of each layout evaluated, in file order; empty when there are errors.
    package var tables: [AttributeTable] { evaluation?.tables ?? [] }
    /// Each layout evaluated, with its table after its batch update and that update
    /// (docs/language.md, "Batch updates"), in file order; empty when there are errors.
    package var layouts: [EvaluatedLayout] { evaluation?.layouts ?? [] }
    /// The names of the file's layouts, in order (empty when parsing failed).
    package var layoutNames: [String] { program?.layoutNames ?? [] }

    /// The same compilation without the tree's statements (their span, bindings and the
    /// diagnostics stay): once the program is built nothing reads them, and a file of a million
    /// statements would keep them all through evaluation (issue 27).
    package var droppingStatements: Compilation {
        let tree = SyntaxTree(statements: [], span: parse.tree.span, bindings: parse.tree.bindings)
        return Compilation(source: source, parse: ParseResult(tree: tree, diagnostics: parse.diagnostics, incomplete: parse.incomplete),
                           program: program, evaluation: evaluation)
    }
}

/// The stages in order. Each entry point runs them through here.
package enum Pipeline {
    /// Lexes, parses and builds the program (names, cascade); evaluates nothing.
    /// `expressionEntry`: see `Parser.parse(_:expressionEntry:)`.
    package static func parse(_ source: SourceFile, expressionEntry: Int? = nil, options: PipelineOptions = .standard) -> Compilation {
        LargeStack.run {
            let parse = Parser.parse(source, expressionEntry: expressionEntry, options: options)
            let program = parse.diagnostics.hasErrors ? nil : Program(tree: parse.tree, source: source, options: options)
            return Compilation(source: source, parse: parse, program: program, evaluation: nil)
        }
    }

    /// Evaluates every layout of a parsed file (or only the one named `only`): its tables and
    /// diagnostics. A file whose parse failed stays as it is.
    package static func evaluate(_ parsed: Compilation, only: String? = nil, shelves: [Int: Double] = [:]) -> Compilation {
        guard let program = parsed.program else { return parsed }
        let evaluation = LargeStack.run { program.evaluate(only: only, shelves: shelves) }
        return Compilation(source: parsed.source, parse: parsed.parse, program: program, evaluation: evaluation)
    }

    /// Parses and evaluates a file.
    package static func run(_ source: SourceFile, only: String? = nil, options: PipelineOptions = .standard) -> Compilation {
        LargeStack.run { evaluate(parse(source, options: options), only: only) }
    }

    /// Parses and evaluates a file as `run` does, keeping the parser so that statements appended
    /// to the file can be read without reading it again (the REPL's session): the parser is nil
    /// when the file has errors or `layout` blocks. The program keeps its sections' resolution
    /// (`Program.memoizesSections`).
    package static func runResumable(_ source: SourceFile) -> (Compilation, ResumableParser?) {
        LargeStack.run {
            let (parse, parser) = Parser.parseResumable(source)
            let program = parse.diagnostics.hasErrors ? nil : Program(tree: parse.tree, source: source)
            program?.memoizesSections = true
            let parsed = Compilation(source: source, parse: parse, program: program, evaluation: nil)
            let run = evaluate(parsed)
            return (run, run.hasErrors || parser.hasLayoutBlocks ? nil : parser)
        }
    }

    /// Checks every `expect` of every layout evaluated, in the order written (at offset 0,0);
    /// those inside `update` blocks against the tables after the updates. Empty when the file
    /// has errors.
    package static func checkExpectations(_ c: Compilation) -> [ExpectationOutcome] {
        guard let program = c.program, !c.hasErrors else { return [] }
        let layouts = c.layouts
        return LargeStack.run { ExpectationChecker(program: program).check(layouts) }
    }
}
