import Foundation

/// The random numbers of generated tests: SplitMix64 from a seed that is printed, so that a
/// failure can be replayed. The seed is `WFL_TEST_SEED` when set, else a fresh one per run (the
/// generated cases keep exploring); each test puts `label` in its failure messages.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    /// The seed, for messages.
    let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The same, for the generated tests with fixed seeds.
    init(state: UInt64) { self.init(seed: state) }

    /// A generator for the test `name`, with the seed printed on standard output.
    static func forTest(_ name: String) -> SeededRandom {
        let given = ProcessInfo.processInfo.environment["WFL_TEST_SEED"].flatMap { UInt64($0) }
        var system = SystemRandomNumberGenerator()
        let g = SeededRandom(seed: given ?? system.next())
        print("\(name): \(g.label)")
        return g
    }

    /// "seed N (replay with WFL_TEST_SEED=N)".
    var label: String { "seed \(seed) (replay with WFL_TEST_SEED=\(seed))" }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    /// A double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

import XCTest

final class SeededRandomTests: XCTestCase {
    /// A seed gives the same draws again (a failure is replayed), and another seed others.
    func testASeedReplays() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42), c = SeededRandom(seed: 43)
        let first = (0..<20).map { _ in Int.random(in: 0..<1000, using: &a) }
        XCTAssertEqual(first, (0..<20).map { _ in Int.random(in: 0..<1000, using: &b) })
        XCTAssertNotEqual(first, (0..<20).map { _ in Int.random(in: 0..<1000, using: &c) })
        XCTAssertEqual(SeededRandom(seed: 7).label, "seed 7 (replay with WFL_TEST_SEED=7)")
    }
}
