/// The engine layer (docs/ARCHITECTURE.md, "The engine layer"): a section is a node, the frame
/// settings every engine shares (`ResolvedSection`) with a value of its engine, which holds what
/// only that engine reads (its lanes, its lines, its band). An engine places a node's items in the
/// region after the node's header and insets, writing through an `ElementWriter`, and returns
/// their extent along the scroll axis; `SectionStack.lay` puts the header before and the footer
/// after, the same for every engine, and is where a node may one day hold nodes.
///
/// Adding an engine: its file (a type conforming to `Engine`), its row in `EngineTable`
/// (Syntax/EngineTable.swift: its `style` word, the settings it reads, why it refuses the others),
/// its case of `LayoutStyle`, and its line in `Engines.all` below (docs/CONTRIBUTING.md).

/// One layout algorithm with its configuration for one section.
package protocol Engine: Sendable {
    /// The word of `style` that picks it (its declaration is `EngineTable.declaration(style)`).
    static var style: LayoutStyle { get }

    /// The engine's configuration, read from a section's settings as they cascade, with their
    /// checks (the resolver reports what is wrong; what it gives then does not matter).
    static func configure(_ settings: inout some SectionSettings) -> Self

    /// Places the items of `sec`, whose header and insets end at `start` along the scroll axis,
    /// through `writer`; returns where they end along that axis (`start` when there are none).
    func place(_ sec: ResolvedSection, from start: Double, _ stack: SectionStack,
               into writer: inout ElementWriter) throws(Diagnostic) -> Double

    /// A layout whose sections are all of this engine, laid out whole on the engine's own fast
    /// paths, in the storage of an older table where it can (`AttributeTable.relayout`); nil when
    /// the engine has none, and the section stacker lays it out (`Sections.stacked`).
    static func layoutWhole(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                            spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure>?

    /// True when `layoutWhole` is the engine's own (it may then take the spare storage).
    static var hasWholePath: Bool { get }
}

extension Engine {
    package static func layoutWhole(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                                    spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure>? {
        nil
    }

    package static var hasWholePath: Bool { false }
}

/// The registration of every engine: the one place a new engine is added.
package enum Engines {
    package static let all: [any Engine.Type] = [WaterfallEngine.self, FlowEngine.self, ShelfEngine.self,
                                                  GroupsEngine.self, GridEngine.self]

    /// The engine of a `style` (nil for `mixed`).
    package static func engine(_ style: LayoutStyle) -> (any Engine.Type)? {
        all.first { $0.style == style }
    }
}

/// A section's settings as an engine's `configure` reads them: the resolver's cascade, each value
/// checked, an error reported once where the setting is written (Evaluation/Resolver.swift).
package protocol SectionSettings {
    /// The layout's scroll direction.
    var direction: Direction { get }
    /// The word written for `property`, or `fallback` when none is (or its engine does not use it).
    func word<T: RawRepresentable>(_ property: Property, _ fallback: T) -> T where T.RawValue == String
    /// A number of at least 0 written for `property`, or `fallback`.
    mutating func number(_ property: Property, default fallback: Double) -> Double
    /// A spacing written for `property`: any finite number, negative ones included (items then
    /// overlap), or `fallback`.
    mutating func spacing(_ property: Property, default fallback: Double) -> Double
    /// Where the setting that gives `property` its value is written, if it is.
    func place(_ property: Property) -> Span?
    /// A lane count: `columns` (`across`) or `rows`, N or `adaptive(MIN)`, from 1 to 1,000, or
    /// `fallback`. With `checkRoom`, lanes (floored to 1/`scale` when it is above 0) that come out
    /// 0 wide or less, or not finite, are an error.
    mutating func lanes(across: Bool, default fallback: Int, checkRoom: Bool, scale: Double) -> Int
    /// A length of at least 0 written for `property`, evaluated with the section's variables and
    /// `variable` = `value` (a grid's `rowHeight` reads `w`); nil when none is written (or on an error).
    mutating func length(_ property: Property, variable: EngineVar, value: Double) -> Double?
    /// The width of each of `lanes` lanes across the available width (`across`) or height, less
    /// the spacings between them: `(aw - (N - 1) * cs) / N`.
    func laneWidth(_ lanes: Int, across: Bool) -> Double
}

/// What the engines write a layout into, section after section: the table (its elements, its
/// index rows, what it keeps of an engine such as the shelves' bands), the leaves of its rect
/// index, the machine of the item rules, and what the index's sequence and the scroll geometry
/// need of the engines.
package struct ElementWriter {
    package var table: AttributeTable
    var machine: Machine
    /// Leaf boxes of the rect index, made as the cells are written (`active` false: the index is
    /// built at the end, over every section).
    var leaves: RectIndex.LeafBuilder
    /// The waterfall's round-robin sections: each cell's first lane, for the index's sequence.
    var laneGroups: [Waterfall.LaneGroup] = []
    /// Where section 0's items start and the own size of its item 0, for the scroll geometry of a
    /// flow section 0 (`noteScrollGeometry`).
    var itemsStart = 0.0
    var firstSize: (Double, Double)? = nil
    var warnings: [Diagnostic] = []
}

extension SectionStack {
    /// Section `sec` laid out by `engine` from `top`: its header and `ins.top`, the engine's items,
    /// `ins.bottom` and its footer, and its row of the table's index. Returns where the next
    /// section starts.
    @inline(__always)
    func lay<E: Engine>(_ sec: ResolvedSection, _ engine: E, top: Double, into w: inout ElementWriter) throws(Diagnostic) -> Double {
        var (index, start) = open(sec, at: top, into: &w.table.elements)
        let bottom = try engine.place(sec, from: start, self, into: &w)
        let stop = try close(sec, bottom: bottom, index: &index, into: &w.table.elements)
        w.table.sectionStarts.append(index)
        return stop
    }
}
