/// How a layout fails: resolving it (Resolver.swift) or running an engine on it.

/// Why a layout could not be computed: its diagnostics.
package struct LayoutFailure: Error {
    package var diagnostics: [Diagnostic]
    package init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}

/// The engines throw the diagnostic of the first item that fails (`throws(Diagnostic)`); their
/// package entry points wrap it in a `LayoutFailure`.
extension Diagnostic: Error {}
