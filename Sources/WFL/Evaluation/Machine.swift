/// The state that compiled expressions run against: the engine's variables, the per-item cache of
/// `let` values, the frames of user-function calls and the `random` counter.

/// The engine's variables (docs/language.md, "Variables"), each with a slot in `Machine.vars`.
package enum EngineVar: Int, CaseIterable, Sendable {
    case i, n, s, cw, ch, aw, ah, w, h, col, full, contentWidth, contentHeight
    /// The attribute rules' cell frame and scroll offset (docs/language.md, "Variables").
    case minX, midX, maxX, minY, midY, maxY, ox, oy
    /// An attached view's size, in its `offset`.
    case vw, vh
    /// The device in force, a string (docs/layout.md, "Devices"): read from the expectation's
    /// host, not from `Machine.vars`.
    case device
    /// Groups: the containing group's content size, and a custom group's leaf index.
    case gw, gh, k
    /// Motion: the paging progress and a shelf's own offset (attribute rules).
    case p, sx
    /// Scroll paths: the last stop's adjustments, lists `[x, y]` and `[w, h]` read from the
    /// expectation's host (docs/language.md, "Scroll paths").
    case offsetAdjustment, sizeAdjustment

    /// Its name in the language.
    package var name: String {
        switch self {
        case .i: return "i"
        case .n: return "n"
        case .s: return "s"
        case .cw: return "cw"
        case .ch: return "ch"
        case .aw: return "aw"
        case .ah: return "ah"
        case .w: return "w"
        case .h: return "h"
        case .col: return "col"
        case .full: return "full"
        case .contentWidth: return "contentWidth"
        case .contentHeight: return "contentHeight"
        case .minX: return "minX"
        case .midX: return "midX"
        case .maxX: return "maxX"
        case .minY: return "minY"
        case .midY: return "midY"
        case .maxY: return "maxY"
        case .ox: return "ox"
        case .oy: return "oy"
        case .vw: return "vw"
        case .vh: return "vh"
        case .device: return "device"
        case .gw: return "gw"
        case .gh: return "gh"
        case .k: return "k"
        case .p: return "p"
        case .sx: return "sx"
        case .offsetAdjustment: return "offsetAdjustment"
        case .sizeAdjustment: return "sizeAdjustment"
        }
    }

    package init?(name: String) {
        guard let v = EngineVar.allCases.first(where: { $0.name == name }) else { return nil }
        self = v
    }

    /// Its bit in an availability mask.
    @inline(__always) package var bit: UInt64 { 1 << UInt64(rawValue) }

    /// Where the variable has a value, for the error when it has none: the places of
    /// `Builtins.places` that give it one, those of one scope together.
    var whereUsable: String {
        var scopes: [(scope: String, what: [String])] = []
        for p in Builtins.places where p.variables.contains(name) {
            if let k = scopes.firstIndex(where: { $0.scope == p.scope }) { scopes[k].what.append(p.what) } else { scopes.append((p.scope, [p.what])) }
        }
        let parts = scopes.map { ($0.scope.isEmpty ? "" : $0.scope + ": ") + $0.what.joined(separator: ", ") }
        return "'\(name)' has a value only in " + LanguageReference.plain(parts.joined(separator: "; "))
    }
}

/// Sets of engine variables that have values in each place (docs/language.md, "Variables").
package enum VarSets {
    static func mask(_ vs: [EngineVar]) -> UInt64 { vs.reduce(0) { $0 | $1.bit } }
    package static let insets = mask([.s, .cw, .ch])
    package static let section = mask([.s, .cw, .ch, .aw, .ah])
    package static let span = mask([.i, .n, .s, .cw, .ch, .aw, .ah, .full])
    package static let verticalSize = span | mask([.w, .col])
    package static let horizontalSize = span | mask([.h, .col])
    package static let flowSize = mask([.i, .n, .s, .cw, .ch, .aw, .ah])
    package static let layout = mask([.cw, .ch])
    package static let expect = mask([.cw, .ch, .contentWidth, .contentHeight, .device])
    /// An `expect` in a `scroll` block: also the path's final offset and its last stop's
    /// adjustments.
    package static let scrollExpect = expect | mask([.ox, .oy, .offsetAdjustment, .sizeAdjustment])
    /// The indices of `insert` and `delete`: n is the count before the update.
    package static let change = mask([.s, .n, .cw, .ch, .aw, .ah])
    /// `when` and `size` of an attached view in a flow or shelf section: the variables of the
    /// flow `size` rule and the cell's size.
    package static let attach = flowSize | mask([.w, .h])
    /// `offset` of an attached view: also its size.
    package static let attachOffset = attach | mask([.vw, .vh])
    /// `when` and `size` in a waterfall section: those of its size rule, `full` and `col` (the
    /// cell's first lane) with them, and the cell's size.
    package static let attachWaterfall = attach | mask([.full, .col])
    /// `offset` in a waterfall section: also the view's size.
    package static let attachWaterfallOffset = attachWaterfall | mask([.vw, .vh])
    /// `alpha`, `zoom` and `zIndex`: the cell's frame as shown and the offset.
    /// Groups: a group's or item's size and `count` (docs/language.md, "Groups").
    package static let groupSize = mask([.gw, .gh, .s, .cw, .ch, .aw, .ah])
    /// A custom group's `frame`.
    package static let groupFrame = groupSize | mask([.k])
    package static let attributes = mask([.i, .n, .s, .cw, .ch, .aw, .ah, .w, .h, .minX, .midX, .maxX, .minY, .midY, .maxY, .ox, .oy, .p, .sx])
}

/// What `expect` functions ask of a finished layout (`frame`, `header`, `count`, ...).
package protocol ExpectHost {
    /// Calls the expectation function `query`; `span` is where the call stands.
    func call(_ query: ExpectQuery, _ args: [Value], span: Span, argSpans: [Span]) throws(EvalError) -> Value
    /// The device in force, in the command-line form, or "" (the variable `device`).
    var device: String { get }
    /// Where a scroll path left the table (`offsetAdjustment`, `sizeAdjustment`); nil outside
    /// `scroll` blocks.
    var pathState: PathState? { get }
}

/// The mutable state of an evaluation. One per section or rule run; reused across items.
package struct Machine {
    /// Values of the engine's variables, by `EngineVar.rawValue`.
    package var vars: [Double] = Array(repeating: 0, count: EngineVar.allCases.count)
    /// Which of `vars` have a value here.
    package var available: UInt64 = 0
    /// Where evaluation is, for "has no value in ..." messages: "'columns'", "the height rule".
    package var place: String = "this place"
    /// True while evaluating an item rule: `random` works only there.
    package var inItem = false
    /// The part of `random`'s hash fixed by (seed, s, i); see `beginItem`.
    var itemHash: UInt64 = 0
    /// How many `random` calls this item has made.
    var randomCount: UInt64 = 0
    /// The layout's seed.
    package var seed: UInt64 = 0
    /// Bumped for each item (or section): `let` values cached under an older one are stale.
    var generation = 1
    var letValues: [Value] = []
    var letGenerations: [Int] = []
    /// Arguments of the user-function calls in progress.
    var params: [Value] = []
    var frameBase = 0
    var depth = 0
    /// Calls of user functions made by this machine (for `maxCalls`), and before the evaluation
    /// in progress began (for `maxCallsPerValue`).
    var calls = 0
    var callsBefore = 0
    /// Answers `frame(...)` and friends; nil outside `expect`.
    package var host: ExpectHost? = nil

    package init(seed: UInt64 = 0, letCount: Int = 0) {
        self.seed = seed
        letValues = Array(repeating: .number(0), count: letCount)
        letGenerations = Array(repeating: 0, count: letCount)
    }

    /// Readies the machine for another evaluation as `init(seed:)` would, keeping the room of
    /// its `let` cache (the values in it are stale from here): the resolver evaluates each
    /// section's settings with one machine, and a cache as long as the file's `let`s, made again
    /// for each section, cost the square of a growing REPL session.
    package mutating func restart(seed: UInt64) {
        self.seed = seed
        for k in vars.indices { vars[k] = 0 }
        available = 0
        place = "this place"
        inItem = false
        itemHash = 0
        randomCount = 0
        calls = 0
        host = nil
        fresh()
    }

    /// A placeholder without room for the engine's variables, for a kept machine's place while
    /// it is taken out (`MachineBox`).
    init(vars: [Double]) {
        self.vars = vars
    }

    /// Makes room for `count` cached `let` values.
    mutating func reserveLets(_ count: Int) {
        if letValues.count < count {
            letValues += Array(repeating: .number(0), count: count - letValues.count)
            letGenerations += Array(repeating: 0, count: count - letGenerations.count)
        }
    }

    /// Starts a fresh evaluation: `let` values are recomputed, calls unwound.
    @inline(__always) package mutating func fresh() {
        generation &+= 1
        // Usually empty already: skip the call (it runs once per item).
        if !params.isEmpty { params.removeAll(keepingCapacity: true) }
        frameBase = 0
        depth = 0
        callsBefore = calls
    }

    /// Drops the calls of an evaluation that failed half-way, keeping the cached `let` values.
    @inline(__always) package mutating func unwind() {
        params.removeAll(keepingCapacity: true)
        frameBase = 0
        depth = 0
        callsBefore = calls
    }

    /// Starts item `i` of section `s`: a fresh `let` cache and `random` counter.
    @inline(__always) package mutating func beginItem(_ i: Int, section s: Int) {
        beginItem(i, section: s, settingI: true)
    }

    /// `beginItem`, leaving the variable `i` alone when `settingI` is false: for an engine whose
    /// rule does not read it (it sets it before any rule that may).
    @inline(__always) mutating func beginItem(_ i: Int, section s: Int, settingI: Bool) {
        fresh()
        if settingI { vars[EngineVar.i.rawValue] = Double(i) }
        randomCount = 0
        itemHash = Machine.itemHash(seed: seed, section: s, item: i)
    }

    /// The next `random` draw of this item: the mixer of docs/language.md ("Expressions") with k = calls so far.
    @inline(__always) mutating func nextRandom() -> UInt64 {
        defer { randomCount &+= 1 }
        return Machine.draw(itemHash, randomCount)
    }

    /// The part of `random`'s hash fixed by (seed, s, i), as `beginItem` sets `itemHash`.
    @inline(__always) static func itemHash(seed: UInt64, section s: Int, item i: Int) -> UInt64 {
        itemHash((seed &+ 1) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(s) &* 0xC2B2_AE3D_27D4_EB4F, item: i)
    }

    /// The same for item `i` of the section whose item 0 has `sectionHash` (wrapping arithmetic).
    @inline(__always) static func itemHash(_ sectionHash: UInt64, item i: Int) -> UInt64 {
        // i >= 0: its bits, with no test of the sign.
        sectionHash &+ UInt64(truncatingIfNeeded: i) &* 0x1656_67B1_9E37_79F9
    }

    /// Draw k of the item whose fixed part is `itemHash`: the mixer of docs/language.md ("Expressions"). An engine may keep
    /// (itemHash, k) in locals rather than in the machine (FlatRule's `run(_:hash:k:_:)`).
    @inline(__always) static func draw(_ itemHash: UInt64, _ k: UInt64) -> UInt64 {
        var z = itemHash &+ k &* 0xD6E8_FEB8_6659_FD93
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Gives `v` the value `d` and marks it available.
    @inline(__always) package mutating func set(_ v: EngineVar, _ d: Double) {
        vars[v.rawValue] = d
        available |= v.bit
    }
}
