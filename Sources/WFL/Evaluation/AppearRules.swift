/// `appear { ... }` and `disappear { ... }` (docs/language.md, "Batch updates"; docs/layout.md,
/// "Transitions"): where an inserted element starts its animation and a deleted one ends it.
/// Their `alpha`, `zoom` and `offset` cascade each on its own (Program.recordAppear); the resolver
/// compiles them per section, and a table keeps them (`AttributeTable.rules.appearRules`) so that the
/// transitions of an update (Table/TransitionPairing.swift) evaluate them on the frames as shown, at the
/// offset, after the mirror (step 7 of the order of evaluation), for the elements that appear or
/// disappear only.

extension Resolver {
    /// The rules of `appear` (or `disappear`) as they cascade to a section. `random` in them is an
    /// error (UIKit asks for these attributes again as often as it likes); a constant outside
    /// its range is an error here, once, rather than at each element.
    mutating func appearRules(_ blocks: [BlockRecord], disappear: Bool, into out: inout RuleSet<SectionRule>) {
        let slots = SectionRule.ends(disappear: disappear)
        let word = disappear ? "disappear" : "appear"
        func noRandom(_ e: Expr, _ w: Written) -> Bool {
            guard sxAllowed(e, w) else { return false }
            let deps = compiler.compile(e).deps
            // A variable without a value here is found now: the rules run only for the elements
            // of an update that appear or disappear, which may be none.
            if deps.vars & ~VarSets.attributes != 0, let (v, span) = deps.varSpans.first(where: { $0.0.bit & VarSets.attributes == 0 }) {
                fail(.error(.noValueHere, "'\(v.name)' has no value in '\(w.setting.name.text)' of '\(word)'", at: span, help: v.whereUsable), key: w.span)
                return false
            }
            guard let r = deps.random else { return true }
            fail(.error(.randomInAttribute, "'random' cannot be used in '\(w.setting.name.text)' of '\(word)'", at: r,
                        help: "an animation's start and end are asked for again as often as UIKit likes, where a random value would change; derive it from 'i' instead"),
                 key: w.span)
            return false
        }
        /// The rule, unless it is a constant (or a list of them) that its range refuses.
        func checked(_ r: ItemRule, _ kind: AttributeRange, _ w: Written) -> ItemRule? {
            let constants: [Double]
            switch r.kind {
            case .constant(let d): constants = [d]
            case .cycle(let xs): constants = xs
            default: return r
            }
            for d in constants {
                if let why = kind.refusal(d) {
                    fail(.error(.badAttribute, "\(r.what) is \(NumberFormat.format(d)): \(why)", at: r.span), key: w.span)
                    return nil
                }
            }
            return r
        }
        if let w = lookup(disappear ? .disappearAlpha : .appearAlpha, blocks), case .expr(let e) = w.value, noRandom(e, w) {
            out[slots.alpha] = checked(rule(e, w, what: "the alpha of '\(word)'"), .alpha, w)
        }
        if let w = lookup(disappear ? .disappearZoom : .appearZoom, blocks), case .expr(let e) = w.value, noRandom(e, w) {
            out[slots.zoom] = checked(rule(e, w, what: "the zoom of '\(word)'"), .zoom, w)
        }
        if let w = lookup(disappear ? .disappearOffset : .appearOffset, blocks), case .size(let xe, let ye) = w.value,
           noRandom(xe, w), noRandom(ye, w) {
            out[slots.x] = checked(rule(xe, w, what: "the x of the offset of '\(word)'"), .offset, w)
            out[slots.y] = checked(rule(ye, w, what: "the y of the offset of '\(word)'"), .offset, w)
        }
        // Motion: `translate X x Y` and `rotate DEG`, absolute, each cascading on its own. A
        // non-finite one is an error naming the item (MOTION's errors), so even a constant is
        // checked where an element appears or disappears, as the attribute rules' are.
        let t = SectionRule.transformEnds(disappear: disappear)
        if let w = lookup(disappear ? .disappearTranslate : .appearTranslate, blocks), case .size(let xe, let ye) = w.value,
           noRandom(xe, w), noRandom(ye, w) {
            out[t.tx] = rule(xe, w, what: "the x of the translate of '\(word)'")
            out[t.ty] = rule(ye, w, what: "the y of the translate of '\(word)'")
        }
        if let w = lookup(disappear ? .disappearRotate : .appearRotate, blocks), case .expr(let e) = w.value, noRandom(e, w) {
            out[t.rotate] = rule(e, w, what: "the rotate of '\(word)'")
        }
    }
}

/// Where an element that appears starts, or one that disappears ends, relative to its frame.
package struct AppearEnd: Equatable, Sendable {
    package var alpha: Double
    package var zoom: Double
    package var dx: Double
    package var dy: Double
    /// The block's `translate` and `rotate` (normalised): absolute, as its zoom.
    package var transform = Transform.identity
    /// A fade: alpha 0, zoom 1, no offset (headers, footers and backgrounds; and the defaults).
    package static let fade = AppearEnd(alpha: 0, zoom: 1, dx: 0, dy: 0)
}

extension TableRules {
    /// Where element of item `i` of section `s` (a cell, or a view on that cell) starts when it
    /// appears (`disappear` false) or ends when it disappears, its frame as shown being `f` in a
    /// table whose section s has `n` items, at `offset`. The variables are those of the attribute
    /// rules; a list cycles by `i`.
    func end(disappear: Bool, section s: Int, item i: Int, count n: Int, frame f: Frame, offset: Offset) throws(Diagnostic) -> AppearEnd {
        let slots = SectionRule.ends(disappear: disappear)
        guard s < sections.count, sections[s].rules.entries.contains(where: { $0.slot.group == (disappear ? .disappear : .appear) })
        else { return .fade }
        var m = machine()
        guard let rules = begin(section: s, item: i, count: n, frame: f, offset: offset, &m) else { return .fade }
        let place = AttributeRange.place(item: i, section: s, offset: offset)
        func value(_ slot: SectionRule, _ range: AttributeRange, default d: Double) throws(Diagnostic) -> Double {
            guard let rule = rules[slot] else { return d }
            return try self.value(rule, range, item: i, place: place, &m)
        }
        let alpha = try value(slots.alpha, .alpha, default: 0), zoom = try value(slots.zoom, .zoom, default: 1)
        let dx = try value(slots.x, .offset, default: 0), dy = try value(slots.y, .offset, default: 0)
        try FiniteFrames.checkMoved(f, dx: dx, dy: dy, rules[slots.x], rules[slots.y], place: place)
        let t = SectionRule.transformEnds(disappear: disappear)
        let transform = Transform(tx: try value(t.tx, .transform, default: 0), ty: try value(t.ty, .transform, default: 0),
                                  rotate: Transform.normalised(try value(t.rotate, .transform, default: 0)))
        return AppearEnd(alpha: alpha, zoom: zoom, dx: dx, dy: dy, transform: transform)
    }
}
