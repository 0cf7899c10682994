/// Judging `expect` statements for `wfl test` and the Swift API (docs/language.md, "Expectations";
/// docs/usage.md, "Expectations and `wfl test`"): each expectation passes, fails (with the values of both sides of a
/// comparison), or fails because evaluating it gave an error (with that error's diagnostic).

/// The two sides of a comparison that did not hold, each evaluated on its own.
public struct ComparisonSides: Equatable, Sendable {
    /// `==`, `!=`, `<`, `<=`, `>` or `>=`.
    public var op: BinaryOp
    /// The value of the left side.
    public var left: Value
    /// The value of the right side.
    public var right: Value
}

/// What checking one `expect` gave.
public struct ExpectationOutcome: Equatable, Sendable {
    /// Passed, failed, or could not be evaluated.
    public enum Verdict: Equatable, Sendable {
        case passed
        /// The condition was false.
        case failed
        /// Evaluating the condition gave an error (`diagnostic` says which); the expectation fails.
        case error
    }

    /// The layout the expectation belongs to.
    public var layout: String
    public var verdict: Verdict
    /// Where the condition stands (outer parentheses included).
    public var span: Span
    /// The condition as written, on one line.
    public var expression: String
    /// The optional label after the comma.
    public var label: String?
    /// For a top-level comparison that failed: both sides' values.
    public var sides: ComparisonSides?
    /// Why evaluating the condition failed (verdict `.error`).
    public var diagnostic: Diagnostic?

    /// True when the expectation held.
    public var passed: Bool { verdict == .passed }

    /// The one line `wfl test` prints for a failed expectation, without a newline:
    /// `feed.wfl:18:8: failed: frame(0, 1) == [192, 54, 172.5, 150]: left is [192.5, 54, 172.5, 150], right is [192, 54, 172.5, 150]`.
    /// Empty for a passed one.
    public func report(in source: SourceFile) -> String {
        guard verdict != .passed else { return "" }
        let p = source.position(of: span.start)
        var line = "\(source.name):\(p.line):\(p.column): failed: \(expression)"
        if let label { line += " (\(Value.string(label).description))" }
        switch verdict {
        case .passed:
            break
        case .failed:
            if let sides {
                line += ": left is \(sides.left.description), right is \(sides.right.description)"
            } else {
                line += ": it is false"
            }
        case .error:
            line += ": " + (diagnostic?.message ?? "it could not be evaluated")
        }
        return line
    }
}

/// The one place expectations are evaluated: `wfl run` checks that they are well formed, `wfl test`
/// and the `Spec` API judge them, and the REPL judges those of an entry and prints expressions typed
/// alone, formatting what this gives.
package struct ExpectationChecker {
    /// Where an expression is evaluated: its messages say so.
    package enum Context: Sendable {
        /// The condition of an `expect`.
        case expect
        /// An expression typed alone in the REPL.
        case typedAlone
        /// The condition of an `expect` in a `scroll` block: it also reads `ox`, `oy`,
        /// `offsetAdjustment` and `sizeAdjustment` (docs/language.md, "Scroll paths").
        case scrollExpect
    }

    let program: Program

    package init(program: Program) { self.program = program }

    /// Checks every expectation of every layout of `layouts` (those of `evaluate()`, at offset
    /// 0,0), in the order they are written, each against the table it reads. An error in one
    /// expectation fails only that one.
    package func check(_ layouts: [EvaluatedLayout]) -> [ExpectationOutcome] {
        var out: [ExpectationOutcome] = []
        for layout in layouts { out += check(layout: layout.before.name, layout) }
        return out
    }

    /// Checks the expectations of one layout (those in its sections included) in the order they
    /// are written, each against the table of `layout` it reads; with `within`, only those
    /// whose statement starts there.
    package func check(layout layoutName: String, _ layout: EvaluatedLayout, within: Span? = nil) -> [ExpectationOutcome] {
        guard let k = program.layoutIndex(named: layoutName) else { return [] }
        let block = program.hasLayoutBlocks ? program.file.layouts[k] : program.file
        var out: [ExpectationOutcome] = []
        // Each `scroll` block's path is followed once, for all its expects.
        var paths: [Int: Result<AttributeTable, Diagnostic>] = [:]
        for record in Program.allExpects(of: block) {
            if let within, record.statement.start < within.start || record.statement.start > within.end { continue }
            guard let path = record.path else {
                out.append(check(record.expectation, layout: layoutName, table: layout.table(record.reads)))
                continue
            }
            let followed = paths[path.keyword.start] ?? follow(path, layout)
            paths[path.keyword.start] = followed
            switch followed {
            case .success(let t):
                out.append(check(record.expectation, layout: layoutName, table: t, context: .scrollExpect))
            case .failure(let d):
                // A path that cannot be followed fails each expect of its block.
                var o = check(record.expectation, layout: layoutName, table: nil, context: .scrollExpect)
                o.verdict = .error
                o.sides = nil
                o.diagnostic = d
                out.append(o)
            }
        }
        return out
    }

    /// The state after a `scroll` block's path on `layout` (the table before any update, shown
    /// where the path ends), or why it cannot be followed: a `to` or `by` value that is no
    /// finite number, a step of 0 or less, more than 1,000,000 stops.
    func follow(_ path: ScrollRecord, _ layout: EvaluatedLayout) -> Result<AttributeTable, Diagnostic> {
        var m = Machine(letCount: program.compiler.letCount)
        m.fresh()
        m.set(.cw, layout.before.containerWidth)
        m.set(.ch, layout.before.containerHeight)
        m.place = "'to'"
        func number(_ e: Expr, _ word: String) -> Result<Double, Diagnostic> {
            do {
                let v = try program.compiler.compile(e).code(&m)
                guard case .number(let d) = v else {
                    return .failure(.error(.badScrollTarget, "'\(word)' takes a number, not \(v.typeName)", at: e.span,
                                           help: "a stop is a content offset: 'to 0, 600', 'to 0, 3000 by 844'"))
                }
                return .success(d)
            } catch {
                return .failure(error.diagnostic)
            }
        }
        var steps: [PathStep] = []
        for stop in path.stops {
            let dx: Double, dy: Double
            switch number(stop.x, "to") { case .success(let d): dx = d; case .failure(let f): return .failure(f) }
            switch number(stop.y, "to") { case .success(let d): dy = d; case .failure(let f): return .failure(f) }
            for (d, e) in [(dx, stop.x), (dy, stop.y)] where !d.isFinite {
                return .failure(.error(.badScrollTarget, "'to' takes finite numbers, not \(NumberFormat.format(d))", at: e.span,
                                       help: "a stop is a content offset: 'to 0, 600'; a far one clamps to the end of the content"))
            }
            var by: Double? = nil
            if let step = stop.step {
                switch number(step, "by") { case .success(let d): by = d; case .failure(let f): return .failure(f) }
            }
            steps.append(PathStep(Offset(x: dx, y: dy), by: by))
        }
        do {
            return .success(try layout.followed(steps))
        } catch {
            let stop = error.step.map { path.stops[$0] }
            switch error.failure {
            case .layout(let f):
                return .failure(f.diagnostics.first ?? .error(.badEstimate, "the layout could not be laid out again along the path", at: path.keyword))
            case .badStep(let d):
                return .failure(.error(.badScrollStep, "a step of 'by' must be above 0, not \(NumberFormat.format(d))", at: stop?.step?.span ?? path.keyword,
                                       help: "'by D' makes stops D apart toward the target: write, for example, 'by ch'"))
            case .tooManyStops:
                let span = stop.map { $0.word.to(($0.step ?? $0.y).span) } ?? path.keyword
                return .failure(.error(.tooManyStops, "the path makes more than 1,000,000 stops here, the first display included", at: span,
                                       help: "make the steps of 'by' larger"))
            }
        }
    }

    /// The same for a layout given as its tables: `after` is its table after its batch update
    /// (`table` again when not given).
    package func check(layout layoutName: String, table: AttributeTable, after: AttributeTable? = nil,
                       within: Span? = nil) -> [ExpectationOutcome] {
        var layout = EvaluatedLayout(table)
        if let after { layout.after = after }
        return check(layout: layoutName, layout, within: within)
    }

    /// Checks that each `expect` (of every layout, or only of `only`) is well formed before any
    /// table exists: it reads only what an expectation has (cw, ch, the content size and the
    /// functions of Expectations) and is a condition. `wfl run` does not judge them.
    func validate(only: String?) -> [Diagnostic] {
        var out: [Diagnostic] = []
        var blocks: [BlockRecord] = [program.file]
        for (k, l) in program.file.layouts.enumerated() where only == nil || only == program.layoutNames[k] { blocks.append(l) }
        for b in blocks {
            for record in Program.allExpects(of: b) {
                let e = record.expectation
                let node = program.compiler.compile(e.condition)
                if let d = misuse(node, record.path == nil ? .expect : .scrollExpect) {
                    out.append(d)
                } else if node.type != .boolean && node.type != .unknown {
                    out.append(notACondition(typeWord(node.type), at: e.condition.span))
                }
            }
            for path in b.scrolls { out += validate(path) }
        }
        return out
    }

    /// The values of a `scroll` block's `to`s: constant numbers, `cw` and `ch` allowed.
    func validate(_ path: ScrollRecord) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for stop in path.stops {
            for (e, word) in [(stop.x, "to"), (stop.y, "to")] + (stop.step.map { [($0, "by")] } ?? []) {
                let node = program.compiler.compile(e)
                if let (v, span) = node.deps.varSpans.first(where: { VarSets.layout & $0.0.bit == 0 }) {
                    out.append(.error(.noValueHere, "'\(v.name)' has no value in '\(word)'", at: span, help: v.whereUsable))
                } else if let span = node.deps.random {
                    out.append(.error(.randomOutsideItemRule, "'random' outside an item rule, in '\(word)'", at: span,
                                      help: "'random' can be used only in item rules ('height', 'width', 'size', 'span')"))
                } else if let span = node.deps.expectOnly {
                    out.append(.error(.expectOnlyFunction, "an expectation function cannot be used in '\(word)'", at: span,
                                      help: "a stop is a constant offset; 'cw' and 'ch' may be used"))
                } else if node.type != .number && node.type != .unknown {
                    out.append(.error(.badScrollTarget, "'\(word)' takes a number, not \(typeWord(node.type))", at: e.span,
                                      help: "a stop is a content offset: 'to 0, 600', 'to 0, 3000 by 844'"))
                }
            }
        }
        return out
    }

    /// What a compiled expression reads that an expectation does not have: an engine variable
    /// or `random`.
    func misuse(_ node: Node, _ context: Context) -> Diagnostic? {
        let allowed = context == .scrollExpect ? VarSets.scrollExpect : VarSets.expect
        if let (v, span) = node.deps.varSpans.first(where: { allowed & $0.0.bit == 0 }) {
            switch context {
            case .expect, .scrollExpect:
                return .error(.noValueHere, "'\(v.name)' has no value in 'expect'", at: span, help: v.whereUsable)
            case .typedAlone:
                return .error(.noValueHere, "'\(v.name)' has no value in an expression typed alone", at: span,
                              help: v.whereUsable + "; typed alone, an expression has cw, ch, contentWidth and contentHeight")
            }
        }
        if let span = node.deps.random {
            return .error(.randomOutsideItemRule, context != .typedAlone ? "'random' outside an item rule, in 'expect'" : "'random' outside an item rule", at: span,
                          help: "'random' can be used only in item rules ('height', 'width', 'size', 'span')")
        }
        return nil
    }

    func notACondition(_ what: String, at span: Span) -> Diagnostic {
        .error(.notACondition, "an expectation must be a condition (true or false), not \(what)", at: span,
               help: "compare it with something, as 'expect contentHeight == 864'")
    }

    func machine(for table: AttributeTable?, _ context: Context) -> Machine {
        var m = Machine(letCount: program.compiler.letCount)
        m.fresh()
        if let table {
            m.set(.cw, table.containerWidth)
            m.set(.ch, table.containerHeight)
            m.set(.contentWidth, table.contentWidth)
            m.set(.contentHeight, table.contentHeight)
            m.set(.device, 0)
            m.host = TableQueries(table: table)
            if context == .scrollExpect {
                // The path's final offset, and the last stop's adjustments (from the host).
                let o = table.sizing?.state.offset ?? table.initialOffset
                m.set(.ox, o.x)
                m.set(.oy, o.y)
                m.set(.offsetAdjustment, 0)
                m.set(.sizeAdjustment, 0)
            }
        }
        m.place = context == .typedAlone ? "an expression typed alone" : "'expect'"
        return m
    }

    /// The value of an expression (its names resolved by the parser), evaluated as the sides of
    /// an `expect` are: `cw`, `ch`, the content size and the functions of Expectations over `table`.
    func value(of e: Expr, table: AttributeTable?, context: Context = .expect) -> Result<Value, Diagnostic> {
        let node = program.compiler.compile(e)
        if let d = misuse(node, context) { return .failure(d) }
        var m = machine(for: table, context)
        do {
            return .success(try node.code(&m))
        } catch {
            // The place goes without saying: the report names the expectation.
            return .failure(error.diagnostic)
        }
    }

    func check(_ e: Expectation, layout: String, table: AttributeTable?, context: Context = .expect) -> ExpectationOutcome {
        var outcome = ExpectationOutcome(layout: layout, verdict: .passed, span: e.written,
                                         expression: Program.oneLine(program.source.text(e.written)),
                                         label: e.label?.text, sides: nil, diagnostic: nil)
        guard table != nil else { return outcome }
        switch value(of: e.condition, table: table, context: context) {
        case .failure(let d):
            outcome.verdict = .error
            outcome.diagnostic = d
        case .success(.boolean(true)):
            break
        case .success(.boolean(false)):
            outcome.verdict = .failed
            if case .binary(let chain) = e.condition, case let rest = chain.operands, rest.count == 1, rest[0].op.precedence == 3,
               case .success(let l) = value(of: chain.head, table: table, context: context),
               case .success(let r) = value(of: rest[0].rhs, table: table, context: context) {
                outcome.sides = ComparisonSides(op: rest[0].op, left: l, right: r)
            }
        case .success(let v):
            outcome.verdict = .error
            outcome.diagnostic = notACondition(v.typeName, at: e.condition.span)
        }
        return outcome
    }
}

extension Program {
    /// A layout block's expectations and those of its sections, in source order.
    static func allExpects(of block: BlockRecord) -> [ExpectRecord] {
        var all = block.expects
        for s in block.sectionsWithExpects { all += s.expects }
        return all.sorted { $0.statement.start < $1.statement.start }
    }

    /// Text with each run of white space that holds a line break made one space.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var pending = ""
        var sawBreak = false
        for c in text {
            if c == " " || c == "\t" || c == "\n" || c == "\r\n" || c == "\r" {
                pending.append(c)
                if c == "\n" || c == "\r\n" || c == "\r" { sawBreak = true }
                continue
            }
            if !pending.isEmpty {
                out += sawBreak ? (out.last == "(" || out.last == "[" || c == ")" || c == "]" ? "" : " ") : pending
                pending = ""
                sawBreak = false
            }
            out.append(c)
        }
        return out
    }
}
