/// A layout with its cascade applied and its section settings evaluated: plain values, plus the
/// item rules compiled once. The engines see only this, never the syntax tree.

/// The four sides of an inset, in UIEdgeInsets order.
package struct Insets: Equatable, Sendable {
    package var top: Double, left: Double, bottom: Double, right: Double
    package init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// `order`: how the waterfall picks a lane.
package enum LaneOrder: String, Sendable { case shortest, leftToRight, rightToLeft }

/// `justify`: how a flow line's items share its length.
package enum Justify: String, Sendable { case uikit, start, center, end, spread }

/// `align`: where a flow or shelf item sits across its line (row).
package enum Align: String, Sendable { case center, start, end, stretch }

/// `paging`: where a shelf's sideways scrolling comes to rest (`shelfSnap`).
package enum Paging: String, Sendable { case continuous, leadingBoundary, paging, groupPaging, groupPagingCentered }

/// `collapseEmpty`: what a section with no items drops.
package enum CollapseEmpty: String, Sendable { case none, insets, all }

/// `insetsReference`: what a section's insets are measured from across the scroll axis.
package enum InsetsReference: String, Sendable { case none, safeArea, layoutMargins, readableContent }

/// `snapping`: how `snap` rounds.
package enum Snapping: String, Sendable { case next, nearest }

/// `background`: which decoration view stands behind a section (docs/layout.md, "Section
/// backgrounds").
package enum BackgroundKind: String, Sendable { case none, items, cells, all }

/// A per-item rule (`height`, `width`, one side of `size`, `span`, an attribute, a value of
/// `appear`/`disappear`, an attached view's `when`, `size` and `offset`), compiled once,
/// evaluated per item. Every rule of a section lives in a `RuleSet` under its slot.
package struct ItemRule {
    /// The shapes that need no general evaluation, and the two of a batch update.
    enum Kind {
        /// `height 100`.
        case constant(Double)
        /// `height [100, 150]` or a `let` of a constant list: element `i mod len`.
        case cycle([Double])
        /// Any other expression known to give a number.
        case number(NumCode)
        /// Any other expression: a number, or a list that cycles.
        case value(Code)
        /// The table before a batch update: the rule, each value it gives kept (Engines/Updates.swift).
        case recorded(RuleRecorder)
        /// The table after it: the staying items' values at their new indices, the rule for the others.
        indirect case replayed(RuleReplay)
        /// A self-sizing cell's size: the actual one once measured, else the estimate
        /// (Engines/SelfSizing.swift).
        case selfSizing(SelfSizingChoice)
    }

    let kind: Kind
    /// "the height", "the width of 'size'", "the span": for messages.
    package let what: String
    /// Where the expression stands.
    package let span: Span
    /// Where the setting stands: a rule is reported once, at its first failing item.
    package let settingSpan: Span
    /// What the rule computes, from its expression as compiled (`Compiler.meaning`), so that two
    /// compilations of one rule compare equal without comparing closures; 0 for a rule that
    /// stands for a default.
    var meaning: Int = 0
    /// True when its value may depend on `n`, the item count (or cannot be known): appending items
    /// to the section may then change the items already there (`IncrementalLayout.append`).
    package var readsItemCount = false
    /// The rule as a straight-line program when it is simple enough (FlatRule.swift): the engines
    /// run that per item and fall back to `kind` where it gives up.
    var flat: FlatRule? {
        get { flatBox.flatMap { $0.condition == nil ? $0.rule : nil } }
        set { flatBox = newValue.map(FlatRuleBox.init) }
    }
    /// `flat`, kept out of line: a section holds up to 14 rules, most of them nil, and a program
    /// inline made every rule, set or not, 90 bytes longer (docs/performance.md, "Memory").
    var flatBox: FlatRuleBox? = nil
    /// The rule as a comparison of two straight-line programs (`FlatCondition`), for a `when`
    /// that is one: `Decorations.attach` runs that per item and falls back to `kind` where it
    /// gives up. Kept in `flatBox` (a rule is a number or a condition, never both).
    var flatCondition: FlatCondition? {
        get { flatBox?.condition }
        set { flatBox = newValue.map { FlatRuleBox(condition: $0) } }
    }

    /// The rule's number for item `i`, with lists cycling.
    @inline(__always)
    package func evaluate(_ m: inout Machine, item i: Int) throws(EvalError) -> Double {
        switch kind {
        case .constant(let d): return d
        case .cycle(let xs): return xs[i % xs.count]
        case .number(let code):
            if let box = flatBox {
                var r = 0.0
                let count = m.randomCount
                if box.rule.run(&m, &r) { return r }
                m.randomCount = count
            }
            return try code(&m)
        case .value(let code): return try ItemRule.number(from: try code(&m), item: i, span: span, what: what)
        case .recorded(let r): return try r.number(&m, item: i)
        case .replayed(let r): return try r.number(&m, item: i)
        case .selfSizing(let c): return try c.number(&m, item: i)
        }
    }

    /// The rule's value for item `i` as a condition (an attached view's `when`): its value, a
    /// list cycling. The caller says what a value that is not a boolean means.
    func condition(_ m: inout Machine, item i: Int) throws(EvalError) -> Value {
        switch kind {
        case .constant, .cycle, .number: return .number(try evaluate(&m, item: i))
        case .value(let code): return ItemRule.cycled(try code(&m), item: i)
        case .recorded(let r): return try r.condition(&m, item: i)
        case .replayed(let r): return try r.condition(&m, item: i)
        case .selfSizing(let c): return .number(try c.number(&m, item: i))
        }
    }

    /// A list's element for item `i` (`i mod len`); any other value, and an empty list, as it is.
    @inline(__always)
    static func cycled(_ v: Value, item i: Int) -> Value {
        if case .list(let xs) = v, !xs.isEmpty { return xs[i % xs.count] }
        return v
    }

    static func number(from v: Value, item i: Int, span: Span, what: String) throws(EvalError) -> Double {
        switch v {
        case .number(let d): return d
        case .list(let xs):
            guard !xs.isEmpty else {
                throw EvalError(.badListRule, "empty list", at: span, help: "a list here cycles over the items, so it needs at least one number")
            }
            switch cycled(v, item: i) {
            case .number(let d): return d
            case .list: throw EvalError(.badListRule, "list of lists", at: span, help: "a list here holds one number per item, and cycles")
            case let other: throw EvalError(.typeMismatch, "\(other.typeName) in a list where numbers are needed", at: span)
            }
        default:
            throw EvalError(.typeMismatch, "\(v.typeName) where a number (or a list of numbers) is needed", at: span)
        }
    }

    /// A rule that gives `d` for every item, standing for a default: it is written nowhere.
    static func constant(_ d: Double, _ what: String) -> ItemRule {
        ItemRule(kind: .constant(d), what: what, span: Span(0, 0), settingSpan: Span(0, 0))
    }
}

extension ItemRule: Equatable {
    /// The same rule: the same computation (`meaning`), reported with the same words at the same
    /// places. The closures are not compared: `meaning` stands for them.
    package static func == (a: ItemRule, b: ItemRule) -> Bool {
        a.meaning == b.meaning && a.span == b.span && a.settingSpan == b.settingSpan && a.what == b.what
            && a.readsItemCount == b.readsItemCount
    }
}

/// A flat rule's box (`ItemRule.flat`, `ItemRule.flatCondition`).
final class FlatRuleBox {
    /// The program of a number rule; an empty one in a condition's box.
    let rule: FlatRule
    /// The program of a condition (`ItemRule.flatCondition`); nil in a number rule's box.
    let condition: FlatCondition?
    init(_ rule: FlatRule) {
        self.rule = rule
        condition = nil
    }
    init(condition: FlatCondition) {
        rule = FlatRule()
        self.condition = condition
    }
}

/// How items get their size along the scroll axis: the view the engines take of the slots
/// `length`, `naturalWidth` and `naturalHeight` of a section's rules.
package enum SizeRule {
    /// `height` (vertical) or `width` (horizontal): the length along the lane.
    case length(ItemRule)
    /// `size W x H`: a natural size scaled to the lane.
    case natural(ItemRule, ItemRule)
}

/// What a batch update does with the value a rule gave a staying item (docs/language.md, "Batch
/// updates"; Engines/Updates.swift).
package enum AfterUpdate: Sendable {
    /// The item keeps it: a cell is the same data after an update.
    case kept
    /// It is evaluated again, at the item's new index.
    case evaluatedAgain
}

/// The slot of a per-item rule in a `RuleSet`. Each slot says what a batch update does with it,
/// so the updates path covers a new rule by construction: a new case does not compile until it
/// says.
package protocol RuleSlot: Equatable, Sendable {
    var afterUpdate: AfterUpdate { get }
}

/// The per-item rules of a section.
package enum SectionRule: Int, RuleSlot, CaseIterable {
    /// `span`.
    case span
    /// `height` (vertical) or `width` (horizontal).
    case length
    /// `size W x H`.
    case naturalWidth, naturalHeight
    /// The attribute rules, evaluated at a scroll offset (Evaluation/Attributes.swift).
    case alpha, zoom, zIndex
    /// `appear { }` and `disappear { }` (Evaluation/AppearRules.swift).
    case appearAlpha, appearZoom, appearX, appearY
    case disappearAlpha, disappearZoom, disappearX, disappearY
    /// Motion: `translate X x Y` and `rotate DEG`, as attribute rules and in `appear`/`disappear`.
    case translateX, translateY, rotate
    case appearTranslateX, appearTranslateY, appearRotate, disappearTranslateX, disappearTranslateY, disappearRotate

    /// A grid's `tile C x R` (docs/layout.md, "Tile grids").
    case tileColumns, tileRows

    package var afterUpdate: AfterUpdate {
        switch self {
        case .span, .length, .naturalWidth, .naturalHeight, .tileColumns, .tileRows: return .kept
        case .alpha, .zoom, .zIndex, .translateX, .translateY, .rotate: return .evaluatedAgain
        case .appearTranslateX, .appearTranslateY, .appearRotate, .disappearTranslateX, .disappearTranslateY, .disappearRotate:
            return .evaluatedAgain
        case .appearAlpha, .appearZoom, .appearX, .appearY, .disappearAlpha, .disappearZoom, .disappearX, .disappearY:
            return .evaluatedAgain
        }
    }

    /// The slots a table keeps to evaluate at an offset (`TableRules`).
    package enum Group: Sendable { case attributes, appear, disappear }

    /// Its group, nil for the rules the engines use up while they lay out.
    var group: Group? {
        switch self {
        case .span, .length, .naturalWidth, .naturalHeight, .tileColumns, .tileRows: return nil
        case .alpha, .zoom, .zIndex, .translateX, .translateY, .rotate: return .attributes
        case .appearAlpha, .appearZoom, .appearX, .appearY, .appearTranslateX, .appearTranslateY, .appearRotate: return .appear
        case .disappearAlpha, .disappearZoom, .disappearX, .disappearY, .disappearTranslateX, .disappearTranslateY, .disappearRotate:
            return .disappear
        }
    }

    /// The four values of where an element that appears starts (or one that disappears ends).
    static func ends(disappear: Bool) -> (alpha: SectionRule, zoom: SectionRule, x: SectionRule, y: SectionRule) {
        disappear ? (.disappearAlpha, .disappearZoom, .disappearX, .disappearY) : (.appearAlpha, .appearZoom, .appearX, .appearY)
    }

    /// The transform slots of `appear` (or `disappear`): translate's x and y, rotate.
    static func transformEnds(disappear: Bool) -> (tx: SectionRule, ty: SectionRule, rotate: SectionRule) {
        disappear ? (.disappearTranslateX, .disappearTranslateY, .disappearRotate) : (.appearTranslateX, .appearTranslateY, .appearRotate)
    }
}

/// The per-item rules of an attached view.
package enum ViewRule: Int, RuleSlot, CaseIterable {
    /// `when`: which cells get the view; none for every cell.
    case when
    /// `size W x H`.
    case width, height
    /// `offset DX x DY`.
    case x, y

    package var afterUpdate: AfterUpdate {
        switch self {
        case .when, .width, .height, .x, .y: return .kept
        }
    }
}

/// Rules by slot: the one home of per-item rules. A set holds the few slots written (or given a
/// default), in the order they were set.
package struct RuleSet<Slot: RuleSlot>: Equatable {
    package struct Entry: Equatable {
        package var slot: Slot
        package var rule: ItemRule
    }

    package private(set) var entries: [Entry] = []

    package init() {}

    package subscript(_ slot: Slot) -> ItemRule? {
        get {
            for e in entries where e.slot == slot { return e.rule }
            return nil
        }
        set {
            if let k = entries.firstIndex(where: { $0.slot == slot }) {
                if let newValue { entries[k].rule = newValue } else { entries.remove(at: k) }
            } else if let newValue {
                entries.append(Entry(slot: slot, rule: newValue))
            }
        }
    }

    package var isEmpty: Bool { entries.isEmpty }

    /// The set with `transform` applied to every rule a staying item keeps after a batch update
    /// (`AfterUpdate.kept`): how the updates path reaches every such rule, whatever its slot.
    func mappingKept(_ transform: (ItemRule) -> ItemRule) -> RuleSet {
        var out = self
        for k in out.entries.indices where out.entries[k].slot.afterUpdate == .kept {
            out.entries[k].rule = transform(out.entries[k].rule)
        }
        return out
    }

    /// Only the rules whose slot passes `keep`.
    func filter(_ keep: (Slot) -> Bool) -> RuleSet {
        var out = RuleSet()
        out.entries = entries.filter { keep($0.slot) }
        return out
    }
}

/// One section, resolved: a node of the layout (docs/ARCHITECTURE.md, "The engine layer"). Its
/// fields are the frame settings every engine shares (the items, insets, header and footer,
/// spacings, pinning, background, attached views, the per-item rules); `engine` is its engine with
/// what only that engine reads.
package struct ResolvedSection {
    // The index and the item count in 32 bits (at most 10,000,000 items), `pinHeaders` at the end:
    // 160 bytes a section.
    private var _index: Int32
    private var _items: Int32
    package var index: Int {
        get { Int(_index) }
        set { _index = Int32(truncatingIfNeeded: newValue) }
    }
    package var items: Int {
        get { Int(_items) }
        set { _items = Int32(clamping: newValue) }
    }
    package var name: String?
    package var insets: Insets
    /// Thickness along the scroll axis; 0 means none.
    package var header: Double
    package var footer: Double
    package var rowSpacing: Double
    package var columnSpacing: Double
    /// The section's engine and its configuration (Engines/Engine.swift).
    package var engine: any Engine
    package var rules = RuleSet<SectionRule>()
    /// Where the section is written, for errors about it as a whole: its `section` keyword, or for
    /// the one section of a layout without `section` blocks, the layout's keyword (the file's
    /// start in a file without layouts).
    package var place: Span = .point(0)
    /// The settings most sections leave as they are, in one shared box (`RareSectionSettings`): a
    /// plain section holds one reference to the shared defaults instead of their ~300 bytes.
    /// (File-private: the layout's loops over its sections read it in place, one field, where a
    /// computed property read through the array copied the whole section.)
    fileprivate var rare = RareSectionSettings.defaults
    package var pinHeaders: Bool

    package init(index: Int, name: String?, items: Int, insets: Insets, headerInsets: Insets = Insets(),
                 footerInsets: Insets = Insets(), header: Double, footer: Double, rowSpacing: Double,
                 columnSpacing: Double, pinHeaders: Bool, engine: any Engine, pinFooters: Bool = false,
                 collapseEmpty: CollapseEmpty = .none, place: Span = .point(0)) {
        _index = Int32(truncatingIfNeeded: index)
        _items = Int32(clamping: items)
        self.name = name
        self.insets = insets
        self.header = header
        self.footer = footer
        self.rowSpacing = rowSpacing
        self.columnSpacing = columnSpacing
        self.pinHeaders = pinHeaders
        self.engine = engine
        self.place = place
        self.headerInsets = headerInsets
        self.footerInsets = footerInsets
        self.pinFooters = pinFooters
        self.collapseEmpty = collapseEmpty
    }

    /// Writes one rare setting: nothing when it keeps its value (the defaults stay shared), else
    /// into a box of the section's own.
    private mutating func setRare<T: Equatable>(_ path: ReferenceWritableKeyPath<RareSectionSettings, T>, _ value: T) {
        if rare[keyPath: path] == value { return }
        if !isKnownUniquelyReferenced(&rare) { rare = rare.copy() }
        rare[keyPath: path] = value
    }

    /// Shares `previous`'s box of rare settings when it holds the same ones, else makes this
    /// section's box `previous`: the sections of a file that sets, say, `rowSpacing` once at
    /// its top (whose place every section then holds) share one box.
    mutating func shareRareSettings(with previous: inout RareSectionSettings?) {
        guard rare !== RareSectionSettings.defaults, rare.attached.isEmpty, rare.update == nil, rare.groups == nil, rare.estimate == nil else { return }
        if let p = previous, p.holdsTheSame(as: rare) { rare = p } else { previous = rare }
    }

    /// True when both sections hold one box of rare settings (the shared defaults, or one made
    /// once for sections with the same settings).
    func sharesRareSettings(with other: ResolvedSection) -> Bool { rare === other.rare }

    package var headerInsets: Insets {
        get { rare.headerInsets }
        set { setRare(\.headerInsets, newValue) }
    }
    package var footerInsets: Insets {
        get { rare.footerInsets }
        set { setRare(\.footerInsets, newValue) }
    }
    package var pinFooters: Bool {
        get { rare.pinFooters }
        set { setRare(\.pinFooters, newValue) }
    }
    package var collapseEmpty: CollapseEmpty {
        get { rare.collapseEmpty }
        set { setRare(\.collapseEmpty, newValue) }
    }
    /// Where `rowSpacing` (or `spacing`) is written, if it is: a shelf's rows that leave no room
    /// are reported there.
    package var rowSpacingPlace: Span? {
        get { rare.rowSpacingPlace }
        set { setRare(\.rowSpacingPlace, newValue) }
    }
    /// Where `columnSpacing` (or `spacing`) is written, if it is.
    package var columnSpacingPlace: Span? {
        get { rare.columnSpacingPlace }
        set { setRare(\.columnSpacingPlace, newValue) }
    }
    /// `background` and `backgroundInsets` (whose sides may be negative).
    package var background: BackgroundKind {
        get { rare.background }
        set { setRare(\.background, newValue) }
    }
    package var backgroundInsets: Insets {
        get { rare.backgroundInsets }
        set { setRare(\.backgroundInsets, newValue) }
    }
    /// The attached views, in the table's order.
    package var attached: [ResolvedAttachment] {
        get { rare.attached }
        set {
            if newValue.isEmpty && rare.attached.isEmpty { return }
            if !isKnownUniquelyReferenced(&rare) { rare = rare.copy() }
            rare.attached = newValue
        }
    }
    /// The section's `update` block, its indices checked and sorted; nil when it has none.
    package var update: SectionUpdate? {
        get { rare.update }
        set { setRare(\.update, newValue) }
    }
    /// Groups and shelves of groups: the top group laid out once (Evaluation/GroupResolver.swift).
    package var groups: GroupPattern? {
        get { rare.groups }
        set {
            if newValue == nil && rare.groups == nil { return }
            if !isKnownUniquelyReferenced(&rare) { rare = rare.copy() }
            rare.groups = newValue
        }
    }
    /// `estimate`: the section is self-sizing (Engines/SelfSizing.swift); nil when it is not.
    package var estimate: EstimateRule? {
        get { rare.estimate }
        set { setRare(\.estimate, newValue) }
    }

    /// The section's engine by its `style` word (never `mixed`).
    package var style: LayoutStyle { type(of: engine).style }

    /// nil: every item spans one lane.
    package var span: ItemRule? { rules[.span] }

    /// The size rules as the engines take them: `length`, else the natural size (the resolver
    /// sets one or the other).
    package var size: SizeRule {
        if let r = rules[.length] { return .length(r) }
        return .natural(rules[.naturalWidth] ?? ItemRule.constant(50, "the width of 'size'"),
                        rules[.naturalHeight] ?? ItemRule.constant(50, "the height of 'size'"))
    }

    /// True when some rule of `group` is set.
    package func has(_ group: SectionRule.Group) -> Bool {
        rules.entries.contains { $0.slot.group == group }
    }

    /// Every per-item rule a staying item keeps after a batch update, the section's and its
    /// views', with `transform` applied (Engines/Updates.swift).
    mutating func mapKeptRules(_ transform: (ItemRule) -> ItemRule) {
        rules = rules.mappingKept(transform)
        for v in attached.indices { attached[v].rules = attached[v].rules.mappingKept(transform) }
    }
}

/// The settings of a section that most sections leave at their defaults, kept out of
/// `ResolvedSection` in a copy-on-write box: every plain section shares `defaults` (issue 27, the
/// memory of a file of many sections). A setting added to sections that few set belongs here.
final class RareSectionSettings {
    var headerInsets = Insets()
    var footerInsets = Insets()
    var pinFooters = false
    var collapseEmpty: CollapseEmpty = .none
    var rowSpacingPlace: Span? = nil
    var columnSpacingPlace: Span? = nil
    var background: BackgroundKind = .none
    var backgroundInsets = Insets()
    var attached: [ResolvedAttachment] = []
    var update: SectionUpdate? = nil
    var estimate: EstimateRule? = nil
    var groups: GroupPattern? = nil

    /// The one box of defaults every plain section shares; never written (a write copies it).
    nonisolated(unsafe) static let defaults = RareSectionSettings()

    /// True when both hold the same settings and neither any attached view or groups.
    func holdsTheSame(as o: RareSectionSettings) -> Bool {
        headerInsets == o.headerInsets && footerInsets == o.footerInsets && pinFooters == o.pinFooters
            && collapseEmpty == o.collapseEmpty && rowSpacingPlace == o.rowSpacingPlace
            && columnSpacingPlace == o.columnSpacingPlace && background == o.background
            && backgroundInsets == o.backgroundInsets && attached.isEmpty && o.attached.isEmpty && update == o.update
            && groups == nil && o.groups == nil
    }

    /// A box of the section's own, with the same settings.
    func copy() -> RareSectionSettings {
        let c = RareSectionSettings()
        c.headerInsets = headerInsets
        c.footerInsets = footerInsets
        c.pinFooters = pinFooters
        c.collapseEmpty = collapseEmpty
        c.rowSpacingPlace = rowSpacingPlace
        c.columnSpacingPlace = columnSpacingPlace
        c.background = background
        c.backgroundInsets = backgroundInsets
        c.attached = attached
        c.update = update
        c.estimate = estimate
        c.groups = groups
        return c
    }
}

/// One attached view of a section (docs/layout.md, "Attached views"): its rules compiled, its
/// constants evaluated.
package struct ResolvedAttachment {
    /// Its name, the elements' kind.
    package var name: String
    /// Its position among the layout's attached names: the order of views in the table.
    package var kind: Int
    /// `when` (none: every cell), `size W x H` and `offset DX x DY`, per cell; `width`,
    /// `height`, `x` and `y` are always set.
    var rules = RuleSet<ViewRule>()
    var width: ItemRule { rules[.width] ?? ItemRule.constant(20, "the width of 'attach \(name)'") }
    var height: ItemRule { rules[.height] ?? ItemRule.constant(20, "the height of 'attach \(name)'") }
    var dx: ItemRule { rules[.x] ?? ItemRule.constant(0, "the x of 'offset'") }
    var dy: ItemRule { rules[.y] ?? ItemRule.constant(0, "the y of 'offset'") }
    package var anchor: AttachAnchor
    /// Added to its cell's z-index.
    package var zIndex: Int
    /// Some rule of it reads `col`, a waterfall cell's first lane, worked out only then.
    var readsLane = false
}

/// A layout ready for an engine.
package struct ResolvedLayout {
    package var name: String
    package var style: LayoutStyle
    package var direction: Direction
    package var containerWidth: Double
    package var containerHeight: Double
    package var seed: UInt64
    package var sections: [ResolvedSection]
    /// `zoomFirst W x H` (horizontal flow only), or nil.
    package var zoomFirst: (width: Double, height: Double)? = nil
    /// `layoutDirection rightToLeft`: frames are mirrored once placed (docs/layout.md, "Right to left").
    package var rightToLeft = false
    package var snapping: Snapping = .next
    /// Motion: the shelves' own sideways offsets (`wfl run --shelf S=X`), by section index; a
    /// shelf not here is at 0 (docs/layout.md, "Shelf offsets").
    package var shelfOffsets: [Int: Double] = [:]
    /// How many `let` values the compiled rules cache per item.
    package var letCount: Int
    /// True when something is added on top of the engine's frames (Engines/Decorations.swift).
    /// (Read in place: a closure over the sections would copy each, and the REPL asks for every entry.)
    /// Each loop below reads stored fields of a section (`rare`, `rules`, `items`), never a
    /// computed property of it: through the array that copied the whole section, and the REPL
    /// asks for every entry.
    package var decorates: Bool {
        sections.withUnsafeBufferPointer { b in
            for k in b.indices {
                let rare = b[k].rare
                if rare.background != .none || !rare.attached.isEmpty || b[k].rules.entries.contains(where: { $0.slot.group == .attributes }) {
                    return true
                }
            }
            return false
        }
    }
    /// True when some section has an `update` block: the layout then has a table after its
    /// batch update (Engines/Updates.swift).
    package var hasUpdate: Bool {
        sections.withUnsafeBufferPointer { b in
            for k in b.indices where b[k].rare.update != nil { return true }
            return false
        }
    }
    /// The layout's batch update: each section's, empty where it has no `update` block.
    package var batch: BatchUpdate {
        let updates = sections.withUnsafeBufferPointer { b in
            b.indices.map { k in b[k].rare.update ?? SectionUpdate(countBefore: b[k].items) }
        }
        return BatchUpdate(sections: updates)
    }
    /// What the item limit counts of the layout: each section's larger item count, before or
    /// after its update (both tables are laid out).
    var countedItems: Int {
        sections.withUnsafeBufferPointer { b in
            b.indices.reduce(0) { $0 + Swift.max(b[$1].items, b[$1].rare.update?.countAfter ?? 0) }
        }
    }
    /// The indices of the sections that are shelves.
    var shelfIndices: [Int] {
        guard style == .shelf || style == .mixed else { return [] }
        return sections.withUnsafeBufferPointer { b in b.indices.filter { type(of: b[$0].engine).style == .shelf } }
    }
    /// True when some section has `estimate` (is self-sizing).
    var hasEstimate: Bool {
        sections.withUnsafeBufferPointer { b in b.indices.contains { b[$0].rare.estimate != nil } }
    }
    /// The names of the attached views, in the table's order (`ResolvedAttachment.kind` indexes it).
    package var attachedNames: [String] = []
    /// Where the first section starts along the scroll axis: 0, or, when only the sections
    /// appended to a laid-out table are laid out (`Program.appendSections`), where the last
    /// section of that table stopped.
    package var start = 0.0
    /// `safeArea`, physical (docs/layout.md, "The environment"); the table keeps it for the
    /// initial offset, pinning and the scrollable range.
    package var safeArea = Insets()
    /// The device in force, in the command-line form, or "".
    package var device = ""
    /// Keeps the user functions the rules call alive while this layout is (`FunctionBodies`).
    var functionBodies: AnyObject? = nil
}

extension RuleSet where Slot == SectionRule {
    /// The rules of a section that sets none: the default size, 50 x 50. One set that every such
    /// section shares, rather than two rules (and their words) per section (issue 27).
    nonisolated(unsafe) static let defaultSize: RuleSet<SectionRule> = {
        var out = RuleSet<SectionRule>()
        out[.naturalWidth] = ItemRule.constant(50, "the width of 'size'")
        out[.naturalHeight] = ItemRule.constant(50, "the height of 'size'")
        return out
    }()
}

/// A self-sizing section's `estimate` (docs/layout.md, "Self-sizing cells"): a waterfall's length
/// along the scroll axis (`width` nil), or a flow or shelf cell's size.
package struct EstimateRule: Equatable {
    /// The length (waterfall) or the height (flow, shelf; the width when `width` is set).
    package var length: ItemRule
    /// The width of `W x H`; nil in a waterfall.
    package var width: ItemRule?
    /// Where the setting stands.
    package var place: Span
}
