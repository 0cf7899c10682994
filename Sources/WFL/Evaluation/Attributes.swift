/// The attribute rules `alpha`, `zoom` and `zIndex` (docs/language.md, "Attributes"; docs/layout.md,
/// "Attributes at a scroll offset"): evaluated for each cell at the scroll offset, on its frame as
/// shown, after pinning and `zoomFirst` (step 6 of the order of evaluation). A table keeps its
/// layout's rules (`AttributeTable.rules.attributes`) and evaluates them when it is taken to an offset
/// (`at`, `only`) and when an expectation asks; only the cells asked about are evaluated, so a
/// `--rect` query costs the cells it returns.

/// The per-cell rules a table keeps to be evaluated at an offset, with their values where it was
/// taken: kept beside its elements (`AttributeTable.rules`).
package struct CellRules: Equatable, Sendable {
    /// The layout's `alpha`, `zoom` and `zIndex` rules, evaluated when the table is taken to an
    /// offset; nil without any, and in a table already at an offset.
    package var attributes: AttributeRules? = nil
    /// Each element's alpha and zoom, in table order; empty when every one is 1.
    package var alphas: [Double] = []
    package var zooms: [Double] = []
    /// The error of an attribute rule at the offset this table was taken to, if one failed.
    package var attributeFailure: Diagnostic? = nil
    /// Where each attached view sits on its cell (Engines/Decorations.swift); nil without any.
    package var views: AttachedViews? = nil
    /// The layout's `appear` and `disappear` rules (Evaluation/AppearRules.swift), for the
    /// transitions of an update (Table/TransitionPairing.swift); nil without any.
    package var appearRules: AppearRules? = nil
}

/// A layout's attribute rules, with what their variables need. A class, so that a table and
/// its copies at offsets share one.
package final class AttributeRules: @unchecked Sendable, Equatable {
    struct Section {
        var items: Int
        var aw: Double, ah: Double
        var rules: AttributeRuleSet
    }

    let sections: [Section]
    let seed: UInt64
    let letCount: Int
    let cw: Double, ch: Double
    /// Keeps the user functions the rules call alive.
    let functionBodies: AnyObject?

    /// The rules of `layout`, or nil when no section has any.
    static func of(_ layout: ResolvedLayout) -> AttributeRules? {
        guard layout.sections.contains(where: { !$0.attributes.isEmpty }) else { return nil }
        return AttributeRules(layout)
    }

    init(_ layout: ResolvedLayout) {
        sections = layout.sections.map { sec in
            let ins = sec.insets
            return Section(items: sec.items, aw: layout.containerWidth - ins.left - ins.right,
                           ah: layout.containerHeight - ins.top - ins.bottom, rules: sec.attributes)
        }
        seed = layout.seed
        letCount = layout.letCount
        cw = layout.containerWidth
        ch = layout.containerHeight
        functionBodies = layout.functionBodies
    }

    /// The same rules: written at the same places of the source, for sections of the same items
    /// and room (two evaluations of one file give equal tables). Closures cannot be compared, but
    /// a rule's place fixes its expression. (`letCount` is left out: it sizes a cache, and a
    /// program that has also compiled an expression typed alone in the REPL counts more `let`s.)
    package static func == (a: AttributeRules, b: AttributeRules) -> Bool {
        if a === b { return true }
        func same(_ x: ItemRule?, _ y: ItemRule?) -> Bool {
            x?.span == y?.span && x?.settingSpan == y?.settingSpan && x?.what == y?.what
        }
        return a.seed == b.seed && a.cw == b.cw && a.ch == b.ch && a.sections.count == b.sections.count
            && zip(a.sections, b.sections).allSatisfy { x, y in
                x.items == y.items && x.aw == y.aw && x.ah == y.ah
                    && same(x.rules.alpha, y.rules.alpha) && same(x.rules.zoom, y.rules.zoom) && same(x.rules.zIndex, y.rules.zIndex)
            }
    }

    /// A machine for the rules, with cw and ch set.
    func machine() -> Machine {
        var m = Machine(seed: seed, letCount: letCount)
        m.set(.cw, cw)
        m.set(.ch, ch)
        return m
    }

    /// The alpha, zoom and z-index of item `i` of section `s`, whose frame at `offset` is `f`;
    /// `zIndex` is its z-index without a rule. Values within 0.001 of their range are clamped
    /// into it, a z-index within 0.001 of a whole number rounded; further out is an error naming
    /// the item.
    func values(section s: Int, item i: Int, frame f: Frame, offset: Offset, zIndex: Int,
                _ m: inout Machine) throws(Diagnostic) -> (alpha: Double, zoom: Double, zIndex: Int) {
        guard s < sections.count else { return (1, 1, zIndex) }
        let sec = sections[s]
        let rules = sec.rules
        if rules.isEmpty { return (1, 1, zIndex) }
        m.beginElement(item: i, section: s, count: sec.items, aw: sec.aw, ah: sec.ah, frame: f, offset: offset)
        let place = AttributeRange.place(item: i, section: s, offset: offset)
        func value(_ rule: ItemRule) throws(Diagnostic) -> Double {
            do {
                return try rule.evaluate(&m, item: i)
            } catch {
                throw error.at("in \(rule.what) \(place)").diagnostic
            }
        }
        func refuse(_ rule: ItemRule, _ d: Double, _ why: String) -> Diagnostic {
            Diagnostic.error(.badAttribute, "\(rule.what) \(place) is \(NumberFormat.format(d)): \(why)", at: rule.span)
        }
        var alpha = 1.0, zoom = 1.0, z = zIndex
        if let r = rules.alpha {
            let d = try value(r)
            if let why = AttributeRange.alpha.refusal(d) { throw refuse(r, d, why) }
            alpha = AttributeRange.alpha.clamped(d)
        }
        if let r = rules.zoom {
            let d = try value(r)
            if let why = AttributeRange.zoom.refusal(d) { throw refuse(r, d, why) }
            zoom = AttributeRange.zoom.clamped(d)
        }
        if let r = rules.zIndex {
            let d = try value(r)
            // A whole number within 0.001, from -1,000,000 to 1,000,000.
            let whole = d.rounded()
            guard d.isFinite, abs(d - whole) <= 0.001 else { throw refuse(r, d, "a z-index is a whole number") }
            guard abs(whole) <= 1_000_000 else { throw refuse(r, d, "a z-index is from -1,000,000 to 1,000,000") }
            z = Int(whole)
        }
        return (alpha, zoom, z)
    }
}

extension AttributeTable {
    /// The table as it stands at `offset`: what `wfl run --offset` prints. Frames first (pinned
    /// headers, `zoomFirst`), then the attribute rules on them; a rule that fails there leaves
    /// its diagnostic in `attributeFailure` of the result.
    public func at(_ offset: Offset) -> AttributeTable {
        var out = framesAt(offset)
        // Attached views sit on their cells as they are at the offset (step 4), not where the
        // zoomFirst walk would have moved them.
        if let views = rules.views, scroll.zoom != nil {
            for k in views.elements.indices {
                out.elements[Int(views.elements[k])].frame = placeView(k, on: out.elements[Int(views.cells[k])].frame)
            }
        }
        out.rules.views = nil
        return withAttributes(out, offset)
    }

    /// Only the elements `indices` (in table order), at `offset`: what `wfl run --rect` prints.
    /// The rules are evaluated for those cells only.
    package func only(_ indices: [Int], at offset: Offset) -> AttributeTable {
        var out = framesOnly(indices, at: offset)
        out.rules.views = nil
        return withAttributes(out, offset, indices: indices)
    }

    func withAttributes(_ t: AttributeTable, _ offset: Offset, indices: [Int]? = nil) -> AttributeTable {
        guard rules.attributes != nil else { return t }
        var out = t
        do { try applyAttributes(to: &out, indices: indices, at: offset) } catch { out.rules.attributeFailure = error }
        // The copy is a picture at one offset: its values are fixed.
        out.rules.attributes = nil
        return out
    }

    /// The alpha of element `j` (1 unless a rule gave it another).
    public func alpha(of j: Int) -> Double { rules.alphas.isEmpty ? 1 : rules.alphas[j] }

    /// The zoom of element `j` (1 unless a rule gave it another).
    public func zoom(of j: Int) -> Double { rules.zooms.isEmpty ? 1 : rules.zooms[j] }

    /// True when some element has an alpha or a zoom that is not 1.
    package var hasAlphaOrZoom: Bool { !rules.alphas.isEmpty || !rules.zooms.isEmpty }

    /// Evaluates the attribute rules for the elements of `out`, this table's elements `indices`
    /// (all of them when nil) with their frames at `offset`: sets the cells' z-indexes and
    /// `alphas` and `zooms` (left empty when every value is 1). An attached view takes its cell's
    /// alpha, not its zoom, and adds its own z-index to its cell's.
    func applyAttributes(to out: inout AttributeTable, indices: [Int]?, at offset: Offset) throws(Diagnostic) {
        guard let attributes = rules.attributes else { return }
        var m = attributes.machine()
        let n = out.elements.count
        var alphas = [Double](repeating: 1, count: n)
        var zooms = [Double](repeating: 1, count: n)
        var anyAlpha = false, anyZoom = false
        // The values of the cells met so far, by their index in this table.
        var cellValues: [Int: (alpha: Double, zoom: Double, zIndex: Int)] = [:]
        var zs: ZoomState?? = nil
        for k in 0..<n {
            let e = out.elements[k]
            let j = indices?[k] ?? k
            switch e.kind {
            case .cell:
                let v = try attributes.values(section: e.section, item: e.item ?? 0, frame: e.frame, offset: offset, zIndex: ZIndex.cell, &m)
                if rules.views != nil { cellValues[j] = v }
                alphas[k] = v.alpha
                zooms[k] = v.zoom
                out.elements[k].zIndex = v.zIndex
            case .attached:
                guard let views = rules.views, let p = views.position(of: j) else { continue }
                let c = Int(views.cells[p])
                var v = cellValues[c]
                if v == nil {
                    // Its cell is not among the elements asked for: evaluate it on its frame here.
                    if zs == nil { zs = .some(zoomState(offset)) }
                    let cell = elements[c]
                    v = try attributes.values(section: cell.section, item: cell.item ?? 0, frame: frame(c, offset, zs!), offset: offset,
                                         zIndex: ZIndex.cell, &m)
                }
                alphas[k] = v!.alpha
                out.elements[k].zIndex = v!.zIndex + views.geometry[p].zIndex
            default:
                continue
            }
            if alphas[k] != 1 { anyAlpha = true }
            if zooms[k] != 1 { anyZoom = true }
        }
        out.rules.alphas = anyAlpha ? alphas : []
        out.rules.zooms = anyZoom ? zooms : []
    }

    /// The alpha, zoom and z-index of element `j` at `offset`, its rules evaluated for it alone
    /// (the expectation functions `alpha`, `zoom` and `zIndex`).
    package func attributes(of j: Int, at offset: Offset) throws(Diagnostic) -> (alpha: Double, zoom: Double, zIndex: Int) {
        let e = elements[j]
        guard let attributes = rules.attributes else { return (alpha(of: j), zoom(of: j), e.zIndex) }
        var m = attributes.machine()
        if e.kind == .attached, let views = rules.views, let p = views.position(of: j) {
            let c = Int(views.cells[p])
            let cell = elements[c]
            let v = try attributes.values(section: cell.section, item: cell.item ?? 0, frame: frame(of: c, at: offset), offset: offset,
                                     zIndex: ZIndex.cell, &m)
            return (v.alpha, 1, v.zIndex + views.geometry[p].zIndex)
        }
        guard e.kind == .cell else { return (alpha(of: j), zoom(of: j), e.zIndex) }
        return try attributes.values(section: e.section, item: e.item ?? 0, frame: frame(of: j, at: offset), offset: offset,
                                zIndex: ZIndex.cell, &m)
    }
}

/// The ranges of the values of the attribute rules and of `appear`/`disappear`.
enum AttributeRange {
    /// From 0 to 1.
    case alpha
    /// Finite and at least 0.
    case zoom
    /// Finite.
    case offset

    /// Why `d` is refused, or nil: a value at most 0.001 outside its range is taken (and
    /// clamped into it by `clamped`).
    func refusal(_ d: Double) -> String? {
        switch self {
        case .alpha: return d >= -0.001 && d <= 1.001 ? nil : "an alpha is from 0 to 1"
        case .zoom: return d.isFinite && d >= -0.001 ? nil : "a zoom is finite and at least 0"
        case .offset: return d.isFinite ? nil : "an offset is finite"
        }
    }

    /// `d`, which `refusal` took, in the range.
    func clamped(_ d: Double) -> Double {
        switch self {
        case .alpha: return Swift.min(Swift.max(d, 0), 1)
        case .zoom: return Swift.max(d, 0)
        case .offset: return d
        }
    }

    /// "of item 3 of section 0", with " at scroll offset X,Y" unless the offset is (0, 0): where a
    /// rule's error happened.
    static func place(item i: Int, section s: Int, offset: Offset) -> String {
        "of item \(i) of section \(s)" + (offset == .zero ? "" : " at scroll offset \(NumberFormat.format(offset.x)),\(NumberFormat.format(offset.y))")
    }
}

extension Machine {
    /// The variables of the attribute rules (and of `appear`/`disappear`) for item `i` of
    /// section `s` (of `n` items), its frame as shown at `offset` being `f`: i, s, n, aw, ah;
    /// minX, minY, w, h; midX = minX + w / 2, maxX = minX + w (the same along y); ox, oy.
    @inline(__always) mutating func beginElement(item i: Int, section s: Int, count n: Int, aw: Double, ah: Double,
                                                 frame f: Frame, offset: Offset) {
        beginItem(i, section: s)
        set(.s, Double(s))
        set(.n, Double(n))
        set(.aw, aw)
        set(.ah, ah)
        set(.w, f.width)
        set(.h, f.height)
        set(.minX, f.x)
        set(.midX, f.x + f.width / 2)
        set(.maxX, f.x + f.width)
        set(.minY, f.y)
        set(.midY, f.y + f.height / 2)
        set(.maxY, f.y + f.height)
        set(.ox, offset.x)
        set(.oy, offset.y)
        available = VarSets.attributes
    }
}
