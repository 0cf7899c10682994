import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `wfl lsp`: a language server on standard input and output (docs/usage.md, "Writing .wfl
/// files in an editor").
///
/// Two threads. The reader (this one) reads each message, keeps the documents' texts, and
/// answers requests; a document that changed is handed to the worker, which takes it through
/// `Pipeline` and publishes its diagnostics. So a keystroke's evaluation never holds up the next
/// request. The worker waits until the document has been quiet for `quiet` seconds (at most
/// `longest` after the first change it has not published), and publishes only when the version it
/// evaluated is still the latest: a version overtaken while it was evaluated is dropped.
struct LSPCommand {
    let cli: CLI

    func run(_ args: [String]) -> Int32 {
        if let a = args.first {
            return cli.usageError("'lsp' takes no arguments, not '\(a)'", command: "lsp")
        }
        // A client that goes away while a reply is written must not end the server with SIGPIPE
        // before it can notice.
        signal(SIGPIPE, SIG_IGN)
        let server = LSPServer()
        startThread { server.work() }
        return onLargeStack { server.serve() }
    }
}

/// A document as the editor last sent it.
struct OpenDocument {
    /// The editor's version number, published with the diagnostics.
    var version: Int
    var text: [UInt8]
    /// Ours: grows with every change, so an evaluation knows whether it is still the latest.
    var generation: Int
}

final class LSPServer: @unchecked Sendable {
    static let quiet = 0.015
    static let longest = 0.15

    let writer = MessageWriter(fd: STDOUT_FILENO)
    let lock = Lock()

    // Shared with the worker, under `lock`.
    private var documents: [String: OpenDocument] = [:]
    /// Documents to evaluate: when each last changed and when it first changed unpublished.
    private var pending: [String: (last: Double, first: Double)] = [:]
    /// The worker's latest analysis of each document, for the reader to reuse.
    private var handed: [String: (generation: Int, analysis: Analysis)] = [:]
    private var generation = 0

    // The reader's own.
    private var cache: [String: (generation: Int, analysis: Analysis)] = [:]
    private var initialized = false
    private var shuttingDown = false

    // MARK: - The reader

    /// Reads and answers messages until `exit` or the end of the input; the exit status.
    func serve() -> Int32 {
        var reader = MessageReader(fd: STDIN_FILENO)
        while true {
            switch reader.next() {
            case .end:
                return shuttingDown ? Exit.ok : 1
            case .malformed(let why):
                replyError(id: .null, code: -32700, "malformed message header: \(why)")
            case .message(let body):
                let message: JSON
                do {
                    message = try JSONParser.parse(body)
                } catch {
                    replyError(id: .null, code: -32700, "invalid JSON: \(error.message)")
                    continue
                }
                if let status = handle(message) { return status }
            }
        }
    }

    func replyError(id: JSON, code: Int, _ message: String) {
        writer.send(.object([
            ("jsonrpc", .string("2.0")), ("id", id),
            ("error", .object([("code", .number(Double(code))), ("message", .string(message))])),
        ]))
    }

    func reply(id: JSON, _ result: JSON) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    /// Handles one message; an exit status when the server is to stop.
    func handle(_ message: JSON) -> Int32? {
        guard case .object = message, let method = message["method"]?.string else {
            // A response to us (we send no requests) is ignored; anything else is no request.
            if message["id"] != nil, message["result"] != nil || message["error"] != nil { return nil }
            replyError(id: message["id"] ?? .null, code: -32600, "not a JSON-RPC request: an object with a 'method' is expected")
            return nil
        }
        let id = message["id"]
        if let id {
            switch id {
            case .number, .string: break
            default:
                replyError(id: .null, code: -32600, "a request's 'id' is a number or a string")
                return nil
            }
        }
        let params = message["params"] ?? .null
        if method == "exit" { return shuttingDown ? Exit.ok : 1 }
        guard let id else {
            notification(method, params)
            return nil
        }
        if method == "initialize" {
            initialized = true
            reply(id: id, LSPServer.capabilities)
            return nil
        }
        guard initialized else {
            replyError(id: id, code: -32002, "the server is not initialized: send 'initialize' first")
            return nil
        }
        if shuttingDown {
            replyError(id: id, code: -32600, "the server is shutting down: only 'exit' is accepted")
            return nil
        }
        if method == "shutdown" {
            shuttingDown = true
            reply(id: id, .null)
            return nil
        }
        request(id, method, params)
        return nil
    }

    static var capabilities: JSON {
        .object([
            ("capabilities", .object([
                ("positionEncoding", .string("utf-16")),
                ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .number(1))])),
                ("hoverProvider", .bool(true)),
                ("completionProvider", .object([("triggerCharacters", .array([.string(" ")]))])),
                ("definitionProvider", .bool(true)),
                ("documentSymbolProvider", .bool(true)),
                ("documentFormattingProvider", .bool(true)),
            ])),
            ("serverInfo", .object([("name", .string("wfl")), ("version", .string(wflVersion))])),
        ])
    }

    // MARK: Notifications

    func notification(_ method: String, _ params: JSON) {
        guard let uri = params["textDocument"]?["uri"]?.string else { return }
        switch method {
        case "textDocument/didOpen":
            guard let text = params["textDocument"]?["text"]?.string else { return }
            change(uri, version: params["textDocument"]?["version"]?.int ?? 0, text: Array(text.utf8))
        case "textDocument/didChange":
            guard var text = lock.locked({ documents[uri]?.text }), let changes = params["contentChanges"]?.array else { return }
            for c in changes {
                guard let new = c["text"]?.string else { continue }
                if let range = c["range"], let start = range["start"], let end = range["end"] {
                    // A ranged change (a client that sends them although the server asked for the
                    // whole text): applied all the same.
                    let map = LineMap(source: SourceFile(name: uri, bytes: text))
                    let a = map.editOffset(line: start["line"]?.int ?? 0, character: start["character"]?.int ?? 0)
                    let b = Swift.max(a, map.editOffset(line: end["line"]?.int ?? 0, character: end["character"]?.int ?? 0))
                    text.replaceSubrange(a..<b, with: Array(new.utf8))
                } else {
                    text = Array(new.utf8)
                }
            }
            change(uri, version: params["textDocument"]?["version"]?.int ?? 0, text: text)
        case "textDocument/didClose":
            lock.locked {
                documents[uri] = nil
                pending[uri] = nil
                handed[uri] = nil
                writer.send(LSPServer.publish(uri, version: nil, []))
            }
            cache[uri] = nil
        default:
            break
        }
    }

    func change(_ uri: String, version: Int, text: [UInt8]) {
        let now = monotonicSeconds()
        lock.locked {
            generation += 1
            documents[uri] = OpenDocument(version: version, text: text, generation: generation)
            pending[uri] = (now, pending[uri]?.first ?? now)
            lock.signal()
        }
    }

    static func publish(_ uri: String, version: Int?, _ diagnostics: [JSON]) -> JSON {
        var params: [(String, JSON)] = [("uri", .string(uri))]
        if let version { params.append(("version", .number(Double(version)))) }
        params.append(("diagnostics", .array(diagnostics)))
        return .object([("jsonrpc", .string("2.0")), ("method", .string("textDocument/publishDiagnostics")), ("params", .object(params))])
    }

    // MARK: Requests

    /// The analysis of the document's latest text: the reader's own, the worker's, or a new one.
    func analysis(_ uri: String) -> Analysis? {
        guard let doc = lock.locked({ documents[uri] }) else { return nil }
        if let c = cache[uri], c.generation == doc.generation { return c.analysis }
        let a: Analysis
        if let h = lock.locked({ handed[uri] }), h.generation == doc.generation {
            lock.locked { handed[uri] = nil }
            a = h.analysis
        } else {
            a = Analysis(uri: uri, version: doc.version, source: SourceFile(name: LSPServer.name(of: uri), bytes: doc.text))
        }
        cache[uri] = (doc.generation, a)
        return a
    }

    func request(_ id: JSON, _ method: String, _ params: JSON) {
        let known = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
                     "textDocument/documentSymbol", "textDocument/formatting"]
        guard known.contains(method) else {
            replyError(id: id, code: -32601, "unknown method '\(method)'")
            return
        }
        guard let uri = params["textDocument"]?["uri"]?.string else {
            replyError(id: id, code: -32602, "'\(method)' needs 'params.textDocument.uri'")
            return
        }
        guard let a = analysis(uri) else {
            replyError(id: id, code: -32602, "the document '\(uri)' is not open")
            return
        }
        var offset = 0
        if method != "textDocument/documentSymbol" && method != "textDocument/formatting" {
            guard let p = params["position"], let line = p["line"]?.int, let character = p["character"]?.int else {
                replyError(id: id, code: -32602, "'\(method)' needs 'params.position' with 'line' and 'character'")
                return
            }
            offset = a.lines.offset(line: line, character: character)
        }
        switch method {
        case "textDocument/hover": reply(id: id, a.hover(at: offset))
        case "textDocument/completion": reply(id: id, a.completion(at: offset))
        case "textDocument/definition": reply(id: id, a.definition(at: offset))
        case "textDocument/documentSymbol": reply(id: id, a.symbols())
        default:
            switch a.formatting() {
            case .success(let edits): reply(id: id, edits)
            case .failure(let why): replyError(id: id, code: -32803, why.message)
            }
        }
    }

    /// The path of a `file:` URI (percent escapes decoded), which diagnostics and layout names
    /// use; another URI as it is.
    static func name(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        let bytes = Array(uri.utf8.dropFirst(7))
        var out: [UInt8] = []
        var k = 0
        while k < bytes.count {
            if bytes[k] == UInt8(ascii: "%"), k + 2 < bytes.count,
               let v = UInt8(String(decoding: bytes[k + 1...k + 2], as: UTF8.self), radix: 16) {
                out.append(v)
                k += 3
            } else {
                out.append(bytes[k])
                k += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - The worker

    /// Evaluates changed documents and publishes their diagnostics, forever.
    func work() {
        while true {
            // The next document that has been quiet long enough.
            let job: (uri: String, doc: OpenDocument) = lock.locked {
                while true {
                    let now = monotonicSeconds()
                    var next: (String, Double)? = nil
                    for (uri, times) in pending {
                        let due = Swift.min(times.last + LSPServer.quiet, times.first + LSPServer.longest)
                        if next == nil || due < next!.1 { next = (uri, due) }
                    }
                    guard let (uri, due) = next else {
                        lock.wait()
                        continue
                    }
                    if due > now {
                        lock.wait(until: due)
                        continue
                    }
                    pending[uri] = nil
                    if let doc = documents[uri] { return (uri, doc) }
                }
            }
            let source = SourceFile(name: LSPServer.name(of: job.uri), bytes: job.doc.text)
            let analysis = Analysis(uri: job.uri, version: job.doc.version, run: Pipeline.run(source))
            let diagnostics = analysis.diagnostics()
            lock.locked {
                // Only the latest version is published; an overtaken one is dropped.
                guard documents[job.uri]?.generation == job.doc.generation else { return }
                writer.send(LSPServer.publish(job.uri, version: job.doc.version, diagnostics))
                handed[job.uri] = (job.doc.generation, analysis)
            }
        }
    }
}
