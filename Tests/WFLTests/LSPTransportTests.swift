import Foundation
import XCTest

extension LSPClient {
    /// Reads what the server has written so far, without waiting.
    func pump() {
        let fd = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 0) > 0 else { return }
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { return }
            buffer += chunk[0..<got]
        }
    }

    /// Writes `bytes` and waits until the server has read them all, so that the server's next
    /// read starts exactly after them: the stream is cut there. The server's output is read
    /// meanwhile (a full pipe would stop it).
    func sendCut(_ bytes: [UInt8], timeout: Double = 10) throws {
        let fd = input.fileHandleForWriting.fileDescriptor
        var k = 0
        let deadline = Date().addingTimeInterval(timeout)
        while k < bytes.count {
            // At most what the pipe holds, so that the write never blocks while the server's
            // output waits to be read.
            let n = Swift.min(bytes.count - k, 16384)
            let wrote = bytes[k..<k + n].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, n) }
            guard wrote > 0 else { throw LSPTestError.closed }
            k += wrote
            try waitUntilRead(deadline)
        }
        try waitUntilRead(deadline)
    }

    private func waitUntilRead(_ deadline: Date) throws {
        let fd = input.fileHandleForWriting.fileDescriptor
        while true {
            var waiting: Int32 = 0
            guard ioctl(fd, UInt(FIONREAD), &waiting) == 0 else { throw LSPTestError.closed }
            if waiting == 0 { return }
            pump()
            guard Date() < deadline else { throw LSPTestError.timeout }
            usleep(50)
        }
    }

    static func frame(_ message: [String: Any]) throws -> [UInt8] {
        var m = message
        m["jsonrpc"] = "2.0"
        let body = try JSONSerialization.data(withJSONObject: m)
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + Array(body)
    }

    /// The reply to request `id`, failing after `timeout` seconds.
    func reply(_ id: Int, timeout: Double) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let m = try read(timeout: Swift.max(0.01, deadline.timeIntervalSinceNow))
            if let got = m["id"] as? Int, got == id { return m }
            if m["method"] != nil { notifications.append(m) }
        }
    }
}

/// The framing of `wfl lsp`'s input: a message arrives whole however the stream is cut into
/// reads (an editor's pipe splits large messages anywhere).
final class LSPTransportTests: XCTestCase {
    let uri = "file:///tmp/lsp-test/cut.wfl"

    func start() throws -> LSPClient {
        let c = try LSPClient()
        let id = try c.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [String: Any]()])
        _ = try c.reply(id, timeout: 20)
        try c.notify("initialized", [:])
        try c.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "wfl", "version": 1,
                                                              "text": "let pad = 10\nsection {\n  items 3\n  height pad\n}\n"]])
        return c
    }

    /// Two requests, the stream cut at every byte: each time both are answered. The cut in the
    /// second body, right after the first message, is where the reader once lost its place.
    func testEveryCutOfTwoMessagesIsRead() throws {
        let c = try start()
        var id = 100
        for cut in 0...400 {
            let first = try LSPClient.frame(["id": id, "method": "textDocument/documentSymbol", "params": ["textDocument": ["uri": uri]]])
            let second = try LSPClient.frame(["id": id + 1, "method": "textDocument/hover",
                                              "params": ["textDocument": ["uri": uri], "position": ["line": 3, "character": 10]]])
            let stream = first + second
            guard cut <= stream.count else { break }
            try c.sendCut(Array(stream[0..<cut]))
            try c.sendCut(Array(stream[cut...]))
            for want in [id, id + 1] {
                let r: [String: Any]
                do { r = try c.reply(want, timeout: 5) } catch {
                    return XCTFail("no reply to request \(want) when the stream was cut after byte \(cut) of \(stream.count): \(error)")
                }
                XCTAssertNotNil(r["result"], "cut after byte \(cut): \(r)")
            }
            id += 2
        }
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// A session of whole-text changes of a 1,000-line document and requests, cut at random
    /// places into pieces of every size: every request is answered, in order, and the last
    /// version's diagnostics are published.
    func testRandomCutsOfALongSession() throws {
        let c = try start()
        var lines: [String] = []
        for k in 0..<1_000 { lines.append(["section {", "  items \(k % 7 + 1)", "  height \(k % 5 + 40)", "}"][k % 4]) }
        var stream: [UInt8] = []
        var ids: [Int] = []
        for version in 2...40 {
            lines[4 * version + 1] = "  items \(version % 9 + 1)"
            let text = lines.joined(separator: "\n") + (version == 40 ? "\nlet = 1\n" : "\n")
            stream += try LSPClient.frame(["method": "textDocument/didChange",
                                           "params": ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]]])
            // Requests answered at once (an unknown method), and a hover now and then (an
            // evaluation of the new text on the thread that reads).
            for k in 0..<3 {
                let id = 1_000 + 3 * version + k
                ids.append(id)
                stream += try LSPClient.frame(version % 10 == 0 && k == 0
                    ? ["id": id, "method": "textDocument/hover", "params": ["textDocument": ["uri": uri], "position": ["line": 1, "character": 3]]]
                    : ["id": id, "method": "wfl/unknown", "params": ["n": String(repeating: "x", count: version * k)]])
            }
        }
        // A fixed generator: the same cuts every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        var k = 0, pieces = 0
        while k < stream.count {
            // Mostly short pieces (within headers and bodies), some long (across messages).
            let n = Swift.min(stream.count - k, 1 + (random(8) == 0 ? random(30_000) : random(300)))
            try c.sendCut(Array(stream[k..<k + n]))
            k += n
            pieces += 1
        }
        XCTAssertGreaterThan(pieces, 100)
        for id in ids {
            let r = try c.reply(id, timeout: 10)
            XCTAssertTrue(r["result"] != nil || (r["error"] as? [String: Any])?["code"] as? Int == -32601, "\(r)")
        }
        // The last version's mistake, on its line 1,000 (from 0).
        let last = try c.diagnostics(version: 40)
        let start = (last.first?["range"] as? [String: Any])?["start"] as? [String: Any]
        XCTAssertEqual(last.first?["severity"] as? Int, 1, "\(last)")
        XCTAssertEqual(start?["line"] as? Int, 1_000, "\(last)")
        XCTAssertEqual(start?["character"] as? Int, 4, "\(last)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// The protocol's line breaks are `\n`, `\r\n` and a lone `\r`: a diagnostic after a lone CR
    /// is on the next line.
    func testALoneCRIsALineBreak() throws {
        let c = try start()
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2],
                                                "contentChanges": [["text": "let a = 1\rlet b = 2\r"]]])
        let ds = try c.diagnostics(version: 2)
        let r = try XCTUnwrap(ds.first?["range"] as? [String: Any], "\(ds)")
        XCTAssertEqual((r["start"] as? [String: Any])?["line"] as? Int, 1, "\(ds)")
        XCTAssertEqual((r["start"] as? [String: Any])?["character"] as? Int, 0, "\(ds)")
        XCTAssertEqual((r["end"] as? [String: Any])?["line"] as? Int, 1, "\(ds)")
        XCTAssertEqual((r["end"] as? [String: Any])?["character"] as? Int, 3, "\(ds)")
        // Hover on line 1 finds the second 'let' name there.
        let hover = try c.reply(try c.request("textDocument/definition", ["textDocument": ["uri": uri], "position": ["line": 1, "character": 4]]), timeout: 20)
        XCTAssertNotNil(hover["result"], "\(hover)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// Ranged edits on a CRLF document: a position past the end of a line's text is after its
    /// whole line break, never between the CR and the LF.
    func testAnEditPastTheEndOfACRLFLineLandsAfterTheLF() throws {
        let c = try start()
        func symbols() throws -> [(String, Int)] {
            let r = try c.reply(try c.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]]), timeout: 20)
            return (r["result"] as? [[String: Any]] ?? []).map {
                ($0["name"] as? String ?? "", ((($0["selectionRange"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int) ?? -1)
            }
        }
        func edit(_ version: Int, _ range: (Int, Int, Int, Int), _ text: String) throws {
            try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": version], "contentChanges": [[
                "range": ["start": ["line": range.0, "character": range.1], "end": ["line": range.2, "character": range.3]],
                "text": text]]])
        }
        try edit(2, (0, 0, 99, 0), "let a = 1\r\nlet b = 2\r\n")
        XCTAssertEqual(try symbols().map { "\($0.0)@\($0.1)" }, ["a@0", "b@1"])
        // Inserted past the end of line 0: the new line comes after line 0's CRLF.
        try edit(3, (0, 40, 0, 40), "let c = 3\r\n")
        XCTAssertEqual(try symbols().map { "\($0.0)@\($0.1)" }, ["a@0", "c@1", "b@2"])
        XCTAssertTrue(try c.diagnostics(version: 3).isEmpty)
        // Line 1 deleted from its start to past its end: its CRLF goes with it.
        try edit(4, (1, 0, 1, 99), "")
        XCTAssertEqual(try symbols().map { "\($0.0)@\($0.1)" }, ["a@0", "b@1"])
        XCTAssertTrue(try c.diagnostics(version: 4).isEmpty)
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// The session that stopped the server before: 2,000 whole-text changes of a 1,000-line
    /// document written as fast as the pipe takes them (the server's reads split them where they
    /// fall), then a request, which must be answered.
    func testTwoThousandWholeTextChanges() throws {
        try Stress.only()
        let c = try start()
        var lines: [String] = []
        for k in 0..<1_000 { lines.append(["section {", "  items \(k % 7 + 1)", "  height \(k % 5 + 40)", "}"][k % 4]) }
        for version in 2...2_001 {
            lines[4 * (version % 250) + 1] = "  items \(version % 9 + 1)"
            // As an editor writes: whole, blocking while the pipe is full (the server's output,
            // a few small publications, fits in its pipe meanwhile).
            c.sendRaw(try LSPClient.frame(["method": "textDocument/didChange", "params": [
                "textDocument": ["uri": uri, "version": version], "contentChanges": [["text": lines.joined(separator: "\n")]]]]))
        }
        let r = try c.reply(try c.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]]), timeout: 30)
        XCTAssertEqual((r["result"] as? [Any])?.count, 250)
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }
}
