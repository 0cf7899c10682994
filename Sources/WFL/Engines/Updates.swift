/// The table after a batch update (docs/language.md, "Batch updates"): the engine run again with
/// each section's items after the update, where a staying item keeps what its per-item rules gave
/// it before (every rule whose slot is `AfterUpdate.kept`: its size, its span, its attached views'
/// `when`, `size` and `offset`: a cell is the same data after an update) and an inserted item
/// evaluates them with its new index as `i`, n' as `n` and `random` keyed on its new index. The
/// rules whose slot is `evaluatedAgain` (`alpha`, `zoom`, `zIndex`, `appear`, `disappear`) are
/// evaluated afresh.
///
/// How: the table before is laid out from a copy of the layout whose kept rules are recorded
/// (`ItemRule.Kind.recorded`), each keeping the value it gives each item; the layout after gets
/// rules that replay those values (`ItemRule.Kind.replayed`, a value) for the staying items by
/// their new index and evaluate the rule for an inserted one. Both reach every kept rule through
/// the rule sets (`ResolvedSection.mapKeptRules`), whatever its slot. The engines see them as
/// general rules without a fast path, evaluated through `ItemRule.evaluate` (or `condition`)
/// with the item's index. A layout without `update` blocks is laid out as before, and its table
/// after is its table.

/// What one rule gave the items of a section in the table before, by index. The one reference
/// in a resolved layout, and only in the copy `UpdateTapes` lays out the table before from: the
/// engines take a layout by value and give back a table, so the values a rule gives are written
/// here while they run, and read back into a `RuleReplay` right after.
final class RuleRecorder {
    let rule: ItemRule
    /// The values given, by item; a condition's as 1 (true) or 0 (false).
    private(set) var values: [Double]
    private(set) var known: [Bool]

    init(_ rule: ItemRule, count: Int) {
        self.rule = rule
        values = [Double](repeating: 0, count: count)
        known = [Bool](repeating: false, count: count)
    }

    private func keep(_ v: Double, _ i: Int) {
        guard i >= 0, i < values.count else { return }
        values[i] = v
        known[i] = true
    }

    func number(_ m: inout Machine, item i: Int) throws(EvalError) -> Double {
        let v = try rule.evaluate(&m, item: i)
        keep(v, i)
        return v
    }

    /// Keeps a condition's answer after its list's cycling, so that a staying item keeps it.
    func condition(_ m: inout Machine, item i: Int) throws(EvalError) -> Value {
        let v = try rule.condition(&m, item: i)
        if case .boolean(let b) = v { keep(b ? 1 : 0, i) }
        return v
    }

    /// The rule for the table after `update`: the values kept for the staying items at their new
    /// indices.
    func replay(_ update: SectionUpdate) -> ItemRule {
        var values = [Double](repeating: 0, count: update.countAfter)
        var known = [Bool](repeating: false, count: update.countAfter)
        for (new, old) in update.indicesBefore().enumerated() {
            guard let old, old < self.known.count, self.known[old] else { continue }
            values[new] = self.values[old]
            known[new] = true
        }
        return rule.wrapped(.replayed(RuleReplay(rule: rule, values: values, known: known)))
    }
}

/// A rule of the table after a batch update: what the staying items keep, by their new index.
struct RuleReplay {
    let rule: ItemRule
    let values: [Double]
    let known: [Bool]

    func number(_ m: inout Machine, item i: Int) throws(EvalError) -> Double {
        if i >= 0, i < known.count, known[i] { return values[i] }
        return try rule.evaluate(&m, item: i)
    }

    func condition(_ m: inout Machine, item i: Int) throws(EvalError) -> Value {
        if i >= 0, i < known.count, known[i] { return .boolean(values[i] != 0) }
        return try rule.condition(&m, item: i)
    }
}

extension ItemRule {
    /// This rule's words and places with another kind: a general one, so that the engines take no
    /// fast path with it, and one that may read `n` (it cannot be known), so that the layout is
    /// never appended to.
    func wrapped(_ kind: Kind) -> ItemRule {
        var r = ItemRule(kind: kind, what: what, span: span, settingSpan: settingSpan)
        r.meaning = meaning
        r.readsItemCount = true
        return r
    }

    /// The rule recording what it gives the `count` items of the table before.
    func recording(count: Int) -> ItemRule { wrapped(.recorded(RuleRecorder(self, count: count))) }

    /// The rule of the table after `update`: a recorded rule replays what it kept.
    func replaying(_ update: SectionUpdate) -> ItemRule {
        if case .recorded(let r) = kind { return r.replay(update) }
        return self
    }
}

/// Laying out a layout with a batch update: the table before (with its rules recorded) and the
/// table after.
package enum UpdateTapes {
    /// The tables before and after `layout`'s batch update. Without `update` blocks, the one
    /// table twice.
    package static func layout(_ layout: ResolvedLayout, warnings: inout [Diagnostic])
        -> Result<(before: AttributeTable, after: AttributeTable), LayoutFailure> {
        guard layout.hasUpdate else {
            return Sections.layout(layout, warnings: &warnings).map { ($0, $0) }
        }
        var recording = layout
        for k in recording.sections.indices where recording.sections[k].update != nil {
            let n = recording.sections[k].items
            recording.sections[k].mapKeptRules { $0.recording(count: n) }
        }
        let before: AttributeTable
        switch Sections.layout(recording, warnings: &warnings) {
        case .failure(let f): return .failure(f)
        case .success(let t): before = t
        }
        // The recorded layout's sections hold what the rules kept.
        var after = recording
        for k in after.sections.indices {
            guard let update = after.sections[k].update else { continue }
            after.sections[k].items = update.countAfter
            after.sections[k].mapKeptRules { $0.replaying(update) }
        }
        // The engine's warnings about the table after would repeat those of the table before,
        // or speak of items the file does not write: only its errors are the file's.
        var ignored: [Diagnostic] = []
        switch Sections.layout(after, warnings: &ignored) {
        case .failure(var f):
            // Its items are numbered as after the update, which the file does not show: say so.
            for k in f.diagnostics.indices {
                f.diagnostics[k].notes.append(Note("in the table after the 'update' blocks of layout '\(layout.name)', whose items are numbered as after the update"))
            }
            return .failure(f)
        case .success(let t): return .success((before, t))
        }
    }
}
