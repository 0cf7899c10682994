/// The transitions of each layout's batch update (docs/usage.md, "Updates and transitions"), for
/// `wfl run --transitions`, the REPL's `:transitions` and the html Play picture.

extension Compilation {
    /// Each evaluated layout's transitions at `offset`, in file order: its table before the
    /// update paired with its table after it. An attribute or `appear` / `disappear` rule that
    /// fails at that offset throws its diagnostic. Empty when the file has errors.
    package func transitionTables(at offset: Offset = .zero) throws(Diagnostic) -> [TransitionTable] {
        guard let evaluation, !hasErrors else { return [] }
        var out: [TransitionTable] = []
        // A layout without `update` blocks has the same table after: its transitions all stay.
        for layout in evaluation.layouts {
            out.append(try Transitions.table(before: layout.before, after: layout.after, update: layout.batch, at: offset))
        }
        return out
    }
}
