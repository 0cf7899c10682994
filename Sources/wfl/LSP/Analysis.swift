import WFL

/// One version of a document taken through `Pipeline`, and what the server tells an editor of it:
/// diagnostics, hover, completion, definition, symbols and formatting. The tree is read as it
/// stands; the evaluation (tables) is made only when something asks for it.
final class Analysis {
    let uri: String
    let version: Int
    let source: SourceFile
    let lines: LineMap
    /// Parsed, with the program; evaluated when `evaluated` is first read.
    let parsed: Compilation
    private var _evaluated: Compilation? = nil

    init(uri: String, version: Int, source: SourceFile) {
        self.uri = uri
        self.version = version
        self.source = source
        lines = LineMap(source: source)
        parsed = Pipeline.parse(source)
    }

    /// Made from a whole run, for the diagnostics.
    init(uri: String, version: Int, run: Compilation) {
        self.uri = uri
        self.version = version
        source = run.source
        lines = LineMap(source: run.source)
        parsed = run
        _evaluated = run
    }

    var evaluated: Compilation {
        if let e = _evaluated { return e }
        let e = Pipeline.evaluate(parsed)
        _evaluated = e
        return e
    }

    var tree: SyntaxTree { parsed.parse.tree }

    // MARK: - Diagnostics

    /// What `wfl run` reports, then each failed `expect` as a warning on its condition.
    func diagnostics() -> [JSON] {
        let run = evaluated
        var out = run.diagnostics.map(diagnostic)
        for outcome in Pipeline.checkExpectations(run) where !outcome.passed {
            // `wfl test`'s line without its 'file:line:col: ' (the editor shows the place).
            let report = outcome.report(in: source)
            let p = source.position(of: outcome.span.start)
            let prefix = "\(source.name):\(p.line):\(p.column): "
            let message = report.hasPrefix(prefix) ? String(report.dropFirst(prefix.count)) : report
            out.append(.object([
                ("range", lines.range(outcome.span)),
                ("severity", .number(2)),
                ("source", .string("wfl")),
                ("code", .string("expect")),
                ("message", .string("expectation " + message)),
            ]))
        }
        return out
    }

    /// One diagnostic as the protocol has it: its help lines and the notes without a place in the
    /// message (as the terminal shows them, `= help: ...`), the notes with one as related
    /// information.
    func diagnostic(_ d: Diagnostic) -> JSON {
        var message = d.message
        for n in d.notes where n.span == nil { message += "\nnote: " + n.message }
        for h in d.help { message += "\nhelp: " + h.description }
        var members: [(String, JSON)] = [
            ("range", lines.range(d.span)),
            ("severity", .number(d.severity == .error ? 1 : 2)),
            ("code", .string(d.code.rawValue)),
            ("source", .string("wfl")),
            ("message", .string(message)),
        ]
        let related: [JSON] = d.notes.compactMap { n in
            guard let span = n.span else { return nil }
            return .object([
                ("location", .object([("uri", .string(uri)), ("range", lines.range(span))])),
                ("message", .string(n.message)),
            ])
        }
        if !related.isEmpty { members.append(("relatedInformation", .array(related))) }
        return .object(members)
    }

    // MARK: - Where the cursor is

    /// The statement inside `st`'s `attach`, `appear`/`disappear` or `update` block that holds
    /// `offset`; nil when `st` is no such block or `offset` is not on one of its statements.
    static func innerStatement(_ st: Statement, at offset: Int) -> Statement? {
        let statements: [Statement]
        switch st.kind {
        case .attach(let b), .update(let b), .scroll(let b): statements = b.statements
        case .appear(let a): statements = a.block.statements
        case .group(let g): statements = g.block.statements
        case .item(let item): statements = item.block?.statements ?? []
        default: return nil
        }
        guard let inner = statements.first(where: { offset >= $0.span.start && offset <= $0.span.end }) else { return nil }
        // Groups nest: the innermost statement.
        if case .group = inner.kind, let deeper = innerStatement(inner, at: offset) { return deeper }
        if case .item = inner.kind, let deeper = innerStatement(inner, at: offset) { return deeper }
        return inner
    }

    /// The word opening an `attach`, `appear`/`disappear` or `update` block when `offset` is on
    /// it, and what the block is (its row of the table of block words).
    static func blockWord(_ st: Statement, at offset: Int) -> (Span, String)? {
        guard let (_, kind) = block(of: st) else { return nil }
        let word: Span
        switch st.kind {
        case .attach(let b), .update(let b), .scroll(let b): word = b.keyword
        case .appear(let a): word = a.block.keyword
        case .group(let g): word = g.block.keyword
        case .item(let item): word = item.keyword
        default: return nil
        }
        guard offset >= word.start, offset <= word.end, let about = LanguageReference.hover(block: kind.word) else { return nil }
        return (word, about)
    }

    /// The block of an `attach`, `appear`/`disappear` or `update` statement, with its word.
    static func block(of st: Statement) -> (Block, BlockWord)? {
        switch st.kind {
        case .attach(let b): return (b, .attach)
        case .appear(let a): return (a.block, a.disappear ? .disappear : .appear)
        case .update(let b): return (b, .update)
        case .scroll(let b): return (b, .scroll)
        case .group(let g): return (g.block, .group)
        case .item(let item): return item.block.map { ($0, .item) }
        default: return nil
        }
    }

    /// The `attach`, `appear`/`disappear` or `update` block among `statements` whose braces hold
    /// `offset` (a block never closed holds the rest of the file).
    static func innerBlock(_ statements: [Statement], at offset: Int) -> BlockWord? {
        for st in statements {
            guard let (block, word) = block(of: st) else { continue }
            if offset > block.openBrace.start, offset <= (block.closeBrace?.start ?? Int.max) {
                // Groups nest: the innermost group or item block.
                if word == .group, let deeper = innerBlock(block.statements, at: offset) { return deeper }
                return word
            }
        }
        return nil
    }

    /// A block around the cursor: the statement, the block, and its place among its kind.
    struct Frame {
        var statement: Statement
        var block: Block
        var isLayout: Bool
        /// Its index among the layout (or section) blocks of its parent.
        var index: Int
    }

    /// The blocks around `offset`, outermost first, and the innermost statement that holds it.
    /// On a block's keyword or name the block is the last frame and its statement the statement.
    func locate(_ offset: Int) -> (frames: [Frame], statement: Statement?) {
        var frames: [Frame] = []
        var statements = tree.statements
        search: while true {
            var layouts = 0, sections = 0
            for st in statements {
                var block: Block? = nil
                var isLayout = false
                if case .layout(let b) = st.kind { block = b; isLayout = true }
                if case .section(let b) = st.kind { block = b }
                // A block never closed (an error) holds the rest of the file.
                let end = block.map { $0.closeBrace == nil ? Int.max : st.span.end } ?? st.span.end
                if offset >= st.span.start, offset <= end {
                    guard let b = block else { return (frames, st) }
                    frames.append(Frame(statement: st, block: b, isLayout: isLayout, index: isLayout ? layouts : sections))
                    if offset <= b.openBrace.start { return (frames, st) }
                    if let close = b.closeBrace, offset > close.start { return (frames, st) }
                    statements = b.statements
                    continue search
                }
                if block != nil { if isLayout { layouts += 1 } else { sections += 1 } }
            }
            return (frames, nil)
        }
    }

    /// The layout and section the blocks around the cursor are (for a file without `layout`
    /// blocks, layout 0).
    func place(_ frames: [Frame]) -> (layout: Int?, section: Int?) {
        let hasLayouts = tree.statements.contains { if case .layout = $0.kind { return true } else { return false } }
        var layout: Int? = hasLayouts ? nil : 0
        var section: Int? = nil
        for f in frames {
            if f.isLayout { layout = f.index } else { section = f.index }
        }
        return (layout, section)
    }

    /// The identifier whose span holds `offset` (or ends at it) in the statement.
    func identifier(at offset: Int, in st: Statement) -> Identifier? {
        func inside(_ s: Span) -> Bool { offset >= s.start && offset <= s.end }
        func search(_ e: Expr) -> Identifier? {
            // A node's span holds its children's.
            guard inside(e.span) else { return nil }
            switch e {
            case .name(let id): return id
            case .list(let xs, _): return xs.lazy.compactMap(search).first
            case .unary(_, let x, _): return search(x)
            case .binary(let chain):
                return search(chain.head) ?? chain.operands.lazy.compactMap { search($0.rhs) }.first
            case .conditional(let c, let a, let b, _): return search(c) ?? search(a) ?? search(b)
            case .call(let call):
                let callee = call.callee, args = call.arguments
                if inside(callee.span) { return callee }
                return args.lazy.compactMap(search).first
            case .index(let a, let b, _): return search(a) ?? search(b)
            default: return nil
            }
        }
        switch st.kind {
        case .let(let d):
            if inside(d.name.span) { return d.name }
            if let p = d.parameters?.first(where: { inside($0.span) }) { return p }
            return search(d.value)
        case .expect(let e):
            return search(e.condition)
        case .change(let c):
            return c.arguments.lazy.compactMap(search).first
        case .group(let g):
            return search(g.width) ?? search(g.height) ?? g.count.flatMap(search)
        case .item(let item):
            return search(item.width) ?? search(item.height)
        case .to(let stop):
            return search(stop.x) ?? search(stop.y) ?? stop.step.flatMap(search)
        case .setting(let s):
            for a in s.arguments {
                switch a {
                case .value(let e), .adaptive(let e, _), .side(_, let e): if let id = search(e) { return id }
                case .size(let w, let h, _): if let id = search(w) ?? search(h) { return id }
                case .word: break
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// The `let` that declares binding `k`, searched through the whole tree.
    func declaration(of k: Int32) -> LetDecl? {
        var pending = [tree.statements]
        while let statements = pending.popLast() {
            for st in statements {
                switch st.kind {
                case .let(let d) where d.name.binding == k: return d
                case .layout(let b), .section(let b): pending.append(b.statements)
                default: break
                }
            }
        }
        return nil
    }

    // MARK: - Definition

    /// Where the `let` (or parameter) of the name at `offset` is declared.
    func definition(at offset: Int) -> JSON {
        let (_, outer) = locate(offset)
        guard let st = outer.map({ Analysis.innerStatement($0, at: offset) ?? $0 }), let id = identifier(at: offset, in: st), id.binding != -1,
              Int(id.binding) < tree.bindings.count else { return .null }
        let span = tree.bindings[Int(id.binding)].span
        return .object([("uri", .string(uri)), ("range", lines.range(span))])
    }

    // MARK: - Hover

    func hover(at offset: Int) -> JSON {
        let (frames, statement) = locate(offset)
        var text: String? = nil
        var range: Span? = nil
        // A statement inside an `attach`, `appear`/`disappear` or `update` block belongs to it:
        // its settings are the block's own, not the section's cascaded values.
        let inner = statement.flatMap { Analysis.innerStatement($0, at: offset) }
        if let st = statement, inner == nil, let (word, about) = Analysis.blockWord(st, at: offset) {
            text = about
            range = word
        }
        if text == nil, let st = inner ?? statement {
            if case .setting(let s) = st.kind, offset >= s.name.span.start, offset <= s.name.span.end,
               let info = settingInfo(s.name.text) {
                text = settingHover(info) + (inner == nil ? cascadedValue(of: s.name.text, frames) : "")
                range = s.name.span
            } else if case .change(let c) = st.kind, offset >= c.word.start, offset <= c.word.end {
                text = LanguageReference.hover(block: c.kind == .delete ? BlockWord.delete.word : BlockWord.insert.word)
                range = c.word
            } else if let id = identifier(at: offset, in: st) {
                text = nameHover(id)
                range = id.span
            } else if case .setting(let s) = st.kind, let word = s.arguments.lazy.compactMap({ a -> Name? in
                if case .word(let n) = a, offset >= n.span.start, offset <= n.span.end { return n }
                return nil
            }).first {
                text = "`\(word.text)`: a keyword value of `\(s.name.text)`"
                range = word.span
            }
        }
        if text == nil, let f = frames.last, f.statement.span == statement?.span, offset >= f.block.keyword.start, offset <= f.block.keyword.end {
            text = f.isLayout ? layoutHover(frames) : sectionHover(frames)
            range = f.block.keyword
        }
        if text == nil, let f = frames.last, f.statement.span == statement?.span, let name = f.block.name, offset >= name.span.start, offset <= name.span.end {
            text = f.isLayout ? layoutHover(frames) : sectionHover(frames)
            range = name.span
        }
        guard let text else { return .null }
        var members: [(String, JSON)] = [("contents", .object([("kind", .string("markdown")), ("value", .string(text))]))]
        if let range { members.append(("range", lines.range(range))) }
        return .object(members)
    }

    /// A name in an expression: a `let`'s value when constant, a function's signature, an engine
    /// variable.
    func nameHover(_ id: Identifier) -> String {
        if id.binding >= 0, Int(id.binding) < tree.bindings.count {
            let binding = tree.bindings[Int(id.binding)]
            switch binding.kind {
            case .value:
                var text = "```wfl\nlet \(id.text)\n```"
                if let program = parsed.program, let v = program.constantValue(ofBinding: id.binding, named: id.text, at: id.span) {
                    text += "\n\n= `\(v.description)`"
                } else if let d = declaration(of: id.binding) {
                    text += "\n\n= `\(oneLine(source.text(d.value.span)))` (not a constant: it depends on the item or the engine)"
                }
                return text
            case .function:
                let parameters = declaration(of: id.binding)?.parameters?.map(\.text) ?? []
                return "```wfl\nlet \(id.text)(\(parameters.joined(separator: ", ")))\n```\n\na function of this file"
            case .parameter(let k):
                return "`\(id.text)`: parameter \(k + 1) of a function"
            }
        }
        if let text = EditorVocabulary.functionText(id.text) { return text }
        if let text = LanguageReference.hover(variable: id.text) { return text }
        return "`\(id.text)`"
    }

    func oneLine(_ s: String) -> String {
        let joined = s.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: " ") }.joined(separator: " ")
        return joined.count > 120 ? String(joined.prefix(117)) + "..." : joined
    }

    /// The layout the cursor is in, resolved (the cascade applied), or nil.
    func resolvedLayout(_ frames: [Frame]) -> ResolvedLayout? {
        guard let program = parsed.program, let k = place(frames).layout,
              case .success(let layout)? = program.resolve(layoutAt: k) else { return nil }
        return layout
    }

    /// "Here: ..." for a setting: its value after the cascade in the section the cursor is in, or
    /// in each section of the layout (or file) it is written in.
    func cascadedValue(of name: String, _ frames: [Frame]) -> String {
        let where_ = place(frames)
        var layouts: [ResolvedLayout] = []
        if let layout = resolvedLayout(frames) {
            layouts = [layout]
        } else if where_.layout == nil, let program = parsed.program {
            // At file level above `layout` blocks: what each layout comes to.
            for k in 0..<min(program.layoutNames.count, 4) {
                if case .success(let l)? = program.resolve(layoutAt: k) { layouts.append(l) }
            }
        }
        guard !layouts.isEmpty else { return "" }
        var lines: [String] = []
        for layout in layouts {
            let prefix = layouts.count > 1 || where_.layout == nil ? "layout '\(layout.name)'" : ""
            if let v = layoutValue(name, layout) {
                lines.append((prefix.isEmpty ? "" : prefix + ": ") + v)
                continue
            }
            let sections = where_.section.map { s in layout.sections.filter { $0.index == s } } ?? layout.sections
            for s in sections.prefix(6) {
                guard let v = sectionValue(name, s, layout) else { continue }
                let label = where_.section != nil && layouts.count == 1 ? "" : "section \(s.index)" + (s.name.map { " '\($0)'" } ?? "")
                let head = [prefix, label].filter { !$0.isEmpty }.joined(separator: ", ")
                lines.append((head.isEmpty ? "" : head + ": ") + v)
            }
            if where_.section == nil, layout.sections.count > 6 { lines.append("(and \(layout.sections.count - 6) more sections)") }
        }
        guard !lines.isEmpty else { return "" }
        return "\n\n**Here, after the cascade:**\n\n" + lines.map { "- " + $0 }.joined(separator: "\n")
    }

    func n(_ d: Double) -> String { NumberFormat.forPeople(d) }

    /// A setting's value in the layout itself (the layout-wide properties), or nil.
    func layoutValue(_ name: String, _ l: ResolvedLayout) -> String? {
        guard let info = settingInfo(name), info.properties.count == 1 else { return nil }
        switch info.properties[0] {
        case .style: return l.style.rawValue
        case .direction: return l.direction.rawValue
        case .container: return "\(n(l.containerWidth)) x \(n(l.containerHeight))"
        case .seed: return "\(l.seed)"
        case .zoomFirst: return l.zoomFirst.map { "\(n($0.width)) x \(n($0.height))" } ?? "none (only a horizontal flow zooms its first item)"
        default: return nil
        }
    }

    /// A setting's value in section `s` after the cascade, by the properties it sets: one value,
    /// or each property named (the sides of insets, the two spacings). Nil when hover does not
    /// show it.
    func sectionValue(_ name: String, _ s: ResolvedSection, _ l: ResolvedLayout) -> String? {
        guard let info = settingInfo(name) else { return nil }
        let properties = info.properties
        if properties.count == 1 { return value(of: properties[0], s, l) }
        var parts: [String] = []
        for (k, p) in properties.enumerated() {
            guard let v = value(of: p, s, l) else { return nil }
            let label = info.shape == .insets ? SettingTable.sides[k] : SettingTable.all.first { $0.properties == [p] }?.name ?? ""
            parts.append(label + " " + v)
        }
        return parts.joined(separator: ", ")
    }

    /// The value of one property in section `s`. Every property is named here, so that a new one
    /// is a decision (shown or not), not a forgotten string.
    func value(of p: Property, _ s: ResolvedSection, _ l: ResolvedLayout) -> String? {
        // An engine's own settings, as its configuration holds them; another engine's, their defaults.
        let waterfall = s.engine as? WaterfallEngine, flow = s.engine as? FlowEngine, shelf = s.engine as? ShelfEngine
        let grid = s.engine as? GridEngine
        switch p {
        case .columns, .rows:
            let lanes = waterfall?.lanes ?? shelf?.rows ?? grid?.lanes ?? 2
            return "\(lanes) lane\(lanes == 1 ? "" : "s") (" + (l.direction == .vertical ? "columns" : "rows") + ")"
        case .order: return (waterfall?.order ?? .shortest).rawValue
        case .rowSpacing: return n(s.rowSpacing)
        case .columnSpacing: return n(s.columnSpacing)
        case .insetsTop, .insetsLeft, .insetsBottom, .insetsRight: return side(s.insets, p.rawValue - Property.insetsTop.rawValue)
        case .headerInsetsTop, .headerInsetsLeft, .headerInsetsBottom, .headerInsetsRight:
            return side(s.headerInsets, p.rawValue - Property.headerInsetsTop.rawValue)
        case .footerInsetsTop, .footerInsetsLeft, .footerInsetsBottom, .footerInsetsRight:
            return side(s.footerInsets, p.rawValue - Property.footerInsetsTop.rawValue)
        case .backgroundInsetsTop, .backgroundInsetsLeft, .backgroundInsetsBottom, .backgroundInsetsRight:
            return side(s.backgroundInsets, p.rawValue - Property.backgroundInsetsTop.rawValue)
        case .background: return s.background.rawValue
        case .header: return s.header == 0 ? "none" : n(s.header)
        case .footer: return s.footer == 0 ? "none" : n(s.footer)
        case .pinHeaders: return s.pinHeaders ? "true" : "false"
        case .items: return "\(s.items)"
        case .justify: return (flow?.justify ?? .uikit).rawValue
        case .align: return (flow?.align ?? shelf?.align ?? .center).rawValue
        case .scale:
            let scale = waterfall?.scale ?? 0
            return scale == 0 ? "0 (no flooring)" : n(scale)
        case .span: return s.span.map { "a rule per item: `\(oneLine(source.text($0.span)))`" } ?? "1"
        case .sizeRule:
            switch s.size {
            case .length(let r): return "\(l.direction == .vertical ? "height" : "width") per item: `\(oneLine(source.text(r.span)))`"
            case .natural(let w, let h):
                let wt = w.span.length > 0 ? oneLine(source.text(w.span)) : "50"
                let ht = h.span.length > 0 ? oneLine(source.text(h.span)) : "50"
                return "size per item: `\(wt) x \(ht)`"
            }
        // Tile grids.
        case .packing: return (grid?.packing ?? .sparse).rawValue
        case .rowHeight, .columnWidth: return grid.map { $0.lineLength.map(n) ?? "square cells (the lane width)" }
        case .tile:
            guard let c = s.rules[.tileColumns], let r = s.rules[.tileRows] else { return "1 x 1" }
            return "a tile per item: `\(oneLine(source.text(c.span))) x \(oneLine(source.text(r.span)))`"
        // The layout's own (`layoutValue`), and those hover does not show yet.
        case .style, .container, .direction, .zoomFirst, .seed, .layoutDirection, .snapping: return nil
        case .pinFooters, .paging, .collapseEmpty, .alpha, .zoom, .zIndex: return nil
        case .attachWhen, .attachAnchor, .attachOffset: return nil
        case .appearAlpha, .appearZoom, .appearOffset, .disappearAlpha, .disappearZoom, .disappearOffset: return nil
        // Self-sizing cells.
        case .estimate:
            guard let e = s.estimate else { return "none" }
            let text = e.width.map { "\(oneLine(source.text($0.span))) x " } ?? ""
            return "self-sizing: `\(text)\(oneLine(source.text(e.length.span)))` per cell until measured"
        // The environment: the layout's (hover shows the insets measured from it).
        case .safeAreaTop, .safeAreaLeft, .safeAreaBottom, .safeAreaRight: return nil
        case .layoutMarginsTop, .layoutMarginsLeft, .layoutMarginsBottom, .layoutMarginsRight: return nil
        case .readableWidth, .insetsReference, .device: return nil
        case .groupSpacing: return (s.engine as? GroupsEngine).map { n($0.groupSpacing) }
        case .itemSpacing, .groupFrame: return nil
        case .translate, .rotate, .appearTranslate, .appearRotate, .disappearTranslate, .disappearRotate: return nil
        }
    }

    /// One side of insets, by its index in `Side` order.
    func side(_ i: Insets, _ k: Int) -> String {
        switch Side(rawValue: k) {
        case .top?: return n(i.top)
        case .left?: return n(i.left)
        case .bottom?: return n(i.bottom)
        case .right?: return n(i.right)
        case nil: return ""
        }
    }

    func layoutHover(_ frames: [Frame]) -> String {
        guard let k = place(frames).layout, let program = parsed.program, k < program.layoutNames.count else {
            return "`layout`: a layout (the file has errors, so nothing more is known)"
        }
        let name = program.layoutNames[k]
        let run = evaluated
        guard let table = run.tables.first(where: { $0.name == name }) else {
            return "layout `\(name)` (it does not evaluate)"
        }
        let content = table.contentSize, container = table.containerSize
        let cells = table.elements.filter { $0.kind == .cell }.count
        return "layout `\(name)`: \(table.style.rawValue) \(table.direction.rawValue), container \(n(container.width)) x \(n(container.height)), "
            + "content \(n(content.width)) x \(n(content.height)); \(cells) item\(cells == 1 ? "" : "s")"
    }

    /// `section`: its extent (the frames of its elements together) and its item count.
    func sectionHover(_ frames: [Frame]) -> String {
        let where_ = place(frames)
        guard let k = where_.layout, let s = where_.section, let program = parsed.program, k < program.layoutNames.count else {
            return "`section`: a section (the file has errors, so nothing more is known)"
        }
        let name = program.layoutNames[k]
        guard let table = evaluated.tables.first(where: { $0.name == name }) else {
            return "section \(s) (the layout does not evaluate)"
        }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var items = 0
        for e in table.elements where e.section == s {
            if e.kind == .cell { items += 1 }
            minX = min(minX, e.frame.x)
            minY = min(minY, e.frame.y)
            maxX = max(maxX, e.frame.maxX)
            maxY = max(maxY, e.frame.maxY)
        }
        let label = frames.last?.block.name.map { " '\($0.text)'" } ?? ""
        guard minX.isFinite else { return "section \(s)\(label) of `\(name)`: no elements, \(items) items" }
        return "section \(s)\(label) of `\(name)`: \(items) item\(items == 1 ? "" : "s"); extent x \(n(minX))...\(n(maxX)), y \(n(minY))...\(n(maxY)) "
            + "(\(n(maxX - minX)) x \(n(maxY - minY)))"
    }

    // MARK: - Completion

    func completion(at offset: Int) -> JSON {
        let bytes = source.bytes
        let o = Swift.min(offset, bytes.count)
        // The word being typed, and the statement's text before it on this line.
        var wordStart = o
        while wordStart > 0, isWordByte(bytes[wordStart - 1]) { wordStart -= 1 }
        let line = source.lineIndex(of: o)
        var stmtStart = source.lineStarts[line]
        for k in stmtStart..<wordStart where bytes[k] == UInt8(ascii: "{") || bytes[k] == UInt8(ascii: ";") { stmtStart = k + 1 }
        let before = String(decoding: bytes[stmtStart..<wordStart], as: UTF8.self)
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        let (frames, _) = locate(wordStart)
        let inSection = frames.last.map { !$0.isLayout } ?? false
        let inLayout = frames.contains { $0.isLayout }

        var items: [JSON] = []
        func add(_ label: String, _ kind: Int, _ detail: String, _ documentation: String? = nil) {
            var m: [(String, JSON)] = [("label", .string(label)), ("kind", .number(Double(kind))), ("detail", .string(detail))]
            if let documentation {
                m.append(("documentation", .object([("kind", .string("markdown")), ("value", .string(documentation))])))
            }
            items.append(.object(m))
        }
        // The variables of `places` (the table's rows for what is being written), `random` where
        // it may be called, and the functions of `expect` in an `expect`; every one for nil (the
        // value of a `let`, read wherever it is used).
        func expressionItems(_ places: [VariablePlace]?) {
            for (name, kind) in namesInScope(at: wordStart, frames) {
                add(name, kind == .function ? 3 : 6, kind == .function ? "function of this file" : "let of this file")
            }
            let random = places.map { $0.contains(where: \.random) } ?? true
            for f in EditorVocabulary.functions where random || f.name != Builtin.random.name {
                add(f.name, 3, EditorVocabulary.signature(of: f.name) ?? f.name)
            }
            if places?.contains(where: { $0.words.contains("expect") }) == true {
                for f in EditorVocabulary.expectFunctions { add(f.name, 3, EditorVocabulary.signature(of: f.name) ?? f.name) }
            }
            for v in EditorVocabulary.variables where places?.contains(where: { $0.variables.contains(v) }) ?? true {
                add(v, 6, "engine variable: " + EditorVocabulary.variableMeaning(v))
            }
            add("true", 21, "boolean")
            add("false", 21, "boolean")
        }

        // Inside an `attach`, `appear`/`disappear` or `update` block only its own words stand.
        let statements = frames.last?.block.statements ?? tree.statements
        let inner = Analysis.innerBlock(statements, at: wordStart)
        func places(setting name: String) -> [VariablePlace] {
            Builtins.places.filter { $0.settings.contains(name) && (inner.map($0.blocks.contains) ?? $0.blocks.isEmpty) }
        }
        if words.isEmpty, let inner {
            let block = inner.info
            for name in block.settings {
                if let info = settingInfo(name) { add(name, 10, "setting, for example '\(info.example)'", settingHover(info)) }
            }
            for word in block.statements {
                if word == "let" {
                    add("let", 14, "let NAME = EXPR")
                } else if word == "expect" {
                    add("expect", 14, inner == .update ? "expect CONDITION: read against the table after the update" : "expect CONDITION")
                } else if let info = BlockTable.info(word) {
                    add(word, 14, info.detail)
                }
            }
        } else if words.isEmpty {
            // The start of a statement: the settings valid here (not those of a block) and the
            // statement words.
            for info in EditorVocabulary.settings where info.level != .attached && info.level != .group && !(inSection && info.level == .layout) {
                add(info.name, 10, "setting, for example '\(info.example)'", settingHover(info))
            }
            add("let", 14, "let NAME = EXPR")
            add("expect", 14, "expect CONDITION")
            if !inSection { add("section", 14, "section [NAME] { ... }") }
            for block in BlockTable.read where block.within == nil { add(block.word.word, 14, block.detail) }
            if !inLayout && !inSection { add("layout", 14, "layout NAME { ... }") }
        } else if let info = settingInfo(words[0]) {
            switch info.shape {
            case .word(let values):
                if words.count == 1 { for v in values { add(v, 20, "value of '\(info.name)'") } }
            case .insets:
                for side in SettingTable.sides { add(side, 20, "side of '\(info.name)'") }
                expressionItems(places(setting: info.name))
            case .device:
                // `device NAME [portrait | landscape]`: the names, then the orientations.
                if words.count == 1 { for d in Devices.names { add(d, 20, Devices.meaning(of: d) ?? "a device") } }
                if words.count == 2 { for o in Orientation.allCases { add(o.rawValue, 20, Devices.meaning(of: o.rawValue) ?? "") } }
            case .lanes:
                if words.count == 1 { add("adaptive", 3, "adaptive(MIN): as many lanes as fit, each at least MIN") }
                expressionItems(places(setting: info.name))
            default:
                expressionItems(places(setting: info.name))
            }
        } else if words[0] == "let" {
            if before.contains("=") { expressionItems(nil) }
        } else if words[0] == "layout" || words[0] == "section" {
            // A block's name is the user's to write.
        } else {
            // `expect`, `insert`, `delete`: the places of their words; anything else may be a
            // `let` being written.
            // The places of the block around the cursor (an `expect` in a `scroll` block reads the
            // path's variables; one outside does not).
            let all = Builtins.places.filter { $0.words.contains(words[0]) }
            let here = all.filter { inner.map($0.blocks.contains) ?? $0.blocks.isEmpty }
            let covering = here.isEmpty ? all.filter { $0.blocks.isEmpty } : here
            expressionItems(covering.isEmpty ? nil : covering)
        }
        return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
    }

    func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == UInt8(ascii: "_") || b >= 0x80
    }

    enum NameKind { case value, function }

    /// The `let`s visible at `offset`: those before it in each block around it (docs/language.md,
    /// "let and names"), the innermost first, and the parameters of a function being written.
    func namesInScope(at offset: Int, _ frames: [Frame]) -> [(String, NameKind)] {
        var seen = Set<String>()
        var out: [(String, NameKind)] = []
        var blocks: [[Statement]] = [tree.statements]
        blocks += frames.map(\.block.statements)
        for statements in blocks.reversed() {
            for st in statements {
                guard case .let(let d) = st.kind else { continue }
                if offset >= st.span.start, offset <= st.span.end {
                    // Inside this `let`: its parameters, not itself.
                    for p in d.parameters ?? [] where seen.insert(p.text).inserted { out.append((p.text, .value)) }
                    continue
                }
                guard st.span.end <= offset, seen.insert(d.name.text).inserted else { continue }
                out.append((d.name.text, d.parameters == nil ? .value : .function))
            }
        }
        return out
    }

    // MARK: - Symbols

    /// Layouts, sections and `let`s, nested as written.
    func symbols() -> JSON {
        func symbol(_ name: String, _ detail: String, _ kind: Int, _ range: Span, _ selection: Span, _ children: [JSON]) -> JSON {
            var m: [(String, JSON)] = [
                ("name", .string(name)), ("detail", .string(detail)), ("kind", .number(Double(kind))),
                ("range", lines.range(range)), ("selectionRange", lines.range(selection)),
            ]
            if !children.isEmpty { m.append(("children", .array(children))) }
            return .object(m)
        }
        func walk(_ statements: [Statement]) -> [JSON] {
            var out: [JSON] = []
            var sections = 0
            for st in statements {
                switch st.kind {
                case .let(let d):
                    let detail = d.parameters.map { "(" + $0.map(\.text).joined(separator: ", ") + ")" } ?? oneLine(source.text(d.value.span))
                    out.append(symbol(d.name.text, detail, d.parameters == nil ? 13 : 12, st.span, d.name.span, []))
                case .layout(let b):
                    out.append(symbol(b.name?.text ?? "layout", "layout", 3, st.span, b.name?.span ?? b.keyword, walk(b.statements)))
                case .section(let b):
                    out.append(symbol(b.name?.text ?? "section \(sections)", "section \(sections)", 23, st.span, b.name?.span ?? b.keyword, walk(b.statements)))
                    sections += 1
                case .attach(let b):
                    // An attached view: a property of the cells (SymbolKind 7).
                    out.append(symbol(b.name?.text ?? "attach", "attach", 7, st.span, b.name?.span ?? b.keyword, walk(b.statements)))
                default:
                    break
                }
            }
            return out
        }
        return .array(walk(tree.statements))
    }

    // MARK: - Formatting

    /// `wfl fmt`'s text as one edit of the whole document; nil with the reason when the file has
    /// errors.
    func formatting() -> Result<JSON, FormatRefusal> {
        switch onLargeStack({ [source] in Formatter.format(source) }) {
        case .failure(.errors(let ds)):
            let first = ds.first { $0.severity == .error }
            return .failure(FormatRefusal(message: "the file has errors, so it is left as it is" + (first.map { ": " + $0.message } ?? "")))
        case .failure(.wouldChangeMeaning(let why)):
            return .failure(FormatRefusal(message: "cannot format: \(why); this is a bug of wfl"))
        case .success(let text):
            if Array(text.utf8) == source.bytes { return .success(.array([])) }
            return .success(.array([.object([("range", lines.whole), ("newText", .string(text))])]))
        }
    }

    struct FormatRefusal: Error { var message: String }

    // MARK: - Settings

    func settingInfo(_ name: String) -> SettingInfo? { SettingTable.info(name) }

    /// The hover text of a setting, made from its row of the table alone.
    func settingHover(_ info: SettingInfo) -> String {
        EditorVocabulary.settingText(info)
    }
}
