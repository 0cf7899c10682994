import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output is buffered here and written in large pieces.
nonisolated(unsafe) var outputBuffer: [UInt8] = []

func writeOut(_ text: String) {
    outputBuffer.append(contentsOf: text.utf8)
    if outputBuffer.count >= 1 << 16 { flushOutput() }
}

func flushOutput() {
    writeAll(STDOUT_FILENO, outputBuffer)
    outputBuffer.removeAll(keepingCapacity: true)
}

func writeErr(_ text: String) {
    flushOutput()
    writeAll(STDERR_FILENO, Array(text.utf8))
}

/// Set when standard output is a closed pipe (EPIPE with SIGPIPE blocked): the rest of the
/// output is dropped quietly, as SIGPIPE would have ended wfl quietly.
nonisolated(unsafe) var standardOutputClosed = false

/// Writes all of `bytes` to `fd`. A failed write to standard output (a full disk, /dev/full, an
/// I/O error) ends wfl with exit status 74 at once, so no output is lost in silence; a closed pipe
/// stays quiet. Failures on standard error are ignored: there is nowhere left to say them.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    if fd == STDOUT_FILENO && standardOutputClosed { return }
    let failure = writeBytes(fd, bytes)
    guard fd == STDOUT_FILENO, let failure else { return }
    if failure == EPIPE {
        standardOutputClosed = true
        return
    }
    outputBuffer.removeAll()
    writeAll(STDERR_FILENO, Array("wfl: cannot write standard output: \(errorText(failure))\n".utf8))
    exit(Exit.ioError)
}

/// `strerror`, lower-case, as wfl's messages are.
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code)).lowercased()
}

/// True when diagnostics on standard error may be coloured: a terminal, and no `NO_COLOR`.
var stderrIsColourTerminal: Bool {
    isatty(STDERR_FILENO) != 0 && getenv("NO_COLOR") == nil
}

/// Why a file could not be read.
struct ReadError: Error {
    var message: String
    /// The errno of a failed read, when that was why.
    var code: Int32? = nil
}

/// Reads a whole file, or standard input for `-`, as bytes.
func readSource(_ path: String) -> Result<SourceFile, ReadError> {
    if path == "-" {
        return readAll(fd: STDIN_FILENO, path: "<stdin>").map { SourceFile(name: "<stdin>", bytes: $0) }
            .mapError { e in e.code.map { ReadError(message: "cannot read standard input: \(errorText($0))") } ?? e }
    }
    var st = stat()
    if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
        return .failure(ReadError(message: "cannot read '\(path)': it is a directory"))
    }
    let fd = open(path, O_RDONLY)
    if fd < 0 {
        return .failure(ReadError(message: "cannot read '\(path)': \(String(cString: strerror(errno)).lowercased())"))
    }
    defer { close(fd) }
    return readAll(fd: fd, path: path).map { SourceFile(name: path, bytes: $0) }
}

/// The largest file wfl reads (docs/language.md, "Limits").
let maxFileSize = 64 << 20

func readAll(fd: Int32, path: String) -> Result<[UInt8], ReadError> {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 {
            let code = errno
            if code == EINTR { continue }
            return .failure(ReadError(message: "cannot read '\(path)': \(errorText(code))", code: code))
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > maxFileSize {
            return .failure(ReadError(message: "cannot read '\(path)': it is larger than 64 MiB, the largest file wfl reads"))
        }
    }
    return .success(bytes)
}

/// Writes a file whole or not at all, and never replaces what stands at the path with something
/// else. Returns why it failed, or nil.
///
/// - A symbolic link (a chain of them) is followed: its target is written and the link stays. A
///   dangling link creates its target, as `echo > link` does.
/// - A regular file is rewritten through a temporary file beside it and a rename, keeping its
///   permissions (and its owner and group, where wfl may set them). Ended half-way by SIGINT,
///   SIGTERM or SIGHUP, wfl removes the temporary file (`TemporaryFile`); killed (SIGKILL, power
///   loss), it leaves the old file as it was and may leave the temporary file,
///   `.NAME.wfl-tmp-XXXXXX` beside it, which can be deleted.
/// - A new file gets the usual permissions, 0666 less the umask.
/// - Anything else that is not a directory (a device such as /dev/null, a FIFO) is opened and
///   written as it is: renaming a file over it would replace it.
func writeWhole(_ path: String, _ bytes: [UInt8]) -> String? {
    writeWhole(path) { fd in writeBytes(fd, bytes) }
}

/// `writeWhole` for output made as it is written: `body` writes everything to the descriptor it
/// is given and returns the errno of a failed write, or nil. The output is never held whole.
func writeWhole(_ path: String, _ body: (Int32) -> Int32?) -> String? {
    func why(_ what: String) -> String { "cannot write '\(path)': \(what)" }
    /// For what is not a regular file: an error, or the outcome of writing it in place.
    func notAFile(_ st: stat, at name: String) -> String?? {
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return .some(why(errorText(EISDIR)))
        case S_IFSOCK: return .some(why("it is a socket, not a file"))
        default: return .some(writeInPlace(name, body).map(why))
        }
    }
    // What the path names, through every link: the kernel follows the links that name no path
    // (`/dev/stdout` on a pipe is `/proc/self/fd/1`, a link to `pipe:[...]`).
    var named = stat()
    if stat(path, &named) == 0, let done = notAFile(named, at: path) { return done }
    let target: String
    switch resolveLinks(path) {
    case .failure(let e): return why(errorText(e.code))
    case .success(let t): target = t
    }
    var st = stat()
    let exists = stat(target, &st) == 0
    if !exists && errno != ENOENT { return why(errorText(errno)) }
    if exists, let done = notAFile(st, at: target) { return done }
    let slash = target.lastIndex(of: "/")
    let dir = slash.map { String(target[..<$0]) } ?? "."
    let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
    let fd: Int32, tmp: String
    switch TemporaryFile.create(dir: dir.isEmpty ? "/" : dir, base: base) {
    case .failure(let e): return why(errorText(e.code))
    case .success(let made): (fd, tmp) = made
    }
    // From here until the file is renamed or removed, SIGINT, SIGTERM and SIGHUP remove it.
    defer { TemporaryFile.finish() }
    var failure = body(fd).map(errorText)
    if exists {
        // The owner first: changing it clears the set-user-ID and set-group-ID bits. Those bits
        // are kept only with the owner, so no one else's file becomes theirs to run as them.
        let owned = (getuid() == 0 || geteuid() == st.st_uid) && fchown(fd, st.st_uid, st.st_gid) == 0
        fchmod(fd, st.st_mode & (owned ? 0o7777 : 0o1777))
    } else {
        // The temporary file is made 0600; a new file gets what `open` would give it.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
    }
    if failure == nil, fsync(fd) != 0 { failure = errorText(errno) }
    if close(fd) != 0, failure == nil { failure = errorText(errno) }
    if failure == nil, rename(tmp, target) != 0 { failure = errorText(errno) }
    if let failure {
        unlink(tmp)
        return why(failure)
    }
    return nil
}

/// The path a chain of symbolic links ends at (the path itself when it is no link); the last one
/// may not exist. A relative link is read from its link's folder. Fails with ELOOP after 40 links,
/// as the kernel does.
func resolveLinks(_ path: String) -> Result<String, Errno> {
    var current = path
    for _ in 0..<40 {
        var st = stat()
        guard lstat(current, &st) == 0 else {
            return errno == ENOENT ? .success(current) : .failure(Errno(code: errno))
        }
        guard st.st_mode & S_IFMT == S_IFLNK else { return .success(current) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(current, &buffer, buffer.count - 1)
        guard n >= 0 else { return .failure(Errno(code: errno)) }
        let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("/") {
            current = link
        } else if let slash = current.lastIndex(of: "/") {
            current = String(current[...slash]) + link
        } else {
            current = link
        }
    }
    return .failure(Errno(code: ELOOP))
}

/// A system call's failure.
struct Errno: Error {
    var code: Int32
}

/// Writes into a device or FIFO as it stands: opened for writing only, never created or
/// truncated. Opening a FIFO waits for its reader, as the shell's `>` does.
func writeInPlace(_ path: String, _ body: (Int32) -> Int32?) -> String? {
    let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
    if fd < 0 { return errorText(errno) }
    var failure = body(fd).map(errorText)
    if close(fd) != 0, failure == nil { failure = errorText(errno) }
    return failure
}

/// Writes all of `bytes` to `fd`; the errno of a failed write, or nil.
func writeBytes(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return nil
    }
}

/// Writes `text` to standard output (no `output`, or `-`) or whole to the file `output`: the
/// exit code, `Exit.ioError` with the message on standard error when the file cannot be written.
func emit(_ text: String, to output: String?) -> Int32 {
    guard let output, output != "-" else {
        writeOut(text)
        return Exit.ok
    }
    if let message = writeWhole(output, Array(text.utf8)) {
        writeErr("wfl: \(message)\n")
        return Exit.ioError
    }
    return Exit.ok
}
