/// How a layout fails: resolving it (Resolver.swift) or running an engine on it.

/// Why a layout could not be computed: its diagnostics.
public struct LayoutFailure: Error {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}

/// The engines throw the diagnostic of the first item that fails (`throws(Diagnostic)`); their
/// public entry points wrap it in a `LayoutFailure`.
extension Diagnostic: Error {}
