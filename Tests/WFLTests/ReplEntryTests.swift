import Foundation
import XCTest
@testable import WFL

#if canImport(Glibc)
import Glibc
#endif

/// The REPL accepts every statement a file accepts, typed one entry at a time, and shows the
/// tables `wfl run` prints; its files and its reading of long blocks (issue 27, items 15-17).
final class ReplEntryTests: XCTestCase {
    /// Every sample and every fixture that runs without errors, typed line by line into a session
    /// (the lines gathered into entries as the REPL gathers them): every entry is accepted, and the
    /// session's tables at rest are the file's, as `wfl run --format json` prints them.
    func testEveryStatementOfEverySampleAndFixtureTypedOneEntryAtATime() throws {
        var inputs = Golden.inputs("samples")
        let fixtures = Golden.root.appendingPathComponent("Tests/Fixtures")
        let walker = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "wfl" { inputs.append(url) }
        }
        XCTAssertGreaterThanOrEqual(inputs.count, 170, "the samples and fixtures were found")
        var typed = 0
        // Each file typed into a session of its own, on every core; asserted here, in order.
        let runs = try Concurrent.map(inputs) { url -> (refused: [String], rest: String?, shown: String, expected: String)? in
            let file = try Golden.source(url)
            let run = Pipeline.run(file)
            guard !run.hasErrors else { return nil }
            let expected = JSONFormat.format(run.tables.map { $0.at(.zero) })
            let session = Session(name: Session.layoutName(forPath: url.path))
            var reader = EntryReader()
            var refused: [String] = []
            let text = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                guard let entry = reader.add(String(line), to: session) else { continue }
                let reply = session.enter(entry)
                if reply.failed { refused.append("'\(entry)' was refused:\n\(reply.diagnostics)") }
            }
            return (refused, reader.rest(), JSONFormat.format(try session.tablesAtRest()), expected)
        }
        for (url, run) in zip(inputs, runs) {
            guard let run else { continue }
            typed += 1
            for r in run.refused { XCTFail("\(url.lastPathComponent): \(r)") }
            XCTAssertNil(run.rest, "\(url.lastPathComponent) ends with an entry still open")
            XCTAssertEqual(run.shown, run.expected, url.lastPathComponent)
        }
        XCTAssertGreaterThanOrEqual(typed, 35, "the samples and the fixtures that run")
    }

    /// `appear`, `disappear`, `attach` and `update` open blocks in the REPL as in a file (the
    /// REPL's own reading knew only `update`: `appear { alpha 0 }` was "found '{'").
    func testBlocksThatAWordOpensAreStatements() {
        for entry in ["appear { alpha 0 }", "disappear { zoom 0.5 }", "attach badge { size 10 x 10 }", "update { insert 0 }",
                      "appear {\n  offset 0 20\n}"] {
            XCTAssertEqual(Session.kind(of: entry), .statement, entry)
        }
        XCTAssertEqual(Session.kind(of: "appear"), .expression, "a word alone is a name")
        XCTAssertEqual(Session.kind(of: "insert 2"), .statement, "the parser reads 'insert' as a change")
        let s = Session()
        for entry in ["items 3", "height 20", "update { insert 0 }", "appear { alpha 0 }", "disappear {\n  zoom 0.5\n}"] {
            let r = s.enter(entry)
            XCTAssertFalse(r.failed, "\(entry): \(r.diagnostics)")
        }
        XCTAssertEqual(s.entries.count, 5)
        XCTAssertTrue(s.needsMore("appear {"))
    }

    /// `:table` and `:json` print the tables at offset (0, 0) as `wfl run` does: the pinned footer
    /// of app-store and the zoomed first cell of the carousel included.
    func testTableAndJSONAreWhatRunPrints() throws {
        for name in ["app-store", "carousel"] {
            let path = Golden.root.appendingPathComponent("samples/\(name).wfl").path
            for format in ["table", "json"] {
                let repl = try WFLCommand.run(["repl"], input: Data(":load \(path)\n:\(format)\n".utf8))
                XCTAssertEqual(repl.status, 0, repl.stderr)
                let run = try WFLCommand.run(["run", "--format", format, path])
                XCTAssertEqual(run.status, 0, run.stderr)
                let shown = repl.stdout.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
                XCTAssertTrue(shown.first?.hasPrefix("loaded ") ?? false, repl.stdout)
                XCTAssertEqual(shown.count == 2 ? String(shown[1]) : "", run.stdout, "\(name) :\(format)")
            }
        }
    }

    /// `lines` typed one at a time make one entry, read in at most 4 times its bytes, which
    /// `s` accepts.
    func assertReadInLinearTime(_ lines: [String], _ s: Session, file: StaticString = #filePath, line: UInt = #line) {
        var reader = EntryReader()
        var entries: [String] = []
        for text in lines {
            if let e = reader.add(text, to: s) { entries.append(e) }
        }
        let bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        XCTAssertEqual(entries, [lines.joined(separator: "\n")], file: file, line: line)
        XCTAssertLessThanOrEqual(reader.bytesRead, 4 * bytes, "read \(reader.bytesRead) bytes for an entry of \(bytes)", file: file, line: line)
        XCTAssertFalse(s.enter(entries.first ?? "").failed, file: file, line: line)
    }

    /// An open block of N lines costs about N: each line is lexed alone, and the entry is parsed
    /// when its brackets close (parsing the whole entry at every line read it N²/2 times).
    func testAnOpenBlockIsReadInLinearTime() {
        let s = Session()
        var lines = ["section {", "  items 3"]
        for k in 0..<4_000 { lines.append("  let v\(k) = [\(k), (\(k) + 1)]") }
        lines += ["  height 10 + v0[0]", "}"]
        assertReadInLinearTime(lines, s)
        // A block comment left open over lines still ends the entry where the parser says.
        var other = EntryReader()
        XCTAssertNil(other.add("section { /* a comment", to: s))
        XCTAssertNil(other.add("   that goes on } */ items 2", to: s))
        XCTAssertEqual(other.add("}", to: s), "section { /* a comment\n   that goes on } */ items 2\n}")
    }

    /// A `/*` comment open over N lines costs about N too (the parser read the whole entry at
    /// every line: 16,000 lines took 18 s of CPU); comments nest, and what follows the end of
    /// the last one is counted as any line.
    func testAnOpenCommentIsReadInLinearTime() {
        let s = Session()
        var lines = ["section { items 2 /* a comment { ( ["]
        for k in 0..<4_000 { lines.append(k % 100 == 0 ? "  /* nested \(k) */ } ] ) " : "  line \(k) of the comment, { with a brace") }
        lines += ["  /* one more", "  */ */ height 10", "}"]
        assertReadInLinearTime(lines, s)
        // Where each entry ends: inside a comment, after it, and with a second comment opened.
        var other = EntryReader()
        XCTAssertNil(other.add("section { /* a /* nested", to: s))
        XCTAssertNil(other.add("*/ still inside }", to: s))
        XCTAssertNil(other.add("*/ items 2 /* again", to: s))
        XCTAssertNil(other.add("*/", to: s))
        XCTAssertEqual(other.add("} // done /* not a comment", to: s), "section { /* a /* nested\n*/ still inside }\n*/ items 2 /* again\n*/\n} // done /* not a comment")
        XCTAssertEqual(other.add("/* alone */ let a = 1", to: s), "/* alone */ let a = 1")
    }

    /// Runs `wfl repl` with `script` on standard input; nil when it has not ended after `timeout`
    /// seconds (it is killed then).
    static func repl(_ script: String, in dir: URL, timeout: Double = 20, whileRunning: () -> Void = {}) throws
        -> (status: Int32, signalled: Bool, stdout: String, stderr: String)? {
        let process = Process()
        process.executableURL = WFLCommand.binary
        process.arguments = ["repl"]
        process.currentDirectoryURL = dir
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        signal(SIGPIPE, SIG_IGN)
        try? inp.fileHandleForWriting.write(contentsOf: Data(script.utf8))
        try inp.fileHandleForWriting.close()
        whileRunning()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitQuickly()
            return nil
        }
        try out.close()
        try err.close()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal,
                String(decoding: try Data(contentsOf: outURL), as: UTF8.self), String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// `:save` into a FIFO that nobody reads is an error at once (it waited for a reader for
    /// good); the session goes on.
    func testSaveToAFIFOThatNobodyReadsFailsAtOnce() throws {
        let dir = try ReplPipeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("fifo").path, 0o600), 0)
        let r = try XCTUnwrap(try Self.repl("columns 2\nitems 4\n:save fifo\ncontentHeight\n", in: dir, timeout: 10), "wfl repl hung on ':save fifo'")
        XCTAssertEqual(r.status, 74, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot write 'fifo': nothing is reading the FIFO"), r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("\n" + NumberFormat.forPeople(Session().enterAll(["columns 2", "items 4"]).contentHeight) + "\n"), r.stdout)
    }

    /// `:save` into a FIFO whose reader closes it early is a write error, not SIGPIPE (exit 141,
    /// the session lost).
    func testSaveToAFIFOWhoseReaderLeavesEarly() throws {
        let dir = try ReplPipeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // A reader is there before wfl opens the FIFO; it reads a little and leaves while more
        // than a pipe's buffer (64 KiB) is still to come.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        // A long string is the cheapest entry of that size to read and evaluate.
        let script = "let big = \"\(String(repeating: "x", count: 100_000))\"\nitems 3\n:save fifo\nitems 5\ncontentHeight\n"
        let r = try XCTUnwrap(try Self.repl(script, in: dir, timeout: 20) {
            var p = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 10_000)
            var buf = [UInt8](repeating: 0, count: 10)
            _ = read(reader, &buf, buf.count)
            close(reader)
        }, "wfl repl hung")
        XCTAssertFalse(r.signalled, "wfl repl was ended by signal \(r.status)")
        XCTAssertEqual(r.status, 74, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot write 'fifo': the reader closed the FIFO before the end"), r.stderr)
        XCTAssertTrue(r.stdout.contains("5 items"), "the session goes on:\n\(r.stdout)")
    }

    /// "unknown command" shows the typed word with its control characters escaped: a script
    /// cannot drive the terminal through it.
    func testUnknownCommandEscapesControlCharacters() throws {
        let r = try WFLCommand.run(["repl"], input: Data(":\u{1B}]0;title\u{07}\u{1B}[2J\n:layout \u{1B}[31m\n".utf8))
        XCTAssertFalse(r.stderr.contains("\u{1B}"), r.stderr.debugDescription)
        XCTAssertFalse(r.stderr.contains("\u{07}"), r.stderr.debugDescription)
        XCTAssertTrue(r.stderr.contains("unknown command ':\\u{1B}]0;title\\u{7}\\u{1B}[2J'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("no layout '\\u{1B}[31m'"), r.stderr)
    }

    /// Through a pipe, an unknown command is a usage error (exit 64, docs/usage.md) that does not
    /// end the session: the entries after it are read, and one with errors does not hide it.
    func testAnUnknownCommandInAScriptExits64AndTheSessionGoesOn() throws {
        let r = try WFLCommand.run(["repl"], input: Data("columns 2\n:frob\nitems 3\n".utf8))
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertEqual(r.stderr, "error: unknown command ':frob'\n  = help: ':help' lists the commands\n")
        XCTAssertTrue(r.stdout.hasSuffix("1 section, 3 items, content 375 x 375; 3 cells added\n"), r.stdout)
        let both = try WFLCommand.run(["repl"], input: Data(":frob\nitems \"x\"\n".utf8))
        XCTAssertEqual(both.status, 64, both.stderr)
        let errorsOnly = try WFLCommand.run(["repl"], input: Data("items \"x\"\n".utf8))
        XCTAssertEqual(errorsOnly.status, 65, errorsOnly.stderr)
    }
}

extension Session {
    /// The table after `entries`, each required to be accepted.
    func enterAll(_ entries: [String]) -> AttributeTable {
        for e in entries { XCTAssertFalse(enter(e).failed, e) }
        return tables[0]
    }
}

#if canImport(Glibc)
extension ReplTerminalTests {
    /// On a terminal, `:load` of a FIFO that nobody writes waits, and Ctrl-C stops the wait (the
    /// open blocked for good and the key did nothing); the session goes on.
    func testLoadOfAFIFOWithoutAWriterStopsAtCtrlC() throws {
        let pty = try PTY()
        let fifo = pty.state.appendingPathComponent("fifo").path
        try FileManager.default.createDirectory(at: pty.state, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try pty.start()
        XCTAssertTrue(pty.wait(for: "wfl> "), pty.transcript)
        pty.type("items 4\r")
        let mark = pty.transcript.utf8.count
        pty.send(":load \(fifo)\r")
        usleep(300_000)
        pty.send("\u{03}")
        XCTAssertTrue(pty.wait(for: "interrupted (Ctrl-C)", after: mark, timeout: 10), pty.transcript)
        XCTAssertTrue(pty.wait(for: "\n\rwfl> ", after: mark, timeout: 10), pty.transcript)
        pty.type("items 6\r")
        XCTAssertTrue(pty.transcript.contains("6 items"), pty.transcript)
        pty.send("\u{04}")
        XCTAssertTrue(pty.waitForExit(), pty.transcript)
    }
}
#endif
