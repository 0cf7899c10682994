/// What an editor asks of a program beyond its diagnostics and tables (`wfl lsp`'s hover): the
/// value of a `let` when it is a constant, and one layout resolved by its place in the file, so a
/// hover can say what a setting comes to there after the cascade. Asking changes nothing: not
/// the `let` slots (given when the program is built), not what the program has reported, not
/// the REPL's memo of sections.

extension Program {
    /// The value of the `let` value bound at `binding` when the compiler folds it to a constant;
    /// nil for a value that depends on an item or the engine, a function, or a parameter.
    package func constantValue(ofBinding binding: Int32, named name: String, at span: Span) -> Value? {
        guard binding >= 0, Int(binding) < compiler.bindings.count,
              case .value = compiler.bindings[Int(binding)].kind else { return nil }
        return compiler.compile(.name(Identifier(name, span, binding: binding))).constant
    }

    /// The `k`th layout of the file (0 for a file without `layout` blocks) with the cascade
    /// applied and its settings evaluated, or why it cannot be; nil when there is no such layout.
    package func resolve(layoutAt k: Int) -> Result<ResolvedLayout, LayoutFailure>? {
        guard k >= 0, k < layoutNames.count else { return nil }
        return LargeStack.run {
            let reported = self.reported
            defer { self.reported = reported }
            var r = Resolver(program: self, layout: self.hasLayoutBlocks ? self.file.layouts[k] : nil, name: self.layoutNames[k], query: true)
            return r.resolve()
        }
    }
}
