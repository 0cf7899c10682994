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
        guard listen(fd, 16) == 0 else {
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

    /// The next connection, or nil after an error that is not worth stopping for.
    func accept() -> Int32? {
        #if canImport(Glibc)
        let client = Glibc.accept(fd, nil, nil)
        #else
        let client = Darwin.accept(fd, nil, nil)
        #endif
        return client >= 0 ? client : nil
    }
}

/// One HTTP connection.
struct Connection {
    let fd: Int32

    /// The method and path of the request, once its head has arrived (at most 16 KiB, within
    /// 10 seconds); nil when it does not come.
    func requestLine() -> (method: String, path: String)? {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while head.count < 16 << 10 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            head += chunk[0..<n]
            if let end = Connection.endOfHead(head) {
                let text = String(decoding: head[0..<end], as: UTF8.self)
                let parts = text.split(separator: "\r\n", maxSplits: 1).first?.split(separator: " ") ?? []
                guard parts.count >= 2 else { return nil }
                return (String(parts[0]), String(parts[1]))
            }
        }
        return nil
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

    /// A whole response that closes the connection.
    func respond(_ status: String, type: String, _ body: String) {
        let bytes = Array(body.utf8)
        _ = send("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n")
        send(bytes)
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
