#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The width for character pictures (`--format ascii`, the REPL's `:show`): the terminal's columns
/// when `fd` is a terminal, otherwise (a pipe, a file, `-o`) `ASCIIPicture.defaultColumns`, 80.
func pictureColumns(_ fd: Int32 = STDOUT_FILENO) -> Int {
    guard isatty(fd) != 0 else { return 80 }
    var size = winsize()
    #if canImport(Glibc)
    let request = UInt(TIOCGWINSZ)
    #else
    let request = TIOCGWINSZ
    #endif
    if ioctl(fd, request, &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 80
}
