// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "wfl",
    // The library builds for the test targets of apps on Apple platforms too (docs/usage.md,
    // "Layout fixtures"); the command line runs on macOS and Linux.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        // The core, for the tests of apps that check their layouts against specs (README).
        .library(name: "WFL", targets: ["WFL"]),
        // Layout assertions for test targets: a recording of a layout compared with a spec.
        .library(name: "WFLTesting", targets: ["WFLTesting"]),
        .executable(name: "wfl", targets: ["wfl"]),
    ],
    targets: [
        // The core: syntax, evaluation, engines, attribute tables, formats, diagnostics, and the
        // pipeline that drives them (docs/ARCHITECTURE.md). It does not import Foundation.
        .target(name: "WFL", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // Recordings of layouts, compared with specs and asserted in XCTest and Swift Testing
        // (docs/usage.md, "Layout fixtures"). Only `WFL` and the platform's own modules.
        .target(name: "WFLTesting", dependencies: ["WFL"]),
        // A plain C yardstick for the benchmarks.
        .target(name: "CBaseline"),
        // The command line: files, arguments, terminals and exit codes.
        .executableTarget(name: "wfl", dependencies: ["WFL"]),
        // `swift run -c release wfl-bench`: throughput figures beside their baselines.
        .executableTarget(name: "wfl-bench", dependencies: ["WFL", "CBaseline"]),
        .testTarget(name: "WFLTests", dependencies: ["WFL"]),
        .testTarget(name: "WFLTestingTests", dependencies: ["WFLTesting", "WFL"]),
    ]
)
