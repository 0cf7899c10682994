/// The words of the language that are not reserved: settings, keyword values, functions and the
/// engine's variables (docs/language.md, "Settings" and "Variables"). Parser, evaluator and REPL read
/// them from here.

/// What arguments a setting takes.
package enum ArgumentShape: Equatable, Sendable {
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

/// Where a setting may be written (the "level" column of docs/language.md).
package enum SettingLevel: Sendable {
    /// Layout or file level only.
    case layout
    /// Also inside a section.
    case section
    /// Also inside a section, and evaluated once per item.
    case item
}

/// One side of insets, in the order of `insets T L B R`.
package enum Side: Int, CaseIterable, Sendable {
    case top, left, bottom, right

    /// The word of the side: `top`, `left`, `bottom`, `right`.
    package var name: String {
        switch self {
        case .top: return "top"
        case .left: return "left"
        case .bottom: return "bottom"
        case .right: return "right"
        }
    }

    package init?(name: String) {
        guard let side = Side.allCases.first(where: { $0.name == name }) else { return nil }
        self = side
    }
}

/// What settings set: what cascades from the file to a layout and a section, what the warning
/// about setting one thing twice in a block compares, and what the REPL replaces when a setting is
/// typed again. `spacing` sets two (the row and the column spacing); `height`, `width` and `size`
/// set one, the item size rule; each side of each kind of insets is one. The raw value numbers
/// the property's bit in a mask (`bit`).
package enum Property: Int, CaseIterable, Sendable {
    case style, container, direction, columns, rows, order, rowSpacing, columnSpacing
    case insetsTop, insetsLeft, insetsBottom, insetsRight
    case header, footer
    case headerInsetsTop, headerInsetsLeft, headerInsetsBottom, headerInsetsRight
    case footerInsetsTop, footerInsetsLeft, footerInsetsBottom, footerInsetsRight
    case pinHeaders, items, sizeRule, span, justify, align, zoomFirst, scale, seed
    case pinFooters, layoutDirection, paging, snapping, collapseEmpty

    /// One side of `insets`.
    package static func insets(_ side: Side) -> Property { Property(rawValue: insetsTop.rawValue + side.rawValue)! }
    /// One side of `headerInsets`.
    package static func headerInsets(_ side: Side) -> Property { Property(rawValue: headerInsetsTop.rawValue + side.rawValue)! }
    /// One side of `footerInsets`.
    package static func footerInsets(_ side: Side) -> Property { Property(rawValue: footerInsetsTop.rawValue + side.rawValue)! }

    /// The property's bit in a mask of properties.
    var bit: UInt64 { 1 << UInt64(rawValue) }
}

/// One row of the settings table. A class, so that the parser's hold on a row is one reference,
/// not one per field.
package final class SettingInfo: Sendable {
    package let name: String
    package let shape: ArgumentShape
    package let level: SettingLevel
    /// A complete example, for help lines.
    package let example: String
    /// The properties it sets: `spacing` sets both spacings, `height`, `width` and `size` the item
    /// size rule, and a setting of insets its four sides, in `Side` order.
    package let properties: [Property]

    init(name: String, shape: ArgumentShape, level: SettingLevel, example: String, properties: [Property]) {
        self.name = name
        self.shape = shape
        self.level = level
        self.example = example
        self.properties = properties
    }

    /// The properties it sets when written with `arguments`: the sides named in the named form of
    /// insets (`insets top 10`), else all of `properties`.
    package func properties(of arguments: [Argument]) -> [Property] {
        guard case .side? = arguments.first else { return properties }
        return arguments.compactMap { a in
            if case .side(let n, _) = a, let side = Side(name: n.text) { return properties[side.rawValue] }
            return nil
        }
    }
}

/// The table of settings of docs/language.md.
package enum SettingTable {
    package static let sides = Side.allCases.map(\.name)

    package static let all: [SettingInfo] = [
        SettingInfo(name: "style", shape: .word(["waterfall", "flow", "shelf"]), level: .section, example: "style waterfall", properties: [.style]),
        SettingInfo(name: "container", shape: .size, level: .layout, example: "container 375 x 812", properties: [.container]),
        SettingInfo(name: "direction", shape: .word(["vertical", "horizontal"]), level: .layout, example: "direction vertical", properties: [.direction]),
        SettingInfo(name: "columns", shape: .lanes, level: .section, example: "columns 2", properties: [.columns]),
        SettingInfo(name: "rows", shape: .lanes, level: .section, example: "rows 2", properties: [.rows]),
        SettingInfo(name: "order", shape: .word(["shortest", "leftToRight", "rightToLeft"]), level: .section, example: "order shortest", properties: [.order]),
        SettingInfo(name: "rowSpacing", shape: .values(min: 1, max: 1), level: .section, example: "rowSpacing 10", properties: [.rowSpacing]),
        SettingInfo(name: "columnSpacing", shape: .values(min: 1, max: 1), level: .section, example: "columnSpacing 10", properties: [.columnSpacing]),
        SettingInfo(name: "spacing", shape: .values(min: 1, max: 2), level: .section, example: "spacing 10", properties: [.rowSpacing, .columnSpacing]),
        SettingInfo(name: "insets", shape: .insets, level: .section, example: "insets 10", properties: Side.allCases.map(Property.insets)),
        SettingInfo(name: "header", shape: .values(min: 1, max: 1), level: .section, example: "header 44", properties: [.header]),
        SettingInfo(name: "footer", shape: .values(min: 1, max: 1), level: .section, example: "footer 30", properties: [.footer]),
        SettingInfo(name: "headerInsets", shape: .insets, level: .section, example: "headerInsets 0 10", properties: Side.allCases.map(Property.headerInsets)),
        SettingInfo(name: "footerInsets", shape: .insets, level: .section, example: "footerInsets 0 10", properties: Side.allCases.map(Property.footerInsets)),
        SettingInfo(name: "pinHeaders", shape: .values(min: 1, max: 1), level: .section, example: "pinHeaders true", properties: [.pinHeaders]),
        SettingInfo(name: "items", shape: .values(min: 1, max: 1), level: .section, example: "items 20", properties: [.items]),
        SettingInfo(name: "height", shape: .values(min: 1, max: 1), level: .item, example: "height 100", properties: [.sizeRule]),
        SettingInfo(name: "width", shape: .values(min: 1, max: 1), level: .item, example: "width 100", properties: [.sizeRule]),
        SettingInfo(name: "size", shape: .size, level: .item, example: "size 50 x 50", properties: [.sizeRule]),
        SettingInfo(name: "span", shape: .values(min: 1, max: 1), level: .item, example: "span full", properties: [.span]),
        SettingInfo(name: "justify", shape: .word(["uikit", "start", "center", "end", "spread"]), level: .section, example: "justify uikit", properties: [.justify]),
        SettingInfo(name: "align", shape: .word(["center", "start", "end", "stretch"]), level: .section, example: "align center", properties: [.align]),
        SettingInfo(name: "zoomFirst", shape: .size, level: .layout, example: "zoomFirst 120 x 150", properties: [.zoomFirst]),
        SettingInfo(name: "scale", shape: .values(min: 1, max: 1), level: .section, example: "scale 2", properties: [.scale]),
        SettingInfo(name: "seed", shape: .values(min: 1, max: 1), level: .layout, example: "seed 0", properties: [.seed]),
        SettingInfo(name: "pinFooters", shape: .values(min: 1, max: 1), level: .section, example: "pinFooters true", properties: [.pinFooters]),
        SettingInfo(name: "layoutDirection", shape: .word(["leftToRight", "rightToLeft"]), level: .layout, example: "layoutDirection rightToLeft", properties: [.layoutDirection]),
        SettingInfo(name: "paging", shape: .word(["continuous", "leadingBoundary", "paging", "groupPaging", "groupPagingCentered"]), level: .section, example: "paging groupPaging", properties: [.paging]),
        SettingInfo(name: "snapping", shape: .word(["next", "nearest"]), level: .layout, example: "snapping nearest", properties: [.snapping]),
        SettingInfo(name: "collapseEmpty", shape: .word(["none", "insets", "all"]), level: .section, example: "collapseEmpty insets", properties: [.collapseEmpty]),
    ]

    /// For each row of `all`, the properties it sets as a mask of `Property.bit`s.
    static let propertyMasks: [UInt64] = all.map { $0.properties.reduce(0) { $0 | $1.bit } }

    private static let byName: [String: SettingInfo] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The row of a setting name, if it is one.
    package static func info(_ name: String) -> SettingInfo? { byName[name] }

    package static var names: [String] { all.map(\.name) }
}

/// How many arguments a function takes.
package enum Arity: Equatable, Sendable {
    case exactly([Int])
    case atLeast(Int)

    package func accepts(_ n: Int) -> Bool {
        switch self {
        case .exactly(let ks): return ks.contains(n)
        case .atLeast(let k): return n >= k
        }
    }

    /// "2 arguments", "2 or 4 arguments", "at least 1 argument".
    package var description: String {
        switch self {
        case .atLeast(let k): return "at least \(k) argument" + (k == 1 ? "" : "s")
        case .exactly(let ks):
            let last = ks.last ?? 0
            return listWords(ks.map(String.init)) + " argument" + (last == 1 ? "" : "s")
        }
    }
}

/// The built-in functions and the engine's variables.
package enum Builtins {
    /// Functions usable in any expression, with how many arguments each takes.
    package static let functions: [(name: String, arity: Arity)] = [
        ("min", .atLeast(1)), ("max", .atLeast(1)), ("clamp", .exactly([3])), ("abs", .exactly([1])),
        ("floor", .exactly([1])), ("ceil", .exactly([1])), ("round", .exactly([1])), ("sqrt", .exactly([1])),
        ("len", .exactly([1])), ("random", .exactly([2])),
    ]

    /// The functions of Expectations (`expect` only; the evaluator says so elsewhere).
    package static let expectFunctions: [(name: String, arity: Arity)] = [
        ("frame", .exactly([2, 4])), ("header", .exactly([1, 3])), ("footer", .exactly([1, 3])),
        ("count", .exactly([4, 6])), ("snap", .exactly([1])), ("shelfSnap", .exactly([2])),
    ]

    /// Variables the engine gives values to (where each has one is the evaluator's business).
    package static let variables: [String] = [
        "i", "n", "s", "cw", "ch", "aw", "ah", "w", "h", "col", "full", "contentWidth", "contentHeight",
    ]

    static let functionArity: [String: Arity] =
        Dictionary(uniqueKeysWithValues: (functions + expectFunctions).map { ($0.name, $0.arity) })

    /// How many arguments a built-in function takes, or nil when `name` is not one.
    package static func arity(of name: String) -> Arity? { functionArity[name] }
}

/// Suggestions for misspelt names: the closest candidate by edit distance, if it is close enough.
package enum Suggest {
    /// The Damerau-Levenshtein distance (adjacent swaps count one, case is ignored), or a number
    /// above `limit` as soon as the distance is known to exceed it.
    package static func distance(_ a: String, _ b: String, limit: Int = Int.max) -> Int {
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
    package static func closest(to word: String, among candidates: [String]) -> String? {
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
    package static func didYouMean(_ word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }
}

/// Lists words as "a, b or c".
func listWords(_ words: [String], quoted: Bool = false, conjunction: String = "or") -> String {
    let w = quoted ? words.map { "'\($0)'" } : words
    if w.count <= 1 { return w.first ?? "" }
    return w.dropLast().joined(separator: ", ") + " \(conjunction) " + w.last!
}
