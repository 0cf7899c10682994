/// The html page of a scroll path (docs/usage.md, "Pictures"): the table at each stop of the path,
/// as `wfl run --scroll` would leave it there (its offset, adjustments and estimated cells), for
/// the page's slider over the stops.

extension EvaluatedLayout {
    /// The most stops a page holds; a longer path keeps this many, evenly spread, the first
    /// display and the last stop among them.
    package static let pathStopLimit = 200

    /// The table after each stop of the first display and `steps` (`SelfSizingPath.scroll`), with the
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
            func record(_ p: SelfSizingPath) {
                if keep(p.stops) {
                    tables.append(p.annotated())
                    numbers.append(p.stops)
                }
            }
            try path.firstDisplay()
            record(path)
            for s in steps { try path.scroll(to: s.target, by: s.step, afterEach: record) }
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
