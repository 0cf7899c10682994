#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deep input within the documented limits (256 nested parentheses, user functions 64 calls deep)
/// nests the parser's and the compiled closures' frames far past a secondary thread's 512 KiB or
/// a main thread's 8 MiB. So the pipeline runs its stages on a thread of its own with a large
/// stack, whatever thread calls it: the library is safe on any stack, not only the CLI's.
enum LargeStack {
    /// Reserved, not committed: pages are touched only as deep as the work goes.
    static let size = 512 << 20

    /// Set on the threads this made, so that nested calls run in place.
    nonisolated(unsafe) private static var key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()

    /// True on a thread `run` started.
    static var isLarge: Bool { pthread_getspecific(key) != nil }

    /// Runs `body` on a thread with a `size` stack and waits for it; in place when already on one.
    static func run<T>(_ body: @escaping () -> T) -> T {
        if isLarge { return body() }
        var result: T? = nil
        // No thread to be had: run here, on whatever stack this is.
        guard let thread = start({ result = body() }) else { return body() }
        join(thread)
        return result!
    }

    /// Runs `a` here and `b` on a thread of its own with a `size` stack, at once, and waits for
    /// both (`b` runs here after `a` when no thread is to be had).
    static func concurrently<A, B>(_ a: () -> A, _ b: @escaping () -> B) -> (A, B) {
        var second: B? = nil
        guard let thread = start({ second = b() }) else {
            let first = a()
            return (first, b())
        }
        let first = a()
        join(thread)
        return (first, second!)
    }

    #if canImport(Glibc)
    typealias Thread = pthread_t
    #else
    typealias Thread = pthread_t?
    #endif

    /// A new thread with a `size` stack running `work`, or nil when none could be made.
    private static func start(_ work: @escaping () -> Void) -> Thread? {
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setstacksize(&attr, size)
        let context = Unmanaged.passRetained(Job(work)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t? = nil
        #endif
        let started = pthread_create(&thread, &attr, { raw in
            pthread_setspecific(LargeStack.key, UnsafeRawPointer(bitPattern: 1))
            Unmanaged<Job>.fromOpaque(LargeStack.pointer(raw)).takeRetainedValue().work()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    private static func join(_ thread: Thread) {
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
    }

    /// The thread's argument: optional in Glibc's `pthread_create`, not in Darwin's.
    static func pointer(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer { raw! }
    static func pointer(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer { raw }

    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }
}

/// A value that one thread gives once and another takes, waiting for it (the parser's second
/// thread waits so for the first's reading of the file's opening: ParserHalves.swift).
final class Handoff<Value>: @unchecked Sendable {
    // Allocated, so that the mutex and the condition never move.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let given = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value? = nil
    private var isGiven = false

    init() {
        pthread_mutex_init(lock, nil)
        pthread_cond_init(given, nil)
    }

    deinit {
        pthread_cond_destroy(given)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        given.deallocate()
    }

    /// Gives `value` (nil: nothing to give) and wakes the taker.
    func give(_ value: Value?) {
        pthread_mutex_lock(lock)
        self.value = value
        isGiven = true
        pthread_cond_signal(given)
        pthread_mutex_unlock(lock)
    }

    /// Waits until `give` has been called, and returns what it gave.
    func take() -> Value? {
        pthread_mutex_lock(lock)
        while !isGiven { pthread_cond_wait(given, lock) }
        let taken = value
        value = nil
        pthread_mutex_unlock(lock)
        return taken
    }
}

/// A value that threads read and change under a lock.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` on the value, holding the lock.
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body(&value)
    }
}

/// Runs `body` on a thread with a large stack (in place when already on one): what the `wfl`
/// executable wraps its REPL loop and formatter in.
package func onLargeStack<T>(_ body: @escaping () -> T) -> T {
    LargeStack.run(body)
}
