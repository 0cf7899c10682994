/// What the pictures (`svg`, `html`, `ascii`) share: which elements a picture draws, the region it
/// shows, labels, and escaping for markup.

/// The part of a layout one picture draws: the frames at the offset, cut to a rect or to the first
/// screenfuls when the layout is too large to draw whole.
package struct PictureScope: Sendable {
    /// The table at the offset holding only the drawn elements, in table order.
    package var table: AttributeTable
    /// For each drawn element, its index in the full table.
    package var indices: [Int]
    /// The region the picture shows, in layout coordinates.
    package var region: Frame
    /// The viewport at the offset: the container's size at the scroll offset.
    package var viewport: Frame
    /// The number of elements of the whole layout.
    package var total: Int
    /// Set when the layout was cut to its first screenfuls: where the drawing stops along the
    /// scroll axis.
    package var cutoff: Double?
    /// True when only a rect (`--rect`) is drawn.
    package var isRect: Bool

    /// Elements of the layout that the picture leaves out.
    package var omitted: Int { total - indices.count }

    /// The elements `table` draws at `offset`: those overlapping `rect` when one is given; otherwise
    /// all of them, or, above `limit` elements, those that start within the first whole screenfuls
    /// along the scroll axis (at least the first `limit` by their start).
    package init(_ t: AttributeTable, offset: Offset, rect: Frame?, limit: Int) {
        total = t.elements.count
        viewport = Frame(x: offset.x, y: offset.y, width: t.containerWidth, height: t.containerHeight)
        isRect = rect != nil
        cutoff = nil
        if let rect {
            let r = rect.normalised
            indices = t.query(r, at: offset)
            table = t.only(indices, at: offset)
            region = PictureScope.drawable(r)
            return
        }
        var at = t.at(offset)
        let vertical = t.direction == .vertical
        if at.elements.count > limit, limit >= 0 {
            // Where each element starts along the scroll axis; keep those before the cut.
            let starts = at.elements.map { vertical ? $0.frame.y : $0.frame.x }
            let sorted = starts.sorted()
            let firstLeftOut = sorted[limit]
            let screen = vertical ? t.containerHeight : t.containerWidth
            var cut = firstLeftOut
            if screen > 0, (firstLeftOut / screen).rounded(.down) >= 1 {
                cut = (firstLeftOut / screen).rounded(.down) * screen
            }
            var kept: [Int] = []
            for (j, s) in starts.enumerated() where s < cut { kept.append(j) }
            indices = kept
            at = t.only(kept, at: offset)
            cutoff = cut
        } else {
            indices = Array(at.elements.indices)
        }
        table = at
        // The content and the container at rest, the viewport, and every drawn frame.
        var r = Frame(x: 0, y: 0, width: Swift.max(t.contentWidth, t.containerWidth), height: Swift.max(t.contentHeight, t.containerHeight))
        if let cut = cutoff {
            if vertical { r.height = cut } else { r.width = cut }
        } else {
            // A viewport scrolled past the doubles' reach (--offset 1e308,0) stays out of the
            // picture; its label still says where it is.
            let withViewport = r.union(viewport)
            if withViewport.width <= PictureScope.maximumExtent, withViewport.height <= PictureScope.maximumExtent { r = withViewport }
        }
        for e in at.elements { r = r.union(e.frame) }
        r = PictureScope.drawable(r)
        // A shelf's band reaches past the container's edge: the picture shows half a container
        // of it past the content's width and clips the rest (its whole width is written beside it).
        if vertical, t.scroll.shelves.contains(where: { $0.width > Swift.max(t.containerWidth, t.contentWidth) }) {
            let limit = Swift.max(t.containerWidth, t.contentWidth) * 1.5
            if t.scroll.rightToLeft {
                if r.x < Swift.min(0, -limit + Swift.max(t.containerWidth, t.contentWidth)) {
                    let x0 = -limit + Swift.max(t.containerWidth, t.contentWidth)
                    r.width = r.maxX - x0
                    r.x = x0
                }
            } else if r.maxX > limit {
                r.width = limit - r.x
            }
        }
        region = r
    }

    /// The widest and tallest region a picture shows, in points: scaled by at most
    /// `SVGPicture.maximumScale`, it stays a finite number of pixels with room to spare.
    package static let maximumExtent = 1e300

    /// `r` cut to `maximumExtent` across and down (from its top left corner), so that its far
    /// edges and its size are finite.
    static func drawable(_ r: Frame) -> Frame {
        var r = r
        if !(r.width <= maximumExtent) { r.width = maximumExtent }
        if !(r.height <= maximumExtent) { r.height = maximumExtent }
        return r
    }

    /// The shelves whose bands reach past the container, with the band's outline at rest: x from
    /// the section's left edge to the band's width (mirrored right to left), y over its rows.
    package var bandsPastTheEdge: [(band: Shelf.Band, frame: Frame)] {
        let t = table
        return t.scroll.shelves.compactMap { b in
            guard b.width > t.containerWidth else { return nil }
            let x = t.scroll.rightToLeft ? t.containerWidth - b.width : 0
            return (b, Frame(x: x, y: b.top, width: b.width, height: b.bottom - b.top))
        }
    }
}

extension Frame {
    /// The frame scaled by `z` about its centre, as `CGAffineTransform(scaleX: z, y: z)` shows it.
    package func scaled(_ z: Double) -> Frame {
        let cx = x + width / 2, cy = y + height / 2
        return Frame(x: cx - width * z / 2, y: cy - height * z / 2, width: width * z, height: height * z)
    }

    /// The smallest frame holding both (sizes assumed non-negative).
    func union(_ b: Frame) -> Frame {
        let b = b.normalised
        let x0 = Swift.min(x, b.x), y0 = Swift.min(y, b.y)
        return Frame(x: x0, y: y0, width: Swift.max(maxX, b.maxX) - x0, height: Swift.max(maxY, b.maxY) - y0)
    }
}

/// Labels and text helpers of the pictures.
package enum PictureText {
    /// An element's label: `s.i` for a cell, `header s` or `footer s`.
    package static func label(_ e: Element) -> String {
        switch e.kind {
        case .cell: return "\(e.section).\(e.item ?? 0)"
        case .header: return "header \(e.section)"
        case .footer: return "footer \(e.section)"
        case .background: return "background \(e.section)"
        case .attached: return "\(e.section).\(e.item ?? 0)+"
        }
    }

    /// Text escaped for XML and HTML content and attribute values.
    package static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters other than tab and newline are not allowed in XML 1.0.
                if c.value < 0x20 && c != "\t" && c != "\n" { out += "\u{FFFD}" } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// A number rounded to `places` decimals, printed as NumberFormat prints numbers. From 2^52
    /// on a double has no fraction to round, and `v * scale` could overflow to infinity: such a
    /// number is printed as it is.
    package static func rounded(_ v: Double, _ places: Int = 2) -> String {
        guard Swift.abs(v) < 0x1p52 else { return NumberFormat.format(v) }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return NumberFormat.format((v * scale).rounded() / scale)
    }
}
