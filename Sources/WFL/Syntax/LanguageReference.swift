/// The language's reference, generated from the tables of Vocabulary.swift (`SettingTable`,
/// `Builtins`): docs/reference.md, `wfl help settings | functions | variables | SETTING`, and the
/// hover texts of an editor. Nothing here knows a setting by name: a row added to the table shows
/// up everywhere, and LanguageReferenceTests keeps docs/reference.md equal to `markdown()`.
package enum LanguageReference {
    // MARK: Words outside the tables

    /// The reserved words, with what they begin or mean.
    package static let reservedWords: [(word: String, meaning: String)] = [
        ("let", "`let NAME = EXPR` names a value; `let NAME(A, B) = EXPR` a function"),
        ("layout", "`layout NAME { ... }`: one layout of the file, at the top level only"),
        ("section", "`section [NAME] { ... }`: one section, at the top level or in a layout; sections do not nest"),
        ("expect", "`expect EXPR [, \"LABEL\"]`: something the laid-out result must satisfy; `wfl test` checks it"),
        ("true", "the boolean true"),
        ("false", "the boolean false"),
    ]

    /// The letter of a level, as the tables write it.
    package static func letter(_ level: SettingLevel) -> String {
        switch level {
        case .layout: return "L"
        case .section: return "S"
        case .item: return "I"
        case .attached: return "A"
        case .group: return "G"
        }
    }

    /// What a level means.
    package static func levelMeaning(_ level: SettingLevel) -> String {
        switch level {
        case .layout: return "at file or layout level only"
        case .section: return "also inside a section"
        case .item: return "also inside a section, and evaluated for each item"
        case .attached: return attachedMeaning
        case .group: return "only inside a `group` block, for that group only"
        }
    }

    /// The level of the settings that belong to a block, from the table of block words: the
    /// block that holds them all, then any other block that holds one of them.
    static let attachedMeaning: String = {
        let names = SettingTable.all.filter { $0.level == .attached }.map(\.name)
        guard let home = BlockTable.read.first(where: { b in names.allSatisfy(b.settings.contains) }) else { return "only inside a block of its own" }
        var also: [String] = []
        for name in names {
            let others = BlockTable.blocks(holding: name).filter { $0.word != home.word }.map { "`\($0.word.word)`" }
            if !others.isEmpty { also.append("`\(name)` also inside " + listWords(others, conjunction: "and")) }
        }
        return "only inside an `\(home.word.word)` block" + (also.isEmpty ? "" : " (" + also.joined(separator: "; ") + ")")
    }()

    /// The meaning of a keyword value of `setting`: a word of its shape, a side of the insets, or
    /// `adaptive` of the lane counts.
    package static func meaning(ofValue word: String, in setting: SettingInfo) -> String? {
        switch setting.shape {
        case .word: return setting.values[word]
        case .insets: return SettingTable.sideMeanings[word]
        case .lanes: return word == "adaptive" ? SettingTable.adaptiveMeaning : nil
        case .device: return Devices.meaning(of: word)
        case .size, .values: return nil
        }
    }

    /// The keyword values of a setting with their meanings, in the order of its shape.
    package static func values(of setting: SettingInfo) -> [(word: String, meaning: String)] {
        let words: [String]
        switch setting.shape {
        case .word(let ws): words = ws
        case .insets: words = SettingTable.sides
        case .lanes: words = ["adaptive"]
        case .device: words = Devices.names + Orientation.allCases.map(\.rawValue)
        case .size, .values: words = []
        }
        return words.map { ($0, meaning(ofValue: $0, in: setting) ?? "") }
    }

    /// The places where variables have a value in a setting's expressions.
    package static func places(of setting: String) -> [VariablePlace] {
        Builtins.places.filter { $0.settings.contains(setting) }
    }

    // MARK: docs/reference.md

    /// The whole reference page, docs/reference.md.
    package static func markdown() -> String {
        var out = """
            # Reference

            Every word of the language as wfl reads it today: the settings with their arguments,
            defaults, levels and engines, the keyword values, the functions, the functions of `expect`
            and the variables. This page is generated from the table in the code that also drives
            "did you mean", `wfl help` and the hover texts of editors (Sources/WFL/Syntax/Vocabulary.swift);
            a test fails when the two differ, and `WFL_UPDATE_GOLDEN=1 swift test --filter LanguageReferenceTests`
            writes it anew. How the words combine (files, blocks, cascading, expressions, limits) is
            in [language.md](language.md); the geometry in [layout.md](layout.md).

            ## Reserved words

            | word | meaning |
            |---|---|

            """
        for (word, meaning) in reservedWords { out += "| `\(word)` | \(cell(meaning)) |\n" }

        out += """

            ## Settings

            A setting is its name and its arguments, one a line: `columns 3`, `insets 10 20`.

            - Level: **L** \(levelMeaning(.layout)); **S** \(levelMeaning(.section)); **I** \(levelMeaning(.item)).
            - Engines: the engines that read the setting. Written where its engine or direction does
              not use it, a setting is an error that says what to write instead.

            | setting | arguments | default | level | engines | meaning |
            |---|---|---|---|---|---|

            """
        for s in SettingTable.all {
            let def = s.defaultValue.isEmpty ? "" : "`\(s.defaultValue)`"
            out += "| `\(s.name)` | \(argumentsCell(s.arguments)) | \(def) | \(letter(s.level)) | \(s.engines.description) | \(cell(s.meaning)) |\n"
        }

        out += """

            ## Keyword values

            Bare words in the place of a setting's arguments; they are not reserved and are not looked
            up as names.

            | setting | value | meaning |
            |---|---|---|

            """
        // Words that mean the same for several settings (the sides of the insets) share a row.
        var rows: [(settings: [String], word: String, meaning: String)] = []
        for s in SettingTable.all {
            for (word, meaning) in values(of: s) {
                if let k = rows.firstIndex(where: { $0.word == word && $0.meaning == meaning }) {
                    rows[k].settings.append(s.name)
                } else {
                    rows.append(([s.name], word, meaning))
                }
            }
        }
        for r in rows {
            let shown = r.word == "adaptive" ? "adaptive(MIN)" : r.word
            out += "| \(r.settings.map { "`\($0)`" }.joined(separator: ", ")) | `\(shown)` | \(cell(r.meaning)) |\n"
        }

        out += """

            ## Functions

            Usable in any expression (`random` only in the rules evaluated for each item).

            | function | meaning |
            |---|---|

            """
        for f in Builtins.functions { out += functionRow(f) }

        out += """

            ## Functions of `expect`

            Only in an `expect`, besides the functions above: they ask about the laid-out result.

            | function | meaning |
            |---|---|

            """
        for f in Builtins.expectFunctions { out += functionRow(f) }

        out += """

            ## Variables

            The engine gives these names their values from the item or section being laid out. A `let`
            may hide one (a warning).

            | variable | meaning |
            |---|---|

            """
        for v in Builtins.variableTable { out += "| `\(v.name)` | \(cell(v.meaning)) |\n" }

        out += """

            Where each has a value; anywhere else, reading it is an error that says where it can be
            used.

            | where | variables |
            |---|---|

            """
        for p in Builtins.places {
            let vs = p.variables.isEmpty ? "none" : p.variables.map { "`\($0)`" }.joined(separator: ", ")
            out += "| \(p.place) | \(vs) |\n"
        }
        return out
    }

    static func functionRow(_ f: BuiltinFunction) -> String {
        "| \(f.signatures.map { "`\($0)`" }.joined(separator: ", ")) | \(cell(f.meaning)) |\n"
    }

    /// `waterfall | flow` as `` `waterfall` \| `flow` ``; `as insets` as ``as `insets` ``.
    static func argumentsCell(_ arguments: String) -> String {
        if arguments.hasPrefix("as ") { return "as `\(arguments.dropFirst(3))`" }
        return split(arguments, on: " | ").map { "`\($0)`" }.joined(separator: " \\| ")
    }

    /// A table cell: a `|` would end it.
    static func cell(_ text: String) -> String { split(text, on: "|").joined(separator: "\\|") }

    // MARK: wfl help

    /// `wfl help settings`: every setting, two lines each.
    package static func settingsText() -> String {
        var out = wrap("Settings: a name and its arguments, one a line ('columns 3'). 'wfl help SETTING' tells one in full; docs/reference.md is the whole language.", indent: 0) + "\n"
        out += wrap("Level: L \(levelMeaning(.layout)); S \(levelMeaning(.section)); I \(levelMeaning(.item)).", indent: 0) + "\n\n"
        // Each column as wide as its longest entry and two spaces, except the arguments: they take
        // what is left of 96 columns, and a longer list goes on below, in its column.
        func widest(_ header: String, _ entry: (SettingInfo) -> String) -> Int {
            SettingTable.all.reduce(header.unicodeScalars.count) { Swift.max($0, entry($1).unicodeScalars.count) } + 2
        }
        let name = widest("setting") { $0.name }, level = widest("level") { letter($0.level) }
        let engines = widest("engines") { $0.engines.description }, defaults = widest("default") { $0.defaultValue } - 2
        let arguments = 96 - name - level - engines - defaults
        out += pad("setting", name) + pad("arguments", arguments) + pad("level", level) + pad("engines", engines) + "default\n"
        for s in SettingTable.all {
            let lines = fill(s.arguments, width: arguments - 2)
            out += trimEnd(pad(s.name, name) + pad(lines[0], arguments) + pad(letter(s.level), level) + pad(s.engines.description, engines) + s.defaultValue) + "\n"
            for more in lines.dropFirst() { out += String(repeating: " ", count: name) + more + "\n" }
            out += wrap(plain(s.meaning), indent: 4) + "\n"
        }
        return out
    }

    /// A list of arguments ('a | b | c') in lines of at most `width` columns, each but the last
    /// ending in '|' (a text without '|' is broken at spaces); a piece longer than `width` stands
    /// alone.
    static func fill(_ text: String, width: Int) -> [String] {
        let alternatives = split(text, on: " | ")
        let pieces = alternatives.count > 1
            ? alternatives.enumerated().map { $1 + ($0 < alternatives.count - 1 ? " |" : "") }
            : text.split(separator: " ").map(String.init)
        var lines: [String] = [], line = ""
        for piece in pieces {
            if !line.isEmpty, line.unicodeScalars.count + 1 + piece.unicodeScalars.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + piece
        }
        return lines + [line]
    }

    /// `wfl help functions`: the functions, then those of `expect`.
    package static func functionsText() -> String {
        var out = wrap("Functions, usable in any expression ('random' only in the rules evaluated for each item):", indent: 0) + "\n\n"
        for f in Builtins.functions { out += functionText(f) }
        out += "\nIn 'expect' only, they ask about the laid-out result:\n\n"
        for f in Builtins.expectFunctions { out += functionText(f) }
        out += "\nThe variables: 'wfl help variables'.\n"
        return out
    }

    static func functionText(_ f: BuiltinFunction) -> String {
        var out = ""
        for sig in f.signatures { out += "  " + sig + "\n" }
        return out + wrap(plain(f.meaning), indent: 6) + "\n"
    }

    /// `wfl help variables`: what each variable holds and where it has a value.
    package static func variablesText() -> String {
        var out = "Variables, given their values by the engine:\n\n"
        for v in Builtins.variableTable {
            out += trimEnd(pad("  " + v.name, 17) + plain(v.meaning)) + "\n"
        }
        out += "\nWhere they have a value:\n\n"
        for p in Builtins.places {
            out += "  " + plain(p.place) + ": " + (p.variables.isEmpty ? "none" : p.variables.joined(separator: ", ")) + "\n"
        }
        return out
    }

    /// `wfl help SETTING`: one setting in full, or nil when `name` is not one.
    package static func settingText(_ name: String) -> String? {
        guard let s = SettingTable.info(name) else { return nil }
        var out = "\(s.name) \(s.arguments)\n\n" + wrap(plain(s.meaning), indent: 0) + "\n\n"
        var fields: [(String, String)] = []
        fields.append(("default", s.defaultValue.isEmpty ? "none of its own" : s.defaultValue))
        fields.append(("level", "\(letter(s.level)), \(levelMeaning(s.level))"))
        fields.append(("engines", s.engines.description))
        fields.append(("example", s.example))
        let places = places(of: s.name)
        if places.count == 1 {
            fields.append(("variables", places[0].variables.isEmpty ? "none" : places[0].variables.joined(separator: ", ")))
        } else {
            for (k, p) in places.enumerated() {
                fields.append((k == 0 ? "variables" : "", plain(p.place) + ": " + p.variables.joined(separator: ", ")))
            }
        }
        for (label, value) in fields { out += pad("  " + label, 13) + value + "\n" }
        let vs = values(of: s)
        if !vs.isEmpty {
            out += "\nvalues:\n"
            for (word, meaning) in vs {
                let shown = word == "adaptive" ? "adaptive(MIN)" : word
                out += wrap(plain(meaning), indent: 17, first: "  " + shown) + "\n"
            }
        }
        return out
    }

    /// `wfl help WORD` for a block word (`attach`, `update`, `insert`, ...): what it does, what
    /// its block holds and where it stands; nil when `word` is not one the language reads.
    package static func blockText(_ word: String) -> String? {
        guard let b = BlockTable.info(word) else { return nil }
        var out = b.form + "\n\n" + wrap(plain(b.meaning), indent: 0) + "\n\n"
        let holds = b.settings + b.statements
        if !holds.isEmpty { out += pad("  holds", 13) + holds.joined(separator: ", ") + "\n" }
        out += pad("  stands", 13) + plain(b.stands) + "\n"
        return out
    }

    // MARK: Hover texts

    /// The hover text of a setting's name, in Markdown (LSP `MarkupContent`): its arguments, what
    /// it means, default, level, engines and an example. Nil when `name` is not a setting.
    package static func hover(setting name: String) -> String? {
        guard let s = SettingTable.info(name) else { return nil }
        var facts = ["level \(letter(s.level)) (\(levelMeaning(s.level)))", s.engines.description]
        if !s.defaultValue.isEmpty { facts.insert("default `\(s.defaultValue)`", at: 0) }
        return "**\(s.name)** `\(s.arguments)`\n\n\(s.meaning)\n\n\(facts.joined(separator: " · "))\n\nExample: `\(s.example)`"
    }

    /// The hover text of a block word (`attach`, `update`, `insert`, ...), or nil when `word` is
    /// not one the language reads.
    package static func hover(block word: String) -> String? { BlockTable.info(word).map { "`\($0.form)`: \($0.meaning)" } }

    /// The hover text of a keyword value written as an argument of `setting`, or nil.
    package static func hover(value word: String, setting name: String) -> String? {
        guard let s = SettingTable.info(name), let meaning = meaning(ofValue: word, in: s) else { return nil }
        return "**\(word)** (a value of `\(s.name)`)\n\n\(meaning)"
    }

    /// The hover text of a built-in function's name: its signatures and meaning, or nil.
    package static func hover(function name: String) -> String? {
        guard let f = Builtins.function(name) else { return nil }
        let only = Builtins.expectFunctions.contains { $0.name == name } ? "\n\nIn `expect` only." : ""
        return f.signatures.map { "`\($0)`" }.joined(separator: ", ") + "\n\n" + f.meaning + only
    }

    /// The hover text of an engine variable: what it holds and where it has a value, or nil.
    package static func hover(variable name: String) -> String? {
        guard let v = Builtins.variable(name) else { return nil }
        let places = Builtins.places.filter { $0.variables.contains(name) }.map(\.place)
        return "**\(v.name)**: \(v.meaning)\n\nHas a value in: " + places.joined(separator: "; ")
    }

    // MARK: Text helpers

    /// Markdown code marks become the quotes of the terminal's messages.
    static func plain(_ text: String) -> String { String(text.map { $0 == "`" ? "'" : $0 }) }

    static func pad(_ text: String, _ width: Int) -> String {
        let n = text.unicodeScalars.count
        return n >= width ? text + " " : text + String(repeating: " ", count: width - n)
    }

    static func trimEnd(_ text: String) -> String {
        var t = Substring(text)
        while t.last == " " { t = t.dropLast() }
        return String(t)
    }

    static func split(_ text: String, on separator: String) -> [String] {
        var parts: [String] = [], rest = Substring(text)
        while let r = rest.firstRange(of: separator) {
            parts.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }

    /// Words filled into lines of at most 96 columns, each indented by `indent` spaces; with
    /// `first`, the first line starts with it instead, padded to the indent (or on a line of its
    /// own when it is longer).
    static func wrap(_ text: String, indent: Int, first: String = "", width: Int = 96) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var lead = margin
        if !first.isEmpty {
            if first.unicodeScalars.count + 1 > indent { lines.append(first) } else { lead = pad(first, indent) }
        }
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.unicodeScalars.count + 1 + word.unicodeScalars.count > width {
                lines.append(lead + line)
                lead = margin
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(lead + line) }
        return lines.joined(separator: "\n")
    }
}
