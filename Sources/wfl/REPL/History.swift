#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The REPL's history between sessions on a terminal (docs/usage.md): one line per entry in
/// `$XDG_STATE_HOME/wfl/history` (`~/.local/state/wfl/history` when that is unset or not an
/// absolute path), the last `limit` lines kept. Each line is appended as it is entered, so two
/// sessions at once both keep theirs and a session ended by a signal loses nothing; the file is
/// cut back to `limit` lines (a new file put in place whole) when a session starts and ends.
/// Nothing here stops the REPL: the first failure gives one warning and history is then kept in
/// memory only.
struct HistoryFile {
    /// The most lines kept.
    static let limit = 1000

    /// The folder and the file, or nil when there is no home to put them in.
    let location: (directory: String, path: String)?
    private var failed = false

    init(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            location = (state + "/wfl", state + "/wfl/history")
        } else if let home = environment("HOME"), !home.isEmpty {
            location = (home + "/.local/state/wfl", home + "/.local/state/wfl/history")
        } else {
            location = nil
        }
    }

    /// The lines kept, oldest first; none when there is no file yet.
    mutating func load() -> [String] {
        guard location != nil, !failed else { return [] }
        switch readLines() {
        case .success(let lines): return Array(lines.suffix(HistoryFile.limit))
        case .failure(let problem):
            warn(problem.text)
            return []
        }
    }

    struct Problem: Error { var text: String }

    /// Every line of the file; none when it does not exist.
    private func readLines() -> Result<[String], Problem> {
        guard let path = location?.path else { return .success([]) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            return errno == ENOENT ? .success([]) : .failure(Problem(text: "cannot read '\(path)': \(errorText(errno))"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { return .failure(Problem(text: "cannot read '\(path)': \(errorText(errno))")) }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return .success(bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Adds a line at the end of the file, making the folder (0700) when it is missing.
    mutating func append(_ line: String) {
        guard let (directory, path) = location, !failed else { return }
        if let problem = makeDirectory(directory) {
            warn(problem)
            return
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            warn("cannot write '\(path)': \(errorText(errno))")
            return
        }
        defer { close(fd) }
        if let e = writeBytes(fd, Array((line + "\n").utf8)) { warn("cannot write '\(path)': \(errorText(e))") }
    }

    /// Cuts the file back to the last `limit` lines when it holds more.
    mutating func trim() {
        guard let path = location?.path, !failed else { return }
        switch readLines() {
        case .failure(let problem):
            warn(problem.text)
        case .success(let lines):
            guard lines.count > HistoryFile.limit else { return }
            let kept = lines.suffix(HistoryFile.limit).map { $0 + "\n" }.joined()
            if let problem = writeWhole(path, Array(kept.utf8)) { warn(problem) }
        }
    }

    /// Makes `path` and the folders above it that are missing, each readable by its owner only.
    private func makeDirectory(_ path: String) -> String? {
        var st = stat()
        if stat(path, &st) == 0 {
            return st.st_mode & S_IFMT == S_IFDIR ? nil : "cannot make '\(path)': \(errorText(ENOTDIR))"
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            if let problem = makeDirectory(String(path[..<slash])) { return problem }
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST { return "cannot make '\(path)': \(errorText(errno))" }
        return nil
    }

    /// The one warning: history stays in memory from here on.
    private mutating func warn(_ problem: String) {
        failed = true
        writeErr("warning: history is not kept: \(problem)\n")
    }
}
