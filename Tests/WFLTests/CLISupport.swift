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
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        // Output goes to files, so a large output can never block the child.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("out"), errURL = dir.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        // wfl may exit (a usage error) before it reads its input: a closed pipe is then no
        // failure of the test, so SIGPIPE must not end the test process.
        signal(SIGPIPE, SIG_IGN)
        if let input { try? inp.fileHandleForWriting.write(contentsOf: input) }
        try inp.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
