/// `wfl run --transitions --format swift`: each layout's transitions as a fixture, beside the
/// tables of `--format swift` (Swift.swift) and in the same style: plain number arrays, and a
/// computed property that builds the tuples a test reads. A layout where some end uses a
/// translate or rotate also gets `transforms`: from's and to's `CGAffineTransform`, twelve numbers
/// a transition, as the tables' `transforms` hold them.
///
/// ```swift
/// enum FeedLayoutTransitions {
///     static let containerSize = CGSize(width: 375, height: 812)
///     static let contentSizeBefore = CGSize(width: 375, height: 864)
///     static let contentSize = CGSize(width: 375, height: 754)
///     static let rows: [Int] = [0, 0, 0, 1, 1, ...]      // kind, section, item, itemBefore, change
///     static let frames: [Double] = [...]                // from's x, y, width, height, then to's
///     static let looks: [Double] = [...]                 // from's alpha, zoom, then to's
///     static let attachedKinds: [String] = []
///     static var transitions: [(kind: String?, section: Int, item: Int?, itemBefore: Int?, change: String,
///                               from: (frame: CGRect, alpha: CGFloat, zoom: CGFloat), to: (...))] { ... }
/// }
/// ```
extension SwiftFormat {
    /// The Swift file for the transitions of `tables`, evaluated from `sourceName`; `command`
    /// makes it again. `name` names the type of a single layout's transitions; otherwise each is
    /// its layout's type name with `Transitions` after it (`FeedLayoutTransitions`).
    public static func transitions(_ tables: [TransitionTable], sourceName: String, command: String? = nil, name given: String? = nil) -> String {
        let f = NumberFormat.format
        var out = header(sourceName: sourceName, command: command)
        var used = Set<String>()
        for t in tables {
            let b = t.before, a = t.after
            let name = uniqueName(tables.count == 1 ? given : nil, b.name, suffix: "Transitions", &used)
            var attached: [String] = []
            var rows = "", frames = "", looks = "", transforms = ""
            let moves = TransitionFormat.usesTransform([t])
            for x in t.transitions {
                var code: Int
                switch x.kind {
                case .cell: code = 0
                case .header: code = 1
                case .footer: code = 2
                case .background: code = 3
                case .attached:
                    let kind = t.kindName(of: x)
                    if let k = attached.firstIndex(of: kind) { code = 4 + k } else { attached.append(kind); code = 3 + attached.count }
                }
                let change = x.change == .stay ? 0 : x.change == .move ? 1 : x.change == .appear ? 2 : 3
                rows += "        \(code), \(x.section), \(x.item ?? -1), \(x.itemBefore ?? -1), \(change),\n"
                let p = x.from.frame, q = x.to.frame
                frames += "        \(f(p.x)), \(f(p.y)), \(f(p.width)), \(f(p.height)), \(f(q.x)), \(f(q.y)), \(f(q.width)), \(f(q.height)),\n"
                looks += "        \(f(x.from.alpha)), \(f(x.from.zoom)), \(f(x.to.alpha)), \(f(x.to.zoom)),\n"
                if moves { transforms += "        " + (transformNumbers(x.from) + transformNumbers(x.to)).map(f).joined(separator: ", ") + ",\n" }
            }
            out += "\n/// The transitions of the batch update of the layout \(quoteForComment(b.name)): \(b.style.rawValue), \(b.direction.rawValue), "
            out += "container \(f(b.containerWidth)) x \(f(b.containerHeight)).\n"
            out += "enum \(name) {\n"
            out += "    static let containerSize = CGSize(width: \(f(b.containerWidth)), height: \(f(b.containerHeight)))\n"
            out += "    /// The content size before the update and after it.\n"
            out += "    static let contentSizeBefore = CGSize(width: \(f(b.contentWidth)), height: \(f(b.contentHeight)))\n"
            out += "    static let contentSize = CGSize(width: \(f(a.contentWidth)), height: \(f(a.contentHeight)))\n"
            out += "    /// The elements of the table after the update in its order, then those that disappear. Five\n"
            out += "    /// whole numbers a transition: kind (0 cell, 1 header, 2 footer, 3 background, 4 and up the attached\n"
            out += "    /// views of `attachedKinds`), section, item after the update, item before it (-1 where there is none),\n"
            out += "    /// change (0 stay, 1 move, 2 appear, 3 disappear).\n"
            out += "    static let rows: [Int] = [\n\(rows)    ]\n"
            out += "    /// Where each one is drawn from and to: from's x, y, width, height, then to's.\n"
            out += "    static let frames: [Double] = [\n\(frames)    ]\n"
            out += "    /// From's alpha and zoom, then to's.\n"
            out += "    static let looks: [Double] = [\n\(looks)    ]\n"
            if moves {
                out += "    /// From's transform, then to's, six numbers each: `CGAffineTransform`'s a, b, c, d, tx, ty, as\n"
                out += "    /// UICollectionViewLayoutAttributes.transform holds it (zoom and rotate about the centre, then\n"
                out += "    /// the translate).\n"
                out += "    static let transforms: [Double] = [\n\(transforms)    ]\n"
            }
            out += "    /// The kinds of the attached views, as the layout registers them.\n"
            out += "    static let attachedKinds: [String] = [" + attached.map { literal($0) }.joined(separator: ", ") + "]\n"
            out += "    /// The transitions as a test reads them. `kind` is nil for a cell, as `representedElementKind`.\n"
            out += "    static var transitions: [(kind: String?, section: Int, item: Int?, itemBefore: Int?, change: String,\n"
            out += "                              from: (frame: CGRect, alpha: CGFloat, zoom: CGFloat), to: (frame: CGRect, alpha: CGFloat, zoom: CGFloat))] {\n"
            out += "        (0 ..< rows.count / 5).map { k in\n"
            out += "            let code = rows[5 * k]\n"
            out += "            let kind: String? = code >= 4 ? attachedKinds[code - 4] : [nil, \"\(headerKind)\", \"\(footerKind)\", \"\(backgroundKind)\"][code]\n"
            out += "            func end(_ j: Int) -> (frame: CGRect, alpha: CGFloat, zoom: CGFloat) {\n"
            out += "                let r = 8 * k + 4 * j, l = 4 * k + 2 * j\n"
            out += "                return (frame: CGRect(x: frames[r], y: frames[r + 1], width: frames[r + 2], height: frames[r + 3]), alpha: looks[l], zoom: looks[l + 1])\n"
            out += "            }\n"
            out += "            return (kind: kind, section: rows[5 * k + 1], item: rows[5 * k + 2] < 0 ? nil : rows[5 * k + 2],\n"
            out += "                    itemBefore: rows[5 * k + 3] < 0 ? nil : rows[5 * k + 3], change: [\"stay\", \"move\", \"appear\", \"disappear\"][rows[5 * k + 4]],\n"
            out += "                    from: end(0), to: end(1))\n"
            out += "        }\n"
            out += "    }\n}\n"
        }
        return out
    }

    /// The six numbers of `e`'s transform as `UICollectionViewLayoutAttributes.transform` holds it:
    /// a, b, c, d (its zoom and turn) and tx, ty (its translate), -0 written 0.
    static func transformNumbers(_ e: TransitionEnd) -> [Double] {
        transformNumbers(e.transform, frame: e.frame, zoom: e.zoom)
    }

    /// The six numbers of `t` on `frame` at `zoom`, as `transformNumbers(_:)`.
    static func transformNumbers(_ t: Transform, frame: Frame, zoom: Double) -> [Double] {
        let m = t.matrix(frame: frame, zoom: zoom)
        return [m.a, m.b, m.c, m.d, t.tx, t.ty].map(Transform.unsigned)
    }
}
