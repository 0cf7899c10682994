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

/// `snapping`: how `snap` rounds.
package enum Snapping: String, Sendable { case next, nearest }

/// `background`: which decoration view stands behind a section (docs/layout.md, "Section
/// backgrounds").
package enum BackgroundKind: String, Sendable { case none, items, cells, all }

/// An item rule (`height`, `width`, one side of `size`, `span`), compiled once, evaluated per item.
package struct ItemRule {
    /// The shapes that need no general evaluation.
    enum Kind {
        /// `height 100`.
        case constant(Double)
        /// `height [100, 150]` or a `let` of a constant list: element `i mod len`.
        case cycle([Double])
        /// Any other expression known to give a number.
        case number(NumCode)
        /// Any other expression: a number, or a list that cycles.
        case value(Code)
    }

    let kind: Kind
    /// "the height", "the width of 'size'", "the span": for messages.
    package let what: String
    /// Where the expression stands.
    package let span: Span
    /// Where the setting stands: a rule is reported once, at its first failing item.
    package let settingSpan: Span
    /// True when its value may depend on `n`, the item count (or cannot be known): appending items
    /// to the section may then change the items already there (`IncrementalLayout.append`).
    package var readsItemCount = false
    /// The rule as a straight-line program when it is simple enough (FlatRule.swift): the engines
    /// run that per item and fall back to `kind` where it gives up.
    var flat: FlatRule? = nil


    /// The rule's number for item `i`, with lists cycling.
    @inline(__always)
    package func evaluate(_ m: inout Machine, item i: Int) throws(EvalError) -> Double {
        switch kind {
        case .constant(let d): return d
        case .cycle(let xs): return xs[i % xs.count]
        case .number(let code):
            if let flat {
                var r = 0.0
                let count = m.randomCount
                if flat.run(&m, &r) { return r }
                m.randomCount = count
            }
            return try code(&m)
        case .value(let code): return try ItemRule.number(from: try code(&m), item: i, span: span, what: what)
        }
    }

    static func number(from v: Value, item i: Int, span: Span, what: String) throws(EvalError) -> Double {
        switch v {
        case .number(let d): return d
        case .list(let xs):
            guard !xs.isEmpty else {
                throw EvalError(.badListRule, "empty list", at: span, help: "a list here cycles over the items, so it needs at least one number")
            }
            switch xs[i % xs.count] {
            case .number(let d): return d
            case .list: throw EvalError(.badListRule, "list of lists", at: span, help: "a list here holds one number per item, and cycles")
            case let other: throw EvalError(.typeMismatch, "\(other.typeName) in a list where numbers are needed", at: span)
            }
        default:
            throw EvalError(.typeMismatch, "\(v.typeName) where a number (or a list of numbers) is needed", at: span)
        }
    }
}

/// How items get their size along the scroll axis.
package enum SizeRule {
    /// `height` (vertical) or `width` (horizontal): the length along the lane.
    case length(ItemRule)
    /// `size W x H`: a natural size scaled to the lane.
    case natural(ItemRule, ItemRule)
}

/// One section, resolved: a node of the layout (docs/ARCHITECTURE.md, "The engine layer"). Its
/// fields are the frame settings every engine shares (the items, insets, header and footer,
/// spacings, pinning, background, attached views, the per-item rules); `engine` is its engine with
/// what only that engine reads.
package struct ResolvedSection {
    package var index: Int
    package var name: String?
    package var items: Int
    package var insets: Insets
    package var headerInsets: Insets
    package var footerInsets: Insets
    /// Thickness along the scroll axis; 0 means none.
    package var header: Double
    package var footer: Double
    package var rowSpacing: Double
    package var columnSpacing: Double
    package var pinHeaders: Bool
    /// The section's engine and its configuration (Engines/Engine.swift).
    package var engine: any Engine
    package var pinFooters = false
    package var collapseEmpty: CollapseEmpty = .none
    /// nil: every item spans one lane.
    package var span: ItemRule?
    package var size: SizeRule
    /// Where the section is written, for errors about it as a whole: its `section` keyword, or for
    /// the one section of a layout without `section` blocks, the layout's keyword (the file's
    /// start in a file without layouts).
    package var place: Span = .point(0)
    /// Where `rowSpacing` (or `spacing`) is written, if it is: a shelf's rows that leave no room
    /// are reported there.
    package var rowSpacingPlace: Span? = nil
    /// Where `columnSpacing` (or `spacing`) is written, if it is.
    package var columnSpacingPlace: Span? = nil
    /// `background` and `backgroundInsets` (whose sides may be negative).
    package var background: BackgroundKind = .none
    package var backgroundInsets = Insets()
    /// `alpha`, `zoom` and `zIndex`, evaluated per cell at a scroll offset (Evaluation/Attributes.swift);
    /// nil when not set.
    package var attributes = AttributeRuleSet()
    /// The attached views, in the table's order.
    package var attached: [ResolvedAttachment] = []
    /// The section's `update` block, its indices checked and sorted; nil when it has none.
    package var update: SectionUpdate? = nil
    /// `appear { }` and `disappear { }`, as they cascade to this section (Evaluation/AppearRules.swift).
    package var appear = AppearRuleSet()
    package var disappear = AppearRuleSet()

    /// The section's engine by its `style` word (never `mixed`).
    package var style: LayoutStyle { type(of: engine).style }
}

/// The rules of an `appear` or `disappear` block as they cascade to a section; nil where not set
/// (alpha 0, zoom 1, offset 0 x 0).
package struct AppearRuleSet {
    package var alpha: ItemRule? = nil
    package var zoom: ItemRule? = nil
    package var dx: ItemRule? = nil
    package var dy: ItemRule? = nil
    package var isEmpty: Bool { alpha == nil && zoom == nil && dx == nil && dy == nil }
}

/// One attached view of a section (docs/layout.md, "Attached views"): its rules compiled, its
/// constants evaluated.
package struct ResolvedAttachment {
    /// Its name, the elements' kind.
    package var name: String
    /// Its position among the layout's attached names: the order of views in the table.
    package var kind: Int
    /// `when`: nil for every cell.
    var when: Code?
    var whenSpan: Span
    /// `size W x H` and `offset DX x DY`, per cell.
    var width: ItemRule, height: ItemRule
    var dx: ItemRule, dy: ItemRule
    package var anchor: AttachAnchor
    /// Added to its cell's z-index.
    package var zIndex: Int
    /// Some rule of it reads `col`, a waterfall cell's first lane, worked out only then.
    var readsLane = false
}

/// A section's attribute rules (docs/language.md, "Attributes").
package struct AttributeRuleSet {
    package var alpha: ItemRule? = nil
    package var zoom: ItemRule? = nil
    package var zIndex: ItemRule? = nil
    package var isEmpty: Bool { alpha == nil && zoom == nil && zIndex == nil }
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
    /// How many `let` values the compiled rules cache per item.
    package var letCount: Int
    /// True when something is added on top of the engine's frames (Engines/Decorations.swift).
    /// (Read in place: a closure over the sections would copy each, and the REPL asks for every entry.)
    package var decorates: Bool {
        sections.withUnsafeBufferPointer { b in
            for k in b.indices where b[k].background != .none || !b[k].attributes.isEmpty || !b[k].attached.isEmpty { return true }
            return false
        }
    }
    /// True when some section has an `update` block: the layout then has a table after its
    /// batch update (Engines/Updates.swift).
    package var hasUpdate: Bool {
        sections.withUnsafeBufferPointer { b in
            for k in b.indices where b[k].update != nil { return true }
            return false
        }
    }
    /// The layout's batch update: each section's, empty where it has no `update` block.
    package var batch: BatchUpdate {
        BatchUpdate(sections: sections.map { $0.update ?? SectionUpdate(countBefore: $0.items) })
    }
    /// The names of the attached views, in the table's order (`ResolvedAttachment.kind` indexes it).
    package var attachedNames: [String] = []
    /// Where the first section starts along the scroll axis: 0, or, when only the sections
    /// appended to a laid-out table are laid out (`Program.appendSections`), where the last
    /// section of that table stopped.
    package var start = 0.0
    /// Keeps the user functions the rules call alive while this layout is (`FunctionBodies`).
    var functionBodies: AnyObject? = nil
}
