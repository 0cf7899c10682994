#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The little HTTP that `wfl preview` needs, on POSIX sockets: a listening socket on the loopback
/// interface only, and reading a request's head.

/// Why the server could not listen.
struct ListenError: Error {
    var message: String
}

/// A socket listening on 127.0.0.1 (never another interface).
struct Listener {
    let fd: Int32
    let port: Int

    /// Listens on `port`, or on a free port the system picks when `port` is 0.
    static func open(port: Int) -> Result<Listener, ListenError> {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failure(ListenError(message: "cannot open a socket: \(errorText(errno))")) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)  // 127.0.0.1
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let why = errorText(errno)
            close(fd)
            return .failure(ListenError(message: "cannot listen on 127.0.0.1:\(port): \(why)"))
        }
        // Room for a burst of connections (a page and its events, many tabs at once).
        guard listen(fd, 128) == 0 else {
            let why = errorText(errno)
            close(fd)
            return .failure(ListenError(message: "cannot listen on 127.0.0.1:\(port): \(why)"))
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return .success(Listener(fd: fd, port: Int(UInt16(bigEndian: actual.sin_port))))
    }

    /// The next connection. After an error other than an interruption (no descriptor left, no
    /// memory) it waits a little before it tries again rather than spin.
    func accept() -> Int32 {
        while true {
            #if canImport(Glibc)
            let client = Glibc.accept(fd, nil, nil)
            #else
            let client = Darwin.accept(fd, nil, nil)
            #endif
            if client >= 0 { return client }
            if errno != EINTR && errno != ECONNABORTED { usleep(50_000) }
        }
    }
}

/// A request's head: what `wfl preview` looks at.
struct Request {
    var method: String
    /// The path without its query.
    var path: String
    /// The query's `name=value` pairs, undecoded.
    var query: [(String, String)]
    /// The `Host` header, nil when there is none.
    var host: String?

    func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
}

/// One HTTP connection.
struct Connection {
    let fd: Int32

    /// The head of the request, once it has arrived (at most 16 KiB, all of it before
    /// `deadline`, a time on the monotonic clock: a client that sends a byte now and then is not
    /// waited for longer); nil when it does not come.
    func request(before deadline: Double) -> Request? {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while head.count < 16 << 10 {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(Swift.max(1, Swift.min(left * 1000, 60_000))))
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            guard ready > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return nil }
            head += chunk[0..<n]
            if let end = Connection.endOfHead(head) {
                return Connection.parse(String(decoding: head[0..<end], as: UTF8.self))
            }
        }
        return nil
    }

    /// The request line and the `Host` header of a head.
    static func parse(_ text: String) -> Request? {
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [(String, String)] = []
        if target.count > 1 {
            for pair in target[1].split(separator: "&") {
                let nv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((String(nv[0]), nv.count > 1 ? String(nv[1]) : ""))
            }
        }
        var host: String? = nil
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "host" else { continue }
            // Two Host headers: refused, as HTTP asks.
            guard host == nil else { return nil }
            var value = line[line.index(after: colon)...]
            while let f = value.first, f == " " || f == "\t" { value = value.dropFirst() }
            while let l = value.last, l == " " || l == "\t" { value = value.dropLast() }
            host = String(value)
        }
        return Request(method: String(parts[0]), path: String(target[0]), query: query, host: host)
    }

    static func endOfHead(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for k in 0...(b.count - 4) where b[k] == 13 && b[k + 1] == 10 && b[k + 2] == 13 && b[k + 3] == 10 { return k }
        return nil
    }

    /// Sends all of `bytes`; false when the other side has gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var k = 0
        while k < bytes.count {
            #if canImport(Glibc)
            let n = bytes[k...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let n = bytes[k...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            k += n
        }
        return true
    }

    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// A whole response that closes the connection; without its body when `headOnly` (the
    /// answer to HEAD).
    func respond(_ status: String, type: String, _ body: String, headOnly: Bool = false) {
        let bytes = Array(body.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        _ = send(Array(head.utf8) + (headOnly ? [] : bytes))
    }

    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }
}

/// The connections being served: at most `limit`. One more drops the oldest that has not sent
/// its whole request yet, or when all have, the oldest of all, so that clients that send
/// nothing (or a byte now and then) cannot keep anyone else out.
final class ConnectionTable: @unchecked Sendable {
    let limit: Int
    private let lock = Lock()
    /// In the order they came; `waiting` until their request has arrived.
    private var open: [(id: Int, fd: Int32, waiting: Bool)] = []
    private var nextID = 0

    init(limit: Int) { self.limit = limit }

    /// Takes in a new connection: its id in the table.
    func admit(_ fd: Int32) -> Int {
        lock.locked {
            if open.count >= limit {
                let k = open.firstIndex { $0.waiting } ?? 0
                // Its thread sees the connection end and closes it; the descriptor stays its own
                // until then (the entry goes before it is closed, under this lock).
                shutdown(open[k].fd, Int32(SHUT_RDWR))
                open.remove(at: k)
            }
            nextID += 1
            open.append((nextID, fd, true))
            return nextID
        }
    }

    /// The connection's request has come.
    func served(_ id: Int) {
        lock.locked {
            if let k = open.firstIndex(where: { $0.id == id }) { open[k].waiting = false }
        }
    }

    /// Closes the connection (dropped or not).
    func close(_ id: Int, _ c: Connection) {
        lock.locked { open.removeAll { $0.id == id } }
        c.close()
    }
}
