import WFL

/// The words the server offers and explains, all read from the core's tables (`SettingTable`,
/// `Builtins`: the lists that drive "did you mean"), so a setting or function added there is
/// completed and explained here with no other change.
enum EditorVocabulary {
    static var settings: [SettingInfo] { SettingTable.all }
    static var functions: [(name: String, arity: Arity)] { Builtins.functions }
    static var expectFunctions: [(name: String, arity: Arity)] { Builtins.expectFunctions }
    static var variables: [String] { Builtins.variables }

    /// Parameter names of the functions whose arguments have a usual name; others get `a, b, ...`.
    static let parameterNames: [String: [String]] = [
        "clamp": ["x", "lo", "hi"], "abs": ["x"], "floor": ["x"], "ceil": ["x"], "round": ["x"], "sqrt": ["x"],
        "len": ["list"], "random": ["lo", "hi"], "frame": ["s", "i", "ox", "oy"], "header": ["s", "ox", "oy"],
        "footer": ["s"], "count": ["x", "y", "w", "h"], "snap": ["x"],
    ]

    /// `clamp(x, lo, hi)`, `min(a, ...)`, `frame(s, i[, ox, oy])`; nil when `name` is no built-in.
    static func signature(of name: String) -> String? {
        guard let arity = Builtins.arity(of: name) else { return nil }
        let names = parameterNames[name]
        func parameter(_ k: Int) -> String {
            if let names, k < names.count { return names[k] }
            return String(UnicodeScalar(UInt8(ascii: "a") + UInt8(k % 26)))
        }
        switch arity {
        case .atLeast(let k):
            return "\(name)(" + ((0..<Swift.max(k, 1)).map(parameter) + ["..."]).joined(separator: ", ") + ")"
        case .exactly(let ks):
            let counts = ks.sorted()
            guard let first = counts.first else { return "\(name)()" }
            var text = "\(name)(" + (0..<first).map(parameter).joined(separator: ", ")
            var done = first
            for c in counts.dropFirst() {
                text += "[" + (done == 0 ? "" : ", ") + (done..<c).map(parameter).joined(separator: ", ") + "]"
                done = c
            }
            return text + ")"
        }
    }

    /// Where a built-in function may be called, and its arity.
    static func functionNote(_ name: String) -> String {
        let arity = Builtins.arity(of: name).map { $0.description } ?? ""
        if expectFunctions.contains(where: { $0.name == name }) { return "a function of `expect` only; \(arity)" }
        return "a built-in function; \(arity)"
    }

    /// What an engine variable holds (docs/language.md, "Variables").
    static func variableMeaning(_ name: String) -> String {
        switch name {
        case "i": return "the item's index in its section"
        case "n": return "the section's item count"
        case "s": return "the section's index"
        case "cw", "ch": return "the container's \(name == "cw" ? "width" : "height")"
        case "aw", "ah": return "the container's \(name == "aw" ? "width" : "height") less the section's insets"
        case "w": return "the item's width, spans included"
        case "h": return "the item's height"
        case "col": return "the item's first lane"
        case "full": return "the lane count"
        case "contentWidth", "contentHeight": return "the content's \(name == "contentWidth" ? "width" : "height"), in `expect`"
        default: return "set by the engine"
        }
    }

    /// The one text that explains a setting, made from its row of the table: name, arguments,
    /// level and example. (Hover and completion both show it.)
    static func settingText(_ info: SettingInfo) -> String {
        let arguments: String
        switch info.shape {
        case .word(let words): arguments = words.map { "`\($0)`" }.joined(separator: " | ")
        case .size: arguments = "`W x H`"
        case .lanes: arguments = "`N` or `adaptive(MIN)`"
        case .values(let lo, let hi): arguments = lo == hi ? (lo == 1 ? "one value" : "\(lo) values") : "\(lo) to \(hi) values"
        case .insets: arguments = "1, 2 or 4 values, or sides: `top 10 left 4`"
        }
        let level: String
        switch info.level {
        case .layout: level = "a layout setting (file or layout)"
        case .section: level = "a section setting (file, layout or section)"
        case .item: level = "an item rule, evaluated for each item (file, layout or section)"
        }
        return "**\(info.name)** \(arguments)\n\n\(level); for example `\(info.example)`"
    }
}
