import WFL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `--format swift` must compile quickly in the user's test target (issue 16): `swiftc -typecheck`
// of the file wfl writes for 1,000 and 10,000 elements, beside that of a file holding only
// `import Foundation` (what any file costs the compiler), in the same run.

extension Measure {
    static var swift1k: Measure { swiftTypecheck(name: "swift1k", elements: 1_000, target: 2) }
    static var swift10k: Measure { swiftTypecheck(name: "swift10k", elements: 10_000, target: 10) }

    static func swiftTypecheck(name: String, elements n: Int, target: Double) -> Measure { Measure(
        name: name, summary: "swiftc -typecheck of the --format swift file of a \(Format.grouped(n))-element waterfall, against a file of only 'import Foundation'",
        unit: "s", target: target, lowerIsBetter: true
    ) { _, options in
        let (program, layout) = EngineSpecs.resolve(EngineSpecs.random(3, n))
        let table = EngineSpecs.run(program, layout)
        let dir = "/tmp/wfl-bench-swift-\(getpid())"
        mkdir(dir, 0o755)
        let file = dir + "/Layout.swift", empty = dir + "/Empty.swift"
        writeFile(file, Array(SwiftFormat.format([table], sourceName: "bench.wfl").utf8))
        writeFile(empty, Array("import Foundation\n".utf8))
        defer { unlink(file); unlink(empty); rmdir(dir) }
        func typecheck(_ path: String) -> Int32 { spawn(["/usr/bin/env", "swiftc", "-typecheck", path], stdout: "/dev/null") }
        if typecheck(file) != 0 { fail("wfl-bench: swiftc -typecheck fails on the --format swift file (or swiftc is not on PATH)") }
        let (w, b) = Timer.interleaved(runs: options.runs ?? 3, warmups: 0,
                                       wfl: { _ = typecheck(file) }, baseline: { _ = typecheck(empty) })
        return Outcome(label: "swiftc -typecheck, \(Format.grouped(n)) elements", wfl: w.median, baseline: b.median,
                       baselineName: "import Foundation", notes: ["\(Format.grouped(n)) elements \(w.summary); the empty file \(b.summary)"])
    } }
}
