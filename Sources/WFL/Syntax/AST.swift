/// The syntax tree of a `.wfl` file: value types, a span on every node.

/// A word of the source and where it stands.
package struct Name: Equatable, Hashable, Sendable {
    package var text: String
    package var span: Span
    package init(_ text: String, _ span: Span) {
        self.text = text
        self.span = span
    }
}

/// A name in an expression, or the name a `let` or a parameter binds: a word with the binding it
/// means (the other words of a file, settings' names and keyword values, mean no binding and are
/// plain `Name`s, a few bytes smaller).
package struct Identifier: Equatable, Hashable, Sendable {
    package var text: String
    package var span: Span
    /// Its index in `SyntaxTree.bindings`, or `Binding.free` for a word the file does not bind:
    /// an engine variable or a built-in function.
    package var binding: Int32
    package init(_ text: String, _ span: Span, binding: Int32 = Binding.free) {
        self.text = text
        self.span = span
        self.binding = binding
    }
}

/// What one `let` or parameter binds. The parser resolves every name once, as it reads it, and
/// writes the index of its binding into the `Identifier`, so later stages look bindings up by
/// index.
package struct Binding: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        /// `let name = ...`.
        case value
        /// `let name(a, b) = ...`.
        case function(arity: Int)
        /// Parameter number `index` of a function (0 for the first).
        case parameter(index: Int)
    }

    /// The binding of a name the file does not bind.
    package static let free: Int32 = -1

    package var kind: Kind
    /// The name as declared.
    package var span: Span
}

/// `-` and `!`.
package enum UnaryOp: String, Sendable {
    case negate = "-"
    case not = "!"
}

/// The binary operators, grouped by precedence level (lowest first).
public enum BinaryOp: String, Sendable, CaseIterable {
    case or = "||"
    case and = "&&"
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case add = "+", subtract = "-"
    case multiply = "*", divide = "/", remainder = "%"

    /// 1 for `||` up to 5 for `* / %`.
    package var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return 3
        case .add, .subtract: return 4
        case .multiply, .divide, .remainder: return 5
        }
    }
}

/// One step of a chain of binary operators of one precedence level: the operator and its right
/// operand.
package struct Operand: Equatable, Sendable {
    package var op: BinaryOp
    package var opSpan: Span
    package var rhs: Expr
    package init(_ op: BinaryOp, _ opSpan: Span, _ rhs: Expr) {
        self.op = op
        self.opSpan = opSpan
        self.rhs = rhs
    }
}

/// A chain of binary operators of one precedence level: its first operand, the operators with
/// their right operands, and its span, in one allocation (the operands live in the object's tail;
/// a chain longer than `ScratchStack.spillCount` keeps the array it was gathered in). Chains are
/// the most common inner node, and a box plus an array each was a sixth of parsing's allocations.
package struct BinaryChain: Equatable, @unchecked Sendable {
    package let storage: BinaryChainStorage

    /// A chain of `operands` (at least one) after `head`.
    package init(_ head: Expr, _ operands: [Operand], _ span: Span) {
        storage = BinaryChainStorage.make(head, span, count: operands.count, spilled: []) { base in
            for (k, o) in operands.enumerated() { (base + k).initialize(to: o) }
        }
    }

    package init(storage: BinaryChainStorage) { self.storage = storage }

    /// A long chain that keeps the array its operands were gathered in (copying it to a tail
    /// would hold it twice for a moment).
    package init(spilledHead head: Expr, _ operands: [Operand]) {
        storage = BinaryChainStorage.make(head, head.span.to(operands[operands.count - 1].rhs.span), count: 0, spilled: operands) { _ in }
    }

    // The header is read through a pointer: `ManagedBuffer.header` is a class's stored property,
    // and each read of it was a dynamic exclusivity check (two runtime calls; the storage is
    // never written once made). The same in `Call` and `TailHeader`'s readers.

    /// The first operand.
    package var head: Expr { storage.withUnsafeMutablePointerToHeader { $0.pointee.head } }
    /// The operators and their right operands, left to right.
    package var operands: BinaryOperands { BinaryOperands(storage: storage) }
    /// Where the whole chain stands.
    package var span: Span { storage.withUnsafeMutablePointerToHeader { $0.pointee.span } }

    package static func == (a: BinaryChain, b: BinaryChain) -> Bool {
        a.storage === b.storage || (a.span == b.span && a.head == b.head && a.operands.elementsEqual(b.operands))
    }
}

/// The head of a `BinaryChain`'s storage.
package struct BinaryChainHeader {
    package var head: Expr
    package var span: Span
    /// How many operands the tail holds (0 when they are in `spilled`).
    package var count: Int
    /// The operands of a long chain, in the array it was gathered in.
    package var spilled: [Operand]
}

/// A chain's head and operands in one object (immutable once made).
package final class BinaryChainStorage: ManagedBuffer<BinaryChainHeader, Operand> {
    /// A storage with room for `count` operands in its tail, written by `fill`.
    @inline(__always)
    package static func make(_ head: Expr, _ span: Span, count: Int, spilled: [Operand],
                             fill: (UnsafeMutablePointer<Operand>) -> Void) -> BinaryChainStorage {
        let buffer = BinaryChainStorage.create(minimumCapacity: count) { _ in
            BinaryChainHeader(head: head, span: span, count: count, spilled: spilled)
        }
        buffer.withUnsafeMutablePointerToElements { fill($0) }
        return unsafeDowncast(buffer, to: BinaryChainStorage.self)
    }

    /// A storage of `count` operands, written by `fill`, after `head`, which moves in: the header's
    /// closure moves it out through a pointer (capturing it took a copy, with its reference
    /// counts, and assigning `header.head` afterwards cost three dynamic exclusivity checks).
    @inline(__always)
    package static func make(movingHead head: consuming Expr, _ span: Span, count: Int,
                             fill: (UnsafeMutablePointer<Operand>) -> Void) -> BinaryChainStorage {
        let buffer = withUnsafeMutablePointer(to: &head) { moved in
            BinaryChainStorage.create(minimumCapacity: count) { _ in
                // Moved out, and a trivial placeholder left for `head`'s end of life.
                defer { moved.initialize(to: .invalid(span)) }
                return BinaryChainHeader(head: moved.move(), span: span, count: count, spilled: [])
            }
        }
        buffer.withUnsafeMutablePointerToElements { fill($0) }
        return unsafeDowncast(buffer, to: BinaryChainStorage.self)
    }

    deinit {
        withUnsafeMutablePointers { h, e in _ = e.deinitialize(count: h.pointee.count) }
    }
}

/// The operands of a `BinaryChain`, as a collection.
package struct BinaryOperands: RandomAccessCollection, @unchecked Sendable {
    let storage: BinaryChainStorage
    package var startIndex: Int { 0 }
    package var endIndex: Int { storage.elementCount }
    package subscript(k: Int) -> Operand { storage.element(k) }
}

/// The header of a node whose elements live in its tail (`count` of them) or, when `count` is 0,
/// in the array they were gathered in.
package protocol TailHeader {
    associatedtype Element
    var count: Int { get }
    var spilled: [Element] { get }
}

extension BinaryChainHeader: TailHeader {}
extension CallHeader: TailHeader {}

extension ManagedBuffer where Header: TailHeader, Header.Element == Element {
    /// How many elements the node holds.
    var elementCount: Int {
        withUnsafeMutablePointerToHeader { h in h.pointee.count > 0 ? h.pointee.count : h.pointee.spilled.count }
    }

    /// Element `k`, from the tail or the spilled array.
    func element(_ k: Int) -> Element {
        withUnsafeMutablePointers { h, e in
            let n = h.pointee.count
            if n > 0 {
                precondition(k >= 0 && k < n, "index out of range")
                return e[k]
            }
            return h.pointee.spilled[k]
        }
    }
}

/// A call `f(a, b)`: the callee (always a name), the arguments and the span in one allocation
/// (the arguments in the object's tail; a call of more than `ScratchStack.spillCount` arguments
/// keeps the array they were gathered in).
package struct Call: Equatable, @unchecked Sendable {
    package let storage: CallStorage

    package init(_ callee: Identifier, _ arguments: [Expr], _ span: Span) {
        storage = CallStorage.make(CallHeader(callee: callee, span: span, count: 0, spilled: arguments), count: 0) { _ in }
    }

    package init(storage: CallStorage) { self.storage = storage }

    /// The function called, with its binding.
    package var callee: Identifier { storage.withUnsafeMutablePointerToHeader { $0.pointee.callee } }
    /// The arguments, in order.
    package var arguments: CallArguments { CallArguments(storage: storage) }
    /// Where the whole call stands.
    package var span: Span { storage.withUnsafeMutablePointerToHeader { $0.pointee.span } }

    package static func == (a: Call, b: Call) -> Bool {
        a.storage === b.storage || (a.span == b.span && a.callee == b.callee && a.arguments.elementsEqual(b.arguments))
    }
}

/// The head of a `Call`'s storage.
package struct CallHeader {
    package var callee: Identifier
    package var span: Span
    /// How many arguments the tail holds (0 when they are in `spilled`).
    package var count: Int
    package var spilled: [Expr]
}

/// A call's callee and arguments in one object (immutable once made).
package final class CallStorage: ManagedBuffer<CallHeader, Expr> {
    @inline(__always)
    package static func make(_ header: CallHeader, count: Int, fill: (UnsafeMutablePointer<Expr>) -> Void) -> CallStorage {
        let buffer = CallStorage.create(minimumCapacity: count) { _ in header }
        buffer.withUnsafeMutablePointerToElements { fill($0) }
        return unsafeDowncast(buffer, to: CallStorage.self)
    }

    deinit {
        withUnsafeMutablePointers { h, e in _ = e.deinitialize(count: h.pointee.count) }
    }
}

/// The arguments of a `Call`, as a collection.
package struct CallArguments: RandomAccessCollection, @unchecked Sendable {
    let storage: CallStorage
    package var startIndex: Int { 0 }
    package var endIndex: Int { storage.elementCount }
    package subscript(k: Int) -> Expr { storage.element(k) }
}

/// An expression.
///
/// Binary operators of one precedence level form one `.binary` node holding the whole chain, left
/// to right, so `1 + 1 + ... + 1` with 100,000 terms is one node with a flat array and no stage
/// recurses once per operator. Everything that nests (parentheses, lists, calls, indexing, unary
/// operators, conditionals) is held to 256 levels by the parser.
package enum Expr: Equatable, Sendable {
    case number(Double, Span)
    case boolean(Bool, Span)
    case string(String, Span)
    /// A variable, a `let` value or an engine variable (`i`, `w`, `cw`, ...).
    case name(Identifier)
    case list([Expr], Span)
    indirect case unary(UnaryOp, Expr, Span)
    /// `first op1 rhs1 op2 rhs2 ...`, all operators of one precedence level, evaluated left to right.
    /// Comparisons do not chain: their `.binary` holds exactly one operand. (Not `indirect`: the
    /// chain's head and operands share one allocation, where a box and an array took two.)
    case binary(BinaryChain)
    /// `condition ? then : else`.
    indirect case conditional(Expr, Expr, Expr, Span)
    /// `f(a, b)`: the callee is always a name. (Its callee, arguments and span in one
    /// allocation, where a box and an array took two.)
    case call(Call)
    /// `list[index]`.
    indirect case index(Expr, Expr, Span)
    /// Stands where an expression had an error that has been reported.
    case invalid(Span)

    /// Where the whole expression stands.
    package var span: Span {
        @inline(__always) get {
        switch self {
        case .name(let n):
            return n.span
        case .binary(let b):
            return b.span
        case .call(let c):
            return c.span
        case .number(_, let s), .boolean(_, let s), .string(_, let s), .list(_, let s),
             .unary(_, _, let s), .conditional(_, _, _, let s),
             .index(_, _, let s), .invalid(let s):
            return s
        }
        }
    }
}

/// One argument of a setting, in the shape the setting takes (`SettingTable`).
package enum Argument: Equatable, Sendable {
    /// A plain value: `columns 3`, `height w * 1.5`, `pinHeaders s == 0`.
    case value(Expr)
    /// `W x H`.
    case size(Expr, Expr, Span)
    /// A keyword value: `style waterfall`, `order leftToRight`.
    case word(Name)
    /// `adaptive(MIN)` for `columns` and `rows`.
    case adaptive(Expr, Span)
    /// One side of the named form of insets: `insets top 10 left 4`.
    case side(Name, Expr)

    package var span: Span {
        switch self {
        case .value(let e): return e.span
        case .size(_, _, let s), .adaptive(_, let s): return s
        case .word(let n): return n.span
        case .side(let n, let e): return n.span.to(e.span)
        }
    }
}

/// `name arguments...`.
package struct Setting: Equatable, Sendable {
    package var name: Name
    package var arguments: SettingArguments
}

/// The arguments of one setting, in order: a run of an `ArgumentStore`, which holds the
/// arguments of many settings in one allocation (an array for each setting was a fifth of
/// parsing's allocations). Immutable; a store never holds an expression that refers to it, so
/// sharing one makes no cycle.
package struct SettingArguments: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral, @unchecked Sendable {
    let store: ArgumentStore?
    let start: Int32
    let length: Int32

    /// `count` arguments of `store` from `start`.
    init(store: ArgumentStore?, start: Int, count: Int) {
        self.store = store
        self.start = Int32(start)
        self.length = Int32(count)
    }

    /// These arguments, in a store of their own.
    package init(_ arguments: [Argument]) {
        guard !arguments.isEmpty else { self.init(store: nil, start: 0, count: 0); return }
        let store = ArgumentStore.make(capacity: arguments.count)
        for a in arguments { store.append(a) }
        self.init(store: store, start: 0, count: arguments.count)
    }

    package init(arrayLiteral elements: Argument...) { self.init(elements) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { Int(length) }
    package subscript(k: Int) -> Argument {
        precondition(k >= 0 && k < Int(length), "index out of range")
        return store.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[Int(start) + k] }
    }

    package static func == (a: SettingArguments, b: SettingArguments) -> Bool {
        a.store === b.store && a.start == b.start && a.length == b.length || a.elementsEqual(b)
    }
}

/// The head of an `ArgumentStore`: how many arguments it holds and how many it has room for.
package struct ArgumentStoreHeader {
    var count: Int
    var capacity: Int
}

/// Settings' arguments, appended one after another by one parser; a run, once handed out as a
/// `SettingArguments`, is never written again.
package final class ArgumentStore: ManagedBuffer<ArgumentStoreHeader, Argument> {
    /// An empty store with room for `capacity` arguments.
    static func make(capacity: Int) -> ArgumentStore {
        unsafeDowncast(ArgumentStore.create(minimumCapacity: capacity) { _ in ArgumentStoreHeader(count: 0, capacity: capacity) },
                       to: ArgumentStore.self)
    }

    // The header through a pointer, as `BinaryChain` reads its own (no dynamic exclusivity checks).
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
    var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity - $0.pointee.count } }
    /// How many arguments it has room for in all (not `capacity`: ManagedBuffer's asks the allocator).
    var size: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    /// Adds `a` after the last argument (there must be room).
    func append(_ a: consuming Argument) {
        // The pointers outside the closure (this object keeps them valid): `a` moves in.
        let (h, e) = withUnsafeMutablePointers { ($0, $1) }
        precondition(h.pointee.count < h.pointee.capacity, "no room in the argument store")
        (e + h.pointee.count).initialize(to: a)
        h.pointee.count += 1
    }

    /// Drops the arguments from `n` on (a setting that turned out wrong; none handed out).
    func truncate(to n: Int) {
        withUnsafeMutablePointers { h, e in
            _ = (e + n).deinitialize(count: h.pointee.count - n)
            h.pointee.count = n
        }
    }

    deinit {
        withUnsafeMutablePointers { h, e in _ = e.deinitialize(count: h.pointee.count) }
    }
}

/// `insert I...` or `delete I...` in an `update` block: indices after the update (insert) or
/// before it (delete).
package struct Change: Equatable, Sendable {
    package enum Kind: String, Equatable, Sendable { case insert, delete }
    package var kind: Kind
    /// The word `insert` or `delete`.
    package var word: Span
    package var arguments: [Expr]
}

/// `to X, Y [by D]` in a `scroll` block (docs/language.md, "Scroll paths"): a stop at content
/// offset (X, Y), or stops `D` apart toward it.
package struct ScrollStop: Equatable, Sendable {
    /// The word `to`.
    package var word: Span
    package var x: Expr
    package var y: Expr
    /// The word `by` and its step, when written.
    package var byWord: Span?
    package var step: Expr?
}

/// `let name = expr` or `let name(a, b) = expr`.
package struct LetDecl: Equatable, Sendable {
    /// The name bound, with the index of its binding.
    package var name: Identifier
    /// nil for a value; the parameter names for a function (possibly none: `let f() = ...`).
    package var parameters: [Identifier]?
    package var value: Expr
}

/// `expect expr [, "label"]`.
package struct Expectation: Equatable, Sendable {
    package var condition: Expr
    /// The condition as written, outer parentheses included, up to the label's comma (what
    /// `wfl test` prints of it).
    package var written: Span
    package var label: Name?
}

/// A block's name: an identifier or a string (`quoted`).
package struct BlockName: Equatable, Sendable {
    package var text: String
    package var span: Span
    package var quoted: Bool
}

/// A `layout`, `section`, `attach` or `update` block.
package struct Block: Equatable, Sendable {
    package var keyword: Span
    package var name: BlockName?
    package var statements: [Statement]
    package var openBrace: Span
    /// nil when the block was never closed (an error has been reported).
    package var closeBrace: Span?
}

/// `appear { ... }` (`disappear` false) or `disappear { ... }`.
package struct AppearBlock: Equatable, Sendable {
    package var disappear: Bool
    package var block: Block
    /// The word that opens it.
    package var keywordText: String { disappear ? "disappear" : "appear" }
}

/// `group horizontal|vertical|custom W x H [count N] { ... }` (docs/language.md, "Groups"): its
/// block holds `group`s, `item`s and the group's own settings (`itemSpacing`, `insets`, `frame`).
package struct GroupBlock: Equatable, Sendable {
    package enum Kind: String, Equatable, Sendable, CaseIterable { case horizontal, vertical, custom }
    package var kind: Kind
    /// The word of its kind.
    package var kindSpan: Span
    package var width: Expr
    package var height: Expr
    /// `count N`, with the word's span.
    package var count: Expr?
    package var countWord: Span?
    /// Its keyword is `group`.
    package var block: Block
}

/// `item W x H [{ insets ... }]`: a leaf of a group.
package struct ItemBlock: Equatable, Sendable {
    package var keyword: Span
    package var width: Expr
    package var height: Expr
    /// nil when written without a block.
    package var block: Block?
}

/// A statement and where it stands.
package struct Statement: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        case `let`(LetDecl)
        case layout(Block)
        case section(Block)
        /// `attach NAME { ... }`: an attached view on the cells (its name is never nil).
        case attach(Block)
        /// `appear { ... }` or `disappear { ... }`: where an inserted element starts or a deleted
        /// one ends (its block has no name; it holds only `alpha`, `zoom` and `offset`).
        case appear(AppearBlock)
        /// `update { ... }`: a batch update of its section (its name is nil); it holds `change`s
        /// and `expect`s.
        case update(Block)
        /// `insert ...` or `delete ...`, inside an `update` block.
        case change(Change)
        /// `group ... { ... }` and `item ...` (docs/language.md, "Groups").
        indirect case group(GroupBlock)
        indirect case item(ItemBlock)
        /// `scroll { ... }`: a scroll path from the first display (its name is nil); it holds
        /// `to`s and `expect`s (docs/language.md, "Scroll paths").
        case scroll(Block)
        /// `to X, Y [by D]`, inside a `scroll` block.
        indirect case to(ScrollStop)
        case expect(Expectation)
        case setting(Setting)
    }

    package var kind: Kind
    package var span: Span

    /// True for a `section` or an `attach` block: the statements whose names are checked for
    /// names alike as a block is read (a test of the case alone, without copying the payload).
    var isNamedBlock: Bool {
        switch kind {
        case .section, .attach: return true
        default: return false
        }
    }
}

/// A parsed file.
package struct SyntaxTree: Equatable, Sendable {
    package var statements: [Statement]
    package var span: Span
    /// Every `let` and parameter of the file, in the order read: what `Name.binding` indexes.
    package var bindings: [Binding]
}
