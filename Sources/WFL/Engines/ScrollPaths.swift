/// Scroll paths of any layout (docs/layout.md, "Measuring along a scroll path"; docs/language.md,
/// "Scroll paths"): a `scroll` block's stops, or `wfl run --scroll`'s, followed from the first
/// display. A self-sizing layout measures its cells on the way (Engines/SelfSizing.swift); any
/// other only moves its offset, clamped to the scrollable range at each stop, and its
/// adjustments stay (0, 0).

/// Why a path stopped, and at which of its steps (nil: the first display).
package struct PathStepFailure: Error {
    package var failure: PathFailure
    package var step: Int?
}

extension EvaluatedLayout {
    /// The table (before any update) after the first display and `steps`, annotated with its
    /// offset, the last stop's adjustments and the cells still at their estimates.
    package func followed(_ steps: [PathStep]) throws(PathStepFailure) -> AttributeTable {
        guard let source = selfSizing else { return try plainPath(steps) }
        var path: SelfSizingPath
        do {
            path = try source.path()
            try path.firstDisplay()
        } catch {
            throw PathStepFailure(failure: error, step: nil)
        }
        for (k, s) in steps.enumerated() {
            do {
                try path.scroll(to: s.target, by: s.step)
            } catch {
                throw PathStepFailure(failure: error, step: k)
            }
        }
        return path.annotated()
    }

    /// A path over a layout without self-sizing cells: each stop clamps its target to the
    /// scrollable range along the scroll axis; the other coordinate is 0. Stops are counted as a
    /// self-sizing path counts them.
    func plainPath(_ steps: [PathStep]) throws(PathStepFailure) -> AttributeTable {
        var t = before
        let vertical = t.direction == .vertical
        let range = t.scrollableRange
        func clamped(_ o: Double) -> Double { Swift.min(Swift.max(o, range.min), range.max) }
        var o = clamped(vertical ? t.initialOffset.y : t.initialOffset.x)
        var stops = 1
        for (k, s) in steps.enumerated() {
            let target = vertical ? s.target.y : s.target.x
            do {
                stops += try SelfSizingPath.stopCount(from: o, to: target, by: s.step, after: stops)
            } catch {
                throw PathStepFailure(failure: error, step: k)
            }
            o = clamped(target)
        }
        t.sizing = SizingOutput(state: PathState(offset: vertical ? Offset(x: 0, y: o) : Offset(x: o, y: 0)))
        return t
    }
}
