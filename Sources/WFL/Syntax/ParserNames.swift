/// Names: the scopes of `let`, binding, and resolving each name where it is used. This is the
/// one place names are resolved: each use gets the index of its binding in `bindings` (or
/// `Binding.free`), which the later stages follow.

extension Parser {
    /// A name visible in an open block; `previous` is the entry of the same name it hides, or -1.
    struct BindingEntry {
        var depth: Int
        /// The name's id.
        var id: Int32
        /// The index in `bindings` of what the name means here.
        var binding: Int32
        var previous: Int32
    }

    mutating func pushScope() {
        scopes.append(Scope(stackMark: bindingStack.count, setterMark: setterStack.count))
    }

    mutating func popScope() {
        let scope = scopes.removeLast()
        // Most scopes (a `let`'s value, a section without `let`) bind nothing: `removeLast(0)`
        // was still a call of some fifty instructions.
        if bindingStack.count > scope.stackMark {
            var k = bindingStack.count
            while k > scope.stackMark {
                k -= 1
                innermost[Int(bindingStack[k].id)] = bindingStack[k].previous
            }
            bindingStack.removeLast(bindingStack.count - scope.stackMark)
        }
        if setterStack.count > scope.setterMark { setterStack.removeLast(setterStack.count - scope.setterMark) }
    }

    /// The id of an identifier token.
    @inline(__always) mutating func nameID(_ t: Token) -> Int32 {
        let id = source.bytes.withUnsafeBufferPointer { names.intern($0, t.start, t.end) }
        if Int(id) >= innermost.count { while innermost.count < names.count { innermost.append(-1) } }
        return id
    }

    @inline(__always)
    func lookup(_ id: Int32) -> BindingEntry? {
        let k = innermost[Int(id)]
        return k < 0 ? nil : bindingStack[Int(k)]
    }

    /// A new row of `bindings`, not yet visible anywhere (`declare` makes it so).
    mutating func newBinding(_ kind: Binding.Kind, _ span: Span) -> Int32 {
        bindings.append(Binding(kind: kind, span: span))
        return Int32(bindings.count - 1)
    }

    /// A name that `let` may bind, or nil after reporting why not.
    mutating func bindableName(what: String) -> (Name, Int32)? {
        let t = tok
        if t.kind == .identifier {
            if isWord(t, "x") {
                report(.error(.reservedName, "'x' cannot be a name: it separates the sides of a size ('W x H')", at: t.span,
                              help: "choose another name"))
                return nil
            }
            let id = nameID(t)
            advance()
            return (Name(names.strings[Int(id)], t.span), id)
        }
        if t.kind.isReservedWord {
            report(.error(.reservedName, "'\(text(t))' is a reserved word and cannot be a name", at: t.span,
                          help: "choose another name, such as '\(text(t))Value'"))
            return nil
        }
        reportUnexpected(expected: "a \(what)")
        return nil
    }

    /// Makes binding `binding` what the name `id` means in the innermost block, with the warnings
    /// for names bound twice.
    mutating func declare(_ name: Identifier, _ id: Int32, _ binding: Int32, silently: Bool = false) {
        let depth = scopes.count - 1
        let top = innermost[Int(id)]
        let current = lookup(id)
        if !silently {
            if let earlier = current, earlier.depth == depth {
                warn(.warning(.redefined, "'\(name.text)' is defined again in this block", at: name.span,
                              notes: [Note("the earlier definition is at \(lineOf(bindings[Int(earlier.binding)].span)); it still applies before this line")]))
            } else if let outer = current {
                warn(.warning(.shadows, "'\(name.text)' shadows the definition at \(lineOf(bindings[Int(outer.binding)].span))", at: name.span,
                              help: "rename one of them if this is not meant"))
            } else if names.known[Int(id)].contains(.variable) {
                warn(.warning(.hidesEngineVariable, "'\(name.text)' hides the engine's variable '\(name.text)'", at: name.span,
                              help: "choose another name to keep '\(name.text)' usable"))
            }
        }
        if let earlier = current, earlier.depth == depth {
            bindingStack[Int(top)].binding = binding
        } else {
            bindingStack.append(BindingEntry(depth: depth, id: id, binding: binding, previous: top))
            innermost[Int(id)] = Int32(bindingStack.count - 1)
        }
    }

    /// The names bound in scope `depth` with their bindings, sorted by name (for suggestions).
    func boundNames(at depth: Int) -> [(String, Binding.Kind)] {
        let end = depth + 1 < scopes.count ? scopes[depth + 1].stackMark : bindingStack.count
        return bindingStack[scopes[depth].stackMark..<end].map(\.id).compactMap { id -> (String, Binding.Kind)? in
            var k = innermost[Int(id)]
            while k >= 0, bindingStack[Int(k)].depth > depth { k = bindingStack[Int(k)].previous }
            guard k >= 0, bindingStack[Int(k)].depth == depth else { return nil }
            return (names.strings[Int(id)], bindings[Int(bindingStack[Int(k)].binding)].kind)
        }.sorted { $0.0 < $1.0 }
    }

    /// The binding of a name used as a value, after checking that it means something here.
    mutating func resolveName(_ id: Int32, _ span: Span) -> Int32 {
        if let entry = lookup(id) {
            if case .function = bindings[Int(entry.binding)].kind {
                let n = names.strings[Int(id)]
                pending.append(.error(.functionWithoutCall, "'\(n)' is a function: call it with its arguments", at: span, help: "write '\(n)(...)'"))
            }
            return entry.binding
        }
        let known = names.known[Int(id)]
        if known.contains(.variable) { return Binding.free }
        let n = names.strings[Int(id)]
        var help = suggestion(for: n, among: visibleValueNames)
        if help == nil, names.settingRow(id) != nil {
            help = "settings are not values: name the value with 'let' to use it in both places"
        } else if help == nil, !known.intersection([.function, .adaptive]).isEmpty {
            help = "'\(n)' is a function: write '\(n)(...)'"
        }
        pending.append(.error(.unknownName, "unknown name '\(n)'", at: span, help: help))
        return Binding.free
    }

    /// The binding of a called name, after checking that it is a function given as many arguments
    /// as it takes.
    mutating func resolveCall(_ id: Int32, _ span: Span, arguments count: Int) -> Int32 {
        let n = names.strings[Int(id)]
        if let entry = lookup(id) {
            switch bindings[Int(entry.binding)].kind {
            case .function(let arity):
                if arity != count {
                    pending.append(.error(.wrongArgumentCount, "'\(n)' takes \(Arity.exactly([arity]).description), not \(count)", at: span))
                }
            case .value, .parameter:
                pending.append(.error(.valueCalled, "'\(n)' is a value, not a function", at: span,
                                      help: "to define a function, write 'let \(n)(a) = ...'"))
            }
            return entry.binding
        }
        let known = names.known[Int(id)]
        if known.contains(.function), let arity = names.functionArity[Int(id)] {
            if !arity.accepts(count) {
                pending.append(.error(.wrongArgumentCount, "'\(n)' takes \(arity.description), not \(count)", at: span))
            }
            return Binding.free
        }
        if known.contains(.adaptive) {
            pending.append(.error(.misplacedAdaptive, "'adaptive(MIN)' is a value of 'columns' and 'rows' only", at: span,
                                  help: "write 'columns adaptive(150)'"))
            return Binding.free
        }
        pending.append(.error(.unknownFunction, "unknown function '\(n)'", at: span, help: suggestion(for: n, among: visibleFunctionNames)))
        return Binding.free
    }

    /// "did you mean" for a misspelt name. Only the first suggestions of a file are looked for:
    /// each compares the word with every visible name, and a file of thousands of misspellings
    /// must not take quadratic time.
    mutating func suggestion(for word: String, among candidates: () -> [String]) -> String? {
        guard suggestionsLeft > 0 else { return nil }
        suggestionsLeft -= 1
        return Suggest.didYouMean(word, among: candidates())
    }

    func visibleValueNames() -> [String] {
        var found: [String] = []
        for depth in scopes.indices.reversed() {
            for (n, b) in boundNames(at: depth) {
                if case .function = b { continue }
                found.append(n)
            }
        }
        return found + Builtins.variables
    }

    func visibleFunctionNames() -> [String] {
        var found: [String] = []
        for depth in scopes.indices.reversed() {
            for (n, b) in boundNames(at: depth) {
                if case .function = b { found.append(n) }
            }
        }
        return found + Builtins.functions.map(\.name) + Builtins.expectFunctions.map(\.name)
    }
}
