import Dispatch

/// Work of a generative test on every core. XCTest on Linux runs one test at a time, so a test
/// that evaluates hundreds of files one after another leaves the other core idle; these run the
/// evaluations side by side and hand the results back in order, for the test to assert on its
/// own thread, so failures are reported in the inputs' order as in the one-at-a-time loop. (An
/// assertion that fails inside `body` is still recorded against the running test.)
enum Concurrent {
    /// `xs.map(body)` with the calls spread over the cores; the first error (in input order) is
    /// rethrown after every call has ended.
    static func map<T, R>(_ xs: [T], _ body: (T) throws -> R) rethrows -> [R] {
        if xs.count < 2 { return try xs.map(body) }
        return try withoutActuallyEscaping(body) { body in
            let slots = Slots<R>(count: xs.count)
            let work = Work(count: xs.count)
            let unchecked = UncheckedBody(call: { k in
                do { slots.results[k] = .success(try body(xs[k])) } catch { slots.results[k] = .failure(error) }
            })
            DispatchQueue.concurrentPerform(iterations: min(xs.count, workers)) { _ in
                while let k = work.next() { unchecked.call(k) }
            }
            return try slots.results.map { try $0!.get() }
        }
    }

    /// `xs.forEach(body)`, spread as `map` spreads it.
    static func forEach<T>(_ xs: [T], _ body: (T) throws -> Void) rethrows {
        _ = try map(xs, body)
    }

    /// `xs.flatMap(body)`, spread as `map` spreads it.
    static func flatMap<T, R>(_ xs: [T], _ body: (T) throws -> [R]) rethrows -> [R] {
        try map(xs, body).flatMap { $0 }
    }

    /// Two threads a core: a call that waits for a child process leaves its core to the child.
    static let workers = 2 * max(1, sysconfCores)

    private static var sysconfCores: Int {
        #if canImport(Glibc) || canImport(Darwin)
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        2
        #endif
    }

    /// One slot per input, each written by exactly one call (through a pointer: an array's
    /// setter would check its buffer's uniqueness from every thread).
    private final class Slots<R>: @unchecked Sendable {
        let results: UnsafeMutableBufferPointer<Result<R, any Error>?>
        init(count: Int) {
            results = .allocate(capacity: count)
            results.initialize(repeating: nil)
        }
        deinit {
            results.deinitialize()
            results.deallocate()
        }
    }

    /// The next input not yet taken, handed out under a lock.
    private final class Work: @unchecked Sendable {
        private var taken = 0
        private let count: Int
        private let lock = DispatchSemaphore(value: 1)
        init(count: Int) { self.count = count }
        func next() -> Int? {
            lock.wait()
            defer { lock.signal() }
            guard taken < count else { return nil }
            taken += 1
            return taken - 1
        }
    }

    private struct UncheckedBody: @unchecked Sendable {
        let call: (Int) -> Void
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
