/// The Swift Testing entry point: `expectLayout`, recording an issue with `wfl diff`'s text at the
/// caller's source location, as `#expect` does.

#if canImport(Testing)
import Testing

/// Expects that `recording` matches `spec` within `tolerance` (docs/usage.md, "Layout
/// fixtures"); otherwise records an issue with the differences as `wfl diff` prints them.
/// Returns whether they matched.
@discardableResult
public func expectLayout(_ recording: LayoutRecording, matches spec: LayoutSpec, tolerance: Double = LayoutComparison.defaultTolerance,
                         sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let comparison = compare(recording, spec, tolerance: tolerance)
    if !comparison.matches {
        Issue.record(Comment(rawValue: "the recording does not match \(spec.name):\n" + comparison.message), sourceLocation: sourceLocation)
    }
    return comparison.matches
}
#endif
