/// The `html` format (docs/usage.md): one self-contained page (no external resources, no URLs) with, for
/// each layout, its picture beside its table. Hovering a row highlights its box and the other way
/// round. The page's script draws the boxes from the frames embedded in the page; for a layout whose
/// frames move with the scroll offset (pinned headers, zoomFirst) or whose attribute rules read it,
/// it also holds the frames, z-indexes, alphas and zooms wfl computed at a few dozen offsets across
/// the content, and a slider scrolls through them, drawing the boxes again in the order of their
/// z-indexes at each offset.
///
/// The page's script marks what it built: each layout's `section` gets `data-boxes` (the boxes it
/// drew), `data-offset` (the offset shown) and `data-top` (the element drawn on top); `body` gets
/// `data-ready="yes"`. Opening the page with `#step=K` moves every slider to its K-th offset, as a
/// user would, through the slider's input event (for checks in a headless browser).
public enum HTMLFormat {
    /// The number of intervals between the offsets a slider steps through (49 offsets, plus the
    /// offset asked for when it is not one of them).
    package static let sliderSteps = 48

    /// A slider moving one shelf sideways (docs/layout.md, "Shelf offsets and transforms"): the layout's tables as wfl
    /// computed them with the shelf's own offset at each of `values` (the others as given).
    public struct ShelfSlider: Sendable {
        /// The layout's position among the tables of the page.
        public var layout: Int
        /// The shelf's section.
        public var section: Int
        /// Its offsets, increasing, and the one the page starts at.
        public var values: [Double]
        public var start: Int
        /// The layout's table at each value (before the scroll offset is applied).
        public var tables: [AttributeTable]

        public init(layout: Int, section: Int, values: [Double], start: Int, tables: [AttributeTable]) {
            self.layout = layout
            self.section = section
            self.values = values
            self.start = start
            self.tables = tables
        }
    }

    /// A scroll path played stop by stop (docs/layout.md, "Self-sizing cells"): the layout's table after each stop kept
    /// (`EvaluatedLayout.pathStops`), each carrying its offset, adjustments and estimated cells.
    public struct PathPlayer: Sendable {
        /// The layout's position among the tables of the page.
        public var layout: Int
        /// The tables after the stops kept, their numbers (1: the first display), and how many
        /// stops the path made.
        public var stops: [AttributeTable]
        public var numbers: [Int]
        public var total: Int

        public init(layout: Int, stops: [AttributeTable], numbers: [Int], total: Int) {
            self.layout = layout
            self.stops = stops
            self.numbers = numbers
            self.total = total
        }
    }

    /// Stop `k` of a slider from 0 to `end` in `sliderSteps` steps, a whole point; the last is `end`
    /// itself. Past 1.8e307 `end * k` would overflow to Infinity: such an end is divided first.
    static func sliderStop(_ k: Int, of end: Double) -> Double {
        if k == sliderSteps { return end }
        let scaled = end * Double(k)
        return (scaled.isFinite ? scaled / Double(sliderSteps) : end / Double(sliderSteps) * Double(k)).rounded()
    }

    /// The offsets a shelf slider steps through: from 0 to where the band's end meets the
    /// container's (its scrollable range; `sliderSteps` intervals, whole points), with `given`
    /// among them; nil when the band does not scroll.
    public static func shelfValues(_ band: Double, containerWidth cw: Double, given: Double) -> (values: [Double], start: Int)? {
        let end = band - cw
        guard end > 0, end.isFinite else { return nil }
        var out: [Double] = []
        for k in 0...sliderSteps {
            let v = sliderStop(k, of: end)
            if out.last != v { out.append(v) }
        }
        if !out.contains(given) { out.insert(given, at: out.firstIndex { $0 > given } ?? out.count) }
        return (out, out.firstIndex(of: given)!)
    }

    /// The page for `tables` at `offset` (the slider starts there); with `rect`, only the elements
    /// overlapping the rect at that offset; `shelves`: a slider for each, beside its layout's.
    public static func format(_ tables: [AttributeTable], offset: Offset = .zero, rect: Frame? = nil,
                              limit: Int = SVGFormat.defaultLimit, shelves: [ShelfSlider] = [], paths: [PathPlayer] = []) -> String {
        let names = tables.map(\.name).joined(separator: ", ")
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"generator\" content=\"wfl\">\n"
        out += "<title>\(PictureText.escape("wfl: " + names))</title>\n<style>\n\(css)\(SVGPicture.css)</style>\n</head>\n"
        out += "<body data-layouts=\"\(tables.count)\">\n"
        out += "<noscript><p class=\"warn\">The boxes are drawn by the page's script: allow scripts to see them.</p></noscript>\n"
        for (k, t) in tables.enumerated() {
            if let pp = paths.first(where: { $0.layout == k && !$0.stops.isEmpty && $0.stops.count == $0.numbers.count }) {
                out += pathSection(pp, rect: rect, limit: limit, number: k)
                continue
            }
            let scope = PictureScope(t, offset: offset, rect: rect, limit: limit)
            out += section(t, scope, number: k, offset: offset, shelves: shelves.filter { $0.layout == k && $0.tables.count == $0.values.count })
        }
        out += "<script>\n\(script)</script>\n</body>\n</html>\n"
        return out
    }

    /// The page with a device picker: each device's tables, computed on that device, in a block of
    /// its own; a `<select>` shows one block at a time, the first at first (docs/usage.md,
    /// "Pictures"). Each table is shown at its own initial offset unless `offset` is given.
    public static func format(devices: [(name: String, tables: [AttributeTable])], offset: Offset? = nil, rect: Frame? = nil,
                              limit: Int = SVGFormat.defaultLimit) -> String {
        let names = (devices.first?.tables ?? []).map(\.name).joined(separator: ", ")
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"generator\" content=\"wfl\">\n"
        out += "<title>\(PictureText.escape("wfl: " + names))</title>\n<style>\n\(css)\(SVGPicture.css)</style>\n</head>\n"
        out += "<body data-layouts=\"\(devices.first?.tables.count ?? 0)\" data-devices=\"\(devices.count)\">\n"
        out += "<noscript><p class=\"warn\">The boxes are drawn by the page's script: allow scripts to see them.</p></noscript>\n"
        out += "<p class=\"devices\"><label>device <select class=\"device-picker\">"
        for (k, d) in devices.enumerated() {
            out += "<option value=\"\(k)\"\(k == 0 ? " selected" : "")>\(PictureText.escape(d.name))</option>"
        }
        out += "</select></label></p>\n"
        var number = 0
        for (k, d) in devices.enumerated() {
            out += "<div class=\"device\" data-device=\"\(PictureText.escape(d.name))\"\(k == 0 ? "" : " hidden")>\n"
            for t in d.tables {
                let o = offset ?? t.initialOffset
                out += section(t, PictureScope(t, offset: o, rect: rect, limit: limit), number: number, offset: o)
                number += 1
            }
            out += "</div>\n"
        }
        out += "<script>\n(function () {\n  var picker = document.querySelector('.device-picker');\n"
        out += "  var blocks = document.querySelectorAll('div.device');\n"
        out += "  picker.addEventListener('change', function () {\n"
        out += "    for (var k = 0; k < blocks.length; k++) { blocks[k].hidden = String(k) !== picker.value; }\n"
        out += "    document.body.setAttribute('data-device', picker.options[picker.selectedIndex].text);\n  });\n})();\n"
        out += "\(script)</script>\n</body>\n</html>\n"
        return out
    }

    /// One layout: heading, slider, picture, table, and its data.
    /// A layout's scroll path: the picture and table of its last stop, a slider over its stops
    /// (each stop's frames, viewport, estimated cells dashed, and adjustments, which are also
    /// written beside the viewport), the region wide enough for every stop's frames and content.
    static func pathSection(_ pp: PathPlayer, rect: Frame?, limit: Int, number k: Int) -> String {
        let last = pp.stops[pp.stops.count - 1]
        let offsetAt = { (t: AttributeTable) in t.sizing?.state.offset ?? t.initialOffset }
        var scope = PictureScope(last, offset: offsetAt(last), rect: rect, limit: limit)
        if rect == nil, scope.cutoff == nil {
            for t in pp.stops {
                scope.region = scope.region.union(Frame(x: 0, y: 0, width: t.contentWidth, height: t.contentHeight))
                scope.region = scope.region.union(Frame(x: offsetAt(t).x, y: offsetAt(t).y, width: t.containerWidth, height: t.containerHeight))
                for e in t.elements { scope.region = scope.region.union(e.frame) }
            }
            // Frames 1.7e308 apart hold a region no double measures: cut as every picture's is.
            scope.region = PictureScope.drawable(scope.region)
        }
        return section(last, scope, number: k, offset: offsetAt(last), path: pp)
    }

    static func section(_ t: AttributeTable, _ scope: PictureScope, number k: Int, offset: Offset, shelves: [ShelfSlider] = [],
                        path: PathPlayer? = nil) -> String {
        let f = NumberFormat.forPeople
        let picture = SVGPicture(scope: scope, number: k, left: SVGPicture.gap)
        // A path's adjustments are written beside the viewport: room for them.
        let width = picture.blockWidth + 2 * SVGPicture.gap + (path == nil ? 0 : 60)
        let height = picture.blockHeight + 2 * SVGPicture.gap + (path == nil || picture.vertical ? 0 : 16)
        let offsets = path.map { $0.stops.map { $0.sizing?.state.offset ?? $0.initialOffset } } ?? sliderOffsets(t, offset)
        let n = picture.n
        var out = "<section class=\"layout\" id=\"layout-section-\(k)\" data-elements=\"\(scope.indices.count)\">\n"
        out += "<h2>\(PictureText.escape(t.name))</h2>\n"
        if let path {
            let st = t.sizing?.state ?? PathState(offset: offset)
            out += "<p class=\"slider path-slider\"><label>stop <input type=\"range\" min=\"0\" max=\"\(path.stops.count - 1)\" value=\"\(path.stops.count - 1)\"></label>"
            out += " <output>\(f(offset.x)),\(f(offset.y))</output>"
            out += " <span class=\"adjust\">\(adjustText(st))</span>"
            out += " <span class=\"hint stopno\">stop \(path.numbers.last!) of \(path.total)</span>"
            out += " <span class=\"hint\">(the first display is stop 1\(path.stops.count < path.total ? "; \(path.stops.count) of the stops kept" : ""); cells at their estimates dashed)</span></p>\n"
        } else if offsets.count > 1 {
            let start = offsets.firstIndex(of: offset) ?? 0
            let axis = t.direction == .vertical ? "y" : "x"
            out += "<p class=\"slider\"><label>scroll offset \(axis) <input type=\"range\" min=\"0\" max=\"\(offsets.count - 1)\" value=\"\(start)\"></label>"
            out += " <output>\(f(offset.x)),\(f(offset.y))</output>"
            out += " <span class=\"hint\">the frames wfl computed at \(offsets.count) offsets from 0 to \(f(t.direction == .vertical ? offsets.last!.y : offsets.last!.x))</span></p>\n"
        }
        for sl in shelves {
            out += "<p class=\"shelf-slider\" data-section=\"\(sl.section)\"><label>shelf \(sl.section) sideways sx <input type=\"range\" min=\"0\" max=\"\(sl.values.count - 1)\" value=\"\(sl.start)\"></label>"
            out += " <output>\(f(sl.values[sl.start]))</output>"
            out += " <span class=\"hint\">as wfl run --shelf \(sl.section)=X gives it, at \(sl.values.count) offsets from 0 to \(f(sl.values.last!)), the scroll offset at \(f(offset.x)),\(f(offset.y))</span></p>\n"
        }
        out += "<div class=\"row\">\n<div class=\"pic\">\n"
        out += "<svg width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n"
        out += picture.open()
        out += picture.decorations()
        out += "<g class=\"boxes\" clip-path=\"url(#clip-\(k))\"></g>\n"
        out += groupOutlines(scope, picture)
        out += picture.overlays()
        if let path {
            // The adjustments of the stop shown, beside the viewport's label (moved with it).
            let st = t.sizing?.state ?? PathState(offset: offset)
            let v = scope.viewport, n = picture.n
            let (x, y) = picture.vertical
                ? (picture.px(scope.region.maxX) + 14, picture.py(Swift.min(Swift.max(v.y, scope.region.y), scope.region.maxY)) + 26)
                : (picture.px(Swift.min(Swift.max(v.x, scope.region.x), scope.region.maxX)), picture.py(scope.region.maxY) + 50)
            out += "<text class=\"adjustlabel\" fill=\"#d0342c\" font-size=\"11\" x=\"\(n(x))\" y=\"\(n(y))\" data-stops=\"\(path.total)\">"
            out += "<tspan class=\"adj1\">offset adjusted \(f(st.offsetAdjustment.x)), \(f(st.offsetAdjustment.y))</tspan>"
            out += "<tspan class=\"adj2\" x=\"\(n(x))\" dy=\"14\">size adjusted \(f(st.sizeAdjustment.width)), \(f(st.sizeAdjustment.height))</tspan></text>\n"
        }
        out += "</g>\n</svg>\n</div>\n"
        var (json, looks, moves) = data(t, scope, picture, offsets, offset, shelves: shelves, path: path)
        if let path { json = String(json.dropLast()) + ", " + pathData(path, scope) + "}" }
        // The table: the drawn elements in table order; `alpha` and `zoom` after `z`, as the
        // `table` format adds them, when some element has one that is not 1 at some offset the
        // page shows, and `translateX translateY rotate` after them when some element uses one
        // (the script fills them in as the slider moves).
        let t0 = scope.table
        out += "<div class=\"tbl\">\n<table>\n<thead><tr><th>section</th><th>item</th><th>kind</th><th>x</th><th>y</th><th>width</th><th>height</th><th>z</th>"
        out += looks ? "<th>alpha</th><th>zoom</th>" : ""
        out += moves ? "<th>translateX</th><th>translateY</th><th>rotate</th>" : ""
        out += path != nil ? "<th>estimated</th></tr></thead>\n<tbody>\n" : "</tr></thead>\n<tbody>\n"
        for (j, e) in t0.elements.enumerated() {
            out += "<tr data-j=\"\(j)\" class=\"\(e.kind.rawValue)-row\"><td>\(e.section)</td><td>\(e.item.map(String.init) ?? "-")</td><td>\(PictureText.escape(t0.kindName(of: e)))</td>"
            out += "<td>\(f(e.frame.x))</td><td>\(f(e.frame.y))</td><td>\(f(e.frame.width))</td><td>\(f(e.frame.height))</td><td>\(e.zIndex)</td>"
            out += looks ? "<td>\(f(t0.alpha(of: j)))</td><td>\(f(t0.zoom(of: j)))</td>" : ""
            if moves {
                let m = t0.transform(of: j)
                out += "<td>\(f(m.tx))</td><td>\(f(m.ty))</td><td>\(f(m.rotate))</td>"
            }
            if path != nil { out += "<td>\(t0.sizing?.isEstimated(j) ?? false ? "estimated" : "")</td>" }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table>\n</div>\n</div>\n"
        out += "<script type=\"application/json\" class=\"data\">\(json)</script>\n"
        out += "</section>\n"
        return out
    }

    /// The most group outlines one picture draws.
    package static let outlineLimit = 20_000

    /// The group instances of the groups sections and shelves of groups (docs/layout.md,
    /// "Groups"), outlined faintly above the boxes so that a reader sees the tree: each instance
    /// of the top group dashed, its nested groups dotted and fainter (depth-first, as the leaves
    /// are numbered). As the boxes: those starting before the picture's cut, with `--rect` those
    /// reaching into it, clipped with the picture; at most `outlineLimit` outlines; each section's in a group of its own, which the
    /// script moves with a shelf's own offset. Empty without groups.
    static func groupOutlines(_ scope: PictureScope, _ p: SVGPicture) -> String {
        let groups = scope.table.scroll.groups
        guard !groups.isEmpty else { return "" }
        let vertical = scope.table.direction == .vertical
        let region = scope.region
        var out = "<g class=\"groups\" clip-path=\"url(#clip-\(p.number))\" fill=\"none\" pointer-events=\"none\">\n"
        var drawn = 0
        for g in groups where !g.outlines.isEmpty {
            out += "<g class=\"group-outlines\" data-section=\"\(g.section)\">"
            for i in 0..<g.count where drawn < outlineLimit {
                let top = g.frame(0, of: i)
                if let cut = scope.cutoff, (vertical ? top.y : top.x) >= cut { break }
                if scope.isRect, !(top.maxX >= region.x && top.x <= region.maxX && top.maxY >= region.y && top.y <= region.maxY) { continue }
                for k in g.outlines.indices where drawn < outlineLimit {
                    let f = g.frame(k, of: i)
                    let look = k == 0 ? "stroke=\"#55555f\" stroke-opacity=\"0.6\" stroke-dasharray=\"5 3\"" : "stroke=\"#55555f\" stroke-opacity=\"0.4\" stroke-dasharray=\"1.5 2\""
                    out += "<rect class=\"group\" data-depth=\"\(k == 0 ? 0 : 1)\" data-instance=\"\(i)\" x=\"\(p.n(p.px(f.x)))\" y=\"\(p.n(p.py(f.y)))\" width=\"\(p.n(Swift.max(f.width * p.scale, 0)))\" height=\"\(p.n(Swift.max(f.height * p.scale, 0)))\" \(look)/>"
                    drawn += 1
                }
            }
            out += "</g>\n"
        }
        out += "</g>\n"
        return out
    }

    /// The offsets a slider steps through: evenly spaced (rounded to whole points) from 0 to where
    /// the viewport reaches the end of the content along the scroll axis (the cross-axis part of `offset` kept), with
    /// `offset` itself among them. A single offset when the frames do not move or the content fits.
    static func sliderOffsets(_ t: AttributeTable, _ offset: Offset) -> [Offset] {
        // Frames that move, or attribute rules, which may read the offset.
        guard t.movesWithOffset || t.rules.attributes != nil else { return [offset] }
        let vertical = t.direction == .vertical
        let end = vertical ? t.contentHeight - t.containerHeight : t.contentWidth - t.containerWidth
        guard end > 0, end.isFinite else { return [offset] }
        var out: [Offset] = []
        for k in 0...sliderSteps {
            // Whole points, for offsets that read well; the last one is the end itself.
            let v = sliderStop(k, of: end)
            let o = vertical ? Offset(x: offset.x, y: v) : Offset(x: v, y: offset.y)
            if out.last != o { out.append(o) }
        }
        if !out.contains(offset) {
            let along = vertical ? offset.y : offset.x
            let at = out.firstIndex { (vertical ? $0.y : $0.x) > along } ?? out.count
            out.insert(offset, at: at)
        }
        return out
    }

    /// The layout's data for the script, as JSON: how layout points map to the picture's pixels,
    /// the drawn elements, their frames and z-indexes at the first offset and, for each offset, the
    /// frames and z-indexes that differ from those and the alphas and zooms that are not 1. Also
    /// whether some element has an alpha or a zoom that is not 1 at some offset, and whether some
    /// element uses a translate or a rotate at some offset (their values, exact, are then in
    /// `moves`: for each offset, j, X, Y, rotate and the zoom, exact, of each element that uses one).
    static func data(_ t: AttributeTable, _ scope: PictureScope, _ p: SVGPicture, _ offsets: [Offset], _ offset: Offset,
                     shelves: [ShelfSlider] = [], path: PathPlayer? = nil) -> (String, Bool, Bool) {
        // The mapping to pixels exact; the frames and offsets, which the script shows as text,
        // rounded for people as the rest of the page.
        let f = NumberFormat.format, g = NumberFormat.forPeople
        let els = scope.table.elements
        var out = "{\"vertical\": \(t.direction == .vertical), \"container\": [\(f(t.containerWidth)), \(f(t.containerHeight))], "
        out += "\"map\": [\(f(scope.region.x)), \(f(scope.region.y)), \(f(p.scale)), \(f(p.px(scope.region.x))), \(f(p.py(scope.region.y)))], "
        out += "\"region\": [\(f(scope.region.x)), \(f(scope.region.y)), \(f(scope.region.width)), \(f(scope.region.height))], "
        out += "\"right\": \(f(p.px(scope.region.maxX))), \"bottom\": \(f(p.py(scope.region.maxY))), "
        out += "\"kinds\": \"" + String(els.map { e -> Character in e.kind == .cell ? "c" : (e.kind == .header ? "h" : e.kind == .footer ? "f" : e.kind == .background ? "b" : "a") }) + "\", "
        if !t.attachedNames.isEmpty {
            out += "\"names\": [" + els.map { e in JSONFormat.quote(e.kind == .attached ? scope.table.kindName(of: e) : "") }.joined(separator: ",") + "], "
        }
        out += "\"sections\": [" + els.map { String($0.section) }.joined(separator: ",") + "], "
        out += "\"items\": [" + els.map { String($0.item ?? -1) }.joined(separator: ",") + "], "
        out += "\"z\": [" + els.map { String($0.zIndex) }.joined(separator: ",") + "], "
        let base = els.map(\.frame)
        out += "\"base\": [" + base.map { "\(g($0.x)),\(g($0.y)),\(g($0.width)),\(g($0.height))" }.joined(separator: ",") + "], "
        out += "\"offsets\": [" + offsets.map { "[\(g($0.x)),\(g($0.y))]" }.joined(separator: ",") + "], "
        out += "\"start\": \(path.map { $0.stops.count - 1 } ?? offsets.firstIndex(of: offset) ?? 0), "
        let tables = path.map { pp in zip(pp.stops, offsets).map { $0.only(scope.indices, at: $1) } }
            ?? offsets.map { o in o == offset ? scope.table : t.only(scope.indices, at: o) }
        let (tail, anyLooks, anyMoves) = series(tables, scope.table)
        var looks = anyLooks, moves = anyMoves
        // One more slider per shelf whose band scrolls: the tables wfl computed at its offsets.
        if !shelves.isEmpty {
            var parts: [String] = []
            for sl in shelves {
                let (json, l, m) = series(sl.tables.map { $0.only(scope.indices, at: offset) }, scope.table)
                looks = looks || l
                moves = moves || m
                parts.append("{\"section\": \(sl.section), \"values\": [" + sl.values.map(g).joined(separator: ",") + "], \"start\": \(sl.start), " + json + "}")
            }
            out += "\"rtl\": \(t.scroll.rightToLeft), \"shelves\": [" + parts.joined(separator: ",\n") + "], "
        }
        out += tail + "}"
        return (out, looks, moves)
    }

    /// "contentOffsetAdjustment X, Y · contentSizeAdjustment W, H" of a stop.
    static func adjustText(_ st: PathState) -> String {
        let f = NumberFormat.forPeople
        return "contentOffsetAdjustment \(f(st.offsetAdjustment.x)), \(f(st.offsetAdjustment.y)) · contentSizeAdjustment \(f(st.sizeAdjustment.width)), \(f(st.sizeAdjustment.height))"
    }

    /// A path's members of the page's data: `path`, for each stop kept its number, the
    /// adjustments (`adjust`: X, Y, W, H), the content size, and the drawn elements at their
    /// estimates (`estimated`: their j); and the number of stops.
    static func pathData(_ pp: PathPlayer, _ scope: PictureScope) -> String {
        let g = NumberFormat.forPeople
        var adjust: [String] = [], contents: [String] = [], estimated: [String] = []
        for t in pp.stops {
            let st = t.sizing?.state ?? PathState(offset: t.initialOffset)
            adjust.append("[\(g(st.offsetAdjustment.x)),\(g(st.offsetAdjustment.y)),\(g(st.sizeAdjustment.width)),\(g(st.sizeAdjustment.height))]")
            contents.append("[\(g(t.contentWidth)),\(g(t.contentHeight))]")
            var js: [String] = []
            if let sizing = t.sizing { for (j, i) in scope.indices.enumerated() where sizing.isEstimated(i) { js.append(String(j)) } }
            estimated.append("[" + js.joined(separator: ",") + "]")
        }
        return "\"path\": {\"numbers\": [" + pp.numbers.map(String.init).joined(separator: ",") + "], \"total\": \(pp.total), "
            + "\"adjust\": [" + adjust.joined(separator: ",") + "], \"contents\": [" + contents.joined(separator: ",") + "], "
            + "\"estimated\": [" + estimated.joined(separator: ",\n") + "]}"
    }

    /// What the script draws at each step of a slider, from the tables wfl computed there (the
    /// drawn elements of `first`, in its order), as JSON members: `diffs`, for each step j, x, y,
    /// w, h of each element whose frame differs from `first`'s; `looks`, j, alpha, zoom of each
    /// element whose alpha or zoom is not 1 (only when some step has one); `moves`, j, X, Y,
    /// rotate and the zoom, exact, of each element that uses a translate or rotate (only when some
    /// step has one); `zs`, j, z of each element whose z-index differs from `first`'s (only when
    /// some step changes one). Also whether `looks` and `moves` are there.
    static func series(_ tables: [AttributeTable], _ first: AttributeTable) -> (String, Bool, Bool) {
        let f = NumberFormat.format, g = NumberFormat.forPeople
        let els = first.elements
        var diffs: [String] = [], looks: [String] = [], zs: [String] = [], moves: [String] = []
        var anyLooks = false, anyZ = false, anyMoves = false
        for moved in tables {
            var parts: [String] = []
            for (j, e) in moved.elements.enumerated() where e.frame != els[j].frame {
                parts.append("\(j),\(g(e.frame.x)),\(g(e.frame.y)),\(g(e.frame.width)),\(g(e.frame.height))")
            }
            diffs.append("[" + parts.joined(separator: ",") + "]")
            var look: [String] = []
            if moved.hasAlphaOrZoom {
                anyLooks = true
                for j in moved.elements.indices where moved.alpha(of: j) != 1 || moved.zoom(of: j) != 1 {
                    look.append("\(j),\(g(moved.alpha(of: j))),\(g(moved.zoom(of: j)))")
                }
            }
            looks.append("[" + look.joined(separator: ",") + "]")
            var z: [String] = []
            for (j, e) in moved.elements.enumerated() where e.zIndex != els[j].zIndex { z.append("\(j),\(e.zIndex)") }
            if !z.isEmpty { anyZ = true }
            zs.append("[" + z.joined(separator: ",") + "]")
            var move: [String] = []
            if moved.hasTransform {
                for j in moved.elements.indices {
                    let m = moved.transform(of: j)
                    if !m.isIdentity { move.append("\(j),\(f(m.tx)),\(f(m.ty)),\(f(m.rotate)),\(f(moved.zoom(of: j)))") }
                }
                if !move.isEmpty { anyMoves = true }
            }
            moves.append("[" + move.joined(separator: ",") + "]")
        }
        var out = ""
        if anyLooks { out += "\"looks\": [" + looks.joined(separator: ",\n") + "], " }
        if anyMoves { out += "\"moves\": [" + moves.joined(separator: ",\n") + "], " }
        if anyZ { out += "\"zs\": [" + zs.joined(separator: ",\n") + "], " }
        out += "\"diffs\": [" + diffs.joined(separator: ",\n") + "]"
        return (out, anyLooks, anyMoves)
    }

    static let css = """
        body { font-family: Helvetica, Arial, sans-serif; margin: 16px 24px; color: #1d1d1f; background: #ffffff; }
        h2 { margin: 18px 0 6px; font-size: 18px; }
        .warn { color: #b3261e; }
        .row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
        .pic { flex: none; max-height: 88vh; overflow: auto; border: 1px solid #e2e2e6; }
        .tbl { flex: 1 1 320px; max-width: max-content; max-height: 88vh; overflow: auto; border: 1px solid #e2e2e6; }
        table { border-collapse: collapse; font: 12px Menlo, Consolas, monospace; }
        th, td { padding: 2px 8px; text-align: right; white-space: nowrap; }
        th { position: sticky; top: 0; background: #f3f3f5; }
        td:nth-child(3) { text-align: left; }
        tr.header-row td:nth-child(3) { color: #c46a12; }
        tr.footer-row td:nth-child(3) { color: #2f8a4a; }
        tbody tr:hover, tr.hl { background: #fff1a8; }
        rect.hl { fill: #ffe45c; stroke: #1d1d1f; stroke-width: 2; }
        .slider input { width: 360px; vertical-align: middle; }
        .slider output { font: 13px Menlo, Consolas, monospace; display: inline-block; min-width: 110px; }
        .hint { color: #777777; font-size: 12px; }

        """

    /// The page's script: no comments in the line style and no URLs, so the page holds no `//`.
    static let script = """
        (function () {
          'use strict';
          var total = 0;
          var wanted = null;
          var m = /step=([0-9]+)/.exec(location.hash);
          if (m) { wanted = parseInt(m[1], 10); }
          var shelfWanted = null;
          var ms = /shelf=([0-9]+)/.exec(location.hash);
          if (ms) { shelfWanted = parseInt(ms[1], 10); }
          function fits(label, w, h) {
            if (w >= label.length * 6.4 + 4 && h >= 13) { return 11; }
            if (w >= label.length * 4.7 + 2 && h >= 9) { return 8; }
            return 0;
          }
          function round2(v) { return Math.round(v * 100) / 100; }
          function people(v) { var r = Math.round(v * 1000) / 1000; return String(r === 0 ? 0 : r); }
          function round4(v) { var r = Math.round(v * 10000) / 10000; return String(r === 0 ? 0 : r); }
          function matrix(X, Y, W, H, z, m, s) {
            var deg = m[2], t = deg * Math.PI / 180;
            var cs = deg === 90 || deg === -90 ? 0 : (deg === 180 ? -1 : Math.cos(t));
            var sn = deg === 180 ? 0 : (deg === 90 ? 1 : (deg === -90 ? -1 : Math.sin(t)));
            var a = z * cs, b = z * sn, c = -z * sn, dd = z * cs;
            var cx = X + W / 2, cy = Y + H / 2;
            var e = cx + m[0] * s - a * cx - c * cy;
            var f = cy + m[1] * s - b * cx - dd * cy;
            return 'matrix(' + [a, b, c, dd, e, f].map(round4).join(' ') + ')';
          }
          function reveal(box, el) {
            var b = box.getBoundingClientRect(), e = el.getBoundingClientRect();
            if (e.top < b.top + 24 || e.bottom > b.bottom) { box.scrollTop += e.top - b.top - b.height / 3; }
            if (e.left < b.left || e.right > b.right) { box.scrollLeft += e.left - b.left - b.width / 3; }
          }
          function setup(sec) {
            var d = JSON.parse(sec.querySelector('script.data').textContent);
            var svg = sec.querySelector('svg');
            var ns = svg.namespaceURI;
            var layer = sec.querySelector('g.boxes');
            var rows = sec.querySelectorAll('tbody tr');
            var n = d.kinds.length;
            var rects = [], texts = [], titles = [], groups = [];
            var kindName = { c: 'cell', h: 'header', f: 'footer', b: 'background', a: 'attached' };
            var order = [];
            for (var j = 0; j < n; j++) { order.push(j); }
            order.sort(function (a, b) { return d.z[a] - d.z[b] || a - b; });
            var drawn = order.join(',');
            order.forEach(function (j) {
              var g = document.createElementNS(ns, 'g');
              var r = document.createElementNS(ns, 'rect');
              r.setAttribute('class', kindName[d.kinds[j]] + ' box');
              if (d.kinds[j] === 'b') { r.setAttribute('style', '\(SVGPicture.backgroundStyle)'); }
              if (d.kinds[j] === 'a') { r.setAttribute('style', '\(SVGPicture.attachedStyle)'); }
              r.setAttribute('data-j', String(j));
              var t = document.createElementNS(ns, 'text');
              t.setAttribute('class', 'label');
              t.setAttribute('data-j', String(j));
              var title = document.createElementNS(ns, 'title');
              g.appendChild(r); g.appendChild(t); g.appendChild(title);
              layer.appendChild(g);
              rects[j] = r; texts[j] = t; titles[j] = title; groups[j] = g;
            });
            function restack(zs) {
              var o = order.slice();
              o.sort(function (a, b) { return zs[a] - zs[b] || a - b; });
              var key = o.join(',');
              if (key === drawn) { return; }
              drawn = key;
              o.forEach(function (j) { layer.appendChild(groups[j]); });
              sec.setAttribute('data-top', String(o[o.length - 1]));
            }
            function label(j) {
              var k = d.kinds[j];
              if (k === 'c') { return d.sections[j] + '.' + d.items[j]; }
              if (k === 'a') { return d.names[j] + ' ' + d.sections[j] + '.' + d.items[j]; }
              return (k === 'h' ? 'header ' : k === 'f' ? 'footer ' : 'background ') + d.sections[j];
            }
            var px = function (x) { return d.map[3] + (x - d.map[0]) * d.map[2]; };
            var py = function (y) { return d.map[4] + (y - d.map[1]) * d.map[2]; };
            var s = d.map[2];
            var vp = sec.querySelector('rect.viewport');
            var vpl = sec.querySelector('text.vplabel');
            var offs = sec.querySelectorAll('tspan.off');
            var out = sec.querySelector('.slider output');
            var dim = sec.querySelector('g.dimw');
            var heads = Array.prototype.map.call(sec.querySelectorAll('thead th'), function (th) { return th.textContent; });
            var ca = heads.indexOf('alpha'), ct = heads.indexOf('translateX');
            var shelves = d.shelves || [];
            var restacks = !!d.zs || shelves.some(function (x) { return !!x.zs; });
            var outlines = sec.querySelectorAll('g.group-outlines');
            function show(step, ser, o) {
              ser = ser || d;
              var fr = d.base.slice();
              var diff = ser.diffs[step];
              for (var q = 0; q < diff.length; q += 5) {
                var b = diff[q] * 4;
                fr[b] = diff[q + 1]; fr[b + 1] = diff[q + 2]; fr[b + 2] = diff[q + 3]; fr[b + 3] = diff[q + 4];
              }
              var alpha = {}, zoom = {};
              if (ser.looks) {
                var look = ser.looks[step];
                for (var q = 0; q < look.length; q += 3) { alpha[look[q]] = look[q + 1]; zoom[look[q]] = look[q + 2]; }
              }
              var zs = d.z;
              if (ser.zs) {
                zs = d.z.slice();
                var zd = ser.zs[step];
                for (var q = 0; q < zd.length; q += 2) { zs[zd[q]] = zd[q + 1]; }
              }
              if (restacks) { restack(zs); }
              var moved = {};
              if (ser.moves) {
                var mv = ser.moves[step];
                for (var q = 0; q < mv.length; q += 5) { moved[mv[q]] = [mv[q + 1], mv[q + 2], mv[q + 3], mv[q + 4]]; }
              }
              for (var j = 0; j < n; j++) {
                var x = fr[4 * j], y = fr[4 * j + 1], w = fr[4 * j + 2], h = fr[4 * j + 3];
                var X = px(x), Y = py(y), W = Math.max(w * s, 0), H = Math.max(h * s, 0);
                var r = rects[j];
                var z = j in zoom ? zoom[j] : 1;
                var mx = j in moved ? matrix(X, Y, w * s, h * s, moved[j][3], moved[j], s) : null;
                if (ca >= 0) {
                  if (!mx) { X += W * (1 - z) / 2; Y += H * (1 - z) / 2; W *= z; H *= z; }
                  if (j in alpha) { r.setAttribute('opacity', String(alpha[j])); } else { r.removeAttribute('opacity'); }
                }
                r.setAttribute('x', round2(X)); r.setAttribute('y', round2(Y));
                r.setAttribute('width', round2(W)); r.setAttribute('height', round2(H));
                var l = label(j), size = fits(l, W, H), t = texts[j];
                t.textContent = size ? l : '';
                t.setAttribute('class', size === 8 ? 'label small' : 'label');
                t.setAttribute('x', round2(X + W / 2)); t.setAttribute('y', round2(Y + H / 2 + size * 0.35));
                if (mx) { r.setAttribute('transform', mx); t.setAttribute('transform', mx); }
                else if (ct >= 0) { r.removeAttribute('transform'); t.removeAttribute('transform'); }
                var tip = l + ': ' + x + ', ' + y + ', ' + w + ' x ' + h + ', z ' + zs[j];
                if (j in moved) {
                  tip += (moved[j][0] || moved[j][1] ? ', translate ' + people(moved[j][0]) + ' x ' + people(moved[j][1]) : '')
                    + (moved[j][2] ? ', rotate ' + people(moved[j][2]) : '');
                }
                titles[j].textContent = tip;
                var cells = rows[j].children;
                cells[3].textContent = String(x); cells[4].textContent = String(y);
                cells[5].textContent = String(w); cells[6].textContent = String(h);
                cells[7].textContent = String(zs[j]);
                if (ca >= 0) {
                  cells[ca].textContent = String(j in alpha ? alpha[j] : 1);
                  cells[ca + 1].textContent = String(j in zoom ? zoom[j] : 1);
                }
                if (ct >= 0) {
                  var v = j in moved ? moved[j] : [0, 0, 0];
                  cells[ct].textContent = people(v[0]); cells[ct + 1].textContent = people(v[1]); cells[ct + 2].textContent = people(v[2]);
                }
              }
              o = o || d.offsets[step];
              var text = String(o[0]) + ',' + String(o[1]);
              vp.setAttribute('x', round2(px(o[0]) + 1)); vp.setAttribute('y', round2(py(o[1]) + 1));
              if (d.vertical) {
                var vy = Math.min(Math.max(o[1], d.region[1]), d.region[1] + d.region[3]);
                vpl.setAttribute('y', round2(py(vy) + 12));
              } else {
                var vx = Math.min(Math.max(o[0], d.region[0]), d.region[0] + d.region[2]);
                vpl.setAttribute('x', round2(px(vx)));
              }
              for (var k = 0; k < offs.length; k++) { offs[k].textContent = text; }
              var s0 = d.offsets[d.start];
              dim.setAttribute('transform', 'translate(' + round2((o[0] - s0[0]) * s) + ',0)');
              if (out) { out.textContent = text; }
              sec.setAttribute('data-offset', text);
              if (ser === d) { sec.setAttribute('data-step', String(step)); }
              if (d.path && ser === d) { showStop(step); }
              if (shelves.length) {
                var said = [];
                shelves.forEach(function (sh, i) {
                  var v = sh === ser ? sh.values[step] : sh.values[sh.start];
                  said.push(sh.section + '=' + v);
                  shelfOut[i].textContent = String(v);
                  var dx = (v - sh.values[sh.start]) * s * (d.rtl ? 1 : -1);
                  for (var k = 0; k < outlines.length; k++) {
                    if (outlines[k].getAttribute('data-section') === String(sh.section)) {
                      if (dx) { outlines[k].setAttribute('transform', 'translate(' + round2(dx) + ',0)'); } else { outlines[k].removeAttribute('transform'); }
                    }
                  }
                });
                sec.setAttribute('data-shelves', said.join(';'));
              }
            }
            function showStop(step) {
              var P = d.path, est = {};
              P.estimated[step].forEach(function (j) { est[j] = true; });
              var ce = heads.indexOf('estimated');
              for (var j = 0; j < n; j++) {
                if (est[j]) { rects[j].setAttribute('stroke-dasharray', '4 3'); } else { rects[j].removeAttribute('stroke-dasharray'); }
                if (ce >= 0) { rows[j].children[ce].textContent = est[j] ? 'estimated' : ''; }
              }
              var a = P.adjust[step];
              var adj = sec.querySelector('.path-slider .adjust');
              adj.textContent = 'contentOffsetAdjustment ' + a[0] + ', ' + a[1] + ' · contentSizeAdjustment ' + a[2] + ', ' + a[3];
              sec.querySelector('.path-slider .stopno').textContent = 'stop ' + P.numbers[step] + ' of ' + P.total;
              var lab = sec.querySelector('text.adjustlabel');
              sec.querySelector('tspan.adj1').textContent = 'offset adjusted ' + a[0] + ', ' + a[1];
              sec.querySelector('tspan.adj2').textContent = 'size adjusted ' + a[2] + ', ' + a[3];
              if (d.vertical) { lab.setAttribute('y', round2(parseFloat(vpl.getAttribute('y')) + 14)); }
              else { var lx = vpl.getAttribute('x'); lab.setAttribute('x', lx); sec.querySelector('tspan.adj2').setAttribute('x', lx); }
              var c = P.contents[step];
              var content = sec.querySelector('rect.content');
              if (content) { content.setAttribute('width', round2(c[0] * s)); content.setAttribute('height', round2(c[1] * s)); }
              var end = sec.querySelector('path.end'), endl = sec.querySelector('text.endlabel');
              if (end && endl) {
                if (d.vertical) {
                  end.setAttribute('d', 'M' + round2(px(d.region[0])) + ' ' + round2(py(c[1])) + 'H' + round2(d.right + 10));
                  endl.setAttribute('y', round2(py(c[1]) + 4)); endl.textContent = 'content height ' + c[1];
                } else {
                  end.setAttribute('d', 'M' + round2(px(c[0])) + ' ' + round2(py(d.region[1])) + 'V' + round2(d.bottom + 10));
                  endl.setAttribute('x', round2(px(c[0]))); endl.textContent = 'content width ' + c[0];
                }
              }
              sec.setAttribute('data-stop', String(P.numbers[step]));
              sec.setAttribute('data-adjust', a.join(','));
              sec.setAttribute('data-estimated', P.estimated[step].join(','));
            }
            var input = sec.querySelector('.slider input');
            var shelfIn = [], shelfOut = [];
            shelves.forEach(function (sh) {
              var p = sec.querySelector('p.shelf-slider[data-section="' + sh.section + '"]');
              shelfIn.push(p.querySelector('input')); shelfOut.push(p.querySelector('output'));
            });
            function rest(except) {
              if (input && except !== input) { input.value = String(d.start); }
              shelfIn.forEach(function (el, i) { if (el !== except) { el.value = String(shelves[i].start); } });
            }
            if (n > 0) { sec.setAttribute('data-top', String(order[n - 1])); }
            show(d.start);
            if (input) {
              input.addEventListener('input', function () { rest(input); show(parseInt(input.value, 10)); });
              if (wanted !== null) {
                input.value = String(Math.min(wanted, d.offsets.length - 1));
                input.dispatchEvent(new Event('input'));
              }
            }
            shelfIn.forEach(function (el, i) {
              el.addEventListener('input', function () { rest(el); show(parseInt(el.value, 10), shelves[i], d.offsets[d.start]); });
            });
            if (shelfWanted !== null && shelfIn.length) {
              shelfIn[0].value = String(Math.min(shelfWanted, shelves[0].values.length - 1));
              shelfIn[0].dispatchEvent(new Event('input'));
            }
            var lit = -1;
            function light(j, from) {
              if (lit >= 0) { rects[lit].classList.remove('hl'); rows[lit].classList.remove('hl'); }
              lit = j;
              if (j < 0) { return; }
              rects[j].classList.add('hl'); rows[j].classList.add('hl');
              if (from === 'box') { reveal(sec.querySelector('.tbl'), rows[j]); }
              if (from === 'row') { reveal(sec.querySelector('.pic'), rects[j]); }
            }
            layer.addEventListener('mouseover', function (ev) {
              var j = ev.target.getAttribute('data-j');
              if (j !== null) { light(parseInt(j, 10), 'box'); }
            });
            layer.addEventListener('mouseleave', function () { light(-1); });
            sec.querySelector('tbody').addEventListener('mouseover', function (ev) {
              var tr = ev.target.closest('tr');
              if (tr) { light(parseInt(tr.getAttribute('data-j'), 10), 'row'); }
            });
            sec.querySelector('tbody').addEventListener('mouseleave', function () { light(-1); });
            var built = layer.querySelectorAll('rect.box').length;
            sec.setAttribute('data-boxes', String(built));
            total += built;
          }
          var secs = document.querySelectorAll('section.layout');
          for (var i = 0; i < secs.length; i++) { setup(secs[i]); }
          document.body.setAttribute('data-boxes', String(total));
          document.body.setAttribute('data-ready', 'yes');
        })();

        """
}
