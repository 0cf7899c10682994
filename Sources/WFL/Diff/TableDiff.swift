/// `wfl diff`: two attribute tables compared element by element, matched by (layout, section,
/// item, kind); frames, z-indexes, alphas and zooms equal within a tolerance.

/// One difference between table A and table B.
package struct TableDifference: Equatable, Sendable {
    package enum Change: Equatable, Sendable {
        /// In A, not in B.
        case missing(Frame)
        /// In B, not in A.
        case extra(Frame)
        /// In both, with a different frame, z-index, alpha or zoom (nil when that part is the same).
        case changed(from: Frame, to: Frame, frameMoved: Bool, zIndex: (Int, Int)?, alpha: (Double, Double)? = nil, zoom: (Double, Double)? = nil,
                     transform: TransformChange? = nil)
        /// A whole layout in one table only (`inA` true: missing from B).
        case layout(inA: Bool)
        /// The layouts' content sizes differ.
        case contentSize(from: [Double], to: [Double])

        package static func == (a: Change, b: Change) -> Bool {
            switch (a, b) {
            case (.missing(let x), .missing(let y)), (.extra(let x), .extra(let y)): return x == y
            case (.changed(let f1, let t1, let m1, let z1, let a1, let zo1, let x1), .changed(let f2, let t2, let m2, let z2, let a2, let zo2, let x2)):
                return f1 == f2 && t1 == t2 && m1 == m2 && z1?.0 == z2?.0 && z1?.1 == z2?.1
                    && a1?.0 == a2?.0 && a1?.1 == a2?.1 && zo1?.0 == zo2?.0 && zo1?.1 == zo2?.1 && x1 == x2
            case (.layout(let x), .layout(let y)): return x == y
            case (.contentSize(let f1, let t1), .contentSize(let f2, let t2)): return f1 == f2 && t1 == t2
            default: return false
            }
        }
    }

    /// A translation or rotation that differs: both sides' translate (x, y) and rotate (degrees).
    package struct TransformChange: Equatable, Sendable {
        package var translate: ([Double], [Double])?
        package var rotate: (Double, Double)?

        package static func == (a: TransformChange, b: TransformChange) -> Bool {
            a.translate?.0 == b.translate?.0 && a.translate?.1 == b.translate?.1 && a.rotate?.0 == b.rotate?.0 && a.rotate?.1 == b.rotate?.1
        }
    }

    /// The layout's name (A's, when the two files hold one layout each).
    package var layout: String
    /// The element as `expect` names it: `frame(0, 3)`, `header(1)`, `footer(1)`; another kind
    /// as `badge(0, 3)`. Empty for a layout or content-size difference.
    package var element: String
    package var change: Change

    /// The line `wfl diff` prints; `a` and `b` name the two files.
    package func describe(a: String, b: String) -> String {
        let f = NumberFormat.format
        func rect(_ r: Frame) -> String { "[\(f(r.x)), \(f(r.y)), \(f(r.width)), \(f(r.height))]" }
        switch change {
        case .missing(let r):
            return "\(layout): \(element) missing from \(b) (in \(a) at \(rect(r)))"
        case .extra(let r):
            return "\(layout): \(element) extra in \(b) at \(rect(r)) (not in \(a))"
        case .changed(let from, let to, let moved, let z, let alpha, let zoom, let transform):
            var parts: [String] = []
            if moved {
                let deltas = [("dx", to.x - from.x), ("dy", to.y - from.y), ("dw", to.width - from.width), ("dh", to.height - from.height)]
                    .filter { $0.1 != 0 }
                    .map { "\($0.0) \(TableDifference.signed($0.1))" }
                parts.append("moved by \(deltas.joined(separator: ", ")): \(rect(from)) -> \(rect(to))")
            }
            if let z { parts.append("zIndex \(z.0) -> \(z.1)") }
            if let alpha { parts.append("alpha \(f(alpha.0)) -> \(f(alpha.1))") }
            if let zoom { parts.append("zoom \(f(zoom.0)) -> \(f(zoom.1))") }
            if let t = transform?.translate {
                parts.append("translate \(f(t.0[0])) x \(f(t.0[1])) -> \(f(t.1[0])) x \(f(t.1[1]))")
            }
            if let r = transform?.rotate { parts.append("rotate \(f(r.0)) -> \(f(r.1))") }
            return "\(layout): \(element) \(parts.joined(separator: "; "))"
        case .layout(let inA):
            return inA ? "layout '\(layout)' missing from \(b)" : "layout '\(layout)' extra in \(b) (not in \(a))"
        case .contentSize(let from, let to):
            return "\(layout): content size \(f(from[0])) x \(f(from[1])) -> \(f(to[0])) x \(f(to[1]))"
        }
    }

    /// What `wfl diff` prints for `differences` between `a` and `b` (the names of the two sides):
    /// a line for each of the first `shown`, `... and N more` when there are more, and the count.
    /// Empty when there are none. The one renderer of differences, for the command and for the
    /// assertions of `WFLTesting`.
    package static func report(_ differences: [TableDifference], a: String, b: String, shown: Int = 20) -> String {
        guard !differences.isEmpty else { return "" }
        var out = ""
        for d in differences.prefix(shown) { out += d.describe(a: a, b: b) + "\n" }
        if differences.count > shown { out += "... and \(differences.count - shown) more\n" }
        return out + "\(differences.count) difference\(differences.count == 1 ? "" : "s")\n"
    }

    /// `+0.5`, `-2`: rounded to a millionth so that `0.1 + 0.2 - 0.3` does not show its noise.
    static func signed(_ d: Double) -> String {
        let r = (d * 1e6).rounded() / 1e6
        return (r >= 0 ? "+" : "") + NumberFormat.format(r)
    }
}

/// Compares two tables read with `TableReader`.
package enum TableDiff {
    /// The default tolerance, as the language's equality.
    package static let defaultTolerance = equalityTolerance

    /// Every difference, in A's order (B's extra elements after each layout's). When each table
    /// holds exactly one layout they are compared whatever their names; otherwise layouts are
    /// matched by name. A layout without elements equals one that is absent (csv has no row for
    /// it): when the other table has no layout of its name it is left out, before the counting.
    package static func compare(_ a: [ReadLayout], _ b: [ReadLayout], tolerance: Double = defaultTolerance) -> [TableDifference] {
        var a = a, b = b
        if !(a.count == 1 && b.count == 1) {
            let namesA = Set(a.map(\.name)), namesB = Set(b.map(\.name))
            a.removeAll { $0.elements.isEmpty && !namesB.contains($0.name) }
            b.removeAll { $0.elements.isEmpty && !namesA.contains($0.name) }
        }
        var out: [TableDifference] = []
        var pairs: [(ReadLayout, ReadLayout)] = []
        if a.count == 1 && b.count == 1 {
            pairs = [(a[0], b[0])]
        } else {
            for l in a {
                if let m = b.first(where: { $0.name == l.name }) {
                    pairs.append((l, m))
                } else {
                    out.append(TableDifference(layout: l.name, element: "", change: .layout(inA: true)))
                }
            }
        }
        for (x, y) in pairs { out += compare(x, y, tolerance: tolerance) }
        if !(a.count == 1 && b.count == 1) {
            for l in b where !a.contains(where: { $0.name == l.name }) {
                out.append(TableDifference(layout: l.name, element: "", change: .layout(inA: false)))
            }
        }
        return out
    }

    struct Key: Hashable {
        var section: Int
        var item: Int?
        var kind: String
    }

    static func name(_ e: ReadElement) -> String { elementName(kind: e.kind, section: e.section, item: e.item) }

    /// An element as the differences name it: `frame(0, 3)`, `header(1)`, `badge(0, 3)`.
    package static func elementName(kind: String, section: Int, item: Int?) -> String {
        switch (kind, item) {
        case ("cell", let i?): return "frame(\(section), \(i))"
        case (let k, nil): return "\(k)(\(section))"
        case (let k, let i?): return "\(k)(\(section), \(i))"
        }
    }

    static func compare(_ a: ReadLayout, _ b: ReadLayout, tolerance: Double) -> [TableDifference] {
        var out: [TableDifference] = []
        func near(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= tolerance }
        if let ca = a.contentSize, let cb = b.contentSize, !(near(ca[0], cb[0]) && near(ca[1], cb[1])) {
            out.append(TableDifference(layout: a.name, element: "", change: .contentSize(from: ca, to: cb)))
        }
        var inB: [Key: Int] = [:]
        for (k, e) in b.elements.enumerated() {
            let key = Key(section: e.section, item: e.item, kind: e.kind)
            if inB[key] == nil { inB[key] = k }
        }
        var matched = Set<Int>()
        for e in a.elements {
            let key = Key(section: e.section, item: e.item, kind: e.kind)
            guard let k = inB[key] else {
                out.append(TableDifference(layout: a.name, element: name(e), change: .missing(e.frame)))
                continue
            }
            matched.insert(k)
            let f = b.elements[k]
            let moved = !(near(e.frame.x, f.frame.x) && near(e.frame.y, f.frame.y)
                          && near(e.frame.width, f.frame.width) && near(e.frame.height, f.frame.height))
            var z: (Int, Int)? = nil
            // z-indexes too are compared within the tolerance (a `--tolerance` of 1 or more lets them differ).
            if let za = e.zIndex, let zb = f.zIndex, !near(Double(za), Double(zb)) { z = (za, zb) }
            // alpha and zoom are compared as frames are, within the tolerance.
            let alpha: (Double, Double)? = near(e.alpha, f.alpha) ? nil : (e.alpha, f.alpha)
            let zoom: (Double, Double)? = near(e.zoom, f.zoom) ? nil : (e.zoom, f.zoom)
            var transform: TableDifference.TransformChange? = nil
            if !(near(e.translateX, f.translateX) && near(e.translateY, f.translateY)) {
                transform = .init(translate: ([e.translateX, e.translateY], [f.translateX, f.translateY]))
            }
            // Degrees compared the short way round: 179.9995 and -180 are the same turn.
            let turn = (e.rotate - f.rotate).truncatingRemainder(dividingBy: 360)
            if min(abs(turn), 360 - abs(turn)) > tolerance {
                transform = transform ?? .init()
                transform?.rotate = (e.rotate, f.rotate)
            }
            if moved || z != nil || alpha != nil || zoom != nil || transform != nil {
                out.append(TableDifference(layout: a.name, element: name(e),
                                           change: .changed(from: e.frame, to: f.frame, frameMoved: moved, zIndex: z, alpha: alpha, zoom: zoom,
                                                            transform: transform)))
            }
        }
        for (k, e) in b.elements.enumerated() where !matched.contains(k) {
            out.append(TableDifference(layout: a.name, element: name(e), change: .extra(e.frame)))
        }
        return out
    }

    /// The first element that appears twice in a layout (two rows with the same section, item and
    /// kind), as an error message with its line, or nil.
    package static func duplicate(in layouts: [ReadLayout]) -> TableReadError? {
        for l in layouts {
            var seen: [Key: Int] = [:]
            for e in l.elements {
                let key = Key(section: e.section, item: e.item, kind: e.kind)
                if let first = seen[key] {
                    return TableReadError(message: "\(name(e)) of layout '\(l.name)' appears twice, on lines \(first) and \(e.line)",
                                          line: e.line, column: 1)
                }
                seen[key] = e.line
            }
        }
        return nil
    }
}
