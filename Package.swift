// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "wfl",
    products: [
        // The core, for the tests of apps that check their layouts against specs (README).
        .library(name: "WFL", targets: ["WFL"]),
        .executable(name: "wfl", targets: ["wfl"]),
    ],
    targets: [
        // The core: syntax, evaluation, engines, attribute tables, formats, diagnostics, and the
        // pipeline that drives them (docs/ARCHITECTURE.md). It does not import Foundation.
        .target(name: "WFL", linkerSettings: [.linkedLibrary("m")]),
        // A plain C yardstick for the benchmarks.
        .target(name: "CBaseline"),
        // The command line: files, arguments, terminals and exit codes.
        .executableTarget(name: "wfl", dependencies: ["WFL"]),
        // `swift run -c release wfl-bench`: throughput figures beside their baselines.
        .executableTarget(name: "wfl-bench", dependencies: ["WFL", "CBaseline"]),
        .testTarget(name: "WFLTests", dependencies: ["WFL"]),
    ]
)
