import WFL

/// The words the server offers and explains, all read from the core's tables (`SettingTable`,
/// `Builtins`: the lists that drive "did you mean") and their texts from `LanguageReference`, which
/// also writes docs/reference.md and `wfl help`: a setting or function added there is completed and
/// explained here with no other change.
enum EditorVocabulary {
    static var settings: [SettingInfo] { SettingTable.all }
    static var functions: [BuiltinFunction] { Builtins.functions }
    static var expectFunctions: [BuiltinFunction] { Builtins.expectFunctions }
    static var variables: [String] { Builtins.variables }

    /// `clamp(x, lo, hi)`; the signatures of a function with several, joined; nil when `name` is
    /// no built-in.
    static func signature(of name: String) -> String? {
        Builtins.function(name).map { $0.signatures.joined(separator: ", ") }
    }

    /// The reference's text of a built-in function: signatures, meaning, where it may be called.
    static func functionText(_ name: String) -> String? { LanguageReference.hover(function: name) }

    /// What an engine variable holds (the reference's table of variables).
    static func variableMeaning(_ name: String) -> String { Builtins.variable(name)?.meaning ?? "set by the engine" }

    /// The one text that explains a setting: the reference's (meaning, arguments, default, level,
    /// engines, example). Hover and completion both show it.
    static func settingText(_ info: SettingInfo) -> String {
        LanguageReference.hover(setting: info.name) ?? "**\(info.name)**; for example `\(info.example)`"
    }
}
