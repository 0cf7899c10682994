import WFL

/// `wfl fmt FILE... [-w]`: prints the canonical form of each file, or with `-w` rewrites the
/// files, each whole or not at all (`writeWhole`, as `run -o`). A file with errors is refused and
/// left as it is.
struct FmtCommand {
    let cli: CLI

    func run(_ args: [String]) -> Int32 {
        var paths: [String] = []
        var write = false
        for a in args {
            if a == "-w" || a == "--write" {
                write = true
            } else if a.hasPrefix("-") && a != "-" {
                return cli.unknownOption(a, for: "fmt", among: ["-w", "--write"])
            } else {
                paths.append(a)
            }
        }
        guard !paths.isEmpty else { return cli.usageError("'fmt' needs a FILE", command: "fmt") }
        if write && paths.contains("-") {
            return cli.usageError("'-w' rewrites files: it cannot rewrite standard input ('-')", command: "fmt")
        }
        var status = Exit.ok
        func worsen(_ s: Int32) {
            let rank: [Int32: Int] = [Exit.ok: 0, Exit.dataError: 1, Exit.ioError: 2, Exit.bug: 3]
            if rank[s, default: 0] > rank[status, default: 0] { status = s }
        }
        let renderer = DiagnosticRenderer(color: stderrIsColourTerminal)
        for path in paths {
            let source: SourceFile
            switch readSource(path) {
            case .failure(let e):
                writeErr("wfl: \(e.message)\n")
                worsen(Exit.ioError)
                continue
            case .success(let s):
                source = s
            }
            switch onLargeStack({ Formatter.format(source) }) {
            case .failure(.errors(let diagnostics)):
                writeErr(renderer.render(diagnostics, in: source))
                writeErr("wfl: '\(source.name)' has errors: it is left as it is\n")
                worsen(Exit.dataError)
            case .failure(.wouldChangeMeaning(let why)):
                writeErr("wfl: cannot format '\(source.name)': \(why); this is a bug of wfl, please report it with the file\n")
                worsen(Exit.bug)
            case .success(let text):
                if !write {
                    writeOut(text)
                } else if Array(text.utf8) != source.bytes {
                    if let message = writeWhole(path, Array(text.utf8)) {
                        writeErr("wfl: \(message)\n")
                        worsen(Exit.ioError)
                    }
                }
            }
        }
        return status
    }
}
