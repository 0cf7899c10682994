import Foundation
import XCTest

/// A client of `wfl lsp` written against the protocol: starts the built `wfl` as a process and
/// drives whole sessions through its standard input and output.
final class LSPClient {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    var buffer: [UInt8] = []
    /// Notifications read while waiting for something else.
    var notifications: [[String: Any]] = []
    var nextID = 1

    init() throws {
        process.executableURL = WFLCommand.binary
        process.arguments = ["lsp"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        signal(SIGPIPE, SIG_IGN)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    func sendRaw(_ bytes: [UInt8]) {
        input.fileHandleForWriting.write(Data(bytes))
    }

    func send(_ message: [String: Any]) throws {
        var m = message
        m["jsonrpc"] = "2.0"
        let body = try JSONSerialization.data(withJSONObject: m)
        sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + Array(body))
    }

    func notify(_ method: String, _ params: [String: Any]) throws {
        try send(["method": method, "params": params])
    }

    /// Sends a request and returns its id.
    @discardableResult
    func request(_ method: String, _ params: [String: Any]) throws -> Int {
        let id = nextID
        nextID += 1
        try send(["id": id, "method": method, "params": params])
        return id
    }

    /// Reads one message, failing after `timeout` seconds.
    func read(timeout: Double = 20) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = headerEnd() {
                let header = String(decoding: buffer[0..<end], as: UTF8.self)
                guard let line = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                      let n = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else {
                    throw LSPTestError.protocolError("bad header from the server: \(header)")
                }
                if buffer.count >= end + 4 + n {
                    let body = Data(buffer[(end + 4)..<(end + 4 + n)])
                    buffer.removeFirst(end + 4 + n)
                    guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                        throw LSPTestError.protocolError("the server sent a body that is not an object")
                    }
                    return object
                }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw LSPTestError.timeout }
            var pfd = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(left * 1000)) > 0 else { throw LSPTestError.timeout }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(pfd.fd, $0.baseAddress, $0.count) }
            guard got > 0 else { throw LSPTestError.closed }
            buffer += chunk[0..<got]
        }
    }

    func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for k in 0...(buffer.count - 4) where buffer[k] == 13 && buffer[k + 1] == 10 && buffer[k + 2] == 13 && buffer[k + 3] == 10 {
            return k
        }
        return nil
    }

    /// The reply to request `id` (notifications met on the way are kept).
    func reply(_ id: Int) throws -> [String: Any] {
        while true {
            let m = try read()
            if let got = m["id"] as? Int, got == id { return m }
            if m["method"] != nil { notifications.append(m) }
        }
    }

    /// The reply to a message that has no id of its own (an error about a malformed one).
    func nullReply() throws -> [String: Any] {
        while true {
            let m = try read()
            if m["id"] is NSNull { return m }
            if m["method"] != nil { notifications.append(m) }
        }
    }

    /// The next diagnostics published for `version`.
    func diagnostics(version: Int) throws -> [[String: Any]] {
        while true {
            let m: [String: Any]
            if let k = notifications.firstIndex(where: { ($0["method"] as? String) == "textDocument/publishDiagnostics" }) {
                m = notifications.remove(at: k)
            } else {
                m = try read()
            }
            guard (m["method"] as? String) == "textDocument/publishDiagnostics", let params = m["params"] as? [String: Any] else { continue }
            if (params["version"] as? Int) == version { return params["diagnostics"] as? [[String: Any]] ?? [] }
        }
    }

    /// Waits for the process to end; its status.
    func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }
}

enum LSPTestError: Error {
    case timeout, closed
    case protocolError(String)
}

final class LSPTests: XCTestCase {
    let uri = "file:///tmp/lsp-test/feed.wfl"

    let text = """
        container 375 x 812
        style waterfall
        columns 2
        let pad = 10 * 2
        let grow(k) = 100 + k
        section {
          items 4
          height grow(i)
        }
        expect contentHeight == 1
        """

    func start() throws -> LSPClient {
        let c = try LSPClient()
        let id = try c.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [String: Any]()])
        let reply = try c.reply(id)
        let result = try XCTUnwrap(reply["result"] as? [String: Any])
        let caps = try XCTUnwrap(result["capabilities"] as? [String: Any])
        XCTAssertEqual(caps["hoverProvider"] as? Bool, true)
        XCTAssertEqual(caps["documentFormattingProvider"] as? Bool, true)
        XCTAssertEqual((caps["textDocumentSync"] as? [String: Any])?["change"] as? Int, 1)
        try c.notify("initialized", [:])
        return c
    }

    /// Opens the test document with `text` as its version 1.
    func open(_ c: LSPClient, _ text: String) throws {
        try c.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "wfl", "version": 1, "text": text]])
    }

    /// The labels that completion offers at (line, character) of the test document.
    func completionLabels(_ c: LSPClient, _ line: Int, _ character: Int) throws -> Set<String> {
        let r = try c.reply(try c.request("textDocument/completion", position(line, character)))
        return Set(((r["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String })
    }

    func position(_ line: Int, _ character: Int) -> [String: Any] {
        ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
    }

    func range(_ d: [String: Any]) -> (Int, Int, Int, Int)? {
        guard let r = d["range"] as? [String: Any], let s = r["start"] as? [String: Any], let e = r["end"] as? [String: Any],
              let sl = s["line"] as? Int, let sc = s["character"] as? Int, let el = e["line"] as? Int, let ec = e["character"] as? Int else { return nil }
        return (sl, sc, el, ec)
    }

    func testWholeSession() throws {
        let c = try start()
        try open(c, text)
        // The file evaluates; its one expectation fails: a warning on its condition with both values.
        var ds = try c.diagnostics(version: 1)
        XCTAssertEqual(ds.count, 1)
        XCTAssertEqual(ds.first?["severity"] as? Int, 2)
        let expectMessage = try XCTUnwrap(ds.first?["message"] as? String)
        XCTAssertTrue(expectMessage.contains("contentHeight == 1"), expectMessage)
        XCTAssertTrue(expectMessage.contains("left is 214") && expectMessage.contains("right is 1"), expectMessage)
        XCTAssertTrue(range(ds[0])! == (9, 7, 9, 25), "\(ds[0])")

        // An error on line 3, then moved to line 2: the diagnostic follows it.
        var broken = text.replacingOccurrences(of: "let pad = 10 * 2", with: "let pad = 10 * ")
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": broken]]])
        ds = try c.diagnostics(version: 2)
        XCTAssertEqual(ds.count, 1)
        XCTAssertEqual(ds.first?["severity"] as? Int, 1)
        XCTAssertEqual(ds.first?["code"] as? String, "E0210")
        XCTAssertEqual(range(ds[0])?.0, 3)
        broken = text.replacingOccurrences(of: "columns 2", with: "columns 2 +")
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 3], "contentChanges": [["text": broken]]])
        ds = try c.diagnostics(version: 3)
        XCTAssertEqual(ds.count, 1)
        XCTAssertTrue(range(ds[0])! == (2, 10, 2, 11), "\(ds[0])")
        XCTAssertTrue((ds.first?["message"] as? String ?? "").contains("\nhelp: "), "\(ds[0])")

        // Back to the good text, written untidily for the formatter; a name after an emoji (two
        // UTF-16 units) checks the positions.
        let untidy = text.replacingOccurrences(of: "columns 2", with: "columns   2") + "\nlet 😀x = 1\n"
        XCTAssertTrue(untidy.contains("😀x"))
        let tidy = untidy.replacingOccurrences(of: "😀x", with: "ex")
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 4], "contentChanges": [["text": untidy]]])
        ds = try c.diagnostics(version: 4)
        // '😀' is not a character of a name: an error at line 10, character 4, two units wide.
        let emoji = try XCTUnwrap(ds.first { ($0["severity"] as? Int) == 1 })
        XCTAssertTrue(range(emoji)! == (10, 4, 10, 6), "\(emoji)")
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 5], "contentChanges": [["text": tidy]]])
        ds = try c.diagnostics(version: 5)
        XCTAssertTrue(ds.allSatisfy { ($0["severity"] as? Int) == 2 }, "\(ds)")

        // Hover on a setting: what it is and its value there.
        var r = try c.reply(try c.request("textDocument/hover", position(2, 3)))
        var hover = try XCTUnwrap(((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        XCTAssertTrue(hover.contains("**columns**") && hover.contains("2 lanes"), hover)
        // On a constant `let`: its value.
        r = try c.reply(try c.request("textDocument/hover", position(3, 5)))
        hover = try XCTUnwrap(((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        XCTAssertTrue(hover.contains("= `20`"), hover)
        // On `section`: its extent and item count.
        r = try c.reply(try c.request("textDocument/hover", position(5, 2)))
        hover = try XCTUnwrap(((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        XCTAssertTrue(hover.contains("4 items") && hover.contains("y 0...214"), hover)
        // On a call of a user function: its signature.
        r = try c.reply(try c.request("textDocument/hover", position(7, 10)))
        hover = try XCTUnwrap(((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        XCTAssertTrue(hover.contains("let grow(k)"), hover)

        // Completion after `style `: its keyword values.
        let styled = tidy + "section {\n  items 1\n}\nlayout other {\n  style \n}\n"
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 6], "contentChanges": [["text": styled]]])
        let styleLine = styled.components(separatedBy: "\n").firstIndex(of: "  style ")!
        r = try c.reply(try c.request("textDocument/completion", position(styleLine, 8)))
        let items = try XCTUnwrap((r["result"] as? [String: Any])?["items"] as? [[String: Any]])
        XCTAssertEqual(Set(items.compactMap { $0["label"] as? String }), ["waterfall", "flow", "shelf", "groups", "grid"])
        // At the start of a statement in a section: section settings, no layout settings.
        r = try c.reply(try c.request("textDocument/completion", position(7, 2)))
        let labels = Set(((r["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String })
        XCTAssertTrue(labels.contains("columns") && labels.contains("height") && labels.contains("style") && !labels.contains("container"), "\(labels)")

        // Definition of a `let`: where it is declared.
        r = try c.reply(try c.request("textDocument/definition", position(7, 10)))
        let location = try XCTUnwrap(r["result"] as? [String: Any])
        XCTAssertEqual(location["uri"] as? String, uri)
        XCTAssertTrue(range(location)! == (4, 4, 4, 8), "\(location)")

        // Symbols: the lets and the sections, in order.
        r = try c.reply(try c.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]]))
        let symbols = try XCTUnwrap(r["result"] as? [[String: Any]])
        XCTAssertEqual(symbols.compactMap { $0["name"] as? String }, ["pad", "grow", "section 0", "ex", "section 1", "other"])

        // Formatting: wfl fmt's text as one edit.
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 7], "contentChanges": [["text": tidy]]])
        r = try c.reply(try c.request("textDocument/formatting", ["textDocument": ["uri": uri], "options": ["tabSize": 2, "insertSpaces": true]]))
        let edits = try XCTUnwrap(r["result"] as? [[String: Any]])
        XCTAssertEqual(edits.count, 1)
        let formatted = try XCTUnwrap(edits.first?["newText"] as? String)
        XCTAssertTrue(formatted.contains("\ncolumns 2\n") && !formatted.contains("columns   2"), formatted)
        XCTAssertTrue(range(edits[0])! == (0, 0, 11, 0), "\(edits[0])")

        // Shutdown, then exit: status 0.
        r = try c.reply(try c.request("shutdown", [:]))
        XCTAssertTrue(r["result"] is NSNull, "\(r)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 0)
    }

    /// A note with a place of its own is related information; completion in an `expect` offers
    /// its functions and variables; at a layout's top level, layout settings; hover on a built-in.
    func testNotesCompletionsAndBuiltins() throws {
        let c = try start()
        let unclosed = "section {\n  items 3\n"
        try c.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "wfl", "version": 1, "text": unclosed]])
        let ds = try c.diagnostics(version: 1)
        XCTAssertEqual(ds.count, 1)
        XCTAssertEqual(ds.first?["code"] as? String, "E0203")
        let related = try XCTUnwrap(ds.first?["relatedInformation"] as? [[String: Any]])
        XCTAssertEqual(related.first?["message"] as? String, "the block opened here")
        let location = try XCTUnwrap(related.first?["location"] as? [String: Any])
        XCTAssertEqual(location["uri"] as? String, uri)
        XCTAssertTrue(range(location)! == (0, 8, 0, 9), "\(location)")

        let text = "layout feed {\n  \n  section {\n    items 2\n  }\n  expect max(contentHeight, 1) > 0\n}\n"
        try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": text]]])
        func labels(_ line: Int, _ character: Int) throws -> Set<String> { try completionLabels(c, line, character) }
        let top = try labels(1, 2)
        XCTAssertTrue(top.contains("style") && top.contains("section") && !top.contains("layout"), "\(top)")
        let inExpect = try labels(5, 9)
        XCTAssertTrue(inExpect.isSuperset(of: ["frame", "header", "count", "contentHeight", "min", "cw"]), "\(inExpect)")
        // `expect` reads the finished layout: no item's variables, no `random`.
        XCTAssertTrue(inExpect.isDisjoint(with: ["i", "n", "w", "minX", "random"]), "\(inExpect)")
        let r = try c.reply(try c.request("textDocument/hover", position(5, 10)))
        let hover = try XCTUnwrap(((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        XCTAssertTrue(hover.contains("`max(a, b, ...)`") && hover.contains("the greatest of its numbers"), hover)
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// Inside `attach`, `appear` and `update` blocks completion offers their own words only; at
    /// a section's top level it offers the words that open them.
    func testCompletionInsideElementBlocks() throws {
        let c = try start()
        let text = "section {\n  items 4\n  attach badge {\n    \n  }\n  update {\n    \n  }\n  \n}\ndisappear {\n  \n}\n"
        try open(c, text)
        _ = try c.diagnostics(version: 1)
        func labels(_ line: Int, _ character: Int) throws -> Set<String> { try completionLabels(c, line, character) }
        XCTAssertEqual(try labels(3, 4), ["when", "size", "anchor", "offset", "zIndex", "let"])
        XCTAssertEqual(try labels(6, 4), ["delete", "insert", "expect"])
        XCTAssertEqual(try labels(11, 2), ["alpha", "zoom", "offset", "translate", "rotate"])
        let section = try labels(8, 2)
        XCTAssertTrue(section.isSuperset(of: ["attach", "update", "appear", "disappear", "items", "height"]), "\(section)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1) // no shutdown first
    }

    /// `device ` completes the device names, `device iPhone13 ` the orientations, and
    /// `insetsReference ` its words.
    func testCompletionOfDevicesAndTheEnvironment() throws {
        let c = try start()
        let text = "device \ndevice iPhone13 \nsection {\n  insetsReference \n  items 1\n}\n"
        try open(c, text)
        _ = try c.diagnostics(version: 1)
        func labels(_ line: Int, _ character: Int) throws -> Set<String> { try completionLabels(c, line, character) }
        XCTAssertTrue(try labels(0, 7).isSuperset(of: ["iPhoneSe", "iPhone13", "iPhone13Mini", "iPadPro11", "iPadPro12_9"]))
        XCTAssertEqual(try labels(0, 7).count, 17)
        XCTAssertEqual(try labels(1, 16), ["portrait", "landscape"])
        XCTAssertEqual(try labels(3, 18), ["none", "safeArea", "layoutMargins", "readableContent"])
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// Inside `group` and `item` blocks completion offers only their words, the innermost block's;
    /// their size expressions get `gw` and `gh`; hover on `gw` says what it is.
    func testCompletionInsideGroupBlocks() throws {
        let c = try start()
        let lines = [
            "section {",                              // 0
            "  style groups",                         // 1
            "  items 4",                              // 2
            "  group horizontal gw x 100 {",          // 3
            "    ",                                   // 4: a statement of the group
            "    item gw / 2 x gh {",                 // 5
            "      ",                                 // 6: a statement of the item
            "    }",                                  // 7
            "    group vertical gw / 2 x gh {",       // 8
            "      ",                                 // 9: a statement of the inner group
            "      item gw x ",                       // 10
            "    }",                                  // 11
            "  }",                                    // 12
            "  ",                                     // 13: a statement of the section
            "}",
            "",
        ]
        let text = lines.joined(separator: "\n")
        try open(c, text)
        _ = try c.diagnostics(version: 1)
        func labels(_ line: Int) throws -> Set<String> { try completionLabels(c, line, lines[line].utf8.count) }
        XCTAssertEqual(try labels(4), ["itemSpacing", "insets", "frame", "group", "item"])
        XCTAssertEqual(try labels(6), ["insets"])
        XCTAssertEqual(try labels(9), ["itemSpacing", "insets", "frame", "group", "item"])
        let size = try labels(10)
        XCTAssertTrue(size.isSuperset(of: ["gw", "gh", "aw", "s"]) && size.isDisjoint(with: ["i", "random", "k"]), "\(size)")
        let section = try labels(13)
        XCTAssertTrue(section.contains("group") && section.isDisjoint(with: ["itemSpacing", "frame", "item"]), "\(section)")
        let r = try c.reply(try c.request("textDocument/hover", position(3, 19)))
        let hover = try XCTUnwrap(((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        XCTAssertTrue(hover.contains("content box"), hover)
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// Inside a `scroll` block completion offers `to` and `expect` only; its expects get the
    /// path's variables (`ox`, `offsetAdjustment`), which an `expect` outside has not; `to`'s
    /// values get `cw` and `ch`, no item variable; hover on `offsetAdjustment` says what it is.
    func testCompletionInsideScrollBlocks() throws {
        let c = try start()
        let lines = [
            "estimate 200",                           // 0
            "items 10",                               // 1
            "scroll {",                               // 2
            "  ",                                     // 3: a statement of the block
            "  to 0, ",                               // 4: a stop's value
            "  expect offsetAdjustment == [0, 0]",    // 5
            "  expect oy == ",                        // 6: an expect of the path
            "}",                                      // 7
            "expect contentHeight == ",               // 8: an expect of the file
            "",
        ]
        let text = lines.joined(separator: "\n")
        try open(c, text)
        _ = try c.diagnostics(version: 1)
        func labels(_ line: Int) throws -> Set<String> { try completionLabels(c, line, lines[line].utf8.count) }
        XCTAssertEqual(try labels(3), ["to", "expect"])
        let stop = try labels(4)
        XCTAssertTrue(stop.isSuperset(of: ["cw", "ch"]) && stop.isDisjoint(with: ["i", "ox", "offsetAdjustment", "random"]), "\(stop)")
        let inPath = try labels(6)
        XCTAssertTrue(inPath.isSuperset(of: ["ox", "oy", "offsetAdjustment", "sizeAdjustment", "measured", "contentHeight"]), "\(inPath)")
        let outside = try labels(8)
        XCTAssertTrue(outside.contains("contentHeight") && outside.isDisjoint(with: ["ox", "offsetAdjustment", "sizeAdjustment"]), "\(outside)")
        let r = try c.reply(try c.request("textDocument/hover", position(5, 12)))
        let hover = try XCTUnwrap(((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        XCTAssertTrue(hover.contains("contentOffsetAdjustment"), hover)
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// Completion offers only what is valid at the cursor: a section's statements leave out the
    /// settings of blocks (`when`, `anchor`); an expression gets the variables that have a value
    /// where it stands (the table of places) and `random` only in the rules evaluated per item.
    func testCompletionOffersWhatIsValidHere() throws {
        let c = try start()
        let lines = [
            "section {",          // 0
            "  items 4",          // 1
            "  ",                 // 2: a statement of the section
            "  height ",          // 3
            "  columns ",         // 4
            "  alpha ",           // 5
            "  attach badge {",   // 6
            "    offset ",        // 7
            "    when ",          // 8
            "  }",                // 9
            "  update {",         // 10
            "    insert ",        // 11
            "  }",                // 12
            "  appear {",         // 13
            "    zoom ",          // 14
            "  }",                // 15
            "}",                  // 16
            "",                   // 17: the top of the file
            "let k = ",           // 18
            "",
        ]
        let text = lines.joined(separator: "\n")
        try open(c, text)
        _ = try c.diagnostics(version: 1)
        func labels(_ line: Int) throws -> Set<String> { try completionLabels(c, line, lines[line].utf8.count) }
        let section = try labels(2)
        XCTAssertTrue(section.isSuperset(of: ["items", "height", "alpha", "attach", "update"]), "\(section)")
        XCTAssertTrue(section.isDisjoint(with: ["when", "anchor", "offset", "container", "layout", "section", "insert", "delete"]), "\(section)")
        let top = try labels(17)
        XCTAssertTrue(top.isSuperset(of: ["container", "section", "layout", "attach"]) && top.isDisjoint(with: ["when", "anchor", "offset"]), "\(top)")
        let height = try labels(3)
        XCTAssertTrue(height.isSuperset(of: ["i", "n", "s", "w", "col", "full", "aw", "random", "min"]), "\(height)")
        XCTAssertTrue(height.isDisjoint(with: ["minX", "ox", "contentHeight", "vw", "h", "frame"]), "\(height)")
        let columns = try labels(4)
        XCTAssertTrue(columns.isSuperset(of: ["aw", "cw", "s", "adaptive"]) && columns.isDisjoint(with: ["i", "random", "w"]), "\(columns)")
        let alpha = try labels(5)
        XCTAssertTrue(alpha.isSuperset(of: ["minX", "ox", "i"]) && alpha.isDisjoint(with: ["random", "col", "vw"]), "\(alpha)")
        let offset = try labels(7)
        XCTAssertTrue(offset.isSuperset(of: ["vw", "vh", "col", "i"]) && offset.isDisjoint(with: ["minX", "random"]), "\(offset)")
        let when = try labels(8)
        XCTAssertTrue(when.isSuperset(of: ["i", "w", "h"]) && when.isDisjoint(with: ["vw", "minX", "random"]), "\(when)")
        let insert = try labels(11)
        XCTAssertTrue(insert.isSuperset(of: ["s", "n", "aw"]) && insert.isDisjoint(with: ["i", "w", "random", "contentHeight"]), "\(insert)")
        let zoom = try labels(14)
        XCTAssertTrue(zoom.isSuperset(of: ["minX", "ox", "i"]) && zoom.isDisjoint(with: ["vw", "col", "random"]), "\(zoom)")
        // A `let` may be read anywhere: every variable.
        let value = try labels(18)
        XCTAssertTrue(value.isSuperset(of: ["i", "minX", "vw", "contentHeight", "random"]), "\(value)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1) // no shutdown first
    }

    /// Hover on a setting shows its value after the cascade, property by property: each side of
    /// insets, both spacings, the size rule, the layout's own settings.
    func testHoverShowsValuesAfterTheCascade() throws {
        let c = try start()
        let text = "style waterfall\nspacing 10 4\nsection {\n  insets 1 2 3 4\n  items 3\n  height 20 + i\n  header 0\n}\n"
        try open(c, text)
        _ = try c.diagnostics(version: 1)
        func hover(_ line: Int, _ character: Int) throws -> String {
            let r = try c.reply(try c.request("textDocument/hover", position(line, character)))
            return ((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        }
        for (line, character, value) in [(1, 2, "section 0: rowSpacing 10, columnSpacing 4"), (3, 4, "- top 1, left 2, bottom 3, right 4"),
                                         (5, 4, "- height per item: `20 + i`"), (6, 4, "- none"), (0, 2, "- waterfall")] {
            let text = try hover(line, character)
            XCTAssertTrue(text.contains(value), text)
        }
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1) // no shutdown first
    }

    /// Hover and definition reach the statements inside `attach`, `appear` and `update` blocks,
    /// and the words that open them.
    func testHoverInsideElementBlocks() throws {
        let c = try start()
        let text = "let k = 2\nsection {\n  items 4\n  size 30 x 30\n  attach badge {\n    size 8 x 8\n    when i % k == 0\n  }\n  update {\n    delete 1\n  }\n}\nappear {\n  zoom 0.5\n}\n"
        try open(c, text)
        _ = try c.diagnostics(version: 1)
        func hover(_ line: Int, _ character: Int) throws -> String {
            let r = try c.reply(try c.request("textDocument/hover", position(line, character)))
            return ((r["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        }
        // The view's size: the setting's meaning without the section's cascaded size (30 x 30).
        let size = try hover(5, 5)
        XCTAssertTrue(size.contains("**size**") && !size.contains("30"), size)
        XCTAssertTrue(try hover(13, 3).contains("**zoom**"))
        XCTAssertTrue(try hover(4, 3).contains("a view on each cell"))
        XCTAssertTrue(try hover(8, 3).contains("batch update"))
        XCTAssertTrue(try hover(9, 5).contains("counted before it"))
        XCTAssertTrue(try hover(12, 1).contains("inserted cell or view starts"))
        let r = try c.reply(try c.request("textDocument/definition", position(6, 13)))
        let range = try XCTUnwrap((r["result"] as? [String: Any])?["range"] as? [String: Any])
        XCTAssertTrue(self.range(["range": range]).map { $0 == (0, 4, 0, 5) } ?? false, "\(range)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1) // no shutdown first
    }

    func testMalformedInputGetsErrorsAndTheServerGoesOn() throws {
        let c = try start()
        // A header without a length.
        c.sendRaw(Array("Content-Type: application/json\r\n\r\n".utf8))
        var r = try c.nullReply()
        XCTAssertEqual((r["error"] as? [String: Any])?["code"] as? Int, -32700)
        // A length that is not a number.
        c.sendRaw(Array("Content-Length: twelve\r\n\r\n".utf8))
        r = try c.nullReply()
        XCTAssertEqual((r["error"] as? [String: Any])?["code"] as? Int, -32700)
        // A body that is not JSON.
        let body = Array("{\"jsonrpc\": \"2.0\", \"id\": 5, ".utf8)
        c.sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        r = try c.nullReply()
        XCTAssertEqual((r["error"] as? [String: Any])?["code"] as? Int, -32700)
        // A method the server does not know.
        let id = try c.request("textDocument/rename", ["textDocument": ["uri": uri]])
        r = try c.reply(id)
        XCTAssertEqual((r["error"] as? [String: Any])?["code"] as? Int, -32601)
        // Still serving.
        r = try c.reply(try c.request("shutdown", [:]))
        XCTAssertTrue(r["result"] is NSNull)
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 0)
    }

    /// Changes sent faster than the server evaluates: each publication is of a newer version than
    /// the one before, the last is of the last version, and the versions in between are not all
    /// published (the worker waits for the typing to pause).
    func testOnlyTheLatestVersionIsPublished() throws {
        let c = try start()
        try open(c, text)
        for v in 2...30 {
            let edited = text.replacingOccurrences(of: "items 4", with: "items \(v % 2 == 0 ? "4 +" : "4")")
            try c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": v], "contentChanges": [["text": edited]]])
        }
        var versions: [Int] = []
        while versions.last != 30 {
            let m = try c.read()
            guard (m["method"] as? String) == "textDocument/publishDiagnostics",
                  let v = (m["params"] as? [String: Any])?["version"] as? Int else { continue }
            versions.append(v)
        }
        XCTAssertEqual(versions, versions.sorted(), "\(versions)")
        XCTAssertEqual(Set(versions).count, versions.count, "\(versions)")
        XCTAssertLessThan(versions.count, 29, "\(versions)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    /// A request sent while a large file is being evaluated is answered before that evaluation
    /// ends: the evaluation is not on the thread that reads requests.
    func testRequestsAreNotHeldUpByAnEvaluation() throws {
        let c = try start()
        let heavy = "columns 3\nsection {\n  items 3_000_000\n  height 100 + random(0, 50)\n}\nexpect count(0, 0, 375, 812) > 0\n"
        try c.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "wfl", "version": 1, "text": heavy]])
        usleep(100_000)
        let id = try c.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]])
        let first = try c.read(timeout: 60)
        XCTAssertEqual(first["id"] as? Int, id, "the diagnostics came before the reply: \(first)")
        try c.notify("exit", [:])
        XCTAssertEqual(c.waitForExit(), 1)
    }

    func testEndOfInputEndsTheServer() throws {
        let c = try start()
        try c.input.fileHandleForWriting.close()
        // No shutdown before the end: status 1, as the protocol has it.
        XCTAssertEqual(c.waitForExit(), 1)
    }
}
