/// Judging `expect` statements for `wfl test` and the Swift API (LANGUAGE.md, "Expectations";
/// CLI.md, "wfl test"): each expectation passes, fails (with the values of both sides of a
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

extension Program {
    /// Checks every expectation of every layout of `tables` (the tables of `evaluate()`, at
    /// offset 0,0), in the order they are written. An error in one expectation fails only that one.
    public func checkExpectations(_ tables: [AttributeTable]) -> [ExpectationOutcome] {
        var out: [ExpectationOutcome] = []
        for table in tables { out += checkExpectations(of: table.name, table: table) }
        return out
    }

    /// Checks the expectations of one layout against its table, in the order they are written
    /// (those in its sections included).
    public func checkExpectations(of layoutName: String, table: AttributeTable) -> [ExpectationOutcome] {
        guard let k = layoutNames.firstIndex(of: layoutName) else { return [] }
        let block = hasLayoutBlocks ? file.layouts[k] : file
        var out: [ExpectationOutcome] = []
        for (e, _) in Program.allExpects(of: block) {
            out.append(check(e, layout: layoutName, table: table))
        }
        return out
    }

    /// A layout block's expectations and those of its sections, in source order.
    static func allExpects(of block: BlockRecord) -> [(Expectation, Span)] {
        var all = block.expects
        for s in block.sections { all += s.expects }
        return all.sorted { $0.1.start < $1.1.start }
    }

    func machine(for table: AttributeTable) -> Machine {
        var m = Machine(letCount: compiler.letCount)
        m.fresh()
        m.set(.cw, table.containerWidth)
        m.set(.ch, table.containerHeight)
        m.set(.contentWidth, table.contentWidth)
        m.set(.contentHeight, table.contentHeight)
        m.place = "'expect'"
        m.host = TableQueries(table: table)
        return m
    }

    func check(_ e: Expectation, layout: String, table: AttributeTable) -> ExpectationOutcome {
        var outcome = ExpectationOutcome(layout: layout, verdict: .passed, span: e.written,
                                         expression: Program.oneLine(source.text(e.written)),
                                         label: e.label?.text, sides: nil, diagnostic: nil)
        func evaluate(_ x: Expr) -> Result<Value, EvalError> {
            let node = compiler.compile(x)
            var m = machine(for: table)
            do { return .success(try node.code(&m)) } catch { return .failure(error) }
        }
        switch evaluate(e.condition) {
        case .failure(let error):
            outcome.verdict = .error
            // The place goes without saying: the report names the expectation.
            outcome.diagnostic = .error(error.message, at: error.span, help: error.help)
        case .success(.boolean(true)):
            break
        case .success(.boolean(false)):
            outcome.verdict = .failed
            if case .binary(let lhs, let rest, _) = e.condition, rest.count == 1, rest[0].op.precedence == 3,
               case .success(let l) = evaluate(lhs), case .success(let r) = evaluate(rest[0].rhs) {
                outcome.sides = ComparisonSides(op: rest[0].op, left: l, right: r)
            }
        case .success(let v):
            outcome.verdict = .error
            outcome.diagnostic = .error("an expectation must be a condition (true or false), not \(v.typeName)", at: e.condition.span,
                                        help: "compare it with something, as 'expect contentHeight == 864'")
        }
        return outcome
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
