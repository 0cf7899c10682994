/// The XCTest entry point: `XCTAssertLayout`, failing with `wfl diff`'s text at the caller's line.

#if canImport(XCTest)
import XCTest

/// Asserts that `recording` matches `spec` within `tolerance` (docs/usage.md, "Layout
/// fixtures"); on failure, records the differences as `wfl diff` prints them, at `file` and
/// `line`. A recording that throws fails with its error.
public func XCTAssertLayout(_ recording: @autoclosure () throws -> LayoutRecording, matches spec: LayoutSpec,
                            tolerance: Double = LayoutComparison.defaultTolerance, _ message: @autoclosure () -> String = "",
                            file: StaticString = #filePath, line: UInt = #line) {
    let comparison: LayoutComparison
    do {
        comparison = compare(try recording(), spec, tolerance: tolerance)
    } catch {
        XCTFail(prefixed(message(), "XCTAssertLayout: the recording threw \(error)"), file: file, line: line)
        return
    }
    guard !comparison.matches else { return }
    XCTFail(prefixed(message(), "XCTAssertLayout: the recording does not match \(spec.name):\n" + comparison.message), file: file, line: line)
}

/// `message` (the caller's) before `text`, as XCTest's own assertions put it after theirs.
func prefixed(_ message: String, _ text: String) -> String {
    message.isEmpty ? text : text + " - " + message
}
#endif
