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
    mutating func appearRules(_ blocks: [BlockRecord], disappear: Bool) -> AppearRuleSet {
        var out = AppearRuleSet()
        let word = disappear ? "disappear" : "appear"
        func noRandom(_ e: Expr, _ w: Written) -> Bool {
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
            out.alpha = checked(rule(e, w, what: "the alpha of '\(word)'"), .alpha, w)
        }
        if let w = lookup(disappear ? .disappearZoom : .appearZoom, blocks), case .expr(let e) = w.value, noRandom(e, w) {
            out.zoom = checked(rule(e, w, what: "the zoom of '\(word)'"), .zoom, w)
        }
        if let w = lookup(disappear ? .disappearOffset : .appearOffset, blocks), case .size(let xe, let ye) = w.value,
           noRandom(xe, w), noRandom(ye, w) {
            out.dx = checked(rule(xe, w, what: "the x of the offset of '\(word)'"), .offset, w)
            out.dy = checked(rule(ye, w, what: "the y of the offset of '\(word)'"), .offset, w)
        }
        return out
    }
}

/// Where an element that appears starts, or one that disappears ends, relative to its frame.
package struct AppearEnd: Equatable, Sendable {
    package var alpha: Double
    package var zoom: Double
    package var dx: Double
    package var dy: Double
    /// A fade: alpha 0, zoom 1, no offset (headers, footers and backgrounds; and the defaults).
    package static let fade = AppearEnd(alpha: 0, zoom: 1, dx: 0, dy: 0)
}

/// A layout's `appear` and `disappear` rules, per section. A class, so that a table and its copies
/// at offsets share one.
package final class AppearRules: @unchecked Sendable, Equatable {
    struct Section {
        var aw: Double, ah: Double
        var appear: AppearRuleSet
        var disappear: AppearRuleSet
    }

    let sections: [Section]
    let seed: UInt64
    let letCount: Int
    let cw: Double, ch: Double
    /// Keeps the user functions the rules call alive.
    let functionBodies: AnyObject?

    /// The rules of `layout`, or nil when no section has any (every end is then a fade).
    static func of(_ layout: ResolvedLayout) -> AppearRules? {
        guard layout.sections.contains(where: { !$0.appear.isEmpty || !$0.disappear.isEmpty }) else { return nil }
        return AppearRules(layout)
    }

    init(_ layout: ResolvedLayout) {
        sections = layout.sections.map { sec in
            let ins = sec.insets
            return Section(aw: layout.containerWidth - ins.left - ins.right, ah: layout.containerHeight - ins.top - ins.bottom,
                           appear: sec.appear, disappear: sec.disappear)
        }
        seed = layout.seed
        letCount = layout.letCount
        cw = layout.containerWidth
        ch = layout.containerHeight
        functionBodies = layout.functionBodies
    }

    /// The same rules: written at the same places, for sections of the same room.
    package static func == (a: AppearRules, b: AppearRules) -> Bool {
        if a === b { return true }
        func same(_ x: ItemRule?, _ y: ItemRule?) -> Bool { x?.span == y?.span && x?.settingSpan == y?.settingSpan && x?.what == y?.what }
        func same(_ x: AppearRuleSet, _ y: AppearRuleSet) -> Bool {
            same(x.alpha, y.alpha) && same(x.zoom, y.zoom) && same(x.dx, y.dx) && same(x.dy, y.dy)
        }
        return a.seed == b.seed && a.letCount == b.letCount && a.cw == b.cw && a.ch == b.ch && a.sections.count == b.sections.count
            && zip(a.sections, b.sections).allSatisfy { x, y in
                x.aw == y.aw && x.ah == y.ah && same(x.appear, y.appear) && same(x.disappear, y.disappear)
            }
    }

    /// Where element of item `i` of section `s` (a cell, or a view on that cell) starts when it
    /// appears (`disappear` false) or ends when it disappears, its frame as shown being `f` in a
    /// table whose section s has `n` items, at `offset`. The variables are those of the attribute
    /// rules; a list cycles by `i`.
    func end(disappear: Bool, section s: Int, item i: Int, count n: Int, frame f: Frame, offset: Offset) throws(Diagnostic) -> AppearEnd {
        guard s < sections.count else { return .fade }
        let sec = sections[s]
        let rules = disappear ? sec.disappear : sec.appear
        if rules.isEmpty { return .fade }
        var m = Machine(seed: seed, letCount: letCount)
        m.set(.cw, cw)
        m.set(.ch, ch)
        m.beginElement(item: i, section: s, count: n, aw: sec.aw, ah: sec.ah, frame: f, offset: offset)
        let place = AttributeRange.place(item: i, section: s, offset: offset)
        func value(_ rule: ItemRule?, _ kind: AttributeRange, default d: Double) throws(Diagnostic) -> Double {
            guard let rule else { return d }
            let v: Double
            do { v = try rule.evaluate(&m, item: i) } catch { throw error.at("in \(rule.what) \(place)").diagnostic }
            if let why = kind.refusal(v) {
                throw Diagnostic.error(.badAttribute, "\(rule.what) \(place) is \(NumberFormat.format(v)): \(why)", at: rule.span)
            }
            return kind.clamped(v)
        }
        let alpha = try value(rules.alpha, .alpha, default: 0), zoom = try value(rules.zoom, .zoom, default: 1)
        let dx = try value(rules.dx, .offset, default: 0), dy = try value(rules.dy, .offset, default: 0)
        try FiniteFrames.checkMoved(f, dx: dx, dy: dy, rules.dx, rules.dy, place: place)
        return AppearEnd(alpha: alpha, zoom: zoom, dx: dx, dy: dy)
    }
}
