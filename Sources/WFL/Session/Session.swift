/// The layout under construction in `wfl repl` (docs/usage.md, "Trying layouts out"), without any terminal.
///
/// The session keeps its statements as source text, one string per entry (`EntryStore`), and runs
/// them as a file (`IncrementalPipeline`: the entry appended to what was already read, or the
/// whole session through `Pipeline` again). The parser says what an entry is
/// (`Parser.entryKind`). Diagnostics are shown against the entry (`ReplyRenderer`); the change
/// lines come from `ChangeSummary`. An entry with errors changes nothing.
///
/// An expression typed alone (`frame(0, 3)`, `contentHeight`, `1 + 2`) is parsed as the condition
/// of an `expect` placed after the session's statements, so it sees the session's `let`s, and is
/// evaluated against the current table as an expectation's sides are.

/// What one entry or command gave: text for standard output, rendered diagnostics for standard
/// error, and whether something went wrong.
package struct SessionReply: Equatable, Sendable {
    /// Results: a summary line, a value, a table.
    package var output: String = ""
    /// Rendered diagnostics (errors and warnings), each ending with a newline.
    package var diagnostics: String = ""
    /// True when an error was reported (the session is unchanged then).
    package var failed = false

    package init(output: String = "", diagnostics: String = "", failed: Bool = false) {
        self.output = output
        self.diagnostics = diagnostics
        self.failed = failed
    }
}

/// One layout under construction, entry by entry, with undo.
package final class Session {
    private var store: EntryStore
    private let pipeline: IncrementalPipeline
    private var renderer: ReplyRenderer
    /// The run of the accepted entries.
    private var lastRun: Compilation
    /// Where each `layout` block's `}` stands in the session text, by name, in order.
    private var layoutCloses: [(name: String, close: Int)] = []

    /// The accepted entries, as typed (several lines for a block), in order.
    package var entries: [String] { store.entries }
    /// The name of the layout when the session has no `layout` blocks (the stem of a loaded file,
    /// or `repl`).
    package var name: String { store.name }
    /// The attribute tables of the accepted entries, as evaluated (no scroll offset applied).
    package var tables: [AttributeTable] { lastRun.tables }
    /// Parallel to `tables`: each layout's table after its batch update (its table when it has
    /// no `update` block), and its batch update.
    package var afterTables: [AttributeTable] { lastRun.layouts.map(\.after) }
    package var updates: [BatchUpdate] { lastRun.layouts.map(\.batch) }
    /// Colour the rendered diagnostics (the caller decides: a terminal, no `NO_COLOR`).
    package var color: Bool { renderer.color }
    /// How many statement entries were appended without running the whole session (for tests).
    package var appended: Int { pipeline.appended }
    /// How many of them were settings typed again, taken in the place of the entry they replace.
    package var replacedInPlace: Int { pipeline.replacedInPlace }
    /// The layout that expressions read (`:layout NAME`); nil or a name no longer there: the last.
    package var chosenLayout: String? = nil

    /// The name under which diagnostics in the entry are shown.
    package static let entryName = "<repl>"
    /// The name under which diagnostics in earlier entries are shown (lines of the whole session).
    package static let sessionName = "<session>"

    /// An empty session; `name` names its layout. With `options.sessionAppends` off, every entry
    /// runs the whole session (the test that proves appending the same).
    package init(name: String = "repl", color: Bool = false, options: PipelineOptions = .standard) {
        store = EntryStore(name: name)
        pipeline = IncrementalPipeline(appends: options.sessionAppends)
        renderer = ReplyRenderer(color: color)
        lastRun = IncrementalPipeline.run([], name: name)
    }

    /// The session as a `.wfl` file: its entries, one after another, ending with a newline.
    package var text: String { store.text }

    /// `text` as a terminal may show it: control characters, bidirectional overrides and the like
    /// escaped (`\u{1B}`), as the diagnostics' renderer shows the user's words.
    package static func escaped(_ text: String) -> String { TerminalText.escaped(text) }

    /// The layout name a file gives (`feed.wfl` gives `feed`), as `wfl run` names it.
    package static func layoutName(forPath path: String) -> String { Program.stem(path) }

    /// The names of the session's layouts, in order.
    package var layoutNames: [String] { tables.map(\.name) }

    /// The layout that an expression typed alone reads: the chosen one while it exists, else the
    /// last.
    package var expressionLayout: String? {
        if let chosen = chosenLayout, layoutNames.contains(chosen) { return chosen }
        return layoutNames.last
    }

    /// Where the `}` of the layout block that expressions read stands, when there are layouts.
    private var expressionLayoutClose: Int? {
        layoutCloses.last { $0.name == expressionLayout }?.close ?? layoutCloses.last?.close
    }

    /// True when `:undo` has something to undo.
    package var canUndo: Bool { store.canUndo }

    /// The tables as `wfl run` prints them (`:table`, `:json`): at scroll offset (0, 0), with
    /// pinned headers and footers, `zoomFirst` and the attribute rules applied. A rule that fails
    /// there throws its diagnostic.
    package func tablesAtRest() throws(Diagnostic) -> [AttributeTable] {
        let shown = tables.map { $0.at($0.initialOffset) }
        if let failure = shown.lazy.compactMap(\.rules.attributeFailure).first { throw failure }
        return shown
    }

    /// Each layout after the scroll path `steps` from its first display (`:scroll`), shown where
    /// the path leaves it, as `wfl run --scroll` prints them. A relayout's error or a bad step
    /// throws; an attribute rule that fails at the path's end comes back as the diagnostic.
    package func tablesAfterPath(_ steps: [PathStep]) throws(PathFailure) -> Result<[AttributeTable], Diagnostic> {
        var shown: [AttributeTable] = []
        for layout in lastRun.layouts {
            let t = try layout.sized(phase: .measured, steps: steps, offset: nil)
            shown.append(t.at(t.sizing?.state.offset ?? t.initialOffset))
        }
        if let failure = shown.lazy.compactMap(\.rules.attributeFailure).first { return .failure(failure) }
        return .success(shown)
    }

    /// The transitions of each layout's batch update at offset (0, 0) (`:transitions`); an
    /// attribute or `appear` / `disappear` rule that fails throws its diagnostic.
    package func transitionTables() throws(Diagnostic) -> [TransitionTable] {
        try lastRun.transitionTables()
    }

    // MARK: - Reading entries

    /// What kind of entry `text` is, as the parser reads it (`Parser.entryKind`).
    package static func kind(of text: String) -> EntryKind {
        Parser.entryKind(of: SourceFile(name: entryName, text: text))
    }

    /// True when `text` ends with a block, bracket or parenthesis still open: the REPL reads
    /// another line and tries again.
    package func needsMore(_ text: String) -> Bool {
        let kind = Session.kind(of: text)
        // The session's entries are complete, so only the entry can leave something open: parse it
        // alone (an expression as the `expect` it is wrapped in), not the whole session again.
        let bytes = kind == .expression ? EntryStore.wrapper + Array(text.utf8) + [0x0A] : Array(text.utf8) + [0x0A]
        let parse = Parser.parse(SourceFile(name: name, bytes: bytes))
        // A `/*` comment still open goes on over the next lines, as in a file.
        if parse.diagnostics.contains(where: { $0.code == .unterminatedComment }) { return true }
        return kind != .empty && parse.incomplete
    }

    /// Runs one entry: a statement joins the session (replacing an earlier entry of the same
    /// setting), an expression prints its value. Errors leave the session as it was.
    package func enter(_ text: String) -> SessionReply {
        switch Session.kind(of: text) {
        case .empty: return SessionReply()
        case .expression: return evaluateExpression(text)
        case .statement: return addStatement(text)
        }
    }

    // MARK: - Statements

    /// The top-level statements of a parsed source that lie in `base ..< base + length`.
    static func statements(of tree: SyntaxTree, in base: Int, _ length: Int) -> [Statement] {
        tree.statements.filter { $0.span.start >= base && $0.span.start <= base + length }
    }

    func addStatement(_ text: String) -> SessionReply {
        let entry = Array(text.utf8)
        var props: Set<Property>? = nil
        switch pipeline.append(entry, to: store.bytes, name: name, replaces: { !store.replaced(by: $0).isEmpty }) {
        case .appended(let run):
            return accepted(store.appended(run.source.bytes, length: entry.count), run)
        case .replaces(let p):
            props = p
            // One entry as long replaced in its place: the live program takes it there.
            let replaced = store.replaced(by: p)
            if replaced.count == 1, store.entries[replaced[0]].utf8.count == entry.count {
                let composed = store.composeStatement(entry, replacing: replaced, inPlace: true)
                if let run = pipeline.replace(entry, at: composed.base, in: store.bytes, name: name) {
                    return accepted(composed, run)
                }
            }
        case .whole:
            break
        }
        var composed = store.composeStatement(entry, replacing: [])
        var run: Compilation? = nil
        if props == nil {
            let r = pipeline.runWhole(composed.bytes, name: name)
            run = r
            if !r.parse.diagnostics.hasErrors {
                props = EntryStore.settingProperties(Session.statements(of: r.parse.tree, in: composed.base, composed.length))
            }
        }
        // A setting typed again replaces the earlier entries that set nothing else: first in
        // their place (the file keeps its order), else at the end (it may use a later `let`).
        if let props {
            let replaced = store.replaced(by: props)
            if !replaced.isEmpty {
                for inPlace in [true, false] {
                    composed = store.composeStatement(entry, replacing: replaced, inPlace: inPlace)
                    let r = pipeline.runWhole(composed.bytes, name: name)
                    run = r
                    if !r.hasErrors || Session.waitsForGroup(r) { break }
                }
            }
        }
        // `append` said "replaces", so a replacement ran.
        return accepted(composed, run ?? pipeline.runWhole(composed.bytes, name: name))
    }

    /// The reply to a statement entry whose session text is `composed` and whose run is `run`;
    /// without errors, that becomes the session.
    private func accepted(_ composed: EntryStore.Composed, _ run: Compilation) -> SessionReply {
        var reply = SessionReply()
        reply.diagnostics = renderer.render(renderer.shown(run.diagnostics, composed), composed, source: run.source)
        if run.hasErrors, Session.waitsForGroup(run) {
            // A groups section typed before its `group` block (docs/DECISIONS.md, "The REPL
            // waits for a groups section's group"): the entry joins the session, which is laid
            // out again once the group arrives.
            store.accept(composed)
            setState(run)
            pipeline.forget()
            reply.diagnostics = renderer.render(renderer.shown(run.diagnostics.filter { $0.severity != .error }, composed), composed, source: run.source)
            reply.output += pendingLines
            return reply
        }
        guard !run.hasErrors, let evaluation = run.evaluation else {
            reply.failed = true
            return reply
        }
        let before = tables
        store.accept(composed)
        setState(run)
        let statements = Session.statements(of: run.parse.tree, in: composed.base, composed.length)
        let onlyExpects = !statements.isEmpty && statements.allSatisfy { if case .expect = $0.kind { return true } else { return false } }
        if !onlyExpects {
            var reasons: [String: String] = [:]
            if let props = EntryStore.settingProperties(statements), let program = run.program {
                reasons = ChangeSummary.setInside(props, program)
            }
            reply.output += ChangeSummary.summary(before: before, after: evaluation.tables, reasons: reasons) + "\n"
        }
        if statements.contains(where: ChangeSummary.holdsUpdate) {
            reply.output += ChangeSummary.updates(tables, after: afterTables, updates: updates)
        }
        let (lines, diagnostics) = checkExpectations(run, composed)
        reply.output += lines
        reply.diagnostics += diagnostics
        return reply
    }

    /// True when every error of `run` is a `style groups` section without its `group` block yet:
    /// the session takes the entry and waits for the group.
    static func waitsForGroup(_ run: Compilation) -> Bool {
        let errors = run.diagnostics.filter { $0.severity == .error }
        return !errors.isEmpty && errors.allSatisfy { $0.code == .missingGroup }
    }

    /// One line for each groups section still waiting for its `group` block ("pending: ..."),
    /// none when the session is laid out.
    package var pendingLines: String {
        lastRun.diagnostics.filter { $0.code == .missingGroup }
            .map { "pending: \($0.message) yet; it is laid out once its 'group' block is typed\n" }.joined()
    }

    /// Makes `run` the session's state (the store already holds its entries).
    private func setState(_ run: Compilation) {
        pipeline.accept(run)
        // Without its statements, which the pipeline's live state then holds alone and appends to
        // in place (a second holder made every append copy them all).
        let tree = SyntaxTree(statements: [], span: run.parse.tree.span, bindings: [])
        lastRun = Compilation(source: run.source, parse: ParseResult(tree: tree, diagnostics: run.parse.diagnostics, incomplete: run.parse.incomplete),
                              program: run.program, evaluation: run.evaluation)
        renderer.remember(run)
        layoutCloses = []
        for st in run.parse.tree.statements {
            if case .layout(let b) = st.kind, let close = b.closeBrace?.start {
                layoutCloses.append((b.name?.text ?? "", close))
            }
        }
    }

    /// "expectation holds" or "expectation fails" for each `expect` of the entry, with both sides
    /// of a failed comparison.
    func checkExpectations(_ run: Compilation, _ c: EntryStore.Composed) -> (String, String) {
        guard let program = run.program else { return ("", "") }
        var lines = "", diagnostics: [Diagnostic] = []
        let checker = ExpectationChecker(program: program)
        // Layout names are unique in a file: one look-up per layout, not a search. The evaluated
        // layouts, not their tables alone: a `scroll` block's path measures self-sizing cells.
        let layouts = run.layouts
        let byName = Dictionary(layouts.indices.map { (layouts[$0].before.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in program.layoutNames {
            guard let k = byName[name] else { continue }
            for outcome in checker.check(layout: name, layouts[k], within: Span(c.base, c.base + c.length)) {
                let label = outcome.label.map { " ('\($0)')" } ?? ""
                switch outcome.verdict {
                case .passed:
                    lines += "expectation holds\(label)\n"
                case .failed:
                    let detail = outcome.sides.map { ": \($0.left.description) \($0.op.rawValue) \($0.right.description) is false" } ?? ""
                    lines += "expectation fails\(label)\(detail)\n"
                case .error:
                    if let d = outcome.diagnostic { diagnostics.append(d) }
                }
            }
        }
        return (lines, renderer.render(diagnostics, c, source: run.source))
    }

    // MARK: - Expressions

    func evaluateExpression(_ text: String) -> SessionReply {
        let entry = Array(text.utf8)
        if layoutCloses.isEmpty, let reply = evaluateOnLive(entry) { return reply }
        let c = store.composeExpression(entry, close: expressionLayoutClose)
        let source = SourceFile(name: name, bytes: c.bytes)
        let parsed = Pipeline.parse(source, expressionEntry: c.wrapper)
        let parse = parsed.parse
        var reply = SessionReply()
        // One expression, one mistake: what follows the first error is the parser recovering.
        let diagnostics = parse.diagnostics.filter { $0.severity == .error && renderer.inEntryOrPrefix($0.span, c) }.prefix(1)
        if !diagnostics.isEmpty || parse.diagnostics.hasErrors {
            reply.failed = true
            reply.diagnostics = renderer.render(diagnostics.isEmpty ? parse.diagnostics.filter { $0.severity == .error } : Array(diagnostics), c, source: source)
            return reply
        }
        guard let program = parsed.program else { return reply }
        let reading = expressionLayout
        let block = program.hasLayoutBlocks ? program.file.layouts.last { $0.name?.text == reading } ?? program.file.layouts.last : program.file
        guard let block, let e = block.expects.last(where: { $0.statement.start == c.wrapper })?.expectation else {
            reply.failed = true
            reply.diagnostics = renderer.render([.error(.missingCondition, "expected an expression", at: .point(c.base))], c, source: source)
            return reply
        }
        let table = program.hasLayoutBlocks ? tables.last { $0.name == reading } ?? tables.last : tables.first
        return value(of: e.condition, program: program, table: table, c, source: source, label: tables.count > 1)
    }

    /// An expression typed alone in a session without `layout` blocks, read by the resumed parser
    /// and evaluated with the kept program: nil when it has a mistake (the whole session then says
    /// where, as for any entry).
    private func evaluateOnLive(_ entry: [UInt8]) -> SessionReply? {
        guard let (condition, program, source, wrapper) = pipeline.expression(entry, after: store.bytes, name: name) else { return nil }
        let c = store.composeExpression(entry, close: nil)
        guard c.wrapper == wrapper else { return nil }
        return value(of: condition, program: program, table: tables.first, c, source: source, label: false)
    }

    /// The value of an expression typed alone, read against `table`; with `label`, the layout's
    /// name before it (which layout answered).
    private func value(of condition: Expr, program: Program, table: AttributeTable?, _ c: EntryStore.Composed, source: SourceFile,
                       label: Bool) -> SessionReply {
        var reply = SessionReply()
        switch LargeStack.run({ ExpectationChecker(program: program).value(of: condition, table: table, context: .typedAlone) }) {
        case .success(let v):
            let name = label ? (table?.name).map { "\(TerminalText.escaped($0)): " } ?? "" : ""
            reply.output = name + v.descriptionForPeople + "\n"
        case .failure(let d):
            reply.failed = true
            reply.diagnostics = renderer.render([d], c, source: source)
            // Nothing is laid out while a groups section waits for its group.
            reply.output += pendingLines
        }
        return reply
    }

    // MARK: - Commands

    /// Replaces the session with the statements of a file (`:load`), each top-level statement an
    /// entry with its comments. A file with errors is not loaded.
    package func load(_ file: SourceFile, name newName: String) -> SessionReply {
        let parse = Pipeline.parse(file).parse
        var reply = SessionReply()
        if parse.diagnostics.hasErrors {
            reply.diagnostics = renderer.render(parse.diagnostics, in: file)
            reply.failed = true
            return reply
        }
        let pieces = EntryStore.split(file, parse.tree)
        let run = IncrementalPipeline.run(Array(pieces.joined(separator: "\n").utf8) + (pieces.isEmpty ? [] : [0x0A]), name: newName)
        if run.hasErrors {
            // Evaluate the file as it is, so that positions are the file's own.
            let own = IncrementalPipeline.run(file.bytes, name: file.name)
            reply.diagnostics = renderer.render(own.diagnostics.filter { $0.severity == .error }, in: own.source)
            if reply.diagnostics.isEmpty { reply.diagnostics = renderer.render(run.diagnostics.filter { $0.severity == .error }, in: run.source) }
            reply.failed = true
            return reply
        }
        let before = tables
        store.replaceAll(with: pieces, name: newName)
        setState(run)
        reply.output = "loaded \(pieces.count) \(pieces.count == 1 ? "entry" : "entries"): " + ChangeSummary.summary(before: before, after: tables) + "\n"
        return reply
    }

    /// Empties the session (`:reset`); `:undo` brings it back.
    package func reset() -> SessionReply {
        let before = tables
        store.replaceAll(with: [], name: name)
        setState(IncrementalPipeline.run([], name: name))
        return SessionReply(output: "session cleared: " + ChangeSummary.summary(before: before, after: tables) + "\n")
    }

    /// Goes back to the state before the last change (`:undo`).
    package func undo() -> SessionReply {
        let before = tables
        guard store.undo() else { return SessionReply(output: "nothing to undo\n") }
        setState(IncrementalPipeline.run(store.bytes, name: name))
        return SessionReply(output: "undone: " + ChangeSummary.summary(before: before, after: tables) + "\n" + pendingLines)
    }
}

extension String {
    /// Without spaces and tabs at either end.
    package var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
