/// Resolves one layout: applies the cascade, evaluates layout and section settings with their
/// checks, and compiles the item rules (docs/language.md, "Settings", "Values", "Limits").

/// The most items a file may have, all the layouts evaluated together, and the most lanes a section
/// may have (docs/language.md, "Limits").
package let maxItemsPerFile = 10_000_000
package let maxLanes = 1_000

/// The sections of a file without `layout` blocks as the last evaluation without errors resolved
/// them, kept by the program of the REPL's session (`Program.memoizesSections`): while nothing
/// the sections inherit changes (`Program.generation`), the sections an entry appends are the
/// only ones resolved again. A section's resolution depends on its own block, the file's block
/// and its index, and the file's block is what `generation` follows; the memo holds no
/// diagnostics, since it is kept only for a resolution that reported none.
final class SectionMemo {
    var generation = -1
    var records: [ObjectIdentifier] = []
    var styles: [LayoutStyle] = []
    var sections: [ResolvedSection] = []
    /// How many sections the last resolution took from the memo.
    var reused = 0
    /// The table the last evaluation laid out, with the engine's warnings, for
    /// `Program.appendSections`.
    var table: AttributeTable? = nil
    var warnings: [Diagnostic] = []
    /// What the resolutions of `sections` looked up (`PropertyReads`), outside the sections'
    /// engines and inside them: a setting typed again that only engines read keeps the sections
    /// and configures their engines again (`Program.lastChange`).
    var outside = PropertyMask()
    var engineReads = PropertyMask()
    /// The items of `sections` as the item limit counts them.
    var countedItems = 0
    /// True when `table` was made by appending sections (`Program.appendSections`): its sections
    /// neither decorate nor have transition rules.
    var plainTable = false
}

/// The properties a resolution looks up, apart from those a section's engine looks up in its
/// `configure` (`SectionMemo`). A class: the resolver is copied into the engine's reader and back.
final class PropertyReads {
    var outside = PropertyMask()
    var engine = PropertyMask()
    var inEngine = false
}

extension ResolvedSection {
    /// What the item limit counts of a section: the larger of its item counts before and after
    /// its update, since both tables are laid out.
    var countedItems: Int { Swift.max(items, update?.countAfter ?? 0) }
}

/// A machine kept between uses, taken out while in use so that it is not copied.
final class MachineBox {
    var machine = Machine()

    func take() -> Machine {
        var m = Machine(vars: [])
        swap(&m, &machine)
        return m
    }

    /// The machine taken and restarted for section `s`: its seed, the container and `s` set, as
    /// both a resolution and a reconfiguration of the section begin.
    func take(section s: Int, cw: Double, ch: Double, seed: UInt64) -> Machine {
        var m = take()
        m.restart(seed: seed)
        m.set(.cw, cw)
        m.set(.ch, ch)
        m.set(.s, Double(s))
        return m
    }
}

/// Whether settings written above the sections are used in a section of a style (`Resolver.isUsed`).
final class UsedSettings {
    var known: [(span: Span, style: LayoutStyle, used: Bool)] = []
}

struct Resolver {
    let program: Program
    let layout: BlockRecord?
    let name: String
    /// The items of the layouts resolved before this one in the same evaluation: the limit counts
    /// the file, and is checked here, before any table is allocated. nil once the limit has been
    /// reported for the file (said once).
    let itemsBefore: Int?
    /// The REPL's memo of sections (`Program.memo`) when this resolution may read and keep it;
    /// nil for a query, which changes nothing.
    let memo: SectionMemo?
    var diagnostics: [Diagnostic] = []
    /// The machine each section's settings are evaluated with, restarted for each
    /// (`Machine.restart`); boxed, since the resolver is copied where a nested function captures it.
    let sectionMachine = MachineBox()
    /// What `isUsed` found, for this resolution's direction.
    let usedSettings = UsedSettings()
    /// The properties this resolution looked up, for the REPL's memo.
    let reads = PropertyReads()
    var style: LayoutStyle = .waterfall
    var direction: Direction = .vertical
    /// The last section's own box of rare settings, which the next one shares when it holds the
    /// same (`ResolvedSection.shareRareSettings`).
    var lastRare: RareSectionSettings? = nil

    init(program: Program, layout: BlockRecord?, name: String, itemsBefore: Int? = 0, query: Bool = false) {
        self.program = program
        self.layout = layout
        self.name = name
        self.itemsBefore = itemsBefore
        memo = query ? nil : program.memo
    }

    var compiler: Compiler { program.compiler }

    func text(_ span: Span) -> String { program.source.text(span) }

    // MARK: Unused settings

    /// Why a written setting does nothing in this layout, and what to write instead; nil when it
    /// is used.
    func unusedMessage(_ w: Written) -> (String, String?)? {
        let name = w.setting.name.text
        // Only a message quotes the arguments: most settings are used, and this runs for each.
        func argText() -> String {
            w.setting.arguments.isEmpty ? "" : text(w.setting.arguments[0].span.to(w.setting.arguments[w.setting.arguments.count - 1].span))
        }
        return EngineTable.refusal(name, arguments: argText(), style: style, direction: direction)
    }

    /// The written value of a property, innermost block first; nil when the innermost one is a
    /// setting the current `style` does not use (an error where it is written in the section,
    /// reported by `resolve`; inherited, the default applies).
    func lookup(_ property: Property, _ blocks: [BlockRecord]) -> Written? {
        if reads.inEngine { reads.engine |= property.bit } else { reads.outside |= property.bit }
        for b in blocks {
            if let w = b.properties[property] { return isUsed(w) ? w : nil }
        }
        return nil
    }

    /// `unusedMessage(w) == nil`, remembered for a setting written above the sections: each
    /// section asks again, and the answer looks the setting's name up in the engines' table.
    func isUsed(_ w: Written) -> Bool {
        guard w.level != .section else { return unusedMessage(w) == nil }
        if let k = usedSettings.known.firstIndex(where: { $0.span == w.span && $0.style == style }) { return usedSettings.known[k].used }
        let used = unusedMessage(w) == nil
        if usedSettings.known.count < 64 { usedSettings.known.append((w.span, style, used)) }
        return used
    }

    /// The engine of a section whose blocks are `blocks`, innermost first. `style shelf` needs a
    /// vertical layout: an error where written in this layout, ignored (the default applies) when
    /// inherited from the file above `layout` blocks.
    mutating func sectionStyle(_ blocks: [BlockRecord]) -> LayoutStyle {
        guard let w = program.lookup(.style, blocks, unused: { _ in false }), case .word(let n) = w.value else { return .waterfall }
        guard let st = LayoutStyle(rawValue: n.text), let declaration = EngineTable.declaration(st) else { return .waterfall }
        // An engine that needs one scroll direction (a shelf: vertical).
        if let needed = declaration.direction, needed != direction, let (message, help) = declaration.directionRefusal {
            if w.level == .file, program.hasLayoutBlocks { return .waterfall }
            fail(.error(.unusedSetting, DiagnosticText(message), at: n.span, help: help), key: w.span)
            return .waterfall
        }
        return st
    }

    // MARK: Reporting

    mutating func fail(_ d: Diagnostic, key: Span? = nil) {
        if let key {
            guard program.reported.insert("\(key)").inserted else { return }
        }
        diagnostics.append(d)
    }

    /// Evaluates a setting's expression; on error reports it (once per setting) and gives nil.
    mutating func evaluate(_ e: Expr, _ w: Written, _ m: inout Machine, place: String) -> Value? {
        let node = compiler.compile(e)
        m.reserveLets(compiler.letCount)
        m.unwind()
        m.place = "'\(w.setting.name.text)'"
        do {
            return try node.code(&m)
        } catch {
            fail(error.at("in '\(w.setting.name.text)'\(place)").diagnostic, key: w.span)
            return nil
        }
    }

    enum Bound { case none, nonNegative, positive, atLeastOne }

    /// The number written for `property` in `blocks` (the innermost first) of section `s`, with
    /// its checks, named as written ('spacing' sets 'rowSpacing' and 'columnSpacing'); `fallback`
    /// when it is not written, or after reporting an error.
    mutating func number(of property: Property, in blocks: [BlockRecord], section s: Int, default fallback: Double,
                         whole: Bool = false, bound: Bound = .nonNegative, _ m: inout Machine) -> Double {
        guard let w = lookup(property, blocks), case .expr(let e) = w.value else { return fallback }
        return number(e, w, &m, place: Resolver.place(of: w, section: s), what: "'\(w.setting.name.text)'", whole: whole, bound: bound) ?? fallback
    }

    /// A numeric setting with its checks; nil after reporting an error.
    mutating func number(_ e: Expr, _ w: Written, _ m: inout Machine, place: String, what: String,
                         whole: Bool = false, bound: Bound = .nonNegative) -> Double? {
        guard let v = evaluate(e, w, &m, place: place) else { return nil }
        let setting = w.setting.name.text
        let inPlace = Resolver.inWords(place)
        guard case .number(let d) = v else {
            fail(.error(.wrongValueType, "\(what)\(inPlace) must be a number, not \(v.typeName)", at: e.span, help: "write, for example, '\(SettingTable.info(setting)?.example ?? setting)'"),
                 key: w.span)
            return nil
        }
        guard d.isFinite else {
            fail(.error(.valueOutOfRange, "\(what)\(inPlace) is \(NumberFormat.format(d)): it must be a finite number", at: e.span), key: w.span)
            return nil
        }
        if whole && !isWhole(d) {
            fail(.error(.valueOutOfRange, "\(what)\(inPlace) must be a whole number, not \(NumberFormat.format(d))", at: e.span,
                        help: "write '\(setting) \(NumberFormat.format(d.rounded()))'"), key: w.span)
            return nil
        }
        switch bound {
        case .none: break
        case .nonNegative where d < 0:
            fail(.error(.valueOutOfRange, "\(what)\(inPlace) cannot be negative: it is \(NumberFormat.format(d))", at: e.span), key: w.span)
            return nil
        case .positive where d <= 0:
            fail(.error(.valueOutOfRange, "\(what)\(inPlace) must be more than 0, not \(NumberFormat.format(d))", at: e.span), key: w.span)
            return nil
        case .atLeastOne where d < 1:
            fail(.error(.valueOutOfRange, "\(what)\(inPlace) must be at least 1, not \(NumberFormat.format(d))", at: e.span), key: w.span)
            return nil
        default: break
        }
        return d
    }

    /// Where a section's setting is read, for its messages: " of section 2" when it is written in
    /// that section. One written above the sections (at file or layout level) is not "of section
    /// 0": no place, or " for section 2" when a later section is the first whose value is wrong.
    static func place(of w: Written, section s: Int) -> String {
        w.level == .section ? " of section \(s)" : s == 0 ? "" : " for section \(s)"
    }

    /// A place after a setting's name: " of section 2" reads " in section 2".
    static func inWords(_ place: String) -> String {
        place.hasPrefix(" of ") ? " in " + place.dropFirst(4) : place
    }

    // MARK: Resolving

    mutating func resolve() -> Result<ResolvedLayout, LayoutFailure> {
        let layoutBlocks = [layout, program.file].compactMap { $0 }
        // Direction, then each section's style: they decide which settings are used.
        if case .word(let n)? = program.lookup(.direction, layoutBlocks, unused: { _ in false })?.value {
            direction = Direction(rawValue: n.text) ?? .vertical
        }
        let vertical = direction == .vertical
        let sectionRecords: [BlockRecord] = layout?.sections ?? program.file.sections
        // (Made element by element: a cast of the whole array checks each element at run time.)
        let records: [BlockRecord?] = sectionRecords.isEmpty ? [nil] : sectionRecords.map { $0 }
        // The sections resolved before, unchanged: the memo's, when they are all still there first.
        var memoSections: [ResolvedSection] = []
        var known = 0
        // True when the memo's sections are kept but their engines read a setting typed again.
        var reconfigure = false
        reads.outside |= Property.style.bit | Property.direction.bit
        memo?.reused = 0
        if layout == nil, !sectionRecords.isEmpty, let memo, memo.generation >= 0,
           memo.records.count <= records.count, memo.sections.count == memo.records.count {
            var current = memo.generation == program.generation
            if !current, let change = program.lastChange, change.generation == program.generation,
               memo.generation == program.generation - 1, !memo.outside.intersects(change.properties) {
                current = true
                reconfigure = memo.engineReads.intersects(change.properties)
            }
            if current, zip(memo.records, records).allSatisfy({ $0 == $1.map(ObjectIdentifier.init) }) {
                known = memo.records.count
                // The last table holds these sections as they were only when no engine changes.
                memo.reused = reconfigure ? 0 : known
                // Taken out of the memo, so that appending to it does not copy it.
                swap(&memoSections, &memo.sections)
                memo.generation = -1
            }
        }
        misplacedUpdates(sectionRecords)
        misplacedGroups(sectionRecords)
        var styles = Array(memo?.styles.prefix(known) ?? [])
        styles.reserveCapacity(records.count)
        for rec in records[known...] { styles.append(sectionStyle(program.chain(layout, rec))) }
        let layoutStyle = LayoutStyle.common(styles)

        // Settings a section's engine does not use (docs/language.md, "Blocks and cascading"):
        // an error written in that section; written in this layout (or, with no layout blocks,
        // in the file), an error only when no section it reaches uses it; a layout setting goes
        // by section 0. Inherited from the file above layout blocks, they are ignored.
        for (k, rec) in sectionRecords.enumerated() where k >= known {
            style = styles[k]
            for w in rec.settings {
                if let (message, help) = unusedMessage(w) {
                    fail(.error(.unusedSetting, DiagnosticText(message), at: w.setting.name.span, help: help), key: w.span)
                }
            }
        }
        for w in (layout ?? program.file).settings {
            guard let info = SettingTable.info(w.setting.name.text) else { continue }
            let properties = info.properties(of: w.setting.arguments)
            // The sections it reaches, until one uses it.
            var first: (String, String?)? = nil
            var used = false
            for (k, rec) in records.enumerated() where !used && (info.level != .layout || k == 0) {
                guard info.level == .layout || rec == nil || properties.contains(where: { rec!.properties[$0] == nil }) else { continue }
                style = styles[k]
                if let m = unusedMessage(w) { first = first ?? m } else { used = true }
            }
            if !used, let (message, help) = first {
                fail(.error(.unusedSetting, DiagnosticText(message), at: w.setting.name.span, help: help), key: w.span)
            }
        }
        style = styles[0]
        var rightToLeft = false
        if case .word(let n)? = lookup(.layoutDirection, layoutBlocks)?.value { rightToLeft = n.text == "rightToLeft" }
        var snapping = Snapping.next
        if case .word(let n)? = lookup(.snapping, layoutBlocks)?.value { snapping = Snapping(rawValue: n.text) ?? .next }

        var m = Machine(letCount: compiler.letCount)
        m.fresh()
        let place = ""
        // container W x H, both > 0.
        var cw = 375.0, ch = 812.0
        if let d = program.device {
            (cw, ch) = (d.width, d.height)
        } else if let w = lookup(.container, layoutBlocks) {
            if case .size(let we, let he) = w.value {
                cw = number(we, w, &m, place: place, what: "the container's width", bound: .positive) ?? cw
                ch = number(he, w, &m, place: place, what: "the container's height", bound: .positive) ?? ch
            } else if let d = Resolver.device(of: w) {
                (cw, ch) = (d.width, d.height)
            }
        }
        m.set(.cw, cw)
        m.set(.ch, ch)
        let environment = resolveEnvironment(layoutBlocks, cw: cw, ch: ch, &m)
        var seed: UInt64 = 0
        if let w = lookup(.seed, layoutBlocks), case .expr(let e) = w.value,
           let d = number(e, w, &m, place: place, what: "the seed", whole: true) {
            if d >= 0x1p53 {
                fail(.error(.valueOutOfRange, "the seed must be less than 2^53 (9007199254740992), not \(NumberFormat.format(d))", at: e.span), key: w.span)
            } else {
                seed = UInt64(d)
            }
        }

        // zoomFirst W x H: where section 0's engine reads it (a horizontal flow; elsewhere
        // `lookup` gives nil and `unusedMessage` reports it).
        var zoomFirst: (width: Double, height: Double)? = nil
        if let w = lookup(.zoomFirst, layoutBlocks), case .size(let we, let he) = w.value {
            let zw = number(we, w, &m, place: place, what: "the width of 'zoomFirst'")
            let zh = number(he, w, &m, place: place, what: "the height of 'zoomFirst'")
            if let zw, let zh { zoomFirst = (zw, zh) }
            if rightToLeft {
                fail(.error(.rightToLeftUnsupported, "'zoomFirst' cannot be used with 'layoutDirection rightToLeft'", at: w.setting.name.span,
                            help: "remove one of them; a later version may define a mirrored carousel"), key: w.span)
            }
        }

        var sections: [ResolvedSection] = []
        swap(&sections, &memoSections)
        // Room for all of them at once: growing by doubling held a file of sections twice. The
        // REPL's sections, a few more at each entry, grow by half (room for exactly one more
        // moved every section at every entry).
        if sections.capacity < records.count {
            sections.reserveCapacity(known == 0 ? records.count : Swift.max(records.count, sections.capacity + sections.capacity / 2))
        }
        // The memo's sections, counted when they were resolved (a loop over them copied each).
        var totalItems = known > 0 ? memo?.countedItems ?? 0 : 0
        if reconfigure {
            for s in sections.indices {
                style = styles[s]
                configureAgain(&sections[s], records[s], cw: cw, ch: ch, seed: seed)
            }
        }
        for (s, rec) in records.enumerated() where s >= known {
            style = styles[s]
            let blocks = program.chain(layout, rec)
            if let sec = resolveSection(s, rec, blocks, cw: cw, ch: ch, vertical: vertical, seed: seed,
                                        environment: environment, rightToLeft: rightToLeft) {
                totalItems += sec.countedItems
                if totalItems > maxItemsPerFile {
                    let w = lookup(.items, blocks)
                    fail(.error(.tooManyItems, "the layout '\(name)' has more than 10,000,000 items, the most wfl lays out",
                                at: w?.span ?? rec?.keyword ?? Span(0, 0), help: "lower 'items'"))
                    break
                }
                if let itemsBefore, itemsBefore + totalItems > maxItemsPerFile {
                    let w = lookup(.items, blocks)
                    fail(.error(.tooManyItems, "with the layout '\(name)' the file has more than 10,000,000 items, the most wfl lays out in one file",
                                at: w?.span ?? rec?.keyword ?? layout?.keyword ?? Span(0, 0),
                                notes: [Note("the layouts before it have \(itemsBefore) item\(itemsBefore == 1 ? "" : "s"), and '\(name)' has \(totalItems) up to this section")],
                                help: "lower 'items', or lay out fewer layouts at a time"))
                    break
                }
                sections.append(sec)
            }
        }
        if rightToLeft, !vertical, let sec = sections.first(where: { $0.estimate != nil }), let e = sec.estimate {
            fail(.error(.estimateUnsupported, "'estimate' cannot be used in a horizontal layout with 'layoutDirection rightToLeft'", at: e.place,
                        help: "remove 'estimate', or make the layout vertical or left to right"), key: e.place)
        }
        if diagnostics.hasErrors { return .failure(LayoutFailure(diagnostics)) }
        if layout == nil, !sectionRecords.isEmpty, sections.count == sectionRecords.count, let memo {
            if known == 0 { (memo.outside, memo.engineReads) = (PropertyMask(), PropertyMask()) }
            memo.outside |= reads.outside
            memo.countedItems = totalItems
            memo.engineReads |= reads.engine
            memo.generation = program.generation
            memo.records = sectionRecords.map(ObjectIdentifier.init)
            memo.styles = styles
            memo.sections = sections
        }
        var resolved = ResolvedLayout(name: name, style: layoutStyle, direction: direction, containerWidth: cw, containerHeight: ch,
                                      seed: seed, sections: sections, zoomFirst: zoomFirst, rightToLeft: rightToLeft,
                                      snapping: snapping, letCount: compiler.letCount, functionBodies: compiler.functionBodies)
        resolved.attachedNames = program.attachNames
        resolved.safeArea = environment.safeArea
        resolved.device = environment.device
        return .success(resolved)
    }

    mutating func resolveSection(_ s: Int, _ rec: BlockRecord?, _ blocks: [BlockRecord], cw: Double, ch: Double,
                                 vertical: Bool, seed: UInt64, environment: Environment = Environment(),
                                 rightToLeft: Bool = false) -> ResolvedSection? {
        let errorsBefore = diagnostics.count
        var m = sectionMachine.take(section: s, cw: cw, ch: ch, seed: seed)
        defer { sectionMachine.machine = m }

        // Insets see s, cw and ch only; each side cascades on its own.
        m.available = VarSets.insets
        func insets(_ property: (Side) -> Property, _ setting: String, _ r: inout Resolver, _ m: inout Machine,
                    bound: Bound = .nonNegative) -> Insets {
            var out = Insets()
            for side in Side.allCases {
                guard let w = r.lookup(property(side), blocks), case .expr(let e) = w.value else { continue }
                let d = r.number(e, w, &m, place: Resolver.place(of: w, section: s), what: "the \(side.name) of '\(setting)'", bound: bound) ?? 0
                switch side {
                case .top: out.top = d
                case .left: out.left = d
                case .bottom: out.bottom = d
                case .right: out.right = d
                }
            }
            return out
        }
        var ins = insets(Property.insets, "insets", &self, &m)
        // The reference edges across the scroll axis (docs/layout.md, "The environment"): every
        // ins.left, ins.right (ins.top, ins.bottom when horizontal) reads e1 + ins.left, e2 + ins.right.
        var reference = InsetsReference.safeArea
        if let w = lookup(.insetsReference, blocks), case .word(let n) = w.value { reference = InsetsReference(rawValue: n.text) ?? .safeArea }
        let (e1, e2) = environment.edges(reference, vertical: vertical, cw: cw, rightToLeft: rightToLeft)
        if vertical { (ins.left, ins.right) = (ins.left + e1, ins.right + e2) } else { (ins.top, ins.bottom) = (ins.top + e1, ins.bottom + e2) }
        let headerInsets = insets(Property.headerInsets, "headerInsets", &self, &m)
        let footerInsets = insets(Property.footerInsets, "footerInsets", &self, &m)
        // backgroundInsets: sides may be negative (the background grows past the section).
        let backgroundInsets = insets(Property.backgroundInsets, "backgroundInsets", &self, &m, bound: .none)
        let aw = cw - ins.left - ins.right
        let ah = ch - ins.top - ins.bottom
        if diagnostics.count == errorsBefore {
            // The available length across the lanes must be more than 0 (docs/language.md, "Values").
            let (avail, a, b, across) = vertical ? (aw, Side.left, Side.right, "width") : (ah, Side.top, Side.bottom, "height")
            let (av, bv) = vertical ? (ins.left, ins.right) : (ins.top, ins.bottom)
            if avail <= 0, e1 + e2 > 0 {
                // The reference edges take part: the error names `insetsReference`.
                let w = lookup(.insetsReference, blocks)
                fail(.error(.noRoomAtReference, "'insetsReference \(reference.rawValue)' and the insets leave no room in section \(s): the reference edges \(NumberFormat.format(e1)) and \(NumberFormat.format(e2)) with the insets take \(NumberFormat.format(av + bv)) of the container's \(across), \(NumberFormat.format(vertical ? cw : ch))",
                            at: w?.setting.name.span ?? environment.place ?? rec?.keyword ?? Span(0, 0),
                            help: "measure the insets from nearer the edges ('insetsReference none'), or make the insets, margins or safe area smaller"),
                     key: w?.span)
            } else if avail <= 0 {
                let w = lookup(.insets(a), blocks) ?? lookup(.insets(b), blocks)
                fail(.error(.noRoom, "the insets leave no room in section \(s): \(a.name) \(NumberFormat.format(av)) and \(b.name) \(NumberFormat.format(bv)) \(avail < 0 ? "are more than" : "take all of") the container's \(across), \(NumberFormat.format(vertical ? cw : ch))",
                            at: w?.setting.name.span ?? rec?.keyword ?? Span(0, 0), help: "make the insets smaller or the container larger"),
                     key: w?.span)
            }
        }
        m.set(.aw, aw)
        m.set(.ah, ah)
        m.available = VarSets.section

        func value(_ property: Property, default d: Double, whole: Bool = false, bound: Bound = .nonNegative,
                   _ r: inout Resolver, _ m: inout Machine) -> Double {
            r.number(of: property, in: blocks, section: s, default: d, whole: whole, bound: bound, &m)
        }
        var items = value(.items, default: 0, whole: true, &self, &m)
        if items > Double(maxItemsPerFile), let w = lookup(.items, blocks) {
            fail(.error(.tooManyItems, "'items'\(Resolver.inWords(Resolver.place(of: w, section: s))) is \(NumberFormat.format(items)): a layout has at most 10,000,000 items", at: w.setting.name.span,
                        help: "lower 'items'"), key: w.span)
            items = 0
        }
        // Spacings may be negative: items then overlap (docs/language.md, "Settings").
        let rowSpacing = value(.rowSpacing, default: 10, bound: .none, &self, &m)
        let columnSpacing = value(.columnSpacing, default: 10, bound: .none, &self, &m)
        let header = value(.header, default: 0, &self, &m)
        let footer = value(.footer, default: 0, &self, &m)
        // A header or footer spans the container less its insets, which must leave it room;
        // the insets of one that is not there are not used.
        let headerAndFooter = [(headerInsets, "headerInsets", header, Property.headerInsets), (footerInsets, "footerInsets", footer, Property.footerInsets)]
        for (hi, word, thickness, property) in headerAndFooter where thickness > 0 {
            let left = vertical ? cw - hi.left - hi.right : ch - hi.top - hi.bottom
            if left < 0, let w = lookup(property(vertical ? .left : .top), blocks) ?? lookup(property(vertical ? .right : .bottom), blocks) {
                fail(.error(.noRoom, "'\(word)' leave no room in section \(s): the \(word == "headerInsets" ? "header" : "footer") would be \(NumberFormat.format(left)) \(vertical ? "wide" : "tall")",
                            at: w.setting.name.span, help: "make them smaller than the container"), key: w.span)
            }
        }
        func boolean(_ property: Property, _ word: String, _ r: inout Resolver, _ m: inout Machine) -> Bool {
            guard let w = r.lookup(property, blocks), case .expr(let e) = w.value, let v = r.evaluate(e, w, &m, place: Resolver.place(of: w, section: s)) else { return false }
            if case .boolean(let b) = v { return b }
            r.fail(.error(.wrongValueType, "'\(word)' takes a boolean (true or false), not \(v.typeName)", at: e.span,
                          help: "write '\(word) true'"), key: w.span)
            return false
        }
        let pinHeaders = boolean(.pinHeaders, "pinHeaders", &self, &m)
        let pinFooters = boolean(.pinFooters, "pinFooters", &self, &m)
        var collapseEmpty = CollapseEmpty.none
        if let w = lookup(.collapseEmpty, blocks), case .word(let n) = w.value { collapseEmpty = CollapseEmpty(rawValue: n.text) ?? .none }
        var background = BackgroundKind.none
        if let w = lookup(.background, blocks), case .word(let n) = w.value { background = BackgroundKind(rawValue: n.text) ?? .none }

        let engine = configure(s, rec, blocks, &m, available: (aw, ah), spacings: (rowSpacing, columnSpacing), errorsBefore: errorsBefore)

        // Groups: the top group, laid out once.
        let groups = resolveGroups(s, rec, blocks, aw: aw, ah: ah, &m)

        // Item rules, compiled once.
        var rules = attributeRules(blocks)
        if let w = lookup(.span, blocks), case .expr(let e) = w.value {
            rules[.span] = rule(e, w, what: "the span")
        }
        // A grid's `tile C x R`: two item rules, C drawn before R.
        if let w = lookup(.tile, blocks), case .size(let ce, let re) = w.value {
            rules[.tileColumns] = rule(ce, w, what: "the column count of 'tile'")
            rules[.tileRows] = rule(re, w, what: "the row count of 'tile'")
        }
        if rules.isEmpty {
            rules = RuleSet<SectionRule>.defaultSize    // shared by every plain section
        } else {
            rules[.naturalWidth] = constantRule(50, "the width of 'size'")
            rules[.naturalHeight] = constantRule(50, "the height of 'size'")
        }
        if let w = lookup(.sizeRule, blocks) {
            switch w.value {
            case .expr(let e):
                rules[.naturalWidth] = nil
                rules[.naturalHeight] = nil
                rules[.length] = rule(e, w, what: "the \(w.setting.name.text)")
            case .size(let we, let he):
                rules[.naturalWidth] = rule(we, w, what: "the width of 'size'")
                rules[.naturalHeight] = rule(he, w, what: "the height of 'size'")
            default: break
            }
        }
        let attached = attachments(blocks, &m)
        appearRules(blocks, disappear: false, into: &rules)
        appearRules(blocks, disappear: true, into: &rules)
        // The section's `update` block: its own, or for the one section of a layout (or file)
        // without `section` blocks, the layout's (the file's when it has no layouts either).
        let updates = rec?.updates ?? (layout ?? (program.hasLayoutBlocks ? nil : program.file))?.updates ?? []
        var update: SectionUpdate? = nil
        if let first = updates.first, diagnostics.count == errorsBefore {
            for extra in updates.dropFirst() {
                fail(.error(.secondUpdate, "section \(s) has a second 'update' block", at: extra.keyword,
                            notes: [Note("the first is here", span: first.keyword)],
                            help: "a section has one 'update' block, one batch: put all its 'insert's and 'delete's in the first"), key: extra.keyword)
            }
            m.available = VarSets.change
            m.set(.n, items)
            update = resolveUpdate(first, s: s, items: Int(items), &m)
        }
        if diagnostics.count != errorsBefore { return nil }
        var section = ResolvedSection(index: s, name: rec?.name?.text, items: Int(items), insets: ins, headerInsets: headerInsets,
                               footerInsets: footerInsets, header: header, footer: footer, rowSpacing: rowSpacing,
                               columnSpacing: columnSpacing, pinHeaders: pinHeaders, engine: engine, pinFooters: pinFooters,
                               collapseEmpty: collapseEmpty, place: rec?.keyword ?? layout?.keyword ?? .point(0))
        section.rowSpacingPlace = lookup(.rowSpacing, blocks)?.setting.name.span
        section.columnSpacingPlace = lookup(.columnSpacing, blocks)?.setting.name.span
        section.background = background
        section.backgroundInsets = backgroundInsets
        section.rules = rules
        section.attached = attached
        section.update = update
        section.groups = groups
        section.estimate = estimateRule(blocks, s: s)
        if diagnostics.count != errorsBefore { return nil }
        section.shareRareSettings(with: &lastRare)
        return section
    }

    /// The engine's own settings, read by the engine (Engines/Engine.swift, `configure`), with
    /// the section's variables in `m`. The machine moves into the reader and back: a copy shared
    /// with `m` would copy its `let` cache at the reader's first write.
    mutating func configure(_ s: Int, _ rec: BlockRecord?, _ blocks: [BlockRecord], _ m: inout Machine, available: (aw: Double, ah: Double),
                            spacings: (row: Double, column: Double), errorsBefore: Int) -> any Engine {
        var reader = SectionReader(resolver: self, machine: Machine(vars: []), blocks: blocks, record: rec, section: s,
                                   available: available, spacings: spacings, errorsBefore: errorsBefore)
        swap(&reader.machine, &m)
        reads.inEngine = true
        let engine = (Engines.engine(style) ?? WaterfallEngine.self).configure(&reader)
        reads.inEngine = false
        self = reader.resolver
        swap(&m, &reader.machine)
        return engine
    }

    /// A section resolved before whose settings are the same but for what its engine reads
    /// (`SectionMemo.engineReads`): its engine configured again, with the machine as
    /// `resolveSection` has it then (cw, ch, s and the available width and height it kept).
    mutating func configureAgain(_ section: inout ResolvedSection, _ rec: BlockRecord?, cw: Double, ch: Double, seed: UInt64) {
        let s = section.index
        var m = sectionMachine.take(section: s, cw: cw, ch: ch, seed: seed)
        defer { sectionMachine.machine = m }
        let ins = section.insets
        let aw = cw - ins.left - ins.right
        let ah = ch - ins.top - ins.bottom
        m.set(.aw, aw)
        m.set(.ah, ah)
        m.available = VarSets.section
        section.engine = configure(s, rec, program.chain(layout, rec), &m, available: (aw, ah),
                                   spacings: (section.rowSpacing, section.columnSpacing), errorsBefore: diagnostics.count)
    }

    /// `update` blocks where none can stand (docs/language.md, "Batch updates"): in a layout
    /// with `section` blocks, at the top of a file with `layout` or top-level `section` blocks.
    mutating func misplacedUpdates(_ sectionRecords: [BlockRecord]) {
        if let layout, !sectionRecords.isEmpty {
            for u in layout.updates {
                fail(.error(.misplacedUpdate, "an 'update' block cannot stand in a layout with 'section' blocks", at: u.keyword,
                            help: "move it into the section whose items change"), key: u.keyword)
            }
        }
        let file = program.file
        if program.hasLayoutBlocks || !file.sections.isEmpty {
            let why = program.hasLayoutBlocks ? "'layout' blocks" : "'section' blocks"
            for u in file.updates {
                fail(.error(.misplacedUpdate, "an 'update' block cannot stand at the top of a file with \(why)", at: u.keyword,
                            help: program.hasLayoutBlocks ? "move it into the layout (or the section) whose items change"
                                : "move it into the section whose items change"), key: u.keyword)
            }
        }
    }

    /// A section's `update` block evaluated and checked: each `delete` index a whole number in
    /// 0 ..< n, each `insert` index one in 0 ..< n' (n' = n - d + k), none twice among the
    /// deletes or among the inserts. The machine holds s, n, cw, ch, aw and ah.
    mutating func resolveUpdate(_ u: UpdateRecord, s: Int, items n: Int, _ m: inout Machine) -> SectionUpdate? {
        let errorsBefore = diagnostics.count
        func indices(_ exprs: [Expr], _ word: String, _ r: inout Resolver, _ m: inout Machine) -> [(Int, Span)] {
            var out: [(Int, Span)] = []
            for e in exprs {
                let node = r.compiler.compile(e)
                m.reserveLets(r.compiler.letCount)
                m.unwind()
                m.place = "'\(word)'"
                let v: Value
                do {
                    v = try node.code(&m)
                } catch {
                    r.fail(error.at("in '\(word)' of section \(s)").diagnostic, key: e.span)
                    continue
                }
                guard case .number(let d) = v, isWhole(d) else {
                    let shown = { if case .number(let d) = v { return NumberFormat.format(d) } else { return v.typeName } }()
                    r.fail(.error(.updateIndexNotWhole, "an index of '\(word)' in section \(s) must be a whole number, not \(shown)", at: e.span,
                                  help: "an index counts items: 0 for the first"), key: e.span)
                    continue
                }
                out.append((Int(exactly: d) ?? -1, e.span))
            }
            return out
        }
        let deletes = indices(u.deletes, "delete", &self, &m)
        let inserts = indices(u.inserts, "insert", &self, &m)
        func check(_ list: [(Int, Span)], _ word: String, count: Int, when: String, _ r: inout Resolver) -> [Int] {
            var first: [Int: Span] = [:]
            for (k, span) in list {
                guard k >= 0, k < count else {
                    let range = count == 0 ? "it has none" : count == 1 ? "its index is 0" : "they are 0 to \(count - 1)"
                    r.fail(.error(.updateIndexOutOfRange, "'\(word) \(k)' in section \(s) is out of range: the section has \(count) item\(count == 1 ? "" : "s") \(when) the update, and \(range)",
                                  at: span, help: word == "delete" ? "'delete' counts the items before the update" : "'insert' counts the items after the update"), key: span)
                    continue
                }
                if let earlier = first[k] {
                    r.fail(.error(.updateIndexTwice, "'\(word) \(k)' in section \(s) names item \(k) twice", at: span,
                                  notes: [Note("first named here", span: earlier)], help: "name each index once"), key: span)
                    continue
                }
                first[k] = span
            }
            return first.keys.sorted()
        }
        let deleted = check(deletes, "delete", count: n, when: "before", &self)
        // n' counts the inserts as written, so that a repeated one does not shift the range.
        let after = n - deleted.count + inserts.count
        // The table after the update is laid out too: its items count against the limit.
        if after > maxItemsPerFile {
            fail(.error(.tooManyItems, "section \(s) has \(after) items after its update: a layout has at most 10,000,000 items", at: u.keyword,
                        help: "insert fewer items, or lower 'items'"), key: u.keyword)
            return nil
        }
        let inserted = check(inserts, "insert", count: after, when: "after", &self)
        guard diagnostics.count == errorsBefore else { return nil }
        return SectionUpdate(countBefore: n, deleted: deleted, inserted: inserted)
    }

    /// The attached views of a section: from each block of its chain, innermost first, the blocks
    /// of names not yet taken (an inner `attach` replaces an outer one of its name whole), in the
    /// order of the file's first `attach` of each name.
    mutating func attachments(_ blocks: [BlockRecord], _ m: inout Machine) -> [ResolvedAttachment] {
        var taken: [String: AttachRecord] = [:]
        for b in blocks {
            for rec in b.attaches where taken[rec.name] == nil { taken[rec.name] = rec }
        }
        var out: [ResolvedAttachment] = []
        // A table tells up to 250 names apart (an element keeps its kind in a byte).
        if program.attachNames.count > 250, let rec = blocks.lazy.flatMap(\.attaches).first {
            fail(.error(.valueOutOfRange, "the file attaches views of \(program.attachNames.count) names: at most 250", at: rec.keyword,
                        help: "give views that differ only by their rules one name, and pick with 'when'"), key: rec.keyword)
            return []
        }
        for (k, name) in program.attachNames.enumerated() {
            guard let rec = taken[name] else { continue }
            var readsLane = false
            func noRandom(_ e: Expr, _ w: Written) -> Bool {
                let deps = compiler.compile(e).deps
                readsLane = readsLane || deps.vars & EngineVar.col.bit != 0
                guard let r = deps.random else { return true }
                fail(.error(.randomInAttribute, "'random' cannot be used in '\(w.setting.name.text)' of 'attach \(name)'", at: r,
                            help: "an attached view is placed again at every scroll offset, where a random value would flicker; derive it from 'i' instead"),
                     key: w.span)
                return false
            }
            var view = ResolvedAttachment(name: name, kind: k, anchor: .topRight, zIndex: 1)
            view.rules[.width] = constantRule(20, "the width of 'attach \(name)'")
            view.rules[.height] = constantRule(20, "the height of 'attach \(name)'")
            view.rules[.x] = constantRule(0, "the x of 'offset'")
            view.rules[.y] = constantRule(0, "the y of 'offset'")
            if let w = rec.properties[.attachWhen], case .expr(let e) = w.value, noRandom(e, w) {
                view.rules[.when] = rule(e, w, what: "'when' of 'attach \(name)'")
            }
            if let w = rec.properties[.sizeRule], case .size(let we, let he) = w.value, noRandom(we, w), noRandom(he, w) {
                view.rules[.width] = rule(we, w, what: "the width of 'attach \(name)'")
                view.rules[.height] = rule(he, w, what: "the height of 'attach \(name)'")
            }
            if let w = rec.properties[.attachOffset], case .size(let xe, let ye) = w.value, noRandom(xe, w), noRandom(ye, w) {
                view.rules[.x] = rule(xe, w, what: "the x of the offset of 'attach \(name)'")
                view.rules[.y] = rule(ye, w, what: "the y of the offset of 'attach \(name)'")
            }
            if let w = rec.properties[.attachAnchor], case .word(let n) = w.value { view.anchor = AttachAnchor(rawValue: n.text) ?? .topRight }
            // zIndex: a constant whole number from -1,000,000 to 1,000,000.
            if let w = rec.properties[.zIndex], case .expr(let e) = w.value {
                m.available = VarSets.section
                if let d = number(e, w, &m, place: " of 'attach \(name)'", what: "the zIndex", whole: true, bound: .none) {
                    if abs(d) > 1_000_000 {
                        fail(.error(.valueOutOfRange, "the zIndex of 'attach \(name)' is \(NumberFormat.format(d)): it must be from -1,000,000 to 1,000,000",
                                    at: e.span), key: w.span)
                    } else {
                        view.zIndex = Int(d)
                    }
                }
            }
            view.readsLane = readsLane
            out.append(view)
        }
        return out
    }

    /// `alpha`, `zoom` and `zIndex`, compiled; `random` in them is an error (they are evaluated
    /// at every scroll offset, where a random value would flicker).
    mutating func attributeRules(_ blocks: [BlockRecord]) -> RuleSet<SectionRule> {
        var out = RuleSet<SectionRule>()
        for (property, slot) in [(Property.alpha, SectionRule.alpha), (.zoom, .zoom), (.zIndex, .zIndex)] {
            guard let w = lookup(property, blocks), case .expr(let e) = w.value, sxAllowed(e, w) else { continue }
            let name = w.setting.name.text
            if let r = compiler.compile(e).deps.random {
                fail(.error(.randomInAttribute, "'random' cannot be used in '\(name)'", at: r,
                            help: "'\(name)' is evaluated at every scroll offset, where a random value would flicker; derive it from 'i' instead"),
                     key: w.span)
                continue
            }
            out[slot] = rule(e, w, what: "the \(name)")
        }
        // Motion: `translate X x Y` (two rules) and `rotate DEG`.
        if let w = lookup(.translate, blocks), case .size(let xe, let ye) = w.value, sxAllowed(xe, w), sxAllowed(ye, w) {
            if let r = compiler.compile(xe).deps.random ?? compiler.compile(ye).deps.random {
                fail(.error(.randomInAttribute, "'random' cannot be used in 'translate'", at: r,
                            help: "'translate' is evaluated at every scroll offset, where a random value would flicker; derive it from 'i' instead"),
                     key: w.span)
            } else {
                out[.translateX] = rule(xe, w, what: "the x of the translate")
                out[.translateY] = rule(ye, w, what: "the y of the translate")
            }
        }
        if let w = lookup(.rotate, blocks), case .expr(let e) = w.value, sxAllowed(e, w) {
            if let r = compiler.compile(e).deps.random {
                fail(.error(.randomInAttribute, "'random' cannot be used in 'rotate'", at: r,
                            help: "'rotate' is evaluated at every scroll offset, where a random value would flicker; derive it from 'i' instead"),
                     key: w.span)
            } else {
                out[.rotate] = rule(e, w, what: "the rotate")
            }
        }
        return out
    }

    func constantRule(_ d: Double, _ what: String) -> ItemRule { ItemRule.constant(d, what) }

    /// `estimate` of section `s` (docs/layout.md, "Self-sizing cells"): a length in a waterfall,
    /// `W x H` in a flow or shelf; `random` in it is an error (a cell's estimate is one number).
    mutating func estimateRule(_ blocks: [BlockRecord], s: Int) -> EstimateRule? {
        guard let w = lookup(.estimate, blocks) else { return nil }
        let at = w.setting.name.span
        let exprs: [Expr]
        switch w.value {
        case .expr(let e): exprs = [e]
        case .size(let we, let he): exprs = [we, he]
        default: return nil
        }
        for e in exprs {
            if let r = compiler.compile(e).deps.random {
                fail(.error(.randomInEstimate, "'random' cannot be used in 'estimate'", at: r,
                            help: "an estimate is the one size a cell has until it is measured; derive it from 'i' instead"), key: w.span)
                return nil
            }
        }
        switch (style, exprs.count) {
        case (.waterfall, 1):
            return EstimateRule(length: rule(exprs[0], w, what: "the estimate"), width: nil, place: at)
        case (.flow, 2), (.shelf, 2):
            return EstimateRule(length: rule(exprs[1], w, what: "the height of 'estimate'"),
                                width: rule(exprs[0], w, what: "the width of 'estimate'"), place: at)
        case (.waterfall, _):
            fail(.error(.estimateShape, "'estimate' in waterfall section \(s) takes one length along the scroll axis, not a size 'W x H'", at: w.span,
                        help: "write, for example, 'estimate 200': a waterfall cell keeps its lane's width"), key: w.span)
        case (.flow, _), (.shelf, _):
            fail(.error(.estimateShape, "'estimate' in \(style.rawValue) section \(s) takes a size 'W x H', not one value", at: w.span,
                        help: "write, for example, 'estimate 180 x 100'"), key: w.span)
        default:
            fail(.error(.estimateUnsupported, "'estimate' cannot be used in \(style.rawValue) section \(s): only waterfall, flow and shelf cells size themselves", at: at,
                        help: "remove 'estimate' from this section"), key: w.span)
        }
        return nil
    }

    /// Compiles an item rule, choosing the fastest shape that computes it.
    func rule(_ e: Expr, _ w: Written, what: String) -> ItemRule {
        let node = compiler.compile(e)
        let kind: ItemRule.Kind
        switch node.constant {
        case .number(let d)?:
            kind = .constant(d)
        case .list(let xs)? where !xs.isEmpty && xs.allSatisfy({ if case .number = $0 { return true } else { return false } }):
            kind = .cycle(xs.map { if case .number(let d) = $0 { return d } else { return 0 } })
        default:
            if node.type == .number, let num = node.num {
                kind = .number(num)
            } else {
                kind = .value(node.code)
            }
        }
        var r = ItemRule(kind: kind, what: what, span: e.span, settingSpan: w.span)
        r.meaning = compiler.meaning(e)
        r.readsItemCount = node.deps.vars & EngineVar.n.bit != 0 || node.deps.incomplete || node.deps.parameters
        if case .number = kind { r.flat = FlatRule.compile(e) }
        if case .value = kind, node.type == .boolean { r.flatCondition = FlatCondition.compile(e) }
        return r
    }
}

/// A section's settings for its engine's `configure` (`SectionSettings`): the resolver's cascade
/// and checks, with the section's place and what its lanes are counted in.
struct SectionReader: SectionSettings {
    var resolver: Resolver
    var machine: Machine
    let blocks: [BlockRecord]
    let record: BlockRecord?
    let section: Int
    /// aw and ah; rs and cs.
    let available: (aw: Double, ah: Double)
    let spacings: (row: Double, column: Double)
    /// The resolver's diagnostics before this section: a lane check is made only when none came since.
    let errorsBefore: Int

    var direction: Direction { resolver.direction }

    func word<T: RawRepresentable>(_ property: Property, _ fallback: T) -> T where T.RawValue == String {
        guard let w = resolver.lookup(property, blocks), case .word(let n) = w.value else { return fallback }
        return T(rawValue: n.text) ?? fallback
    }

    mutating func number(_ property: Property, default fallback: Double) -> Double {
        resolver.number(of: property, in: blocks, section: section, default: fallback, &machine)
    }

    mutating func spacing(_ property: Property, default fallback: Double) -> Double {
        resolver.number(of: property, in: blocks, section: section, default: fallback, bound: .none, &machine)
    }

    func place(_ property: Property) -> Span? {
        resolver.lookup(property, blocks)?.setting.name.span
    }

    func laneWidth(_ lanes: Int, across: Bool) -> Double {
        ((across ? available.aw : available.ah) - Double(lanes - 1) * (across ? spacings.column : spacings.row)) / Double(lanes)
    }

    /// A length of at least 0 written for `property`, evaluated with the section's variables and
    /// `variable` = `value` (a grid's `rowHeight` with `w`); nil when none is written.
    mutating func length(_ property: Property, variable: EngineVar, value: Double) -> Double? {
        guard let w = resolver.lookup(property, blocks), case .expr(let e) = w.value else { return nil }
        let before = machine.available
        machine.set(variable, value)
        defer { machine.available = before }
        return resolver.number(e, w, &machine, place: Resolver.place(of: w, section: section), what: "'\(w.setting.name.text)'")
    }

    /// Lanes: `columns` (vertical) or `rows` (horizontal), N or adaptive(MIN); a shelf's `rows`
    /// (items per column) counts across `ah` as a horizontal waterfall's.
    mutating func lanes(across: Bool, default fallback: Int, checkRoom: Bool, scale: Double) -> Int {
        let s = section
        let vertical = direction == .vertical
        let (aw, ah) = available
        let (rowSpacing, columnSpacing) = spacings
            let lanesWord = across ? "columns" : "rows"
            let laneGap = across ? columnSpacing : rowSpacing
            let available = across ? aw : ah
            var lanes = fallback
            let lanesWritten = resolver.lookup(across ? .columns : .rows, blocks)
            if let w = lanesWritten {
                switch w.value {
                case .expr(let e):
                    if let d = resolver.number(e, w, &machine, place: Resolver.place(of: w, section: s), what: "'\(lanesWord)'", whole: true, bound: .atLeastOne) {
                        if d > Double(maxLanes) {
                            resolver.fail(.error(.valueOutOfRange, "'\(lanesWord)' is \(NumberFormat.format(d)): at most \(maxLanes) lanes", at: e.span), key: w.span)
                        } else {
                            lanes = Int(d)
                        }
                    }
                case .adaptive(let e):
                    if let minimum = resolver.number(e, w, &machine, place: Resolver.place(of: w, section: s), what: "the smallest lane of 'adaptive'", bound: .positive) {
                        // As SwiftUI: max(1, floor((aw + cs + 1e-6) / (MIN + cs))); the 1e-6 absorbs
                        // rounding noise such as 174 * 0.2. MIN + cs must be more than 0.
                        let count = Swift.max(1, ((available + laneGap + 1e-6) / (minimum + laneGap)).rounded(.down))
                        let spacingWord = across ? "columnSpacing" : "rowSpacing"
                        if minimum + laneGap <= 0 {
                            resolver.fail(.error(.noRoom, "'adaptive(\(NumberFormat.format(minimum)))' with \(spacingWord) \(NumberFormat.format(laneGap)) leaves no room in section \(s): a lane and its gap take \(NumberFormat.format(minimum + laneGap))",
                                        at: e.span, help: "make the smallest lane larger than -\(spacingWord)"), key: w.span)
                        } else if count > Double(maxLanes) {
                            resolver.fail(.error(.valueOutOfRange, "'adaptive(\(NumberFormat.format(minimum)))' gives \(NumberFormat.format(count)) lanes: at most \(maxLanes)",
                                        at: e.span, help: "make the smallest lane larger"), key: w.span)
                        } else {
                            lanes = Int(count)
                        }
                    }
                default: break
                }
            }
            if checkRoom, resolver.diagnostics.count == errorsBefore, available > 0 {
                // laneW as the engine computes it (Waterfall.Geometry), floored when scale > 0: it must
                // come out more than 0, and finite (a large negative spacing can make it infinite).
                var laneW = (available - Double(lanes - 1) * laneGap) / Double(lanes)
                if scale > 0 { laneW = (laneW * scale).rounded(.down) / scale }
                if !laneW.isFinite {
                    let spacingWord = vertical ? "columnSpacing" : "rowSpacing"
                    let w = resolver.lookup(vertical ? .columnSpacing : .rowSpacing, blocks) ?? resolver.lookup(.scale, blocks) ?? lanesWritten
                    resolver.fail(.error(.positionOverflow, "the lanes of section \(s) come out \(NumberFormat.format(laneW)) wide: \(lanes) \(lanesWord) with \(spacingWord) \(NumberFormat.format(laneGap))\(scale > 0 ? " and scale \(NumberFormat.format(scale))" : "") carry the lane width past the largest number a position can have (about 1.8e308)",
                                at: w?.setting.name.span ?? record?.keyword ?? Span(0, 0),
                                help: "make '\(spacingWord)' small enough for a screen"), key: w?.span)
                } else if laneW <= 0 {
                    let spacingWord = vertical ? "columnSpacing" : "rowSpacing"
                    let w = lanesWritten ?? resolver.lookup(vertical ? .columnSpacing : .rowSpacing, blocks)
                    resolver.fail(.error(.noRoom, "\(lanes) \(lanesWord) with \(spacingWord) \(NumberFormat.format(laneGap)) leave no room in section \(s): the gaps need \(NumberFormat.format(Double(lanes - 1) * laneGap)) of the available \(vertical ? "width" : "height") \(NumberFormat.format(available))",
                                at: w?.setting.name.span ?? record?.keyword ?? Span(0, 0),
                                help: "use fewer \(lanesWord), a smaller '\(spacingWord)' or smaller insets"), key: w?.span)
                }
            }
        return lanes
    }
}
