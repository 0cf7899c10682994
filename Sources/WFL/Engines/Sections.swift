/// Laying out a layout section by section (docs/layout.md, "Mixed sections"): each section by the
/// engine its `style` names, stacked along the scroll axis as every engine stacks its own. A layout
/// whose sections share a waterfall or flow style goes to that engine whole (its fast paths stay
/// as they are); a layout with a shelf or with mixed styles goes here, section by section. Then,
/// with `layoutDirection rightToLeft`, the frames are mirrored.
package enum Sections {
    /// Lays out every section of `layout` with its own engine.
    package static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) -> Result<AttributeTable, LayoutFailure> {
        Sections.layout(layout, warnings: &warnings, spareElements: [], spareLevels: [])
    }

    /// The same, building the table in the storage of an older table's elements and index levels
    /// where the engine can (`AttributeTable.relayout`).
    static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic], spareElements: consuming [Element],
                       spareLevels: consuming [[RectIndex.Box]]) -> Result<AttributeTable, LayoutFailure> {
        var result: Result<AttributeTable, LayoutFailure>
        switch layout.style {
        case .waterfall:
            result = Waterfall.layout(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
        case .flow:
            result = Flow.layout(layout, warnings: &warnings, spareElements: spareElements, spareLevels: spareLevels)
        case .shelf, .mixed:
            do throws(Diagnostic) {
                result = .success(try mixed(layout, warnings: &warnings))
            } catch {
                result = .failure(LayoutFailure([error]))
            }
        }
        let appearRules = TableRules.of(layout, .transitions)
        guard layout.rightToLeft || layout.decorates || appearRules != nil, case .success(var table) = result else {
            return FiniteFrames.checked(layout, result)
        }
        // Section backgrounds and attached views are placed from the frames in left-to-right
        // coordinates (steps 1 and 4 of the order of evaluation, docs/layout.md), then mirrored.
        if layout.decorates {
            do throws(Diagnostic) { try Decorations.place(layout, &table) } catch { return .failure(LayoutFailure([error])) }
        }
        // The mirror is the last step of placing (docs/layout.md, "Right to left"): whatever is
        // placed from the frames before it (section backgrounds from the sections' extents,
        // views attached to cells) must be placed above this line, in left-to-right
        // coordinates, and is mirrored with the rest; whatever reads frames as shown (attribute
        // rules, transitions) reads the table after it. Pinning, which comes before the mirror
        // too, is derived at an offset from these stored frames (ScrollOffsets.swift, `pinned`).
        if layout.rightToLeft { table.mirror() }
        // The attribute rules read the frames as shown, mirrored (step 6).
        if layout.decorates {
            do throws(Diagnostic) { try Decorations.evaluate(layout, &table) } catch { return .failure(LayoutFailure([error])) }
        }
        // Step 7, the transitions of a batch update (`appear`, `disappear`), reads the frames,
        // alphas and zooms as they stand here, at the offset (`at`); the rules ride on the table
        // (Table/TransitionPairing.swift).
        table.appearRules = appearRules
        return FiniteFrames.checked(layout, .success(table))
    }

    /// Each section with the engine of its style, one after another.
    static func mixed(_ layout: ResolvedLayout, warnings: inout [Diagnostic]) throws(Diagnostic) -> AttributeTable {
        var table = SectionStack.table(for: layout)
        table.elements.reserveCapacity(layout.sections.reduce(0) { $0 + $1.items + ($1.header > 0 ? 1 : 0) + ($1.footer > 0 ? 1 : 0) })
        table.sectionStarts.reserveCapacity(layout.sections.count)
        let stack = SectionStack(layout)
        var m = stack.machine(for: layout)
        // Sections stack along the scroll axis with nothing between them; `top` starts at 0.
        var top = layout.start
        var itemsStart = 0.0
        var firstSize: (Double, Double)? = nil
        var laneGroups: [Waterfall.LaneGroup] = []
        // The index is built once at the end, over every section.
        var leaves = RectIndex.LeafBuilder(storage: [], active: false)
        for sec in layout.sections {
            switch sec.style {
            case .waterfall:
                top = try Waterfall.lay(sec, stack, top: top, machine: &m, into: &table, laneGroups: &laneGroups, leaves: &leaves,
                                        warnings: &warnings)
            case .flow:
                // The flow engine writes through a buffer long enough for the section.
                let base = table.elements.count
                table.elements.append(contentsOf: repeatElement(Element(cell: 0, section: 0, frame: Frame(x: 0, y: 0, width: 0, height: 0)),
                                                                count: sec.items + 2))
                var count = base
                var starts = table.sectionStarts
                table.sectionStarts = []
                let r: Result<(Double, Double, (Double, Double)?), Diagnostic> = table.elements.withUnsafeMutableBufferPointer { buffer in
                    var out = Flow.Output(elements: buffer, count: base)
                    defer { count = out.count }
                    do throws(Diagnostic) {
                        return .success(try Flow.lay(sec, stack, top: top, machine: &m, into: &out, sections: &starts,
                                                     warnings: &warnings, leaves: &leaves))
                    } catch {
                        return .failure(error)
                    }
                }
                table.sectionStarts = starts
                table.elements.removeLast(table.elements.count - count)
                switch r {
                case .success(let (start, stop, size)):
                    top = stop
                    if sec.index == 0 { (itemsStart, firstSize) = (start, size) }
                case .failure(let error):
                    throw error
                }
            case .shelf, .mixed:
                top = try Shelf.lay(sec, stack, top: top, machine: &m, into: &table.elements, sections: &table.sectionStarts,
                                    bands: &table.shelves)
            }
        }
        stack.setContentSize(&table, top: top)
        table.noteScrollGeometry(layout, itemsStart: itemsStart, firstSize: firstSize)
        table.index = RectIndex(table.elements, sequence: Waterfall.sequence(laneGroups, count: table.elements.count))
        return table
    }
}

extension AttributeTable {
    /// Mirrors every frame for `layoutDirection rightToLeft` (docs/layout.md, "Right to left"):
    /// vertical `x' = cw - x - w`; horizontal `x' = max(contentWidth, cw) - x - w`. The index is
    /// built again over the mirrored frames, in the same sequence.
    mutating func mirror() {
        let width = mirrorWidth
        for j in elements.indices {
            let f = elements[j].frame
            elements[j].frame.x = width - f.x - f.width
        }
        rightToLeft = true
        index = RectIndex(elements, sequence: index.sequence)
    }

    /// The width frames are mirrored within: cw when vertical, max(contentWidth, cw) when
    /// horizontal.
    var mirrorWidth: Double { direction == .vertical ? containerWidth : Swift.max(contentWidth, containerWidth) }
}
