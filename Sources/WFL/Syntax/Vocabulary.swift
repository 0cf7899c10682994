/// The words of the language that are not reserved: settings, keyword values, functions and the
/// engine's variables (LANGUAGE.md, "Settings" and "Variables"). Parser, evaluator and REPL read
/// them from here.

/// What arguments a setting takes.
public enum ArgumentShape: Equatable, Sendable {
    /// One bare word out of these.
    case word([String])
    /// `W x H`.
    case size
    /// `N` or `adaptive(MIN)`.
    case lanes
    /// Between `min` and `max` values.
    case values(min: Int, max: Int)
    /// One, two or four values, or the named form `top 10 left 4`.
    case insets
}

/// Where a setting may be written (the "level" column of LANGUAGE.md).
public enum SettingLevel: Sendable {
    /// Layout or file level only.
    case layout
    /// Also inside a section.
    case section
    /// Also inside a section, and evaluated once per item.
    case item
}

/// One row of the settings table. A class, so that the parser's hold on a row is one reference,
/// not one per field.
public final class SettingInfo: Sendable {
    public let name: String
    public let shape: ArgumentShape
    public let level: SettingLevel
    /// A complete example, for help lines.
    public let example: String
    /// The properties it sets, for the duplicate-setting warning: `spacing` sets both spacings,
    /// and `height`, `width` and `size` are one property, the item size rule.
    public let properties: [String]

    init(name: String, shape: ArgumentShape, level: SettingLevel, example: String, properties: [String]) {
        self.name = name
        self.shape = shape
        self.level = level
        self.example = example
        self.properties = properties
    }
}

/// The table of settings of LANGUAGE.md.
public enum SettingTable {
    public static let sides = ["top", "left", "bottom", "right"]

    static func insetProperties(_ prefix: String) -> [String] { sides.map { prefix + "." + $0 } }

    public static let all: [SettingInfo] = [
        SettingInfo(name: "style", shape: .word(["waterfall", "flow"]), level: .layout, example: "style waterfall", properties: ["style"]),
        SettingInfo(name: "container", shape: .size, level: .layout, example: "container 375 x 812", properties: ["container"]),
        SettingInfo(name: "direction", shape: .word(["vertical", "horizontal"]), level: .layout, example: "direction vertical", properties: ["direction"]),
        SettingInfo(name: "columns", shape: .lanes, level: .section, example: "columns 2", properties: ["columns"]),
        SettingInfo(name: "rows", shape: .lanes, level: .section, example: "rows 2", properties: ["rows"]),
        SettingInfo(name: "order", shape: .word(["shortest", "leftToRight", "rightToLeft"]), level: .section, example: "order shortest", properties: ["order"]),
        SettingInfo(name: "rowSpacing", shape: .values(min: 1, max: 1), level: .section, example: "rowSpacing 10", properties: ["rowSpacing"]),
        SettingInfo(name: "columnSpacing", shape: .values(min: 1, max: 1), level: .section, example: "columnSpacing 10", properties: ["columnSpacing"]),
        SettingInfo(name: "spacing", shape: .values(min: 1, max: 2), level: .section, example: "spacing 10", properties: ["rowSpacing", "columnSpacing"]),
        SettingInfo(name: "insets", shape: .insets, level: .section, example: "insets 10", properties: insetProperties("insets")),
        SettingInfo(name: "header", shape: .values(min: 1, max: 1), level: .section, example: "header 44", properties: ["header"]),
        SettingInfo(name: "footer", shape: .values(min: 1, max: 1), level: .section, example: "footer 30", properties: ["footer"]),
        SettingInfo(name: "headerInsets", shape: .insets, level: .section, example: "headerInsets 0 10", properties: insetProperties("headerInsets")),
        SettingInfo(name: "footerInsets", shape: .insets, level: .section, example: "footerInsets 0 10", properties: insetProperties("footerInsets")),
        SettingInfo(name: "pinHeaders", shape: .values(min: 1, max: 1), level: .section, example: "pinHeaders true", properties: ["pinHeaders"]),
        SettingInfo(name: "items", shape: .values(min: 1, max: 1), level: .section, example: "items 20", properties: ["items"]),
        SettingInfo(name: "height", shape: .values(min: 1, max: 1), level: .item, example: "height 100", properties: ["size rule"]),
        SettingInfo(name: "width", shape: .values(min: 1, max: 1), level: .item, example: "width 100", properties: ["size rule"]),
        SettingInfo(name: "size", shape: .size, level: .item, example: "size 50 x 50", properties: ["size rule"]),
        SettingInfo(name: "span", shape: .values(min: 1, max: 1), level: .item, example: "span full", properties: ["span"]),
        SettingInfo(name: "justify", shape: .word(["uikit", "start", "center", "end", "spread"]), level: .section, example: "justify uikit", properties: ["justify"]),
        SettingInfo(name: "align", shape: .word(["center", "start", "end"]), level: .section, example: "align center", properties: ["align"]),
        SettingInfo(name: "zoomFirst", shape: .size, level: .layout, example: "zoomFirst 120 x 150", properties: ["zoomFirst"]),
        SettingInfo(name: "scale", shape: .values(min: 1, max: 1), level: .section, example: "scale 2", properties: ["scale"]),
        SettingInfo(name: "seed", shape: .values(min: 1, max: 1), level: .layout, example: "seed 0", properties: ["seed"]),
    ]

    /// Each property any setting sets, numbered: the bits of `propertyMasks`.
    static let propertyBits: [String: Int] = {
        var bits: [String: Int] = [:]
        for info in all {
            for p in info.properties where bits[p] == nil { bits[p] = bits.count }
        }
        precondition(bits.count <= 64, "more properties than bits")
        return bits
    }()

    static func propertyMask(of properties: [String]) -> UInt64 {
        properties.reduce(0) { $0 | (propertyBits[$1].map { 1 << UInt64($0) } ?? 0) }
    }

    /// For each row of `all`, the properties it sets as bits.
    static let propertyMasks: [UInt64] = all.map { propertyMask(of: $0.properties) }

    /// For each row of `all`, the property of each side in `sides` order (`insets.top`, ...):
    /// what the named form of insets sets.
    static let sideMasks: [[UInt64]] = all.map { info in
        sides.map { propertyMask(of: ["\(info.name).\($0)"]) }
    }

    /// The property that side `side` of the setting in row `row` sets (0 if it is no side).
    static func sideMask(row: Int, side: String) -> UInt64 {
        guard let k = sides.firstIndex(of: side) else { return 0 }
        return sideMasks[row][k]
    }

    private static let byName: [String: SettingInfo] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The row of a setting name, if it is one.
    public static func info(_ name: String) -> SettingInfo? { byName[name] }

    public static var names: [String] { all.map(\.name) }
}

/// How many arguments a function takes.
public enum Arity: Equatable, Sendable {
    case exactly([Int])
    case atLeast(Int)

    public func accepts(_ n: Int) -> Bool {
        switch self {
        case .exactly(let ks): return ks.contains(n)
        case .atLeast(let k): return n >= k
        }
    }

    /// "2 arguments", "2 or 4 arguments", "at least 1 argument".
    public var description: String {
        switch self {
        case .atLeast(let k): return "at least \(k) argument" + (k == 1 ? "" : "s")
        case .exactly(let ks):
            let last = ks.last ?? 0
            return listWords(ks.map(String.init)) + " argument" + (last == 1 ? "" : "s")
        }
    }
}

/// The built-in functions and the engine's variables.
public enum Builtins {
    /// Functions usable in any expression, with how many arguments each takes.
    public static let functions: [(name: String, arity: Arity)] = [
        ("min", .atLeast(1)), ("max", .atLeast(1)), ("clamp", .exactly([3])), ("abs", .exactly([1])),
        ("floor", .exactly([1])), ("ceil", .exactly([1])), ("round", .exactly([1])), ("sqrt", .exactly([1])),
        ("len", .exactly([1])), ("random", .exactly([2])),
    ]

    /// The functions of Expectations (`expect` only; the evaluator says so elsewhere).
    public static let expectFunctions: [(name: String, arity: Arity)] = [
        ("frame", .exactly([2, 4])), ("header", .exactly([1, 3])), ("footer", .exactly([1])),
        ("count", .exactly([4])), ("snap", .exactly([1])),
    ]

    /// Variables the engine gives values to (where each has one is the evaluator's business).
    public static let variables: [String] = [
        "i", "n", "s", "cw", "ch", "aw", "ah", "w", "h", "col", "full", "contentWidth", "contentHeight",
    ]

    static let functionArity: [String: Arity] =
        Dictionary(uniqueKeysWithValues: (functions + expectFunctions).map { ($0.name, $0.arity) })

    /// How many arguments a built-in function takes, or nil when `name` is not one.
    public static func arity(of name: String) -> Arity? { functionArity[name] }
}

/// Suggestions for misspelt names: the closest candidate by edit distance, if it is close enough.
public enum Suggest {
    /// The Damerau-Levenshtein distance (adjacent swaps count one, case is ignored), or a number
    /// above `limit` as soon as the distance is known to exceed it.
    public static func distance(_ a: String, _ b: String, limit: Int = Int.max) -> Int {
        let x = Array(a.utf8).map(lower), y = Array(b.utf8).map(lower)
        let n = x.count, m = y.count
        if abs(n - m) > limit { return limit &+ 1 }
        if n == 0 { return m }
        if m == 0 { return n }
        // Three rows of the table, flat: the one before last, the last, and the current.
        let w = m + 1
        var rows = [Int](repeating: 0, count: 3 * w)
        for j in 0...m { rows[w + j] = j }
        for i in 1...n {
            let cur = (i + 1) % 3 * w, prev = i % 3 * w, prev2 = (i + 2) % 3 * w
            rows[cur] = i
            var best = i
            for j in 1...m {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var d = Swift.min(rows[prev + j] + 1, rows[cur + j - 1] + 1, rows[prev + j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = Swift.min(d, rows[prev2 + j - 2] + 1) }
                rows[cur + j] = d
                best = Swift.min(best, d)
            }
            if best > limit { return limit &+ 1 }
        }
        return rows[(n + 1) % 3 * w + m]
    }

    private static func lower(_ c: UInt8) -> UInt8 { c &- 65 < 26 ? c | 0x20 : c }

    /// The best of `candidates` for `word`, or nil when none is within about a third of its length.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (String, Int)? = nil
        let length = word.utf8.count
        for c in candidates where c != word {
            let limit = Swift.max(1, Swift.min(length, c.utf8.count) / 3)
            let d = distance(word, c, limit: Swift.min(limit, (best?.1 ?? Int.max) - 1))
            if d <= limit, best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// "did you mean 'x'?" or nil.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }
}

/// Lists words as "a, b or c".
func listWords(_ words: [String], quoted: Bool = false, conjunction: String = "or") -> String {
    let w = quoted ? words.map { "'\($0)'" } : words
    if w.count <= 1 { return w.first ?? "" }
    return w.dropLast().joined(separator: ", ") + " \(conjunction) " + w.last!
}
