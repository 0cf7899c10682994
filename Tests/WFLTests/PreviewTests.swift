import Foundation
import XCTest

/// `wfl preview` as a process: the address it prints, the page, the events it pushes when the
/// file changes (an error, then the fix), the loopback-only socket, Ctrl-C, and nothing written.
/// (.ci/preview-check loads the page in a real browser.)
final class PreviewTests: XCTestCase {
    /// A plain TCP connection to the preview.
    final class Client {
        let fd: Int32
        let port: Int
        var buffer: [UInt8] = []

        init(port: Int) throws {
            self.port = port
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            // A connection that is not taken in fails after 5 s rather than wait for minutes.
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard ok == 0 else { throw LSPTestError.closed }
        }

        deinit { close(fd) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads until `done` holds for what has come, failing after `timeout` seconds.
        func read(until done: ([UInt8]) -> Bool, timeout: Double = 10) throws -> [UInt8] {
            let deadline = Date().addingTimeInterval(timeout)
            while !done(buffer) {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { throw LSPTestError.timeout }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, Int32(left * 1000)) > 0 else { throw LSPTestError.timeout }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                buffer += chunk[0..<n]
            }
            return buffer
        }

        /// A whole response to a request that closes the connection.
        func get(_ path: String, method: String = "GET", host: String? = nil) throws -> String {
            send("\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\r\n")
            // Until the server closes the connection.
            _ = try read(until: { _ in false }, timeout: 10)
            return String(decoding: buffer, as: UTF8.self)
        }

        /// The next Server-Sent Event's data, parsed.
        func nextEvent(timeout: Double = 10) throws -> [String: Any] {
            while true {
                let text = try read(until: { b in
                    String(decoding: b, as: UTF8.self).range(of: "\n\n") != nil
                }, timeout: timeout)
                let s = String(decoding: text, as: UTF8.self)
                let end = s.range(of: "\n\n")!
                let event = String(s[..<end.lowerBound])
                buffer = Array(s[end.upperBound...].utf8)
                for line in event.split(separator: "\n") where line.hasPrefix("data: ") {
                    let json = try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8))
                    return try XCTUnwrap(json as? [String: Any])
                }
            }
        }
    }

    func testLivePreview() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("live.wfl")
        let good = "container 375 x 812\ncolumns 2\nsection {\n  items 4\n  height 100\n}\n"
        try good.write(to: file, atomically: false, encoding: .utf8)

        let process = Process()
        process.executableURL = WFLCommand.binary
        process.arguments = ["preview", file.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The address, on the loopback interface, a port the system chose, and the token.
        let (port, token) = try PreviewTests.address(out)
        XCTAssertGreaterThan(port, 0)
        // Listening on 127.0.0.1 only: the kernel's table of TCP sockets says so.
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let hex = String(format: "%04X", port)
        let listening = table.split(separator: "\n").filter { $0.contains(":\(hex) ") && $0.contains(" 0A ") }
        XCTAssertEqual(listening.count, 1, "\(listening)")
        XCTAssertTrue(listening.first?.contains("0100007F:\(hex)") ?? false, "\(listening)")

        // The page listens for the events.
        let page = try Client(port: port).get("/?token=\(token)")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200 OK"), page)
        XCTAssertTrue(page.contains("new EventSource('events?token=' + encodeURIComponent(wflPreviewToken))"), page)
        XCTAssertTrue(page.contains("var wflPreviewToken = '\(token)';"), page)
        XCTAssertTrue(try Client(port: port).get("/nothing?token=\(token)").hasPrefix("HTTP/1.1 404"))
        XCTAssertTrue(try Client(port: port).get("/?token=\(token)", method: "POST").hasPrefix("HTTP/1.1 405"))

        // The events: the picture at once; then each change, within half a second of the save.
        let events = try Client(port: port)
        events.send("GET /events?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        var event = try events.nextEvent()
        XCTAssertEqual(event["state"] as? String, "ok")
        let firstPage = try XCTUnwrap(event["page"] as? String)
        XCTAssertTrue(firstPage.contains("<svg") && firstPage.contains("<td>3</td>"), firstPage)

        try good.replacingOccurrences(of: "items 4", with: "items 4 +").write(to: file, atomically: false, encoding: .utf8)
        var saved = Date()
        event = try events.nextEvent()
        XCTAssertLessThan(Date().timeIntervalSince(saved), 0.5)
        XCTAssertEqual(event["state"] as? String, "errors")
        let diagnostics = try XCTUnwrap(event["diagnostics"] as? String)
        XCTAssertTrue(diagnostics.contains("live.wfl:4:11: error: "), diagnostics)

        // Saved as editors do, by renaming a new file over it.
        let fixed = dir.appendingPathComponent(".live.wfl.new")
        try good.replacingOccurrences(of: "items 4", with: "items 6").write(to: fixed, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(fixed.path, file.path), 0)
        saved = Date()
        event = try events.nextEvent()
        XCTAssertLessThan(Date().timeIntervalSince(saved), 0.5)
        XCTAssertEqual(event["state"] as? String, "ok")
        let secondPage = try XCTUnwrap(event["page"] as? String)
        XCTAssertTrue(secondPage.contains("<td>5</td>") && !firstPage.contains("<td>5</td>"), secondPage)

        // Ctrl-C stops it; it wrote nothing beside the file.
        kill(process.processIdentifier, SIGINT)
        process.waitQuickly()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["live.wfl"])
    }

    /// The port and the token of the address `wfl preview` prints first.
    static func address(_ out: Pipe) throws -> (port: Int, token: String) {
        var printed = ""
        let deadline = Date().addingTimeInterval(20)
        while !printed.contains("\n"), Date() < deadline {
            printed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        // (Without a token, "": the tests of other things then run on a version that had none.)
        let match = try XCTUnwrap(printed.range(of: #"http://127\.0\.0\.1:[0-9]+/(\?token=[0-9a-f]+)? "#, options: .regularExpression), printed)
        let address = printed[match].dropFirst("http://127.0.0.1:".count).dropLast()
        let parts = address.split(separator: "/", omittingEmptySubsequences: false)
        return (try XCTUnwrap(Int(parts[0])), String(parts[1].dropFirst("?token=".count)))
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try WFLCommand.run(["preview"]).status, 64)
        XCTAssertEqual(try WFLCommand.run(["preview", "samples/feed.wfl", "--port", "http"]).status, 64)
        XCTAssertEqual(try WFLCommand.run(["preview", "samples/feed.wfl", "--port", "70000"]).status, 64)
        XCTAssertEqual(try WFLCommand.run(["preview", "-"]).status, 64)
        let missing = try WFLCommand.run(["preview", "/nonexistent/feed.wfl"])
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.stderr.contains("cannot read '/nonexistent/feed.wfl'"), missing.stderr)
        XCTAssertEqual(try WFLCommand.run(["lsp", "extra"]).status, 64)
    }
}
