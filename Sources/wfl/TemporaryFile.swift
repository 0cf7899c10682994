#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The temporary file `writeWhole` writes before its rename, and the signals that would leave it
// behind. While it exists, SIGINT, SIGTERM and SIGHUP remove it and then do what they did before
// (by default: end wfl, so the exit status still says which signal it was). The handlers are
// installed only for the length of a write. A signal ignored when the write began stays ignored.

/// The path of the temporary file, for the handlers: a C string allocated before the file exists,
/// since a handler may not allocate.
nonisolated(unsafe) private var temporaryPath: UnsafeMutablePointer<CChar>? = nil
/// 1 while the file at `temporaryPath` may exist and is wfl's to remove.
nonisolated(unsafe) private var temporaryExists: sig_atomic_t = 0
/// The signals whose handlers are replaced during a write, and what they were before.
private let guardedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
nonisolated(unsafe) private let previousActions: UnsafeMutablePointer<sigaction> = {
    let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 3)
    p.initialize(repeating: sigaction(), count: 3)
    return p
}()
/// Bit k set when the handler of `guardedSignals[k]` is wfl's.
nonisolated(unsafe) private var replacedSignals: sig_atomic_t = 0

/// Only async-signal-safe calls here: unlink, sigaction, raise.
private func removeTemporaryAndResignal(_ signal: Int32) {
    if temporaryExists != 0, let path = temporaryPath {
        unlink(path)
        temporaryExists = 0
    }
    let k = signal == SIGINT ? 0 : signal == SIGTERM ? 1 : 2
    // The signal is blocked while its handler runs: raised here, it is delivered to the action
    // put back as soon as this returns.
    sigaction(signal, previousActions + k, nil)
    raise(signal)
}

enum TemporaryFile {
    /// Creates `DIR/.BASE.wfl-tmp-XXXXXX` (six random letters and digits), new and 0600, and
    /// guards it against the signals until `finish`. The descriptor and the path, or the errno.
    static func create(dir: String, base: String) -> Result<(fd: Int32, path: String), Errno> {
        installHandlers()
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for _ in 0..<100 {
            let suffix = String(decoding: (0..<6).map { _ in letters.randomElement()! }, as: UTF8.self)
            let path = "\(dir)/.\(base).wfl-tmp-\(suffix)"
            // The name is in place before the file exists, so no signal finds a file it does not
            // know; if the name is taken, it was never ours to remove.
            let c = Array(path.utf8CString)
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: c.count)
            buffer.initialize(from: c, count: c.count)
            temporaryPath = buffer
            temporaryExists = 1
            let fd = open(buffer, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            let code = errno
            if fd >= 0 { return .success((fd, path)) }
            forget()
            if code != EEXIST {
                restoreHandlers()
                return .failure(Errno(code: code))
            }
        }
        restoreHandlers()
        return .failure(Errno(code: EEXIST))
    }

    /// Ends the guard once the temporary file is gone (renamed or removed), and puts the signals'
    /// actions back; a signal that came meanwhile has already removed the file and ended wfl.
    static func finish() {
        forget()
        restoreHandlers()
    }

    private static func forget() {
        temporaryExists = 0
        let buffer = temporaryPath
        temporaryPath = nil
        buffer?.deallocate()
    }

    private static func installHandlers() {
        for (k, signal) in guardedSignals.enumerated() {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { removeTemporaryAndResignal($0) }
            #else
            action.__sigaction_u.__sa_handler = { removeTemporaryAndResignal($0) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            guard sigaction(signal, nil, previousActions + k) == 0 else { continue }
            // A signal the caller chose to ignore (`nohup`, `trap '' TERM`) stays ignored.
            #if canImport(Glibc)
            let before = previousActions[k].__sigaction_handler.sa_handler
            #else
            let before = previousActions[k].__sigaction_u.__sa_handler
            #endif
            if unsafeBitCast(before, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            if sigaction(signal, &action, nil) == 0 { replacedSignals |= 1 << k }
        }
    }

    private static func restoreHandlers() {
        for (k, signal) in guardedSignals.enumerated() where replacedSignals & (1 << k) != 0 {
            sigaction(signal, previousActions + k, nil)
        }
        replacedSignals = 0
    }
}
