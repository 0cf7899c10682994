/// Compiles expressions once into closures, each name following the binding the parser resolved
/// it to, so that evaluating an item rule never walks the tree again (docs/language.md, "Statements and
/// blocks", "Expressions").
///
/// Constant parts are folded at compile time (`let heights = [100, 150]` is a constant list), and
/// numeric expressions get a `Double`-returning closure that skips the boxing of `Value`.

/// A compiled expression returning a value.
package typealias Code = (inout Machine) throws(EvalError) -> Value
/// A compiled expression known to return a number.
package typealias NumCode = (inout Machine) throws(EvalError) -> Double

/// What a compiled expression is known to give before it runs.
enum StaticType { case number, boolean, list, string, unknown }

/// What an expression depends on besides constants: decides folding and the checks of `expect`.
struct Deps {
    /// Engine variables it reads (transitively through `let` and functions).
    var vars: UInt64 = 0
    /// Where each variable is first read.
    var varSpans: [(EngineVar, Span)] = []
    /// Where it calls `random`, if it does.
    var random: Span? = nil
    /// Where it calls an expectation function, if it does.
    var expectOnly: Span? = nil
    /// It calls a function whose body is still being compiled (recursion): unknown, so not folded.
    var incomplete = false
    /// It reads a parameter of the function it stands in: known only at a call.
    var parameters = false

    mutating func add(_ o: Deps) {
        for (v, s) in o.varSpans where vars & v.bit == 0 {
            vars |= v.bit
            varSpans.append((v, s))
        }
        if random == nil { random = o.random }
        if expectOnly == nil { expectOnly = o.expectOnly }
        incomplete = incomplete || o.incomplete
        parameters = parameters || o.parameters
    }

    /// True when evaluating it needs nothing from the engine: its value can be computed once.
    var isPure: Bool { vars == 0 && random == nil && expectOnly == nil && !incomplete && !parameters }
}

/// A compiled expression.
struct Node {
    var code: Code
    var num: NumCode?
    var type: StaticType
    var deps: Deps
    var constant: Value?
    var span: Span
    /// Set when the expression is exactly an engine variable (`i`): for the fast paths.
    var engineVar: EngineVar? = nil
}

/// A `let` of a value, compiled on first use. Its cache slot is given when it is defined, so
/// compiling (an editor's hover, an expression typed alone) never changes `letCount`.
final class LetInfo {
    let decl: LetDecl
    /// Its slot in a machine's `let` cache (`Machine.letValues`); unused when it folds to a constant.
    let id: Int
    var node: Node? = nil
    init(decl: LetDecl, id: Int) {
        self.decl = decl
        self.id = id
    }
}

/// A `let` of a function; `box` holds the compiled body so that recursive calls can refer to it
/// before it is finished.
final class FunctionInfo {
    let decl: LetDecl
    var body: Node? = nil
    var compiling = false
    let box = CodeBox()
    init(decl: LetDecl) {
        self.decl = decl
    }
}

final class CodeBox {
    var code: Code? = nil
}

/// The bodies of a file's user functions. A recursive function's body refers to its own box, a
/// reference cycle: when the last holder of this (the compiler, a resolved layout) goes, the
/// cycles are broken so the closures are freed.
final class FunctionBodies {
    var boxes: [CodeBox] = []
    deinit {
        for b in boxes { b.code = nil }
    }
}

/// The most user functions that may be in progress at once (docs/language.md, "Limits").
package let maxCallDepth = 64

/// The most calls of user functions for one value (one rule for one item, one setting), and in
/// all by one machine (a layout's items, a section's settings): a function that calls itself
/// twice per call would otherwise run for ages within the depth limit (`f(60)` makes 2^60 calls).
package let maxCallsPerValue = 100_000
package let maxCalls = 100_000_000


/// 100000 as "100,000".
func grouped(_ n: Int) -> String {
    var digits = Array(String(n)), out: [Character] = []
    while digits.count > 3 { out = [","] + digits.suffix(3) + out; digits.removeLast(3) }
    return String(digits + out)
}

/// Compiles expressions of one file.
final class Compiler {
    /// The compiled user functions, freed with the last compiler or layout that holds them.
    let functionBodies = FunctionBodies()
    /// How many `let` values have a per-item cache slot: one per `let` of a value defined, fixed
    /// once the program is built (`define`), whatever is compiled afterwards.
    private(set) var letCount = 0
    /// The file's bindings (`SyntaxTree.bindings`), which every `Name.binding` indexes.
    private(set) var bindings: [Binding]
    /// For each binding of a `let` value, its definition (set by `define`).
    private var lets: [LetInfo?]
    /// For each binding of a function, its definition.
    private var functions: [FunctionInfo?]

    /// The call limits in force (`PipelineOptions`): the fuzz target lowers them so that each
    /// input is quick.
    let callLimits: (perValue: Int, total: Int)

    init(bindings: [Binding], options: PipelineOptions = .standard) {
        self.bindings = bindings
        callLimits = (options.callsPerValue, options.calls)
        lets = Array(repeating: nil, count: bindings.count)
        functions = Array(repeating: nil, count: bindings.count)
    }

    /// Takes the bindings of statements appended to the file (`Program.extend`): `all` is every
    /// binding of the longer file, those known already first.
    func extend(bindings all: [Binding]) {
        let more = all.count - bindings.count
        guard more > 0 else { return }
        bindings.append(contentsOf: all[bindings.count...])
        lets.append(contentsOf: repeatElement(nil, count: more))
        functions.append(contentsOf: repeatElement(nil, count: more))
    }

    /// Records a `let` of the file, compiled when a name bound to it is first compiled; a value
    /// takes its cache slot here.
    func define(_ decl: LetDecl) {
        let k = Int(decl.name.binding)
        if decl.parameters != nil {
            functions[k] = FunctionInfo(decl: decl)
        } else {
            lets[k] = LetInfo(decl: decl, id: letCount)
            letCount += 1
        }
    }

    // MARK: Meaning

    /// What `e` computes, as a number: equal for two expressions that compile to the same
    /// computation (the same constants, operators, engine variables and built-ins, and `let`s
    /// and functions of the same meaning), whatever their place. Item rules keep it
    /// (`ItemRule.meaning`) so that rules compare equal without their closures. Computing it
    /// changes nothing: the memo holds only values derived from the tree.
    func meaning(_ e: Expr) -> Int {
        var h = Hasher()
        addMeaning(e, to: &h)
        return h.finalize()
    }

    /// The meaning of each `let` and function by binding, worked out once. A function that calls
    /// itself, directly or through others, is unfolded until a call comes back to one in
    /// progress, which stands as its distance up the stack: the same whichever is asked first.
    /// A meaning is kept only when it did not come back to one in progress below it, on which it
    /// would depend.
    private var meanings: [Int32: Int] = [:]
    private var meaningStack: [Int32] = []
    /// The lowest place in `meaningStack` that the meaning being worked out came back to.
    private var lowestReturn = Int.max

    private func bindingMeaning(_ binding: Int32, _ body: Expr) -> Int {
        if let m = meanings[binding] { return m }
        if let k = meaningStack.lastIndex(of: binding) {
            lowestReturn = Swift.min(lowestReturn, k)
            return -1 - (meaningStack.count - k)
        }
        let place = meaningStack.count, outer = lowestReturn
        meaningStack.append(binding)
        lowestReturn = Int.max
        let m = meaning(body)
        meaningStack.removeLast()
        if lowestReturn >= place { meanings[binding] = m }
        lowestReturn = Swift.min(outer, lowestReturn)
        return m
    }

    private func addMeaning(_ e: Expr, to h: inout Hasher) {
        switch e {
        case .number(let d, _):
            h.combine(0)
            h.combine(d)
        case .boolean(let b, _):
            h.combine(1)
            h.combine(b)
        case .string(let text, _):
            h.combine(2)
            h.combine(text)
        case .invalid:
            h.combine(3)
        case .name(let name):
            h.combine(4)
            guard name.binding != Binding.free else {
                h.combine(name.text)
                return
            }
            let k = Int(name.binding)
            guard k < bindings.count else { return }
            switch bindings[k].kind {
            case .value:
                if let info = lets[k] { h.combine(bindingMeaning(name.binding, info.decl.value)) }
            case .parameter(let j):
                h.combine(-2)
                h.combine(j)
            case .function:
                h.combine(-3)
            }
        case .list(let items, _):
            h.combine(5)
            h.combine(items.count)
            for x in items { addMeaning(x, to: &h) }
        case .unary(let op, let x, _):
            h.combine(6)
            h.combine(op.rawValue)
            addMeaning(x, to: &h)
        case .binary(let chain):
            h.combine(7)
            addMeaning(chain.head, to: &h)
            for o in chain.operands {
                h.combine(o.op.rawValue)
                addMeaning(o.rhs, to: &h)
            }
        case .conditional(let c, let a, let b, _):
            h.combine(8)
            addMeaning(c, to: &h)
            addMeaning(a, to: &h)
            addMeaning(b, to: &h)
        case .call(let call):
            let callee = call.callee, args = call.arguments
            h.combine(9)
            if callee.binding == Binding.free {
                h.combine(callee.text)
            } else if let f = functions[Int(callee.binding)] {
                h.combine(bindingMeaning(callee.binding, f.decl.value))
                h.combine(f.decl.parameters?.count ?? 0)
            }
            h.combine(args.count)
            for a in args { addMeaning(a, to: &h) }
        case .index(let base, let index, _):
            h.combine(10)
            addMeaning(base, to: &h)
            addMeaning(index, to: &h)
        }
    }

    // MARK: Entry points

    func compile(_ e: Expr) -> Node {
        switch e {
        case .number(let d, let span):
            return constant(.number(d), span)
        case .boolean(let b, let span):
            return constant(.boolean(b), span)
        case .string(let s, let span):
            return constant(.string(s), span)
        case .invalid(let span):
            return reportedAbove(span)
        case .name(let name):
            return compileName(name)
        case .list(let items, let span):
            return compileList(items, span)
        case .unary(let op, let operand, let span):
            return compileUnary(op, operand, span)
        case .binary(let chain):
            return compileChain(chain.head, chain.operands, chain.span)
        case .conditional(let c, let a, let b, let span):
            return compileConditional(c, a, b, span)
        case .call(let call):
            return compileCall(call.callee, Array(call.arguments), call.span)
        case .index(let base, let index, let span):
            return compileIndex(base, index, span)
        }
    }

    // MARK: Building blocks

    func constant(_ v: Value, _ span: Span) -> Node {
        let type: StaticType
        var num: NumCode? = nil
        switch v {
        case .number(let d):
            type = .number
            num = { (_: inout Machine) throws(EvalError) -> Double in d }
        case .boolean: type = .boolean
        case .list: type = .list
        case .string: type = .string
        }
        return Node(code: { (_: inout Machine) throws(EvalError) -> Value in v }, num: num, type: type, deps: Deps(),
                    constant: v, span: span)
    }

    /// What stands where the parser reported an error (an `.invalid` node, a name it could not
    /// resolve, a call it refused): a tree with errors is not meant to be compiled, and if it is,
    /// using the node fails.
    func reportedAbove(_ span: Span) -> Node {
        failing(EvalError(.earlierError, "this expression has an error reported above", at: span), span)
    }

    func failing(_ error: EvalError, _ span: Span) -> Node {
        Node(code: { (_: inout Machine) throws(EvalError) -> Value in throw error }, num: nil, type: .unknown,
             deps: Deps(), constant: nil, span: span)
    }

    /// A node from a numeric closure.
    func numeric(_ num: @escaping NumCode, _ deps: Deps, _ span: Span) -> Node {
        Node(code: { (m: inout Machine) throws(EvalError) -> Value in .number(try num(&m)) }, num: num, type: .number,
             deps: deps, constant: nil, span: span)
    }

    /// Folds a node whose value needs nothing from the engine. When evaluating it fails, it stays
    /// as it is, so the error is reported where and when it is used.
    func fold(_ n: Node) -> Node {
        guard n.constant == nil, n.deps.isPure else { return n }
        scratch.reserveLets(letCount)
        scratch.fresh()
        do {
            let v = try n.code(&scratch)
            return constant(v, n.span)
        } catch {
            return n
        }
    }

    /// The machine that folding runs on: nothing from the engine is available there.
    private var scratch = Machine()

    /// The node's value as a number, or an error naming `what` wants one.
    func asNumber(_ n: Node, _ what: String) -> NumCode {
        if let num = n.num { return num }
        let code = n.code, span = n.span
        return { (m: inout Machine) throws(EvalError) -> Double in
            let v = try code(&m)
            if case .number(let d) = v { return d }
            throw EvalError(.typeMismatch, "\(what) takes a number, not \(v.typeName)", at: span)
        }
    }

    func asBool(_ n: Node, _ what: String) -> (inout Machine) throws(EvalError) -> Bool {
        let code = n.code, span = n.span
        return { (m: inout Machine) throws(EvalError) -> Bool in
            let v = try code(&m)
            if case .boolean(let b) = v { return b }
            throw EvalError(.typeMismatch, "\(what) takes a boolean (true or false), not \(v.typeName)", at: span)
        }
    }

    // MARK: Names

    func compileName(_ name: Identifier) -> Node {
        let span = name.span
        guard name.binding != Binding.free else {
            guard let v = EngineVar(name: name.text) else { return reportedAbove(span) }
            let slot = v.rawValue, bit = v.bit
            var deps = Deps()
            deps.vars = bit
            deps.varSpans = [(v, span)]
            if v == .device {
                // A string, from the expectation's host (docs/layout.md, "Devices").
                return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
                    guard m.available & bit != 0 else {
                        throw EvalError(.noValueHere, "'\(v.name)' has no value", at: span, help: v.whereUsable)
                    }
                    return .string(m.host?.device ?? "")
                }, num: nil, type: .string, deps: deps, constant: nil, span: span)
            }
            if v == .offsetAdjustment || v == .sizeAdjustment { return adjustmentVariable(v, deps, span) }
            let num: NumCode = { (m: inout Machine) throws(EvalError) -> Double in
                guard m.available & bit != 0 else {
                    throw EvalError(.noValueHere, "'\(v.name)' has no value", at: span, help: v.whereUsable)
                }
                return m.vars[slot]
            }
            var node = numeric(num, deps, span)
            node.engineVar = v
            return node
        }
        let k = Int(name.binding)
        switch bindings[k].kind {
        case .value:
            guard let info = lets[k] else { return reportedAbove(span) }
            return compileLetReference(info, span)
        case .parameter(let j):
            var deps = Deps()
            deps.parameters = true
            return Node(code: { (m: inout Machine) throws(EvalError) -> Value in m.params[m.frameBase + j] },
                        num: nil, type: .unknown, deps: deps, constant: nil, span: span)
        case .function:
            return reportedAbove(span)
        }
    }

    /// `offsetAdjustment` or `sizeAdjustment`: a list from the expectation's host, the last stop
    /// of a scroll path's. Out of line: `compile` recurses, and its frame stays small.
    @inline(never)
    func adjustmentVariable(_ v: EngineVar, _ deps: Deps, _ span: Span) -> Node {
        let bit = v.bit
        return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            guard m.available & bit != 0 else {
                throw EvalError(.noValueHere, "'\(v.name)' has no value", at: span, help: v.whereUsable)
            }
            let st = m.host?.pathState ?? PathState(offset: .zero)
            let (a, b) = v == .offsetAdjustment ? (st.offsetAdjustment.x, st.offsetAdjustment.y) : (st.sizeAdjustment.width, st.sizeAdjustment.height)
            return .list([.number(a), .number(b)])
        }, num: nil, type: .list, deps: deps, constant: nil, span: span)
    }

    func compileLetReference(_ info: LetInfo, _ span: Span) -> Node {
        if info.node == nil {
            var body = fold(compile(info.decl.value))
            if body.constant == nil {
                let id = info.id, inner = body.code
                body.code = { (m: inout Machine) throws(EvalError) -> Value in
                    if m.letGenerations[id] == m.generation { return m.letValues[id] }
                    let v = try inner(&m)
                    m.letValues[id] = v
                    m.letGenerations[id] = m.generation
                    return v
                }
                if body.type == .number {
                    let code = body.code
                    body.num = { (m: inout Machine) throws(EvalError) -> Double in
                        if case .number(let d) = try code(&m) { return d }
                        return .nan
                    }
                } else {
                    body.num = nil
                }
                body.engineVar = nil
            }
            info.node = body
        }
        var n = info.node!
        if n.constant != nil { n = constant(n.constant!, span) }
        return n
    }

    // MARK: Lists, unary, conditional, index

    func compileList(_ items: [Expr], _ span: Span) -> Node {
        // A list of plain numbers (the usual long list) becomes its value directly, without a
        // node per element.
        var numbers: [Value] = []
        numbers.reserveCapacity(items.count)
        for e in items {
            guard case .number(let d, _) = e else { break }
            numbers.append(.number(d))
        }
        if numbers.count == items.count { return constant(.list(numbers), span) }
        numbers = []
        let nodes = items.map { compile($0) }
        if nodes.allSatisfy({ $0.constant != nil }) {
            return constant(.list(nodes.map { $0.constant! }), span)
        }
        var deps = Deps()
        for n in nodes { deps.add(n.deps) }
        let codes = nodes.map(\.code)
        return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            var out: [Value] = []
            out.reserveCapacity(codes.count)
            for c in codes { out.append(try c(&m)) }
            return .list(out)
        }, num: nil, type: .list, deps: deps, constant: nil, span: span)
    }

    func compileUnary(_ op: UnaryOp, _ operand: Expr, _ span: Span) -> Node {
        let x = compile(operand)
        switch op {
        case .negate:
            let a = asNumber(x, "'-'")
            return fold(numeric({ (m: inout Machine) throws(EvalError) -> Double in -(try a(&m)) }, x.deps, span))
        case .not:
            let b = asBool(x, "'!'")
            return fold(Node(code: { (m: inout Machine) throws(EvalError) -> Value in .boolean(!(try b(&m))) },
                             num: nil, type: .boolean, deps: x.deps, constant: nil, span: span))
        }
    }

    func compileConditional(_ c: Expr, _ a: Expr, _ b: Expr, _ span: Span) -> Node {
        let cn = compile(c), an = compile(a), bn = compile(b)
        var deps = cn.deps
        deps.add(an.deps)
        deps.add(bn.deps)
        let cond = asBool(cn, "the condition of '?:'")
        if let x = an.num, let y = bn.num, an.type == .number, bn.type == .number {
            return fold(numeric({ (m: inout Machine) throws(EvalError) -> Double in
                try cond(&m) ? try x(&m) : try y(&m)
            }, deps, span))
        }
        let x = an.code, y = bn.code
        let type = an.type == bn.type ? an.type : .unknown
        return fold(Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            try cond(&m) ? try x(&m) : try y(&m)
        }, num: nil, type: type, deps: deps, constant: nil, span: span))
    }

    func compileIndex(_ base: Expr, _ index: Expr, _ span: Span) -> Node {
        let bn = compile(base), xn = compile(index)
        var deps = bn.deps
        deps.add(xn.deps)
        let idx = asNumber(xn, "an index")
        let indexSpan = xn.span
        // The common `heights[i]` over a constant list of numbers: no boxing at all.
        if case .list(let values)? = bn.constant {
            let numbers = values.compactMap { v -> Double? in if case .number(let d) = v { return d } else { return nil } }
            if numbers.count == values.count {
                let count = numbers.count
                return fold(numeric({ (m: inout Machine) throws(EvalError) -> Double in
                    let k = try idx(&m)
                    guard k >= 0, k < Double(count), isWhole(k) else { throw indexError(k, count, indexSpan) }
                    return numbers[Int(k)]
                }, deps, span))
            }
        }
        let b = bn.code, baseSpan = bn.span
        return fold(Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            let v = try b(&m)
            guard case .list(let xs) = v else {
                throw EvalError(.typeMismatch, "only a list can be indexed, not \(v.typeName)", at: baseSpan)
            }
            let k = try idx(&m)
            guard k >= 0, k < Double(xs.count), isWhole(k) else { throw indexError(k, xs.count, indexSpan) }
            return xs[Int(k)]
        }, num: nil, type: .unknown, deps: deps, constant: nil, span: span))
    }

    // MARK: Operator chains

    func compileChain(_ first: Expr, _ rest: BinaryOperands, _ span: Span) -> Node {
        guard let op0 = rest.first?.op else { return compile(first) }
        let head = compile(first)
        switch op0 {
        case .or, .and:
            let operands = rest.map { compile($0.rhs) }
            var deps = head.deps
            for o in operands { deps.add(o.deps) }
            return fold(logical(op0 == .and, head, operands, deps, span))
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
            let b = compile(rest[0].rhs)
            var deps = head.deps
            deps.add(b.deps)
            return fold(comparison(op0, head, b, rest[0].opSpan, deps, span))
        default:
            return arithmetic(head, rest, span)
        }
    }

    func logical(_ isAnd: Bool, _ head: Node, _ operands: [Node], _ deps: Deps, _ span: Span) -> Node {
        let what = isAnd ? "'&&'" : "'||'"
        let first = asBool(head, what)
        let others = operands.map { asBool($0, what) }
        return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            var acc = try first(&m)
            for o in others {
                // Only what is needed is evaluated.
                if acc != isAnd { break }
                acc = try o(&m)
            }
            return .boolean(acc)
        }, num: nil, type: .boolean, deps: deps, constant: nil, span: span)
    }

    func comparison(_ op: BinaryOp, _ a: Node, _ b: Node, _ opSpan: Span, _ deps: Deps, _ span: Span) -> Node {
        let tol = equalityTolerance
        if op == .equal || op == .notEqual {
            let negate = op == .notEqual
            if let x = a.num, let y = b.num {
                return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
                    let d = abs(try x(&m) - (try y(&m)))
                    return .boolean((d <= tol) != negate)
                }, num: nil, type: .boolean, deps: deps, constant: nil, span: span)
            }
            let x = a.code, y = b.code
            return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
                let l = try x(&m), r = try y(&m)
                guard let e = languageEqual(l, r) else {
                    throw EvalError(.typeMismatch, "'\(op.rawValue)' cannot compare \(l.typeName) with \(r.typeName)", at: span,
                                    help: sameTypeHelp(l, r))
                }
                return .boolean(e != negate)
            }, num: nil, type: .boolean, deps: deps, constant: nil, span: span)
        }
        let what = "'\(op.rawValue)'"
        let x = asNumber(a, what), y = asNumber(b, what)
        // Ordering agrees with the tolerant equality: `a <= b` holds when they are equal.
        let test: (Double, Double) -> Bool
        switch op {
        case .less: test = { $0 < $1 && abs($0 - $1) > tol }
        case .lessEqual: test = { $0 < $1 || abs($0 - $1) <= tol }
        case .greater: test = { $0 > $1 && abs($0 - $1) > tol }
        default: test = { $0 > $1 || abs($0 - $1) <= tol }
        }
        return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            let l = try x(&m), r = try y(&m)
            return .boolean(test(l, r))
        }, num: nil, type: .boolean, deps: deps, constant: nil, span: span)
    }

    /// An arithmetic chain, evaluated left to right. The operands are compiled one at a time and
    /// only what a step needs is kept, so a chain as long as the file costs little beside its tree:
    /// while the head and the operands are number constants they are folded as they come, in the
    /// order and with the arithmetic of evaluation (stopping before a division by zero or a value
    /// that is not a number, which fail when evaluated, as they would unfolded).
    func arithmetic(_ head: Node, _ rest: BinaryOperands, _ span: Span) -> Node {
        let start = head.span.start
        var deps = head.deps
        var k = 0
        var next: Node? = nil
        var headNode = head
        if case .number(var acc)? = head.constant {
            fold: while k < rest.count {
                let n = compile(rest[k].rhs)
                guard case .number(let r)? = n.constant else { next = n; break }
                switch rest[k].op {
                case .add: acc += r
                case .subtract: acc -= r
                case .multiply: acc *= r
                case .divide:
                    if r == 0 { next = n; break fold }
                    acc /= r
                default:
                    if r == 0 { next = n; break fold }
                    acc = languageRemainder(acc, r)
                }
                k += 1
            }
            if k == rest.count { return constant(.number(acc), span) }
            if k > 0 { headNode = constant(.number(acc), Span(start, rest[k - 1].rhs.span.end)) }
        }
        let first = asNumber(headNode, "'\(rest[0].op.rawValue)'")
        var steps: [(BinaryOp, NumCode, Span)] = []
        var divisors: [Span] = []
        steps.reserveCapacity(rest.count - k)
        divisors.reserveCapacity(rest.count - k)
        while k < rest.count {
            let n = next ?? compile(rest[k].rhs)
            next = nil
            deps.add(n.deps)
            steps.append((rest[k].op, asNumber(n, "'\(rest[k].op.rawValue)'"), Span(start, n.span.end)))
            divisors.append(n.span)
            k += 1
        }
        if steps.count == 1 {
            let (op, b, failSpan) = steps[0]
            let a = first
            let divisorText = divisors[0]
            let num: NumCode
            switch op {
            case .add: num = { (m: inout Machine) throws(EvalError) -> Double in try a(&m) + b(&m) }
            case .subtract: num = { (m: inout Machine) throws(EvalError) -> Double in try a(&m) - b(&m) }
            case .multiply: num = { (m: inout Machine) throws(EvalError) -> Double in try a(&m) * b(&m) }
            case .divide:
                num = { (m: inout Machine) throws(EvalError) -> Double in
                    let l = try a(&m), r = try b(&m)
                    if r == 0 { throw divisionByZero(false, failSpan, divisorText) }
                    return l / r
                }
            default:
                num = { (m: inout Machine) throws(EvalError) -> Double in
                    let l = try a(&m), r = try b(&m)
                    if r == 0 { throw divisionByZero(true, failSpan, divisorText) }
                    return languageRemainder(l, r)
                }
            }
            return fold(numeric(num, deps, span))
        }
        return fold(numeric({ (m: inout Machine) throws(EvalError) -> Double in
            var acc = try first(&m)
            for k in 0..<steps.count {
                let (op, b, failSpan) = steps[k]
                let r = try b(&m)
                switch op {
                case .add: acc += r
                case .subtract: acc -= r
                case .multiply: acc *= r
                case .divide:
                    if r == 0 { throw divisionByZero(false, failSpan, divisors[k]) }
                    acc /= r
                default:
                    if r == 0 { throw divisionByZero(true, failSpan, divisors[k]) }
                    acc = languageRemainder(acc, r)
                }
            }
            return acc
        }, deps, span))
    }

    // MARK: Calls

    func compileCall(_ callee: Identifier, _ argExprs: [Expr], _ span: Span) -> Node {
        let args = argExprs.map { compile($0) }
        var deps = Deps()
        for a in args { deps.add(a.deps) }
        if callee.binding != Binding.free {
            guard let f = functions[Int(callee.binding)], f.decl.parameters?.count == args.count else { return reportedAbove(span) }
            return userCall(f, args, deps, span)
        }
        let name = callee.text
        guard let arity = Builtins.arity(of: name), arity.accepts(args.count) else { return reportedAbove(span) }
        if let query = ExpectQuery(rawValue: name) { return queryCall(query, callee, args, deps, span) }
        guard let function = Builtin(rawValue: name) else { return reportedAbove(span) }
        let what = "'\(name)'"
        switch function {
        case .min, .max:
            let isMin = function == .min
            if args.count == 2, let a = args[0].num, let b = args[1].num {
                return fold(numeric(isMin
                    ? { (m: inout Machine) throws(EvalError) -> Double in Swift.min(try a(&m), try b(&m)) }
                    : { (m: inout Machine) throws(EvalError) -> Double in Swift.max(try a(&m), try b(&m)) }, deps, span))
            }
            let codes = args.map(\.code), spans = args.map(\.span)
            return fold(numeric({ (m: inout Machine) throws(EvalError) -> Double in
                var values: [Value] = []
                for c in codes { values.append(try c(&m)) }
                var spread = spans
                if values.count == 1, case .list(let xs) = values[0] {
                    guard !xs.isEmpty else { throw EvalError(.badFunctionArgument, "\(what) of an empty list", at: spans[0]) }
                    values = xs
                    spread = Array(repeating: spans[0], count: xs.count)
                }
                var acc = isMin ? Double.infinity : -Double.infinity
                for (v, s) in zip(values, spread) {
                    guard case .number(let d) = v else {
                        throw EvalError(.typeMismatch, "\(what) takes numbers (or one list of numbers), not \(v.typeName)", at: s)
                    }
                    acc = isMin ? Swift.min(acc, d) : Swift.max(acc, d)
                }
                return acc
            }, deps, span))
        case .clamp:
            let x = asNumber(args[0], what), lo = asNumber(args[1], what), hi = asNumber(args[2], what)
            return fold(numeric({ (m: inout Machine) throws(EvalError) -> Double in
                let v = try x(&m), l = try lo(&m), h = try hi(&m)
                if l > h {
                    throw EvalError(.badFunctionArgument, "'clamp' needs its lower bound \(NumberFormat.format(l)) at most its upper bound \(NumberFormat.format(h))", at: span)
                }
                return Swift.min(Swift.max(v, l), h)
            }, deps, span))
        case .abs, .floor, .ceil, .round, .sqrt:
            let x = asNumber(args[0], what)
            let argSpan = args[0].span
            let num: NumCode
            switch function {
            case .abs: num = { (m: inout Machine) throws(EvalError) -> Double in Swift.abs(try x(&m)) }
            case .floor: num = { (m: inout Machine) throws(EvalError) -> Double in (try x(&m)).rounded(.down) }
            case .ceil: num = { (m: inout Machine) throws(EvalError) -> Double in (try x(&m)).rounded(.up) }
            case .round: num = { (m: inout Machine) throws(EvalError) -> Double in (try x(&m)).rounded(.toNearestOrAwayFromZero) }
            default:
                num = { (m: inout Machine) throws(EvalError) -> Double in
                    let v = try x(&m)
                    if v < 0 { throw EvalError(.badFunctionArgument, "square root of a negative number (\(NumberFormat.format(v)))", at: argSpan) }
                    return v.squareRoot()
                }
            }
            return fold(numeric(num, deps, span))
        case .len:
            let c = args[0].code, argSpan = args[0].span
            return fold(numeric({ (m: inout Machine) throws(EvalError) -> Double in
                let v = try c(&m)
                switch v {
                case .list(let xs): return Double(xs.count)
                // A string's length is its Unicode scalars, as columns count them.
                case .string(let text): return Double(text.unicodeScalars.count)
                default: throw EvalError(.typeMismatch, "'len' takes a list or a string, not \(v.typeName)", at: argSpan)
                }
            }, deps, span))
        case .random:
            return randomCall(args, deps, span)
        }
    }

    /// A function of Expectations: asks the machine's host, which only `expect` has.
    func queryCall(_ query: ExpectQuery, _ callee: Identifier, _ args: [Node], _ depsIn: Deps, _ span: Span) -> Node {
        var deps = depsIn
        deps.expectOnly = deps.expectOnly ?? span
        let codes = args.map(\.code), spans = args.map(\.span)
        return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            guard let host = m.host else {
                throw EvalError(.expectOnlyFunction, "'\(query.name)' can be used only in 'expect'", at: callee.span,
                                help: "it asks about the finished layout, which settings cannot depend on")
            }
            var values: [Value] = []
            for c in codes { values.append(try c(&m)) }
            return try host.call(query, values, span: span, argSpans: spans)
        }, num: nil, type: query == .measured ? .boolean : query.givesNumber ? .number : .list, deps: deps, constant: nil, span: span)
    }

    /// `random(lo, hi)`: the mixer of docs/language.md ("Expressions") of (seed, s, i, k).
    func randomCall(_ args: [Node], _ depsIn: Deps, _ span: Span) -> Node {
        var deps = depsIn
        deps.random = deps.random ?? span
        let lo = asNumber(args[0], "'random'"), hi = asNumber(args[1], "'random'")
        let loSpan = args[0].span, hiSpan = args[1].span
        // The common `random(0, 150)`: bounds checked once, here.
        if case .number(let l)? = args[0].constant, case .number(let h)? = args[1].constant,
           isWhole(l), isWhole(h), h > l, h - l < 0x1p63, abs(l) < 0x1p53 {
            let range = Modulus(UInt64(h - l))
            return numeric({ (m: inout Machine) throws(EvalError) -> Double in
                guard m.inItem else { throw randomOutside(span) }
                return l + range.double(m.nextRandom())
            }, deps, span)
        }
        return numeric({ (m: inout Machine) throws(EvalError) -> Double in
            guard m.inItem else { throw randomOutside(span) }
            let l = try lo(&m), h = try hi(&m)
            guard isWhole(l), abs(l) < 0x1p53 else {
                throw EvalError(.badFunctionArgument, "'random' takes whole numbers, not \(NumberFormat.format(l))", at: loSpan)
            }
            guard isWhole(h), abs(h) < 0x1p53 else {
                throw EvalError(.badFunctionArgument, "'random' takes whole numbers, not \(NumberFormat.format(h))", at: hiSpan)
            }
            guard h > l else {
                throw EvalError(.badFunctionArgument, "'random(lo, hi)' needs hi > lo, not \(NumberFormat.format(l)) and \(NumberFormat.format(h))", at: span,
                                help: "the result is a whole number from lo up to, not including, hi")
            }
            return l + Double(m.nextRandom() % UInt64(h - l))
        }, deps, span)
    }

    func userCall(_ f: FunctionInfo, _ args: [Node], _ depsIn: Deps, _ span: Span) -> Node {
        var deps = depsIn
        let params = f.decl.parameters ?? []
        if f.body == nil && !f.compiling {
            f.compiling = true
            let body = compile(f.decl.value)
            f.body = body
            f.box.code = body.code
            functionBodies.boxes.append(f.box)
            f.compiling = false
        }
        if var bodyDeps = f.body?.deps {
            // The call supplies the parameters.
            bodyDeps.parameters = false
            deps.add(bodyDeps)
        } else {
            deps.incomplete = true
        }
        let box = f.box, codes = args.map(\.code), arity = params.count
        let type = f.body?.type ?? .unknown
        let callLimits = self.callLimits
        return Node(code: { (m: inout Machine) throws(EvalError) -> Value in
            guard m.depth < maxCallDepth else {
                throw EvalError(.callLimit, "more than \(maxCallDepth) nested calls of user functions", at: span,
                                help: "a function that calls itself needs a condition that stops it")
            }
            m.calls &+= 1
            if m.calls - m.callsBefore > callLimits.perValue || m.calls > callLimits.total {
                throw EvalError(.callLimit, m.calls > callLimits.total ? "more than \(grouped(callLimits.total)) calls of user functions in all"
                                                           : "more than \(grouped(callLimits.perValue)) calls of user functions", at: span,
                                help: "a function that calls itself more than once per call takes exponentially long; compute it another way")
            }
            let base = m.params.count
            for c in codes { m.params.append(try c(&m)) }
            let saved = m.frameBase
            m.frameBase = base
            m.depth += 1
            let v = try box.code!(&m)
            m.depth -= 1
            m.frameBase = saved
            m.params.removeSubrange(base..<(base + arity))
            return v
        }, num: nil, type: type, deps: deps, constant: nil, span: span)
    }
}

func indexError(_ k: Double, _ count: Int, _ span: Span) -> EvalError {
    if !isWhole(k) {
        return EvalError(.badIndex, "an index must be a whole number, not \(NumberFormat.format(k))", at: span)
    }
    if count == 0 { return EvalError(.badIndex, "index \(NumberFormat.format(k)) is out of range", detail: "the list is empty", at: span) }
    return EvalError(.badIndex, "index \(NumberFormat.format(k)) is out of range",
                     detail: "the list has \(count) element\(count == 1 ? "" : "s"), 0 to \(count - 1)", at: span)
}

func divisionByZero(_ remainder: Bool, _ span: Span, _ divisor: Span) -> EvalError {
    EvalError(.divisionByZero, remainder ? "remainder by zero" : "division by zero", at: span)
}

func randomOutside(_ span: Span) -> EvalError {
    EvalError(.randomOutsideItemRule, "'random' outside an item rule", at: span,
              help: "'random' can be used only in item rules ('height', 'width', 'size', 'span')")
}

func sameTypeHelp(_ a: Value, _ b: Value) -> String? {
    if case .boolean = b, case .number = a { return "a boolean is not a number: compare it with 'true' or 'false'" }
    if case .boolean = a, case .number = b { return "a boolean is not a number: compare it with 'true' or 'false'" }
    return nil
}
