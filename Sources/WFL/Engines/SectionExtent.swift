/// A section never ends before it starts (docs/layout.md, "Negative spacings"): its items'
/// extent along the scroll axis, `bottom - itemsStart`, is at least 0, so the section takes at
/// least its header's and insets' room and its footer never lands inside its header. A negative
/// spacing can pull a flow's lines back past their start (`bottom` is the last line's end); such
/// a section is the no-room error at that spacing, as a shelf's band with no room is. A
/// waterfall's `bottom` is its items' largest end, never above `itemsStart`.
extension SectionStack {
    /// Throws when the items of flow section `sec`, starting at `itemsStart`, end at `bottom`
    /// before it.
    @inline(__always)
    func checkExtent(_ sec: ResolvedSection, itemsStart: Double, bottom: Double) throws(Diagnostic) {
        if bottom >= itemsStart { return }
        let word = vertical ? "rowSpacing" : "columnSpacing"
        let spacing = vertical ? sec.rowSpacing : sec.columnSpacing
        throw Diagnostic.error(.noRoom, "the lines of section \(sec.index) leave no room: with '\(word)' \(NumberFormat.format(spacing)) they end \(NumberFormat.format(itemsStart - bottom)) before they start",
                               at: (vertical ? sec.rowSpacingPlace : sec.columnSpacingPlace) ?? sec.place,
                               help: "make '\(word)' larger, at least minus the thinnest line")
    }
}
