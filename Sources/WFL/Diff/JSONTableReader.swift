/// Reading back the tables `wfl run --format json` writes: a small JSON parser, then the shape
/// of that document (what both readers give: TableReader.swift).

/// A JSON value with the offset it starts at.
indirect enum JSONValue {
    case object([(key: String, value: JSONValue, at: Int)], Int)
    case array([JSONValue], Int)
    case string(String, Int)
    case number(Double, Int)
    case bool(Bool, Int)
    case null(Int)

    var offset: Int {
        switch self {
        case .object(_, let o), .array(_, let o), .string(_, let o), .number(_, let o), .bool(_, let o), .null(let o): return o
        }
    }

    var typeName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// A small RFC 8259 parser (nesting limited to 256 levels), then the shape of the json
/// `wfl run --format json` writes.
struct JSONTableReader {
    let s: [Unicode.Scalar]
    var pos = 0
    var depth = 0

    /// Where each line starts, for positions in messages.
    let lineStarts: [Int]

    init(_ scalars: [Unicode.Scalar]) {
        s = scalars
        var starts = [0]
        for (k, c) in scalars.enumerated() where c == "\n" { starts.append(k + 1) }
        lineStarts = starts
    }

    func fail(_ message: String, at offset: Int) -> TableReadError {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return TableReadError(message: message, line: lo + 1, column: offset - lineStarts[lo] + 1)
    }

    mutating func read() throws(TableReadError) -> [ReadLayout] {
        let doc = try value()
        skipSpace()
        if pos < s.count { throw fail("unexpected '\(s[pos])' after the end of the JSON document", at: pos) }
        return try layouts(doc)
    }

    mutating func skipSpace() {
        while pos < s.count, s[pos] == " " || s[pos] == "\t" || s[pos] == "\n" || s[pos] == "\r" { pos += 1 }
    }

    func describe(_ k: Int) -> String {
        k < s.count ? "'\(s[k])'" : "the end of the file"
    }

    mutating func value() throws(TableReadError) -> JSONValue {
        skipSpace()
        guard pos < s.count else { throw fail("expected a JSON value, found the end of the file", at: pos) }
        let start = pos
        switch s[pos] {
        case "{", "[":
            depth += 1
            defer { depth -= 1 }
            if depth > 256 { throw fail("the JSON nests more than 256 levels deep", at: pos) }
            pos += 1
            return s[start] == "{" ? try object(start) : try array(start)
        case "\"":
            return .string(try string(), start)
        case "t", "f", "n":
            for (word, v) in [("true", JSONValue.bool(true, start)), ("false", .bool(false, start)), ("null", .null(start))] {
                let w = Array(word.unicodeScalars)
                if pos + w.count <= s.count, Array(s[pos..<pos + w.count]) == w {
                    pos += w.count
                    return v
                }
            }
            throw fail("unexpected \(describe(pos)): expected a JSON value", at: pos)
        default:
            let c = s[pos]
            guard c == "-" || (c >= "0" && c <= "9") else { throw fail("unexpected \(describe(pos)): expected a JSON value", at: pos) }
            var text = ""
            while pos < s.count, "+-.eE0123456789".unicodeScalars.contains(s[pos]) {
                text.unicodeScalars.append(s[pos])
                pos += 1
            }
            guard let d = Double(text), d.isFinite else { throw fail("'\(text)' is not a number", at: start) }
            return .number(d, start)
        }
    }

    /// The rest of the object that opens at `start`.
    mutating func object(_ start: Int) throws(TableReadError) -> JSONValue {
        var members: [(key: String, value: JSONValue, at: Int)] = []
        if closesEmpty("}") { return .object(members, start) }
        repeat {
            skipSpace()
            guard pos < s.count, s[pos] == "\"" else { throw fail("expected a member name in double quotes, found \(describe(pos))", at: pos) }
            let at = pos
            let key = try string()
            skipSpace()
            guard pos < s.count, s[pos] == ":" else { throw fail("expected ':' after the member name \"\(key)\", found \(describe(pos))", at: pos) }
            pos += 1
            members.append((key, try value(), at))
        } while try !closes("}", start)
        return .object(members, start)
    }

    /// The rest of the array that opens at `start`.
    mutating func array(_ start: Int) throws(TableReadError) -> JSONValue {
        var items: [JSONValue] = []
        if closesEmpty("]") { return .array(items, start) }
        repeat {
            items.append(try value())
        } while try !closes("]", start)
        return .array(items, start)
    }

    /// Just after an object's or an array's opening: true, having moved past it, at its closing
    /// `close` (it is empty).
    mutating func closesEmpty(_ close: Unicode.Scalar) -> Bool {
        skipSpace()
        guard pos < s.count, s[pos] == close else { return false }
        pos += 1
        return true
    }

    /// After a member of an object or an element of an array that opens at `start`: true at its
    /// closing `close`, false at the ',' before the next one.
    mutating func closes(_ close: Unicode.Scalar, _ start: Int) throws(TableReadError) -> Bool {
        let what = close == "}" ? "object" : "array"
        skipSpace()
        guard pos < s.count else { throw fail("'\(close)' expected to close the \(what) that opens at \(position(start))", at: pos) }
        if s[pos] == "," { pos += 1; return false }
        if s[pos] == close { pos += 1; return true }
        throw fail("expected ',' or '\(close)' in an \(what), found \(describe(pos))", at: pos)
    }

    func position(_ offset: Int) -> String {
        let e = fail("", at: offset)
        return "line \(e.line), column \(e.column)"
    }

    mutating func string() throws(TableReadError) -> String {
        let start = pos
        pos += 1
        var out = ""
        while true {
            guard pos < s.count, s[pos] != "\n" else { throw fail("unterminated string: '\"' expected", at: start) }
            let c = s[pos]
            pos += 1
            if c == "\"" { return out }
            guard c == "\\" else { out.unicodeScalars.append(c); continue }
            guard pos < s.count else { throw fail("unterminated string: '\"' expected", at: start) }
            let e = s[pos]
            pos += 1
            switch e {
            case "\"": out += "\""
            case "\\": out += "\\"
            case "/": out += "/"
            case "n": out += "\n"
            case "t": out += "\t"
            case "r": out += "\r"
            case "b": out += "\u{8}"
            case "f": out += "\u{C}"
            case "u":
                var v: UInt32 = 0
                for _ in 0..<4 {
                    guard pos < s.count, let h = UInt32(String(s[pos]), radix: 16) else { throw fail("'\\u' needs four hex digits", at: pos - 1) }
                    v = v * 16 + h
                    pos += 1
                }
                out.unicodeScalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
            default:
                throw fail("unknown escape '\\\(e)' in a string", at: pos - 2)
            }
        }
    }

    // The shape of the json `wfl run --format json` writes.

    func member(_ members: [(key: String, value: JSONValue, at: Int)], _ key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    func line(_ offset: Int) -> Int { fail("", at: offset).line }

    func layouts(_ doc: JSONValue) throws(TableReadError) -> [ReadLayout] {
        guard case .object(let top, _) = doc else {
            throw fail("expected an object with \"layouts\", as 'wfl run --format json' writes, not \(doc.typeName)", at: doc.offset)
        }
        guard let ls = member(top, "layouts") else { throw fail("the object has no \"layouts\" member", at: doc.offset) }
        guard case .array(let items, _) = ls else { throw fail("\"layouts\" must be an array, not \(ls.typeName)", at: ls.offset) }
        var out: [ReadLayout] = []
        for (k, item) in items.enumerated() {
            guard case .object(let m, _) = item else { throw fail("a layout must be an object, not \(item.typeName)", at: item.offset) }
            var name = "layout \(k)"
            if let n = member(m, "name") {
                guard case .string(let text, _) = n else { throw fail("\"name\" must be a string, not \(n.typeName)", at: n.offset) }
                name = text
            }
            var size: [Double]? = nil
            if let c = member(m, "contentSize") { size = try numbers(c, 2, "\"contentSize\"") }
            guard let es = member(m, "elements") else { throw fail("the layout '\(name)' has no \"elements\" member", at: item.offset) }
            guard case .array(let elems, _) = es else { throw fail("\"elements\" must be an array, not \(es.typeName)", at: es.offset) }
            var elements: [ReadElement] = []
            for e in elems { elements.append(try element(e)) }
            out.append(ReadLayout(name: name, contentSize: size, elements: elements))
        }
        return out
    }

    func numbers(_ v: JSONValue, _ count: Int, _ what: String) throws(TableReadError) -> [Double] {
        guard case .array(let xs, _) = v, xs.count == count else {
            throw fail("\(what) must be an array of \(count) numbers", at: v.offset)
        }
        var out: [Double] = []
        for x in xs {
            guard case .number(let d, _) = x else { throw fail("\(what) must hold numbers, not \(x.typeName)", at: x.offset) }
            out.append(d)
        }
        return out
    }

    func whole(_ v: JSONValue, _ what: String) throws(TableReadError) -> Int {
        guard case .number(let d, _) = v, let n = TableReader.whole(d) else {
            throw fail("\(what) must be a whole number, not \(v.typeName == "a number" ? "a fraction" : v.typeName)", at: v.offset)
        }
        return n
    }

    func element(_ v: JSONValue) throws(TableReadError) -> ReadElement {
        guard case .object(let m, let at) = v else { throw fail("an element must be an object, not \(v.typeName)", at: v.offset) }
        var kind: String? = nil
        if let k = member(m, "kind") {
            switch k {
            case .string(let text, _): kind = text
            case .null: kind = nil
            default: throw fail("\"kind\" must be a string (or null for a cell), not \(k.typeName)", at: k.offset)
            }
        }
        guard let sv = member(m, "section") else { throw fail("the element has no \"section\"", at: at) }
        let section = try whole(sv, "\"section\"")
        var item: Int? = nil
        if let iv = member(m, "item") {
            if case .null = iv {} else { item = try whole(iv, "\"item\"") }
        }
        guard let fv = member(m, "frame") else { throw fail("the element has no \"frame\"", at: at) }
        let f = try numbers(fv, 4, "\"frame\"")
        var z: Int? = nil
        if let zv = member(m, "zIndex") { z = try whole(zv, "\"zIndex\"") }
        // "alpha" and "zoom" are written only where not 1.
        func number(_ key: String) throws(TableReadError) -> Double {
            guard let v = member(m, key) else { return 1 }
            guard case .number(let d, _) = v else { throw fail("\"\(key)\" must be a number, not \(v.typeName)", at: v.offset) }
            return d
        }
        var element = ReadElement(kind: TableReader.normalKind(kind), section: section, item: item,
                                  frame: Frame(x: f[0], y: f[1], width: f[2], height: f[3]), zIndex: z, line: line(at),
                                  alpha: try number("alpha"), zoom: try number("zoom"))
        // "translate" and "rotate" are written only where used (absent: unused).
        if let t = member(m, "translate") {
            let xy = try numbers(t, 2, "\"translate\"")
            element.translateX = xy[0]
            element.translateY = xy[1]
        }
        if member(m, "rotate") != nil { element.rotate = try number("rotate") }
        return element
    }
}
