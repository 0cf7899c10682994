/// The pipeline entry point of the REPL's session: a statement appended at the end of the session
/// is read by the parser resumed where the session's text ended, and resolved and laid out by the
/// program that already holds the earlier entries, without parsing and resolving them again
/// (docs/performance.md, "The REPL"). Whatever it cannot append (an error, a `layout` block, a
/// setting typed again) goes through `Pipeline` whole, as a file does; both give the same run
/// (`ReplAppendTests`).

/// The session's runs: appended when it can, whole otherwise.
package final class IncrementalPipeline {
    /// The session's text parsed and collected, for a session without `layout` blocks.
    private struct Live {
        /// The session's text: `text` as bytes, with its line starts.
        var source: SourceFile
        var parser: ResumableParser
        var tree: SyntaxTree
        var parseDiagnostics: [Diagnostic]
        let program: Program
    }

    /// False: every run is a whole one (the test that proves appending equal to it).
    let appends: Bool
    /// The state to append to; nil until it is needed, and after a change it does not describe.
    private var live: Live? = nil
    /// The state of the last whole run, which becomes `live` when that run is accepted.
    private var pending: Live? = nil
    /// How many entries were appended to the live state (for tests).
    package private(set) var appended = 0
    /// How many of them were settings typed again, taken in the place of the entry they replace.
    package private(set) var replacedInPlace = 0

    init(appends: Bool) {
        self.appends = appends
    }

    /// What appending an entry gave.
    enum Appending {
        /// The run of the session with the entry at its end.
        case appended(Compilation)
        /// The entry is a setting typed again, which replaces earlier entries: these properties.
        case replaces(Set<Property>)
        /// The entry needs a whole run (an error, a `layout` block, nothing to append to).
        case whole
    }

    /// A whole source through the pipeline.
    static func run(_ bytes: [UInt8], name: String) -> Compilation {
        Pipeline.run(SourceFile(name: name, bytes: bytes))
    }

    /// A whole source through the pipeline, keeping what a later entry appended to it needs when
    /// it has no errors and no `layout` blocks (it becomes the live state once `accept`ed).
    func runWhole(_ bytes: [UInt8], name: String) -> Compilation {
        guard appends else { return IncrementalPipeline.run(bytes, name: name) }
        let (run, parser) = Pipeline.runResumable(SourceFile(name: name, bytes: bytes))
        if let parser, let program = run.program {
            pending = Live(source: run.source, parser: parser, tree: run.parse.tree, parseDiagnostics: run.parse.diagnostics, program: program)
        } else {
            pending = nil
        }
        return run
    }

    /// `run` is the session now: what was appended to or kept for it stays, anything else goes.
    func accept(_ run: Compilation) {
        if let pending, pending.program === run.program { live = pending }
        if run.program !== live?.program { live = nil }
        pending = nil
    }

    /// Lets the live state go: the next entry runs the whole session (after a run with errors
    /// the session took, a groups section waiting for its group).
    func forget() {
        live = nil
        pending = nil
    }

    /// The live state, or one built from the session's text `session`.
    private func liveState(_ session: [UInt8], name: String) -> Live? {
        if let live { return live }
        let source = SourceFile(name: name, bytes: session)
        let built: Live? = LargeStack.run {
            let (parse, parser) = Parser.parseResumable(source)
            guard !parse.diagnostics.hasErrors, !parser.hasLayoutBlocks else { return nil }
            let program = Program(tree: parse.tree, source: source)
            program.memoizesSections = true
            return Live(source: source, parser: parser, tree: parse.tree, parseDiagnostics: parse.diagnostics, program: program)
        }
        live = built
        return built
    }

    /// A statement entry appended to the session whose text is `session`. `replaces` says
    /// whether a setting of these properties replaces an earlier entry.
    func append(_ entry: [UInt8], to session: [UInt8], name: String, replaces: (Set<Property>) -> Bool) -> Appending {
        pending = nil
        guard appends, var state = liveState(session, name: name) else { return .whole }
        let base = state.source.bytes.count
        let source = SourceFile(state.source, appending: entry + [0x0A])
        let (parse, parser) = LargeStack.run { state.parser.resume(source, from: base) }
        guard !parse.diagnostics.hasErrors, !parser.hasLayoutBlocks else { return .whole }
        if let props = EntryStore.settingProperties(parse.tree.statements), replaces(props) { return .replaces(props) }
        // From here the program holds the entry: on any error it is let go.
        live = nil
        state.program.extend(parse.tree, source: source)
        let evaluation = LargeStack.run { state.program.evaluate() }
        state.tree.statements += parse.tree.statements
        state.tree.bindings = parse.tree.bindings
        state.tree.span = parse.tree.span
        state.parseDiagnostics += parse.diagnostics
        let run = Compilation(source: source, parse: ParseResult(tree: state.tree, diagnostics: state.parseDiagnostics, incomplete: false),
                              program: state.program, evaluation: evaluation)
        guard !run.hasErrors else { return .whole }
        state.source = source
        state.parser = parser
        live = state
        appended += 1
        return .appended(run)
    }

    /// A setting typed again that takes the place of the one entry it replaces, which stands at
    /// `start` in the session's text `session` and is as long (`columns 3` for `columns 4`): the
    /// live program takes it in that place, so nothing else moves and only the sections are
    /// resolved and laid out again; the run is that of the whole session with the entry in place.
    /// nil when it cannot (a line break in either, another name or other properties, a name the
    /// entry reads that a `let` after `start` binds, an error): the whole session runs then.
    func replace(_ entry: [UInt8], at start: Int, in session: [UInt8], name: String) -> Compilation? {
        pending = nil
        let end = start + entry.count
        guard appends, end < session.count, !entry.contains(0x0A), !session[start..<end].contains(0x0A),
              var state = liveState(session, name: name), state.source.bytes.count == session.count else { return nil }
        // The entry read in its place, by the parser that knows every name of the session.
        let prefix = SourceFile(name: name, bytes: Array(session[..<start]) + entry + [0x0A])
        let (parse, _) = LargeStack.run { state.parser.resume(prefix, from: start) }
        guard !parse.diagnostics.hasErrors, parse.tree.statements.count == 1, case .setting(let new) = parse.tree.statements[0].kind,
              let k = IncrementalPipeline.statementIndex(in: state.tree.statements, from: start, to: end),
              case .setting(let old) = state.tree.statements[k].kind, old.name.text == new.name.text,
              let props = EntryStore.settingProperties(parse.tree.statements),
              EntryStore.settingProperties([state.tree.statements[k]]) == props,
              !IncrementalPipeline.readsLaterLet(entry, in: state, after: start) else { return nil }
        var bytes = session
        bytes.replaceSubrange(start..<end, with: entry)
        let source = SourceFile(state.source, sameLinesWith: bytes)
        guard source.hasBOM == state.source.hasBOM else { return nil }
        // From here the program holds the entry: on any error it is let go.
        live = nil
        let statement = parse.tree.statements[0]
        state.program.replaceSetting(state.tree.statements[k], with: statement, source: source)
        let evaluation = LargeStack.run { state.program.evaluate() }
        state.tree.statements[k] = statement
        // The parser's warnings: the entry's own, and "set twice" where the old one had it (the
        // same name in the same place after the same settings); those of later entries stand.
        let inEntry = { (d: Diagnostic) in d.span.start >= start && d.span.start <= end }
        var diagnostics = state.parseDiagnostics.filter { !inEntry($0) || $0.code == .setTwice }
        diagnostics += parse.diagnostics.filter { $0.code != .setTwice }
        state.parseDiagnostics = diagnostics.inSourceOrder()
        let run = Compilation(source: source, parse: ParseResult(tree: state.tree, diagnostics: state.parseDiagnostics, incomplete: false),
                              program: state.program, evaluation: evaluation)
        guard !run.hasErrors else { return nil }
        state.source = source
        live = state
        appended += 1
        replacedInPlace += 1
        return run
    }

    /// The index of the one statement of `statements` (in source order) that starts in
    /// `start ..< end`; nil when none or several do.
    static func statementIndex(in statements: [Statement], from start: Int, to end: Int) -> Int? {
        var lo = 0, hi = statements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if statements[mid].span.start < start { lo = mid + 1 } else { hi = mid }
        }
        guard lo < statements.count, statements[lo].span.start < end else { return nil }
        if lo + 1 < statements.count, statements[lo + 1].span.start < end { return nil }
        return lo
    }

    /// True when a word of `entry` is the name of a `let` (or a parameter) declared after
    /// `start`: in its place the entry would read an earlier one, or none.
    private static func readsLaterLet(_ entry: [UInt8], in state: Live, after start: Int) -> Bool {
        let tokens = Lexer.tokenize(SourceFile(name: "", bytes: entry)).tokens
        let words = tokens.dropFirst().filter { $0.kind == .identifier }.map { Array(entry[$0.span.start..<$0.span.end]) }
        guard !words.isEmpty else { return false }
        let bytes = state.source.bytes
        for b in state.tree.bindings.reversed() {
            guard b.span.start >= start else { break }
            let declared = bytes[b.span.start..<b.span.end]
            if words.contains(where: { $0.elementsEqual(declared) }) { return true }
        }
        return false
    }

    /// An expression typed alone, read by the resumed parser as the `expect` it is wrapped in
    /// after the session's text `session` (a session without `layout` blocks): its condition,
    /// the program that knows the session's names, the text with the expression in it and where
    /// the wrapping `expect` stands. nil
    /// when it has a mistake (the whole session then says where, as for any entry).
    func expression(_ entry: [UInt8], after session: [UInt8], name: String) -> (condition: Expr, program: Program, source: SourceFile, wrapper: Int)? {
        guard appends, let state = liveState(session, name: name) else { return nil }
        let wrapper = state.source.bytes.count
        let source = SourceFile(state.source, appending: EntryStore.wrapper + entry + [0x0A])
        let (parse, _) = LargeStack.run { state.parser.resume(source, from: wrapper, expressionEntry: wrapper) }
        guard !parse.diagnostics.hasErrors, parse.tree.statements.count == 1, case .expect(let e) = parse.tree.statements[0].kind else {
            return nil
        }
        // The program reads the text with the expression in it, for its messages.
        state.program.extend(SyntaxTree(statements: [], span: parse.tree.span, bindings: parse.tree.bindings), source: source)
        return (e.condition, state.program, source, wrapper)
    }
}
