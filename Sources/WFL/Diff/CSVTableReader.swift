/// Reading back the tables `wfl run --format csv` writes (what both readers give:
/// TableReader.swift).

/// The csv `wfl run --format csv` writes: the header row, then one row per element, fields
/// quoted as RFC 4180 says.
enum CSVTableReader {
    static func read(_ text: String) throws(TableReadError) -> [ReadLayout] {
        let rows = try records(text)
        guard let header = rows.first else {
            throw TableReadError(message: "the file is empty: expected a table in wfl's json or csv format", line: 1, column: 1)
        }
        // `alpha,zoom` end the rows when some element has one that is not 1.
        // `translateX,translateY,rotate` end them when some element uses a translate or rotate.
        var head = header.fields.joined(separator: ",")
        let moves = head.hasSuffix(",translateX,translateY,rotate")
        if moves { head.removeLast(",translateX,translateY,rotate".count) }
        let looks = head == CSVFormat.headerRow + ",alpha,zoom"
        guard looks || head == CSVFormat.headerRow else {
            throw TableReadError(message: "the first row must be '\(CSVFormat.headerRow)', as 'wfl run --format csv' writes it",
                                 line: header.line, column: 1)
        }
        var layouts: [ReadLayout] = []
        for row in rows.dropFirst() {
            let f = row.fields
            let count = (looks ? 11 : 9) + (moves ? 3 : 0)
            guard f.count == count else {
                throw TableReadError(message: "a row must have \(count) fields, this one has \(f.count)", line: row.line, column: 1)
            }
            func number(_ k: Int) throws(TableReadError) -> Double {
                guard let d = Double(f[k]), d.isFinite else {
                    throw TableReadError(message: "'\(f[k])' in column '\(k < columns.count ? columns[k] : "")' is not a number", line: row.line, column: row.columns[k])
                }
                return d
            }
            func whole(_ k: Int) throws(TableReadError) -> Int {
                guard let n = TableReader.whole(try number(k)) else {
                    throw TableReadError(message: "'\(f[k])' in column '\(columns[k])' is not a whole number", line: row.line, column: row.columns[k])
                }
                return n
            }
            let item: Int? = f[2].isEmpty ? nil : try whole(2)
            var element = ReadElement(kind: TableReader.normalKind(f[3].isEmpty ? nil : f[3]), section: try whole(1), item: item,
                                      frame: Frame(x: try number(4), y: try number(5), width: try number(6), height: try number(7)),
                                      zIndex: f[8].isEmpty ? nil : try whole(8), line: row.line)
            if looks {
                element.alpha = try number(9)
                element.zoom = try number(10)
            }
            if moves {
                let k = looks ? 11 : 9
                element.translateX = try number(k)
                element.translateY = try number(k + 1)
                element.rotate = try number(k + 2)
            }
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

    static let columns = (CSVFormat.headerRow + ",alpha,zoom").split(separator: ",").map(String.init)

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
