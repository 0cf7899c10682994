/// The html page's shelf sliders (docs/usage.md, "Pictures"): for each shelf whose band scrolls
/// sideways, the layout's table as `wfl run --shelf S=X` gives it at each offset of the slider.
/// A shelf's offset moves its cells before backgrounds, the mirror and the attribute rules
/// (docs/layout.md, "Shelf offsets and transforms"), so each stop is the file evaluated again with that offset; the page shows these
/// tables and computes nothing itself.

extension Compilation {
    /// The most elements a layout may have for its shelves to get sliders: each stop evaluates
    /// the file again.
    package static let shelfSliderLimit = 20_000

    /// The sliders of `tables` (this compilation's layouts as printed: `only` the one named, the
    /// tables after their updates with `after`), the shelves at `given` otherwise. A layout
    /// larger than `shelfSliderLimit`, or whose file fails at some stop, gets none.
    package func shelfSliders(_ tables: [AttributeTable], only: String?, given: [Int: Double], after: Bool) -> [HTMLFormat.ShelfSlider] {
        var out: [HTMLFormat.ShelfSlider] = []
        for (k, t) in tables.enumerated() where t.elements.count <= Compilation.shelfSliderLimit {
            for band in t.scroll.shelves {
                let sx0 = given[band.section] ?? 0
                guard let (values, start) = HTMLFormat.shelfValues(band.width, containerWidth: t.containerWidth, given: sx0) else { continue }
                var stops: [AttributeTable] = []
                for v in values {
                    var shelves = given
                    shelves[band.section] = v
                    let e = Pipeline.evaluate(self, only: only, shelves: shelves)
                    guard !e.hasErrors, k < e.layouts.count else { break }
                    stops.append(e.layouts[k].table(after ? .afterUpdate : .beforeUpdate))
                }
                guard stops.count == values.count else { continue }
                out.append(HTMLFormat.ShelfSlider(layout: k, section: band.section, values: values, start: start, tables: stops))
            }
        }
        return out
    }
}
