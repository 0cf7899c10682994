import WFL

/// `wfl diff A B [--tolerance T]`: compares two attribute tables (json or csv, or a spec's,
/// evaluated) element by element (docs/usage.md, "wfl diff"). Prints nothing when they agree;
/// otherwise at most `shown` lines of differences and then their count, and exits with 1.
struct DiffCommand {
    let cli: CLI
    static let shown = 20

    func run(_ args: [String]) -> Int32 {
        var paths: [String] = []
        var tolerance = TableDiff.defaultTolerance
        var k = 0
        while k < args.count {
            let a = args[k]
            var value: String? = nil
            if a == "--tolerance" {
                guard k + 1 < args.count else {
                    return cli.usageError("'--tolerance' needs a value: a number at least 0, for example '--tolerance 0.5'", command: "diff")
                }
                k += 1
                value = args[k]
            } else if a.hasPrefix("--tolerance=") {
                value = String(a.dropFirst("--tolerance=".count))
            } else if a.hasPrefix("-") && a != "-" {
                return cli.unknownOption(a, for: "diff", among: ["--tolerance"])
            } else {
                paths.append(a)
            }
            if let value {
                guard let t = RunCommand.decimal(value), t >= 0 else {
                    return cli.usageError("'--tolerance \(value)' is not a tolerance: write a number at least 0, for example '--tolerance 0.5'", command: "diff")
                }
                tolerance = t
            }
            k += 1
        }
        guard paths.count == 2 else {
            return cli.usageError("'diff' compares two tables, A and B; \(paths.isEmpty ? "none was" : paths.count == 1 ? "only one was" : "\(paths.count) were") given", command: "diff")
        }
        if paths[0] == "-" && paths[1] == "-" {
            return cli.usageError("only one of A and B can be standard input ('-')", command: "diff")
        }
        var tables: [[ReadLayout]] = []
        for path in paths {
            let source: SourceFile
            switch readSource(path) {
            case .failure(let e):
                writeErr("wfl: \(e.message)\n")
                return Exit.ioError
            case .success(let s):
                source = s
            }
            if DiffCommand.isSpec(path: path, bytes: source.bytes) {
                // Evaluated as `wfl run` evaluates it, and compared as its json would be.
                let compiled = Pipeline.run(source)
                if !compiled.diagnostics.isEmpty {
                    writeErr(DiagnosticRenderer(color: stderrIsColourTerminal).render(compiled.diagnostics, in: source))
                }
                if compiled.hasErrors { return Exit.dataError }
                tables.append(compiled.tables.map { ReadLayout($0.at(.zero)) })
                continue
            }
            switch TableReader.read(source.bytes) {
            case .failure(let e):
                writeErr("wfl: \(source.name):\(e.line):\(e.column): \(e.message)\n")
                return Exit.dataError
            case .success(let layouts):
                if let e = TableDiff.duplicate(in: layouts) {
                    writeErr("wfl: \(source.name):\(e.line):\(e.column): \(e.message)\n")
                    return Exit.dataError
                }
                tables.append(layouts)
            }
        }
        let differences = TableDiff.compare(tables[0], tables[1], tolerance: tolerance)
        guard !differences.isEmpty else { return Exit.ok }
        let a = paths[0] == "-" ? "<stdin>" : paths[0], b = paths[1] == "-" ? "<stdin>" : paths[1]
        writeOut(TableDifference.report(differences, a: a, b: b, shown: DiffCommand.shown))
        return Exit.differences
    }
}

extension DiffCommand {
    /// True when a side of the diff is a spec to evaluate rather than a table to read: a file
    /// named `*.wfl`, or standard input that is neither json (its first character that is not
    /// white space is `{` or `[`) nor wfl's csv (it starts with `layout,`). Any other file is read
    /// as a table, whatever it holds, so that a damaged table gets the table reader's message.
    static func isSpec(path: String, bytes: [UInt8]) -> Bool {
        if path != "-" { return path.lowercased().hasSuffix(".wfl") }
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        let first = text.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return false }
        return !text.starts(with: Array("layout,".utf8))
    }
}
