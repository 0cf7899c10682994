import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The `wfl` command: arguments, files, terminals and exit codes. Everything else is the WFL
// library.

/// Exit statuses of CLI.md.
enum Exit {
    static let ok: Int32 = 0
    static let differences: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let bug: Int32 = 70
    static let ioError: Int32 = 74
}

signal(SIGPIPE, SIG_DFL)
let status = CLI(arguments: Array(CommandLine.arguments.dropFirst())).run()
flushOutput()
exit(status)
