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

func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var done = 0
    bytes.withUnsafeBytes { raw in
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            done += n
        }
    }
}

/// True when diagnostics on standard error may be coloured: a terminal, and no `NO_COLOR`.
var stderrIsColourTerminal: Bool {
    isatty(STDERR_FILENO) != 0 && getenv("NO_COLOR") == nil
}

/// Why a file could not be read.
struct ReadError: Error {
    var message: String
}

/// Reads a whole file, or standard input for `-`, as bytes.
func readSource(_ path: String) -> Result<SourceFile, ReadError> {
    if path == "-" {
        return readAll(fd: STDIN_FILENO, path: "<stdin>").map { SourceFile(name: "<stdin>", bytes: $0) }
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

/// The largest file wfl reads (LANGUAGE.md, Limits).
let maxFileSize = 64 << 20

func readAll(fd: Int32, path: String) -> Result<[UInt8], ReadError> {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return .failure(ReadError(message: "cannot read '\(path)': \(String(cString: strerror(errno)).lowercased())"))
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > maxFileSize {
            return .failure(ReadError(message: "cannot read '\(path)': it is larger than 64 MiB, the largest file wfl reads"))
        }
    }
    return .success(bytes)
}

/// Writes a file whole or not at all: a temporary file beside it, then a rename. Returns why it
/// failed, or nil. Killed half-way (SIGKILL, power loss), wfl leaves the old file as it was and
/// may leave the temporary file, `.NAME.wfl-tmp-XXXXXX` beside it, which can be deleted.
func writeWhole(_ path: String, _ bytes: [UInt8]) -> String? {
    func why(_ what: String) -> String { "cannot write '\(path)': \(what)" }
    let slash = path.lastIndex(of: "/")
    let dir = slash.map { String(path[..<$0]) } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(dir.isEmpty ? "/" : dir)/.\(base).wfl-tmp-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if fd < 0 { return why(String(cString: strerror(errno)).lowercased()) }
    let tmp = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var done = 0
    var failure: String? = nil
    bytes.withUnsafeBytes { raw in
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno)).lowercased()
                return
            }
            done += n
        }
    }
    // Keep the usual permissions of a new file (mkstemp makes it 0600).
    let mask = umask(0)
    umask(mask)
    fchmod(fd, 0o666 & ~mask)
    if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)).lowercased() }
    if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)).lowercased() }
    if failure == nil, rename(tmp, path) != 0 { failure = String(cString: strerror(errno)).lowercased() }
    if let failure {
        unlink(tmp)
        return why(failure)
    }
    return nil
}

