import WFL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The language server (issue 21)

extension Measure {
    /// `wfl lsp`: from sending a `didChange` of a 1,000-line spec to reading its
    /// `publishDiagnostics`, against evaluating the same text in process (`Pipeline.run` and the
    /// expectations): what the server adds to the work itself (its debounce, JSON, pipes).
    static var lsp1k: Measure { lspMeasure(lines: 1_000, target: 50) }
    /// The same at 5,000 lines.
    static var lsp5k: Measure { lspMeasure(lines: 5_000, target: 250) }

    static func lspMeasure(lines: Int, target: Double) -> Measure {
        Measure(
            name: lines == 1_000 ? "lsp1k" : "lsp\(lines / 1_000)k",
            summary: "wfl lsp: didChange of a \(Format.grouped(lines))-line spec to its publishDiagnostics, against Pipeline.run of it in process",
            unit: "ms", target: target, lowerIsBetter: true
        ) { _, options in
            let text = SpecGenerator.lines(lines)
            let server = LSPProcess(siblingExecutable("wfl"))
            defer { server.stop() }
            let uri = "file:///tmp/wfl-bench/bench.wfl"
            server.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
            _ = server.waitFor("\"id\":1")
            server.send(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
            var version = 1
            func document(_ v: Int) -> String {
                // Each version differs (a comment at the end), as a keystroke would make it.
                JSONFormat.quote(text + "// edit \(v)\n")
            }
            server.send(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"wfl","version":1,"text":\#(document(1))}}}"#)
            let first = server.waitFor("\"version\":1,")
            // The spec must evaluate cleanly, or the figure would be of an error's short cut.
            if !first.contains("\"diagnostics\":[]") { fail("wfl-bench: the \(lines)-line spec has diagnostics in wfl lsp: \(first.prefix(300))") }
            let source = SourceFile(name: "bench.wfl", bytes: Array(text.utf8))
            if Pipeline.run(source).hasErrors { fail("wfl-bench: the \(lines)-line spec does not evaluate") }
            let (w, p) = Timer.interleaved(
                runs: options.runs ?? 15, warmups: 2,
                wfl: { () -> Int in
                    version += 1
                    let body = document(version)
                    server.send(#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"text":\#(body)}]}}"#)
                    return server.waitFor("\"version\":\(version),").count
                },
                baseline: { () -> Int in
                    let c = Pipeline.run(source)
                    return c.diagnostics.count + Pipeline.checkExpectations(c).count
                })
            return Outcome(label: "wfl lsp didChange to diagnostics, \(Format.grouped(lines)) lines", wfl: w.median * 1e3, baseline: p.median * 1e3,
                           baselineName: "Pipeline.run", notes: [
                            "wfl lsp \(w.summary), \(Format.grouped(text.utf8.count)) bytes (it waits \(Format.figure(15)) ms for the typing to pause)",
                            "Pipeline.run \(p.summary), in process"])
        }
    }
}

extension SpecGenerator {
    /// At least `count` lines of realistic source that evaluates cleanly: layouts in the style of
    /// the samples (lets, sections, item rules, expectations that hold), added until the count
    /// is reached.
    static func lines(_ count: Int) -> String {
        var out = "// A generated spec for wfl lsp's measure.\nlet gap = 10\nlet tall(k) = k % 3 == 0 ? 180 : 120\n\n"
        var lines = 4, k = 0
        while lines < count {
            let block = """
                layout feed\(k) {
                  container 375 x 812
                  style waterfall
                  columns 2
                  spacing gap
                  insets 10
                  let base\(k) = \(100 + k % 50)
                  section top {
                    header 44
                    items 20
                    height base\(k) + tall(i)
                  }
                  section more {
                    columns adaptive(120)
                    items 30
                    height [base\(k), 150, 90]
                    footer 30
                  }
                  expect frame(0, 0)[0] == 10
                  expect contentWidth == 375
                }


                """
            out += block
            lines += block.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            k += 1
        }
        return out
    }
}

/// `wfl lsp` as a child process, spoken to through pipes.
final class LSPProcess {
    var pid = pid_t()
    var toServer: Int32 = -1
    var fromServer: Int32 = -1
    var buffer: [UInt8] = []

    init(_ executable: String) {
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { fail("wfl-bench: no pipes for wfl lsp") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, inPipe[1])
        posix_spawn_file_actions_addclose(&actions, outPipe[0])
        let args = [executable, "lsp"]
        let cargs = args.map { strdup($0) } + [nil]
        defer { for a in cargs { free(a) } }
        guard posix_spawn(&pid, executable, &actions, nil, cargs, environ) == 0 else { fail("wfl-bench: cannot start \(executable) lsp") }
        close(inPipe[0])
        close(outPipe[1])
        toServer = inPipe[1]
        fromServer = outPipe[0]
        signal(SIGPIPE, SIG_IGN)
    }

    func send(_ body: String) {
        let bytes = Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
        var k = 0
        while k < bytes.count {
            let n = bytes[k...].withUnsafeBytes { write(toServer, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { fail("wfl-bench: wfl lsp stopped reading") }
            k += n
        }
    }

    /// Reads messages until one holds `marker`; that message's text.
    func waitFor(_ marker: String) -> String {
        while true {
            let message = next()
            if message.contains(marker) { return message }
        }
    }

    func next() -> String {
        while true {
            if let end = headerEnd() {
                let header = String(decoding: buffer[0..<end], as: UTF8.self)
                guard let n = Int(String(header.split(separator: ":").last?.split(separator: "\r").first ?? "").filter { $0 != " " }) else {
                    fail("wfl-bench: wfl lsp sent the header '\(header)'")
                }
                if buffer.count >= end + 4 + n {
                    let body = String(decoding: buffer[(end + 4)..<(end + 4 + n)], as: UTF8.self)
                    buffer.removeFirst(end + 4 + n)
                    return body
                }
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(fromServer, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { fail("wfl-bench: wfl lsp closed its output") }
            buffer += chunk[0..<n]
        }
    }

    func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for k in 0...(buffer.count - 4) where buffer[k] == 13 && buffer[k + 1] == 10 && buffer[k + 2] == 13 && buffer[k + 3] == 10 { return k }
        return nil
    }

    func stop() {
        send(#"{"jsonrpc":"2.0","id":99,"method":"shutdown"}"#)
        send(#"{"jsonrpc":"2.0","method":"exit"}"#)
        close(toServer)
        close(fromServer)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
