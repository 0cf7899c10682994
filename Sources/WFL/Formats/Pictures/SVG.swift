/// The `svg` format (docs/usage.md): each layout as a picture, side by side in one SVG 1.1 document. The
/// content area at the container's width, every drawn element a box in its kind's colour with its
/// label, the viewport at the offset as a dashed outline, and the content's end marked.
public enum SVGFormat {
    /// Above this many elements (without a rect) a picture draws only the first screenfuls.
    public static let defaultLimit = 5000

    /// One SVG document holding a picture of each table at `offset`; with `rect`, only the elements
    /// overlapping it, drawn within it.
    public static func format(_ tables: [AttributeTable], offset: Offset = .zero, rect: Frame? = nil,
                              limit: Int = defaultLimit) -> String {
        let pictures = layoutPictures(tables, offset: offset, rect: rect, limit: limit)
        let width = pictures.last.map { $0.left + $0.blockWidth + SVGPicture.gap } ?? 2 * SVGPicture.gap
        let height = (pictures.map(\.blockHeight).max() ?? 0) + 2 * SVGPicture.gap
        let w = SVGPicture.pixels(width), h = SVGPicture.pixels(height)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(w)\" height=\"\(h)\""
        out += " viewBox=\"0 0 \(w) \(h)\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n"
        out += "<title>\(PictureText.escape("wfl: " + tables.map(\.name).joined(separator: ", ")))</title>\n"
        out += "<style type=\"text/css\"><![CDATA[\n\(SVGPicture.css)]]></style>\n"
        out += "<rect class=\"page\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\"/>\n"
        for p in pictures {
            out += p.open()
            out += p.decorations()
            out += p.boxes()
            out += p.overlays()
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// The pictures of `tables`, placed left to right.
    static func layoutPictures(_ tables: [AttributeTable], offset: Offset, rect: Frame?, limit: Int) -> [SVGPicture] {
        var left = SVGPicture.gap
        var out: [SVGPicture] = []
        for (k, t) in tables.enumerated() {
            let p = SVGPicture(scope: PictureScope(t, offset: offset, rect: rect, limit: limit), number: k, left: left)
            left += p.blockWidth + 2 * SVGPicture.gap
            out.append(p)
        }
        return out
    }
}

/// The picture of one layout, in pixels: the layout's region scaled by `scale` into an area below a
/// title, with margins for the markers.
struct SVGPicture {
    static let gap = 20.0
    /// Room for the title, subtitle and legend above the area, and for the width dimension.
    static let top = 74.0
    /// Room beside the area (vertical layouts) or below it (horizontal) for the markers, at least.
    static let margin = 130.0
    static let css = """
        .page { fill: #ffffff; }
        .title { font-size: 14px; font-weight: bold; fill: #1d1d1f; }
        .sub, .note, .mark { font-size: 11px; fill: #444444; }
        .note { fill: #b3261e; }
        .content { fill: #f3f3f5; stroke: #9a9aa0; stroke-width: 1; }
        .cell { fill: #dbe8fb; stroke: #3a6fb0; stroke-width: 1; }
        .header { fill: #fde2c4; stroke: #c46a12; stroke-width: 1; }
        .footer { fill: #d3efd9; stroke: #2f8a4a; stroke-width: 1; }
        .label { fill: #1d1d1f; text-anchor: middle; }
        .small { font-size: 8px; }
        .viewport { fill: none; stroke: #d0342c; stroke-width: 2; stroke-dasharray: 6 4; }
        .vplabel { font-size: 11px; fill: #d0342c; }
        .dim { stroke: #444444; stroke-width: 1; fill: none; }
        .end { stroke: #7a3fb0; stroke-width: 1.5; stroke-dasharray: 4 3; fill: none; }
        .endlabel { font-size: 11px; fill: #7a3fb0; }

        """

    let scope: PictureScope
    /// The layout's position among the pictures (for ids).
    let number: Int
    /// Where the block starts, in pixels from the page's left edge.
    let left: Double
    /// Pixels per point: 1, unless the cross axis would be narrower than 200 px or wider than 800.
    let scale: Double

    init(scope: PictureScope, number: Int, left: Double) {
        self.scope = scope
        self.number = number
        self.left = left
        let t = scope.table
        let cross = scope.isRect ? (t.direction == .vertical ? scope.region.width : scope.region.height)
            : (t.direction == .vertical ? t.containerWidth : t.containerHeight)
        scale = Swift.min(cross > 800 ? 800 / cross : (cross < 200 && cross > 0 ? 200 / cross : 1), SVGPicture.maximumScale)
    }

    /// The most pixels per point: a rect a few subnormals across is drawn at this scale, not an
    /// infinite one.
    static let maximumScale = 1e6
    /// The farthest a coordinate is written from the page's origin, in pixels. A region of at most
    /// `PictureScope.maximumExtent` points at `maximumScale` lies well within it; only things far
    /// outside the clipped area (the content's box when a rect near 1.7e308 is drawn) reach it,
    /// and are written there rather than as infinities.
    static let farthest = 1e307

    /// `v` as a transform's matrix writes it: 4 decimals, `-0` as `0`, at most `farthest` from 0
    /// (a zoom of 1e308 about a centre 100 px from the origin moves it by -Infinity).
    static func matrixNumber(_ v: Double) -> String {
        PictureText.rounded(v == 0 ? 0 : near(v), 4)
    }

    /// `v` as a picture writes a pixel value: at most `farthest` from 0, rounded to 2 decimals.
    static func pixels(_ v: Double) -> String {
        PictureText.rounded(near(v), 2)
    }

    /// `v` within `farthest` of 0; NaN as 0.
    static func near(_ v: Double) -> Double {
        v.isNaN ? 0 : Swift.min(Swift.max(v, -farthest), farthest)
    }

    var vertical: Bool { scope.table.direction == .vertical }
    var areaWidth: Double { Swift.max(scope.region.width * scale, 1) }
    var areaHeight: Double { Swift.max(scope.region.height * scale, 1) }
    /// The notes below the area: what was left out.
    var noteLines: [String] {
        var out: [String] = []
        if scope.isRect {
            let r = scope.region
            let f = NumberFormat.forPeople
            out.append("only the rect \(f(r.x)),\(f(r.y)),\(f(r.width)),\(f(r.height)): \(scope.indices.count) of \(scope.total) elements")
        } else if let cut = scope.cutoff {
            let axis = vertical ? "y" : "x"
            out.append("\(scope.indices.count) of \(scope.total) elements drawn: those starting before \(axis) = \(NumberFormat.forPeople(cut));")
            out.append("\(scope.omitted) left out (use --rect to draw another part)")
        }
        return out
    }
    var blockWidth: Double {
        let titleWidth = Double(titleText.count) * 8.5
        return Swift.max(areaWidth + (vertical ? marginWidth : 20), titleWidth, legendWidth)
    }
    /// The room beside a vertical picture: `margin`, or what its longest text needs (they start 14
    /// px past the area; about 6.2 px a character at 11 px, more than most of Helvetica's).
    var marginWidth: Double {
        let t = scope.table, f = NumberFormat.forPeople
        let texts = ["content height \(f(t.contentHeight))", "viewport at \(offsetText)"] + scope.bandsPastTheEdge.map { shelfLabel($0.band) }
        let longest = texts.map { Double($0.count) }.max() ?? 0
        return Swift.max(SVGPicture.margin, 14 + longest * 6.2 + 4)
    }
    /// What a shelf whose band reaches past the container says beside it.
    func shelfLabel(_ band: Shelf.Band) -> String {
        "shelf \(band.section): \(NumberFormat.forPeople(band.width)) wide, scrolls sideways"
    }
    var blockHeight: Double {
        SVGPicture.top + areaHeight + (vertical ? 24 : 60) + Double(noteLines.count) * 15
    }
    var legendWidth: Double { Swift.max(260, legend.reduce(0) { $0 + $1.step }) }

    /// The legend: a swatch and the label of each kind, backgrounds and attached views only when
    /// the picture has some; each entry's width (80 px, or what a longer word needs).
    var legend: [(word: String, swatch: String, step: Double)] {
        var entries = [("cell s.i", "fill=\"#dbe8fb\" stroke=\"#3a6fb0\""), ("header s", "fill=\"#fde2c4\" stroke=\"#c46a12\""),
                       ("footer s", "fill=\"#d3efd9\" stroke=\"#2f8a4a\"")]
        let els = scope.table.elements
        if els.contains(where: { $0.kind == .background }) { entries.append(("background s", "style=\"\(SVGPicture.backgroundStyle)\"")) }
        if els.contains(where: { $0.kind == .attached }) { entries.append(("attached s.i", "style=\"\(SVGPicture.attachedStyle)\"")) }
        return entries.map { ($0.0, $0.1, Swift.max(80, 16 + Double($0.0.count) * 6.2 + 12)) }
    }

    var titleText: String {
        let t = scope.table
        return "\(t.name) · \(t.style.rawValue) \(t.direction.rawValue)"
    }
    var subtitleText: String {
        let t = scope.table, f = NumberFormat.forPeople
        return "container \(f(t.containerWidth)) x \(f(t.containerHeight)) · content \(f(t.contentWidth)) x \(f(t.contentHeight))"
            + " · offset \(offsetText)"
    }

    var offsetText: String { "\(NumberFormat.forPeople(scope.viewport.x)),\(NumberFormat.forPeople(scope.viewport.y))" }
    /// The offset in a text, marked for the HTML page's script to update.
    var offsetSpan: String { "<tspan class=\"off\">\(offsetText)</tspan>" }

    /// Page x of layout x.
    func px(_ x: Double) -> Double { left + (x - scope.region.x) * scale }
    /// Page y of layout y.
    func py(_ y: Double) -> Double { SVGPicture.gap + SVGPicture.top + (y - scope.region.y) * scale }
    func n(_ v: Double) -> String { SVGPicture.pixels(v) }

    /// The block's group, title lines, legend and clip path.
    func open() -> String {
        var out = "<g id=\"layout-\(number)\">\n"
        let y0 = SVGPicture.gap
        out += "<text class=\"title\" x=\"\(n(left))\" y=\"\(n(y0 + 14))\">\(PictureText.escape(titleText))</text>\n"
        let sub = PictureText.escape(String(subtitleText.dropLast(offsetText.count))) + offsetSpan
        out += "<text class=\"sub\" x=\"\(n(left))\" y=\"\(n(y0 + 30))\">\(sub)</text>\n"
        // The legend: a swatch and a word for each kind.
        var x = left
        for (word, swatch, step) in legend {
            out += "<rect class=\"swatch\" \(swatch) x=\"\(n(x))\" y=\"\(n(y0 + 37))\" width=\"12\" height=\"10\"/>"
            out += "<text class=\"sub\" x=\"\(n(x + 16))\" y=\"\(n(y0 + 46))\">\(word)</text>\n"
            x += step
        }
        out += "<clipPath id=\"clip-\(number)\"><rect x=\"\(n(px(scope.region.x)))\" y=\"\(n(py(scope.region.y)))\""
        out += " width=\"\(n(areaWidth))\" height=\"\(n(areaHeight))\"/></clipPath>\n"
        return out
    }

    /// The content area, the container's width as a dimension line, the content's end.
    func decorations() -> String {
        let t = scope.table
        var out = ""
        let content = Frame(x: 0, y: 0, width: t.contentWidth, height: t.contentHeight)
        out += "<g clip-path=\"url(#clip-\(number))\">"
        out += "<rect class=\"content\" x=\"\(n(px(content.x)))\" y=\"\(n(py(content.y)))\" width=\"\(n(content.width * scale))\" height=\"\(n(content.height * scale))\"/>"
        out += "</g>\n"
        // The container's width, above the area: |-- width 375 --|.
        let y = SVGPicture.gap + SVGPicture.top - 9
        let x0 = px(scope.viewport.x), x1 = px(scope.viewport.x + t.containerWidth)
        out += "<g class=\"dimw\"><path class=\"dim\" d=\"M\(n(x0)) \(n(y - 4))V\(n(y + 4))M\(n(x0)) \(n(y))H\(n(x1))M\(n(x1)) \(n(y - 4))V\(n(y + 4))\"/>"
        out += "<text class=\"mark\" x=\"\(n((x0 + x1) / 2))\" y=\"\(n(y - 4))\" text-anchor=\"middle\">container width \(NumberFormat.forPeople(t.containerWidth))</text></g>\n"
        return out
    }

    /// One box per drawn element, lowest z-index first (table order among equals), each with its
    /// label where it fits and a tooltip.
    func boxes() -> String {
        let els = scope.table.elements
        let order = els.indices.sorted { (els[$0].zIndex, $0) < (els[$1].zIndex, $1) }
        var out = "<g clip-path=\"url(#clip-\(number))\">\n"
        out.reserveCapacity(els.count * 200)
        let f = NumberFormat.forPeople
        for j in order {
            let e = els[j]
            let label = e.kind == .attached ? "\(scope.table.kindName(of: e)) \(e.section).\(e.item ?? 0)" : PictureText.label(e)
            // zoom: a box scaled about the frame's centre; alpha: the box's opacity.
            let zoom = scope.table.zoom(of: j), alpha = scope.table.alpha(of: j)
            // translate and rotate: the frame's rect drawn through the transform's matrix (the
            // zoom in it), in the picture's coordinates: the same turn and zoom, the move scaled.
            let tr = scope.table.transform(of: j)
            let shown = zoom == 1 || !tr.isIdentity ? e.frame : e.frame.scaled(zoom)
            let x = px(shown.x), y = py(shown.y), w = shown.width * scale, h = shown.height * scale
            var matrix = ""
            if !tr.isIdentity {
                let m = Transform(tx: tr.tx * scale, ty: tr.ty * scale, rotate: tr.rotate)
                    .matrix(frame: Frame(x: x, y: y, width: w, height: h), zoom: zoom)
                matrix = " transform=\"matrix(\([m.a, m.b, m.c, m.d, m.e, m.f].map { SVGPicture.matrixNumber($0) }.joined(separator: " ")))\""
            }
            // A background is styled in place, so that the shared style sheet (and every picture
            // without one) stays as it was.
            let style = e.kind == .background ? " style=\"\(SVGPicture.backgroundStyle)\"" : e.kind == .attached ? " style=\"\(SVGPicture.attachedStyle)\"" : ""
            out += alpha == 1 ? "<g>" : "<g opacity=\"\(PictureText.rounded(alpha, 3))\">"
            out += "<rect class=\"\(e.kind.rawValue)\"\(style) id=\"e\(number)-\(scope.indices[j])\" x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(Swift.max(w, 0)))\" height=\"\(n(Swift.max(h, 0)))\"\(matrix)/>"
            let looks = (alpha == 1 ? "" : ", alpha \(f(alpha))") + (zoom == 1 ? "" : ", zoom \(f(zoom))")
                + (tr.tx == 0 && tr.ty == 0 ? "" : ", translate \(f(tr.tx)) x \(f(tr.ty))") + (tr.rotate == 0 ? "" : ", rotate \(f(tr.rotate))")
            out += "<title>\(label): \(f(e.frame.x)), \(f(e.frame.y)), \(f(e.frame.width)) x \(f(e.frame.height)), z \(e.zIndex)\(looks)</title>"
            if let size = SVGPicture.labelSize(label, width: w, height: h) {
                let small = size < 11 ? " small" : ""
                out += "<text class=\"label\(small)\" x=\"\(n(x + w / 2))\" y=\"\(n(y + h / 2 + size * 0.35))\"\(matrix)>\(label)</text>"
            }
            out += "</g>\n"
        }
        out += "</g>\n"
        return out
    }

    /// How a section background is drawn: a light grey box behind the cells.
    static let backgroundStyle = "fill: #e9e4f5; stroke: #7a68a8; stroke-width: 1; stroke-dasharray: 3 2"

    /// How an attached view is drawn: a box above its cell.
    static let attachedStyle = "fill: #f9d7e3; stroke: #b0245a; stroke-width: 1"

    /// The font size a label fits at in a box of `width` x `height` pixels: 11, 8, or nil.
    static func labelSize(_ label: String, width: Double, height: Double) -> Double? {
        let chars = Double(label.count)
        if width >= chars * 6.4 + 4, height >= 13 { return 11 }
        if width >= chars * 4.7 + 2, height >= 9 { return 8 }
        return nil
    }

    /// The viewport outline, the content's end, and the notes.
    func overlays() -> String {
        let t = scope.table, f = NumberFormat.forPeople
        let v = scope.viewport
        var out = ""
        out += "<g clip-path=\"url(#clip-\(number))\"><rect class=\"viewport\" x=\"\(n(px(v.x) + 1))\" y=\"\(n(py(v.y) + 1))\""
        out += " width=\"\(n(Swift.max(v.width * scale - 2, 0)))\" height=\"\(n(Swift.max(v.height * scale - 2, 0)))\"/></g>\n"
        let right = px(scope.region.maxX), bottom = py(scope.region.maxY)
        if vertical {
            // A dashed line across the area at the content height, and its value in the margin.
            let y = py(t.contentHeight)
            if t.contentHeight >= scope.region.y, t.contentHeight <= scope.region.maxY {
                out += "<path class=\"end\" d=\"M\(n(px(scope.region.x))) \(n(y))H\(n(right + 10))\"/>"
                out += "<text class=\"endlabel\" x=\"\(n(right + 14))\" y=\"\(n(y + 4))\">content height \(f(t.contentHeight))</text>\n"
            }
            let vy = Swift.min(Swift.max(v.y, scope.region.y), scope.region.maxY)
            out += "<text class=\"vplabel\" x=\"\(n(right + 14))\" y=\"\(n(py(vy) + 12))\">viewport at \(offsetSpan)</text>\n"
        } else {
            let x = px(t.contentWidth)
            if t.contentWidth >= scope.region.x, t.contentWidth <= scope.region.maxX {
                out += "<path class=\"end\" d=\"M\(n(x)) \(n(py(scope.region.y)))V\(n(bottom + 10))\"/>"
                out += "<text class=\"endlabel\" x=\"\(n(x))\" y=\"\(n(bottom + 36))\" text-anchor=\"end\">content width \(f(t.contentWidth))</text>\n"
            }
            let vx = Swift.min(Swift.max(v.x, scope.region.x), scope.region.maxX)
            out += "<text class=\"vplabel\" x=\"\(n(px(vx)))\" y=\"\(n(bottom + 22))\">viewport at \(offsetSpan)</text>\n"
        }
        // Each shelf band that reaches past the container: its outline (clipped with the
        // picture) and, in the margin, its scrollable width.
        for (band, frame) in scope.bandsPastTheEdge {
            // Styled in place, so that the shared style sheet (and every picture without a
            // shelf) stays as it was.
            out += "<g clip-path=\"url(#clip-\(number))\"><rect class=\"band\" x=\"\(n(px(frame.x)))\" y=\"\(n(py(frame.y)))\""
            out += " width=\"\(n(frame.width * scale))\" height=\"\(n(Swift.max(frame.height * scale, 0)))\""
            out += " fill=\"none\" stroke=\"#2f7f86\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/></g>\n"
            out += "<text fill=\"#2f7f86\" x=\"\(n(right + 14))\" y=\"\(n(py(frame.y + frame.height / 2) + 4))\">\(shelfLabel(band))</text>\n"
        }
        var y = bottom + (vertical ? 18 : 54)
        for line in noteLines {
            out += "<text class=\"note\" x=\"\(n(left))\" y=\"\(n(y))\">\(PictureText.escape(line))</text>\n"
            y += 15
        }
        return out
    }
}
