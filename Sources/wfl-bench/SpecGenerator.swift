/// A deterministic generator of realistic `.wfl` source for the front-end benchmarks.
///
/// The file it writes uses every feature of the language (docs/language.md) that the lexer and parser see: settings of
/// every shape (bare words, `W x H` with and without spaces, lanes and `adaptive(...)`, one, two
/// and four insets and the named form), `let` values and functions, lists (some spread over lines
/// with trailing commas), every operator and the conditional, calls, indexing, line comments,
/// nested block comments, strings with escapes and text beyond ASCII, `layout` and `section`
/// blocks, `expect` lines with labels, `;` between statements, and numbers with `_`, fractions and
/// exponents.
///
/// It is written to parse with no diagnostic at all, warnings included: names are bound once per
/// scope and never shadow one another, each block sets each property once, and every call has
/// the right number of arguments. `main.swift` checks that before timing anything.
struct SpecGenerator {
    /// splitmix64: a small PRNG with a fixed seed, so every run benchmarks the same bytes.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// A whole number in `lo ... hi`.
        mutating func int(_ lo: Int, _ hi: Int) -> Int { lo + Int(next() % UInt64(hi - lo + 1)) }
        /// True with probability `p`.
        mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
        mutating func pick<T>(_ xs: [T]) -> T { xs[int(0, xs.count - 1)] }
    }

    /// Forms of the language that the generator can leave out while the lexer gets them wrong
    /// (the spec must parse with no diagnostics): `main.swift` probes the lexer and says which are
    /// left out, so that figures are only compared between runs with the same features.
    struct Features: Equatable {
        /// `container 375x812`: number, `x`, number.
        var compactSizes = true
        /// Letters beyond ASCII in `//` and `/* */` comments.
        var nonASCIIComments = true
    }

    var rng: Random
    var out: [UInt8] = []
    let features: Features

    init(features: Features, seed: UInt64 = 0x5746_4C5F_4245_4E43) { // "WFL_BENC"
        rng = Random(state: seed)
        self.features = features
    }

    /// About `bytes` bytes of source: whole layouts are added until the size is reached.
    static func generate(bytes: Int, features: Features = Features()) -> [UInt8] {
        var g = SpecGenerator(features: features)
        g.out.reserveCapacity(bytes + 8192)
        g.prelude()
        var k = 0
        while g.out.count < bytes {
            g.layout(k)
            k += 1
        }
        return g.out
    }

    // MARK: - Writing

    mutating func line(_ s: String, indent: Int = 0) {
        for _ in 0..<indent { out.append(contentsOf: "  ".utf8) }
        out.append(contentsOf: s.utf8)
        out.append(0x0A)
    }

    mutating func blank() { out.append(0x0A) }

    /// A number as people write them: mostly whole, sometimes with a fraction, a `_` or an
    /// exponent.
    mutating func num(_ lo: Int, _ hi: Int) -> String {
        let v = rng.int(lo, hi)
        switch rng.int(0, 19) {
        case 0: return "\(v).5"
        case 1: return "\(v).25"
        case 2 where v >= 1000: return "\(v / 1000)_\(String(repeating: "0", count: 3 - String(v % 1000).count))\(v % 1000)"
        case 3: return "\(v)e0"
        case 4 where v % 10 == 0 && v > 0: return "\(v / 10)E+1"
        default: return "\(v)"
        }
    }

    static let words = ["photos", "cards", "tiles", "shelf", "banner", "grid", "feed", "store", "wall", "board"]
    static let accents = ["café", "naïve", "Größe", "東京", "🙂", "façade", "señal", "Ωmega"]

    // MARK: - The file

    /// File-level defaults and the `let`s every layout uses. Layouts and sections use other names,
    /// so that nothing shadows these.
    mutating func prelude() {
        line("// wfl-bench: a generated spec for the front-end benchmarks (lexing and parsing).")
        line("/* It holds many layouts of a catalogue app, each with a few sections.")
        line("   /* Block comments nest: this one holds another, */ and goes on after it. */")
        line("container 375 x 812")
        line("style waterfall")
        line("direction vertical")
        line("columns 2")
        line("spacing 10")
        line("insets 10")
        line("scale 2")
        line("seed 0")
        blank()
        line("let gutter = 8")
        line("let heights = [100, 150, 150, 50, 130, 180, 200, 100, 110, 200]")
        line("let ratios = [1.5, 0.75, 1, 1.25, 0.6, 4 / 3]")
        line("let photo(k, width) = round(width * ratios[k % len(ratios)])")
        line("let pick(xs, k) = xs[k % len(xs)]")
        line("let tall(k) = k % 3 == 0 || k % 7 == 1")
        line("let between(v, lo, hi) = v >= lo && v <= hi")
        line("let jitter(k) = 50 + random(0, 150) - k % 5")
        blank()
    }

    /// One `layout` block with its settings, `let`s, sections and expectations.
    mutating func layout(_ k: Int) {
        let flow = rng.chance(0.3)
        let horizontal = rng.chance(0.25)
        let word = rng.pick(Self.words)

        // Comments of every kind before the block.
        switch rng.int(0, 3) {
        case 0:
            let accent = rng.pick(Self.accents)
            line("// Layout \(k): \(word) of the \(features.nonASCIIComments ? accent : "plain") section, \(flow ? "flow" : "waterfall").")
        case 1:
            line("/* Layout \(k) /* \(word) */ of the catalogue;")
            line("   a block comment that holds a line break counts as one. */")
        case 2:
            line("/* Layout \(k): \(word) */ // and a line comment after it")
        default:
            line("// Layout \(k)")
            line("// \(word): sizes in points, as UIKit's collection views measure them.")
        }
        if rng.chance(0.5) {
            line("layout \(word)\(k) {")
        } else {
            line("layout \"\(word) \\\"\(k)\\\" \(rng.pick(Self.accents)) \\u{1F600}\\t\" {")
        }

        // Layout-level settings, each once.
        line("style \(flow ? "flow" : "waterfall")", indent: 1)
        switch rng.int(0, 2) {
        case 0: line("container \(rng.pick([320, 375, 390, 414, 768])) x \(rng.pick([568, 667, 812, 844, 896, 1024]))", indent: 1)
        case 1:
            let (w, h) = (rng.pick([320, 375, 414]), rng.pick([667, 812, 896]))
            line(features.compactSizes ? "container \(w)x\(h)" : "container \(w) x \(h)", indent: 1)
        default: line("container \(num(300, 800)) x (\(num(500, 900)) + 44)", indent: 1)
        }
        line("direction \(horizontal ? "horizontal" : "vertical")", indent: 1)
        if rng.chance(0.3) { line("seed \(rng.int(0, 1 << 20))", indent: 1) }
        if flow && horizontal && rng.chance(0.5) { line("zoomFirst \(num(80, 160)) x \(num(100, 200))", indent: 1) }
        let lanes = horizontal ? "rows" : "columns"
        if flow {
            // Flow layouts have no lanes.
        } else if rng.chance(0.25) {
            line("\(lanes) adaptive(\(num(100, 200)))", indent: 1)
        } else {
            line("\(lanes) \(rng.int(1, 5))", indent: 1)
        }
        if rng.chance(0.5) {
            line("spacing \(num(0, 20)) \(num(0, 20))", indent: 1)
        } else {
            line("rowSpacing \(num(0, 20)); columnSpacing gutter + \(rng.int(0, 8))", indent: 1)
        }
        insets("insets", indent: 1)

        // Layout-level names: `base`, `unit` and `card(...)`, used by the sections.
        line("let base = \(num(40, 120)) + gutter * \(rng.int(1, 4))", indent: 1)
        line("let unit(v) = v * \(num(1, 4)) / \(rng.int(1, 9)) % \(rng.int(50, 500))", indent: 1)
        line("let card(k, wide) = wide ? base * 2 : base + unit(k) - (k % 4) * \(rng.int(2, 12))", indent: 1)
        if rng.chance(0.4) {
            line("let palette = [", indent: 1)
            line("\(num(40, 300)), \(num(40, 300)), \(num(40, 300)), // line comments inside brackets", indent: 2)
            line("\(num(40, 300)), /* and /* nested */ block comments */ \(num(40, 300)),", indent: 2)
            line("]", indent: 1)
        } else {
            line("let palette = [\(num(40, 300)), \(num(40, 300)), \(num(40, 300)), \(num(40, 300))]", indent: 1)
        }
        blank()

        let sections = rng.int(2, 5)
        for s in 0..<sections {
            section(s, flow: flow, horizontal: horizontal)
        }

        // Expectations: every operator, calls and indexing, labels with escapes.
        let n = rng.int(2, 5)
        for e in 0..<n { expectation(e, sections: sections) }
        line("}")
        blank()
    }

    /// `insets`-shaped settings in all their forms.
    mutating func insets(_ name: String, indent: Int) {
        switch rng.int(0, 4) {
        case 0: line("\(name) \(num(0, 24))", indent: indent)
        case 1: line("\(name) \(num(0, 24)) \(num(0, 24))", indent: indent)
        case 2: line("\(name) \(num(0, 24)) \(num(0, 24)) \(num(0, 24)) \(num(0, 24))", indent: indent)
        case 3: line("\(name) top \(num(0, 24)) left \(num(0, 24))", indent: indent)
        default: line("\(name) left gutter right gutter bottom \(num(0, 24)) top (gutter / 2)", indent: indent)
        }
    }

    /// One `section` block.
    mutating func section(_ s: Int, flow: Bool, horizontal: Bool) {
        switch rng.int(0, 2) {
        case 0: line("section {", indent: 1)
        case 1: line("section \(rng.pick(Self.words))\(s) {", indent: 1)
        default: line("section \"\(rng.pick(Self.words)) — \(rng.pick(Self.accents)) \\\\ \(s)\" { // a quoted name", indent: 1)
        }
        let items = rng.int(1, 500)
        switch rng.int(0, 2) {
        case 0: line("items \(items)", indent: 2)
        case 1: line("items \(items / 10) * 10 + \(items % 10)", indent: 2)
        default: line("items /* how many */ \(items)", indent: 2)
        }
        if rng.chance(0.6) { line("header \(num(20, 60)); footer \(num(0, 40))", indent: 2) }
        if rng.chance(0.4) { insets("headerInsets", indent: 2) }
        if rng.chance(0.3) { insets("footerInsets", indent: 2) }
        if rng.chance(0.5) { insets("insets", indent: 2) }
        if rng.chance(0.4) { line("pinHeaders s == \(s) || !(cw > 600)", indent: 2) }
        if rng.chance(0.2) { line("scale \(rng.int(1, 3))", indent: 2) }
        if !flow, rng.chance(0.5) {
            let lanes = horizontal ? "rows" : "columns"
            line("\(lanes) clamp(floor(cw / \(num(90, 200))), 1, \(rng.int(2, 6)))", indent: 2)
        }

        // A section-level `let`, named after its section so that none shadows another.
        let local = "step\(s)"
        line("let \(local) = (ch - \(num(0, 100))) / \(rng.int(4, 20)) + -\(num(0, 9))", indent: 2)

        if flow {
            line("justify \(rng.pick(["uikit", "start", "center", "end", "spread"]))", indent: 2)
            line("align \(rng.pick(["center", "start", "end"]))", indent: 2)
            switch rng.int(0, 2) {
            case 0: line("size \(num(40, 200)) x \(num(40, 200))", indent: 2)
            case 1: line("size card(i, i % 5 == 0) x (base + i % 3 * 10)", indent: 2)
            default: line("size pick(palette, i) x max(\(local), 44, palette[s % len(palette)])", indent: 2)
            }
        } else {
            line("order \(rng.pick(["shortest", "leftToRight", "rightToLeft"]))", indent: 2)
            if rng.chance(0.5) { line("span i == 0 ? full : tall(i) ? min(2, full) : 1", indent: 2) }
            let side = horizontal ? "width" : "height"
            let extent = horizontal ? "h" : "w"
            switch rng.int(0, 5) {
            case 0: line("\(side) heights[i % len(heights)]", indent: 2)
            case 1: line("\(side) photo(i, \(extent))", indent: 2)
            case 2: line("\(side) tall(i) ? card(i, false) * 1.5e0 : abs(\(local) - i % 40) + 44", indent: 2)
            case 3: line("\(side) jitter(i) + sqrt(i) * \(num(1, 9)) - ceil(col / 2)", indent: 2)
            case 4: line("size \(extent) x \(extent) * pick(ratios, i + s)", indent: 2)
            default: line("\(side) between(i, \(rng.int(0, 20)), \(rng.int(21, 60))) ? \(num(60, 200)) : pick(palette, i) + n % 7", indent: 2)
            }
        }
        line("}", indent: 1)
    }

    /// One `expect` line.
    mutating func expectation(_ e: Int, sections: Int) {
        let s = rng.int(0, sections - 1)
        let i = rng.int(0, 5)
        switch rng.int(0, 6) {
        case 0:
            line("expect frame(\(s), \(i)) == [\(num(0, 375)), \(num(0, 2000)), \(num(40, 200)), \(num(40, 300))]", indent: 1)
        case 1:
            line("expect frame(\(s), \(i))[2] >= \(num(10, 100)) && frame(\(s), \(i))[3] > 0, \"item \(i) of section \(s) is \\\"visible\\\"\\n\"", indent: 1)
        case 2:
            line("expect contentHeight <= \(num(1000, 90000)) || contentWidth != cw, \"the content fits \(rng.pick(Self.accents))\"", indent: 1)
        case 3:
            line("expect count(0, \(num(0, 500)), cw, ch) > \(rng.int(0, 9)) ? true : false", indent: 1)
        case 4:
            line("expect !(frame(\(s), 0, 0, \(num(0, 400)))[1] < -1) // scrolled", indent: 1)
        case 5:
            line("expect max(heights) - min(heights[0], \(num(10, 90))) % 7 == round(\(num(0, 200)) / 2) * 0 + 200 - 50 % 3 - \(num(0, 0))", indent: 1)
        default:
            line("expect abs(snap(\(num(0, 900))) - \(num(0, 900))) < cw * 2; expect len(palette) == \(rng.int(0, 1) == 0 ? 4 : 5) || len(ratios) == 6", indent: 1)
        }
    }
}
