/// A straight-line program for the usual item rules: numbers, engine variables, `random(lo, hi)`,
/// unary minus and `+ - * / %`, as in `height 50 + random(0, 150)` or `size w x w * 1.5`. It runs
/// per item without the closures of the compiled rule (each of which costs a call and its
/// reabstraction thunks), computing the same doubles in the same order: operands left to right,
/// `random` draws in the same order, so the values are identical.
///
/// It never reports an error: wherever the compiled rule would throw (a variable with no value
/// here, division by zero, `random` outside an item or with bad bounds) it gives up, and the
/// caller runs the compiled rule from the same state (the `random` counter put back), which
/// throws the error as usual. Anything else (`let` names, functions, lists, conditionals) is not
/// flattened at all.
struct FlatRule {
    enum Op: UInt8 {
        case constant, variable, negate, add, subtract, multiply, divide, remainder
        /// `random(lo, hi)` with bounds from the stack.
        case random
        /// `random(lo, hi)` with constant bounds checked when compiling: `a` is lo, `range` hi - lo.
        case randomConstant
        /// `% d` with `d` a whole constant, not 0, below 9e15 in size (`i % 10`): `a` is d, `range`
        /// its size, and a whole dividend takes its remainder by multiplication (`Modulus`).
        case remainderConstant
    }

    struct Instruction {
        var op: Op
        /// The variable's slot (`variable`).
        var slot: Int = 0
        /// The constant (`constant`), or lo (`randomConstant`).
        var a: Double = 0
        /// hi - lo (`randomConstant`).
        var range = Modulus(1)
    }

    var code: [Instruction] = []
    /// The deepest the operand stack gets.
    var depth = 0
    /// The engine variables it reads (`EngineVar.bit`s).
    var reads: UInt64 = 0
    /// True when it calls `random`.
    var drawsRandom = false
    /// True when its value is always a finite number >= 0, a valid size (an engine then skips
    /// the check): `c + random(lo, hi)` with c + lo >= 0, since c + (lo + r) >= c + lo for r >= 0
    /// in doubles too (rounding is monotonic).
    var alwaysValidSize = false
    /// The rule when it is `c + random(lo, hi)` with constant bounds (the seed's `50 +
    /// arc4random_uniform(150)`), run without the loop.
    var simple: Simple? = nil

    /// `c + random(lo, hi)` (the same operations in the same order as `code`), or a constant `c`
    /// (for an engine that treats a constant rule, which is never flattened, the same way).
    struct Simple {
        let c: Double, lo: Double, range: Modulus
        /// False for a constant.
        let draws: Bool

        static func constant(_ c: Double) -> Simple { Simple(c: c, lo: 0, range: Modulus(1), draws: false) }

        /// The value for the item whose `random` hash is `hash`, drawing number `k` (and moving
        /// `k` on) when it draws.
        @inline(__always) func value(hash: UInt64, k: inout UInt64) -> Double {
            guard draws else { return c }
            defer { k &+= 1 }
            return drawn(hash: hash, k: k)
        }

        /// The value of a rule that draws, drawing number `k`; `short` as `Modulus.remainder`.
        @inline(__always) func drawn(hash: UInt64, k: UInt64, short: Bool? = nil) -> Double {
            c + (lo + range.double(Machine.draw(hash, k), short: short))
        }
    }

    /// A number written as one, with or without a minus (`6`, `-6`: the parser reads `-6` as
    /// the negation of 6), or nil.
    static func constantNumber(_ e: Expr) -> Double? {
        switch e {
        case .number(let d, _): return d
        case .unary(.negate, .number(let d, _), _): return -d
        default: return nil
        }
    }

    /// The program of `e`, or nil when it uses something beyond the forms above.
    static func compile(_ e: Expr) -> FlatRule? {
        var rule = FlatRule()
        var sp = 0
        func push(_ i: Instruction) {
            rule.code.append(i)
            sp += 1
            rule.depth = Swift.max(rule.depth, sp)
        }
        func emit(_ e: Expr) -> Bool {
            switch e {
            case .number(let d, _):
                push(Instruction(op: .constant, a: d))
                return true
            case .name(let name):
                guard name.binding == Binding.free, let v = EngineVar(name: name.text) else { return false }
                push(Instruction(op: .variable, slot: v.rawValue))
                rule.reads |= v.bit
                return true
            case .unary(.negate, let x, _):
                guard emit(x) else { return false }
                rule.code.append(Instruction(op: .negate))
                return true
            case .binary(let chain):
                guard emit(chain.head) else { return false }
                for operand in chain.operands {
                    let op: Op
                    switch operand.op {
                    case .add: op = .add
                    case .subtract: op = .subtract
                    case .multiply: op = .multiply
                    case .divide: op = .divide
                    case .remainder: op = .remainder
                    default: return false
                    }
                    if op == .remainder, let d = constantNumber(operand.rhs), isWhole(d), d != 0, Swift.abs(d) < 9.0e15 {
                        rule.code.append(Instruction(op: .remainderConstant, a: d, range: Modulus(UInt64(Swift.abs(d)))))
                        continue
                    }
                    guard emit(operand.rhs) else { return false }
                    rule.code.append(Instruction(op: op))
                    sp -= 1
                }
                return true
            case .call(let call):
                let callee = call.callee, args = call.arguments
                guard callee.text == "random", args.count == 2, callee.binding == Binding.free else { return false }
                rule.drawsRandom = true
                // The compiled rule's shortcut for constant bounds, with the same checks.
                if case .number(let l, _) = args[0], case .number(let h, _) = args[1],
                   isWhole(l), isWhole(h), h > l, h - l < 0x1p63, Swift.abs(l) < 0x1p53 {
                    push(Instruction(op: .randomConstant, a: l, range: Modulus(UInt64(h - l))))
                    return true
                }
                guard emit(args[0]), emit(args[1]) else { return false }
                rule.code.append(Instruction(op: .random))
                sp -= 1
                return true
            default:
                return false
            }
        }
        guard emit(e), sp == 1 else { return nil }
        let code = rule.code
        if code.count == 3, code[0].op == .constant, code[1].op == .randomConstant, code[2].op == .add {
            rule.simple = Simple(c: code[0].a, lo: code[1].a, range: code[1].range, draws: true)
            rule.alwaysValidSize = code[0].a.isFinite && code[0].a + code[1].a >= 0
        }
        return rule
    }

    /// Runs the program: true with the value in `result`, or false where the compiled rule would
    /// throw (the machine's `random` counter may then have moved: the caller puts it back).
    @inline(__always)
    func run(_ m: inout Machine, _ result: inout Double) -> Bool {
        // `random` outside an item is the compiled rule's error.
        guard m.inItem || !drawsRandom else { return false }
        var k = m.randomCount
        defer { m.randomCount = k }
        return run(&m, hash: m.itemHash, k: &k, &result)
    }

    /// The same with the item's `random` state in the caller's locals: `hash` for the machine's
    /// `itemHash` and `k` for its `randomCount` (an engine's loop keeps them in registers). Only
    /// for an engine laying out an item, where `random` has a value.
    @inline(__always)
    func run(_ m: inout Machine, hash: UInt64, k: inout UInt64, _ result: inout Double) -> Bool {
        if let simple {
            result = simple.value(hash: hash, k: &k)
            return true
        }
        return interpret(&m, hash: hash, k: &k, &result)
    }

    /// The general case: the instructions, on a stack of `depth` doubles.
    @inline(never)
    func interpret(_ m: inout Machine, hash: UInt64, k: inout UInt64, _ result: inout Double) -> Bool {
        // The usual rule needs a few slots: a local array of eight, with the loop inlined (the
        // temporary allocation's closure was a call with its own frame per item).
        if depth <= 8 {
            var slots: (Double, Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0)
            return withUnsafeMutablePointer(to: &slots) { p in
                p.withMemoryRebound(to: Double.self, capacity: 8) { execute(on: $0, &m, hash: hash, k: &k, &result) }
            }
        }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: depth) { stack in
            execute(on: stack.baseAddress!, &m, hash: hash, k: &k, &result)
        }
    }

    /// The instructions on the stack `st` (at least `depth` doubles).
    @inline(__always)
    private func execute(on st: UnsafeMutablePointer<Double>, _ m: inout Machine, hash: UInt64, k: inout UInt64,
                         _ result: inout Double) -> Bool {
        // The compiler checked the stack's depth: no overflow tests on sp.
        var sp = 0
        for ins in code {
            switch ins.op {
            case .constant:
                st[sp] = ins.a
                sp &+= 1
            case .variable:
                guard m.available & (1 << UInt64(ins.slot)) != 0 else { return false }
                st[sp] = m.vars[ins.slot]
                sp &+= 1
            case .negate:
                st[sp &- 1] = -st[sp &- 1]
            case .add:
                sp &-= 1
                st[sp &- 1] = st[sp &- 1] + st[sp]
            case .subtract:
                sp &-= 1
                st[sp &- 1] = st[sp &- 1] - st[sp]
            case .multiply:
                sp &-= 1
                st[sp &- 1] = st[sp &- 1] * st[sp]
            case .divide:
                sp &-= 1
                if st[sp] == 0 { return false }
                st[sp &- 1] = st[sp &- 1] / st[sp]
            case .remainder:
                sp &-= 1
                if st[sp] == 0 { return false }
                st[sp &- 1] = languageRemainder(st[sp &- 1], st[sp])
            case .remainderConstant:
                // `languageRemainder(x, d)`: for a whole x below 9e15 in size, the integer
                // remainder of the sizes with x's sign (a zero keeps it).
                let x = st[sp &- 1]
                if Swift.abs(x) < 9.0e15, Double(Int64(x)) == x {
                    let r = ins.range.double(Int64(x).magnitude)
                    st[sp &- 1] = x.sign == .minus ? -r : r
                } else {
                    st[sp &- 1] = languageRemainder(x, ins.a)
                }
            case .randomConstant:
                st[sp] = ins.a + ins.range.double(Machine.draw(hash, k))
                k &+= 1
                sp &+= 1
            case .random:
                sp &-= 1
                let l = st[sp &- 1], h = st[sp]
                guard isWhole(l), Swift.abs(l) < 0x1p53, isWhole(h), Swift.abs(h) < 0x1p53, h > l else { return false }
                st[sp &- 1] = l + Double(Machine.draw(hash, k) % UInt64(h - l))
                k &+= 1
            }
        }
        result = st[0]
        return true
    }
}

/// A condition of two flat rules (an attached view's usual `when`, `i % 10 == 0`): `a op b` with
/// `op` a comparison and both sides flat programs. It runs per item without the compiled rule's
/// closures, computing the same doubles in the same order (the left side, then the right) and
/// comparing them as the compiled comparison does (`Compiler.comparison`: equality within
/// `equalityTolerance`, an ordering that agrees with it).
///
/// Like a flat rule it never reports an error: where either side gives up, `run` gives nil and
/// the caller runs the compiled rule from the same state (the `random` counter put back).
struct FlatCondition {
    /// The two sides; a constant side is a flat rule whose `simple` is that constant, run
    /// without the loop.
    let lhs: FlatRule, rhs: FlatRule
    let op: BinaryOp
    /// The condition as a test of the item index alone (`i % 10 == 0`, `i < 5`), nil for any
    /// other: the attach loop runs it before setting up the item.
    var byIndex: IndexCondition? = nil

    /// The condition of `e`, or nil when it is not a comparison of two flat programs.
    static func compile(_ e: Expr) -> FlatCondition? {
        guard case .binary(let chain) = e, chain.operands.count == 1 else { return nil }
        let operand = chain.operands[0]
        switch operand.op {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: break
        default: return nil
        }
        func side(_ x: Expr) -> FlatRule? {
            guard var rule = FlatRule.compile(x) else { return nil }
            if case .number(let d, _) = x { rule.simple = .constant(d) }
            return rule
        }
        guard let l = side(chain.head), let r = side(operand.rhs) else { return nil }
        var c = FlatCondition(lhs: l, rhs: r, op: operand.op)
        c.byIndex = IndexCondition(l, r, op: operand.op)
        return c
    }

    /// `l op r` as the compiled comparison computes it (`Compiler.comparison`).
    @inline(__always)
    static func compare(_ l: Double, _ r: Double, _ op: BinaryOp) -> Bool {
        let tol = equalityTolerance
        switch op {
        case .equal: return abs(l - r) <= tol
        case .notEqual: return !(abs(l - r) <= tol)
        case .less: return l < r && abs(l - r) > tol
        case .lessEqual: return l < r || abs(l - r) <= tol
        case .greater: return l > r && abs(l - r) > tol
        default: return l > r || abs(l - r) <= tol
        }
    }

    /// The condition's value, or nil where the compiled rule would throw (the machine's `random`
    /// counter may then have moved: the caller puts it back).
    @inline(__always)
    func run(_ m: inout Machine) -> Bool? {
        var l = 0.0, r = 0.0
        guard lhs.run(&m, &l), rhs.run(&m, &r) else { return nil }
        return FlatCondition.compare(l, r, op)
    }
}

/// A flat condition that reads nothing but the item index, one side `i` or `i % K` (K a whole
/// constant) and the other a number: `i % 10 == 0`, `i < 5`, `3 == i % 4`. It is decided from
/// the index as an integer, without the machine or the interpreter, computing the same doubles
/// as the flat programs: for 0 <= i < 9e15, `Double(i) % K` is the integer remainder of i by |K|
/// (a zero with i's sign, +0), what `remainderConstant` gives.
struct IndexCondition {
    /// |K| for `i % K`, nil for `i` itself.
    let modulus: Modulus?
    /// The number on the other side.
    let constant: Double
    let op: BinaryOp
    /// True when the index is on the left.
    let indexFirst: Bool
    /// For |K| <= 64, bit r set when the condition holds for the remainder r: the next item that
    /// holds is then found by a bit scan, not by testing each item.
    let residues: UInt64?

    /// `i < 0`: stands for no index condition (never run).
    static let never = IndexCondition(modulus: nil, constant: 0, op: .less, indexFirst: true)

    private init(modulus: Modulus?, constant: Double, op: BinaryOp, indexFirst: Bool) {
        (self.modulus, self.constant, self.op, self.indexFirst) = (modulus, constant, op, indexFirst)
        guard let modulus, modulus.divisor <= 64 else {
            residues = nil
            return
        }
        var bits: UInt64 = 0
        for r in 0..<modulus.divisor {
            // The remainder r as `remainderConstant` gives it for an i with i % |K| == r.
            let x = Double(Int64(r))
            if indexFirst ? FlatCondition.compare(x, constant, op) : FlatCondition.compare(constant, x, op) { bits |= 1 << r }
        }
        residues = bits
    }

    init?(_ l: FlatRule, _ r: FlatRule, op: BinaryOp) {
        // The index side's program: `i`, or `i` then `% K`.
        func indexSide(_ rule: FlatRule) -> Modulus?? {
            let code = rule.code
            guard !code.isEmpty, code[0].op == .variable, code[0].slot == EngineVar.i.rawValue else { return nil }
            if code.count == 1 { return .some(nil) }
            if code.count == 2, code[1].op == .remainderConstant { return .some(code[1].range) }
            return nil
        }
        func numberSide(_ rule: FlatRule) -> Double? {
            guard let s = rule.simple, !s.draws else { return nil }
            return s.c
        }
        if let m = indexSide(l), let c = numberSide(r) {
            self.init(modulus: m, constant: c, op: op, indexFirst: true)
        } else if let m = indexSide(r), let c = numberSide(l) {
            self.init(modulus: m, constant: c, op: op, indexFirst: false)
        } else {
            return nil
        }
    }

    /// Whether the condition holds for item `i`, for 0 <= i < 2^53.
    @inline(__always)
    func holds(_ i: Int) -> Bool {
        let x = modulus.map { $0.double(UInt64(i)) } ?? Double(i)
        return indexFirst ? FlatCondition.compare(x, constant, op) : FlatCondition.compare(constant, x, op)
    }

    /// How many of the items `0..<end` it holds for, when the mask of remainders says (nil
    /// otherwise).
    func count(below end: Int) -> Int? {
        guard let residues, let modulus else { return nil }
        let k = Int(modulus.divisor), rest = end % k
        return end / k * residues.nonzeroBitCount + (residues & ((1 << UInt64(rest)) &- 1)).nonzeroBitCount
    }

    /// The first item from `i` on for which the condition holds, or `end` when none before it
    /// does; 0 <= i < end < 2^53.
    func next(from i: Int, end: Int) -> Int {
        if let residues, let modulus {
            guard residues != 0 else { return end }
            let r = modulus.remainder(UInt64(i))
            let ahead = residues >> r
            let j = ahead != 0 ? i + ahead.trailingZeroBitCount : i + Int(modulus.divisor - r) + residues.trailingZeroBitCount
            return Swift.min(j, end)
        }
        var j = i
        while j < end, !holds(j) { j += 1 }
        return j
    }
}

extension FlatCondition {
    /// `1 == 1`: stands for no condition (never run).
    static var always: FlatCondition {
        var one = FlatRule()
        one.code = [FlatRule.Instruction(op: .constant, a: 1)]
        one.depth = 1
        one.simple = .constant(1)
        return FlatCondition(lhs: one, rhs: one, op: .equal)
    }
}
