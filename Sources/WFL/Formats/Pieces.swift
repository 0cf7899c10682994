/// The json, csv and table outputs as an ordered list of pieces, each formatted on its own into
/// bytes: fixed text, or the rows of a range of one table's elements. Concatenated in order they
/// are exactly `JSONFormat.format` / `CSVFormat.format` / `TableFormat.format`; being
/// independent, pieces can be formatted on several threads (the `wfl` command does, on two) and
/// written in large blocks.
package struct OutputPieces {
    enum Piece {
        case text([UInt8])
        case rows(table: Int, Range<Int>)
    }
    enum Kind { case json, csv, table }

    let tables: [AttributeTable]
    let pieces: [Piece]
    let kind: Kind
    /// csv: each table's name as a field, then a comma.
    let csvNames: [[UInt8]]
    /// table: each table's column widths (`TableFormat.widths`).
    let columnWidths: [[Int]]
    /// The attached views' names of table `t` as this format writes them (json: escaped for a
    /// string; csv: a field; table: escaped for a terminal).
    func kindTexts(_ t: Int) -> [[UInt8]] {
        let names = tables[t].attachedNames
        if names.isEmpty { return [] }
        switch kind {
        case .json: return names.map { Array(JSONFormat.quote($0).utf8.dropFirst().dropLast()) }
        case .csv: return names.map { Array(CSVFormat.field($0).utf8) }
        case .table: return names.map { Array(TerminalText.escaped($0).utf8) }
        }
    }

    /// csv: true when the rows end with `alpha,zoom` (some element of the output has one not 1).
    var csvAlphaZoom: Bool { kind == .csv && tables.contains { $0.hasAlphaOrZoom } }
    /// Motion: the csv rows end with translateX,translateY,rotate.
    var csvTransform: Bool { kind == .csv && tables.contains { $0.hasTransform } }

    /// How many pieces there are.
    package var count: Int { pieces.count }

    /// Appends piece `k` to `w`.
    package func write(_ k: Int, into w: inout ByteWriter) {
        switch pieces[k] {
        case .text(let bytes):
            w.append(contentsOf: bytes)
        case .rows(let t, let range):
            let table = tables[t]
            let elements = table.elements
            let names = kindTexts(t)
            switch kind {
            case .json:
                if table.hasTransform || !(table.sizing?.estimated.isEmpty ?? true) {
                    for j in range {
                        JSONFormat.row(elements[j], first: j == 0, into: &w, alpha: table.alpha(of: j), zoom: table.zoom(of: j), names: names,
                                       transform: table.transform(of: j), estimated: table.sizing?.isEstimated(j) ?? false)
                    }
                } else if table.hasAlphaOrZoom {
                    for j in range { JSONFormat.row(elements[j], first: j == 0, into: &w, alpha: table.alpha(of: j), zoom: table.zoom(of: j), names: names) }
                } else {
                    for j in range { JSONFormat.row(elements[j], first: j == 0, into: &w, names: names) }
                }
            case .csv:
                if csvTransform {
                    for j in range {
                        CSVFormat.row(elements[j], name: csvNames[t], into: &w, alpha: csvAlphaZoom ? table.alpha(of: j) : nil, zoom: table.zoom(of: j),
                                      names: names, transform: table.transform(of: j))
                    }
                } else if csvAlphaZoom {
                    for j in range { CSVFormat.row(elements[j], name: csvNames[t], into: &w, alpha: table.alpha(of: j), zoom: table.zoom(of: j), names: names) }
                } else {
                    for j in range { CSVFormat.row(elements[j], name: csvNames[t], into: &w, names: names) }
                }
            case .table:
                columnWidths[t].withUnsafeBufferPointer { widths in
                    if table.hasTransform || !(table.sizing?.estimated.isEmpty ?? true) {
                        let az = table.hasAlphaOrZoom, moves = table.hasTransform
                        for j in range {
                            TableFormat.row(elements[j], widths: widths, into: &w, alpha: az ? table.alpha(of: j) : nil, zoom: table.zoom(of: j), names: names,
                                            estimated: table.sizing?.isEstimated(j) ?? false, transform: moves ? table.transform(of: j) : nil)
                        }
                    } else if widths.count > 8 {
                        for j in range { TableFormat.row(elements[j], widths: widths, into: &w, alpha: table.alpha(of: j), zoom: table.zoom(of: j), names: names) }
                    } else {
                        for j in range { TableFormat.row(elements[j], widths: widths, into: &w, names: names) }
                    }
                }
            }
        }
    }

    /// Appends every piece, in order.
    package func writeAll(into w: inout ByteWriter) {
        for k in 0..<count { write(k, into: &w) }
    }

    /// Builds the list: text pieces merged, rows cut every `rowsPerPiece` elements.
    init(_ tables: [AttributeTable], kind: Kind, rowsPerPiece: Int, csvNames: [[UInt8]] = [], columnWidths: [[Int]] = [],
         build: (_ text: (String) -> Void, _ rows: (Int) -> Void) -> Void) {
        var pieces: [Piece] = []
        var pending: [UInt8] = []
        func flush() {
            if !pending.isEmpty { pieces.append(.text(pending)) }
            pending = []
        }
        build({ pending.append(contentsOf: $0.utf8) }, { t in
            let n = tables[t].elements.count
            var start = 0
            while start < n {
                flush()
                let end = Swift.min(n, start + Swift.max(1, rowsPerPiece))
                pieces.append(.rows(table: t, start..<end))
                start = end
            }
        })
        flush()
        self.tables = tables
        self.pieces = pieces
        self.kind = kind
        self.csvNames = csvNames
        self.columnWidths = columnWidths
    }
}

extension JSONFormat {
    /// The json output in pieces (`OutputPieces`).
    package static func pieces(_ tables: [AttributeTable], rowsPerPiece: Int = 32768) -> OutputPieces {
        let f = NumberFormat.format
        return OutputPieces(tables, kind: .json, rowsPerPiece: rowsPerPiece) { text, rows in
            text("{\n  \"layouts\": [")
            for (k, t) in tables.enumerated() {
                text(k == 0 ? "\n" : ",\n")
                text("    {\n")
                text("      \"name\": \(quote(t.name)),\n")
                text("      \"style\": \(quote(t.style.rawValue)),\n")
                text("      \"direction\": \(quote(t.direction.rawValue)),\n")
                text("      \"container\": [\(f(t.containerWidth)), \(f(t.containerHeight))],\n")
                text("      \"contentSize\": [\(f(t.contentWidth)), \(f(t.contentHeight))],\n")
                if let sizing = t.sizing {
                    // `--phase` and `--scroll` (Engines/SelfSizing.swift).
                    let st = sizing.state
                    text("      \"offset\": [\(f(st.offset.x)), \(f(st.offset.y))],\n")
                    text("      \"contentOffsetAdjustment\": [\(f(st.offsetAdjustment.x)), \(f(st.offsetAdjustment.y))],\n")
                    text("      \"contentSizeAdjustment\": [\(f(st.sizeAdjustment.width)), \(f(st.sizeAdjustment.height))],\n")
                }
                text("      \"elements\": [")
                rows(k)
                text(t.elements.isEmpty ? "]\n" : "\n      ]\n")
                text("    }")
            }
            text(tables.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        }
    }

    /// One element's line, after its separator from the one before.
    @inline(__always)
    static func row(_ e: Element, first: Bool, into w: inout ByteWriter, alpha: Double = 1, zoom: Double = 1, names: [[UInt8]] = [],
                    transform t: Transform = .identity, estimated: Bool = false) {
        w.append(first ? "\n        {\"kind\": \"" : ",\n        {\"kind\": \"" as StaticString)
        switch e.kind {
        case .cell: w.append("cell")
        case .header: w.append("header")
        case .footer: w.append("footer")
        case .background: w.append("background")
        case .attached: w.append(contentsOf: names[e.attachedIndex!])
        }
        w.append("\", \"section\": ")
        w.append(e.section)
        w.append(", \"item\": ")
        if let item = e.item { w.append(item) } else { w.append("null") }
        w.append(", \"frame\": [")
        w.append(frame: e.frame, separator: ", ")
        w.append("], \"zIndex\": ")
        w.append(e.zIndex)
        // alpha and zoom only where not exactly 1 (absent means 1).
        if alpha != 1 {
            w.append(", \"alpha\": ")
            w.append(number: alpha)
        }
        if zoom != 1 {
            w.append(", \"zoom\": ")
            w.append(number: zoom)
        }
        // translate and rotate only where used (absent: unused).
        if t.tx != 0 || t.ty != 0 {
            w.append(", \"translate\": [")
            w.append(number: Transform.unsigned(t.tx))
            w.append(", ")
            w.append(number: Transform.unsigned(t.ty))
            w.append("]")
        }
        if t.rotate != 0 {
            w.append(", \"rotate\": ")
            w.append(number: t.rotate)
        }
        // A self-sizing cell still at its estimate (absent when measured).
        if estimated { w.append(", \"estimated\": true") }
        w.append("}")
    }
}

extension CSVFormat {
    /// The csv output in pieces (`OutputPieces`).
    package static func pieces(_ tables: [AttributeTable], rowsPerPiece: Int = 32768) -> OutputPieces {
        OutputPieces(tables, kind: .csv, rowsPerPiece: rowsPerPiece, csvNames: tables.map { Array((field($0.name) + ",").utf8) }) { text, rows in
            text(headerRow + (tables.contains { $0.hasAlphaOrZoom } ? ",alpha,zoom" : "")
                 + (tables.contains { $0.hasTransform } ? ",translateX,translateY,rotate\n" : "\n"))
            for k in tables.indices { rows(k) }
        }
    }

    @inline(__always)
    static func row(_ e: Element, name: [UInt8], into w: inout ByteWriter, alpha: Double? = nil, zoom: Double = 1, names: [[UInt8]] = [],
                    transform t: Transform? = nil) {
        w.append(contentsOf: name)
        w.append(e.section)
        w.append(UInt8(44)) // ","
        if let item = e.item { w.append(item) }
        switch e.kind {
        case .cell: w.append(",cell,")
        case .header: w.append(",header,")
        case .footer: w.append(",footer,")
        case .background: w.append(",background,")
        case .attached:
            w.append(UInt8(44)) // ","
            w.append(contentsOf: names[e.attachedIndex!])
            w.append(UInt8(44)) // ","
        }
        w.append(number: e.frame.x)
        w.append(UInt8(44)) // ","
        w.append(number: e.frame.y)
        w.append(UInt8(44)) // ","
        w.append(number: e.frame.width)
        w.append(UInt8(44)) // ","
        w.append(number: e.frame.height)
        w.append(UInt8(44)) // ","
        w.append(e.zIndex)
        if let alpha {
            w.append(UInt8(44)) // ","
            w.append(number: alpha)
            w.append(UInt8(44)) // ","
            w.append(number: zoom)
        }
        if let t {
            for v in t.cells {
                w.append(UInt8(44)) // ","
                w.append(number: v)
            }
        }
        w.append(UInt8(10)) // "\n"
    }
}

extension TableFormat {
    /// The table output in pieces (`OutputPieces`): the column widths come from a first pass over
    /// the numbers, so rows can be written independently.
    package static func pieces(_ tables: [AttributeTable], rowsPerPiece: Int = 32768) -> OutputPieces {
        let widths = tables.map(TableFormat.widths)
        return OutputPieces(tables, kind: .table, rowsPerPiece: rowsPerPiece, columnWidths: widths) { text, rows in
            for (k, t) in tables.enumerated() {
                if k > 0 { text("\n") }
                text(title(t))
                var line = ""
                let names = headers(t)
                for (c, h) in names.enumerated() {
                    line += h
                    if c < names.count - 1 { line += String(repeating: " ", count: widths[k][c] - h.count + 2) }
                }
                text(line + "\n")
                rows(k)
            }
        }
    }

    /// One element's row: cells padded to their column's width plus two spaces, the last not.
    /// The row is laid out in a small buffer, spaces first and each cell at its column's start
    /// (the widths are at least each cell's length), then appended at once.
    @inline(__always)
    static func row(_ e: Element, widths: UnsafeBufferPointer<Int>, into w: inout ByteWriter, alpha: Double? = nil, zoom: Double = 1,
                    names: [[UInt8]] = [], estimated: Bool = false, transform: Transform? = nil) {
        // Where the z column starts: the seven columns before it and their two spaces each. A
        // cell is at most 24 bytes (a whole number 20, a double "-1.7976931348623157e+308"), so
        // the row fits in 512.
        var zStart = 14
        for k in 0..<7 { zStart += widths[k] }
        // A long attached view's name makes the row longer than 512.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512 + (names.isEmpty ? 0 : widths[2])) { (buffer: UnsafeMutableBufferPointer<UInt8>) -> Void in
            let p: UnsafeMutablePointer<UInt8> = buffer.baseAddress!
            p.initialize(repeating: UInt8(32), count: zStart)
            var at: Int = widths[0] + 2
            _ = ByteWriter.put(e.section, at: p)
            if let item = e.item { _ = ByteWriter.put(item, at: p.advanced(by: at)) } else { p[at] = UInt8(45) } // "-"
            at += widths[1] + 2
            let kind: StaticString
            switch e.kind {
            case .cell: kind = "cell"
            case .header: kind = "header"
            case .footer: kind = "footer"
            case .background: kind = "background"
            case .attached: kind = ""
            }
            if let k = e.attachedIndex {
                // A name, cut to the buffer (the column is as wide as the longest).
                let name = names[k]
                for (q, b) in name.prefix(400).enumerated() { p[at + q] = b }
            } else {
                _ = ByteWriter.put(kind, at: p.advanced(by: at))
            }
            at += widths[2] + 2
            _ = ByteWriter.put(rounded: e.frame.x, at: p.advanced(by: at))
            at += widths[3] + 2
            _ = ByteWriter.put(rounded: e.frame.y, at: p.advanced(by: at))
            at += widths[4] + 2
            _ = ByteWriter.put(rounded: e.frame.width, at: p.advanced(by: at))
            at += widths[5] + 2
            _ = ByteWriter.put(rounded: e.frame.height, at: p.advanced(by: at))
            var end: Int = zStart + ByteWriter.put(e.zIndex, at: p.advanced(by: zStart))
            if let alpha {
                // The alpha and zoom columns: z padded to its width and two spaces first.
                let alphaStart = zStart + widths[7] + 2
                for k in end..<alphaStart { p[k] = UInt8(32) }
                let zoomStart = alphaStart + widths[8] + 2
                let alphaEnd = alphaStart + ByteWriter.put(rounded: alpha, at: p.advanced(by: alphaStart))
                for k in alphaEnd..<zoomStart { p[k] = UInt8(32) }
                end = zoomStart + ByteWriter.put(rounded: zoom, at: p.advanced(by: zoomStart))
            }
            if let transform {
                // The transform columns: the last column padded to its width and two spaces first.
                var c = alpha == nil ? 7 : 9
                var start = zStart
                if alpha != nil { start += widths[7] + 2 + widths[8] + 2 }
                for v in transform.cells {
                    let next = start + widths[c] + 2
                    for k in end..<next { p[k] = UInt8(32) }
                    c += 1
                    start = next
                    end = start + ByteWriter.put(rounded: v, at: p.advanced(by: start))
                }
            }
            // A cell still at its estimate: "  estimated" after the last column.
            if estimated { end += ByteWriter.put("  estimated", at: p.advanced(by: end)) }
            p[end] = UInt8(10) // "\n"
            w.append(buffer: UnsafeBufferPointer<UInt8>(start: p, count: end + 1))
        }
    }
}
