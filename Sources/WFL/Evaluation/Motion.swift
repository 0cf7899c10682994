/// Motion (docs/language.md, "Transforms and shelf offsets"): the checks the resolver makes on
/// the rules that read `sx`, a shelf's own sideways offset.

extension Resolver {
    /// False, after reporting it, when `e` (the value of setting `w`) reads `sx` in a section
    /// that is not a shelf: an error wherever the rule reaches, evaluated there or not.
    mutating func sxAllowed(_ e: Expr, _ w: Written) -> Bool {
        guard style != .shelf else { return true }
        let deps = compiler.compile(e).deps
        guard deps.vars & EngineVar.sx.bit != 0 else { return true }
        fail(.error(.sxOutsideShelf, "'sx' has no value in '\(w.setting.name.text)' of a section that is not a shelf", at: e.span,
                    help: "'sx' is a shelf's own sideways offset: write the rule in a 'style shelf' section, or use 'p' or 'midX'"),
             key: w.span)
        return false
    }
}
