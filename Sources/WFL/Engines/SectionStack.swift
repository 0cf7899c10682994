/// What every engine does around a section's items (docs/layout.md, "Sections and content size",
/// "Header and footer"). Sections stack along the scroll axis with nothing between them, from
/// `top = 0`; each is its header (with its insets), `ins.top`, its items (each engine's own, ending
/// at `bottom`), `top = bottom + ins.bottom` (the section's end), then its footer. The content size
/// is the container's side across the scroll axis and `top` after the last section.
///
/// Vertical is written out; horizontal is the same along x (`left` for `top`, `right` for
/// `bottom`). The waterfall, the flow and the waterfall's append path all go through here, so a
/// section starts and ends with the same operations in each.
package struct SectionStack {
    let vertical: Bool
    /// cw, ch: the container.
    let cw: Double, ch: Double

    init(_ layout: ResolvedLayout) {
        vertical = layout.direction == .vertical
        cw = layout.containerWidth
        ch = layout.containerHeight
    }

    /// An empty table for `layout`.
    static func table(for layout: ResolvedLayout) -> AttributeTable {
        AttributeTable(name: layout.name, style: layout.style, direction: layout.direction,
                       containerWidth: layout.containerWidth, containerHeight: layout.containerHeight)
    }

    /// The storage an engine's whole-layout path writes its elements into through a pointer: an
    /// older table's (`spare`) made at least as long as every section's header, cells and footer
    /// (the path cuts it to size after).
    static func writableElements(_ spare: consuming [Element], for layout: ResolvedLayout) -> [Element] {
        var elements = consume spare
        let most = layout.sections.reduce(0) { $0 + $1.items + 2 }
        if elements.count < most {
            elements.append(contentsOf: repeatElement(Element(cell: 0, section: 0, frame: Frame(x: 0, y: 0, width: 0, height: 0)),
                                                      count: most - elements.count))
        }
        return elements
    }

    /// A machine for `layout`'s item rules, with cw and ch set.
    func machine(for layout: ResolvedLayout) -> Machine {
        var m = Machine(seed: layout.seed, letCount: layout.letCount)
        m.set(.cw, cw)
        m.set(.ch, ch)
        return m
    }

    /// aw = cw - ins.left - ins.right; ah = ch - ins.top - ins.bottom.
    func available(_ sec: ResolvedSection) -> (aw: Double, ah: Double) {
        let ins = sec.insets
        return (cw - ins.left - ins.right, ch - ins.top - ins.bottom)
    }

    /// Sets the section's variables that every engine's item rules read: s, aw, ah and n.
    func enter(_ sec: ResolvedSection, machine m: inout Machine) {
        let (aw, ah) = available(sec)
        m.set(.s, Double(sec.index))
        m.set(.aw, aw)
        m.set(.ah, ah)
        m.set(.n, Double(sec.items))
    }

    /// Section `sec` opened at `top`: its header, nil when it has none, and where its items start
    /// (after the header and `ins.top`).
    func opening(_ sec: ResolvedSection, at top: Double) -> (header: Element?, itemsStart: Double) {
        var top = top
        var header: Element? = nil
        // `collapseEmpty`: an empty section drops its insets (`insets`), and its header and footer
        // too (`all`).
        let collapse = sec.items == 0 ? sec.collapseEmpty : .none
        if sec.header > 0, collapse != .all {
            header = supplementary(.header, sec.index, sec.header, sec.headerInsets, top: &top)
        }
        // top += ins.top (ins.left when horizontal).
        if collapse == .none { top += vertical ? sec.insets.top : sec.insets.left }
        return (header, top)
    }

    /// Opens section `sec` at `top`: appends its header to `out`. Returns the section's row of the
    /// table's index, its cells to be written from `out.count` on, and where its items start.
    @inline(__always)
    func open<Out: ElementSink>(_ sec: ResolvedSection, at top: Double,
                                into out: inout Out) -> (index: AttributeTable.SectionIndex, itemsStart: Double) {
        var index = AttributeTable.SectionIndex(header: nil, firstCell: 0, cellCount: sec.items, footer: nil, end: 0,
                                                pinHeaders: sec.pinHeaders, pinFooters: sec.pinFooters, begin: top, style: sec.style)
        let (header, itemsStart) = opening(sec, at: top)
        if let header {
            index.header = out.count
            out.append(header)
        }
        index.firstCell = out.count
        return (index, itemsStart)
    }

    /// Closes section `sec`, whose items end at `bottom` (where they start when it has none):
    /// `top = bottom + ins.bottom` is its end, then its footer is appended to `out`. Completes
    /// `index` and returns where the next section starts.
    @inline(__always)
    ///
    /// Every position along the scroll axis grows from 0 by finite sizes, so the section's stop is
    /// the largest coordinate written so far: when it is not finite, some position of the section
    /// overflowed the doubles, and the layout is an error rather than a table with `Infinity` in it.
    func close<Out: ElementSink>(_ sec: ResolvedSection, bottom: Double, index: inout AttributeTable.SectionIndex,
                                 into out: inout Out) throws(Diagnostic) -> Double {
        // top = bottom + ins.bottom (ins.right when horizontal): the section's end.
        let collapse = sec.items == 0 ? sec.collapseEmpty : .none
        var top = collapse == .none ? bottom + (vertical ? sec.insets.bottom : sec.insets.right) : bottom
        index.end = top
        if sec.footer > 0, collapse != .all {
            index.footer = out.count
            out.append(supplementary(.footer, sec.index, sec.footer, sec.footerInsets, top: &top))
        }
        index.stop = top
        guard top.isFinite else {
            throw Diagnostic.error(.positionOverflow, "section \(sec.index) reaches past the largest number a position can have (about 1.8e308)",
                                   at: sec.place, help: "the sizes, insets or spacings add up to more than a double holds: make them smaller")
        }
        return top
    }

    /// A header or footer of thickness `thickness` at `top`, which moves past it and its insets
    /// `hi`: it spans the container, ignoring the section's side insets.
    @inline(__always)
    func supplementary(_ kind: ElementKind, _ s: Int, _ thickness: Double, _ hi: Insets, top: inout Double) -> Element {
        let frame: Frame
        if vertical {
            top += hi.top
            frame = Frame(x: hi.left, y: top, width: cw - hi.left - hi.right, height: thickness)
            top += thickness + hi.bottom
        } else {
            top += hi.left
            frame = Frame(x: top, y: hi.top, width: thickness, height: ch - hi.top - hi.bottom)
            top += thickness + hi.right
        }
        return Element(kind: kind, section: s, item: nil, frame: frame, zIndex: ZIndex.supplementary)
    }

    /// The content size with the last section stopping at `top`: (cw, top) for vertical, (top, ch)
    /// for horizontal.
    func setContentSize(_ table: inout AttributeTable, top: Double) {
        if vertical {
            table.contentWidth = cw
            table.contentHeight = top
        } else {
            table.contentWidth = top
            table.contentHeight = ch
        }
    }
}

/// Where an engine writes a section's elements: the table's array, or the flow engine's buffer.
protocol ElementSink {
    var count: Int { get }
    mutating func append(_ element: TableElement)
}

/// `Element` under a name that `Array`'s own `Element` does not hide.
typealias TableElement = Element

extension Array: ElementSink where Element == TableElement {}
