import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `wfl preview FILE [--port N]`: one page on http://127.0.0.1:PORT/?token=TOKEN showing the
/// `html` format of FILE, redrawn when FILE changes on disk (docs/usage.md, "Writing .wfl files in
/// an editor"). Only requests with the token, for 127.0.0.1:PORT or localhost:PORT, are answered.
///
/// A watcher thread looks at the file's size, time and inode every `interval` seconds and, when
/// its bytes changed, evaluates it and makes the next event: the page, or the diagnostics as
/// `wfl run` prints them (the browser keeps the last good picture under them). Each page that is
/// open holds one Server-Sent Events connection, on a thread of its own, which sends every event
/// as it is made. Nothing is written to disk.
struct PreviewCommand {
    let cli: CLI

    /// How often the file is looked at: well within the half second a redraw may take.
    static let interval = 0.1

    func run(_ args: [String]) -> Int32 {
        var path: String? = nil
        var port = 0
        var k = 0
        while k < args.count {
            let a = args[k]
            if a == "--port" || a.hasPrefix("--port=") {
                var value: String? = a.hasPrefix("--port=") ? String(a.dropFirst(7)) : nil
                if value == nil, k + 1 < args.count {
                    k += 1
                    value = args[k]
                }
                guard let v = value, let n = Int(v), n >= 0, n <= 65535 else {
                    return cli.usageError("'--port' takes a port number from 0 to 65535 (0: a free port)", command: "preview")
                }
                port = n
            } else if a.hasPrefix("-") && a != "-" {
                return cli.unknownOption(a, for: "preview", among: ["--port"])
            } else if path != nil {
                return cli.usageError("'preview' takes one FILE, not more", command: "preview")
            } else {
                path = a
            }
            k += 1
        }
        guard let path else { return cli.usageError("'preview' needs a FILE", command: "preview") }
        guard path != "-" else { return cli.usageError("'preview' watches a file on disk: it cannot read standard input", command: "preview") }
        if case .failure(let e) = Preview.read(path) {
            writeErr("wfl: \(e.message)\n")
            return Exit.ioError
        }
        let listener: Listener
        switch Listener.open(port: port) {
        case .failure(let e):
            writeErr("wfl: \(e.message)\n")
            return Exit.ioError
        case .success(let l):
            listener = l
        }
        signal(SIGPIPE, SIG_IGN)
        let preview = Preview(path: path, port: listener.port, token: Preview.newToken())
        preview.refresh()
        startThread(largeStack: true) { preview.watch() }
        writeOut("wfl preview: http://127.0.0.1:\(listener.port)/?token=\(preview.token) shows '\(path)', redrawn when it changes; Ctrl-C stops it\n")
        flushOutput()
        let table = ConnectionTable(limit: PreviewCommand.connectionLimit)
        while true {
            let fd = listener.accept()
            // A client that stops reading is dropped rather than hold its thread for good.
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let id = table.admit(fd)
            startThread(largeStack: false) {
                let c = Connection(fd: fd)
                defer { table.close(id, c) }
                guard let request = c.request(before: monotonicSeconds() + PreviewCommand.requestDeadline) else { return }
                table.served(id)
                preview.serve(c, request)
            }
        }
    }

    /// The most connections served at once: tabs hold one each (a browser opens at most six to
    /// one address), and a client that sends nothing must not use up the process's descriptors.
    static let connectionLimit = 64

    /// How long a request's head may take to arrive, all of it (a browser on the same machine
    /// sends it at once).
    static let requestDeadline = 5.0
}

/// The file watched and the latest event made of it.
final class Preview: @unchecked Sendable {
    let path: String
    let port: Int
    /// The secret in the printed address, without which nothing is answered.
    let token: String
    let lock = Lock()
    // Under `lock`.
    private var event = ""
    /// The first event for a page that connects now: `event`, with the last good picture when
    /// the file has errors (a page opened then shows it, dimmed, under them).
    private var opening = ""
    private var generation = 0

    // The watcher's own.
    private var seen: (size: Int, seconds: Int, nanoseconds: Int, inode: UInt64)? = nil
    private var bytes: [UInt8]? = nil
    private var lastGood: String? = nil

    init(path: String, port: Int, token: String) {
        self.path = path
        self.port = port
        self.token = token
    }

    /// 128 random bits in hex, from the system's secure generator.
    static func newToken() -> String {
        var g = SystemRandomNumberGenerator()
        var out = ""
        for _ in 0..<2 {
            let word = String(g.next() as UInt64, radix: 16)
            out += String(repeating: "0", count: 16 - word.count) + word
        }
        return out
    }

    /// Looks at the file every `PreviewCommand.interval` seconds, forever.
    func watch() {
        while true {
            usleep(UInt32(PreviewCommand.interval * 1e6))
            refresh()
        }
    }

    /// Why what `st` describes cannot be previewed, or nil for a regular file.
    static func notRegular(_ st: stat, link: Bool) -> String? {
        let what: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: what = "a directory"
        case S_IFIFO: what = "a FIFO"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFSOCK: what = "a socket"
        default: what = "not a file"
        }
        return (link ? "a link to " : "") + what + ", not a regular file"
    }

    /// Reads the file at `path` if it is a regular file. It is opened without blocking and
    /// looked at once open, so a FIFO or a device put there meanwhile is never read or waited on.
    static func read(_ path: String) -> Result<SourceFile, ReadError> {
        var st = stat(), lst = stat()
        let isLink = lstat(path, &lst) == 0 && (lst.st_mode & S_IFMT) == S_IFLNK
        if stat(path, &st) == 0, let why = notRegular(st, link: isLink) {
            return .failure(ReadError(message: "cannot read '\(path)': it is \(why)"))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadError(message: "cannot read '\(path)': \(errorText(errno))")) }
        defer { close(fd) }
        guard fstat(fd, &st) == 0 else { return .failure(ReadError(message: "cannot read '\(path)': \(errorText(errno))")) }
        if let why = notRegular(st, link: isLink) {
            return .failure(ReadError(message: "cannot read '\(path)': it is \(why)"))
        }
        return readAll(fd: fd, path: path).map { SourceFile(name: path, bytes: $0) }
    }

    /// Reads the file when its size, time or inode changed, and makes a new event when its bytes
    /// did. A file that is missing or not a regular file is an error event, made once.
    func refresh() {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let why = errorText(errno)
            seen = nil
            bytes = nil
            publish(errors("wfl: cannot read '\(path)': \(why)\n"))
            return
        }
        #if canImport(Glibc)
        let now = (Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec), UInt64(st.st_ino))
        #else
        let now = (Int(st.st_size), Int(st.st_mtimespec.tv_sec), Int(st.st_mtimespec.tv_nsec), UInt64(st.st_ino))
        #endif
        if (st.st_mode & S_IFMT) == S_IFREG, let s = seen, s == now { return }
        let source: SourceFile
        switch Preview.read(path) {
        case .failure(let e):
            seen = nil
            bytes = nil
            publish(errors("wfl: \(e.message)\n"))
            return
        case .success(let s):
            source = s
        }
        seen = now
        if source.bytes == bytes { return }
        bytes = source.bytes
        publish(render(source))
    }

    /// The event of one version of the file.
    func render(_ source: SourceFile) -> JSON {
        let run = Pipeline.run(source)
        let text = DiagnosticRenderer(color: false).render(run.diagnostics, in: source)
        if run.hasErrors { return errors(text) }
        let page = HTMLFormat.format(run.tables)
        lastGood = page
        return .object([("state", .string("ok")), ("page", .string(page)), ("diagnostics", .string(text))])
    }

    func errors(_ text: String) -> JSON {
        .object([("state", .string("errors")), ("diagnostics", .string(text))])
    }

    /// Makes `message` the latest event, unless it is the latest already.
    func publish(_ message: JSON) {
        let text = String(decoding: message.bytes, as: UTF8.self)
        var first = text
        if message["state"]?.string == "errors", let lastGood, case .object(var members) = message {
            members.append(("page", .string(lastGood)))
            first = String(decoding: JSON.object(members).bytes, as: UTF8.self)
        }
        lock.locked {
            guard text != event else { return }
            generation += 1
            event = text
            opening = first
            lock.signal()
        }
    }

    /// Why `request` is refused (403), or nil. Only the addresses of the loopback interface are
    /// answered, so a page of another site that has its name point at 127.0.0.1 gets nothing;
    /// and only with the token, so other users of the machine get nothing either.
    func refusal(_ request: Request) -> String? {
        let allowed = ["127.0.0.1:\(port)", "localhost:\(port)"] + (port == 80 ? ["127.0.0.1", "localhost"] : [])
        guard let host = request.host, allowed.contains(host.lowercased()) else {
            return "this preview answers only http://127.0.0.1:\(port)/ and http://localhost:\(port)/\n"
        }
        guard let given = request.parameter("token"), Preview.same(given, token) else {
            return "this address needs the token that 'wfl preview' printed: http://127.0.0.1:\(port)/?token=...\n"
        }
        return nil
    }

    /// Compares in a time that does not depend on where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var d: UInt8 = 0
        for k in 0..<x.count { d |= x[k] ^ y[k] }
        return d == 0
    }

    /// Answers one request: the page, or the stream of events.
    func serve(_ c: Connection, _ request: Request) {
        let text = "text/plain; charset=utf-8"
        if let why = refusal(request) {
            c.respond("403 Forbidden", type: text, why, headOnly: request.method == "HEAD")
            return
        }
        let head = request.method == "HEAD"
        guard request.method == "GET" || head else {
            c.respond("405 Method Not Allowed", type: text, "only GET is served here\n")
            return
        }
        switch request.path {
        case "/":
            c.respond("200 OK", type: "text/html; charset=utf-8", PreviewPage.html(title: path, token: token), headOnly: head)
        case "/events":
            guard c.send("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\n") else { return }
            if head { return }
            guard c.send("retry: 300\n\n") else { return }
            var sent = 0
            while true {
                // The latest event when there is a new one; a comment every 15 s keeps the
                // connection open through proxies and tells a closed one.
                let next: String? = lock.locked {
                    let deadline = monotonicSeconds() + 15
                    while generation == sent, monotonicSeconds() < deadline { lock.wait(until: deadline) }
                    if generation == sent { return nil }
                    defer { sent = generation }
                    return sent == 0 ? opening : event
                }
                let ok = next.map { c.send("data: " + $0 + "\n\n") } ?? c.send(": still here\n\n")
                if !ok { return }
            }
        default:
            c.respond("404 Not Found", type: text, "not found: the page is at /\n", headOnly: head)
        }
    }
}
