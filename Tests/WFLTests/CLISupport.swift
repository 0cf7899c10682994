import Foundation
import XCTest

/// Runs the built `wfl` executable, for tests of the command line.
enum WFLCommand {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `wfl` binary built beside the test bundle.
    static var binary: URL {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        let beside = dir.appendingPathComponent("wfl")
        if FileManager.default.fileExists(atPath: beside.path) { return beside }
        // Bundle.main may be the runner; fall back to the folder of the test executable.
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("wfl")
    }

    /// Runs `wfl args...` in `directory` with `input` on standard input.
    static func run(_ args: [String], input: Data? = nil, directory: URL? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (k, v) in environment { env[k] = v }
        let r = try Spawn.run(binary.path, args, input: input, directory: directory?.path, environment: env)
        return Result(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self),
                      stderr: String(decoding: r.stderr, as: UTF8.self))
    }
}

/// Runs a program to its end with posix_spawn and waitpid. Foundation's `Process.waitUntilExit`
/// on Linux polls its run loop in 50 ms slices, which made each of the suite's few thousand runs
/// of `wfl` cost about 50 ms instead of about 10.
enum Spawn {
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: Data
    }

    /// glibc's posix_spawn_file_actions_addchdir_np (2.29 and later), which Swift's Glibc module
    /// does not declare.
    private static let addChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path args...`; its output goes to temporary files, so a large output never blocks it,
    /// and `input` is written to its standard input (a child that exits without reading it is no
    /// failure). The status is the exit code, or 128 + the signal that ended it.
    /// With `mergingErrors`, standard error goes where standard output goes, in the order written.
    static func run(_ path: String, _ args: [String], input: Data? = nil, directory: String? = nil,
                    environment: [String: String]? = nil, mergingErrors: Bool = false) throws -> Output {
        signal(SIGPIPE, SIG_IGN)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outPath = dir.appendingPathComponent("out").path, errPath = dir.appendingPathComponent("err").path
        let outFD = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errFD = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { if outFD >= 0 { close(outFD) }; if errFD >= 0 { close(errFD) } }
        guard outFD >= 0, errFD >= 0 else { throw Failure(description: "cannot create output files in \(dir.path)") }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
        var writeEnd = pipeFDs[1]
        defer { close(pipeFDs[0]); if writeEnd >= 0 { close(writeEnd) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outFD, 1)
        posix_spawn_file_actions_adddup2(&actions, mergingErrors ? outFD : errFD, 2)
        if let directory {
            guard let addchdir = addChdir else { throw Failure(description: "this C library cannot spawn in a directory") }
            _ = addchdir(&actions, directory)
        }
        // The child starts with the default SIGPIPE action, whatever this process ignores.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + args).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot run \(path): errno \(spawned)") }
        if let input, !input.isEmpty {
            input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                var done = 0
                while done < raw.count {
                    let n = write(writeEnd, raw.baseAddress! + done, raw.count - done)
                    if n < 0 { if errno == EINTR { continue }; break }
                    done += n
                }
            }
        }
        close(writeEnd)
        writeEnd = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid failed: errno \(errno)") }
        }
        let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Output(status: code, stdout: try Data(contentsOf: URL(fileURLWithPath: outPath)),
                      stderr: try Data(contentsOf: URL(fileURLWithPath: errPath)))
    }
}

extension Process {
    /// `waitUntilExit` without its 50 ms steps: Foundation on Linux runs the run loop in 50 ms
    /// slices while it waits, so every wait cost up to 50 ms more than the child took.
    func waitQuickly() {
        while isRunning { usleep(500) }
        waitUntilExit()
    }
}
