// MARK: - Memory per input byte (issue 17)

import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Measure {
    /// The four shapes of a file as large as wfl reads: many statements, one operator chain, one
    /// list, many empty sections (issue 27: each cost 2.7 KB).
    static let inputKinds = ["statements", "chain", "list", "sections"]

    /// A file of `kind`, `size` bytes long (to within a few bytes), that evaluates cleanly.
    static func inputFile(_ kind: String, size: Int) -> [UInt8] {
        // (Sections of 3 items each would pass the item limit: the sections are empty.)
        let head = Array((kind == "sections" ? "" : "items 3\n").utf8)
        var out = head
        out.reserveCapacity(size)
        switch kind {
        case "statements":
            var k = 0
            let tail = Array("height 10\n".utf8)
            while true {
                let line = Array("let v\(k) = \(k) + 1\n".utf8)
                if out.count + line.count + tail.count > size { break }
                out += line
                k += 1
            }
            out += tail
        case "sections":
            let line = Array("section {}\n".utf8)
            while out.count + line.count <= size { out += line }
        case "chain":
            out += Array("height 1".utf8)
            while out.count + 3 <= size { out += [0x2B, 0x31] }    // "+1"
            out.append(0x0A)
        default:
            out += Array("height [1".utf8)
            while out.count + 4 <= size { out += [0x2C, 0x31] }    // ",1"
            out += [0x5D, 0x0A]
        }
        return out
    }

    /// Peak memory of `wfl run` and `wfl fmt` on a 64 MiB file of each kind, per input byte.
    static var inputMemory: Measure { Measure(
        name: "inputmem", summary: "peak memory of wfl run and wfl fmt on a 64 MiB file of statements, one chain, one list, empty sections (8 MiB with --quick), per input byte",
        unit: "x", target: 40, lowerIsBetter: true
    ) { _, options in
        let wfl = siblingExecutable("wfl")
        // The largest file wfl reads is 64 MiB; stay a little under it.
        let size = (options.quick ? 8 : 64) * 1_048_576 - 64
        let path = "/tmp/wfl-bench-input-\(getpid()).wfl"
        defer { unlink(path) }
        // The process's own start (code, runtime) is not the input's doing: measured on an empty file.
        writeFile(path, Array("items 3\n".utf8))
        let empty = peakOf([wfl, "run", path]).peak
        var worst = 0.0, notes: [String] = []
        for kind in inputKinds {
            writeFile(path, inputFile(kind, size: size))
            for command in ["run", "fmt"] {
                let (status, peak) = peakOf([wfl, command, path])
                if status != 0 { fail("wfl-bench: wfl \(command) of the \(kind) file exited with \(status)") }
                let ratio = Double(peak) / Double(size)
                worst = Swift.max(worst, ratio)
                notes.append("wfl \(command), \(kind): peak RSS \(Format.grouped(peak / 1_048_576)) MiB, \(Format.fixed(ratio, 1))x the input")
            }
        }
        notes.append("peak RSS of the whole wfl process (ru_maxrss, started from a small helper process) over the file's \(Format.grouped(size)) bytes; on a file of one line it is \(Format.grouped(empty / 1_048_576)) MiB")
        return Outcome(label: "peak memory per input byte, worst of \(2 * inputKinds.count)", wfl: worst, baseline: 1,
                       baselineName: "the input once", notes: notes)
    } }
}

/// The exit status and peak resident memory of a command, run by a fresh `wfl-bench --peak-child`:
/// Linux counts a process's peak from before its `exec`, so a child started by this large
/// process would be charged with this process's memory; a child of the small helper is not.
func peakOf(_ args: [String], stdin: String? = nil) -> (status: Int32, peak: Int) {
    let out = "/tmp/wfl-bench-peak-\(getpid()).txt"
    defer { unlink(out) }
    let input = stdin.map { ["--stdin", $0] } ?? []
    guard spawn([selfExecutable(), "--peak-child"] + input + args, stdout: out) == 0 else { fail("wfl-bench: the peak helper failed") }
    let fields = String(decoding: readFile(out), as: UTF8.self).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: " \n")) }
    guard fields.count == 2 else { fail("wfl-bench: the peak helper wrote nothing useful") }
    return (Int32(fields[0]), fields[1])
}

/// `wfl-bench --peak-child [--stdin FILE] COMMAND...`: runs COMMAND (reading FILE) and prints its
/// exit status and peak memory.
func peakChild(_ args: [String]) -> Never {
    let (status, peak) = args.first == "--stdin" && args.count > 2 ? spawnPeak(Array(args.dropFirst(2)), stdin: args[1]) : spawnPeak(args)
    print("\(status) \(peak)")
    exit(0)
}

/// Runs a command with its output thrown away; its exit status and peak resident memory in bytes.
func spawnPeak(_ args: [String], stdin: String? = nil) -> (status: Int32, peak: Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    if let stdin { posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0) }
    var pid = pid_t()
    let cargs = args.map { strdup($0) } + [nil]
    defer { for a in cargs { free(a) } }
    guard posix_spawn(&pid, args[0], &actions, nil, cargs, environ) == 0 else { return (-1, 0) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    return ((status >> 8) & 0xFF, usage.ru_maxrss * 1024)
}

// MARK: - The REPL (issue 17)

extension Measure {
    /// Scripts of 5,000 entries piped into `wfl repl`: one `section` after another, and a mix
    /// of lets, settings typed again, sections and expressions; and one block of three lines an
    /// entry would have (15,000 lines: reading it once cost the square of its length).
    static func replScript(_ kind: String, entries: Int) -> String {
        var lines: [String] = []
        switch kind {
        case "block":
            lines = ["section {", "  items 3"]
            for k in 0..<entries * 3 { lines.append("  let v\(k) = [\(k), (\(k) + 1)]") }
            lines += ["  height 10 + v0[0]", "}"]
        case "sections":
            lines = ["columns 3", "spacing 8"]
            for k in 0..<entries - 2 { lines.append("section { items \(k % 20 + 1); height 50 + i % 7 * 10; header 20 }") }
        default:
            for k in 0..<entries {
                switch k % 4 {
                case 0: lines.append("let v\(k) = \(k)")
                case 1: lines.append("columns \(k % 5 + 1)")
                case 2: lines.append("section { items \(k % 9 + 1); height 40 + v\(k - 2) }")
                default: lines.append("frame(0, 0)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static var repl: Measure { Measure(
        name: "repl", summary: "wfl repl reading 5,000 entries from a pipe (one section after another; a mix of lets, settings, sections and expressions; one block of 15,000 lines): seconds for the slowest script",
        unit: "s", target: 10, lowerIsBetter: true
    ) { _, options in
        let wfl = siblingExecutable("wfl")
        let n = options.quick ? 1_000 : 5_000
        var worst = 0.0, baseline = 0.0, notes: [String] = []
        for kind in ["sections", "mixed", "block"] {
            let script = "/tmp/wfl-bench-repl-\(getpid()).txt", file = "/tmp/wfl-bench-repl-\(getpid()).wfl"
            defer { unlink(script); unlink(file) }
            let text = replScript(kind, entries: n)
            writeFile(script, Array(text.utf8))
            var peak = 0
            let seconds = Timer.time { peak = peakOf([wfl, "repl"], stdin: script).peak }
            // The baseline: the same statements run once as a file (the mix without its expressions
            // and with each setting once, as the session ends up).
            let statements = text.split(separator: "\n").filter { !$0.hasPrefix("frame(") }
            var seen = Set<String>(), kept: [Substring] = []
            for line in statements.reversed() {
                let word = line.split(separator: " ").first.map(String.init) ?? ""
                if SettingTable.info(word) != nil { if !seen.insert(word).inserted { continue } }
                kept.append(line)
            }
            writeFile(file, Array((kept.reversed().joined(separator: "\n") + "\n").utf8))
            let once = Timer.time { _ = spawn([wfl, "run", file], stdout: "/dev/null") }
            if seconds > worst { worst = seconds; baseline = once }
            notes.append("\(kind): \(Format.grouped(n)) entries in \(Format.fixed(seconds, 2)) s, peak RSS \(Format.grouped(peak / 1_048_576)) MiB (target 100 MiB); the session's statements run once as a file: \(Format.fixed(once * 1e3, 1)) ms")
        }
        return Outcome(label: "wfl repl, \(Format.grouped(n)) entries", wfl: worst, baseline: baseline,
                       baselineName: "its file run once", notes: notes)
    } }
}
