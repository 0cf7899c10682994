import Foundation
import XCTest

/// `wfl preview` against what is not a browser on the same page: requests without the token or
/// from another host name, a served path that turns into a FIFO or a device, a missing file,
/// HEAD requests, a tab opened while the file is broken, and clients that send nothing.
final class PreviewHardeningTests: XCTestCase {
    typealias Client = PreviewTests.Client

    /// A preview of a file in a folder of its own.
    final class Running {
        let dir: URL
        let file: URL
        let process = Process()
        let port: Int
        let token: String

        /// Starts `wfl preview` on a file holding `text`; with `descriptors`, under that limit
        /// of open files.
        init(_ text: String, descriptors: Int? = nil) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-preview-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            file = dir.appendingPathComponent("live.wfl")
            try text.write(to: file, atomically: false, encoding: .utf8)
            if let descriptors {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "ulimit -n \(descriptors) && exec \"$0\" preview \"$1\"", WFLCommand.binary.path, file.path]
            } else {
                process.executableURL = WFLCommand.binary
                process.arguments = ["preview", file.path]
            }
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            (port, token) = try PreviewTests.address(out)
        }

        deinit {
            if process.isRunning {
                process.terminate()
                process.waitQuickly()
            }
            try? FileManager.default.removeItem(at: dir)
        }

        func events(_ query: String? = nil) throws -> Client {
            let c = try Client(port: port)
            c.send("GET /events?token=\(query ?? token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            return c
        }

        /// Puts what `make` makes at a path beside the file over the file, in one rename (the
        /// watcher never sees the path missing in between).
        func replace(_ make: (String) throws -> Void) throws {
            let new = dir.appendingPathComponent(".live.wfl.swap")
            try make(new.path)
            XCTAssertEqual(rename(new.path, file.path), 0)
        }

        func link(to target: String) throws {
            try replace { XCTAssertEqual(symlink(target, $0), 0) }
        }

        /// Replaces the file with `text`, as an editor saves (a new file renamed over it).
        func save(_ text: String) throws {
            let new = dir.appendingPathComponent(".live.wfl.new")
            try text.write(to: new, atomically: false, encoding: .utf8)
            XCTAssertEqual(rename(new.path, file.path), 0)
        }
    }

    let good = "container 375 x 812\ncolumns 2\nsection {\n  items 4\n  height 100\n}\n"
    let broken = "container 375 x 812\ncolumns 2\nsection {\n  items 4 +\n  height 100\n}\n"

    /// Only the printed address is answered: without its token, or under another host name (a
    /// page of another site that has its name point at 127.0.0.1), a request is refused, and the
    /// file's lines never leave.
    func testOnlyTheTokenAndTheLoopbackNamesAreAnswered() throws {
        let p = try Running(good)
        XCTAssertEqual(p.token.count, 32)
        XCTAssertNotEqual(try Running(good).token, p.token)
        // A file whose lines would show in the diagnostics: a link to something secret.
        let secret = p.dir.appendingPathComponent("secret.txt")
        try "SECRET-LINE one\n".write(to: secret, atomically: false, encoding: .utf8)
        try p.link(to: secret.path)
        usleep(300_000)
        for (path, host) in [("/", nil), ("/?token=", nil), ("/?token=\(p.token.dropLast())\(p.token.last == "0" ? "1" : "0")", nil), ("/?token=\(p.token)x", nil),
                             ("/events", nil), ("/events?token=\(p.token.uppercased())", nil),
                             ("/?token=\(p.token)", "evil.example:\(p.port)"), ("/events?token=\(p.token)", "evil.example:\(p.port)"),
                             ("/?token=\(p.token)", "127.0.0.1:1"), ("/?token=\(p.token)", "127.0.0.1"), ("/nothing", nil)] {
            let r = try Client(port: p.port).get(path, host: host)
            XCTAssertTrue(r.hasPrefix("HTTP/1.1 403 Forbidden\r\n"), "\(path) \(host ?? ""): \(r.prefix(200))")
            XCTAssertFalse(r.contains("SECRET"), r)
        }
        let noHost = try Client(port: p.port)
        noHost.send("GET /?token=\(p.token) HTTP/1.0\r\n\r\n")
        XCTAssertTrue(String(decoding: try noHost.read(until: { _ in false }), as: UTF8.self).hasPrefix("HTTP/1.1 403"))
        // The printed address, and the same port by the name localhost, are answered.
        for host in ["127.0.0.1:\(p.port)", "localhost:\(p.port)", "LocalHost:\(p.port)"] {
            let r = try Client(port: p.port).get("/?token=\(p.token)", host: host)
            XCTAssertTrue(r.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(host): \(r.prefix(200))")
        }
        let events = try p.events()
        let event = try events.nextEvent()
        XCTAssertTrue((event["diagnostics"] as? String ?? "").contains("SECRET"), "\(event)")
    }

    /// A served path that turns into a FIFO or a link to a device is reported on the page and
    /// never opened; the watcher goes on and shows the file when it comes back.
    func testAPathThatIsNotARegularFileIsReportedNotRead() throws {
        let p = try Running(good)
        let events = try p.events()
        XCTAssertEqual(try events.nextEvent()["state"] as? String, "ok")
        try p.replace { XCTAssertEqual(mkfifo($0, 0o600), 0) }
        var event = try events.nextEvent(timeout: 3)
        XCTAssertEqual(event["state"] as? String, "errors")
        XCTAssertTrue((event["diagnostics"] as? String ?? "").contains("it is a FIFO, not a regular file"), "\(event)")
        // A link to a FIFO, then to a device.
        let fifo = p.dir.appendingPathComponent("elsewhere")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        try p.link(to: fifo.path)
        event = try events.nextEvent(timeout: 3)
        XCTAssertTrue((event["diagnostics"] as? String ?? "").contains("it is a link to a FIFO, not a regular file"), "\(event)")
        try p.link(to: "/dev/null")
        event = try events.nextEvent(timeout: 3)
        XCTAssertTrue((event["diagnostics"] as? String ?? "").contains("it is a link to a character device"), "\(event)")
        // The file back: its picture.
        try p.save(good.replacingOccurrences(of: "items 4", with: "items 5"))
        event = try events.nextEvent(timeout: 3)
        XCTAssertEqual(event["state"] as? String, "ok", "\(event)")
        XCTAssertTrue((event["page"] as? String ?? "").contains("<td>4</td>"))
    }

    /// While the file is missing the page gets one event saying so, not one every tenth of a
    /// second.
    func testAMissingFileIsOneEvent() throws {
        let p = try Running(good)
        let events = try p.events()
        XCTAssertEqual(try events.nextEvent()["state"] as? String, "ok")
        try FileManager.default.removeItem(at: p.file)
        let event = try events.nextEvent(timeout: 3)
        XCTAssertTrue((event["diagnostics"] as? String ?? "").contains("no such file"), "\(event)")
        XCTAssertThrowsError(try events.nextEvent(timeout: 0.35), "a second event while the file stays missing (the file is looked at every 0.1 s)")
        try p.save(good)
        XCTAssertEqual(try events.nextEvent(timeout: 3)["state"] as? String, "ok")
    }

    /// HEAD gets the head of the answer and nothing else: no page, no stream of events.
    func testHeadGetsTheHeadersOnly() throws {
        let p = try Running(good)
        let page = try Client(port: p.port).get("/?token=\(p.token)", method: "HEAD")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200 OK\r\n") && page.contains("Content-Type: text/html"), page)
        XCTAssertTrue(page.hasSuffix("\r\n\r\n"), page)
        let full = try Client(port: p.port).get("/?token=\(p.token)")
        XCTAssertEqual(full.components(separatedBy: "\r\n\r\n").first, page.components(separatedBy: "\r\n\r\n").first)
        XCTAssertTrue(full.hasSuffix("</html>\n"))
        // The stream's head, then the connection ends (a stream would keep it open).
        let events = try Client(port: p.port).get("/events?token=\(p.token)", method: "HEAD")
        XCTAssertTrue(events.hasPrefix("HTTP/1.1 200 OK\r\n") && events.contains("text/event-stream"), events)
        XCTAssertTrue(events.hasSuffix("\r\n\r\n") && !events.contains("data:") && !events.contains("retry:"), events)
        let refused = try Client(port: p.port).get("/", method: "HEAD")
        XCTAssertTrue(refused.hasPrefix("HTTP/1.1 403") && refused.hasSuffix("\r\n\r\n"), refused)
    }

    /// A tab opened while the file has errors gets the last good picture with them; before the
    /// first good picture the page says there is none yet.
    func testATabOpenedWhileTheFileIsBrokenGetsTheLastGoodPicture() throws {
        let p = try Running(broken)
        let page = try Client(port: p.port).get("/?token=\(p.token)")
        XCTAssertTrue(page.contains("No picture yet: the file has had errors since wfl preview started."), page)
        let first = try p.events()
        var event = try first.nextEvent()
        XCTAssertEqual(event["state"] as? String, "errors")
        XCTAssertNil(event["page"], "there never was a good picture: \(event)")
        try p.save(good)
        event = try first.nextEvent(timeout: 3)
        XCTAssertEqual(event["state"] as? String, "ok")
        let picture = try XCTUnwrap(event["page"] as? String)
        try p.save(broken)
        // The open tab keeps its picture: the errors alone.
        event = try first.nextEvent(timeout: 3)
        XCTAssertEqual(event["state"] as? String, "errors")
        XCTAssertNil(event["page"])
        // A new tab: the errors and the last good picture.
        let second = try p.events()
        event = try second.nextEvent()
        XCTAssertEqual(event["state"] as? String, "errors")
        XCTAssertTrue((event["diagnostics"] as? String ?? "").contains("live.wfl:4:11: error: "), "\(event)")
        XCTAssertEqual(event["page"] as? String, picture)
    }

    /// Hundreds of clients that connect and send part of a request do not keep the page from
    /// being served, even where the process may open only 100 files, and the server does not spin
    /// meanwhile.
    func testClientsThatSendNothingDoNotStarveTheOthers() throws {
        let p = try Running(good, descriptors: 100)
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        // All at once, each sending part of a request once it is connected.
        for _ in 0..<300 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            idle.append(fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(p.port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var pending = Set(idle)
        let flood = Date()
        while !pending.isEmpty, Date().timeIntervalSince(flood) < 3 {
            var pfds = pending.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            guard poll(&pfds, nfds_t(pfds.count), 100) > 0 else { continue }
            for p in pfds where p.revents != 0 {
                pending.remove(p.fd)
                _ = "GET / HT".withCString { Glibc.send(p.fd, $0, 8, Int32(MSG_NOSIGNAL)) }
            }
        }
        XCTAssertLessThan(pending.count, 30, "the connections were not taken in")
        // Idle for half a second, once the last connections have been taken in: the server's CPU
        // time in it (clock ticks in /proc, 100 a second). A server that spins takes about 50;
        // the bound leaves room for a slow machine (under AddressSanitizer, with CI's other work,
        // taking in the last connections once took 10 ticks of the half second).
        func ticks() throws -> Int {
            let stat = try String(contentsOfFile: "/proc/\(p.process.processIdentifier)/stat", encoding: .utf8)
            let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
            return Int(fields[11])! + Int(fields[12])!
        }
        usleep(300_000)
        let before = try ticks()
        usleep(500_000)
        XCTAssertLessThan(try ticks() - before, 25, "the server used CPU time while nothing was asked")
        // Then a request is answered at once.
        let started = Date()
        let page = try Client(port: p.port).get("/?token=\(p.token)")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200 OK"), page)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    /// A request's head must arrive whole within 5 seconds: a client that sends a byte now and
    /// then is dropped then, not kept as long as it goes on.
    func testARequestThatDripsIsDroppedAtItsDeadline() throws {
        try Stress.only()
        let p = try Running(good)
        let c = try Client(port: p.port)
        let started = Date()
        var closed: Double? = nil
        for byte in "GET /?token=\(p.token) HTTP/1.1\r\nHost: 127.0.0.1:\(p.port)\r\nX-Slow: \(String(repeating: "x", count: 100))".utf8 {
            var b = byte
            if Glibc.send(c.fd, &b, 1, Int32(MSG_NOSIGNAL)) != 1 {
                closed = Date().timeIntervalSince(started)
                break
            }
            var pfd = pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 300) > 0 {
                closed = Date().timeIntervalSince(started)
                break
            }
            if Date().timeIntervalSince(started) > 12 { break }
        }
        let at = try XCTUnwrap(closed, "the dripping client was never dropped")
        XCTAssertGreaterThan(at, 4)
        XCTAssertLessThan(at, 7)
    }
}
