import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The base protocol of the Language Server Protocol: messages framed by `Content-Length`
/// headers on a byte stream, and the lock that lets two threads write whole messages.

/// What reading the next message gave.
enum Incoming {
    /// A body, as its `Content-Length` said.
    case message([UInt8])
    /// A header block that is not one (no or a bad `Content-Length`): the reader has skipped
    /// to the next `Content-Length` and says why.
    case malformed(String)
    /// The input closed.
    case end
}

/// Reads framed messages from a file descriptor.
struct MessageReader {
    let fd: Int32
    var buffer: [UInt8] = []
    var start = 0

    /// The most a header block or a body may hold: 64 MiB, the most wfl reads of a file, plus room.
    static let maxBody = 80 << 20
    static let maxHeader = 1 << 16

    init(fd: Int32) { self.fd = fd }

    /// Reads more input into the buffer; false at the end of the input. The bytes before `start`
    /// may be dropped (every offset into the buffer moves with `start`).
    mutating func fill() -> Bool {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            buffer += chunk[0..<n]
            return true
        }
    }

    /// The offset just past the blank line that ends a header block starting at `start`, and the
    /// block's lines; nil when the buffer does not hold a whole block yet.
    func headerBlock() -> (end: Int, lines: [String])? {
        var lines: [String] = []
        var lineStart = start
        var k = start
        while k < buffer.count {
            if buffer[k] == 0x0A {
                var lineEnd = k
                if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if lineEnd == lineStart {
                    // A blank line: the end of the block (blank lines before any header are skipped).
                    if !lines.isEmpty { return (k + 1, lines) }
                } else {
                    lines.append(String(decoding: buffer[lineStart..<lineEnd], as: UTF8.self))
                }
                lineStart = k + 1
            }
            k += 1
        }
        return nil
    }

    /// Drops input up to the next `Content-Length` (or all of it): where a message may start
    /// again after a malformed one.
    mutating func skipToNextHeader(after offset: Int) {
        let word = Array("content-length".utf8)
        var k = offset
        while k + word.count <= buffer.count {
            var same = true
            for j in 0..<word.count {
                let c = buffer[k + j]
                guard (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != word[j] else { continue }
                same = false
                break
            }
            if same {
                start = k
                return
            }
            k += 1
        }
        // Keep a tail that may be the start of the word.
        start = Swift.max(offset, buffer.count - word.count)
    }

    mutating func next() -> Incoming {
        while true {
            if let (end, lines) = headerBlock() {
                var length: Int? = nil
                var problem: String? = nil
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else {
                        problem = "the header line '\(line.prefix(80))' has no ':'"
                        break
                    }
                    let name = line[..<colon].lowercased()
                    let value = line[line.index(after: colon)...].trimmingCharacters(in: " ")
                    if name == "content-length" {
                        guard let n = Int(value), n >= 0, n <= MessageReader.maxBody else {
                            problem = "'Content-Length: \(value.prefix(40))' is not a length"
                            break
                        }
                        length = n
                    }
                }
                if problem == nil, length == nil { problem = "the header has no 'Content-Length'" }
                if let problem {
                    skipToNextHeader(after: end)
                    return .malformed(problem)
                }
                let n = length!
                // The header is read: the body starts at `start`, which `fill` keeps true when it
                // moves the buffer's bytes (an offset into the buffer kept across it would not be).
                start = end
                while buffer.count - start < n {
                    guard fill() else { return .end }
                }
                let body = Array(buffer[start..<start + n])
                start += n
                return .message(body)
            }
            if buffer.count - start > MessageReader.maxHeader {
                skipToNextHeader(after: start + 1)
                return .malformed("a header longer than \(MessageReader.maxHeader) bytes")
            }
            guard fill() else { return .end }
        }
    }
}

/// A mutex and its condition, on stable storage.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal (the lock held), at most until `deadline` (a monotonic time in seconds).
    func wait(until deadline: Double? = nil) {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return
        }
        // The condition uses the real-time clock: convert the wait into it.
        let left = Swift.max(0, deadline - monotonicSeconds())
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + left
        var until = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
        pthread_cond_timedwait(condition, mutex, &until)
    }

    func signal() { pthread_cond_broadcast(condition) }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Starts `body` on a thread of its own, detached; with `largeStack`, on a large stack (the
/// work nests as deep as a file's blocks).
func startThread(largeStack: Bool = true, _ body: @escaping () -> Void) {
    final class Box {
        let body: () -> Void
        let large: Bool
        init(_ b: @escaping () -> Void, _ large: Bool) { body = b; self.large = large }
    }
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    defer { pthread_attr_destroy(&attr) }
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Box(body, largeStack)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t? = nil
    #endif
    let started = pthread_create(&thread, &attr, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        if box.large { onLargeStack { box.body() } } else { box.body() }
        return nil
    }, context)
    if started != 0 {
        Unmanaged<Box>.fromOpaque(context).release()
        body()
    }
}

/// Writes whole framed messages to standard output, one thread at a time.
final class MessageWriter: @unchecked Sendable {
    private let lock = Lock()
    let fd: Int32

    init(fd: Int32) { self.fd = fd }

    func send(_ message: JSON) {
        let body = message.bytes
        let bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        lock.locked {
            // The client has gone: nothing is left to serve.
            if writeBytes(fd, bytes) != nil { _exit(1) }
        }
    }
}
