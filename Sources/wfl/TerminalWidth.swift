#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The width for character pictures (`--format ascii`, the REPL's `:show`): the terminal's columns
/// when `fd` is a terminal, otherwise (a pipe, a file, `-o`) `ASCIIPicture.defaultColumns`, 80.
func pictureColumns(_ fd: Int32 = STDOUT_FILENO) -> Int {
    Terminal.size(fd).flatMap { $0.columns > 0 ? $0.columns : nil } ?? 80
}
