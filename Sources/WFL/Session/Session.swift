#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The layout under construction in `wfl repl` (docs/usage.md, "Trying layouts out"), without any terminal.
///
/// The session keeps its statements as source text, one string per entry, and runs every entry
/// through the same pipeline as a file: the entries so far and the new one are joined into one
/// source, taken through `Pipeline` as a file is. Diagnostics are mapped back so that
/// they point into the entry. An entry with errors changes nothing.
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

/// How the REPL reads an entry (docs/usage.md): a statement, an expression to print, or nothing.
package enum EntryKind: Equatable, Sendable {
    /// Only white space and comments.
    case empty
    /// A setting, `let`, `layout`, `section` or `expect`.
    case statement
    /// Anything else: an expression whose value is printed.
    case expression
}

/// One layout under construction, entry by entry, with undo.
package final class Session {
    /// The accepted entries, as typed (several lines for a block), in order.
    package private(set) var entries: [String] = []
    /// The name of the layout when the session has no `layout` blocks (the stem of a loaded file,
    /// or `repl`).
    package private(set) var name: String
    /// The attribute tables of the accepted entries.
    package private(set) var tables: [AttributeTable] = []
    /// Parallel to `tables`: each layout's table after its batch update (its table when it has
    /// no `update` block), and its batch update.
    package var afterTables: [AttributeTable] { lastRun?.after ?? [] }
    package var updates: [BatchUpdate] { lastRun?.updates ?? [] }
    /// Colour the rendered diagnostics (the caller decides: a terminal, no `NO_COLOR`).
    package var color: Bool

    /// The name under which diagnostics in the entry are shown.
    package static let entryName = "<repl>"
    /// The name under which diagnostics in earlier entries are shown (lines of the whole session).
    package static let sessionName = "<session>"

    /// How to go back, a step a change.
    private enum UndoStep {
        /// The session before a load or reset.
        case whole(entries: [String], name: String)
        /// An entry added at `position` in place of the entries `replaced` (their indices, in
        /// order, in the session before).
        case added(position: Int, replaced: [(Int, String)])
    }

    private var undoStack: [UndoStep] = []
    /// Warnings of the accepted state, so that an entry shows only the warnings it brings.
    private var warningKeys: Set<String> = []
    /// Where each `layout` block's `}` stands in the session text, by name, in order.
    private var layoutCloses: [(name: String, close: Int)] = []
    /// The layout that expressions read (`:layout NAME`); nil or a name no longer there: the last.
    package var chosenLayout: String? = nil

    /// An empty session; `name` names its layout.
    package init(name: String = "repl", color: Bool = false, options: PipelineOptions = .standard) {
        self.name = name
        self.color = color
        appends = options.sessionAppends
        let empty = Session.run(bytes: [], name: name)
        tables = empty.evaluation?.tables ?? []
        lastRun = empty
    }

    /// The run of the accepted entries, for `transitionTables`.
    private var lastRun: Compilation? = nil

    /// The transitions of each layout's batch update at offset (0, 0) (`:transitions`); an
    /// attribute or `appear` / `disappear` rule that fails throws its diagnostic.
    package func transitionTables() throws(Diagnostic) -> [TransitionTable] {
        try lastRun?.transitionTables() ?? []
    }

    /// The session as a `.wfl` file: its entries, one after another, ending with a newline.
    package var text: String {
        entries.isEmpty ? "" : entries.joined(separator: "\n") + "\n"
    }

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
    package var canUndo: Bool { !undoStack.isEmpty }

    // MARK: - Reading entries

    /// What kind of entry `text` is: a statement when it starts with a statement keyword, or with
    /// a setting name followed by a space or the end of the line (or with a word followed by a
    /// value, as a misspelt setting); otherwise an expression.
    package static func kind(of text: String) -> EntryKind {
        let source = SourceFile(name: entryName, text: text)
        let tokens = Lexer.tokenize(source).tokens
        var k = 0
        while k < tokens.count, tokens[k].kind == .newline || tokens[k].kind == .semicolon { k += 1 }
        guard k < tokens.count, tokens[k].kind != .eof else { return .empty }
        let t = tokens[k]
        switch t.kind {
        case .kwLet, .kwLayout, .kwSection, .kwExpect:
            return .statement
        case .identifier:
            let word = source.text(t.span)
            if SettingTable.info(word) != nil {
                guard t.end < source.bytes.count else { return .statement }
                switch source.bytes[t.end] {
                case 0x20, 0x09, 0x0A, 0x0D: return .statement
                default: return .expression
                }
            }
            // `colums 3`: a statement with a misspelt setting name, not two expressions.
            let next = tokens[Swift.min(k + 1, tokens.count - 1)]
            // `update {`: a block (as the parser reads it, `update` before a `{`).
            if word == "update", next.kind == .lBrace { return .statement }
            switch next.kind {
            case .identifier, .number, .string, .kwTrue, .kwFalse:
                return next.spaceBefore ? .statement : .expression
            default:
                return .expression
            }
        default:
            return .expression
        }
    }

    /// True when `text` ends with a block, bracket or parenthesis still open: the REPL reads
    /// another line and tries again.
    package func needsMore(_ text: String) -> Bool {
        let kind = Session.kind(of: text)
        guard kind != .empty else { return false }
        // The session's entries are complete, so only the entry can leave something open: parse it
        // alone (an expression as the `expect` it is wrapped in), not the whole session again.
        let bytes = kind == .expression ? Session.wrapper + Array(text.utf8) + [0x0A] : Array(text.utf8) + [0x0A]
        return Parser.parse(SourceFile(name: name, bytes: bytes)).incomplete
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

    // MARK: - Composing the source

    /// The session's text with `entry` in it, and where the entry starts.
    struct Composed {
        var bytes: [UInt8]
        var base: Int
        var length: Int
        /// The entries of the session with the new one in its place (statements only).
        var entries: [String]
        /// For an expression: where the `expect` stands that wraps it (`Session.wrapper`).
        var wrapper: Int? = nil
        /// The other entries: where each starts in `bytes`, and its text.
        var others: [(start: Int, text: String)] = []
        /// For a statement: its index in `entries`, and the indices of the session's entries it
        /// replaces (for `:undo`).
        var position = 0
        var replaced: [Int] = []
    }

    /// Each entry of the session with where it starts in the session's text (`text`).
    var entryStarts: [(start: Int, text: String)] {
        var out: [(start: Int, text: String)] = []
        out.reserveCapacity(entries.count)
        var start = 0
        for e in entries {
            out.append((start, e))
            start += e.utf8.count + 1
        }
        return out
    }

    /// What an expression typed alone is wrapped in, so that it is parsed and evaluated as an
    /// expectation's condition with the session's names.
    static let wrapper = Array("expect ".utf8)

    /// Joins the entries (minus `replacing`) and the new entry. A statement goes at the end (or in
    /// the place of the first entry it replaces, with `inPlace`); an expression becomes an
    /// `expect` after the statements, inside the `layout` block that expressions read when there
    /// are layouts.
    func compose(_ entry: [UInt8], kind: EntryKind, replacing: [Int], inPlace: Bool = false) -> Composed {
        if kind == .expression {
            let session = Array(text.utf8)
            let prefix = Session.wrapper
            var others = entryStarts
            if let close = expressionLayoutClose, close <= session.count {
                let head = Array(session[..<close]) + [0x0A] + prefix
                let bytes = head + entry + [0x0A] + Array(session[close...])
                let inserted = bytes.count - session.count
                others = others.map { ($0.start >= close ? $0.start + inserted : $0.start, $0.text) }
                return Composed(bytes: bytes, base: head.count, length: entry.count, entries: entries, wrapper: head.count - prefix.count,
                                others: others)
            }
            let head = session + prefix
            return Composed(bytes: head + entry + [0x0A], base: head.count, length: entry.count, entries: entries,
                            wrapper: head.count - prefix.count, others: others)
        }
        let entryText = String(decoding: entry, as: UTF8.self)
        var list: [String] = []
        var position: Int? = nil
        for (k, e) in entries.enumerated() {
            if replacing.contains(k) {
                if inPlace, position == nil {
                    position = list.count
                    list.append(entryText)
                }
                continue
            }
            list.append(e)
        }
        if position == nil {
            position = list.count
            list.append(entryText)
        }
        var bytes: [UInt8] = []
        var base = 0
        var others: [(start: Int, text: String)] = []
        for (k, e) in list.enumerated() {
            if k > 0 { bytes.append(0x0A) }
            if k == position { base = bytes.count } else { others.append((bytes.count, e)) }
            bytes += Array(e.utf8)
        }
        bytes.append(0x0A)
        return Composed(bytes: bytes, base: base, length: entry.count, entries: list, others: others,
                        position: position ?? list.count - 1, replaced: replacing.sorted())
    }

    /// A whole source through the pipeline.
    static func run(bytes: [UInt8], name: String) -> Compilation {
        Pipeline.run(SourceFile(name: name, bytes: bytes))
    }

    /// A whole source through the pipeline, keeping what a later entry appended to it needs
    /// (`Live`) when it has no errors and no `layout` blocks.
    func runKeeping(bytes: [UInt8]) -> Compilation {
        guard appends else { return Session.run(bytes: bytes, name: name) }
        let (run, parser) = Pipeline.runResumable(SourceFile(name: name, bytes: bytes))
        if let parser, let program = run.program {
            pending = Live(source: run.source, parser: parser, tree: run.parse.tree, parseDiagnostics: run.parse.diagnostics, program: program)
        } else {
            pending = nil
        }
        return run
    }

    /// The live state of the last `runKeeping`, which becomes `live` when its run is accepted.
    private var pending: Live? = nil

    // MARK: - Statements

    /// The properties that the entry sets when it is a single setting, else nil.
    static func settingProperties(_ statements: [Statement]) -> Set<Property>? {
        guard statements.count == 1, case .setting(let s) = statements[0].kind, let info = SettingTable.info(s.name.text) else {
            return nil
        }
        return Set(info.properties(of: s.arguments))
    }

    /// What each entry sets when it is a single setting (`settingProperties` of the entry alone),
    /// kept so that typing a setting does not parse every earlier entry again.
    private var entryProperties: [String: Set<Property>?] = [:]

    private func properties(ofEntry e: String) -> Set<Property>? {
        if let known = entryProperties[e] { return known }
        let found = Session.settingProperties(Parser.parse(SourceFile(name: name, text: e)).tree.statements)
        entryProperties[e] = .some(found)
        return found
    }

    /// The top-level statements of a parsed source that lie in `base ..< base + length`.
    static func statements(of tree: SyntaxTree, in base: Int, _ length: Int) -> [Statement] {
        tree.statements.filter { $0.span.start >= base && $0.span.start <= base + length }
    }

    // MARK: - Appending without the whole session again

    /// The session's text parsed and collected, kept so that a statement entry appended at the
    /// end is read, resolved and laid out without parsing and resolving every earlier entry again
    /// (docs/performance.md, "The REPL"). Only for a session without `layout` blocks; dropped
    /// (and built again when next needed) after any other change.
    private struct Live {
        /// The session's text: `text` as bytes, with its line starts.
        var source: SourceFile
        var bytes: [UInt8] { source.bytes }
        var parser: ResumableParser
        var tree: SyntaxTree
        var parseDiagnostics: [Diagnostic]
        let program: Program
    }

    private var live: Live? = nil
    /// How many entries were appended to the live state (for tests).
    package private(set) var appended = 0

    /// False only in the test that proves appending equal to evaluating the whole session
    /// (`ReplAppendTests.testAppendingIsEvaluatingTheWholeSession`): `PipelineOptions.sessionAppends`.
    let appends: Bool

    /// The state to append to: `live`, or one built from the session's text.
    private func liveState() -> Live? {
        if let live { return live }
        let bytes = Array(text.utf8)
        let source = SourceFile(name: name, bytes: bytes)
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

    /// An entry appended to the session as its live state allows: the composed text and the run
    /// the whole session would give, or nil when the entry needs the whole session (it has an
    /// error, a `layout` block, or a setting typed again that replaces an earlier entry).
    private func append(_ entry: [UInt8]) -> (Composed, Compilation)? {
        guard appends, var state = liveState() else { return nil }
        let base = state.bytes.count
        let source = SourceFile(state.source, appending: entry + [0x0A])
        let bytes = source.bytes
        let (parse, parser) = LargeStack.run { state.parser.resume(source, from: base) }
        guard !parse.diagnostics.hasErrors, !parser.hasLayoutBlocks else { return nil }
        if let props = Session.settingProperties(parse.tree.statements),
           entries.contains(where: { properties(ofEntry: $0).map { $0.isSubset(of: props) } ?? false }) {
            replacing = props
            return nil
        }
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
        guard !run.hasErrors else { return nil }
        state.source = source
        state.parser = parser
        live = state
        let composed = Composed(bytes: bytes, base: base, length: entry.count, entries: entries + [String(decoding: entry, as: UTF8.self)],
                                others: entryStarts, position: entries.count, replaced: [])
        return (composed, run)
    }

    /// Set by `append` when the entry is a setting typed again: the properties it sets, so that
    /// the whole session is not run once more only to find them.
    private var replacing: Set<Property>? = nil

    func addStatement(_ text: String) -> SessionReply {
        let entry = Array(text.utf8)
        replacing = nil
        if let (composed, run) = append(entry) {
            appended += 1
            return accepted(composed, run)
        }
        var composed = compose(entry, kind: .statement, replacing: [])
        var run: Compilation
        var props = replacing
        if props == nil {
            run = runKeeping(bytes: composed.bytes)
            if !run.parse.diagnostics.hasErrors {
                props = Session.settingProperties(Session.statements(of: run.parse.tree, in: composed.base, composed.length))
            }
        } else {
            // Not run: the replacement below runs.
            run = Compilation(source: SourceFile(name: name, bytes: []), parse: ParseResult(tree: SyntaxTree(statements: [], span: Span(0, 0), bindings: []), diagnostics: [], incomplete: false),
                              program: nil, evaluation: nil)
        }

        // A setting typed again replaces the earlier entries that set nothing else: first in
        // their place (the file keeps its order), else at the end (it may use a later `let`).
        if let props {
            var replaced: [Int] = []
            for (k, e) in entries.enumerated() {
                if let earlier = properties(ofEntry: e), earlier.isSubset(of: props) {
                    replaced.append(k)
                }
            }
            if !replaced.isEmpty {
                for inPlace in [true, false] {
                    let c = compose(entry, kind: .statement, replacing: replaced, inPlace: inPlace)
                    let r = runKeeping(bytes: c.bytes)
                    composed = c
                    run = r
                    if !r.hasErrors { break }
                }
            }
        }

        if !run.hasErrors { live = pending }
        pending = nil
        return accepted(composed, run)
    }

    /// The reply to a statement entry whose session text is `composed` and whose run is `run`;
    /// without errors, that becomes the session.
    private func accepted(_ composed: Composed, _ run: Compilation) -> SessionReply {
        var reply = SessionReply()
        reply.diagnostics = render(shown(run.diagnostics, composed), composed, source: run.source)
        guard !run.hasErrors, let evaluation = run.evaluation else {
            reply.failed = true
            return reply
        }
        let before = tables
        accept(composed, run: run)
        let statements = Session.statements(of: run.parse.tree, in: composed.base, composed.length)
        let onlyExpects = !statements.isEmpty && statements.allSatisfy { if case .expect = $0.kind { return true } else { return false } }
        if !onlyExpects {
            var reasons: [String: String] = [:]
            if let props = Session.settingProperties(statements), let program = run.program {
                reasons = Session.setInside(props, program)
            }
            reply.output += Session.summary(before: before, after: evaluation.tables, reasons: reasons) + "\n"
        }
        if statements.contains(where: Session.holdsUpdate) { reply.output += updateSummary() }
        let (lines, diagnostics) = checkExpectations(run, composed)
        reply.output += lines
        reply.diagnostics += diagnostics
        return reply
    }

    /// For a setting typed at the top of the session: the layouts in which blocks inside set the
    /// same properties themselves, by layout name, with what to say ("section 0 sets 'items'
    /// itself"). A layout is named when every section of it sets them all, or the layout block.
    static func setInside(_ properties: Set<Property>, _ program: Program) -> [String: String] {
        let layouts = program.hasLayoutBlocks ? Array(zip(program.layoutNames, program.file.layouts))
                                              : [(program.layoutNames.first ?? "", program.file)]
        func written(_ block: BlockRecord) -> String? {
            let found = properties.compactMap { block.properties[$0] }
            guard found.count == properties.count, let w = found.min(by: { $0.span.start < $1.span.start }) else { return nil }
            return w.setting.name.text
        }
        var reasons: [String: String] = [:]
        for (name, block) in layouts {
            if program.hasLayoutBlocks, let setting = written(block) {
                reasons[name] = "layout '\(name)' sets '\(setting)' itself"
                continue
            }
            let settings = block.sections.map(written)
            guard !settings.isEmpty, let setting = settings.first!, settings.allSatisfy({ $0 != nil }) else { continue }
            let numbers = block.sections.indices.map(String.init)
            reasons[name] = numbers.count == 1
                ? "section 0 sets '\(setting)' itself"
                : "sections \(numbers.dropLast().joined(separator: ", ")) and \(numbers.last!) set '\(setting)' themselves"
        }
        return reasons
    }

    /// Makes a run the session's state, keeping how to go back for `:undo`: the entry's place and
    /// the entries it replaced, not a copy of the session (which made memory grow with the square
    /// of the entries).
    private func accept(_ c: Composed, run: Compilation) {
        undoStack.append(.added(position: c.position, replaced: c.replaced.map { ($0, entries[$0]) }))
        setState(c.entries, run: run)
    }

    private func setState(_ newEntries: [String], run: Compilation) {
        if run.program !== live?.program { live = nil }
        pending = nil
        entries = newEntries
        tables = run.evaluation?.tables ?? []
        lastRun = run
        warningKeys = Set(run.diagnostics.map { Session.key($0, run.source) })
        layoutCloses = []
        for st in run.parse.tree.statements {
            if case .layout(let b) = st.kind, let close = b.closeBrace?.start {
                layoutCloses.append((b.name?.text ?? "", close))
            }
        }
    }

    static func key(_ d: Diagnostic, _ source: SourceFile) -> String {
        "\(d.severity) \(d.message) \(source.text(d.span))"
    }

    /// The diagnostics worth showing for an entry: every error; warnings the session did not have
    /// before, except "set twice" about an earlier entry (typing a setting again replaces it).
    func shown(_ diagnostics: [Diagnostic], _ c: Composed) -> [Diagnostic] {
        // Only a warning needs the session's text (for its key).
        guard diagnostics.contains(where: { $0.severity == .warning }) else { return diagnostics }
        let source = SourceFile(name: name, bytes: c.bytes)
        return diagnostics.filter { d in
            guard d.severity == .warning else { return true }
            if d.code == .setTwice,
               let earlier = d.notes.first?.span, !inEntry(earlier, c) {
                return false
            }
            return !warningKeys.contains(Session.key(d, source))
        }
    }

    func inEntry(_ span: Span, _ c: Composed) -> Bool {
        span.start >= c.base && span.start <= c.base + c.length
    }

    /// Renders diagnostics: those in the entry against the entry alone (lines of the entry), the
    /// others against the whole session.
    func render(_ diagnostics: [Diagnostic], _ c: Composed, source: SourceFile) -> String {
        if diagnostics.isEmpty { return "" }
        let renderer = DiagnosticRenderer(color: color)
        let entryFile = SourceFile(name: Session.entryName, bytes: Array(c.bytes[c.base..<(c.base + c.length)]))
        let sessionFile = SourceFile(name: Session.sessionName, bytes: c.bytes)
        var out = ""
        let firstLine = sessionFile.lineIndex(of: c.base)
        // Line references into the entry are numbered in the entry; those into other entries
        // name the entry, as every entry has its own line 1.
        func relocated(_ t: DiagnosticText) -> DiagnosticText {
            t.mapLines { r in
                inEntry(r.span, c) ? .line(LineReference(shift(r.span, c), line: r.line - firstLine))
                                   : .text(Session.describe(r, c))
            }
        }
        for var d in diagnostics {
            // Between the session and the entry: on the `expect` that wraps an expression.
            if let wrapper = c.wrapper, d.span.start < c.base, d.span.start >= wrapper - 1 {
                d.span = .point(c.base)
            }
            guard inEntry(d.span, c) else {
                out += renderer.render(d, in: sessionFile)
                continue
            }
            d.span = shift(d.span, c)
            d.text = relocated(d.text)
            d.help = d.help.map(relocated)
            d.notes = d.notes.map { n in
                guard let s = n.span else { return Note(relocated(n.text)) }
                if inEntry(s, c) { return Note(relocated(n.text), span: shift(s, c)) }
                let line = sessionFile.lineIndex(of: s.start)
                let text = String(decoding: sessionFile.lineBytes(line), as: UTF8.self)
                return Note("\(relocated(n.text)), in an earlier entry: '\(text.trimmingSpaces)'")
            }
            out += renderer.render(d, in: entryFile)
        }
        return out
    }

    /// "line 1 of the entry 'let h = 3'": a line of another entry, by its line in that entry and
    /// the entry's first line ("line N" of the session when no entry holds it).
    static func describe(_ r: LineReference, _ c: Composed) -> String {
        guard let e = c.others.last(where: { $0.start <= r.span.start }),
              r.span.start <= e.start + e.text.utf8.count else { return "line \(r.line)" }
        let line = c.bytes[e.start..<r.span.start].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lines = e.text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = String(lines.first ?? "").trimmingSpaces + (lines.count > 1 ? " ..." : "")
        return "line \(line) of the entry '\(first)'"
    }

    private func shift(_ s: Span, _ c: Composed) -> Span {
        let start = Swift.min(Swift.max(s.start - c.base, 0), c.length)
        let end = Swift.min(Swift.max(s.end - c.base, start), c.length)
        return Span(start, end)
    }

    // MARK: - Expressions

    func evaluateExpression(_ text: String) -> SessionReply {
        if let reply = evaluateOnLive(text) { return reply }
        let c = compose(Array(text.utf8), kind: .expression, replacing: [])
        let source = SourceFile(name: name, bytes: c.bytes)
        let parsed = Pipeline.parse(source, expressionEntry: c.wrapper)
        let parse = parsed.parse
        var reply = SessionReply()
        // One expression, one mistake: what follows the first error is the parser recovering.
        let diagnostics = parse.diagnostics.filter { $0.severity == .error && inEntryOrPrefix($0.span, c) }.prefix(1)
        if !diagnostics.isEmpty || parse.diagnostics.hasErrors {
            reply.failed = true
            reply.diagnostics = render(diagnostics.isEmpty ? parse.diagnostics.filter { $0.severity == .error } : Array(diagnostics), c, source: source)
            return reply
        }
        guard let program = parsed.program else { return reply }
        let reading = expressionLayout
        let block = program.hasLayoutBlocks ? program.file.layouts.last { $0.name?.text == reading } ?? program.file.layouts.last : program.file
        guard let block, let (e, _) = block.expects.last(where: { $0.1.start == c.wrapper }) else {
            reply.failed = true
            reply.diagnostics = render([.error(.missingCondition, "expected an expression", at: .point(c.base))], c, source: source)
            return reply
        }
        let table = program.hasLayoutBlocks ? tables.last { $0.name == reading } ?? tables.last : tables.first
        switch ExpectationChecker(program: program).value(of: e.condition, table: table, context: .typedAlone) {
        case .success(let v):
            // With several layouts, which one answered.
            let label = tables.count > 1 ? (table?.name).map { "\(TerminalText.escaped($0)): " } ?? "" : ""
            reply.output = label + v.descriptionForPeople + "\n"
        case .failure(let d):
            reply.failed = true
            reply.diagnostics = render([d], c, source: source)
        }
        return reply
    }

    /// An expression typed alone in a session without `layout` blocks, read by the resumed parser
    /// as the `expect` it is wrapped in and evaluated with the kept program: nil when it has a
    /// mistake (the whole session then says where, as for any entry).
    private func evaluateOnLive(_ text: String) -> SessionReply? {
        guard appends, layoutCloses.isEmpty, let state = liveState() else { return nil }
        let entry = Array(text.utf8)
        let c = compose(entry, kind: .expression, replacing: [])
        guard let wrapper = c.wrapper, wrapper == state.bytes.count else { return nil }
        let source = SourceFile(state.source, appending: Session.wrapper + entry + [0x0A])
        let (parse, _) = LargeStack.run { state.parser.resume(source, from: wrapper, expressionEntry: wrapper) }
        guard !parse.diagnostics.hasErrors, parse.tree.statements.count == 1, case .expect(let e) = parse.tree.statements[0].kind else {
            return nil
        }
        // The program reads the text with the expression in it, for its messages.
        state.program.extend(SyntaxTree(statements: [], span: parse.tree.span, bindings: parse.tree.bindings), source: source)
        var reply = SessionReply()
        let table = tables.first
        switch LargeStack.run({ ExpectationChecker(program: state.program).value(of: e.condition, table: table, context: .typedAlone) }) {
        case .success(let v):
            reply.output = v.descriptionForPeople + "\n"
        case .failure(let d):
            reply.failed = true
            reply.diagnostics = render([d], c, source: source)
        }
        return reply
    }

    private func inEntryOrPrefix(_ span: Span, _ c: Composed) -> Bool {
        span.start >= (c.wrapper ?? c.base) && span.start <= c.base + c.length
    }

    /// "expectation holds" or "expectation fails" for each `expect` of the entry, with both sides
    /// of a failed comparison.
    func checkExpectations(_ run: Compilation, _ c: Composed) -> (String, String) {
        guard let program = run.program else { return ("", "") }
        var lines = "", diagnostics: [Diagnostic] = []
        let checker = ExpectationChecker(program: program)
        // Layout names are unique in a file: one look-up per layout, not a search.
        let byName = Dictionary(tables.indices.map { (tables[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in program.layoutNames {
            guard let k = byName[name] else { continue }
            let after = k < afterTables.count ? afterTables[k] : nil
            for outcome in checker.check(layout: name, table: tables[k], after: after, within: Span(c.base, c.base + c.length)) {
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
        return (lines, render(diagnostics, c, source: run.source))
    }

    // MARK: - Commands

    /// Replaces the session with the statements of a file (`:load`), each top-level statement an
    /// entry with its comments. A file with errors is not loaded.
    package func load(_ file: SourceFile, name newName: String) -> SessionReply {
        let parse = Pipeline.parse(file).parse
        var reply = SessionReply()
        let renderer = DiagnosticRenderer(color: color)
        if parse.diagnostics.hasErrors {
            reply.diagnostics = renderer.render(parse.diagnostics, in: file)
            reply.failed = true
            return reply
        }
        let pieces = Session.split(file, parse.tree)
        let run = Session.run(bytes: Array(pieces.joined(separator: "\n").utf8) + (pieces.isEmpty ? [] : [0x0A]), name: newName)
        if run.hasErrors {
            // Evaluate the file as it is, so that positions are the file's own.
            let own = Session.run(bytes: file.bytes, name: file.name)
            reply.diagnostics = renderer.render(own.diagnostics.filter { $0.severity == .error }, in: own.source)
            if reply.diagnostics.isEmpty { reply.diagnostics = renderer.render(run.diagnostics.filter { $0.severity == .error }, in: run.source) }
            reply.failed = true
            return reply
        }
        let before = tables
        undoStack.append(.whole(entries: entries, name: name))
        name = newName
        setState(pieces, run: run)
        reply.output = "loaded \(pieces.count) \(pieces.count == 1 ? "entry" : "entries"): " + Session.summary(before: before, after: tables) + "\n"
        return reply
    }

    /// A file's text cut into entries: whole lines, each run of lines ending with the last line
    /// of a top-level statement (comments go with the statement after them; those at the end of
    /// the file with the last one).
    static func split(_ file: SourceFile, _ tree: SyntaxTree) -> [String] {
        var bytes = file.bytes
        if file.hasBOM { bytes.removeFirst(3) }
        let offset = file.hasBOM ? 3 : 0
        var pieces: [String] = []
        var start = 0
        for st in tree.statements {
            let endLine = file.lineIndex(of: Swift.max(st.span.start, st.span.end - 1))
            let lineEnd = endLine + 1 < file.lineStarts.count ? file.lineStarts[endLine + 1] - 1 - offset : bytes.count
            guard lineEnd >= start else { continue }
            pieces.append(Session.trimLines(bytes[start..<lineEnd]))
            start = Swift.min(lineEnd + 1, bytes.count)
        }
        if start < bytes.count {
            let rest = Session.trimLines(bytes[start...])
            if !rest.isEmpty {
                if pieces.isEmpty { pieces.append(rest) } else { pieces[pieces.count - 1] += "\n" + rest }
            }
        }
        return pieces.filter { !$0.isEmpty }
    }

    /// Text without CRs, and without blank lines at either end.
    static func trimLines(_ bytes: ArraySlice<UInt8>) -> String {
        var lines = String(decoding: bytes.filter { $0 != 0x0D }, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        while let f = lines.first, f.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeFirst() }
        while let l = lines.last, l.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Empties the session (`:reset`); `:undo` brings it back.
    package func reset() -> SessionReply {
        let before = tables
        undoStack.append(.whole(entries: entries, name: name))
        setState([], run: Session.run(bytes: [], name: name))
        return SessionReply(output: "session cleared: " + Session.summary(before: before, after: tables) + "\n")
    }

    /// Goes back to the state before the last change (`:undo`).
    package func undo() -> SessionReply {
        guard let last = undoStack.popLast() else {
            return SessionReply(output: "nothing to undo\n")
        }
        let before = tables
        var previous = entries
        switch last {
        case .whole(let e, let n):
            previous = e
            name = n
        case .added(let position, let replaced):
            previous.remove(at: position)
            for (k, e) in replaced { previous.insert(e, at: k) }
        }
        let bytes = previous.isEmpty ? [] : Array((previous.joined(separator: "\n") + "\n").utf8)
        setState(previous, run: Session.run(bytes: bytes, name: name))
        return SessionReply(output: "undone: " + Session.summary(before: before, after: tables) + "\n")
    }

    // MARK: - Summary

    /// True for an `update` block, or a block that holds one.
    static func holdsUpdate(_ st: Statement) -> Bool {
        switch st.kind {
        case .update: return true
        case .layout(let b), .section(let b): return b.statements.contains(where: holdsUpdate)
        default: return false
        }
    }

    /// "update: 4 cells stay, 2 move, 1 appears, 2 disappear" for each layout with a batch
    /// update (with the layout's name when the session has several), after an entry that holds
    /// an `update` block.
    func updateSummary() -> String {
        var out = ""
        for (k, t) in tables.enumerated() where k < afterTables.count && k < updates.count {
            guard tables.count == 1 || !updates[k].isEmpty else { continue }
            let counts = cellChanges(before: t, after: afterTables[k], update: updates[k])
            out += (tables.count > 1 ? "\(TerminalText.escaped(t.name)): " : "") + "update: \(counts.description)\n"
        }
        return out
    }

    /// "1 section, 30 items, content 375 x 1234; 28 cells moved": each layout's sections, items
    /// and content size, and how its elements changed since `before`.
    /// `reasons` says, by layout name, why a layout where nothing moved did not change.
    package static func summary(before: [AttributeTable], after: [AttributeTable], reasons: [String: String] = [:]) -> String {
        if after.isEmpty { return "no layout" }
        let f = NumberFormat.forPeople
        let named = after.count > 1
        return after.enumerated().map { (k, t) in
            let sections = t.sectionStarts.count
            let items = t.sectionStarts.reduce(0) { $0 + $1.cellCount }
            var line = named ? "\(TerminalText.escaped(t.name)): " : ""
            line += "\(sections) \(sections == 1 ? "section" : "sections"), \(items) \(items == 1 ? "item" : "items"), "
            line += "content \(f(t.contentWidth)) x \(f(t.contentHeight))"
            let old = before.first { $0.name == t.name } ?? (before.count == 1 && after.count == 1 ? before[0] : nil)
            line += "; " + changes(from: old, to: t, reason: reasons[t.name])
            return line
        }.joined(separator: "; ")
    }

    /// "12 cells moved, 1 header added", or "nothing moved" (with `reason` after it, if any).
    /// Elements are matched by (kind, section, item) through the tables' section indexes, so the
    /// cost is one comparison per element, without hashing.
    static func changes(from old: AttributeTable?, to new: AttributeTable, reason: String? = nil) -> String {
        var moved: [ElementKind: Int] = [:], added: [ElementKind: Int] = [:], removed: [ElementKind: Int] = [:]
        let oldSections = old?.sectionStarts ?? [], newSections = new.sectionStarts
        let oldElements = old?.elements ?? []
        func compare(_ kind: ElementKind, _ a: Int?, _ b: Int?, count: Int = 1) {
            switch (a, b) {
            case let (a?, b?):
                // Most elements have not moved: equal bytes are equal elements (frames are finite).
                let same = oldElements.withUnsafeBytes { o in
                    new.elements.withUnsafeBytes { n in
                        let stride = MemoryLayout<Element>.stride
                        return memcmp(o.baseAddress! + a * stride, n.baseAddress! + b * stride, count * stride) == 0
                    }
                }
                if same || count == 0 { return }
                var k = 0
                while k < count {
                    let p = oldElements[a + k], e = new.elements[b + k]
                    if p.frame != e.frame || p.zIndex != e.zIndex { moved[kind, default: 0] += 1 }
                    k += 1
                }
            case (nil, _?): added[kind, default: 0] += count
            case (_?, nil): removed[kind, default: 0] += count
            case (nil, nil): break
            }
        }
        for s in 0..<Swift.max(oldSections.count, newSections.count) {
            let o = s < oldSections.count ? oldSections[s] : nil, n = s < newSections.count ? newSections[s] : nil
            compare(.header, o?.header, n?.header)
            let both = Swift.min(o?.cellCount ?? 0, n?.cellCount ?? 0)
            compare(.cell, o.map(\.firstCell), n.map(\.firstCell), count: both)
            if let o, o.cellCount > both { removed[.cell, default: 0] += o.cellCount - both }
            if let n, n.cellCount > both { added[.cell, default: 0] += n.cellCount - both }
            compare(.footer, o?.footer, n?.footer)
            // Backgrounds, and attached views paired in table order (by name, then item).
            compare(.background, o?.background, n?.background)
            let views = Swift.min(o?.viewCount ?? 0, n?.viewCount ?? 0)
            compare(.attached, o.map(\.firstView), n.map(\.firstView), count: views)
            if let o, o.viewCount > views { removed[.attached, default: 0] += o.viewCount - views }
            if let n, n.viewCount > views { added[.attached, default: 0] += n.viewCount - views }
        }
        var parts: [String] = []
        for (counts, verb) in [(moved, "moved"), (added, "added"), (removed, "removed")] {
            let words = [ElementKind.cell, .header, .footer, .background, .attached].compactMap { kind -> String? in
                guard let n = counts[kind], n > 0 else { return nil }
                return "\(n) \(kind == .attached ? "attached view" : kind.rawValue)\(n == 1 ? "" : "s")"
            }
            if !words.isEmpty { parts.append(words.joined(separator: ", ") + " " + verb) }
        }
        if parts.isEmpty {
            let sizeChanged = old.map { $0.contentWidth != new.contentWidth || $0.contentHeight != new.contentHeight } ?? false
            if sizeChanged { return "content size changed, nothing moved" }
            return "nothing moved" + (reason.map { ": " + $0 } ?? "")
        }
        return parts.joined(separator: ", ")
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
