/// The attribute rules `alpha`, `zoom` and `zIndex` (docs/language.md, "Attributes"; docs/layout.md,
/// "Attributes at a scroll offset"): evaluated for each cell at the scroll offset, on its frame as
/// shown, after pinning and `zoomFirst` (step 6 of the order of evaluation). A table keeps its
/// layout's rules (`AttributeTable.rules.attributes`, a `TableRules`) and evaluates them when it is taken to an offset
/// (`at`, `only`) and when an expectation asks; only the cells asked about are evaluated, so a
/// `--rect` query costs the cells it returns.

/// The per-cell rules a table keeps to be evaluated at an offset, with their values where it was
/// taken: kept beside its elements (`AttributeTable.rules`).
package struct CellRules: Equatable, Sendable {
    /// The layout's `alpha`, `zoom` and `zIndex` rules, evaluated when the table is taken to an
    /// offset; nil without any, and in a table already at an offset.
    package var attributes: TableRules? = nil
    /// Each element's alpha and zoom, in table order; empty when every one is 1.
    package var alphas: [Double] = []
    package var zooms: [Double] = []
    /// Each element's translate and rotate, in table order; empty when every one is the identity.
    package var transforms: [Transform] = []
    /// The error of an attribute rule at the offset this table was taken to, if one failed.
    package var attributeFailure: Diagnostic? = nil
    /// Where each attached view sits on its cell (Engines/Decorations.swift); nil without any.
    package var views: AttachedViews? = nil
    /// The layout's `appear` and `disappear` rules (Evaluation/AppearRules.swift), for the
    /// transitions of an update (Table/TransitionPairing.swift); nil without any.
    package var appearRules: TableRules? = nil
}

/// The per-item rules a table keeps, to evaluate them when it is asked: the attribute rules at
/// a scroll offset (`AttributeTable.attributes`), and `appear` / `disappear` for the transitions
/// of an update (`AttributeTable.appearRules`, Evaluation/AppearRules.swift). The rules of each
/// section are a `RuleSet` holding only the slots of that use; the variables they need are kept
/// beside them. A class, so that a table and its copies at offsets share one.
package final class TableRules: @unchecked Sendable, Equatable {
    /// What a table keeps the rules for.
    package enum Use: Sendable {
        /// `alpha`, `zoom` and `zIndex`.
        case attributes
        /// `appear { }` and `disappear { }`.
        case transitions

        func holds(_ slot: SectionRule) -> Bool {
            switch slot.group {
            case .attributes?: return self == .attributes
            case .appear?, .disappear?: return self == .transitions
            case nil: return false
            }
        }
    }

    struct Section: Equatable {
        var items: Int
        var aw: Double, ah: Double
        var rules: RuleSet<SectionRule> { didSet { slots = AttributeSlots(rules) } }
        /// `p` runs along x (a horizontal layout, or a shelf).
        var progressAlongX: Bool
        /// The section is a shelf, whose rules may read `sx`.
        var shelf: Bool
        /// The shelf's own offset.
        var sx: Double
        /// Where the attribute rules stand in `rules.entries` (-1: none), found once so that a cell's
        /// values read each rule in place rather than searching (and copying) the entries six times.
        private(set) var slots: AttributeSlots

        init(items: Int, aw: Double, ah: Double, rules: RuleSet<SectionRule>, progressAlongX: Bool, shelf: Bool, sx: Double) {
            self.items = items
            self.aw = aw
            self.ah = ah
            self.rules = rules
            self.progressAlongX = progressAlongX
            self.shelf = shelf
            self.sx = sx
            slots = AttributeSlots(rules)
        }
    }

    /// The indices in a section's `rules.entries` of its six attribute rules, -1 where it has none.
    struct AttributeSlots: Equatable {
        var alpha = -1, zoom = -1, zIndex = -1, translateX = -1, translateY = -1, rotate = -1

        init(_ rules: RuleSet<SectionRule>) {
            for (k, e) in rules.entries.enumerated() {
                switch e.slot {
                case .alpha: alpha = k
                case .zoom: zoom = k
                case .zIndex: zIndex = k
                case .translateX: translateX = k
                case .translateY: translateY = k
                case .rotate: rotate = k
                default: continue
                }
            }
        }
    }

    let sections: [Section]
    let seed: UInt64
    let letCount: Int
    let cw: Double, ch: Double
    /// Keeps the user functions the rules call alive.
    let functionBodies: AnyObject?

    /// The rules of `layout` for `use`, or nil when no section has any.
    static func of(_ layout: ResolvedLayout, _ use: Use) -> TableRules? {
        // (Through the buffer: `contains(where:)` copied each section, all its references retained.)
        let any = layout.sections.withUnsafeBufferPointer { b in b.indices.contains { b[$0].rules.entries.contains { use.holds($0.slot) } } }
        guard any else { return nil }
        return TableRules(layout, use)
    }

    init(sections: [Section], seed: UInt64, letCount: Int, cw: Double, ch: Double, functionBodies: AnyObject?) {
        self.sections = sections
        self.seed = seed
        self.letCount = letCount
        self.cw = cw
        self.ch = ch
        self.functionBodies = functionBodies
    }

    init(_ layout: ResolvedLayout, _ use: Use) {
        sections = layout.sections.enumerated().map { s, sec in
            let ins = sec.insets
            return Section(items: sec.items, aw: layout.containerWidth - ins.left - ins.right,
                           ah: layout.containerHeight - ins.top - ins.bottom, rules: sec.rules.filter(use.holds),
                           progressAlongX: layout.direction == .horizontal || sec.style == .shelf, shelf: sec.style == .shelf, sx: sec.style == .shelf ? layout.shelfOffsets[s] ?? 0 : 0)
        }
        seed = layout.seed
        letCount = layout.letCount
        cw = layout.containerWidth
        ch = layout.containerHeight
        functionBodies = layout.functionBodies
    }

    /// The same rules (`ItemRule`'s `==`: the same computations, reported alike) for sections of
    /// the same items and room: two evaluations of one file give equal tables.
    package static func == (a: TableRules, b: TableRules) -> Bool {
        a === b || (a.seed == b.seed && a.letCount == b.letCount && a.cw == b.cw && a.ch == b.ch && a.sections == b.sections)
    }

    /// A machine for the rules, with cw and ch set.
    func machine() -> Machine {
        var m = Machine(seed: seed, letCount: letCount)
        m.set(.cw, cw)
        m.set(.ch, ch)
        return m
    }

    /// Sets the variables of item `i` of section `s`, its frame as shown at `offset` being `f`,
    /// and gives that section's rules; nil when it has none. `count` overrides the section's item
    /// count (a table after an update).
    func begin(section s: Int, item i: Int, count: Int? = nil, frame f: Frame, offset: Offset,
               _ m: inout Machine) -> RuleSet<SectionRule>? {
        guard s < sections.count else { return nil }
        let sec = sections[s]
        if sec.rules.isEmpty { return nil }
        m.beginElement(item: i, section: s, count: count ?? sec.items, aw: sec.aw, ah: sec.ah, frame: f, offset: offset)
        // Motion: the paging progress on the frame as shown, and the shelf's own offset.
        m.set(.p, sec.progressAlongX ? (f.x + f.width / 2 - (offset.x + cw / 2)) / cw : (f.y + f.height / 2 - (offset.y + ch / 2)) / ch)
        m.set(.sx, sec.sx)
        return sec.rules
    }

    /// The value of `rule` for item `i`, the machine having begun it: within its range (clamped
    /// into it within 0.001), or a diagnostic naming the item (`place`).
    /// `place` is made only for an error.
    func value(_ rule: ItemRule, _ range: AttributeRange, item i: Int, place: @autoclosure () -> String, _ m: inout Machine) throws(Diagnostic) -> Double {
        let d: Double
        do { d = try rule.evaluate(&m, item: i) } catch { throw error.at("in \(rule.what) \(place())").diagnostic }
        if let why = range.refusal(d) { throw TableRules.refuse(rule, d, why, place()) }
        return range.clamped(d)
    }

    static func refuse(_ rule: ItemRule, _ d: Double, _ why: String, _ place: String) -> Diagnostic {
        Diagnostic.error(.badAttribute, "\(rule.what) \(place) is \(NumberFormat.format(d)): \(why)", at: rule.span)
    }

    /// The alpha, zoom and z-index of item `i` of section `s`, whose frame at `offset` is `f`;
    /// `zIndex` is its z-index without a rule. Values within 0.001 of their range are clamped
    /// into it, a z-index within 0.001 of a whole number rounded; further out is an error naming
    /// the item.
    func values(section s: Int, item i: Int, frame f: Frame, offset: Offset, zIndex: Int,
                _ m: inout Machine) throws(Diagnostic) -> (alpha: Double, zoom: Double, zIndex: Int) {
        let v = try fullValues(section: s, item: i, frame: f, offset: offset, zIndex: zIndex, &m)
        return (v.alpha, v.zoom, v.zIndex)
    }

    /// `values`, with the cell's translate and rotate (normalised).
    func fullValues(section s: Int, item i: Int, frame f: Frame, offset: Offset, zIndex: Int,
                    _ m: inout Machine) throws(Diagnostic) -> CellValues {
        guard let rules = begin(section: s, item: i, frame: f, offset: offset, &m) else { return CellValues(alpha: 1, zoom: 1, zIndex: zIndex) }
        // Where the error happened, made only for an error (a string per cell costs as much as a rule).
        func place() -> String { AttributeRange.place(item: i, section: s, offset: offset) }
        // Each rule read where it stands (`slots`, found once per section), in this order.
        let slots = sections[s].slots, entries = rules.entries
        var alpha = 1.0, zoom = 1.0, z = zIndex
        if slots.alpha >= 0 { alpha = try value(entries[slots.alpha].rule, .alpha, item: i, place: place(), &m) }
        if slots.zoom >= 0 { zoom = try value(entries[slots.zoom].rule, .zoom, item: i, place: place(), &m) }
        if slots.zIndex >= 0 {
            let r = entries[slots.zIndex].rule
            let d: Double
            do { d = try r.evaluate(&m, item: i) } catch { throw error.at("in \(r.what) \(place())").diagnostic }
            // A whole number within 0.001, from -1,000,000 to 1,000,000.
            let whole = d.rounded()
            guard d.isFinite, abs(d - whole) <= 0.001 else { throw TableRules.refuse(r, d, "a z-index is a whole number", place()) }
            guard abs(whole) <= 1_000_000 else { throw TableRules.refuse(r, d, "a z-index is from -1,000,000 to 1,000,000", place()) }
            z = Int(whole)
        }
        var t = Transform.identity
        if slots.translateX >= 0 { t.tx = try value(entries[slots.translateX].rule, .transform, item: i, place: place(), &m) }
        if slots.translateY >= 0 { t.ty = try value(entries[slots.translateY].rule, .transform, item: i, place: place(), &m) }
        if slots.rotate >= 0 { t.rotate = Transform.normalised(try value(entries[slots.rotate].rule, .transform, item: i, place: place(), &m)) }
        return CellValues(alpha: alpha, zoom: zoom, zIndex: z, transform: t)
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
        var transforms = [Transform](repeating: .identity, count: n)
        var anyAlpha = false, anyZoom = false, anyTransform = false
        // The values of the cells met so far, by their index in this table.
        var cellValues: [Int: CellValues] = [:]
        var zs: ZoomState?? = nil
        for k in 0..<n {
            let e = out.elements[k]
            let j = indices?[k] ?? k
            switch e.kind {
            case .cell:
                let v = try attributes.fullValues(section: e.section, item: e.item ?? 0, frame: e.frame, offset: offset, zIndex: ZIndex.cell, &m)
                if rules.views != nil { cellValues[j] = v }
                alphas[k] = v.alpha
                zooms[k] = v.zoom
                if !v.transform.isIdentity {
                    transforms[k] = v.transform
                    anyTransform = true
                }
                out.elements[k].zIndex = v.zIndex
            case .attached:
                guard let views = rules.views, let p = views.position(of: j) else { continue }
                let c = Int(views.cells[p])
                var v = cellValues[c]
                if v == nil {
                    // Its cell is not among the elements asked for: evaluate it on its frame here.
                    if zs == nil { zs = .some(zoomState(offset)) }
                    let cell = elements[c]
                    v = try attributes.fullValues(section: cell.section, item: cell.item ?? 0, frame: frame(c, offset, zs!), offset: offset,
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
        out.rules.transforms = anyTransform ? transforms : []
    }

    /// The translate and rotate of element `j` (the identity unless a rule gave it another).
    public func transform(of j: Int) -> Transform { rules.transforms.isEmpty ? .identity : rules.transforms[j] }

    /// True when some element uses a translate or a rotate.
    package var hasTransform: Bool { !rules.transforms.isEmpty }

    /// True when some element uses a translate.
    package var usesTranslate: Bool { rules.transforms.contains { $0.tx != 0 || $0.ty != 0 } }

    /// True when some element uses a rotate.
    package var usesRotate: Bool { rules.transforms.contains { $0.rotate != 0 } }

    /// The translate and rotate of element `j` at `offset`, its rules evaluated for it alone
    /// (the expectation functions `translate` and `rotate`); the identity for all but cells.
    package func transform(of j: Int, at offset: Offset) throws(Diagnostic) -> Transform {
        let e = elements[j]
        guard let attributes = rules.attributes else { return transform(of: j) }
        guard e.kind == .cell else { return .identity }
        var m = attributes.machine()
        return try attributes.fullValues(section: e.section, item: e.item ?? 0, frame: frame(of: j, at: offset), offset: offset,
                                         zIndex: ZIndex.cell, &m).transform
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
    /// Finite: translate and rotate.
    case transform

    /// Why `d` is refused, or nil: a value at most 0.001 outside its range is taken (and
    /// clamped into it by `clamped`).
    func refusal(_ d: Double) -> String? {
        switch self {
        case .alpha: return d >= -0.001 && d <= 1.001 ? nil : "an alpha is from 0 to 1"
        case .zoom: return d.isFinite && d >= -0.001 ? nil : "a zoom is finite and at least 0"
        case .offset: return d.isFinite ? nil : "an offset is finite"
        case .transform: return d.isFinite ? nil : "a translate or rotate is finite"
        }
    }

    /// `d`, which `refusal` took, in the range.
    func clamped(_ d: Double) -> Double {
        switch self {
        case .alpha: return Swift.min(Swift.max(d, 0), 1)
        case .zoom: return Swift.max(d, 0)
        case .offset, .transform: return d
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

/// The values of the attribute rules for one cell.
struct CellValues {
    var alpha: Double
    var zoom: Double
    var zIndex: Int
    var transform: Transform = .identity
}

/// A cell's `translate X x Y` and `rotate DEG` (docs/layout.md, "Transforms"): with its zoom z,
/// UIKit's transform `(z cos t, z sin t, -z sin t, z cos t, X, Y)` about the frame's centre.
public struct Transform: Equatable, Sendable {
    /// The move right and down, in points.
    public var tx: Double
    public var ty: Double
    /// The turn in degrees, clockwise on screen, in (-180, 180].
    public var rotate: Double

    public init(tx: Double, ty: Double, rotate: Double) {
        self.tx = tx
        self.ty = ty
        self.rotate = rotate
    }

    /// No move, no turn.
    public static let identity = Transform(tx: 0, ty: 0, rotate: 0)

    /// True when neither translate nor rotate is used.
    public var isIdentity: Bool { tx == 0 && ty == 0 && rotate == 0 }

    /// The three numbers the formats write for it, translate X, translate Y and rotate, each -0
    /// written as 0 ("-0 is 0": a rule may give `-0`, which is unused and prints as 0).
    public var cells: [Double] { [Transform.unsigned(tx), Transform.unsigned(ty), Transform.unsigned(rotate)] }

    /// `v`, with -0 made 0 (every other value as it is): what a format writes for a transform's
    /// number, its cells and the numbers of its matrix alike.
    @inline(__always) public static func unsigned(_ v: Double) -> Double { v == 0 ? 0 : v }

    /// `r` in (-180, 180]: `r - 360 * ceil((r - 180) / 360)`, -0 made 0.
    public static func normalised(_ r: Double) -> Double {
        let v = r - 360 * ((r - 180) / 360).rounded(.up)
        return v == 0 ? 0 : v
    }

    /// The matrix `(a, b, c, d, e, f)` drawing a frame `f` (in its own coordinates) with zoom `z`:
    /// a point (px, py) is shown at (a px + c py + e, b px + d py + f).
    public func matrix(frame fr: Frame, zoom z: Double) -> (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        let t = rotate * Double.pi / 180
        let cosT = rotate == 90 || rotate == -90 ? 0 : (rotate == 180 ? -1 : cosine(t))
        let sinT = rotate == 180 ? 0 : (rotate == 90 ? 1 : (rotate == -90 ? -1 : sine(t)))
        let a = z * cosT, b = z * sinT, c = -z * sinT, d = z * cosT
        let cx = fr.x + fr.width / 2, cy = fr.y + fr.height / 2
        return (a, b, c, d, cx + tx - a * cx - c * cy, cy + ty - b * cx - d * cy)
    }

    /// Where the point (px, py) of frame `fr` is shown with zoom `z`.
    public func shown(_ px: Double, _ py: Double, frame fr: Frame, zoom z: Double) -> (x: Double, y: Double) {
        let m = matrix(frame: fr, zoom: z)
        return (m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f)
    }

    /// The smallest upright box holding frame `fr` as shown with zoom `z` (its four corners
    /// through the matrix): what UIKit's `frame` of transformed attributes returns.
    package func bounds(of fr: Frame, zoom z: Double) -> Frame {
        let m = matrix(frame: fr, zoom: z)
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (px, py) in [(fr.x, fr.y), (fr.maxX, fr.y), (fr.x, fr.maxY), (fr.maxX, fr.maxY)] {
            let x = m.a * px + m.c * py + m.e, y = m.b * px + m.d * py + m.f
            x0 = Swift.min(x0, x)
            x1 = Swift.max(x1, x)
            y0 = Swift.min(y0, y)
            y1 = Swift.max(y1, y)
        }
        return Frame(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// sin and cos without Foundation: the angle reduced to within pi/4 of a quadrant, then Taylor
/// series (exact to about 1e-16 there).
func sine(_ t: Double) -> Double { sineCosine(t).sin }
func cosine(_ t: Double) -> Double { sineCosine(t).cos }

private func sineCosine(_ t: Double) -> (sin: Double, cos: Double) {
    guard t.isFinite else { return (.nan, .nan) }
    let q = (t / (Double.pi / 2)).rounded()
    let r = t - q * (Double.pi / 2)
    let r2 = r * r
    var s = 0.0, c = 0.0
    var term = r, sum = r, n = 1.0
    while n < 19 {
        term *= -r2 / ((n + 1) * (n + 2))
        sum += term
        n += 2
    }
    var cterm = 1.0, csum = 1.0
    n = 0
    while n < 18 {
        cterm *= -r2 / ((n + 1) * (n + 2))
        csum += cterm
        n += 2
    }
    s = sum
    c = csum
    switch Int(q.truncatingRemainder(dividingBy: 4) + 4) % 4 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}
