/// The transitions of a batch update (docs/layout.md, "Transitions"): every element of the table
/// before the update paired with its element of the table after it, as UIKit pairs the attributes
/// it animates between in `performBatchUpdates`. Both tables are taken at the scroll offset first
/// (pinning, `zoomFirst`, the attribute rules), so the pairing reads the frames, alphas and zooms
/// as shown: step 7 of the order of evaluation, after the mirror. `appear` and `disappear` rules
/// (Evaluation/AppearRules.swift), which ride on the tables, give where an element that appears
/// starts and where one that disappears ends.

/// One layout's transitions with the two tables they pair, both at the offset they were taken at.
public struct TransitionTable: Equatable, Sendable {
    /// The table before the update, at the offset.
    public internal(set) var before: AttributeTable
    /// The table after it, at the offset.
    public internal(set) var after: AttributeTable
    /// In order: the elements of `after` in its order, then those that disappear, in the order
    /// of `before`.
    public internal(set) var transitions: [Transition]

    /// The kind a transition prints: its kind's word, or an attached view's name.
    public func kindName(of t: Transition) -> String {
        if t.kind == .attached, let k = t.attachedIndex {
            let names = t.change == .disappear ? before.attachedNames : after.attachedNames
            if k < names.count { return names[k] }
        }
        return t.kind.rawValue
    }

    /// How many transitions of each change: stay, move, appear, disappear.
    public var counts: (stay: Int, move: Int, appear: Int, disappear: Int) {
        var c = (stay: 0, move: 0, appear: 0, disappear: 0)
        for t in transitions {
            switch t.change {
            case .stay: c.stay += 1
            case .move: c.move += 1
            case .appear: c.appear += 1
            case .disappear: c.disappear += 1
            }
        }
        return c
    }
}

package enum Transitions {
    /// What pairs an element of one table with one of the other: its kind (an attached view by
    /// name), its section, and for a cell or a view the index of its cell in the table before.
    struct Key: Hashable {
        var kind: ElementKind
        var name: String
        var section: Int
        var item: Int
    }

    /// The transitions of `update` from `before` to `after` (the tables as the engine built them,
    /// at rest) at scroll offset `offset`. An attribute rule or an `appear` / `disappear` rule that
    /// fails throws its diagnostic.
    package static func table(before: AttributeTable, after: AttributeTable, update: BatchUpdate,
                              at offset: Offset = .zero) throws(Diagnostic) -> TransitionTable {
        let b = before.at(offset), a = after.at(offset)
        if let failure = b.rules.attributeFailure ?? a.rules.attributeFailure { throw failure }
        // For each section, the index before the update of each item after it (nil: inserted).
        var indicesBefore: [[Int?]?] = Array(repeating: nil, count: a.sectionStarts.count)
        for (s, u) in update.sections.enumerated() where s < indicesBefore.count && !u.isEmpty {
            indicesBefore[s] = u.indicesBefore()
        }
        func key(_ e: Element, in t: AttributeTable, item: Int?) -> Key? {
            switch e.kind {
            case .cell, .attached:
                guard let item else { return nil }
                return Key(kind: e.kind, name: e.kind == .attached ? t.kindName(of: e) : "", section: e.section, item: item)
            case .header, .footer, .background:
                return Key(kind: e.kind, name: "", section: e.section, item: -1)
            }
        }
        var beforeIndex: [Key: Int] = [:]
        beforeIndex.reserveCapacity(b.elements.count)
        for (j, e) in b.elements.enumerated() {
            if let k = key(e, in: b, item: e.item) { beforeIndex[k] = j }
        }
        /// Where an element that appears starts (or one that disappears ends): its frame moved by
        /// the rule's offset (physical: x right, y down), with the rule's alpha and zoom; headers,
        /// footers and backgrounds fade.
        func moved(_ t: AttributeTable, _ j: Int, disappear: Bool) throws(Diagnostic) -> TransitionEnd {
            let e = t.elements[j]
            var end = AppearEnd.fade
            if e.kind == .cell || e.kind == .attached, let rules = t.rules.appearRules, let i = e.item {
                end = try rules.end(disappear: disappear, section: e.section, item: i, count: t.sectionStarts[e.section].cellCount,
                                    frame: e.frame, offset: offset)
            }
            let f = e.frame
            return TransitionEnd(frame: Frame(x: f.x + end.dx, y: f.y + end.dy, width: f.width, height: f.height),
                                 alpha: end.alpha, zoom: end.zoom, transform: end.transform)
        }
        var out: [Transition] = []
        out.reserveCapacity(a.elements.count)
        var paired = [Bool](repeating: false, count: b.elements.count)
        for (j, e) in a.elements.enumerated() {
            // The index before the update of the cell (of its cell, for a view).
            var old = e.item
            if let i = e.item, e.section < indicesBefore.count, let map = indicesBefore[e.section] { old = i < map.count ? map[i] : nil }
            let to = end(a, j)
            if let k = key(e, in: a, item: old), let p = beforeIndex[k] {
                paired[p] = true
                out.append(Transition(kind: e.kind, attachedIndex: e.attachedIndex, section: e.section, item: e.item,
                                      itemBefore: b.elements[p].item, change: stays(b, p, a, j) ? .stay : .move, from: end(b, p), to: to))
            } else {
                out.append(Transition(kind: e.kind, attachedIndex: e.attachedIndex, section: e.section, item: e.item,
                                      itemBefore: nil, change: .appear, from: try moved(a, j, disappear: false), to: to))
            }
        }
        for (p, e) in b.elements.enumerated() where !paired[p] {
            out.append(Transition(kind: e.kind, attachedIndex: e.attachedIndex, section: e.section, item: nil,
                                  itemBefore: e.item, change: .disappear, from: end(b, p), to: try moved(b, p, disappear: true)))
        }
        return TransitionTable(before: b, after: a, transitions: out)
    }

    /// Where element `j` of `t` is drawn.
    static func end(_ t: AttributeTable, _ j: Int) -> TransitionEnd {
        TransitionEnd(frame: t.elements[j].frame, alpha: t.alpha(of: j), zoom: t.zoom(of: j), transform: t.transform(of: j))
    }

    /// Element `p` of `before` and element `j` of `after` stay: frame, alpha, zoom, translate and
    /// rotate equal within 0.001 (rotate: the normalised difference), and the same z-index.
    static func stays(_ before: AttributeTable, _ p: Int, _ after: AttributeTable, _ j: Int) -> Bool {
        func near(_ u: Double, _ v: Double) -> Bool { abs(u - v) <= 0.001 }
        let x = end(before, p), y = end(after, j)
        return near(x.frame.x, y.frame.x) && near(x.frame.y, y.frame.y) && near(x.frame.width, y.frame.width)
            && near(x.frame.height, y.frame.height) && near(x.alpha, y.alpha) && near(x.zoom, y.zoom)
            && near(x.transform.tx, y.transform.tx) && near(x.transform.ty, y.transform.ty)
            && near(Transform.normalised(x.transform.rotate - y.transform.rotate), 0)
            && before.elements[p].zIndex == after.elements[j].zIndex
    }
}
