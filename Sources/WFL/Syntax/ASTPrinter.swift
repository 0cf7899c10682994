/// Prints a syntax tree as an indented outline, one node a line with its position
/// (`[line:col-line:col]`, the end column just past the node), for `wfl ast` and golden tests.
package struct ASTPrinter {
    let source: SourceFile
    var positions: PositionCache
    var out = ""

    init(source: SourceFile) {
        self.source = source
        positions = PositionCache(source)
    }

    /// The outline of a whole tree.
    package static func print(_ tree: SyntaxTree, source: SourceFile) -> String {
        var p = ASTPrinter(source: source)
        p.line(0, "file", tree.span)
        for s in tree.statements { p.statement(s, 1) }
        return p.out
    }

    /// The outline of one expression (the REPL and tests use it).
    package static func print(_ expr: Expr, source: SourceFile) -> String {
        var p = ASTPrinter(source: source)
        p.expr(expr, 0)
        return p.out
    }

    mutating func at(_ span: Span) -> String {
        "[\(positions.position(of: span.start))-\(positions.position(of: span.end))]"
    }

    mutating func line(_ indent: Int, _ text: String, _ span: Span) {
        let place = at(span)
        out += String(repeating: "  ", count: indent) + text + " " + place + "\n"
    }

    static func quote(_ s: String) -> String {
        var q = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": q += "\\\""
            case "\\": q += "\\\\"
            case "\n": q += "\\n"
            case "\t": q += "\\t"
            default: q.unicodeScalars.append(c)
            }
        }
        return q + "\""
    }

    mutating func statement(_ s: Statement, _ d: Int) {
        switch s.kind {
        case .let(let decl):
            let params = decl.parameters.map { "(" + $0.map(\.text).joined(separator: ", ") + ")" } ?? ""
            line(d, "let \(decl.name.text)\(params)", s.span)
            expr(decl.value, d + 1)
        case .layout(let b):
            block("layout", b, s.span, d)
        case .section(let b):
            block("section", b, s.span, d)
        case .attach(let b):
            block("attach", b, s.span, d)
        case .appear(let a):
            block(a.keywordText, a.block, s.span, d)
        case .update(let b):
            block("update", b, s.span, d)
        case .scroll(let b):
            block("scroll", b, s.span, d)
        case .to(let stop):
            line(d, "to", s.span)
            expr(stop.x, d + 1)
            expr(stop.y, d + 1)
            if let step = stop.step, let word = stop.byWord {
                line(d + 1, "by", word.to(step.span))
                expr(step, d + 2)
            }
        case .group(let g):
            line(d, "group \(g.kind.rawValue)" + (g.block.closeBrace == nil ? " (unclosed)" : ""), s.span)
            line(d + 1, "size", g.width.span.to(g.height.span))
            expr(g.width, d + 2)
            expr(g.height, d + 2)
            if let c = g.count, let word = g.countWord {
                line(d + 1, "count", word.to(c.span))
                expr(c, d + 2)
            }
            for inner in g.block.statements { statement(inner, d + 1) }
        case .item(let item):
            line(d, "item" + (item.block.map { $0.closeBrace == nil ? " (unclosed)" : "" } ?? ""), s.span)
            line(d + 1, "size", item.width.span.to(item.height.span))
            expr(item.width, d + 2)
            expr(item.height, d + 2)
            for inner in item.block?.statements ?? [] { statement(inner, d + 1) }
        case .change(let c):
            line(d, c.kind.rawValue, s.span)
            for a in c.arguments { expr(a, d + 1) }
        case .expect(let e):
            line(d, "expect" + (e.label.map { " " + ASTPrinter.quote($0.text) } ?? ""), s.span)
            expr(e.condition, d + 1)
        case .setting(let setting):
            line(d, "setting \(setting.name.text)", s.span)
            for a in setting.arguments { argument(a, d + 1) }
        }
    }

    mutating func block(_ keyword: String, _ b: Block, _ span: Span, _ d: Int) {
        var head = keyword
        if let name = b.name { head += " " + (name.quoted ? ASTPrinter.quote(name.text) : name.text) }
        if b.closeBrace == nil { head += " (unclosed)" }
        line(d, head, span)
        for s in b.statements { statement(s, d + 1) }
    }

    mutating func argument(_ a: Argument, _ d: Int) {
        switch a {
        case .value(let e):
            expr(e, d)
        case .size(let w, let h, let span):
            line(d, "size", span)
            expr(w, d + 1)
            expr(h, d + 1)
        case .word(let n):
            line(d, "word \(n.text)", n.span)
        case .adaptive(let e, let span):
            line(d, "adaptive", span)
            expr(e, d + 1)
        case .side(let n, let e):
            line(d, "side \(n.text)", a.span)
            expr(e, d + 1)
        }
    }

    mutating func expr(_ e: Expr, _ d: Int) {
        switch e {
        case .number(let v, let span):
            line(d, "number \(NumberFormat.format(v))", span)
        case .boolean(let v, let span):
            line(d, "boolean \(v)", span)
        case .string(let v, let span):
            line(d, "string \(ASTPrinter.quote(v))", span)
        case .name(let n):
            line(d, "name \(n.text)", n.span)
        case .list(let items, let span):
            line(d, "list", span)
            for item in items { expr(item, d + 1) }
        case .unary(let op, let operand, let span):
            line(d, "unary \(op.rawValue)", span)
            expr(operand, d + 1)
        case .binary(let chain):
            line(d, "binary " + chain.operands.map { $0.op.rawValue }.joined(separator: " "), chain.span)
            expr(chain.head, d + 1)
            for r in chain.operands { expr(r.rhs, d + 1) }
        case .conditional(let c, let a, let b, let span):
            line(d, "conditional", span)
            expr(c, d + 1)
            expr(a, d + 1)
            expr(b, d + 1)
        case .call(let call):
            let callee = call.callee, args = call.arguments, span = call.span
            line(d, "call \(callee.text)", span)
            for a in args { expr(a, d + 1) }
        case .index(let base, let index, let span):
            line(d, "index", span)
            expr(base, d + 1)
            expr(index, d + 1)
        case .invalid(let span):
            line(d, "invalid", span)
        }
    }
}

/// Prints tokens one a line, for `wfl tokens` and golden tests:
/// `1:1-1:10  identifier  container`.
package enum TokenPrinter {
    package static func print(_ output: Lexer.Output, source: SourceFile) -> String {
        var out = ""
        var positions = PositionCache(source)
        for (index, t) in output.tokens.enumerated() {
            let from = positions.position(of: t.start), to = positions.position(of: t.end)
            var place = "\(from)-\(to)"
            place += String(repeating: " ", count: Swift.max(1, 14 - place.count))
            var kind = t.kind.name
            if t.kind.spelling != nil { kind = "symbol" }
            if t.kind.isReservedWord { kind = "keyword" }
            kind += String(repeating: " ", count: Swift.max(1, 12 - kind.count))
            let shown: String
            switch t.kind {
            case .newline: shown = t.end == t.start ? "(the block comment before)" : ""
            case .eof: shown = ""
            case .error: shown = output.errors[index].map { $0.message } ?? ""
            default: shown = source.text(t.span)
            }
            out += (place + kind + shown).trimmingTrailingSpaces() + "\n"
        }
        return out
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
