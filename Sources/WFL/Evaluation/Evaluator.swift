/// From a parsed file to resolved layouts and attribute tables: the cascade (file, layout,
/// section), the implicit layout and section, the section settings with their checks, and the item
/// rules compiled once (docs/language.md, "Statements and blocks", "Settings", "Variables").

/// What evaluating a file gives.
package struct Evaluation {
    /// Each layout evaluated, in file order; empty when there are errors.
    package var layouts: [EvaluatedLayout]
    /// Every error and warning found while evaluating (the parser's are not repeated here).
    package var diagnostics: [Diagnostic]
    /// Motion: the shelf sections of the layouts evaluated (for `--shelf`'s usage errors).
    package var shelves: Set<Int> = []
    /// The table of each layout evaluated (before its batch update), in file order.
    package var tables: [AttributeTable] { layouts.map(\.before) }
}

/// One layout evaluated: its table, its table after its batch update (docs/language.md, "Batch
/// updates") and that update.
package struct EvaluatedLayout: Equatable {
    /// The table as the file writes it.
    package var before: AttributeTable
    /// The table after the batch update; the same value as `before` without `update` blocks.
    package var after: AttributeTable
    /// The batch update: each section's, empty where it has no `update` block.
    package var batch: BatchUpdate
    /// A self-sizing layout as resolved, for its scroll paths (Engines/SelfSizing.swift); nil
    /// when no section has `estimate`.
    package var selfSizing: SelfSizingSource? = nil

    package init(before: AttributeTable, after: AttributeTable, batch: BatchUpdate) {
        self.before = before
        self.after = after
        self.batch = batch
    }

    /// A layout without `update` blocks: its one table in both states.
    package init(_ table: AttributeTable) {
        self.init(before: table, after: table,
                  batch: BatchUpdate(sections: table.sectionStarts.map { SectionUpdate(countBefore: $0.cellCount) }))
    }

    /// The table in `state`.
    package func table(_ state: TableState) -> AttributeTable {
        switch state {
        case .beforeUpdate: return before
        case .afterUpdate: return after
        }
    }
}

/// Which table of a layout an expectation reads: the one the file writes, or the one after its
/// batch update (an `expect` inside an `update` block). Another state of a layout is another
/// case, which `EvaluatedLayout.table(_:)` then must answer (an exhaustive switch).
package enum TableState: Sendable {
    case beforeUpdate
    case afterUpdate
}

/// An `expect` as the program keeps it: the expectation, the span of its statement, and the
/// table it reads.
struct ExpectRecord {
    var expectation: Expectation
    var statement: Span
    var reads: TableState
    /// The `scroll` block it stands in: it reads the state after that path (docs/language.md,
    /// "Scroll paths"); nil elsewhere.
    var path: ScrollRecord? = nil
}

/// A `scroll` block as the program keeps it: where it stands and its stops, in order.
struct ScrollRecord {
    var keyword: Span
    var stops: [ScrollStop]
}

/// Where a setting was written.
enum BlockLevel { case file, layout, section }

/// One setting's contribution to one property.
enum PropValue {
    case expr(Expr)
    case word(Name)
    case size(Expr, Expr)
    case adaptive(Expr)
}

/// A property as written in one block.
struct Written {
    var value: PropValue
    var setting: Setting
    var level: BlockLevel
    var span: Span
}

/// What a block sets, by property. A block sets a few properties, and each is looked up for every
/// section: a short list searched in order costs less than hashing, and nothing when empty.
struct PropertyTable {
    /// The properties set, and what sets each, in the same order.
    private var keys: [Property] = []
    private var values: [Written] = []
    /// Bit `p.rawValue` is set when `p` is in `keys`: most look-ups ask for a property the block
    /// does not set, and answer without searching.
    private var mask = PropertyMask()

    /// The properties set, in the order first set.
    var written: [Property] { keys }

    subscript(_ p: Property) -> Written? {
        get {
            guard mask.intersects(p.bit), let k = keys.firstIndex(of: p) else { return nil }
            return values[k]
        }
        set {
            if let k = keys.firstIndex(of: p) {
                if let newValue {
                    values[k] = newValue
                } else {
                    keys.remove(at: k)
                    values.remove(at: k)
                    mask.remove(p)
                }
            } else if let newValue {
                keys.append(p)
                values.append(newValue)
                mask |= p.bit
            }
        }
    }
}

/// A `layout` or `section` block (or the file) with its settings by property.
final class BlockRecord {
    let level: BlockLevel
    let name: BlockName?
    let keyword: Span?
    /// Read for every section and property while resolving, written only while the program is
    /// built: the run-time check of exclusive access cost more than the look-up itself.
    @exclusivity(unchecked) var properties = PropertyTable()
    /// Every setting written here, in order, for the checks of unused settings.
    var settings: [Written] = []

    /// What a block holds besides its settings, out of line: most blocks are sections that hold
    /// none of it, and a file may have millions of them (docs/performance.md, "Memory").
    private final class Contents {
        var sections: [BlockRecord] = []
        var sectionsWithExpects: [BlockRecord] = []
        var layouts: [BlockRecord] = []
        var expects: [ExpectRecord] = []
        var attaches: [AttachRecord] = []
        var updates: [UpdateRecord] = []
        var groups: [GroupBlock] = []
        var scrolls: [ScrollRecord] = []
    }
    private var contents: Contents? = nil
    private var made: Contents {
        if let contents { return contents }
        let c = Contents()
        contents = c
        return c
    }

    var sections: [BlockRecord] {
        get { contents?.sections ?? [] }
        _modify { let c = made; yield &c.sections }
    }
    /// The sections that hold an `expect` (most hold none: `Program.allExpects` reads only these).
    var sectionsWithExpects: [BlockRecord] {
        get { contents?.sectionsWithExpects ?? [] }
        _modify { let c = made; yield &c.sectionsWithExpects }
    }
    var layouts: [BlockRecord] {
        get { contents?.layouts ?? [] }
        _modify { let c = made; yield &c.layouts }
    }
    /// Each `expect`, with the span of its statement and the table it reads.
    var expects: [ExpectRecord] {
        get { contents?.expects ?? [] }
        _modify { let c = made; yield &c.expects }
    }
    /// The `attach` blocks written here, in order.
    var attaches: [AttachRecord] {
        get { contents?.attaches ?? [] }
        _modify { let c = made; yield &c.attaches }
    }
    /// The `update` blocks written here, in order (more than one is an error).
    var updates: [UpdateRecord] {
        get { contents?.updates ?? [] }
        _modify { let c = made; yield &c.updates }
    }

    /// The `group` blocks written here, in order (a section has one, its top group).
    var groups: [GroupBlock] {
        get { contents?.groups ?? [] }
        _modify { let c = made; yield &c.groups }
    }

    /// The `scroll` blocks written here, in order.
    var scrolls: [ScrollRecord] {
        get { contents?.scrolls ?? [] }
        _modify { let c = made; yield &c.scrolls }
    }

    init(level: BlockLevel, name: BlockName?, keyword: Span?) {
        self.level = level
        self.name = name
        self.keyword = keyword
    }
}

/// An `attach` block: its name, where it stands, and its own settings by property (`when`, `size`,
/// `anchor`, `offset`, `zIndex`; they do not cascade in or out).
final class AttachRecord {
    let name: String
    let keyword: Span
    var properties = PropertyTable()

    init(name: String, keyword: Span) {
        self.name = name
        self.keyword = keyword
    }
}

/// An `update` block: its `delete` and `insert` indices as written, in order (docs/language.md,
/// "Batch updates").
final class UpdateRecord {
    let keyword: Span
    var deletes: [Expr] = []
    var inserts: [Expr] = []

    init(keyword: Span) { self.keyword = keyword }
}

/// The layouts of a file, with everything needed to evaluate them.
package final class Program {
    /// The file's text (longer after `extend`).
    private(set) var source: SourceFile
    let file: BlockRecord
    let compiler: Compiler
    /// True when the file has `layout` blocks: file settings are then inherited defaults.
    let hasLayoutBlocks: Bool
    /// Diagnostics already given, so that a rule failing many times is reported once.
    var reported: Set<String> = []
    /// Set by the REPL's session: the sections it has resolved, for the next evaluation
    /// (`SectionMemo`).
    package var memoizesSections: Bool {
        get { memo != nil }
        set { memo = newValue ? (memo ?? SectionMemo()) : nil }
    }
    var memo: SectionMemo? = nil
    /// `--device NAME`: replaces every layout's container, safe area and readable width
    /// (docs/layout.md, "Devices"); nil: each layout's own.
    package var device: DevicePreset? = nil

    /// Builds the program of a parsed file. Call only when the parser found no errors.
    package init(tree: SyntaxTree, source: SourceFile, options: PipelineOptions = .standard) {
        self.source = source
        file = BlockRecord(level: .file, name: nil, keyword: nil)
        compiler = Compiler(bindings: tree.bindings, options: options)
        var names: [String] = []
        Program.collect(tree.statements, into: file, compiler: compiler, attachNames: &names)
        attachNames = names
        hasLayoutBlocks = !file.layouts.isEmpty
        layoutNames = hasLayoutBlocks ? file.layouts.map { $0.name?.text ?? "" } : [Program.stem(source.name)]
        var index: [String: Int] = [:]
        index.reserveCapacity(layoutNames.count)
        for (k, name) in layoutNames.enumerated() where index[name] == nil { index[name] = k }
        layoutIndex = index
    }

    /// The names of the attached views, each once, in the order in which its first `attach` block
    /// stands in the file's text: the order of the views in a table.
    private(set) var attachNames: [String]

    /// The names of the file's layouts, in order; computed once, as a file may have many layouts.
    package let layoutNames: [String]
    /// Each layout name's position in `layoutNames` (the first, should two be alike).
    let layoutIndex: [String: Int]

    /// The position of the layout named `name` in `layoutNames`.
    package func layoutIndex(named name: String) -> Int? { layoutIndex[name] }

    /// Adds statements appended at the top level of a file without `layout` blocks (the REPL's
    /// session, entry by entry): `source` is the longer file and `tree` what its parser read after
    /// the statements known so far (`ResumableParser.resume`). A setting among them changes what
    /// every section inherits, which `generation` counts.
    package func extend(_ tree: SyntaxTree, source: SourceFile) {
        self.source = source
        compiler.extend(bindings: tree.bindings)
        // A setting or an `attach` block at the top level changes what every section inherits.
        if tree.statements.contains(where: { switch $0.kind { case .setting, .attach, .appear: return true; default: return false } }) {
            generation += 1
            // One setting alone: what it changes is known, as for a setting typed again.
            if tree.statements.count == 1, case .setting(let st) = tree.statements[0].kind, let info = SettingTable.info(st.name.text) {
                lastChange = (generation, info.propertyMask(of: st.arguments))
            }
        }
        var names = attachNames
        Program.collect(tree.statements, into: file, compiler: compiler, attachNames: &names)
        attachNames = names
    }

    /// Takes the top-level setting `new` in the place of `old` (the REPL's setting typed again):
    /// `source` is the file with the new text where the old stood, at the same offsets (the two
    /// are as long and set the same properties), so nothing else of the program moves. A property
    /// that a later setting sets keeps that one's value, as in a file read whole.
    package func replaceSetting(_ old: Statement, with new: Statement, source: SourceFile) {
        self.source = source
        guard case .setting(let s) = new.kind else { return }
        let scratch = BlockRecord(level: .file, name: nil, keyword: nil)
        Program.record(s, in: scratch, span: new.span)
        if let k = file.settings.firstIndex(where: { $0.span == old.span }), let w = scratch.settings.first { file.settings[k] = w }
        var changed = PropertyMask()
        for p in scratch.properties.written {
            changed |= p.bit
            if file.properties[p]?.span == old.span { file.properties[p] = scratch.properties[p] }
        }
        generation += 1
        lastChange = (generation, changed)
    }

    /// The generation that `replaceSetting` made last and the properties it changed: the sections
    /// resolved in the generation before, if none of their settings but their engines' reads
    /// them, need only their engines configured again (`Resolver.resolve`).
    private(set) var lastChange: (generation: Int, properties: PropertyMask)? = nil

    /// Counts the changes to what sections inherit from the file (`extend`): a section resolved
    /// in one generation resolves the same in it while its index is the same.
    private(set) var generation = 0

    /// `feed.wfl` gives `feed`; standard input gives `stdin`.
    static func stem(_ path: String) -> String {
        if path == "<stdin>" || path == "-" { return "stdin" }
        var name = Substring(path)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if name.hasSuffix(".wfl") { name = name.dropLast(4) } else if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            name = name[..<dot]
        }
        return String(name)
    }

    /// Sorts the statements into blocks; the `let`s go to the compiler (names already point to
    /// their bindings, so no scope is kept here).
    static func collect(_ statements: [Statement], into block: BlockRecord, compiler: Compiler, attachNames: inout [String]) {
        for st in statements {
            switch st.kind {
            case .let(let decl):
                compiler.define(decl)
            case .layout(let b):
                let rec = BlockRecord(level: .layout, name: b.name, keyword: b.keyword)
                collect(b.statements, into: rec, compiler: compiler, attachNames: &attachNames)
                block.layouts.append(rec)
            case .section(let b):
                let rec = BlockRecord(level: .section, name: b.name, keyword: b.keyword)
                collect(b.statements, into: rec, compiler: compiler, attachNames: &attachNames)
                block.sections.append(rec)
                if !rec.expects.isEmpty { block.sectionsWithExpects.append(rec) }
            case .attach(let b):
                let name = b.name?.text ?? ""
                if !attachNames.contains(name) { attachNames.append(name) }
                // Its settings are its own: a record of its own, as a block's.
                let inner = BlockRecord(level: block.level, name: b.name, keyword: b.keyword)
                var ignored: [String] = []
                collect(b.statements, into: inner, compiler: compiler, attachNames: &ignored)
                let rec = AttachRecord(name: name, keyword: b.keyword)
                rec.properties = inner.properties
                // The same name twice in one block: the later one wins (the parser warns).
                block.attaches.removeAll { $0.name == name }
                block.attaches.append(rec)
            case .appear(let a):
                recordAppear(a, in: block)
            case .update(let b):
                let rec = UpdateRecord(keyword: b.keyword)
                for inner in b.statements {
                    switch inner.kind {
                    case .change(let c):
                        if c.kind == .insert { rec.inserts += c.arguments } else { rec.deletes += c.arguments }
                    case .expect(let e):
                        block.expects.append(ExpectRecord(expectation: e, statement: inner.span, reads: .afterUpdate))
                    default:
                        break
                    }
                }
                block.updates.append(rec)
            case .scroll(let b):
                // Its `to`s in order; its `expect`s read the state after the path.
                var rec = ScrollRecord(keyword: b.keyword, stops: [])
                for inner in b.statements { if case .to(let stop) = inner.kind { rec.stops.append(stop) } }
                for inner in b.statements {
                    if case .expect(let e) = inner.kind {
                        block.expects.append(ExpectRecord(expectation: e, statement: inner.span, reads: .beforeUpdate, path: rec))
                    }
                }
                block.scrolls.append(rec)
            case .change, .item, .to:
                break
            case .group(let g):
                // Groups do not cascade: each block keeps its own (Evaluation/GroupResolver.swift).
                block.groups.append(g)
            case .expect(let e):
                block.expects.append(ExpectRecord(expectation: e, statement: st.span, reads: .beforeUpdate))
            case .setting(let s):
                record(s, in: block, span: st.span)
            }
        }
    }

    /// The settings of an `appear` or `disappear` block go to the block that holds it, each under
    /// its own property (`appearAlpha`, ...), so that each cascades on its own.
    static func recordAppear(_ a: AppearBlock, in block: BlockRecord) {
        for st in a.block.statements {
            guard case .setting(let s) = st.kind, let property = Property.appearing(s.name.text, disappear: a.disappear) else { continue }
            let value: PropValue
            switch s.arguments.first {
            case .value(let e)?: value = .expr(e)
            case .size(let w, let h, _)?: value = .size(w, h)
            default: continue
            }
            block.properties[property] = Written(value: value, setting: s, level: block.level, span: st.span)
        }
    }

    static func record(_ s: Setting, in block: BlockRecord, span: Span) {
        func put(_ property: Property, _ value: PropValue) {
            let w = Written(value: value, setting: s, level: block.level, span: span)
            block.properties[property] = w
        }
        let args = s.arguments
        block.settings.append(Written(value: .expr(.invalid(span)), setting: s, level: block.level, span: span))
        guard let info = SettingTable.info(s.name.text) else { return }
        let properties = info.properties
        func value(_ k: Int) -> Expr? {
            guard k < args.count else { return nil }
            switch args[k] {
            case .value(let e): return e
            case .side(_, let e): return e
            default: return nil
            }
        }
        switch info.shape {
        case .insets:
            if case .side = args.first {
                for a in args {
                    if case .side(let n, let e) = a, let side = Side(name: n.text) { put(properties[side.rawValue], .expr(e)) }
                }
                return
            }
            let vs = (0..<args.count).compactMap(value)
            let sides: [Expr]
            switch vs.count {
            case 1: sides = [vs[0], vs[0], vs[0], vs[0]]
            case 2: sides = [vs[0], vs[1], vs[0], vs[1]]
            case 4: sides = vs
            default: return
            }
            for (property, e) in zip(properties, sides) { put(property, .expr(e)) }
        case .device:
            // `device NAME [orientation]` writes the container, the safe area, the readable
            // width and itself: the resolver reads the device from the setting.
            guard case .word(let n)? = args.first else { return }
            for property in properties { put(property, .word(n)) }
        case .values where properties.count == 2:
            // `spacing R [C]`: the row spacing, and the column spacing (R again when alone).
            guard let r = value(0) else { return }
            put(properties[0], .expr(r))
            put(properties[1], .expr(value(1) ?? r))
        default:
            switch args.first {
            case .value(let e)?: put(properties[0], .expr(e))
            case .word(let n)?: put(properties[0], .word(n))
            case .size(let w, let h, _)?: put(properties[0], .size(w, h))
            case .adaptive(let e, _)?: put(properties[0], .adaptive(e))
            case .side?, nil: break
            }
        }
    }

    // MARK: - Evaluating

    /// Evaluates every layout, or only `only`.
    ///
    /// Every layout is resolved before any is run, so the item limit, which counts the layouts
    /// evaluated together, is checked before a table is allocated (docs/DECISIONS.md). Once a
    /// layout passes it the layouts after it are resolved for their own errors, not counted, and
    /// no layout is run: the file has an error, and its tables would not be shown.
    package func evaluate(only: String? = nil, shelves: [Int: Double] = [:]) -> Evaluation {
        // Each evaluation reports afresh (a program evaluated again, as the REPL's is).
        reported = []
        var evaluated: [EvaluatedLayout] = []
        var diagnostics: [Diagnostic] = []
        let layouts: [BlockRecord?] = hasLayoutBlocks ? file.layouts : [nil]
        var resolved: [Result<ResolvedLayout, LayoutFailure>] = []
        // The items of the layouts resolved so far; nil once the limit has been passed.
        var items: Int? = 0
        var shelfSections = Set<Int>()
        for (k, layout) in layouts.enumerated() {
            let name = layoutNames[k]
            if let only, only != name { continue }
            var r = resolve(layout, name: name, itemsBefore: items)
            if case .success(var l) = r {
                // Motion: each shelf at its own offset (`--shelf`); the other sections ignore it.
                for s in l.shelfIndices {
                    shelfSections.insert(s)
                    if let sx = shelves[s] { l.shelfOffsets[s] = sx }
                }
                r = .success(l)
            }
            switch r {
            case .success(let l):
                items = items.map { $0 + l.countedItems }
            case .failure(let f):
                if f.diagnostics.contains(where: { $0.code == .tooManyItems }) { items = nil }
            }
            resolved.append(r)
        }
        // The diagnostics a layout at a time, as when each was run as soon as it was resolved.
        for r in resolved {
            switch r {
            case .failure(let f):
                diagnostics += f.diagnostics
            case .success(let layout):
                guard items != nil else { continue }
                if layout.hasUpdate {
                    // The tables before and after the batch update (Engines/Updates.swift); the
                    // REPL's kept table is not one to append to.
                    memo?.table = nil
                    switch UpdateTapes.layout(layout, warnings: &diagnostics) {
                    case .success(let (before, after)):
                        var e = EvaluatedLayout(before: before, after: after, batch: layout.batch)
                        e.selfSizing = SelfSizingSource.checked(layout, measured: before, diagnostics: &diagnostics)
                        evaluated.append(e)
                    case .failure(let f):
                        diagnostics += f.diagnostics
                    }
                    continue
                }
                switch memo == nil || !layout.shelfOffsets.isEmpty ? run(layout, warnings: &diagnostics) : runKeeping(layout, warnings: &diagnostics) {
                case .success(let t):
                    var e = EvaluatedLayout(before: t, after: t, batch: layout.batch)
                    e.selfSizing = SelfSizingSource.checked(layout, measured: t, diagnostics: &diagnostics)
                    evaluated.append(e)
                case .failure(let f): diagnostics += f.diagnostics
                }
            }
        }
        diagnostics += ExpectationChecker(program: self).validate(only: only)
        var seen = Set<String>()
        // In source order, as the parser's: the stages above find them layout by layout and
        // setting by setting, not in the order they are written.
        diagnostics = diagnostics.filter { seen.insert("\($0.span) \($0.message)").inserted }.inSourceOrder()
        let failed = diagnostics.hasErrors
        return Evaluation(layouts: failed ? [] : evaluated, diagnostics: diagnostics, shelves: shelfSections)
    }

    /// Runs the engine of a resolved layout.
    package func run(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        Sections.layout(layout, warnings: &warnings)
    }

    /// Runs the engine as `run` does for the REPL's program (`memo`): when the sections before
    /// the new ones are those of the last table, only the new ones are laid out
    /// (`appendSections`); the table and its warnings are kept for the next time.
    func runKeeping(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        guard let memo else { return run(layout, warnings: &warnings) }
        let keep = memo.table
        memo.table = nil
        var own: [Diagnostic] = []
        let result: Result<AttributeTable, LayoutFailure>
        if let previous = keep, memo.reused > 0, memo.reused == previous.sectionStarts.count {
            own = memo.warnings
            result = appendSections(layout, to: previous, from: memo.reused, warnings: &own)
        } else {
            memo.plainTable = false
            result = run(layout, warnings: &own)
        }
        warnings += own
        if case .success(let t) = result {
            memo.table = t
            memo.warnings = own
        }
        return result
    }

    /// The table of `layout` made from `previous`, the table of its first `k` sections, by laying
    /// out the sections after them from where `previous` stopped, as the engines would have
    /// reached them. Only where that gives the very table a whole layout gives: a vertical
    /// layout, not mirrored, whose rect index is in table order; otherwise the whole layout.
    func appendSections(_ layout: ResolvedLayout, to previous: AttributeTable, from k: Int,
                        warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        // Backgrounds, attached views and attribute rules are added over the whole table
        // (Engines/Decorations.swift): such a layout is laid out whole.
        // So is a layout with `appear` or `disappear` rules, which its table keeps per section.
        // Whether `previous`'s sections are plain (no decorations, no transition rules) is known
        // when an append made it (`SectionMemo.plainTable`): then only the new ones are asked.
        let plainBefore = memo?.plainTable == true
        memo?.plainTable = false
        var tail = layout
        tail.sections = Array(layout.sections[k...])
        func plain(_ l: ResolvedLayout) -> Bool { !l.decorates && TableRules.of(l, .transitions) == nil }
        guard layout.direction == .vertical, !layout.rightToLeft, layout.zoomFirst == nil, plain(plainBefore ? tail : layout),
              previous.index.sequence == nil, previous.rules.appearRules == nil,
              previous.style == layout.style || k < layout.sections.count else {
            warnings = []
            return run(layout, warnings: &warnings)
        }
        if k == layout.sections.count {
            memo?.plainTable = true
            return .success(previous)
        }
        tail.start = previous.sectionStarts[k - 1].stop
        tail.style = LayoutStyle.common(tail.sections.lazy.map(\.style))
        var tailWarnings: [Diagnostic] = []
        switch run(tail, warnings: &tailWarnings) {
        case .failure(let f):
            return .failure(f)
        case .success(let t):
            guard t.index.sequence == nil else {
                warnings = []
                return run(layout, warnings: &warnings)
            }
            var table = previous
            let offset = table.elements.count
            table.elements += t.elements
            table.sectionStarts += t.sectionStarts.map { s in
                var s = s
                s.header = s.header.map { $0 + offset }
                s.firstCell += offset
                s.footer = s.footer.map { $0 + offset }
                return s
            }
            table.scroll.shelves += t.scroll.shelves
            table.style = layout.style
            table.contentWidth = t.contentWidth
            table.contentHeight = t.contentHeight
            // The leaf boxes of `previous`'s index stand for its whole blocks of elements.
            var leaves = previous.index.count == offset ? previous.index.levels.first ?? [] : []
            if offset % RectIndex.leaf != 0, !leaves.isEmpty { leaves.removeLast() }
            table.index = RectIndex(table.elements, sequence: nil, reusing: [], leaves: leaves)
            warnings += tailWarnings
            memo?.plainTable = true
            return .success(table)
        }
    }

    /// Runs the engine of a resolved layout, dropping its warnings.
    package func run(_ layout: ResolvedLayout) -> Result<AttributeTable, LayoutFailure> {
        var warnings: [Diagnostic] = []
        return run(layout, warnings: &warnings)
    }

    /// The blocks a section's properties come from, innermost first.
    func chain(_ layout: BlockRecord?, _ section: BlockRecord?) -> [BlockRecord] {
        [section, layout, file].compactMap { $0 }
    }

    /// The written value of a property, innermost block first, skipping settings inherited from
    /// the file that this layout does not use.
    func lookup(_ property: Property, _ blocks: [BlockRecord], unused: (Written) -> Bool) -> Written? {
        for b in blocks {
            if let w = b.properties[property] {
                if w.level == .file, hasLayoutBlocks, unused(w) { return nil }
                return w
            }
        }
        return nil
    }

    /// Makes a resolved layout: layout settings, then each section's, then the item rules.
    package func resolve(layoutNamed name: String) -> Result<ResolvedLayout, LayoutFailure>? {
        guard let k = layoutIndex[name] else { return nil }
        return resolve(hasLayoutBlocks ? file.layouts[k] : nil, name: name)
    }

    func resolve(_ layout: BlockRecord?, name: String, itemsBefore: Int? = 0) -> Result<ResolvedLayout, LayoutFailure> {
        var r = Resolver(program: self, layout: layout, name: name, itemsBefore: itemsBefore)
        return r.resolve()
    }
}

func typeWord(_ t: StaticType) -> String {
    switch t {
    case .number: return "a number"
    case .boolean: return "a boolean"
    case .list: return "a list"
    case .string: return "a string"
    case .unknown: return "a value"
    }
}
