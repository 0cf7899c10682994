/// A batch update and its transitions (docs/language.md, "Batch updates"): which items of each
/// section are deleted and inserted, as one `performBatchUpdates`, and what every element of the
/// tables before and after it does.

/// One section's update. `deleted` holds indices before the update, `inserted` indices after it;
/// both sorted, without repeats (the resolver checks the user's indices and sorts them).
package struct SectionUpdate: Equatable, Sendable {
    /// The section's item count before the update.
    package var countBefore: Int
    package var deleted: [Int] = []
    package var inserted: [Int] = []

    package init(countBefore: Int, deleted: [Int] = [], inserted: [Int] = []) {
        self.countBefore = countBefore
        self.deleted = deleted
        self.inserted = inserted
    }

    /// The item count after the update: n - d + k.
    package var countAfter: Int { countBefore - deleted.count + inserted.count }
    /// True when the update changes nothing.
    package var isEmpty: Bool { deleted.isEmpty && inserted.isEmpty }

    /// For each index after the update, the index before it of the staying item there, or nil for
    /// an inserted item. The staying items keep their order and fill the indices not inserted.
    package func indicesBefore() -> [Int?] {
        var out = [Int?](repeating: nil, count: countAfter)
        var old = 0, d = 0, k = 0
        for new in 0..<countAfter {
            if k < inserted.count, inserted[k] == new { k += 1; continue }
            while d < deleted.count, deleted[d] == old { d += 1; old += 1 }
            out[new] = old
            old += 1
        }
        return out
    }

    /// For each index before the update, the index after it, or nil for a deleted item.
    package func indicesAfter() -> [Int?] {
        var out = [Int?](repeating: nil, count: countBefore)
        for (new, old) in indicesBefore().enumerated() { if let old { out[old] = new } }
        return out
    }
}

/// The updates of every section of a layout, one batch: `sections[s]` is section s's update (an
/// empty one where the section has no `update` block).
package struct BatchUpdate: Equatable, Sendable {
    package var sections: [SectionUpdate]
    package init(sections: [SectionUpdate]) { self.sections = sections }
    /// True when no section changes (the transitions are all `stay`).
    package var isEmpty: Bool { sections.allSatisfy(\.isEmpty) }
}

/// What an element does in an update.
public enum TransitionChange: String, Sendable {
    /// In both tables, frame, alpha, zoom, translate, rotate and z-index equal within 0.001.
    case stay
    /// In both tables, something differs.
    case move
    /// Only in the table after the update.
    case appear
    /// Only in the table before it.
    case disappear
}

/// One end of a transition: where an element is drawn.
public struct TransitionEnd: Equatable, Sendable {
    public var frame: Frame
    public var alpha: Double
    public var zoom: Double
    /// Its translate and rotate (the identity unless used).
    public var transform: Transform
    public init(frame: Frame, alpha: Double = 1, zoom: Double = 1, transform: Transform = .identity) {
        self.frame = frame
        self.alpha = alpha
        self.zoom = zoom
        self.transform = transform
    }
}

/// One element's transition: the pairing of an element of the table before the update with one
/// of the table after it (or with nothing, for `appear` and `disappear`).
public struct Transition: Equatable, Sendable {
    /// The element's kind; for an attached view, `attachedIndex` names it.
    public var kind: ElementKind
    /// For an attached view, the position of its name among the table's `attachedNames`.
    public var attachedIndex: Int?
    public var section: Int
    /// The cell's index after the update (of its cell, for an attached view); nil for headers,
    /// footers and backgrounds, and for an element that disappears.
    public var item: Int?
    /// The index before the update; nil where the element has none there.
    public var itemBefore: Int?
    public var change: TransitionChange
    public var from: TransitionEnd
    public var to: TransitionEnd
}
