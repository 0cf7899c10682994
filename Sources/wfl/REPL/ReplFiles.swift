import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `:load` and `:save` of a FIFO (docs/usage.md, "Trying layouts out"). The shell's way, an
/// `open` that waits for the other end, hung the REPL for good when nobody came: on a terminal
/// Ctrl-C is a key the line editor reads, not a signal. So a FIFO is opened without blocking and
/// waited on with `poll`, standard input included on a terminal, where Ctrl-C stops the wait. A
/// FIFO that nobody reads is refused at once, and a reader that leaves early is a write error
/// (SIGPIPE is ignored while writing), never the end of the session.
enum ReplFiles {
    /// Why a wait was given up.
    static let interrupted = "interrupted (Ctrl-C) while waiting for the other end of the FIFO"

    /// True when `path`, through its links, names a FIFO.
    static func isFIFO(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO
    }

    /// Waits until `fd` is ready for `events`; with `interruptible`, false when Ctrl-C (or the end
    /// of the terminal's input) comes first on standard input.
    private static func wait(_ fd: Int32, _ events: Int16, interruptible: Bool) -> Bool {
        while true {
            var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, interruptible ? 2 : 1, -1)
            if n < 0 {
                if errno == EINTR { continue }
                return true
            }
            if fds[0].revents != 0 { return true }
            if interruptible, fds[1].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 256)
                let got = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
                // Other keys typed while waiting are dropped.
                if got <= 0 || bytes[0..<got].contains(0x03) { return false }
            }
        }
    }

    /// Reads a FIFO whole: what its writer writes until it closes its end.
    static func readFIFO(_ path: String, interruptible: Bool) -> Result<SourceFile, ReadError> {
        func failure(_ what: String) -> Result<SourceFile, ReadError> { .failure(ReadError(message: "cannot read '\(path)': \(what)")) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { return failure(errorText(errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            guard wait(fd, Int16(POLLIN), interruptible: interruptible) else { return failure(interrupted) }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return failure(errorText(errno))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maxFileSize { return failure("it is larger than 64 MiB, the largest file wfl reads") }
        }
        return .success(SourceFile(name: path, bytes: bytes))
    }

    /// Writes `bytes` into a FIFO; why it failed, or nil.
    static func writeFIFO(_ path: String, _ bytes: [UInt8], interruptible: Bool) -> String? {
        func why(_ what: String) -> String { "cannot write '\(path)': \(what)" }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        if fd < 0 {
            return why(errno == ENXIO ? "nothing is reading the FIFO; start its reader first" : errorText(errno))
        }
        defer { close(fd) }
        // A reader that has gone is an error to report (EPIPE), not the end of the session.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n >= 0 {
                done += n
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                guard wait(fd, Int16(POLLOUT), interruptible: interruptible) else { return why(interrupted) }
            case EPIPE: return why("the reader closed the FIFO before the end (\(errorText(EPIPE)))")
            case let code: return why(errorText(code))
            }
        }
        return nil
    }
}
