import Foundation
import XCTest

/// The library builds for Apple platforms as well as Linux (docs/usage.md, "Layout fixtures"):
/// every import of a platform-only module stands in an `#if canImport(...)` branch naming it,
/// and a file that imports Glibc has a Darwin branch beside it. This machine has no Apple SDK,
/// so the sources are read, not built, for those platforms.
final class PlatformImportTests: XCTestCase {
    /// Modules that exist on some platforms only.
    static let platformModules: Set<String> = ["Glibc", "Musl", "Darwin", "WinSDK", "ucrt", "Android", "Bionic", "UIKit", "AppKit",
                                               "CoreGraphics", "XCTest", "Testing", "Dispatch", "FoundationNetworking"]

    /// The problems of one source file, as `file:line: message`.
    static func problems(in text: String, file: String) -> [String] {
        var out: [String] = []
        var conditions: [String] = []
        var importsGlibc = false
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") { conditions.append(String(line.dropFirst(4))) }
            else if line.hasPrefix("#elseif ") { if !conditions.isEmpty { conditions[conditions.count - 1] = String(line.dropFirst(8)) } }
            else if line.hasPrefix("#else") { if !conditions.isEmpty { conditions[conditions.count - 1] = "else" } }
            else if line.hasPrefix("#endif") { _ = conditions.popLast() }
            var words = line.split(separator: " ").map(String.init)
            if words.first == "@testable" || words.first == "@_exported" { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            let module = String((words.count >= 3 ? words[2] : words[1]).split(separator: ".")[0])
            guard platformModules.contains(module) else { continue }
            if module == "Glibc" { importsGlibc = true }
            if !conditions.contains(where: { $0.contains("canImport(\(module))") }) {
                out.append("\(file):\(k + 1): 'import \(module)' outside an '#if canImport(\(module))'")
            }
        }
        if importsGlibc && !text.contains("canImport(Darwin)") {
            out.append("\(file): imports Glibc without a Darwin branch")
        }
        return out
    }

    func testEveryPlatformImportIsConditional() throws {
        let sources = Golden.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        XCTAssertGreaterThan(files.count, 50)
        let found = try Concurrent.flatMap(files.sorted()) { f -> [String] in
            let text = try String(contentsOf: sources.appendingPathComponent(f), encoding: .utf8)
            var found = Self.problems(in: text, file: f)
            // The core does not import Foundation at all.
            if f.hasPrefix("WFL/") && text.split(separator: "\n").contains(where: { $0.hasPrefix("import Foundation") }) {
                found.append("\(f): the core imports Foundation")
            }
            return found
        }
        XCTAssertEqual(found, [])
    }

    /// The check finds what it is for.
    func testTheCheckFindsAnUnguardedImport() {
        XCTAssertEqual(Self.problems(in: "import Glibc\nlet x = 1\n", file: "a.swift"),
                       ["a.swift:1: 'import Glibc' outside an '#if canImport(Glibc)'", "a.swift: imports Glibc without a Darwin branch"])
        XCTAssertEqual(Self.problems(in: "#if canImport(UIKit)\nimport UIKit\n#else\nimport AppKit\n#endif\n", file: "b.swift"),
                       ["b.swift:4: 'import AppKit' outside an '#if canImport(AppKit)'"])
        XCTAssertEqual(Self.problems(in: "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n", file: "c.swift"), [])
    }
}
