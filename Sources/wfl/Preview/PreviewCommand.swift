import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `wfl preview FILE [--port N]`: one page on http://127.0.0.1:PORT/ showing the `html` format
/// of FILE, redrawn when FILE changes on disk (docs/usage.md, "Writing .wfl files in an editor").
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
        if case .failure(let e) = readSource(path) {
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
        let preview = Preview(path: path)
        preview.refresh()
        startThread(largeStack: true) { preview.watch() }
        writeOut("wfl preview: http://127.0.0.1:\(listener.port)/ shows '\(path)', redrawn when it changes; Ctrl-C stops it\n")
        flushOutput()
        while true {
            guard let fd = listener.accept() else { continue }
            startThread(largeStack: false) { preview.serve(Connection(fd: fd)) }
        }
    }
}

/// The file watched and the latest event made of it.
final class Preview: @unchecked Sendable {
    let path: String
    let lock = Lock()
    // Under `lock`.
    private var event = ""
    private var generation = 0

    // The watcher's own.
    private var seen: (size: Int, seconds: Int, nanoseconds: Int, inode: UInt64)? = nil
    private var bytes: [UInt8]? = nil

    init(path: String) { self.path = path }

    /// Looks at the file every `PreviewCommand.interval` seconds, forever.
    func watch() {
        while true {
            usleep(UInt32(PreviewCommand.interval * 1e6))
            refresh()
        }
    }

    /// Reads the file when its size, time or inode changed, and makes a new event when its bytes did.
    func refresh() {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if seen != nil || bytes == nil {
                seen = nil
                bytes = nil
                publish(Preview.errors("wfl: cannot read '\(path)': \(errorText(errno))\n"))
            }
            return
        }
        #if canImport(Glibc)
        let now = (Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec), UInt64(st.st_ino))
        #else
        let now = (Int(st.st_size), Int(st.st_mtimespec.tv_sec), Int(st.st_mtimespec.tv_nsec), UInt64(st.st_ino))
        #endif
        if let s = seen, s == now { return }
        seen = now
        let source: SourceFile
        switch readSource(path) {
        case .failure(let e):
            bytes = nil
            publish(Preview.errors("wfl: \(e.message)\n"))
            return
        case .success(let s):
            source = s
        }
        if source.bytes == bytes { return }
        bytes = source.bytes
        publish(Preview.render(source))
    }

    /// The event of one version of the file.
    static func render(_ source: SourceFile) -> JSON {
        let run = Pipeline.run(source)
        let text = DiagnosticRenderer(color: false).render(run.diagnostics, in: source)
        if run.hasErrors { return errors(text) }
        return .object([("state", .string("ok")), ("page", .string(HTMLFormat.format(run.tables))), ("diagnostics", .string(text))])
    }

    static func errors(_ text: String) -> JSON {
        .object([("state", .string("errors")), ("diagnostics", .string(text))])
    }

    func publish(_ message: JSON) {
        let text = String(decoding: message.bytes, as: UTF8.self)
        lock.locked {
            generation += 1
            event = text
            lock.signal()
        }
    }

    /// Answers one connection: the page, or the stream of events.
    func serve(_ c: Connection) {
        defer { c.close() }
        guard let (method, target) = c.requestLine() else { return }
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        guard method == "GET" || method == "HEAD" else {
            c.respond("405 Method Not Allowed", type: "text/plain; charset=utf-8", "only GET is served here\n")
            return
        }
        switch path {
        case "/":
            c.respond("200 OK", type: "text/html; charset=utf-8", PreviewPage.html(title: self.path))
        case "/events":
            guard c.send("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\nretry: 300\n\n") else { return }
            var sent = 0
            while true {
                // The latest event when there is a new one; a comment every 15 s keeps the
                // connection open through proxies and tells a closed one.
                let next: String? = lock.locked {
                    let deadline = monotonicSeconds() + 15
                    while generation == sent, monotonicSeconds() < deadline { lock.wait(until: deadline) }
                    if generation == sent { return nil }
                    sent = generation
                    return event
                }
                let ok = next.map { c.send("data: " + $0 + "\n\n") } ?? c.send(": still here\n\n")
                if !ok { return }
            }
        default:
            c.respond("404 Not Found", type: "text/plain; charset=utf-8", "not found: the page is at /\n")
        }
    }
}
