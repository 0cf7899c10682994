import Foundation
import XCTest
@testable import WFL

/// The one golden-file runner: compares what wfl produces with a file kept beside the input.
///
/// Expected files are never edited by hand. To regenerate them, run
/// `WFL_UPDATE_GOLDEN=1 swift test`, then read the diff before committing it.
enum Golden {
    /// The repository's root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var updating: Bool { ProcessInfo.processInfo.environment["WFL_UPDATE_GOLDEN"] == "1" }

    /// The `.wfl` files of a folder under the root, sorted by name.
    static func inputs(_ folder: String) -> [URL] {
        let dir = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".wfl") }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// Reads an input as a `SourceFile` named by its file name (so expected text does not
    /// depend on where the repository is).
    static func source(_ url: URL) throws -> SourceFile {
        let data = try Data(contentsOf: url)
        return SourceFile(name: url.lastPathComponent, bytes: [UInt8](data))
    }

    /// Compares `actual` with the file `expectedURL`, printing input, expected and actual on a
    /// mismatch; rewrites the file instead when updating.
    static func check(_ actual: String, against expectedURL: URL, input: URL,
                      file: StaticString = #filePath, line: UInt = #line) {
        if updating {
            try? FileManager.default.createDirectory(at: expectedURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        guard let data = try? Data(contentsOf: expectedURL) else {
            XCTFail("missing expected file \(expectedURL.path); run WFL_UPDATE_GOLDEN=1 swift test", file: file, line: line)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            let inputText = (try? Data(contentsOf: input)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            XCTFail("""
                \(expectedURL.lastPathComponent) differs.
                --- input (\(input.lastPathComponent)) ---
                \(inputText)
                --- expected ---
                \(expected)
                --- actual ---
                \(actual)
                --- first difference at line \(firstDifference(expected, actual)) ---
                """, file: file, line: line)
        }
    }

    static func firstDifference(_ a: String, _ b: String) -> Int {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for k in 0..<max(x.count, y.count) where k >= x.count || k >= y.count || x[k] != y[k] { return k + 1 }
        return 0
    }
}
