#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What reading a line gave.
enum LineInput: Equatable {
    case line(String)
    /// Ctrl-C: the line (and any entry being collected) is dropped.
    case interrupted
    /// Ctrl-D on an empty line, or the end of the input.
    case end
}

/// Reads lines from a pipe or a file: no prompts, no escape codes.
///
/// The bytes read stay in one buffer with the start of the next line and how far it has been
/// searched for a newline, so a long line costs its length once (searching it from the start after
/// every read made a 16 MB line take 15 s). A line longer than `maxFileSize` ends the input
/// (`tooLong`): wfl reads no entry larger than a file it would read.
struct PipeReader {
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`, and how far it has been searched for a newline.
    private var start = 0, searched = 0
    private var atEnd = false
    /// The errno of a read that failed (standard input is a directory, an I/O error): the input
    /// ends there.
    private(set) var failure: Int32? = nil
    /// True when a line was longer than `maxFileSize`: the input ends there.
    private(set) var tooLong = false

    mutating func read() -> LineInput {
        while true {
            if let nl = buffer[searched...].firstIndex(of: 0x0A) {
                var end = nl
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = nl + 1
                searched = start
                return .line(line)
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count else { return .end }
                var end = buffer.count
                if buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = buffer.count
                searched = start
                return .line(line)
            }
            if buffer.count - start > maxFileSize {
                tooLong = true
                buffer = []
                start = 0
                searched = 0
                atEnd = true
                return .end
            }
            // Drop the lines already returned before the buffer grows.
            if start > 0, start >= buffer.count / 2 {
                buffer.removeSubrange(..<start)
                searched -= start
                start = 0
            }
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: 1 << 16))
            let n = buffer.withUnsafeMutableBytes { readBytes(STDIN_FILENO, $0.baseAddress! + old, 1 << 16) }
            buffer.removeSubrange((old + Swift.max(n, 0))...)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                failure = code
            }
            if n <= 0 { atEnd = true }
        }
    }
}

/// A line editor on a terminal: left, right, home, end, backspace, delete, Ctrl-A, Ctrl-E,
/// Ctrl-K, Ctrl-U, Ctrl-W, Ctrl-B, Ctrl-F, Ctrl-L; history with up and down (and Ctrl-P, Ctrl-N);
/// Ctrl-C drops the line; Ctrl-D on an empty line ends the input, elsewhere deletes. The terminal
/// is put in raw mode at the first line read; the REPL restores it when the session ends.
final class LineEditor {
    /// The lines entered, oldest first (those of earlier sessions first).
    var history: [String] = []
    private var buffer: [Unicode.Scalar] = []
    private var cursor = 0
    private var prompt = ""

    func read(prompt: String) -> LineInput {
        flushOutput()
        guard Terminal.enableRaw() else { return cookedRead(prompt) }
        self.prompt = prompt
        buffer = []
        cursor = 0
        var index = history.count
        var draft: [Unicode.Scalar] = []
        refresh()
        while true {
            guard let b = readByte() else {
                emit("\n")
                return buffer.isEmpty ? .end : .line(String(String.UnicodeScalarView(buffer)))
            }
            switch b {
            case 13, 10:
                cursor = buffer.count
                refresh()
                emit("\n")
                let line = String(String.UnicodeScalarView(buffer))
                if !line.allSatisfy({ $0 == " " }), history.last != line { history.append(line) }
                return .line(line)
            case 3:
                emit("^C\n")
                return .interrupted
            case 4:
                if buffer.isEmpty {
                    emit("\n")
                    return .end
                }
                if cursor < buffer.count { buffer.remove(at: cursor) }
            case 1: cursor = 0
            case 5: cursor = buffer.count
            case 2: cursor = Swift.max(0, cursor - 1)
            case 6: cursor = Swift.min(buffer.count, cursor + 1)
            case 11: buffer.removeSubrange(cursor...)
            case 21:
                buffer.removeSubrange(..<cursor)
                cursor = 0
            case 23:
                var start = cursor
                while start > 0, buffer[start - 1] == " " { start -= 1 }
                while start > 0, buffer[start - 1] != " " { start -= 1 }
                buffer.removeSubrange(start..<cursor)
                cursor = start
            case 8, 127:
                if cursor > 0 {
                    buffer.remove(at: cursor - 1)
                    cursor -= 1
                }
            case 12:
                emit("\u{1B}[H\u{1B}[2J")
            case 16, 14:
                move(in: b == 16 ? -1 : 1, index: &index, draft: &draft)
            case 9:
                insert(" ")
                insert(" ")
            case 27:
                switch escapeKey() {
                case "A": move(in: -1, index: &index, draft: &draft)
                case "B": move(in: 1, index: &index, draft: &draft)
                case "C": cursor = Swift.min(buffer.count, cursor + 1)
                case "D": cursor = Swift.max(0, cursor - 1)
                case "H": cursor = 0
                case "F": cursor = buffer.count
                case "delete": if cursor < buffer.count { buffer.remove(at: cursor) }
                default: break
                }
            case 0..<32:
                break
            default:
                insert(readScalar(first: b))
            }
            refresh()
        }
    }

    /// Up (-1) or down (+1) in the history; the line being typed is kept below the last entry.
    private func move(in direction: Int, index: inout Int, draft: inout [Unicode.Scalar]) {
        let target = index + direction
        guard target >= 0, target <= history.count, target != index else { return }
        if index == history.count { draft = buffer }
        index = target
        buffer = index == history.count ? draft : Array(history[index].unicodeScalars)
        cursor = buffer.count
    }

    private func insert(_ s: Unicode.Scalar) {
        buffer.insert(s, at: cursor)
        cursor += 1
    }

    /// The rest of an escape sequence after ESC: "A" "B" "C" "D" for the arrows, "H" and "F" for
    /// home and end, "delete", or "" for anything else.
    private func escapeKey() -> String {
        guard let b1 = readByte() else { return "" }
        if b1 == UInt8(ascii: "O") {
            guard let b2 = readByte() else { return "" }
            return String(UnicodeScalar(b2))
        }
        guard b1 == UInt8(ascii: "[") else { return "" }
        var params = ""
        while let b = readByte() {
            if b >= 0x40 && b <= 0x7E {
                let final = String(UnicodeScalar(b))
                guard final == "~" else { return final }
                switch params.split(separator: ";").first ?? "" {
                case "1", "7": return "H"
                case "4", "8": return "F"
                case "3": return "delete"
                default: return ""
                }
            }
            params.append(Character(UnicodeScalar(b)))
            if params.count > 16 { return "" }
        }
        return ""
    }

    /// A whole UTF-8 sequence starting with `first`; U+FFFD when it is not one.
    private func readScalar(first: UInt8) -> Unicode.Scalar {
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        var bytes = [first]
        while bytes.count < length, let b = readByte() { bytes.append(b) }
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    }

    private func readByte() -> UInt8? {
        var b: UInt8 = 0
        while true {
            let n = readBytes(STDIN_FILENO, &b, 1)
            if n == 1 { return b }
            if n < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// Redraws the line: prompt, text, clear to the end, cursor in place.
    private func refresh() {
        let column = prompt.unicodeScalars.count + cursor
        var s = "\r" + prompt + String(String.UnicodeScalarView(buffer)) + "\u{1B}[0K\r"
        if column > 0 { s += "\u{1B}[\(column)C" }
        emit(s)
    }

    private func emit(_ s: String) {
        writeAll(STDOUT_FILENO, Array(s.utf8))
    }

    /// When raw mode cannot be had: the prompt, then a line as the terminal gives it.
    private func cookedRead(_ prompt: String) -> LineInput {
        emit(prompt)
        var reader = PipeReader()
        return reader.read()
    }
}
