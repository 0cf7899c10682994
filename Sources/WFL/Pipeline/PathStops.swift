/// The html page of a scroll path (docs/usage.md, "Pictures"): the table at each stop of the path,
/// as `wfl run --scroll` would leave it there (its offset, adjustments and estimated cells), for
/// the page's slider over the stops.

extension EvaluatedLayout {
    /// The most stops a page holds; a longer path keeps this many, evenly spread, the first
    /// display and the last stop among them.
    package static let pathStopLimit = 200

    /// The table after each stop of the first display and `steps` (each `by D` stepped as
    /// docs/language.md, "Scroll paths", says: from where the last stop ended toward the target, then at it), with the
    /// stop's number (1 the first display) and the number of stops; nil for a layout that is not
    /// self-sizing.
    package func pathStops(_ steps: [PathStep], limit: Int = pathStopLimit) throws(PathFailure) -> (tables: [AttributeTable], numbers: [Int], total: Int)? {
        guard let source = selfSizing else { return nil }
        // Every stop's coordinate along the axis comes from where the last one ended, so the
        // path is followed once to count its stops and, when there are more than `limit`, again
        // to keep the chosen ones.
        func follow(keep: (Int) -> Bool) throws(PathFailure) -> ([AttributeTable], [Int], Int) {
            var path = try source.path()
            var tables: [AttributeTable] = [], numbers: [Int] = []
            func record() {
                if keep(path.stops) {
                    tables.append(path.annotated())
                    numbers.append(path.stops)
                }
            }
            try path.firstDisplay()
            record()
            let vertical = before.direction == .vertical
            for s in steps {
                guard let d = s.step else {
                    try path.scroll(to: s.target)
                    record()
                    continue
                }
                guard d > 0, d.isFinite else { throw .badStep(d) }
                let o = vertical ? path.reached.offset.y : path.reached.offset.x
                let t = vertical ? s.target.y : s.target.x
                let count = Swift.max(1, (abs(t - o) / d).rounded(.up))
                guard Double(path.stops) + count <= Double(SelfSizingPath.maxStops) else { throw .tooManyStops }
                let sign: Double = t < o ? -1 : 1
                for k in 1..<Swift.max(1, Int(count)) {
                    let v = o + sign * Double(k) * d
                    try path.scroll(to: vertical ? Offset(x: 0, y: v) : Offset(x: v, y: 0))
                    record()
                }
                try path.scroll(to: s.target)
                record()
            }
            return (tables, numbers, path.stops)
        }
        var (tables, numbers, total) = try follow { $0 <= limit }
        if total > limit {
            // Stops 1 and total, and limit - 2 between, evenly.
            var chosen = Set<Int>()
            for k in 0..<limit { chosen.insert(1 + Int((Double(k) * Double(total - 1) / Double(limit - 1)).rounded())) }
            (tables, numbers, total) = try follow { chosen.contains($0) }
        }
        return (tables, numbers, total)
    }
}
