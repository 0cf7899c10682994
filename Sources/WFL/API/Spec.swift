/// The Swift API: a `.wfl` spec evaluated from Swift code, for the tests of a real
/// UICollectionViewLayout (docs/usage.md, "Using wfl from Swift").
///
/// ```swift
/// let spec = Spec(source: "columns 2\nitems 4\nheight 100\nexpect contentHeight == 210")
/// XCTAssertFalse(spec.hasErrors, spec.diagnosticText)
/// let feed = try XCTUnwrap(spec.layouts.first)
/// feed.cell(section: 0, item: 1)?.frame   // Frame(x: 192.5, y: 0, width: 182.5, height: 100)
/// XCTAssertEqual(spec.failedExpectations.count, 0, spec.expectationReport)
/// ```

/// A spec, parsed and evaluated: its diagnostics, the attribute table of each layout, and its
/// expectations.
public struct Spec {
    /// The source, with the name diagnostics show.
    public let source: SourceFile
    /// Every error and warning, the parser's first. Warnings do not stop evaluation.
    public let diagnostics: [Diagnostic]
    /// The attribute table of each layout, in file order; empty when the spec has errors.
    ///
    /// A table's `elements` hold the plain frames; where pinned headers or `zoomFirst` move
    /// things, read frames with `cell(section:item:at:)` and friends, or take `table.at(offset)`,
    /// which is what `wfl run --offset` prints (offset (0, 0) by default).
    public let layouts: [AttributeTable]
    /// The file taken through the stages, for the expectations.
    let compilation: Compilation

    /// Parses and evaluates `text`. `name` is the file name diagnostics show; without `layout`
    /// blocks, its stem names the one layout (`feed.wfl` gives `feed`).
    public init(source text: String, name: String = "spec.wfl") {
        self.init(file: SourceFile(name: name, text: text))
    }

    /// Parses and evaluates a source file (bytes that need not be valid UTF-8). Safe on any
    /// thread's stack: the stages run on a large stack of their own.
    public init(file: SourceFile) {
        source = file
        compilation = Pipeline.run(file)
        diagnostics = compilation.diagnostics
        layouts = compilation.tables
    }

    /// True when the spec has errors (and so no layouts).
    public var hasErrors: Bool { diagnostics.hasErrors }

    /// The diagnostics as wfl prints them (`feed.wfl:7:3: error: ...` with the source line), or
    /// an empty string.
    public var diagnosticText: String { DiagnosticRenderer().render(diagnostics, in: source) }

    /// The attribute table of each layout after its batch update (`update` blocks), in file
    /// order: the table `wfl run --after` prints. A layout without `update` blocks has the same
    /// table as in `layouts`. Empty when the spec has errors.
    public var layoutsAfterUpdate: [AttributeTable] { compilation.layouts.map(\.after) }

    /// The transitions of each layout's batch update at `offset` (what `wfl run --transitions`
    /// prints): every element of the table before paired with its element after, with its
    /// change (`stay`, `move`, `appear`, `disappear`) and both ends. Throws the diagnostic of an
    /// attribute or `appear`/`disappear` rule that fails at that offset; empty when the spec has
    /// errors.
    public func transitions(at offset: Offset = .zero) throws(Diagnostic) -> [TransitionTable] {
        try compilation.transitionTables(at: offset)
    }

    /// The layout named `name`, if the spec has it.
    public func layout(named name: String) -> AttributeTable? {
        layouts.first { $0.name == name }
    }

    /// Every expectation of every layout, checked, in the order written. Empty when the spec has
    /// errors.
    public func checkExpectations() -> [ExpectationOutcome] {
        Pipeline.checkExpectations(compilation)
    }

    /// The expectations that did not hold (including those whose evaluation failed).
    public var failedExpectations: [ExpectationOutcome] {
        checkExpectations().filter { !$0.passed }
    }

    /// What `wfl test` prints for this spec: a line per failed expectation (with its diagnostic
    /// when evaluating it failed), or the diagnostics when the spec has errors. Empty when every
    /// expectation holds.
    public var expectationReport: String {
        if hasErrors { return diagnosticText }
        var out = ""
        for outcome in failedExpectations {
            out += outcome.report(in: source) + "\n"
            if let d = outcome.diagnostic { out += DiagnosticRenderer().render(d, in: source) }
        }
        return out
    }
}

extension AttributeTable {
    /// Cell `item` of `section` with its frame at scroll offset `offset` (as `frame(s, i)` in
    /// `expect`), or nil when there is none.
    public func cell(section: Int, item: Int, at offset: Offset = .zero) -> Element? {
        guard section >= 0, section < sectionStarts.count, item >= 0 else { return nil }
        let s = sectionStarts[section]
        guard item < s.cellCount else { return nil }
        return element(s.firstCell + item, at: offset)
    }

    /// The header of `section` at `offset` (pinned headers move), or nil when it has none.
    public func header(section: Int, at offset: Offset = .zero) -> Element? {
        guard section >= 0, section < sectionStarts.count, let k = sectionStarts[section].header else { return nil }
        return element(k, at: offset)
    }

    /// The footer of `section` at `offset`, or nil when it has none.
    public func footer(section: Int, at offset: Offset = .zero) -> Element? {
        guard section >= 0, section < sectionStarts.count, let k = sectionStarts[section].footer else { return nil }
        return element(k, at: offset)
    }

    func element(_ j: Int, at offset: Offset) -> Element {
        var e = elements[j]
        e.frame = frame(of: j, at: offset)
        return e
    }

    /// How many sections the layout has.
    public var sectionCount: Int { sectionStarts.count }


    /// The elements whose frames overlap `rect` at scroll offset `offset`, in table order, with
    /// their frames at that offset: `layoutAttributesForElements(in:)` (docs/layout.md, "Rect queries").
    public func elements(in rect: Frame, at offset: Offset = .zero) -> [Element] {
        only(query(rect, at: offset), at: offset).elements
    }
}
