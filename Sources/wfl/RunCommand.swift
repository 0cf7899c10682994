import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `wfl run FILE [--format table|json|csv|swift|svg|html|ascii] [--layout NAME] [--offset X,Y]
/// [--rect X,Y,W,H] [--after | --transitions] [--name TYPE] [--phase P] [--scroll PATH] [-o FILE]`, and `wfl FILE`.
struct RunCommand {
    let cli: CLI

    /// The options `run` takes (with '=' and a value as well, those that take one).
    static let options = ["--format", "-f", "--layout", "--offset", "--rect", "--after", "--transitions", "--name", "-o", "--output",
                          "--device", "--shelf", "--phase", "--scroll"]

    /// The formats `--format` takes.
    static let builtFormats = ["table", "json", "csv", "swift", "svg", "html", "ascii"]

    /// How many layout names the message for an unknown `--layout` lists.
    static let listedLayouts = 20

    func run(_ args: [String]) -> Int32 {
        var path: String? = nil
        var givenFormat: String? = nil
        var layoutName: String? = nil
        var output: String? = nil
        var offset = Offset.zero
        // Without --offset, each table's initial offset ((0, 0) without a safe area).
        var offsetGiven = false
        // `--device NAME` (docs/usage.md, "Devices").
        var device: DevicePreset? = nil
        var rect: Frame? = nil
        var transitions = false
        // `--after`: each layout's table after its batch update (docs/usage.md).
        var after = false
        // `--name TYPE`: the type of a `--format swift` fixture (docs/usage.md, "Layout fixtures").
        var typeName: String? = nil
        // `--phase` and `--scroll`: self-sizing cells (docs/usage.md, "Self-sizing cells").
        var phase: SizingPhase? = nil
        var steps: [PathStep]? = nil
        // `--shelf S=X` (repeatable): shelf S's own sideways offset (docs/usage.md).
        var shelves: [Int: Double] = [:]
        func addShelf(_ v: String) -> String? {
            guard let (s, x) = RunCommand.shelfValue(v) else {
                return "'--shelf \(v)' is not a shelf offset: write S=X, a section number and a number, for example '--shelf 0=155'"
            }
            if shelves[s] != nil { return "'--shelf' gives shelf \(s) twice: give each shelf one offset" }
            shelves[s] = x
            return nil
        }
        var k = 0
        func value(_ option: String) -> String? {
            guard k + 1 < args.count else { return nil }
            k += 1
            return args[k]
        }
        while k < args.count {
            let a = args[k]
            switch a {
            case "--format", "-f":
                guard let v = value(a) else { return cli.usageError("'\(a)' needs a value: table, json, csv, svg, html or ascii", command: "run") }
                givenFormat = v
            case "--transitions":
                transitions = true
            case "--layout":
                guard let v = value(a) else { return cli.usageError("'--layout' needs a layout name", command: "run") }
                layoutName = v
            case "-o", "--output":
                guard let v = value(a) else { return cli.usageError("'\(a)' needs a file name", command: "run") }
                output = v
            case "--after":
                after = true
            case "--name":
                guard let v = value(a) else { return cli.usageError("'--name' needs a Swift type name, for example '--name FeedLayout'", command: "run") }
                typeName = v
            case "--phase":
                guard let v = value(a) else { return cli.usageError("'--phase' needs a value: estimated, initial or measured", command: "run") }
                guard let p = SizingPhase(rawValue: v) else {
                    return cli.usageError("unknown phase '\(v)': write estimated, initial or measured", command: "run")
                }
                phase = p
            case "--scroll":
                guard let v = value(a) else { return cli.usageError("'--scroll' needs a path: X,Y[/D][:X,Y[/D]]..., for example '--scroll 0,600:0,3000/844'", command: "run") }
                switch RunCommand.scrollPath(v) {
                case .success(let p): steps = p
                case .failure(let message): return cli.usageError(message.text, command: "run")
                }
            case "--device":
                guard let v = value(a) else { return cli.usageError("'--device' needs a device name, for example '--device iPhone13.landscape'", command: "run") }
                switch cli.device(v, option: "--device", command: "run") {
                case .success(let d): device = d
                case .failure(let u): return u.status
                }
            case "--devices":
                return cli.usageError("'--devices' is for 'wfl test'; 'run' takes one '--device NAME'", command: "run")
            case "--offset":
                offsetGiven = true
                guard let v = value(a) else { return cli.usageError("'--offset' needs a value: X,Y, for example '--offset 0,120'", command: "run") }
                guard let xs = RunCommand.numbers(v, count: 2) else {
                    return cli.usageError("'--offset \(v)' is not an offset: write X,Y, two numbers, for example '--offset 0,120'", command: "run")
                }
                offset = Offset(x: xs[0], y: xs[1])
            case "--shelf":
                guard let v = value(a) else { return cli.usageError("'--shelf' needs a value: S=X, for example '--shelf 0=155'", command: "run") }
                if let message = addShelf(v) { return cli.usageError(message, command: "run") }
            case "--rect":
                guard let v = value(a) else { return cli.usageError("'--rect' needs a value: X,Y,W,H, for example '--rect 0,0,375,812'", command: "run") }
                guard let xs = RunCommand.numbers(v, count: 4) else {
                    return cli.usageError("'--rect \(v)' is not a rect: write X,Y,W,H, four numbers, for example '--rect 0,0,375,812'", command: "run")
                }
                if let message = RunCommand.rectRefusal(xs, "--rect \(v)") { return cli.usageError(message, command: "run") }
                rect = Frame(x: xs[0], y: xs[1], width: xs[2], height: xs[3])
            default:
                if a.hasPrefix("--format=") {
                    givenFormat = String(a.dropFirst("--format=".count))
                } else if a.hasPrefix("--phase=") || a.hasPrefix("--scroll=") {
                    // The same as the option and its value apart.
                    let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
                    return RunCommand(cli: cli).run(Array(args[..<k]) + parts + Array(args[(k + 1)...]))
                } else if a.hasPrefix("--device=") {
                    switch cli.device(String(a.dropFirst("--device=".count)), option: "--device", command: "run") {
                    case .success(let d): device = d
                    case .failure(let u): return u.status
                    }
                } else if a.hasPrefix("--devices=") {
                    return cli.usageError("'--devices' is for 'wfl test'; 'run' takes one '--device NAME'", command: "run")
                } else if a.hasPrefix("--offset=") || a.hasPrefix("--rect=") {
                    if a.hasPrefix("--offset=") { offsetGiven = true }
                    let (option, v) = a.hasPrefix("--offset=") ? ("--offset", a.dropFirst(9)) : ("--rect", a.dropFirst(7))
                    let n = option == "--offset" ? 2 : 4
                    guard let xs = RunCommand.numbers(String(v), count: n) else {
                        return cli.usageError("'\(a)' is not \(n == 2 ? "an offset: write X,Y" : "a rect: write X,Y,W,H"), numbers separated by commas", command: "run")
                    }
                    if n == 4, let message = RunCommand.rectRefusal(xs, String(a)) { return cli.usageError(message, command: "run") }
                    if n == 2 { offset = Offset(x: xs[0], y: xs[1]) } else { rect = Frame(x: xs[0], y: xs[1], width: xs[2], height: xs[3]) }
                } else if a.hasPrefix("--shelf=") {
                    if let message = addShelf(String(a.dropFirst("--shelf=".count))) { return cli.usageError(message, command: "run") }
                } else if a.hasPrefix("--layout=") {
                    layoutName = String(a.dropFirst("--layout=".count))
                } else if a.hasPrefix("--name=") {
                    typeName = String(a.dropFirst("--name=".count))
                } else if a.hasPrefix("-") && a != "-" {
                    return cli.unknownOption(a, for: "run", among: RunCommand.options)
                } else if path != nil {
                    return cli.usageError("'run' takes one FILE, not more", command: "run")
                } else {
                    path = a
                }
            }
            k += 1
        }
        if transitions, let conflict = RunCommand.transitionsConflict(after: after, rect: rect != nil) {
            return cli.usageError(conflict, command: "run")
        }
        let sizing = phase != nil || steps != nil
        if offsetGiven, steps != nil || phase == .initial {
            return cli.usageError("'--offset' cannot be used with \(steps != nil ? "'--scroll'" : "'--phase initial'"): the path decides where the table is shown", command: "run")
        }
        if sizing, after || transitions {
            return cli.usageError("'\(after ? "--after" : "--transitions")' cannot be used with '\(steps != nil ? "--scroll" : "--phase")': a scroll path runs on the table before any update", command: "run")
        }
        guard let path else { return cli.usageError("'run' needs a FILE", command: "run") }
        // Without --format, -o's extension picks the format.
        let format = givenFormat ?? output.map(RunCommand.format(forOutput:)) ?? "table"
        if transitions, let refusal = RunCommand.transitionsRefusal(format: format, givenFormat: givenFormat, output: output) {
            return cli.usageError(refusal, command: "run")
        }
        guard RunCommand.builtFormats.contains(format) else {
            let guess = Suggest.closest(to: format, among: RunCommand.builtFormats).map { "; did you mean '\($0)'?" } ?? ""
            return cli.usageError("unknown format '\(format)'\(guess)", command: "run")
        }
        if let typeName, let refusal = RunCommand.nameRefusal(typeName, format: format) {
            return cli.usageError(refusal, command: "run")
        }

        let source: SourceFile
        switch readSource(path) {
        case .failure(let e):
            writeErr("wfl: \(e.message)\n")
            return Exit.ioError
        case .success(let s):
            source = s
        }
        let renderer = DiagnosticRenderer(color: stderrIsColourTerminal)
        var parsed = Pipeline.parse(source)
        if parsed.hasErrors {
            writeErr(renderer.render(parsed.diagnostics, in: source))
            return Exit.dataError
        }
        if let layoutName, !parsed.layoutNames.contains(layoutName) {
            // At most 20 names: a file may hold 100,000 layouts.
            let all = parsed.layoutNames
            let names = all.prefix(RunCommand.listedLayouts).map { "'\($0)'" }.joined(separator: ", ")
            let more = all.count > RunCommand.listedLayouts ? " and \(all.count - RunCommand.listedLayouts) more" : ""
            let has = all.count == 1 ? "its only layout is \(names)" : "its layouts are \(names)\(more)"
            return cli.usageError("'\(source.name)' has no layout '\(layoutName)': \(has)", command: "run")
        }
        if let typeName, layoutName == nil, parsed.layoutNames.count > 1 {
            let all = parsed.layoutNames
            let names = all.prefix(RunCommand.listedLayouts).map { "'\($0)'" }.joined(separator: ", ")
            let more = all.count > RunCommand.listedLayouts ? " and \(all.count - RunCommand.listedLayouts) more" : ""
            return cli.usageError("'--name \(typeName)' names one type, and '\(source.name)' has \(all.count) layouts, \(names)\(more): choose one with '--layout'",
                                  command: "run")
        }
        parsed.program?.device = device
        // The statements are not needed once the program is built: let them go before evaluating.
        parsed = parsed.droppingStatements
        let evaluation = Pipeline.evaluate(parsed, only: layoutName, shelves: shelves)
        let diagnostics = evaluation.diagnostics
        if !diagnostics.isEmpty { writeErr(renderer.render(diagnostics, in: source)) }
        if diagnostics.hasErrors { return Exit.dataError }
        if let message = RunCommand.shelfRefusal(shelves, there: evaluation.evaluation?.shelves ?? []) {
            return cli.usageError(message, command: "run")
        }
        // One offset for the pictures and the transitions: the given one, or the first table's
        // initial offset ((0, 0) without a safe area).
        if !offsetGiven, let first = evaluation.tables.first { offset = first.initialOffset }
        if transitions {
            let command = RunCommand.swiftCommand(path, layoutName, offset, nil, transitions: true, name: typeName)
            return writeTransitions(evaluation, format: format, offset: offset, output: output,
                                    swift: (source.name, command, typeName))
        }

        // The tables before the batch updates, or with `--after` those after them.
        var evaluated = evaluation.layouts.map { $0.table(after ? .afterUpdate : .beforeUpdate) }
        if sizing {
            // Each layout at its phase or after its path, shown where that leaves it.
            do {
                evaluated = try evaluation.layouts.map { l throws(PathFailure) in
                    try l.sized(phase: phase ?? .measured, steps: steps, offset: offsetGiven ? offset : nil)
                }
            } catch {
                switch error {
                case .layout(let f):
                    writeErr(renderer.render(f.diagnostics, in: source))
                    return Exit.dataError
                case .badStep(let d):
                    return cli.usageError("a step of '--scroll' must be above 0, not \(NumberFormat.format(d))", command: "run")
                case .tooManyStops:
                    return cli.usageError("'--scroll' makes more than 1,000,000 stops: make its steps larger", command: "run")
                }
            }
            if let first = evaluated.first?.sizing { offset = first.state.offset }
        }
        // The tables at the offset (pinned headers, zoomFirst), or only what overlaps the rect.
        let tables = evaluated.map { t in
            let offset = t.sizing?.state.offset ?? (offsetGiven ? offset : t.initialOffset)
            return rect.map { t.only(t.query($0, at: offset), at: offset) } ?? t.at(offset)
        }
        // An attribute rule (alpha, zoom, zIndex) that fails at this offset is an error of the file.
        let failures = tables.compactMap(\.rules.attributeFailure)
        if !failures.isEmpty {
            writeErr(renderer.render(failures, in: source))
            return Exit.dataError
        }
        // json, csv and table: formatted into bytes on two threads and written in large blocks.
        if format == "json" || format == "csv" || format == "table" {
            let pieces = format == "json" ? JSONFormat.pieces(tables) : format == "csv" ? CSVFormat.pieces(tables) : TableFormat.pieces(tables)
            guard let output, output != "-" else {
                emitPieces(pieces)
                return Exit.ok
            }
            // Written into the temporary file as it is formatted, never held whole.
            if let message = writeWhole(output, { fd in emitPieces(pieces, to: fd) }) {
                writeErr("wfl: \(message)\n")
                return Exit.ioError
            }
            return Exit.ok
        }
        let text: String
        switch format {
        case "json": text = JSONFormat.format(tables)
        case "csv": text = CSVFormat.format(tables)
        // The tables after the updates are `FeedLayoutAfterUpdate`, so that both files compile in one target.
        case "swift": text = SwiftFormat.format(tables, sourceName: source.name,
                                                command: RunCommand.swiftCommand(path, layoutName, offset, rect, after: after, name: typeName),
                                                name: typeName, suffix: after ? "AfterUpdate" : "")
        // The pictures take the tables as evaluated: they place the offset and the rect themselves.
        case "svg": text = SVGFormat.format(evaluated, offset: offset, rect: rect)
        case "html":
            // A device picker when the file or the command names devices: each listed device's
            // tables computed here, the one in force first.
            let named = RunCommand.namedDevices(evaluated, device)
            if named.isEmpty {
                // A slider for each shelf whose band scrolls (not on the page of a scroll path).
                let sliders = sizing ? [] : parsed.shelfSliders(evaluated, only: layoutName, given: shelves, after: after)
                // The page of a scroll path plays it stop by stop (a layout of at most 20,000
                // elements; the path was followed above, so it does not fail here).
                var players: [HTMLFormat.PathPlayer] = []
                if let steps {
                    for (k, l) in evaluation.layouts.enumerated() where l.before.elements.count <= Compilation.shelfSliderLimit {
                        if let p = try? l.pathStops(steps) { players.append(HTMLFormat.PathPlayer(layout: k, stops: p.tables, numbers: p.numbers, total: p.total)) }
                    }
                }
                text = HTMLFormat.format(evaluated, offset: offset, rect: rect, shelves: sliders, paths: players)
            } else {
                var pages: [(name: String, tables: [AttributeTable])] = []
                for d in named {
                    parsed.program?.device = d
                    let e = Pipeline.evaluate(parsed, only: layoutName)
                    if e.hasErrors { continue }
                    pages.append((d.id, e.layouts.map { $0.table(after ? .afterUpdate : .beforeUpdate) }))
                }
                text = HTMLFormat.format(devices: pages, offset: offsetGiven ? offset : nil, rect: rect)
            }
        // 80 columns unless the output is a terminal (not with -o).
        case "ascii": text = ASCIIPicture.format(evaluated, offset: offset, rect: rect,
                                                 columns: output == nil || output == "-" ? pictureColumns() : ASCIIPicture.defaultColumns)
        default: text = TableFormat.format(tables)
        }
        return emit(text, to: output)
    }
}

extension RunCommand {
    /// The devices a picture offers: `--device`'s, then each layout's own `device`, each once.
    static func namedDevices(_ tables: [AttributeTable], _ given: DevicePreset?) -> [DevicePreset] {
        var out: [DevicePreset] = given.map { [$0] } ?? []
        for t in tables where !t.scroll.device.isEmpty {
            if let d = Devices.preset(named: t.scroll.device), !out.contains(d) { out.append(d) }
        }
        return out
    }

    /// The format `-o FILE` gives when no `--format` is given: `.json`, `.csv`, `.swift`, `.svg`,
    /// `.html` (in any case) give theirs; any other extension, none, and `-` give `table`.
    static func format(forOutput path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "table" }
        let ext = name[name.index(after: dot)...].lowercased()
        return ["json", "csv", "swift", "svg", "html"].contains(ext) ? ext : "table"
    }

    /// `count` finite numbers separated by commas ("0,120"), each a plain decimal, or nil.
    /// `S=X` of `--shelf`: S in ASCII digits, X a wfl number (`digits [. digits] [e [+|-] digits]`,
    /// `_` between digits) optionally after `-`, no spaces; nil when malformed.
    static func shelfValue(_ text: String) -> (Int, Double)? {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let s = Int(parts[0]) else { return nil }
        var x = Array(parts[1].utf8)
        var negative = false
        if x.first == UInt8(ascii: "-") {
            negative = true
            x.removeFirst()
        }
        // The number's grammar: no leading '+' or '.', no trailing '.', '_' only between digits.
        guard let first = x.first, first >= 48, first <= 57 else { return nil }
        var plain: [UInt8] = []
        for (k, c) in x.enumerated() {
            if c == UInt8(ascii: "_") {
                let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
                guard k > 0, k + 1 < x.count, isDigit(x[k - 1]), isDigit(x[k + 1]) else { return nil }
                continue
            }
            plain.append(c)
        }
        if let dot = plain.firstIndex(of: UInt8(ascii: ".")) {
            guard dot + 1 < plain.count, plain[dot + 1] >= 48, plain[dot + 1] <= 57 else { return nil }
        }
        guard let d = decimal(String(decoding: plain, as: UTF8.self)), d.isFinite else { return nil }
        return (s, negative ? -d : d)
    }

    /// The usage error for `--shelf` values naming a section that is a shelf in no layout
    /// printed; it lists the shelves there are.
    static func shelfRefusal(_ shelves: [Int: Double], there: Set<Int>) -> String? {
        guard let bad = shelves.keys.sorted().first(where: { !there.contains($0) }) else { return nil }
        let list = there.sorted().map(String.init)
        let are: String
        switch list.count {
        case 0: are = "no layout printed has a shelf"
        case 1: are = "the only shelf is section \(list[0])"
        default: are = "the shelves are sections " + list.joined(separator: ", ")
        }
        return "'--shelf \(bad)=...' names section \(bad), which is a shelf in no layout printed: \(are)"
    }

    /// Why the rect X,Y,W,H written as `written` is refused, or nil: its far corner (X + W,
    /// Y + H; the near one when W or H is negative) must be a number, as every position is
    /// (`-1.7e308,0,-1.7e308,10` starts at -Infinity).
    static func rectRefusal(_ xs: [Double], _ written: String) -> String? {
        guard !(xs[0] + xs[2]).isFinite || !(xs[1] + xs[3]).isFinite else { return nil }
        return "'\(written)' reaches past the largest number a position can have (about 1.8e308): X + W and Y + H must stay within it"
    }

    static func numbers(_ text: String, count: Int) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == count else { return nil }
        var out: [Double] = []
        for p in parts {
            guard let d = decimal(p.trimmingCharacters(in: " ")) else { return nil }
            out.append(d)
        }
        return out
    }

    /// A finite plain decimal number, or nil: an optional sign, digits with at most one '.' (`1.`,
    /// `.5`, not `.`), an optional exponent (`1e3`, `2.5E-2`). `Double(String)` alone also
    /// reads hexadecimal (`0x10`), `inf` and `nan`, which no option means.
    static func decimal<S: StringProtocol>(_ text: S) -> Double? {
        let s = Array(text.utf8)
        var k = 0
        func digits() -> Int {
            let start = k
            while k < s.count, s[k] >= UInt8(ascii: "0"), s[k] <= UInt8(ascii: "9") { k += 1 }
            return k - start
        }
        if k < s.count, s[k] == UInt8(ascii: "+") || s[k] == UInt8(ascii: "-") { k += 1 }
        var mantissa = digits()
        if k < s.count, s[k] == UInt8(ascii: ".") {
            k += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if k < s.count, s[k] == UInt8(ascii: "e") || s[k] == UInt8(ascii: "E") {
            k += 1
            if k < s.count, s[k] == UInt8(ascii: "+") || s[k] == UInt8(ascii: "-") { k += 1 }
            guard digits() > 0 else { return nil }
        }
        guard k == s.count, let d = Double(String(text)), d.isFinite else { return nil }
        return d
    }
}

extension Substring {
    func trimmingCharacters(in c: Character) -> Substring {
        var s = self
        while s.first == c { s = s.dropFirst() }
        while s.last == c { s = s.dropLast() }
        return s
    }
}

extension RunCommand {
    /// Why a `--scroll` value is not a path.
    struct PathError: Error { let text: String }

    /// `X,Y[/D][:X,Y[/D]]...`: the stops of a path, each with its step; messages quote the value
    /// as `label VALUE` (`--scroll`, or the REPL's `:scroll`).
    static func scrollPath(_ text: String, as label: String = "--scroll") -> Result<[PathStep], PathError> {
        var out: [PathStep] = []
        for part in text.split(separator: ":", omittingEmptySubsequences: false) {
            let halves = part.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count <= 2, let xy = numbers(String(halves[0]), count: 2) else {
                return .failure(PathError(text: "'\(label) \(text)': '\(part)' is not a stop: write X,Y or X,Y/D, for example '0,3000/844'"))
            }
            var step: Double? = nil
            if halves.count == 2 {
                guard let d = decimal(halves[1].trimmingCharacters(in: " ")) else {
                    return .failure(PathError(text: "'\(label) \(text)': '\(halves[1])' is not a step: write a number above 0 after '/'"))
                }
                guard d > 0 else {
                    return .failure(PathError(text: "'\(label) \(text)': a step must be above 0, not \(NumberFormat.format(d))"))
                }
                step = d
            }
            out.append(PathStep(Offset(x: xy[0], y: xy[1]), by: step))
        }
        return .success(out)
    }
}
