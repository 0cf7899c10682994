/// The transitions of each layout's batch update (docs/usage.md, "Updates and transitions"), for
/// `wfl run --transitions`, the REPL's `:transitions` and the html Play picture.

extension Compilation {
    /// Each evaluated layout's transitions at `offset`, in file order: its table before the
    /// update paired with its table after it. An attribute or `appear` / `disappear` rule that
    /// fails at that offset throws its diagnostic. Empty when the file has errors.
    package func transitionTables(at offset: Offset = .zero) throws(Diagnostic) -> [TransitionTable] {
        guard let evaluation, !hasErrors else { return [] }
        var out: [TransitionTable] = []
        for (k, before) in evaluation.tables.enumerated() {
            let (after, update) = evaluation.afterUpdate(k)
            out.append(try Transitions.table(before: before, after: after, update: update, at: offset))
        }
        return out
    }
}

extension Evaluation {
    /// Layout `k`'s table after its batch update, and the update (docs/language.md, "Batch
    /// updates"); a layout without `update` blocks has the same table after, and its
    /// transitions are all `stay`.
    func afterUpdate(_ k: Int) -> (AttributeTable, BatchUpdate) {
        let t = tables[k]
        guard k < after.count, k < updates.count else {
            return (t, BatchUpdate(sections: t.sectionStarts.map { SectionUpdate(countBefore: $0.cellCount) }))
        }
        return (after[k], updates[k])
    }
}
