/// Self-sizing cells along a scroll path (docs/layout.md, "Self-sizing cells").
///
/// A section with `estimate` lays its cells out at their estimates until they are displayed;
/// a displayed cell is measured: it takes its actual size, its size in the *measured table* (the
/// table the file gives without `estimate`), for good. A path is a list of stops; at each the
/// visible cells not measured yet are measured, the layout is laid out again, and the offset
/// keeps the first visible cell (by index) in place unless the view is at its top, until no new
/// cell is visible.
///
/// How: the layout is copied once with each self-sizing section's size rules replaced by a
/// choice (`ItemRule.Kind.selfSizing`) between the actual size and the estimate, read from a
/// set of measured flags that the path sets between two runs of the engines. A waterfall's actual
/// length is read from the measured table (its lane width is the same in both); a flow or shelf
/// cell's actual size is its `size` rule, evaluated as the measured table evaluated it.

/// Which cells of one section are measured: shared by the rules of the layout the path lays out
/// again, set by the path between two runs.
final class MeasuredFlags: @unchecked Sendable {
    var flags: [Bool]
    init(count: Int) { flags = [Bool](repeating: false, count: count) }
}

/// A self-sizing cell's size rule: the actual size once measured, else the estimate (which must
/// be above 0 and finite).
final class SelfSizingChoice: @unchecked Sendable {
    let actual: ItemRule
    let estimate: ItemRule
    let measured: MeasuredFlags

    init(actual: ItemRule, estimate: ItemRule, measured: MeasuredFlags) {
        self.actual = actual
        self.estimate = estimate
        self.measured = measured
    }

    func number(_ m: inout Machine, item i: Int) throws(EvalError) -> Double {
        if i >= 0, i < measured.flags.count, measured.flags[i] { return try actual.evaluate(&m, item: i) }
        return try SelfSizingChoice.checked(estimate, &m, item: i)
    }

    /// The estimate of item `i`: an error unless above 0 and finite.
    static func checked(_ estimate: ItemRule, _ m: inout Machine, item i: Int) throws(EvalError) -> Double {
        let d = try estimate.evaluate(&m, item: i)
        guard d > 0, d.isFinite else {
            throw EvalError(.badEstimate, "'estimate' is \(NumberFormat.format(d))",
                            detail: "an estimate must be above 0 and finite", at: estimate.span,
                            help: "give every cell a positive estimate, for example 'estimate 200'")
        }
        return d
    }
}

/// Where a scroll path stands after its last stop, and what that stop did.
package struct PathState: Equatable, Sendable {
    /// The content offset where the table is shown.
    package var offset: Offset
    /// The last stop's `contentOffsetAdjustment` and `contentSizeAdjustment`.
    package var offsetAdjustment: Offset
    package var sizeAdjustment: Size

    package init(offset: Offset, offsetAdjustment: Offset = .zero, sizeAdjustment: Size = Size(width: 0, height: 0)) {
        self.offset = offset
        self.offsetAdjustment = offsetAdjustment
        self.sizeAdjustment = sizeAdjustment
    }
}

/// Why a path could not be followed to its end.
package enum PathFailure: Error {
    /// The engines failed on a relayout (an estimate's error).
    case layout(LayoutFailure)
    /// `by D` with D <= 0 (or not finite).
    case badStep(Double)
    /// More than `SelfSizingPath.maxStops` stops, the first display included.
    case tooManyStops
}

/// A self-sizing layout along a scroll path: its table as the path leaves it.
package struct SelfSizingPath {
    /// The most stops of one path, the first display included.
    package static let maxStops = 1_000_000

    /// The layout with each self-sizing section's size rules a choice.
    let mixed: ResolvedLayout
    /// Each section's measured flags; nil for a section that is not self-sizing.
    let flags: [MeasuredFlags?]
    let vertical: Bool
    /// The layout laid out again as cells are measured (Engines/SelfSizingRelayout.swift).
    let relayout: ResumableLayout
    /// Where the last stop ended, and how far it moved the offset.
    private var offset: Offset
    private var offsetAdjustment: Offset = .zero
    /// Stops made, the first display included.
    package private(set) var stops = 0

    /// True when some section of `layout` has `estimate`.
    package static func isSelfSizing(_ layout: ResolvedLayout) -> Bool {
        layout.hasEstimate
    }

    /// The layout with nothing measured yet (the estimated table), from the layout as resolved
    /// and its measured table.
    package init(_ layout: ResolvedLayout, measured: AttributeTable) throws(PathFailure) {
        var mixed = layout
        var flags: [MeasuredFlags?] = []
        let vertical = layout.direction == .vertical
        for k in mixed.sections.indices {
            var sec = mixed.sections[k]
            guard let est = sec.estimate, sec.items > 0 else {
                flags.append(nil)
                continue
            }
            let f = MeasuredFlags(count: sec.items)
            flags.append(f)
            func choice(_ actual: ItemRule, _ estimate: ItemRule) -> ItemRule {
                estimate.wrapped(.selfSizing(SelfSizingChoice(actual: actual, estimate: estimate, measured: f)))
            }
            if sec.style == .waterfall {
                // The actual length along the scroll axis: the measured table's.
                let first = measured.sectionStarts[k].firstCell
                let lengths = (0..<sec.items).map { i -> Double in
                    let fr = measured.elements[first + i].frame
                    return vertical ? fr.height : fr.width
                }
                let actual = ItemRule(kind: .cycle(lengths), what: est.length.what, span: est.length.span, settingSpan: est.length.settingSpan)
                sec.rules[.naturalWidth] = nil
                sec.rules[.naturalHeight] = nil
                sec.rules[.length] = choice(actual, est.length)
            } else if let width = est.width {
                let (w, h) = (sec.rules[.naturalWidth] ?? ItemRule.constant(50, "the width of 'size'"),
                              sec.rules[.naturalHeight] ?? ItemRule.constant(50, "the height of 'size'"))
                sec.rules[.naturalWidth] = choice(w, width)
                sec.rules[.naturalHeight] = choice(h, est.length)
            }
            mixed.sections[k] = sec
        }
        self.mixed = mixed
        self.flags = flags
        self.vertical = vertical
        self.relayout = ResumableLayout(mixed)
        self.offset = SelfSizingPath.initialOffset(layout)
        try relayout.finish()
    }

    /// The table at the state the path has reached, laid out to its end. (Should that fail, as
    /// it cannot for a layout whose estimated and measured tables were laid out, the next stop or
    /// `finish` reports it.)
    package var table: AttributeTable {
        try? relayout.finish()
        return relayout.table
    }

    /// Lays the table out to its end: the outputs' table and `state` read it.
    package func finish() throws(PathFailure) { try relayout.finish() }

    /// Where the last stop ended and how far it moved the offset, without laying the table out
    /// to its end.
    package var reached: (offset: Offset, offsetAdjustment: Offset) { (offset, offsetAdjustment) }

    /// Where the path stands, and what its last stop did.
    package var state: PathState {
        guard stops > 0 else { return PathState(offset: offset) }
        let length = contentLength(table)
        let start = relayout.lastStopStart ?? lengthBeforeLastStop()
        relayout.lastStopStart = start
        return PathState(offset: offset, offsetAdjustment: offsetAdjustment,
                         sizeAdjustment: vertical ? Size(width: 0, height: length - start) : Size(width: length - start, height: 0))
    }

    /// The content length as the last stop found it, when it began with the table not laid out
    /// to its end: the layout with the cells that stop measured at their estimates again.
    func lengthBeforeLastStop() -> Double {
        for (s, i) in relayout.lastStopMeasured { flags[s]!.flags[i] = false }
        defer { for (s, i) in relayout.lastStopMeasured { flags[s]!.flags[i] = true } }
        return (try? SelfSizingPath.lay(mixed)).map(contentLength) ?? 0
    }

    static func lay(_ layout: ResolvedLayout) throws(PathFailure) -> AttributeTable {
        var warnings: [Diagnostic] = []
        switch Sections.layout(layout, warnings: &warnings) {
        case .success(let t): return t
        case .failure(let f): throw .layout(f)
        }
    }

    /// The insets of the scrollable range along the scroll axis: the adjusted content inset
    /// before and after the content (0 without a safe area).
    static func scrollInsets(_ layout: ResolvedLayout) -> (lead: Double, trail: Double) {
        let sa = layout.safeArea
        return layout.direction == .vertical ? (sa.top, sa.bottom) : (sa.left, sa.right)
    }

    /// The initial offset: (0, -at) when vertical, (-al, 0) when horizontal.
    package static func initialOffset(_ layout: ResolvedLayout) -> Offset {
        let lead = scrollInsets(layout).lead
        return layout.direction == .vertical ? Offset(x: 0, y: -lead) : Offset(x: -lead, y: 0)
    }

    /// Whether cell `item` of section `section` is measured (true outside self-sizing sections).
    package func isMeasured(section: Int, item: Int) -> Bool {
        guard section >= 0, section < flags.count, let f = flags[section] else { return true }
        return item < 0 || item >= f.flags.count || f.flags[item]
    }

    /// Element index `j` of the table is a cell still at its estimate.
    package func isEstimated(element j: Int) -> Bool { isEstimated(table.elements[j]) }

    /// `e` is a cell still at its estimate.
    func isEstimated(_ e: Element) -> Bool {
        guard e.kind == .cell, let item = e.item else { return false }
        return !isMeasured(section: e.section, item: item)
    }

    /// The first display: a stop at the initial offset.
    package mutating func firstDisplay() throws(PathFailure) {
        try stop(SelfSizingPath.axis(SelfSizingPath.initialOffset(mixed), vertical))
    }

    /// `to X, Y [by D]`: stops `D` apart from where the last stop ended toward the target along
    /// the scroll axis, then at it.
    /// `afterEach` sees the path after each of those stops (the html page's player keeps them).
    package mutating func scroll(to target: Offset, by step: Double? = nil,
                                 afterEach: (SelfSizingPath) -> Void = { _ in }) throws(PathFailure) {
        let t = SelfSizingPath.axis(target, vertical)
        let o = SelfSizingPath.axis(offset, vertical)
        let n = try SelfSizingPath.stopCount(from: o, to: t, by: step, after: stops)
        if let step {
            let sign: Double = t < o ? -1 : 1
            for k in 1..<n {
                try stop(o + sign * Double(k) * step)
                afterEach(self)
            }
        }
        try stop(t)
        afterEach(self)
    }

    /// How many stops `to` makes from `o` toward `t` along the scroll axis (`by step`: `max(1,
    /// ceil(|t - o| / step))`; without: 1), checked against `maxStops` after `stops` made.
    static func stopCount(from o: Double, to t: Double, by step: Double?, after stops: Int) throws(PathFailure) -> Int {
        guard let step else {
            guard stops + 1 <= maxStops else { throw .tooManyStops }
            return 1
        }
        guard step > 0, step.isFinite else { throw .badStep(step) }
        let count = Swift.max(1, (abs(t - o) / step).rounded(.up))
        guard Double(stops) + count <= Double(maxStops) else { throw .tooManyStops }
        return Int(count)
    }

    /// The coordinate along the scroll axis.
    static func axis(_ o: Offset, _ vertical: Bool) -> Double { vertical ? o.y : o.x }

    /// The content length along the scroll axis, and the viewport's.
    func contentLength(_ t: AttributeTable) -> Double { vertical ? t.contentHeight : t.contentWidth }
    var viewLength: Double { vertical ? mixed.containerHeight : mixed.containerWidth }

    /// One stop at `target` along the scroll axis (docs/layout.md, "Measuring along a scroll path").
    /// The table is laid out only as far as the stop needs (`settle`); a measured cell lays out
    /// again from itself (`ResumableLayout.changed`).
    mutating func stop(_ target: Double) throws(PathFailure) {
        stops += 1
        let (lead, trail) = SelfSizingPath.scrollInsets(mixed)
        let minO = -lead
        let view = viewLength
        /// clamp(x, minO, maxO), with the table laid out far enough to know maxO's part in it
        /// and every cell visible at the result. With the content at least as long as the
        /// frontier, maxO >= max(minO, frontier + trail - view) (rounding is monotonic): once
        /// that reaches x, x is not clamped.
        func settle(_ x: Double) throws(PathFailure) -> Double {
            let x1 = Swift.max(x, minO)
            try relayout.reach(x1 + view)
            while !relayout.complete {
                if Swift.max(minO, relayout.frontier + trail - view) >= x1 { return x1 }
                try relayout.reach(relayout.frontier + view)
            }
            return Swift.min(x1, Swift.max(minO, relayout.contentLength + trail - view))
        }
        // 1. o = clamp(the stop's coordinate, minO, maxO).
        var o = try settle(target)
        let start = o
        relayout.lastStopStart = relayout.complete ? relayout.contentLength : nil
        relayout.lastStopMeasured = []
        while true {
            // 2. The visible cells, and those of self-sizing sections not measured yet.
            let visible = relayout.cells(overlapping: viewport(at: o))
            var new: [(Int, Int)] = []
            for j in visible {
                let e = relayout.table.elements[j]
                if let item = e.item, !isMeasured(section: e.section, item: item) { new.append((e.section, item)) }
            }
            if new.isEmpty { break }
            // 3. F: the visible cell with the lowest (section, item), the first in table order,
            //    and where it starts.
            let atTop = o <= minO
            let f = relayout.table.elements[visible[0]]
            let fs = f.section, fi = f.item ?? 0
            let y0 = SelfSizingPath.minAlong(f.frame, vertical)
            // 4. Measure the new cells, lay out again from the first, keep F in place unless at
            //    the top.
            for (s, i) in new { flags[s]!.flags[i] = true }
            relayout.lastStopMeasured += new
            try relayout.changed(section: new[0].0, item: new[0].1)
            try relayout.reach(section: fs, item: fi)
            let y1 = SelfSizingPath.minAlong(relayout.table.elements[relayout.cell(section: fs, item: fi)].frame, vertical)
            o = try settle(atTop ? minO : o + (y1 - y0))
        }
        offset = vertical ? Offset(x: 0, y: o) : Offset(x: o, y: 0)
        offsetAdjustment = vertical ? Offset(x: 0, y: o - start) : Offset(x: o - start, y: 0)
    }

    /// The viewport at `o` along the scroll axis.
    func viewport(at o: Double) -> Frame {
        vertical
            ? Frame(x: 0, y: o, width: mixed.containerWidth, height: mixed.containerHeight)
            : Frame(x: o, y: 0, width: mixed.containerWidth, height: mixed.containerHeight)
    }

    static func minAlong(_ f: Frame, _ vertical: Bool) -> Double { vertical ? f.y : f.x }

    /// The cells whose frames overlap the viewport at `o` along the scroll axis (open intervals,
    /// as rect queries), in table order.
    func visibleCells(at o: Double) -> [Int] {
        try? relayout.finish()
        return relayout.cells(overlapping: viewport(at: o))
    }

    /// The table as the path leaves it, carrying its offset, adjustments and estimated cells for
    /// the outputs.
    package func annotated() -> AttributeTable {
        var t = table
        var estimated: [Bool] = []
        estimated.reserveCapacity(t.elements.count)
        var any = false
        for el in t.elements {
            let e = isEstimated(el)
            any = any || e
            estimated.append(e)
        }
        t.sizing = SizingOutput(state: state, estimated: any ? estimated : [])
        return t
    }
}

/// What `--phase` and `--scroll` add to a table's outputs: where it is shown, the last stop's
/// adjustments, and which elements are cells still at their estimates (empty: none).
package struct SizingOutput: Equatable, Sendable {
    package var state: PathState
    package var estimated: [Bool]

    package init(state: PathState, estimated: [Bool] = []) {
        self.state = state
        self.estimated = estimated
    }

    /// Element `j` is a cell at its estimate.
    @inline(__always) package func isEstimated(_ j: Int) -> Bool { j < estimated.count && estimated[j] }
}

/// A self-sizing layout as resolved, with its measured table: what its paths start from. Two
/// compare equal always: it is derived from the tables beside it.
package struct SelfSizingSource: Equatable {
    package let layout: ResolvedLayout
    package let measured: AttributeTable

    package static func == (a: SelfSizingSource, b: SelfSizingSource) -> Bool { true }

    /// The source of a self-sizing `layout` (nil for another), its estimates evaluated once so
    /// that their errors are reported in every run of the file.
    package static func checked(_ layout: ResolvedLayout, measured: AttributeTable, diagnostics: inout [Diagnostic]) -> SelfSizingSource? {
        guard SelfSizingPath.isSelfSizing(layout) else { return nil }
        do {
            _ = try SelfSizingPath(layout, measured: measured)
        } catch {
            if case .layout(let f) = error { diagnostics += f.diagnostics }
            return nil
        }
        return SelfSizingSource(layout: layout, measured: measured)
    }

    /// A path from the estimated table: `phase` stops before any `to`.
    package func path() throws(PathFailure) -> SelfSizingPath { try SelfSizingPath(layout, measured: measured) }
}

/// Which state of a self-sizing layout `wfl run --phase` shows.
package enum SizingPhase: String, CaseIterable, Sendable {
    /// Every cell at its estimate.
    case estimated
    /// After the first display.
    case initial
    /// Every cell measured: the measured table.
    case measured
}

/// One `to X, Y [by D]` of a path.
package struct PathStep: Equatable, Sendable {
    package var target: Offset
    package var step: Double?
    package init(_ target: Offset, by step: Double? = nil) {
        self.target = target
        self.step = step
    }
}

extension EvaluatedLayout {
    /// The table (before any update) at `phase`, or after the first display and `steps`, with
    /// its sizing output; `offset` is where the measured table (or one of a layout that is not
    /// self-sizing) is shown.
    package func sized(phase: SizingPhase, steps: [PathStep]?, offset: Offset?) throws(PathFailure) -> AttributeTable {
        guard let source = selfSizing else {
            // A path over a layout without `estimate` moves only its offset (ScrollPaths.swift).
            if let steps {
                do { return try plainPath(steps) } catch { throw error.failure }
            }
            var t = before
            t.sizing = SizingOutput(state: PathState(offset: offset ?? before.initialOffset))
            return t
        }
        if steps == nil, phase == .measured {
            var t = before
            t.sizing = SizingOutput(state: PathState(offset: offset ?? SelfSizingPath.initialOffset(source.layout)))
            return t
        }
        var path = try source.path()
        if steps == nil, phase == .estimated {
            var t = path.annotated()
            t.sizing?.state.offset = offset ?? SelfSizingPath.initialOffset(source.layout)
            return t
        }
        try path.firstDisplay()
        for s in steps ?? [] { try path.scroll(to: s.target, by: s.step) }
        try path.finish()
        return path.annotated()
    }
}
