/// The table after a batch update (docs/language.md, "Batch updates"): the engine run again with
/// each section's items after the update, where a staying item keeps what its per-item rules gave
/// it before (its size rule's value, `(W, H)` for `size`, its span, its attached views' `when`,
/// `size` and `offset`: a cell is the same data after an update) and an inserted item evaluates
/// them with its new index as `i`, n' as `n` and `random` keyed on its new index. `alpha`,
/// `zoom` and `zIndex` are evaluated afresh.
///
/// How: while the table before is laid out, each per-item rule of a section with an `update`
/// block is wrapped in a `RuleTape` that records the value it gives each item; the layout after
/// gets rules whose tapes answer a staying item by its old index and evaluate the rule for an
/// inserted one. The engines see the tapes as general rules without a fast path, so every value
/// goes through `ItemRule.evaluate`. A layout without `update` blocks
/// is laid out as before, and its table after is its table.

/// The values one item rule gave the items of a section, by index (the table before), or the
/// values it is to give them (the table after).
final class RuleTape {
    let inner: ItemRule
    /// True while the table before is laid out: each value the rule gives is kept.
    let recording: Bool
    var values: [Double]
    var known: [Bool]

    init(_ inner: ItemRule, recording: Bool, count: Int) {
        self.inner = inner
        self.recording = recording
        values = [Double](repeating: 0, count: count)
        known = [Bool](repeating: false, count: count)
    }

    func evaluate(_ m: inout Machine, item i: Int) throws(EvalError) -> Double {
        if recording {
            let v = try inner.evaluate(&m, item: i)
            if i < values.count {
                values[i] = v
                known[i] = true
            }
            return v
        }
        if i < known.count, known[i] { return values[i] }
        return try inner.evaluate(&m, item: i)
    }

    /// The tape of the table after: the values of the staying items at their new indices.
    func replay(_ update: SectionUpdate) -> RuleTape {
        let out = RuleTape(inner, recording: false, count: update.countAfter)
        for (new, old) in update.indicesBefore().enumerated() {
            guard let old, old < known.count, known[old] else { continue }
            out.values[new] = values[old]
            out.known[new] = true
        }
        return out
    }

    /// An item rule that reads this tape: a general rule (`ItemRule.Kind.value`), so that the
    /// engines take no fast path with it and the rules of other layouts cost nothing more. Every
    /// engine sets the machine's `i` to the item before it evaluates such a rule.
    func rule() -> ItemRule {
        let code: Code = { [self] (m: inout Machine) throws(EvalError) -> Value in
            .number(try evaluate(&m, item: Int(m.vars[EngineVar.i.rawValue])))
        }
        var r = ItemRule(kind: .value(code), what: inner.what, span: inner.span, settingSpan: inner.settingSpan)
        r.readsItemCount = true
        return r
    }
}

/// The same for an attached view's `when`, which gives a value rather than a number: the tape
/// keeps whether it held (after a list's cycling, so that a staying item keeps its answer).
final class WhenTape {
    let inner: Code
    let recording: Bool
    var values: [Value?]

    init(_ inner: @escaping Code, recording: Bool, count: Int) {
        self.inner = inner
        self.recording = recording
        values = [Value?](repeating: nil, count: count)
    }

    /// The view's `when` as a `Code` that reads or writes this tape; the item is the machine's
    /// `i`, which `Decorations.attach` sets before it calls `when`.
    func code() -> Code {
        { [self] (m: inout Machine) throws(EvalError) -> Value in
            let i = Int(m.vars[EngineVar.i.rawValue])
            if !recording, i < values.count, let v = values[i] { return v }
            var v = try inner(&m)
            if recording, i < values.count {
                if case .list(let xs) = v, !xs.isEmpty { v = xs[i % xs.count] }
                values[i] = v
            }
            return v
        }
    }

    func replay(_ update: SectionUpdate) -> WhenTape {
        let out = WhenTape(inner, recording: false, count: update.countAfter)
        for (new, old) in update.indicesBefore().enumerated() {
            guard let old, old < values.count else { continue }
            out.values[new] = values[old]
        }
        return out
    }
}

/// The tapes of one section's rules, in the order `UpdateTapes.wrap` finds them.
struct SectionTapes {
    var span: RuleTape? = nil
    var size: [RuleTape] = []
    /// Per attached view: width, height, dx, dy.
    var views: [[RuleTape]] = []
    var whens: [WhenTape?] = []
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
        var tapes: [SectionTapes?] = []
        for k in recording.sections.indices {
            guard recording.sections[k].update != nil else {
                tapes.append(nil)
                continue
            }
            tapes.append(wrap(&recording.sections[k]))
        }
        let before: AttributeTable
        switch Sections.layout(recording, warnings: &warnings) {
        case .failure(let f): return .failure(f)
        case .success(let t): before = t
        }
        var after = layout
        for k in after.sections.indices {
            guard let update = after.sections[k].update, let t = tapes[k] else { continue }
            replay(&after.sections[k], t, update)
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

    /// Wraps each per-item rule of `sec` in a recording tape.
    static func wrap(_ sec: inout ResolvedSection) -> SectionTapes {
        let n = sec.items
        var out = SectionTapes()
        func tape(_ r: ItemRule) -> RuleTape { RuleTape(r, recording: true, count: n) }
        if let s = sec.span {
            let t = tape(s)
            out.span = t
            sec.span = t.rule()
        }
        switch sec.size {
        case .length(let r):
            let t = tape(r)
            out.size = [t]
            sec.size = .length(t.rule())
        case .natural(let a, let b):
            let (ta, tb) = (tape(a), tape(b))
            out.size = [ta, tb]
            sec.size = .natural(ta.rule(), tb.rule())
        }
        for v in sec.attached.indices {
            var view = sec.attached[v]
            let ts = [tape(view.width), tape(view.height), tape(view.dx), tape(view.dy)]
            (view.width, view.height, view.dx, view.dy) = (ts[0].rule(), ts[1].rule(), ts[2].rule(), ts[3].rule())
            out.views.append(ts)
            if let w = view.when {
                let t = WhenTape(w, recording: true, count: n)
                view.when = t.code()
                out.whens.append(t)
            } else {
                out.whens.append(nil)
            }
            sec.attached[v] = view
        }
        return out
    }

    /// Gives `sec` its items after `update`, with rules that replay `tapes`.
    static func replay(_ sec: inout ResolvedSection, _ tapes: SectionTapes, _ update: SectionUpdate) {
        sec.items = update.countAfter
        if let t = tapes.span { sec.span = t.replay(update).rule() }
        switch (sec.size, tapes.size.count) {
        case (.length, 1):
            sec.size = .length(tapes.size[0].replay(update).rule())
        case (.natural, 2):
            sec.size = .natural(tapes.size[0].replay(update).rule(), tapes.size[1].replay(update).rule())
        default:
            break
        }
        for v in sec.attached.indices where v < tapes.views.count {
            let ts = tapes.views[v].map { $0.replay(update).rule() }
            sec.attached[v].width = ts[0]
            sec.attached[v].height = ts[1]
            sec.attached[v].dx = ts[2]
            sec.attached[v].dy = ts[3]
            if let w = tapes.whens[v] { sec.attached[v].when = w.replay(update).code() }
        }
    }
}
