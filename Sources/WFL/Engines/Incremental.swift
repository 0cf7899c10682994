/// Laying out again without starting over: appending items to a laid-out section, and laying a
/// layout out into an old table's storage. The benchmark's `append` row and an app that grows a
/// feed use them; `wfl run`, `wfl test` and the REPL do not. They have this entry point of their
/// own, and the short path of appending takes only layouts whose every setting and block it
/// knows (`IncrementalLayout.knownProperties`): anything else, a setting added later included,
/// lays the layout out whole, so a new feature needs nothing here to stay correct.
package struct IncrementalLayout {
    /// The resolved layout, with the items appended so far.
    package private(set) var layout: ResolvedLayout
    /// Its table: always what a full layout of `layout` gives.
    package private(set) var table: AttributeTable
    /// True when the program writes, for this layout, only settings and blocks the short path of
    /// `append` knows.
    package let isPlain: Bool

    /// The properties the short path of `append` (Engines/WaterfallAppend.swift) handles, or
    /// leaves to the full layout by its own checks (a round-robin order, a mirrored or flow
    /// layout). Backgrounds, attribute rules, attached views and `appear` rules are placed over
    /// the whole table (Engines/Decorations.swift): not here.
    static let knownProperties: Set<Property> = [
        .style, .container, .direction, .columns, .rows, .order, .rowSpacing, .columnSpacing,
        .insetsTop, .insetsLeft, .insetsBottom, .insetsRight, .header, .footer,
        .headerInsetsTop, .headerInsetsLeft, .headerInsetsBottom, .headerInsetsRight,
        .footerInsetsTop, .footerInsetsLeft, .footerInsetsBottom, .footerInsetsRight,
        .pinHeaders, .pinFooters, .items, .sizeRule, .span, .justify, .align, .zoomFirst, .scale, .seed,
        .layoutDirection, .paging, .snapping, .collapseEmpty,
    ]

    /// Resolves and lays out the layout `name` of `program`; nil when it has no such layout.
    package init?(program: Program, layout name: String) throws(LayoutFailure) {
        guard let k = program.layoutIndex(named: name), let resolved = program.resolve(layoutNamed: name) else { return nil }
        layout = try resolved.get()
        table = try program.run(layout).get()
        isPlain = IncrementalLayout.isPlain(program, layout: program.hasLayoutBlocks ? program.file.layouts[k] : nil)
    }

    /// True when the file, the layout block and its sections set only known properties and hold
    /// no `attach` or `update` block.
    static func isPlain(_ program: Program, layout: BlockRecord?) -> Bool {
        let blocks = [program.file] + (layout.map { [$0] } ?? []) + (layout?.sections ?? program.file.sections)
        return blocks.allSatisfy { b in
            b.attaches.isEmpty && b.updates.isEmpty && b.properties.written.allSatisfy(knownProperties.contains)
        }
    }

    /// Appends `count` items to section `s`; the table becomes exactly what a full layout of the
    /// grown layout gives, index included.
    ///
    /// For the last section of a plain waterfall with `order shortest` (the infinite feed) this
    /// costs time proportional to `count`, not to the table (amortised: the table's storage
    /// grows geometrically when full). Otherwise (flow, a round-robin order, a rule that reads
    /// `n`, a section followed by others, a setting the short path does not know) the layout is
    /// computed again. On failure both are unchanged.
    package mutating func append(_ count: Int, toSection s: Int) throws(LayoutFailure) {
        precondition(count >= 0 && s >= 0 && s < layout.sections.count, "append: no such section, or a negative count")
        let old = layout.sections[s].items
        // The count grows in place (a copy of the layout would copy its sections, rules and all,
        // for each append), and goes back on failure.
        layout.sections[s].items = old + count
        // The short way needs a plain waterfall: a mirrored table, or an empty section that
        // collapsed, is laid out again.
        if isPlain, layout.style == .waterfall, !layout.rightToLeft, old > 0 || layout.sections[s].collapseEmpty == .none {
            do {
                if try Waterfall.append(layout, section: s, from: old, to: &table) { return }
            } catch {
                layout.sections[s].items = old
                throw LayoutFailure([error])
            }
        }
        var warnings: [Diagnostic] = []
        switch Sections.layout(layout, warnings: &warnings) {
        case .success(let t):
            table = t
        case .failure(let f):
            layout.sections[s].items = old
            throw f
        }
    }

    /// Lays out `layout` into `table`, reusing its storage (the elements' array and the index's
    /// levels) instead of allocating a new table: the result is the table `Program.run` gives.
    /// For an app that lays out again and again (a rotation, a changed spec), and for the
    /// benchmark. On failure the table is left empty.
    package static func relayout(_ layout: ResolvedLayout, into table: inout AttributeTable, warnings: inout [Diagnostic]) throws(LayoutFailure) {
        let spareElements = table.elements
        let spareLevels = table.index.levels
        table = AttributeTable(name: table.name, style: table.style, direction: table.direction, containerWidth: 0, containerHeight: 0)
        let result = Sections.layout(layout, warnings: &warnings, spareElements: consume spareElements, spareLevels: consume spareLevels)
        switch result {
        case .success(let t): table = t
        case .failure(let f): throw f
        }
    }

    /// Lays the layout out again into its table's storage.
    package mutating func relayout() throws(LayoutFailure) {
        var warnings: [Diagnostic] = []
        try IncrementalLayout.relayout(layout, into: &table, warnings: &warnings)
    }
}
