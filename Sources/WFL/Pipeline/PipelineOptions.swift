/// The switches of a run that tests and the fuzz target turn, passed in where the run begins
/// (`Pipeline.run(_:options:)`, `Parser.parse(_:options:)`, `Program(tree:source:options:)`,
/// `Session(options:)`) instead of kept in global variables that one test would change under
/// another. `standard` is what wfl runs with.
package struct PipelineOptions: Sendable {
    /// The most calls of user functions for one value (one rule for one item, one setting).
    package var callsPerValue = maxCallsPerValue
    /// The most calls of user functions by one machine in all (a layout's items).
    package var calls = maxCalls
    /// The parser's short path for a lone operand; off, every expression takes the general path
    /// (ParserTests proves the two equal).
    package var parserShortPaths = true
    /// The REPL's session appends an entry to what it has already read and resolved; off, it
    /// takes the whole session through the pipeline again (ReplAppendTests proves the two equal).
    package var sessionAppends = true

    package init(callsPerValue: Int = maxCallsPerValue, calls: Int = maxCalls, parserShortPaths: Bool = true, sessionAppends: Bool = true) {
        self.callsPerValue = callsPerValue
        self.calls = calls
        self.parserShortPaths = parserShortPaths
        self.sessionAppends = sessionAppends
    }

    /// What wfl runs with.
    package static let standard = PipelineOptions()
}
