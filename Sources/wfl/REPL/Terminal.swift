#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The terminal under `wfl repl`: raw mode from the first prompt to the end of the session (output
// processing stays on, so results print as usual), and the saved mode put back when the session
// ends, at exit, and on the signals that end the process. Only termios, no package.

/// The terminal mode found before raw mode was switched on. On the heap: a global `termios`
/// variable trips AddressSanitizer (a 60-byte write reported as overflowing it, Swift 6.3 on Linux).
nonisolated(unsafe) private let savedTermios: UnsafeMutablePointer<termios> = {
    let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    p.initialize(to: termios())
    return p
}()
/// 1 while raw mode is on: read by the signal handlers.
nonisolated(unsafe) private var rawModeOn: sig_atomic_t = 0
nonisolated(unsafe) private var handlersInstalled = false

enum Terminal {
    /// Switches standard input to raw mode (no echo, no line buffering, no signals from keys: the
    /// editor handles Ctrl-C and Ctrl-D itself). Output processing stays on, so `\n` still starts a
    /// new line. False when standard input is not a terminal.
    static func enableRaw() -> Bool {
        if rawModeOn != 0 { return true }
        installHandlers()
        var mode = termios()
        guard tcgetattr(STDIN_FILENO, &mode) == 0 else { return false }
        savedTermios.pointee = mode
        var raw = mode
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        rawModeOn = 1
        // TCSADRAIN, not TCSAFLUSH: lines typed (or pasted) ahead are kept.
        guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else {
            rawModeOn = 0
            return false
        }
        return true
    }

    /// The terminal's height in lines when `fd` is a terminal that says it, else nil.
    static func rows(_ fd: Int32 = STDOUT_FILENO) -> Int? {
        size(fd).flatMap { $0.rows > 0 ? $0.rows : nil }
    }

    /// The terminal's size when `fd` is a terminal that says it (a side it does not say is 0).
    static func size(_ fd: Int32 = STDOUT_FILENO) -> (rows: Int, columns: Int)? {
        guard isatty(fd) != 0 else { return nil }
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(fd, request, &size) == 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Puts back the mode found by `enableRaw`; does nothing when raw mode is off.
    static func restore() {
        guard rawModeOn != 0 else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, savedTermios)
        rawModeOn = 0
    }

    /// Restores the terminal at exit and on SIGINT, SIGTERM, SIGHUP and the signals of a crash,
    /// then lets the signal do what it would have done.
    static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        atexit { Terminal.restore() }
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE] {
            signal(sig) { s in
                // Only async-signal-safe calls here: tcsetattr, signal, raise.
                if rawModeOn != 0 {
                    tcsetattr(STDIN_FILENO, TCSAFLUSH, savedTermios)
                    rawModeOn = 0
                }
                signal(s, SIG_DFL)
                raise(s)
            }
        }
    }
}

/// `read(2)`, under a name that the types with a `read` method of their own can call.
func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
