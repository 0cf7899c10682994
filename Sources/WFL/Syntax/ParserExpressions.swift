/// Expressions: precedence climbing over the binary operators, then unary, postfix and primary.

extension Parser {
    /// True when the current token can begin an expression (`x` cannot: it separates sizes).
    var canStartExpression: Bool {
        @inline(__always) get {
            switch tok.kind {
            case .number, .string, .kwTrue, .kwFalse, .lParen, .lBracket, .minus, .bang, .error: return true
            case .identifier: return !isWord(tok, "x")
            default: return false
            }
        }
    }

    /// Enters one level of nesting; false (with the error) past `maxDepth`.
    mutating func enter() -> Bool {
        depth += 1
        if depth > Parser.maxDepth {
            report(.error(.nestedTooDeeply, "expression nested too deeply: more than \(Parser.maxDepth) levels", at: tok.span,
                          help: "name inner parts with 'let' to flatten it"))
            return false
        }
        return true
    }

    // expr = orExpr [ "?" expr ":" expr ] ;
    mutating func parseExpr() -> Expr {
        // A lone number or name, the most common argument, skips the operator machinery.
        let t = tok
        if shortPaths, t.kind == .number || t.kind == .identifier, endsOperand(tokens[pos + 1]) {
            if t.kind == .number {
                advance()
                return .number(numberValue(t), t.span)
            }
            if !isWord(t, "x") {
                let id = nameID(t)
                lastNameID = id
                advance()
                let binding = resolveName(id, t.span)
                return .name(Identifier(names.strings[Int(id)], t.span, binding: binding))
            }
        }
        let condition = chain(level: 1)
        guard at(.question), !panicking else { return condition }
        guard enter() else { depth -= 1; return .invalid(condition.span) }
        defer { depth -= 1 }
        advance()
        let then = parseExpr()
        guard at(.colon) else {
            if !panicking {
                reportUnexpected(expected: "':' in the conditional that starts at '?'",
                                 help: "a conditional has both branches: 'c ? a : b'")
            }
            return .invalid(condition.span.to(then.span))
        }
        advance()
        let otherwise = parseExpr()
        return .conditional(condition, then, otherwise, condition.span.to(otherwise.span))
    }

    // orExpr = andExpr { "||" andExpr } ;
    // andExpr = comparison { "&&" comparison } ;
    // comparison = sum [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) sum ] ;
    // sum = product { ( "+" | "-" ) product } ;
    // product = unary { ( "*" | "/" | "%" ) unary } ;
    /// The five binary levels, from `||` (1) to `* / %` (5): `chain(level: k)` reads the rule of
    /// level k, operators of that level and above. A chain of operators of one level is read in a
    /// loop, so a long chain costs no stack.
    mutating func chain(level: Int) -> Expr {
        // Precedence climbing: one call per operand, not one per level, and the same tree as a
        // function per level gives (a chain of one level is one `.binary` node).
        var first: Expr
        if let plain = plainOperand() { first = plain } else { first = parseUnary() }
        while !panicking, let head = anyBinaryOp(), head.precedence >= level {
            let chainLevel = head.precedence
            let mark = scratchOperands.count
            // A long chain moves to its own array, with room for as many operands as the tokens
            // left could hold.
            var spilled: [Operand]? = nil
            while !panicking, let op = anyBinaryOp(), op.precedence == chainLevel {
                let opSpan = tok.span
                if chainLevel == 3, spilled == nil, scratchOperands.count == mark + 1 { chainedComparison(opSpan) }
                advance()
                if atStatementEnd || !canStartExpression {
                    return missingOperand(after: op, opSpan, first: first, mark: mark, spilled: spilled)
                }
                let rhs: Expr
                if chainLevel < 5 {
                    rhs = chain(level: chainLevel + 1)
                } else if let plain = plainOperand() {
                    rhs = plain
                } else {
                    rhs = parseUnary()
                }
                gather(Operand(op, opSpan, consume rhs), on: scratchOperands, from: mark, spilled: &spilled)
            }
            if let spilled {
                first = .binary(BinaryChain(spilledHead: first, spilled))
            } else {
                first = .binary(scratchOperands.takeChain(consume first, from: mark))
            }
        }
        return first
    }

    /// A number, or a name that is not called or indexed, standing as an operand: read here, the
    /// same node as through `parseUnary`, `parsePostfix` and `parsePrimary` (three calls an
    /// operand, each returning the expression, were a tenth of parsing's instructions). nil, with
    /// nothing consumed, for anything else, which those rules read.
    @inline(__always)
    mutating func plainOperand() -> Expr? {
        let t = tok
        guard t.kind == .number || t.kind == .identifier else { return nil }
        // What `parsePostfix` would see after it: a call or an index (a newline inside brackets
        // is skipped before it looks), so the long way.
        let after = tokens[pos + 1]
        switch after.kind {
        case .lParen, .lBracket: if !after.spaceBefore { return nil }
        case .newline: if opens > 0 { return nil }
        default: break
        }
        if t.kind == .number {
            advance()
            return .number(numberValue(t), t.span)
        }
        if isWord(t, "x") { return nil }
        let id = nameID(t)
        lastNameID = id
        advance()
        let binding = resolveName(id, t.span)
        return .name(Identifier(names.strings[Int(id)], t.span, binding: binding))
    }

    // The error paths of `chain`, apart, so that its stack frame, one per nesting level, stays small.

    @inline(never)
    mutating func chainedComparison(_ opSpan: Span) {
        reportAndContinue(.error(.chainedComparison, "comparisons do not chain", at: opSpan,
                                 help: "join two comparisons with '&&': 'a < b && b < c'"))
    }

    /// An operator with nothing after it: the error, and the chain so far as one invalid node.
    @inline(never)
    mutating func missingOperand(after op: BinaryOp, _ opSpan: Span, first: Expr, mark: Int, spilled: [Operand]?) -> Expr {
        if tok.kind == .error {
            reportUnexpected(expected: "")
        } else {
            if at(.eof), opens > 0 { incomplete = true }
            report(.error(.missingOperand, "missing a value after '\(op.rawValue)'", at: opSpan,
                          help: "write what the operator applies to, or remove it"))
        }
        let last = spilled?.last ?? (scratchOperands.count == mark ? nil : scratchOperands[scratchOperands.count - 1])
        let whole = last.map { first.span.to($0.rhs.span) } ?? first.span
        scratchOperands.drop(from: mark)
        return .invalid(whole.to(opSpan))
    }

    /// True when `next`, the token after an operand, cannot continue the expression.
    @inline(__always) func endsOperand(_ next: Token) -> Bool {
        switch next.kind {
        case .semicolon, .rBrace, .eof, .comma, .rParen, .rBracket, .colon, .number, .string, .identifier:
            return true
        case .newline:
            return opens == 0
        default:
            return false
        }
    }

    /// The binary operator of the current token, whatever its level.
    @inline(__always) func anyBinaryOp() -> BinaryOp? {
        switch tok.kind {
        case .or: return .or
        case .and: return .and
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        case .plus: return .add
        case .minus: return .subtract
        case .star: return .multiply
        case .slash: return .divide
        case .percent: return .remainder
        default: return nil
        }
    }

    // unary = ( "-" | "!" ) unary | postfix ;
    mutating func parseUnary() -> Expr {
        guard at(.minus) || at(.bang) else { return parsePostfix() }
        let op: UnaryOp = at(.minus) ? .negate : .not
        let opSpan = tok.span
        guard enter() else { depth -= 1; return .invalid(opSpan) }
        defer { depth -= 1 }
        advance()
        if atStatementEnd || !canStartExpression {
            if tok.kind == .error {
                reportUnexpected(expected: "")
            } else {
                report(.error(.missingOperand, "missing a value after '\(op.rawValue)'", at: opSpan,
                              help: "write what the operator applies to, or remove it"))
            }
            return .invalid(opSpan)
        }
        let operand = parseUnary()
        return .unary(op, operand, opSpan.to(operand.span))
    }

    // postfix = primary { call | index } ;
    mutating func parsePostfix() -> Expr {
        var e = parsePrimary()
        var levels = 0
        defer { depth -= levels }
        let calleeID = lastNameID
        while !panicking, !tok.spaceBefore, at(.lParen) || at(.lBracket) {
            levels += 1
            guard enter() else { return .invalid(e.span) }
            if at(.lParen) {
                guard case .name(let callee) = e else {
                    report(.error(.notCallable, "only a function name can be called", at: tok.span,
                                  help: "call a function by its name, as 'max(a, b)'"))
                    return .invalid(e.span)
                }
                e = .call(parseCall(callee, calleeID))
            } else {
                let index = parseIndex()
                e = .index(e, index, Span(e.span.start, prevEnd))
            }
        }
        return e
    }

    // call = "(" [ expr { "," expr } [ "," ] ] ")" ;
    mutating func parseCall(_ callee: Identifier, _ calleeID: Int32) -> Call {
        let open = pos
        advance()
        let (mark, spilled) = gatherExpressionList(closer: .rParen, what: "an argument")
        _ = closing(.rParen, opened: open)
        var callee = callee
        callee.binding = resolveCall(calleeID, callee.span, arguments: spilled?.count ?? scratchExprs.count - mark)
        let span = Span(callee.span.start, prevEnd)
        if let spilled { return Call(callee, spilled, span) }
        return scratchExprs.takeCall(callee, span, from: mark)
    }

    // index = "[" expr "]" ;
    mutating func parseIndex() -> Expr {
        let open = pos
        advance()
        guard canStartExpression else {
            reportUnexpected(expected: "an index inside '[ ]'")
            return .invalid(tokens[open].span)
        }
        let e = parseExpr()
        _ = closing(.rBracket, opened: open)
        return e
    }

    /// Adds a part of a list or chain: on the shared stack, or, once the list or chain has had
    /// `spillCount` parts, on its own array, reserved for as many as the tokens left could hold.
    /// (A function of its own, so that the recursive rules' stack frames stay small.)
    /// (`mutating` though it changes nothing of the parser: a non-mutating call from the parser's
    /// mutating rules copied the whole parser each time.)
    @inline(never)
    /// (`e` is `consuming`: the caller's value moves onto the stack, with no retain and release.)
    mutating func gather<Element>(_ e: consuming Element, on stack: ScratchStack<Element>, from mark: Int, spilled: inout [Element]?) {
        if spilled != nil {
            spilled!.append(e)
            return
        }
        stack.append(e)
        if stack.count - mark == ScratchStack<Element>.spillCount {
            spilled = stack.spill(from: mark, reserving: (tokens.count - pos) / 2 + 1)
        }
    }

    /// Comma-separated expressions up to `closer` (not consumed), a trailing comma allowed.
    mutating func parseExpressionList(closer: TokenKind, what: String) -> [Expr] {
        // Items gather on a stack shared by nested lists, then move to an array of their exact
        // size: one allocation a list, not one per doubling.
        let (mark, spilled) = gatherExpressionList(closer: closer, what: what)
        return spilled ?? scratchExprs.takeTail(from: mark)
    }

    /// `parseExpressionList`'s items, left on `scratchExprs` from the mark returned, or in their
    /// own array for a long list.
    mutating func gatherExpressionList(closer: TokenKind, what: String) -> (mark: Int, spilled: [Expr]?) {
        let mark = scratchExprs.count
        // A long list moves to its own array, with room for as many items as the tokens left
        // could hold.
        var spilled: [Expr]? = nil
        while !panicking, !at(closer) {
            guard canStartExpression else {
                missingItem(first: scratchExprs.count == mark && spilled == nil, what: what, closer: closer)
                break
            }
            let e = parseExpr()
            gather(e, on: scratchExprs, from: mark, spilled: &spilled)
            if at(.comma) { advance() } else { break }
        }
        return (mark, spilled)
    }

    /// Apart from `parseExpressionList`, so that its stack frame, one per nesting level, stays small.
    @inline(never)
    mutating func missingItem(first: Bool, what: String, closer: TokenKind) {
        reportUnexpected(expected: first ? "\(what) or '\(closer.spelling!)'" : "\(what)")
    }

    /// Consumes the closing bracket of the one opened at token `open`, or reports that it is
    /// missing. When the closer is missing and a line break was passed on the way, reading resumes
    /// at that line break, so the next line is read as a statement of its own.
    mutating func closing(_ closer: TokenKind, opened open: Int) -> Bool {
        if at(closer) {
            advance()
            return true
        }
        if panicking { return false }
        let opener = tokens[open]
        if at(.eof) { incomplete = true }
        // A line break skipped just before this token: resume there.
        var resume: Int? = nil
        var k = pos - 1
        while k > open, tokens[k].kind == .newline {
            resume = k
            k -= 1
        }
        if resume == nil, let start = (open + 1..<pos).first(where: { startsStatementOnItsLine($0) }) {
            resume = start - 1
            while resume! - 1 > open, tokens[resume! - 1].kind == .newline { resume! -= 1 }
            // Point just after the last token before that line break.
            prevEnd = tokens[resume! - 1].end
        }
        if tok.kind == .error, let d = lexErrors[pos] {
            report(d)
        } else {
            let found = resume == nil && !at(.eof) ? ", found \(describe(tok))" : ""
            report(.error(.unclosed, "'\(closer.spelling!)' expected to close '\(text(opener))' at \(lineOf(opener.span))\(found)",
                          at: .point(prevEnd),
                          notes: line(of: opener.start) != line(of: prevEnd) ? [Note("'\(text(opener))' opened here", span: opener.span)] : []))
        }
        if let resume {
            opens = 0
            pos = resume
        }
        return false
    }

    // primary = NUMBER | STRING | "true" | "false" | IDENT | "(" expr ")" | list ;
    mutating func parsePrimary() -> Expr {
        let t = tok
        switch t.kind {
        case .number:
            advance()
            return .number(numberValue(t), t.span)
        case .string:
            advance()
            return .string(stringValue(t), t.span)
        case .kwTrue, .kwFalse:
            advance()
            return .boolean(t.kind == .kwTrue, t.span)
        case .identifier:
            if isWord(t, "x") {
                report(.error(.sizeSeparatorAsValue, "'x' is not a value: it separates the sides of a size ('W x H')", at: t.span,
                              help: "use 'x' only between two sides, as in 'size 100 x 50'"))
                return .invalid(t.span)
            }
            let id = nameID(t)
            lastNameID = id
            advance()
            // A name used as a value is resolved here; a callee when its arguments are read.
            let binding = panicking || tok.spaceBefore || !at(.lParen) ? resolveName(id, t.span) : Binding.free
            return .name(Identifier(names.strings[Int(id)], t.span, binding: binding))
        case .lParen:
            guard enter() else { depth -= 1; return .invalid(t.span) }
            defer { depth -= 1 }
            let open = pos
            advance()
            guard canStartExpression else {
                reportUnexpected(expected: "a value inside '( )'")
                return .invalid(t.span)
            }
            let inner = parseExpr()
            _ = closing(.rParen, opened: open)
            return inner
        case .lBracket:
            return parseList()
        case .error:
            // The rest of the statement would be read around a hole: one error, then the next
            // statement.
            if let d = lexErrors[pos] { report(d) }
            advance()
            return .invalid(t.span)
        default:
            if t.kind == .eof { incomplete = true }
            reportUnexpected(expected: "a value")
            return .invalid(.point(prevEnd))
        }
    }

    // list = "[" [ expr { "," expr } [ "," ] ] "]" ;
    mutating func parseList() -> Expr {
        let open = pos
        let start = tok.start
        guard enter() else { depth -= 1; return .invalid(tok.span) }
        defer { depth -= 1 }
        advance()
        let items = parseExpressionList(closer: .rBracket, what: "a value")
        _ = closing(.rBracket, opened: open)
        return .list(items, Span(start, prevEnd))
    }
}
