import Foundation
import XCTest

/// The stress tests: thousands of generated inputs, inputs of 100,000 lines, millions of numbers,
/// tens of megabytes through a child process. Together they took most of `swift test`'s time, so
/// the plain run skips them and `.ci/run` sets `WFL_STRESS=1` to run them (docs/CONTRIBUTING.md).
enum Stress {
    /// True when `WFL_STRESS=1`.
    static var enabled: Bool { ProcessInfo.processInfo.environment["WFL_STRESS"] == "1" }

    /// Skips the calling test unless `WFL_STRESS=1`, reporting the skip at the test's line.
    static func only(file: StaticString = #filePath, line: UInt = #line) throws {
        guard enabled else {
            throw XCTSkip("a stress test: run it with 'WFL_STRESS=1 swift test' (.ci/run does)", file: file, line: line)
        }
    }
}
