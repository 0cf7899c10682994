/// Motion (docs/language.md, "Transforms and shelf offsets"): the checks the resolver makes on
/// the rules that read `sx`, a shelf's own sideways offset.

extension Resolver {
    /// False, after reporting it, when `e` (the value of setting `w`) reads `sx` in a section
    /// that is not a shelf: an error wherever the rule reaches, evaluated there or not.
    mutating func sxAllowed(_ e: Expr, _ w: Written) -> Bool {
        guard style != .shelf else { return true }
        let deps = compiler.compile(e).deps
        guard deps.vars & EngineVar.sx.bit != 0 else { return true }
        fail(.error(.sxOutsideShelf, "'sx' has no value in '\(w.setting.name.text)' of a section that is not a shelf", at: e.span,
                    help: "'sx' is a shelf's own sideways offset: write the rule in a 'style shelf' section, or use 'p' or 'midX'"),
             key: w.span)
        return false
    }
}

extension ExpectQuery {
    /// Where the shelf form's section and sx stand among `count` arguments (`count(x, y, w, h,
    /// ox, oy, s, sx)`; the others take sx last, their section first), or nil for another form.
    static func shelfArgument(_ q: ExpectQuery, _ count: Int) -> Int? {
        switch (q, count) {
        case (.frame, 5), (.alpha, 5), (.zoom, 5), (.zIndex, 5), (.translate, 5), (.rotate, 5): return 0
        case (.count, 8): return 6
        case (.attached, 6): return 1
        case (.background, 4): return 0
        default: return nil
        }
    }
}

extension AttributeTable {
    /// The table with shelf `s` at its own offset `sx` instead of 0 (the expectation forms with
    /// sx last): its cells and their attached views move by -sx before the mirror (+sx after
    /// it), a `cells` background with them, and its rules see `sx`. Nil when section s is not
    /// a shelf.
    package func atShelf(_ s: Int, _ sx: Double) -> AttributeTable? {
        guard s < sectionStarts.count, scroll.shelves.contains(where: { $0.section == s }) else { return nil }
        var out = self
        let dx = scroll.rightToLeft ? sx : -sx
        let st = sectionStarts[s]
        var box: Frame? = nil
        for j in st.firstCell..<(st.firstCell + st.cellCount) {
            let f = elements[j].frame
            box = box.map { b in
                let x0 = Swift.min(b.x, f.x), y0 = Swift.min(b.y, f.y)
                return Frame(x: x0, y: y0, width: Swift.max(b.x + b.width, f.x + f.width) - x0, height: Swift.max(b.y + b.height, f.y + f.height) - y0)
            } ?? f
            out.elements[j].frame.x += dx
        }
        for j in st.firstView..<(st.firstView + st.viewCount) { out.elements[j].frame.x += dx }
        // A `cells` background is the smallest rect holding the cells: it moves with them.
        if let b = st.background, let box, elements[b].frame == box { out.elements[b].frame.x += dx }
        if dx != 0 { out.index = RectIndex(out.elements, sequence: index.sequence) }
        if let rules = rules.attributes { out.rules.attributes = rules.withShelf(s, sx) }
        return out
    }
}

extension TableRules {
    /// The same rules with shelf `s` at `sx`.
    func withShelf(_ s: Int, _ sx: Double) -> TableRules {
        var secs = sections
        if s < secs.count { secs[s].sx = sx }
        return TableRules(sections: secs, seed: seed, letCount: letCount, cw: cw, ch: ch, functionBodies: functionBodies)
    }
}
