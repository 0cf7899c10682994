import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `wfl test PATH...`: checks every `expect` of the files, directories searched recursively for
/// `*.wfl` in sorted path order (docs/usage.md, "Expectations and `wfl test`").
///
/// Standard output gets one line per failed expectation and the closing `N passed, N failed`;
/// standard error gets the diagnostics (of a file that does not evaluate, of an expectation whose
/// evaluation failed, and warnings).
struct TestCommand {
    let cli: CLI

    func run(_ args: [String]) -> Int32 {
        var paths: [String] = []
        // `--device NAME` or `--devices A,B,...` (docs/usage.md, "Devices"): each device with the
        // name as written, for the '[NAME] ' of failure lines; none: the files' own.
        var single: (String, DevicePreset)? = nil
        var list: [(String, DevicePreset)]? = nil
        var k = 0
        while k < args.count {
            let a = args[k]
            k += 1
            var option = a, v: String? = nil
            if a.hasPrefix("--device=") || a.hasPrefix("--devices="), let eq = a.firstIndex(of: "=") {
                option = String(a[..<eq])
                v = String(a[a.index(after: eq)...])
            }
            if option == "--device" || option == "--devices" {
                if v == nil {
                    guard k < args.count else {
                        return cli.usageError("'\(option)' needs \(option == "--device" ? "a device name, for example '--device iPhone13'" : "device names, for example '--devices iPhone13,iPadMini'")", command: "test")
                    }
                    v = args[k]
                    k += 1
                }
                if option == "--device" {
                    switch cli.device(v!, option: "--device", command: "test") {
                    case .success(let d): single = (v!, d)
                    case .failure(let u): return u.status
                    }
                } else {
                    switch cli.devices(v!, command: "test") {
                    case .success(let ds): list = ds
                    case .failure(let u): return u.status
                    }
                }
                if single != nil, list != nil {
                    return cli.usageError("'--device' and '--devices' cannot be used together: '--devices' runs once on each device", command: "test")
                }
                continue
            }
            if a.hasPrefix("-") && a != "-" {
                return cli.unknownOption(a, for: "test", among: ["--device", "--devices"])
            }
            paths.append(a)
        }
        // nil: the files' own environment, once, without a prefix.
        let runs: [(label: String?, device: DevicePreset?)] = list.map { $0.map { ($0.0, $0.1) } } ?? [(nil, single?.1)]
        guard !paths.isEmpty else {
            return cli.usageError("'test' needs a PATH: a .wfl file or a directory of them, for example 'wfl test samples/'", command: "test")
        }

        var passed = 0, failed = 0
        var status = Exit.ok
        func worsen(_ s: Int32) {
            // 74 (unreadable) over 65 (does not evaluate) over 1 (failures).
            let rank: [Int32: Int] = [Exit.ok: 0, Exit.differences: 1, Exit.dataError: 2, Exit.ioError: 3]
            if rank[s, default: 0] > rank[status, default: 0] { status = s }
        }
        let renderer = DiagnosticRenderer(color: stderrIsColourTerminal)

        for path in paths {
            let files: [String]
            switch TestCommand.wflFiles(path) {
            case .failure(let e):
                writeErr("wfl: \(e.message)\n")
                failed += 1
                worsen(Exit.ioError)
                continue
            case .success(let found):
                if found.isEmpty {
                    writeErr("wfl: warning: no .wfl files in '\(path)'\n")
                }
                files = found
            }
            for file in files {
                let source: SourceFile
                switch readSource(file) {
                case .failure(let e):
                    writeErr("wfl: \(e.message)\n")
                    failed += 1
                    worsen(Exit.ioError)
                    continue
                case .success(let s):
                    source = s
                }
                // Parsed once; evaluated and checked once per device, all on one large stack: the
                // evaluations and checks inside then run in place rather than each on a thread of
                // its own (two threads a device, each with its stack mapped afresh).
                onLargeStack {
                    let parsed = Pipeline.parse(source)
                    for run in runs {
                        let prefix = run.label.map { "[\($0)] " } ?? ""
                        parsed.program?.device = run.device
                        let compilation = Pipeline.evaluate(parsed)
                        let outcomes = Pipeline.checkExpectations(compilation)
                        if compilation.hasErrors {
                            // It counts as one failure (on this device), with its diagnostics.
                            let errors = compilation.diagnostics.filter { $0.severity == .error }
                            let first = errors[0]
                            let p = source.position(of: first.span.start)
                            let more = errors.count > 1 ? " (and \(errors.count - 1) more error\(errors.count > 2 ? "s" : ""))" : ""
                            writeOut("\(prefix)\(source.name):\(p.line):\(p.column): failed: the file does not evaluate: \(first.message)\(more)\n")
                            // A file that does not parse: its diagnostics are the same on every device.
                            if parsed.program != nil || run.label == runs.first?.label { writeErr(renderer.render(compilation.diagnostics, in: source)) }
                            failed += 1
                            worsen(Exit.dataError)
                            continue
                        }
                        if !compilation.diagnostics.isEmpty { writeErr(renderer.render(compilation.diagnostics, in: source)) }
                        for outcome in outcomes {
                            if outcome.passed {
                                passed += 1
                                continue
                            }
                            failed += 1
                            worsen(Exit.differences)
                            writeOut(prefix + outcome.report(in: source) + "\n")
                            if let d = outcome.diagnostic { writeErr(renderer.render(d, in: source)) }
                        }
                    }
                }
            }
        }
        writeOut("\(passed) passed, \(failed) failed\n")
        return status
    }

    /// The file itself, or the `*.wfl` files under a directory (recursively, skipping names
    /// that start with '.', not following links to directories), in sorted path order.
    static func wflFiles(_ path: String) -> Result<[String], ReadError> {
        if path == "-" { return .success(["-"]) }
        var st = stat()
        guard stat(path, &st) == 0 else {
            return .failure(ReadError(message: "cannot read '\(path)': \(String(cString: strerror(errno)).lowercased())"))
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return .success([path]) }
        var found: [String] = []
        var pending = [path]
        while let dir = pending.popLast() {
            guard let handle = opendir(dir) else {
                return .failure(ReadError(message: "cannot read '\(dir)': \(String(cString: strerror(errno)).lowercased())"))
            }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                let full = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var est = stat()
                guard lstat(full, &est) == 0 else { continue }
                switch est.st_mode & S_IFMT {
                case S_IFDIR:
                    pending.append(full)
                case S_IFREG, S_IFLNK:
                    if name.hasSuffix(".wfl") {
                        // A link is followed only to a file.
                        if (est.st_mode & S_IFMT) == S_IFLNK {
                            var target = stat()
                            guard stat(full, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else { continue }
                        }
                        found.append(full)
                    }
                default:
                    continue
                }
            }
        }
        return .success(found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
