import Foundation
import XCTest

/// What `-o`, `fmt -w` and the REPL's `:save` do to what stands at the path (docs/usage.md,
/// "Commands"): a link is written through, a device or FIFO in place, a rewritten file keeps its
/// mode and owner. Every case works in its own temporary folder and touches nothing outside it.
final class FileWriteTests: XCTestCase {
    var work: URL!
    let fm = FileManager.default

    override func setUpWithError() throws {
        work = fm.temporaryDirectory.appendingPathComponent("wfl-write-\(UUID().uuidString)")
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        try Data("columns 2\nitems 3\nheight 50\n".utf8).write(to: url("a.wfl"))
    }

    override func tearDownWithError() throws {
        try? fm.removeItem(at: work)
    }

    func url(_ name: String) -> URL { work.appendingPathComponent(name) }

    /// What `wfl run a.wfl` prints: what every `-o` below must write.
    func table() throws -> String {
        let r = try WFLCommand.run(["run", "a.wfl"], directory: work)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    /// The type bits of what stands at `path` (not followed, if a link).
    func fileType(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    func isLink(_ name: String) -> Bool {
        (try? fm.destinationOfSymbolicLink(atPath: url(name).path)) != nil
    }

    /// The temporary files writeWhole may leave, anywhere below the work folder.
    func temporaryFiles() -> [String] {
        (fm.enumerator(atPath: work.path)?.allObjects as? [String] ?? []).filter { $0.contains(".wfl-tmp-") }
    }

    /// A chain of two links, one relative and one absolute: `-o`, `fmt -w` and `:save` write the
    /// target and leave both links as they were.
    func testALinkIsWrittenThroughAndStaysALink() throws {
        try fm.createDirectory(at: url("real"), withIntermediateDirectories: true)
        try Data("old\n".utf8).write(to: url("real/out.txt"))
        try fm.createSymbolicLink(atPath: url("inner.txt").path, withDestinationPath: "real/out.txt")
        try fm.createSymbolicLink(atPath: url("out.txt").path, withDestinationPath: url("inner.txt").path)
        let r = try WFLCommand.run(["run", "a.wfl", "-o", "out.txt"], directory: work)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(isLink("out.txt") && isLink("inner.txt"))
        XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: url("inner.txt").path), "real/out.txt")
        XCTAssertEqual(try String(contentsOf: url("real/out.txt"), encoding: .utf8), try table())

        // fmt -w through a link.
        try Data("columns   2\nitems 3\n".utf8).write(to: url("real/spec.wfl"))
        try fm.createSymbolicLink(atPath: url("spec.wfl").path, withDestinationPath: "real/spec.wfl")
        let f = try WFLCommand.run(["fmt", "-w", "spec.wfl"], directory: work)
        XCTAssertEqual(f.status, 0, f.stderr)
        XCTAssertTrue(isLink("spec.wfl"))
        XCTAssertEqual(try String(contentsOf: url("real/spec.wfl"), encoding: .utf8), "columns 2\nitems 3\n")

        // The REPL's :save through a link.
        try Data("old\n".utf8).write(to: url("real/saved.wfl"))
        try fm.createSymbolicLink(atPath: url("saved.wfl").path, withDestinationPath: "real/saved.wfl")
        let s = try WFLCommand.run(["repl"], input: Data("items 4\n:save saved.wfl\n".utf8), directory: work)
        XCTAssertEqual(s.status, 0, s.stderr)
        XCTAssertTrue(isLink("saved.wfl"))
        XCTAssertEqual(try String(contentsOf: url("real/saved.wfl"), encoding: .utf8), "items 4\n")
        XCTAssertEqual(temporaryFiles(), [])
    }

    /// A dangling link: its target is created, as `echo > link` creates it; the link stays.
    func testADanglingLinkCreatesItsTarget() throws {
        try fm.createSymbolicLink(atPath: url("out.txt").path, withDestinationPath: "made.txt")
        let r = try WFLCommand.run(["run", "a.wfl", "-o", "out.txt"], directory: work)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(isLink("out.txt"))
        XCTAssertEqual(try String(contentsOf: url("made.txt"), encoding: .utf8), try table())
        // A loop of links is an error that leaves both links.
        try fm.createSymbolicLink(atPath: url("l1").path, withDestinationPath: "l2")
        try fm.createSymbolicLink(atPath: url("l2").path, withDestinationPath: "l1")
        let loop = try WFLCommand.run(["run", "a.wfl", "-o", "l1"], directory: work)
        XCTAssertEqual(loop.status, 74)
        XCTAssertEqual(loop.stderr, "wfl: cannot write 'l1': too many levels of symbolic links\n")
        XCTAssertTrue(isLink("l1") && isLink("l2"))
    }

    /// A FIFO is written into, not replaced: its reader gets the table and wfl ends. Both are
    /// bounded in time, so a wfl that replaced the FIFO fails the test instead of hanging it.
    func testAFIFOIsWrittenInPlace() throws {
        let fifo = url("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        // Opened without waiting for a writer; reads return 0 until one comes and after it leaves.
        let fd = open(fifo.path, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let p = Process()
        p.executableURL = WFLCommand.binary
        p.arguments = ["run", "a.wfl", "-o", "pipe"]
        p.currentDirectoryURL = work
        p.standardError = FileHandle.nullDevice
        try p.run()
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 {
                got += buffer[0..<n]
            } else if n == 0 && !got.isEmpty && !p.isRunning {
                break
            } else {
                usleep(5_000)
            }
        }
        while p.isRunning && Date() < deadline { usleep(5_000) }
        if p.isRunning { p.terminate() }
        p.waitQuickly()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(String(decoding: got, as: UTF8.self), try table())
        XCTAssertEqual(fileType(fifo.path), S_IFIFO, "still a FIFO")
        XCTAssertEqual(temporaryFiles(), [])
    }

    /// As root, a private device node like /dev/null (made in the temporary folder): written into,
    /// not replaced by a regular file. Skipped when not root (mknod needs it).
    func testADeviceNodeIsWrittenInPlace() throws {
        guard getuid() == 0 else { throw XCTSkip("making a device node needs root") }
        let mknod = Process()
        mknod.executableURL = URL(fileURLWithPath: "/usr/bin/mknod")
        mknod.arguments = [url("null").path, "c", "1", "3"]
        try mknod.run()
        mknod.waitQuickly()
        XCTAssertEqual(mknod.terminationStatus, 0)
        for args in [["run", "a.wfl", "-o", "null"], ["run", "a.wfl", "--format", "json", "-o", "null"]] {
            let r = try WFLCommand.run(args, directory: work)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(fileType(url("null").path), S_IFCHR, "still a character device")
        }
        XCTAssertEqual(temporaryFiles(), [])
    }

    /// A socket is neither replaced nor written: an error.
    func testASocketIsAnError() throws {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(s) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = url("sock").path
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { throw XCTSkip("temporary path too long for a socket") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (k, b) in path.utf8.enumerated() { raw[k] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        let r = try WFLCommand.run(["run", "a.wfl", "-o", "sock"], directory: work)
        XCTAssertEqual(r.status, 74)
        XCTAssertEqual(r.stderr, "wfl: cannot write 'sock': it is a socket, not a file\n")
        XCTAssertEqual(fileType(path), S_IFSOCK)
    }

    /// `fmt -w`, `-o` and `:save` keep a rewritten file's mode (0600 stays 0600) and, as root,
    /// its owner and group; a new file gets 0666 less the umask.
    func testARewrittenFileKeepsItsModeAndOwner() throws {
        let spec = url("spec.wfl")
        try Data("columns   2\nitems 3\n".utf8).write(to: spec)
        XCTAssertEqual(chmod(spec.path, 0o600), 0)
        let root = getuid() == 0
        if root { XCTAssertEqual(chown(spec.path, 4321, 4322), 0) }
        let f = try WFLCommand.run(["fmt", "-w", "spec.wfl"], directory: work)
        XCTAssertEqual(f.status, 0, f.stderr)
        XCTAssertEqual(try String(contentsOf: spec, encoding: .utf8), "columns 2\nitems 3\n")
        var st = stat()
        XCTAssertEqual(stat(spec.path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o600)
        if root {
            XCTAssertEqual(st.st_uid, 4321)
            XCTAssertEqual(st.st_gid, 4322)
            // With its owner kept, a set-group-ID bit is kept too.
            try Data("items   2\n".utf8).write(to: spec)
            XCTAssertEqual(chmod(spec.path, 0o2640), 0)
            XCTAssertEqual(try WFLCommand.run(["fmt", "-w", "spec.wfl"], directory: work).status, 0)
            XCTAssertEqual(stat(spec.path, &st), 0)
            XCTAssertEqual(st.st_mode & 0o7777, 0o2640)
            XCTAssertEqual(st.st_uid, 4321)
        }

        try Data("old\n".utf8).write(to: url("out.txt"))
        XCTAssertEqual(chmod(url("out.txt").path, 0o640), 0)
        XCTAssertEqual(try WFLCommand.run(["run", "a.wfl", "-o", "out.txt"], directory: work).status, 0)
        XCTAssertEqual(stat(url("out.txt").path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o640)
        XCTAssertEqual(try String(contentsOf: url("out.txt"), encoding: .utf8), try table())

        // A new file: 0666 less the umask (022 here, set by the shell).
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.arguments = ["-c", "umask 022; \"$0\" run a.wfl -o new.txt", WFLCommand.binary.path]
        sh.currentDirectoryURL = work
        try sh.run()
        sh.waitQuickly()
        XCTAssertEqual(sh.terminationStatus, 0)
        XCTAssertEqual(stat(url("new.txt").path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o7777, 0o644)
        XCTAssertEqual(temporaryFiles(), [])
    }

    /// Several `fmt -w` of one file at once, some through a link to it and some by its name: the
    /// file ends as one whole canonical text, the link stays, and no temporary file is left.
    func testConcurrentFmtOfOneFileEndsWhole() throws {
        try Stress.only()
        var messy = "columns   2\nitems 3\n"
        for k in 0..<3000 { messy += "let v\(k)  =  \(k)\n" }
        let canonicalRun = try { () throws -> String in
            try Data(messy.utf8).write(to: url("spec.wfl"))
            let r = try WFLCommand.run(["fmt", "spec.wfl"], directory: work)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }()
        XCTAssertNotEqual(canonicalRun, messy)
        try fm.createSymbolicLink(atPath: url("link.wfl").path, withDestinationPath: "spec.wfl")
        for _ in 0..<4 {
            try Data(messy.utf8).write(to: url("spec.wfl"))
            let processes = (0..<6).map { k -> Process in
                let p = Process()
                p.executableURL = WFLCommand.binary
                p.arguments = ["fmt", "-w", k % 2 == 0 ? "link.wfl" : "spec.wfl"]
                p.currentDirectoryURL = work
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                return p
            }
            for p in processes { try p.run() }
            for p in processes {
                p.waitQuickly()
                XCTAssertEqual(p.terminationStatus, 0)
            }
            XCTAssertTrue(isLink("link.wfl"))
            XCTAssertEqual(try String(contentsOf: url("spec.wfl"), encoding: .utf8), canonicalRun)
            XCTAssertEqual(temporaryFiles(), [])
        }
    }

    /// SIGKILL while `-o` writes through a link: the target holds the old text or the whole new
    /// one, the link stays, and what may be left is the temporary file beside the target.
    func testKilledWhileWritingThroughALink() throws {
        try Stress.only()
        try Data("columns 3\nitems 300000\nheight 40 + i % 7 * 10\n".utf8).write(to: url("big.wfl"))
        try fm.createDirectory(at: url("real"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: url("out.json").path, withDestinationPath: "real/out.json")
        let old = Data("the old output\n".utf8)
        func besideTarget() throws -> [String] {
            try fm.contentsOfDirectory(atPath: url("real").path).filter { $0.hasPrefix(".out.json.wfl-tmp-") }
        }
        var caught = 0
        for _ in 0..<6 where caught < 2 {
            try old.write(to: url("real/out.json"))
            for name in try besideTarget() { try fm.removeItem(at: url("real/" + name)) }
            let p = Process()
            p.executableURL = WFLCommand.binary
            p.arguments = ["run", "big.wfl", "-o", "out.json"]
            p.currentDirectoryURL = work
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            let deadline = Date().addingTimeInterval(300)
            var killed = false
            while p.isRunning && Date() < deadline {
                if let tmp = try besideTarget().first,
                   let size = try? fm.attributesOfItem(atPath: url("real/" + tmp).path)[.size] as? Int, size > 0 {
                    kill(p.processIdentifier, SIGKILL)
                    killed = true
                    break
                }
                usleep(200)
            }
            p.waitQuickly()
            XCTAssertTrue(isLink("out.json"), "the link stays a link")
            let now = try Data(contentsOf: url("real/out.json"))
            if killed && p.terminationReason == .uncaughtSignal {
                caught += 1
                XCTAssertEqual(now, old, "the old text is intact")
            } else {
                XCTAssertEqual(p.terminationStatus, 0)
                XCTAssertEqual(now.first, UInt8(ascii: "{"), "-o's extension made it json")
                XCTAssertEqual(now.suffix(2), Data("}\n".utf8), "the new text is whole")
            }
            let left = try fm.contentsOfDirectory(atPath: work.path).sorted()
            XCTAssertEqual(left, ["a.wfl", "big.wfl", "out.json", "real"], "nothing beside the link")
        }
        XCTAssertGreaterThan(caught, 0, "wfl was never caught in the middle of writing")
    }
}

/// `-o FILE` without `--format`: the extension picks the format (docs/usage.md, "Commands").
final class OutputFormatFromExtensionTests: XCTestCase {
    func testTheExtensionPicksTheFormatAndFormatWins() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("columns 2\nitems 3\nheight 50.5\n".utf8).write(to: work.appendingPathComponent("a.wfl"))
        var cache: [String: String] = [:]
        func printed(_ format: String) throws -> String {
            if let known = cache[format] { return known }
            let r = try WFLCommand.run(["run", "a.wfl", "--format", format], directory: work)
            XCTAssertEqual(r.status, 0, r.stderr)
            cache[format] = r.stdout
            return r.stdout
        }
        func written(_ args: [String], _ name: String) throws -> String {
            let r = try WFLCommand.run(["run", "a.wfl"] + args + ["-o", name], directory: work)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, "")
            return try String(contentsOf: work.appendingPathComponent(name), encoding: .utf8)
        }
        for format in ["json", "csv", "svg", "html"] {
            XCTAssertEqual(try written([], "out.\(format)"), try printed(format), format)
        }
        // swift names the command that made it: the same command, with -o.
        XCTAssertTrue(try written([], "Out.swift").contains("import"))
        XCTAssertEqual(try written([], "OUT.JSON"), try printed("json"), "the extension in any case")
        XCTAssertEqual(try written([], "out.txt"), try printed("table"))
        XCTAssertEqual(try written([], "out"), try printed("table"))
        XCTAssertEqual(try written([], ".json"), try printed("table"), "a hidden file's name is no extension")
        XCTAssertEqual(try written(["--format", "csv"], "out.json"), try printed("csv"), "--format wins")
        XCTAssertEqual(try written(["--format=table"], "out.svg"), try printed("table"), "--format= wins")
    }
}

/// `wfl diff` with a spec on either side (docs/usage.md, "wfl diff").
final class DiffSpecTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-diffspec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let spec = "layout \"feed\" {\n  columns 2\n  items 3\n  height 40 + i * 10.5\n  header 44\n}\n"
        try Data(spec.utf8).write(to: work.appendingPathComponent("feed.wfl"))
        let r = try WFLCommand.run(["run", "feed.wfl", "--format", "json", "-o", "feed.json"], directory: work)
        XCTAssertEqual(r.status, 0, r.stderr)
        let c = try WFLCommand.run(["run", "feed.wfl", "--format", "csv", "-o", "feed.csv"], directory: work)
        XCTAssertEqual(c.status, 0, c.stderr)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func testASpecEqualsItsOwnTables() throws {
        for args in [["feed.wfl", "feed.json"], ["feed.json", "feed.wfl"], ["feed.wfl", "feed.csv"], ["feed.wfl", "feed.wfl"]] {
            let r = try WFLCommand.run(["diff"] + args, directory: work)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stdout + r.stderr, "", "\(args)")
        }
    }

    func testASpecThatDiffersIsCompared() throws {
        try Data("layout \"feed\" {\n  columns 2\n  items 3\n  height 40 + i * 10.5\n  header 50\n}\n".utf8)
            .write(to: work.appendingPathComponent("taller.wfl"))
        let r = try WFLCommand.run(["diff", "feed.json", "taller.wfl"], directory: work)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderr, "")
        // The same lines as against the json of the other spec.
        XCTAssertEqual(try WFLCommand.run(["run", "taller.wfl", "--format", "json", "-o", "taller.json"], directory: work).status, 0)
        let viaJSON = try WFLCommand.run(["diff", "feed.json", "taller.json"], directory: work)
        XCTAssertEqual(r.stdout, viaJSON.stdout.replacingOccurrences(of: "taller.json", with: "taller.wfl"))
        XCTAssertTrue(r.stdout.hasPrefix("feed: "), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix(" differences\n"), r.stdout)

        // A spec on standard input: not json, not csv.
        let spec = try Data(contentsOf: work.appendingPathComponent("taller.wfl"))
        let stdin = try WFLCommand.run(["diff", "feed.json", "-"], input: spec, directory: work)
        XCTAssertEqual(stdin.status, 1, stdin.stderr)
        // Its layout is named in the file; only the file name differs.
        XCTAssertEqual(stdin.stdout, viaJSON.stdout.replacingOccurrences(of: "taller.json", with: "<stdin>"))
        // Tables still come on standard input.
        let json = try Data(contentsOf: work.appendingPathComponent("feed.json"))
        XCTAssertEqual(try WFLCommand.run(["diff", "feed.wfl", "-"], input: json, directory: work).status, 0)
        let csv = try Data(contentsOf: work.appendingPathComponent("feed.csv"))
        XCTAssertEqual(try WFLCommand.run(["diff", "-", "feed.wfl"], input: csv, directory: work).status, 0)
    }

    func testTheHelpSaysHowASpecIsRecognised() throws {
        let r = try WFLCommand.run(["help", "diff"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("A or B may be a spec instead: a file named *.wfl"), r.stdout)
    }

    /// A spec with errors: its diagnostics as `wfl run` shows them, exit 65, nothing compared.
    func testASpecWithErrorsExits65WithItsDiagnostics() throws {
        try Data("items 2\nheight foo\n".utf8).write(to: work.appendingPathComponent("bad.wfl"))
        let run = try WFLCommand.run(["run", "bad.wfl"], directory: work, environment: ["NO_COLOR": "1"])
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.stderr.contains("'foo'"), run.stderr)
        for args in [["bad.wfl", "feed.json"], ["feed.json", "bad.wfl"]] {
            let r = try WFLCommand.run(["diff"] + args, directory: work, environment: ["NO_COLOR": "1"])
            XCTAssertEqual(r.status, 65, "\(args)")
            XCTAssertEqual(r.stderr, run.stderr, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args)")
        }
    }
}

/// A failed write to standard output is exit 74 with a message, never a silent success.
final class StandardOutputFailureTests: XCTestCase {
    /// Runs wfl with standard output on /dev/full.
    /// Runs `wfl args` with its standard output on /dev/full (the shell opens it).
    func runIntoFull(_ args: [String], directory: URL) throws -> (status: Int32, stderr: String) {
        XCTAssertTrue(FileManager.default.isWritableFile(atPath: "/dev/full"), "/dev/full exists on Linux")
        let r = try Spawn.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" > /dev/full", WFLCommand.binary.path] + args, directory: directory.path)
        return (r.status, String(decoding: r.stderr, as: UTF8.self))
    }

    func testWritingIntoAFullDeviceExits74() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full here") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("columns 2\nitems 3\n".utf8).write(to: work.appendingPathComponent("a.wfl"))
        try Data("items 10000\n".utf8).write(to: work.appendingPathComponent("big.wfl"))  // about 1 MB of json
        let message = "wfl: cannot write standard output: no space left on device\n"
        let commands = [["run", "a.wfl"], ["a.wfl"], ["run", "a.wfl", "--format", "json"], ["run", "a.wfl", "--format", "csv"],
                        ["run", "a.wfl", "--format", "svg"], ["fmt", "a.wfl"], ["tokens", "a.wfl"], ["--help"], ["--version"],
                        ["test", "a.wfl"], ["run", "a.wfl", "-o", "-"]]
        for (args, r) in zip(commands, try Concurrent.map(commands) { try runIntoFull($0, directory: work) }) {
            XCTAssertEqual(r.status, 74, "\(args)")
            XCTAssertEqual(r.stderr, message, "\(args)")
        }
        // A large output stops at its first failed write, with one message.
        let big = try runIntoFull(["run", "big.wfl", "--format", "json"], directory: work)
        XCTAssertEqual(big.status, 74)
        XCTAssertEqual(big.stderr, message)
    }
}
