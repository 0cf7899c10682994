/// What a batch update does to the cells, counted (docs/language.md, "Batch updates"): the REPL
/// says it after an `update` entry. Cells are paired by identity (a staying item's index before
/// and after the update); a pair stays when frame, alpha, zoom and z-index are equal within
/// 0.001, and moves otherwise. (The transitions of every element, with their ends, are a larger
/// pairing of the same tables; this count is the cells' part of it.)

/// How many cells stay, move, appear and disappear in a batch update.
package struct CellChangeCount: Equatable, Sendable {
    package var stay = 0
    package var move = 0
    package var appear = 0
    package var disappear = 0

    package init(stay: Int = 0, move: Int = 0, appear: Int = 0, disappear: Int = 0) {
        self.stay = stay
        self.move = move
        self.appear = appear
        self.disappear = disappear
    }

    /// "4 cells stay, 2 move, 1 appears, 2 disappear".
    package var description: String {
        func verb(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? one : many }
        return "\(stay) \(stay == 1 ? "cell" : "cells") \(verb(stay, "stays", "stay")), \(move) \(verb(move, "moves", "move")), "
            + "\(appear) \(verb(appear, "appears", "appear")), \(disappear) \(verb(disappear, "disappears", "disappear"))"
    }
}

/// Counts the cells of `update` between `before` and `after`, the tables before and after it at
/// rest (alpha and zoom as the tables hold them at offset (0, 0)).
package func cellChanges(before: AttributeTable, after: AttributeTable, update: BatchUpdate) -> CellChangeCount {
    var out = CellChangeCount()
    let sections = Swift.min(before.sectionStarts.count, after.sectionStarts.count, update.sections.count)
    for s in 0..<sections {
        let u = update.sections[s]
        let b = before.sectionStarts[s], a = after.sectionStarts[s]
        guard u.countBefore == b.cellCount, u.countAfter == a.cellCount else { continue }
        for (new, old) in u.indicesBefore().enumerated() {
            guard let old else {
                out.appear += 1
                continue
            }
            if Transitions.stays(before, b.firstCell + old, after, a.firstCell + new) { out.stay += 1 } else { out.move += 1 }
        }
        out.disappear += u.deleted.count
    }
    return out
}
