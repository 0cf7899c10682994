import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The `wfl` command: arguments, files, terminals and exit codes. Everything else is the WFL
// library.

/// Exit statuses (docs/usage.md, "Commands").
enum Exit {
    static let ok: Int32 = 0
    static let differences: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let bug: Int32 = 70
    static let ioError: Int32 = 74
}

signal(SIGPIPE, SIG_DFL)
// An argument that is not UTF-8 (a file name in another encoding) reaches Swift with its bad
// bytes replaced, so that file could never be opened: say so rather than "no such file".
for k in 1..<Int(CommandLine.argc) {
    if let raw = CommandLine.unsafeArgv[k], String(validatingCString: raw) == nil {
        writeErr("wfl: cannot use '\(String(cString: raw))': the name is not UTF-8; rename the file\n")
        exit(Exit.ioError)
    }
}
let status = CLI(arguments: Array(CommandLine.arguments.dropFirst())).run()
flushOutput()
exit(status)
