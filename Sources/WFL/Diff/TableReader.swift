/// Reading attribute tables back, for `wfl diff`: the `json` and `csv` formats of CLI.md, told
/// apart by content (a JSON document starts with `{`). Also read: what a user's app dumps with the
/// README's snippet, which may name kinds as UIKit does (`UICollectionElementKindSectionHeader`,
/// or `null` for a cell) and may leave out `zIndex`, `style`, `direction` and `container`.

/// One element of a table read back.
public struct ReadElement: Equatable, Sendable {
    /// `header`, `cell`, `footer`, or another supplementary kind as the file names it.
    public var kind: String
    public var section: Int
    /// nil for a header or footer.
    public var item: Int?
    public var frame: Frame
    /// nil when the file does not give it (it is then not compared).
    public var zIndex: Int?
    /// The line it was read from, for messages.
    public var line: Int
}

/// One layout of a table read back.
public struct ReadLayout: Equatable, Sendable {
    public var name: String
    /// nil when the file does not give it (csv).
    public var contentSize: [Double]?
    public var elements: [ReadElement]
}

/// Why a table could not be read: the message, and where (line and column from 1).
public struct TableReadError: Error, Equatable, Sendable {
    public var message: String
    public var line: Int
    public var column: Int
}

/// Reads `json` or `csv` attribute tables.
public enum TableReader {
    /// Reads the bytes of a table file, deciding json or csv by its first character that is not
    /// white space.
    public static func read(_ bytes: [UInt8]) -> Result<[ReadLayout], TableReadError> {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        guard let first = bytes[start...].first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            return .failure(TableReadError(message: "the file is empty: expected a table in wfl's json or csv format", line: 1, column: 1))
        }
        guard let text = String(validating: bytes[start...], as: UTF8.self) else {
            return .failure(TableReadError(message: "the file is not UTF-8 text: expected a table in wfl's json or csv format", line: 1, column: 1))
        }
        do throws(TableReadError) {
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                var reader = JSONTableReader(Array(text.unicodeScalars))
                return .success(try reader.read())
            }
            return .success(try CSVTableReader.read(text))
        } catch {
            return .failure(error)
        }
    }

    /// `header` for UIKit's header kind, `footer` for its footer kind, `cell` for nil.
    static func normalKind(_ kind: String?) -> String {
        switch kind {
        case nil, "cell"?: return "cell"
        case "UICollectionElementKindSectionHeader"?, "header"?: return "header"
        case "UICollectionElementKindSectionFooter"?, "footer"?: return "footer"
        case let k?: return k
        }
    }
}

// MARK: - JSON

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

/// A small RFC 8259 parser (nesting limited to 256 levels), then the shape of CLI.md's json.
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
        case "{":
            depth += 1
            defer { depth -= 1 }
            if depth > 256 { throw fail("the JSON nests more than 256 levels deep", at: pos) }
            pos += 1
            var members: [(key: String, value: JSONValue, at: Int)] = []
            skipSpace()
            if pos < s.count, s[pos] == "}" { pos += 1; return .object(members, start) }
            while true {
                skipSpace()
                guard pos < s.count, s[pos] == "\"" else { throw fail("expected a member name in double quotes, found \(describe(pos))", at: pos) }
                let at = pos
                let key = try string()
                skipSpace()
                guard pos < s.count, s[pos] == ":" else { throw fail("expected ':' after the member name \"\(key)\", found \(describe(pos))", at: pos) }
                pos += 1
                members.append((key, try value(), at))
                skipSpace()
                guard pos < s.count else { throw fail("'}' expected to close the object that opens at \(position(start))", at: pos) }
                if s[pos] == "," { pos += 1; continue }
                if s[pos] == "}" { pos += 1; return .object(members, start) }
                throw fail("expected ',' or '}' in an object, found \(describe(pos))", at: pos)
            }
        case "[":
            depth += 1
            defer { depth -= 1 }
            if depth > 256 { throw fail("the JSON nests more than 256 levels deep", at: pos) }
            pos += 1
            var items: [JSONValue] = []
            skipSpace()
            if pos < s.count, s[pos] == "]" { pos += 1; return .array(items, start) }
            while true {
                items.append(try value())
                skipSpace()
                guard pos < s.count else { throw fail("']' expected to close the array that opens at \(position(start))", at: pos) }
                if s[pos] == "," { pos += 1; continue }
                if s[pos] == "]" { pos += 1; return .array(items, start) }
                throw fail("expected ',' or ']' in an array, found \(describe(pos))", at: pos)
            }
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

    // The shape of CLI.md's json.

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
        guard case .number(let d, _) = v, isWhole(d), abs(d) < 1e15 else {
            throw fail("\(what) must be a whole number, not \(v.typeName == "a number" ? "a fraction" : v.typeName)", at: v.offset)
        }
        return Int(d)
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
        return ReadElement(kind: TableReader.normalKind(kind), section: section, item: item,
                           frame: Frame(x: f[0], y: f[1], width: f[2], height: f[3]), zIndex: z, line: line(at))
    }
}

// MARK: - CSV

/// CLI.md's csv: the header row, then one row per element, fields quoted as RFC 4180 says.
enum CSVTableReader {
    static func read(_ text: String) throws(TableReadError) -> [ReadLayout] {
        let rows = try records(text)
        guard let header = rows.first else {
            throw TableReadError(message: "the file is empty: expected a table in wfl's json or csv format", line: 1, column: 1)
        }
        guard header.fields.joined(separator: ",") == CSVFormat.headerRow else {
            throw TableReadError(message: "the first row must be '\(CSVFormat.headerRow)', as 'wfl run --format csv' writes it",
                                 line: header.line, column: 1)
        }
        var layouts: [ReadLayout] = []
        for row in rows.dropFirst() {
            let f = row.fields
            guard f.count == 9 else {
                throw TableReadError(message: "a row must have 9 fields, this one has \(f.count)", line: row.line, column: 1)
            }
            func number(_ k: Int) throws(TableReadError) -> Double {
                guard let d = Double(f[k]), d.isFinite else {
                    throw TableReadError(message: "'\(f[k])' in column '\(columns[k])' is not a number", line: row.line, column: row.columns[k])
                }
                return d
            }
            func whole(_ k: Int) throws(TableReadError) -> Int {
                let d = try number(k)
                guard isWhole(d), abs(d) < 1e15 else {
                    throw TableReadError(message: "'\(f[k])' in column '\(columns[k])' is not a whole number", line: row.line, column: row.columns[k])
                }
                return Int(d)
            }
            let item: Int? = f[2].isEmpty ? nil : try whole(2)
            let element = ReadElement(kind: TableReader.normalKind(f[3].isEmpty ? nil : f[3]), section: try whole(1), item: item,
                                      frame: Frame(x: try number(4), y: try number(5), width: try number(6), height: try number(7)),
                                      zIndex: f[8].isEmpty ? nil : try whole(8), line: row.line)
            if let last = layouts.indices.last, layouts[last].name == f[0] {
                layouts[last].elements.append(element)
            } else if let k = layouts.firstIndex(where: { $0.name == f[0] }) {
                layouts[k].elements.append(element)
            } else {
                layouts.append(ReadLayout(name: f[0], contentSize: nil, elements: [element]))
            }
        }
        return layouts
    }

    static let columns = CSVFormat.headerRow.split(separator: ",").map(String.init)

    struct Record {
        var fields: [String]
        var line: Int
        /// The column each field starts at.
        var columns: [Int]
    }

    /// The records of RFC 4180 text: quoted fields may hold commas, quotes (doubled) and line
    /// breaks; CRLF or LF ends a record; blank lines are skipped.
    static func records(_ text: String) throws(TableReadError) -> [Record] {
        let s = Array(text.unicodeScalars)
        var out: [Record] = []
        var pos = 0, line = 1, column = 1
        while pos < s.count {
            var fields: [String] = [], starts: [Int] = []
            let recordLine = line
            // A blank line.
            if s[pos] == "\n" || (s[pos] == "\r" && pos + 1 < s.count && s[pos + 1] == "\n") {
                pos += s[pos] == "\r" ? 2 : 1
                line += 1
                column = 1
                continue
            }
            while true {
                starts.append(column)
                var field = ""
                if pos < s.count, s[pos] == "\"" {
                    let openLine = line, openColumn = column
                    pos += 1; column += 1
                    while true {
                        guard pos < s.count else {
                            throw TableReadError(message: "unterminated quoted field: '\"' expected", line: openLine, column: openColumn)
                        }
                        let c = s[pos]
                        pos += 1; column += 1
                        if c == "\"" {
                            if pos < s.count, s[pos] == "\"" { field += "\""; pos += 1; column += 1; continue }
                            break
                        }
                        if c == "\n" { line += 1; column = 1 }
                        field.unicodeScalars.append(c)
                    }
                } else {
                    while pos < s.count, s[pos] != ",", s[pos] != "\n", !(s[pos] == "\r" && pos + 1 < s.count && s[pos + 1] == "\n") {
                        if s[pos] == "\"" {
                            throw TableReadError(message: "a '\"' inside a field that is not quoted: quote the whole field", line: line, column: column)
                        }
                        field.unicodeScalars.append(s[pos])
                        pos += 1; column += 1
                    }
                }
                fields.append(field)
                if pos < s.count, s[pos] == "," { pos += 1; column += 1; continue }
                if pos < s.count, s[pos] == "\r" { pos += 1 }
                if pos < s.count, s[pos] == "\n" { pos += 1; line += 1; column = 1; break }
                if pos >= s.count { break }
                throw TableReadError(message: "unexpected '\(s[pos])' after a quoted field: ',' or the end of the line expected", line: line, column: column)
            }
            out.append(Record(fields: fields, line: recordLine, columns: starts))
        }
        return out
    }
}
