/// The `ascii` format (docs/usage.md) and the REPL's `:show`: the viewport at the offset drawn with
/// box-drawing characters, scaled to a given number of columns. The library knows nothing of
/// terminals: the caller passes the width (the executable: the terminal's, or 80).
public enum ASCIIPicture {
    /// Columns when the caller has no terminal to measure.
    public static let defaultColumns = 80
    /// The narrowest picture drawn; a smaller width is raised to this.
    package static let minimumColumns = 20
    /// The most rows a picture takes; taller viewports are cut here, with a note.
    package static let maximumRows = 400
    /// The most characters per point a picture uses (a rect narrower than a millionth of a point
    /// is drawn at this scale).
    package static let maximumScale = 1e6

    /// The pictures of several layouts, separated by a blank line: each viewport at `offset`, or
    /// the rect when one is given.
    public static func format(_ tables: [AttributeTable], offset: Offset = .zero, rect: Frame? = nil,
                              columns: Int = defaultColumns, rows: Int? = nil) -> String {
        tables.map { draw($0, offset: offset, rect: rect, columns: columns, rows: rows) }.joined(separator: "\n")
    }

    /// One layout's picture, `columns` characters wide (the frame included): a title line, the
    /// viewport at `offset` (or `rect`) in a frame, every element in it a box labelled `s.i`,
    /// `header s` or `footer s` where the label fits, and a line saying how many elements it holds.
    /// A terminal cell is taken to be twice as tall as it is wide. With `rows`, the picture takes at
    /// most that many lines of a terminal `columns` wide (title and counts included, wrapped; the
    /// frame at least 4 lines inside): a taller one is drawn narrower.
    package static func draw(_ table: AttributeTable, offset: Offset = .zero, rect: Frame? = nil,
                            columns: Int = defaultColumns, rows: Int? = nil) -> String {
        let f = NumberFormat.forPeople
        let cols = Swift.max(columns, minimumColumns)
        let region = rect?.normalised ?? Frame(x: offset.x, y: offset.y, width: table.containerWidth, height: table.containerHeight)
        var innerWidth = cols - 2
        // Characters per point across, and down (half as many: cells are tall).
        // Clamped: a region a few subnormals wide would give infinite scales, and a row count
        // that no Int holds.
        var sx = region.width > 0 ? Swift.min(Double(innerWidth) / region.width, maximumScale) : 1
        var sy = sx / 2
        let what = rect == nil ? "viewport at \(f(offset.x)),\(f(offset.y))" : "rect \(f(region.x)),\(f(region.y)),\(f(region.width)),\(f(region.height))"
        var out = "\(TerminalText.escaped(table.name))  \(table.style.rawValue) \(table.direction.rawValue)  \(what)"
            + "  \(f(region.width)) x \(f(region.height))  content \(f(table.contentWidth)) x \(f(table.contentHeight))\n"
        if let rows {
            // The frame's edges, and the title and the counts as the terminal wraps them (the
            // counts line about 60 characters).
            let wrapped = { (n: Int) in (n + cols - 1) / cols }
            let inside = Swift.max(rows - 2 - wrapped(out.count - 1) - wrapped(60), 4)
            if region.height * sy > Double(inside) {
                sy = Swift.min(Double(inside) / region.height, maximumScale)
                sx = sy * 2
                innerWidth = Swift.min(innerWidth, Swift.max(2, Int((region.width * sx).rounded())))
            }
        }
        // Compared as a double first: a tall region at a large scale holds more rows than an Int.
        let rowsWanted = (region.height * sy).rounded()
        var innerHeight = rowsWanted > Double(maximumRows) ? maximumRows + 1 : Swift.max(1, Int(rowsWanted))
        var cut = false
        if innerHeight > maximumRows {
            innerHeight = maximumRows
            cut = true
        }

        var canvas = Canvas(width: innerWidth, height: innerHeight)
        let indices = table.query(region, at: offset)
        // The drawn elements at the offset, attributes included: a zoom draws the box scaled about
        // its centre, a translate or rotate the upright box around the scaled, turned and moved
        // frame (UIKit's `frame` of the attributes; characters cannot turn), and the z-index is
        // the one the rules give there.
        let shown = table.only(indices, at: offset)
        let drawn = shown.elements.indices.map { k in
            let f = shown.elements[k].frame, z = shown.zoom(of: k), t = shown.transform(of: k)
            return (k, !t.isIdentity ? t.bounds(of: f, zoom: z) : z == 1 ? f : f.scaled(z))
        }.sorted { (shown.elements[$0.0].zIndex, $0.0) < (shown.elements[$1.0].zIndex, $1.0) }
        for (j, frame) in drawn {
            // Columns and rows of the box's edges, unclipped; at least two apart so a box has an inside
            // edge on each side.
            // Clamped first: a frame far outside must not overflow Int.
            // NaN (an infinite distance times a zero scale) draws nothing.
            func at(_ v: Double) -> Int { v.isNaN ? -1_000_000 : Int(Swift.min(Swift.max(v, -1e6), 1e6).rounded()) }
            let c0 = at((frame.x - region.x) * sx)
            var c1 = at((frame.maxX - region.x) * sx) - 1
            let r0 = at((frame.y - region.y) * sy)
            var r1 = at((frame.maxY - region.y) * sy) - 1
            if c1 < c0 + 1 { c1 = c0 + 1 }
            if r1 < r0 + 1 { r1 = r0 + 1 }
            canvas.box(c0, r0, c1, r1, label: PictureText.label(shown.elements[j]), z: shown.elements[j].zIndex)
        }
        out += "┌" + String(repeating: "─", count: innerWidth) + "┐\n"
        for row in canvas.lines() { out += "│" + row + "│\n" }
        out += "└" + String(repeating: "─", count: innerWidth) + "┘\n"
        let scale = PictureText.rounded(1 / sx, 2)
        out += "\(indices.count) of \(table.elements.count) elements; 1 column = \(scale) pt, 1 row = \(PictureText.rounded(1 / sy, 2)) pt"
        if cut { out += "; cut at \(maximumRows) rows" }
        out += "\n"
        // Shelves in view whose bands reach past the container's edge: the picture clips them
        // there, and says how wide they scroll.
        for b in table.scroll.shelves where b.width > table.containerWidth && b.bottom > region.y && b.top < region.maxY {
            out += "shelf \(b.section): band \(f(b.width)) wide, clipped at the container's \(table.scroll.rightToLeft ? "left" : "right") edge (scrolls sideways)\n"
        }
        return out
    }
}

/// A grid of characters where boxes are drawn in z order: edges of boxes at the same z-index merge
/// where they meet (├ ┬ ┼ ...); a box hides what is inside it, and its edges hide those of boxes
/// with a lower z-index (a pinned header over the cells).
struct Canvas {
    let width: Int, height: Int
    /// Edge bits per character: 1 up, 2 down, 4 left, 8 right.
    var edges: [UInt8]
    /// Text written over the edges (labels), or nil.
    var text: [Character?]
    /// The z-index of the box that drew each character last.
    var level: [Int]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        edges = [UInt8](repeating: 0, count: width * height)
        text = [Character?](repeating: nil, count: width * height)
        level = [Int](repeating: Int.min, count: width * height)
    }

    static let up: UInt8 = 1, down: UInt8 = 2, left: UInt8 = 4, right: UInt8 = 8

    func inside(_ c: Int, _ r: Int) -> Bool { c >= 0 && c < width && r >= 0 && r < height }

    mutating func add(_ c: Int, _ r: Int, _ bits: UInt8, z: Int) {
        guard inside(c, r) else { return }
        let k = r * width + c
        if level[k] < z {
            edges[k] = bits
            level[k] = z
        } else {
            edges[k] |= bits
        }
        text[k] = nil
    }

    /// A box with corners (c0, r0) and (c1, r1), clipped to the canvas, its inside cleared, and its
    /// label on the first inside row when it fits there, or else on the top edge.
    mutating func box(_ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int, label: String, z: Int) {
        // Only the visible part is walked: a huge box costs no more than the canvas.
        let cLo = Swift.max(c0, 0), cHi = Swift.min(c1, width - 1)
        let rLo = Swift.max(r0, 0), rHi = Swift.min(r1, height - 1)
        guard cLo <= cHi, rLo <= rHi else { return }
        // Clear the inside.
        let inC = (Swift.max(c0 + 1, cLo), Swift.min(c1 - 1, cHi)), inR = (Swift.max(r0 + 1, rLo), Swift.min(r1 - 1, rHi))
        if inC.0 <= inC.1, inR.0 <= inR.1 {
            for r in inR.0...inR.1 {
                for c in inC.0...inC.1 {
                    edges[r * width + c] = 0
                    text[r * width + c] = nil
                    level[r * width + c] = z
                }
            }
        }
        for c in cLo...cHi {
            var bits: UInt8 = 0
            if c > c0 { bits |= Canvas.left }
            if c < c1 { bits |= Canvas.right }
            add(c, r0, bits | (c == c0 ? Canvas.down : 0) | (c == c1 ? Canvas.down : 0), z: z)
            add(c, r1, bits | (c == c0 ? Canvas.up : 0) | (c == c1 ? Canvas.up : 0), z: z)
        }
        if inR.0 <= inR.1 {
            for r in inR.0...inR.1 {
                add(c0, r, Canvas.up | Canvas.down, z: z)
                add(c1, r, Canvas.up | Canvas.down, z: z)
            }
        }
        // The label, centred on the first visible inside row (or on the top edge of a box with no
        // inside row), within the visible inside columns; left out when it does not fit.
        let chars = Array(label)
        let room = inC.1 - inC.0 + 1
        guard chars.count <= room else { return }
        let row = r1 - r0 >= 2 ? inR.0 : r0
        guard row >= 0, row < height, r1 - r0 < 2 || inR.0 <= inR.1 else { return }
        let start = inC.0 + (r1 - r0 >= 2 ? (room - chars.count) / 2 : 0)
        for (k, ch) in chars.enumerated() { text[row * width + start + k] = ch }
    }

    /// The rows as strings.
    func lines() -> [String] {
        (0..<height).map { r in
            var s = ""
            for c in 0..<width {
                let k = r * width + c
                if let ch = text[k] { s.append(ch) } else { s += Canvas.glyph(edges[k]) }
            }
            return s
        }
    }

    static func glyph(_ bits: UInt8) -> String {
        switch bits {
        case 0: return " "
        case up, down, up | down: return "│"
        case left, right, left | right: return "─"
        case down | right: return "┌"
        case down | left: return "┐"
        case up | right: return "└"
        case up | left: return "┘"
        case up | down | right: return "├"
        case up | down | left: return "┤"
        case down | left | right: return "┬"
        case up | left | right: return "┴"
        default: return "┼"
        }
    }
}
