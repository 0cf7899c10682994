import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `wfl repl`: the interactive session of docs/usage.md ("Trying layouts out"). The session itself (entries,
/// evaluation, summaries, undo) is `WFL.Session`; this is the reading, the commands and the files.
///
/// On a terminal (standard input and output both): a prompt, line editing and a history kept
/// between sessions (`HistoryFile`). Otherwise lines are read as they come and only results are
/// printed, one per entry; the exit status is
/// then 65 when an entry had errors (74 when a file could not be read or written), so that
/// `wfl repl < script` can be used in scripts. Standard input that cannot be read (a directory)
/// ends the session with 74.
struct ReplCommand {
    let cli: CLI

    static let prompt = "wfl> "
    static let continuation = "...> "

    /// The commands, in the order `:help` lists them.
    static let commands: [(name: String, usage: String, text: String)] = [
        ("help", ":help", "this list"),
        ("table", ":table", "the attribute table of the layout"),
        ("json", ":json", "the same as JSON"),
        ("transitions", ":transitions", "how every element moves in the batch update ('update' blocks)"),
        ("show", ":show", "a picture of the first screen, drawn with characters"),
        ("scroll", ":scroll X,Y[/D]...", "the table after scrolling there from the first display (self-sizing cells measured)"),
        ("layout", ":layout NAME", "the layout that expressions read (alone: which one)"),
        ("load", ":load FILE", "replace the session with the statements of FILE"),
        ("save", ":save FILE", "write the session as a .wfl file (whole or not at all)"),
        ("reset", ":reset", "start again from an empty layout"),
        ("undo", ":undo", "take back the last change (an entry, :load or :reset)"),
        ("quit", ":quit", "leave (Ctrl-D too)"),
    ]

    func run(_ args: [String]) -> Int32 {
        if let a = args.first {
            return cli.usageError(a.hasPrefix("-") ? "unknown option '\(a)' for 'repl'" : "'repl' takes no FILE: use ':load \(a)' inside it",
                                  command: "repl")
        }
        let interactive = isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
        let repl = Repl(interactive: interactive)
        // Deep expressions nest closures deeply: the same large stack as `wfl run`.
        return onLargeStack { repl.loop() }
    }
}

/// One run of the REPL.
final class Repl {
    let interactive: Bool
    let session: Session
    var editor = LineEditor()
    var pipe = PipeReader()
    /// The history file, on a terminal only.
    var historyFile = HistoryFile()
    /// On a pipe: 65 after an entry with errors, 74 after a file error (the first one wins).
    var status: Int32 = Exit.ok

    init(interactive: Bool) {
        self.interactive = interactive
        session = Session(name: "repl", color: stderrIsColourTerminal)
    }

    func loop() -> Int32 {
        if interactive {
            writeOut("wfl \(wflVersion): type statements as in a .wfl file, or an expression to see its value.\n")
            writeOut("':help' lists the commands; Ctrl-D leaves.\n")
            flushOutput()
            historyFile.trim()
            editor.history = historyFile.load()
        }
        var reader = EntryReader()
        reading: while true {
            let kept = editor.history.count
            let input = interactive
                ? editor.read(prompt: reader.isEmpty ? ReplCommand.prompt : ReplCommand.continuation)
                : pipe.read()
            if editor.history.count > kept, let line = editor.history.last { historyFile.append(line) }
            switch input {
            case .interrupted:
                reader.clear()
            case .end:
                if let code = pipe.failure {
                    // The rest of the input was never read: 74 whatever came before.
                    writeErr("wfl: cannot read standard input: \(errorText(code))\n")
                    status = Exit.ioError
                    break reading
                }
                if pipe.tooLong {
                    writeErr("wfl: cannot read standard input: a line is longer than 64 MiB, the largest entry wfl reads\n")
                    status = Exit.ioError
                    break reading
                }
                // An entry still open at the end: its errors say what is missing.
                if let rest = reader.rest() { show(session.enter(rest)) }
                break reading
            case .line(let line):
                if reader.isEmpty, line.trimmingSpaces.hasPrefix(":") {
                    if !command(line.trimmingSpaces) { break reading }
                    continue
                }
                if reader.byteCount + line.utf8.count + 1 > maxFileSize {
                    writeErr("wfl: an entry is longer than 64 MiB, the largest entry wfl reads; it is dropped\n")
                    fail(Exit.dataError)
                    reader.clear()
                    continue
                }
                guard let entry = reader.add(line, to: session) else { continue }
                show(session.enter(entry))
            }
        }
        flushOutput()
        Terminal.restore()
        if interactive { historyFile.trim() }
        return interactive ? Exit.ok : status
    }

    /// Prints what an entry or a command gave: diagnostics to standard error, results to
    /// standard output.
    func show(_ reply: SessionReply) {
        if !reply.diagnostics.isEmpty { writeErr(reply.diagnostics) }
        writeOut(reply.output)
        flushOutput()
        if reply.failed { fail(Exit.dataError) }
    }

    func fail(_ code: Int32) {
        if status == Exit.ok { status = code }
    }

    /// Prints an error about a command. The typed words in it (a command, a file or layout name)
    /// have their control characters escaped, as diagnostics show them: typed text never drives
    /// the terminal.
    func error(_ message: String, help: String? = nil) {
        writeErr("error: \(Session.escaped(message))\n" + (help.map { "  = help: \(Session.escaped($0))\n" } ?? ""))
    }

    /// Runs a `:command`; false for `:quit`.
    func command(_ line: String) -> Bool {
        let body = line.dropFirst()
        let word = String(body.prefix { $0 != " " && $0 != "\t" })
        let argument = String(body.dropFirst(word.count)).trimmingSpaces
        let names = ReplCommand.commands.map(\.name)
        var name = word
        if !names.contains(word) {
            // A unique beginning is enough: ':q', ':ta'.
            let matches = names.filter { !word.isEmpty && $0.hasPrefix(word) }
            if matches.count == 1 {
                name = matches[0]
            } else {
                let guess = matches.count > 1 ? matches : Suggest.closest(to: word, among: names).map { [$0] } ?? []
                error("unknown command ':\(word)'" + (guess.isEmpty ? "" : "; did you mean \(guess.map { "':\($0)'" }.joined(separator: " or "))?"),
                      help: "':help' lists the commands")
                fail(Exit.usage)
                return true
            }
        }
        let takesFile = name == "load" || name == "save"
        if takesFile, argument.isEmpty {
            error("':\(name)' needs a file name", help: "write ':\(name) layout.wfl'")
            fail(Exit.usage)
            return true
        }
        if name == "scroll", argument.isEmpty {
            error("':scroll' needs a path: X,Y[/D][:X,Y[/D]]...", help: "write ':scroll 0,600' or ':scroll 0,3000/844'")
            fail(Exit.usage)
            return true
        }
        if !takesFile, name != "layout", name != "scroll", !argument.isEmpty {
            error("':\(name)' takes nothing after it", help: "write ':\(name)' alone")
            fail(Exit.usage)
            return true
        }
        switch name {
        case "help":
            var text = "Type a statement as in a .wfl file ('columns 3', 'section {' ... '}'): the layout changes\n"
            text += "and a summary says what moved. Typing a setting again replaces it. An expression alone\n"
            text += "prints its value: 'frame(0, 3)', 'contentHeight', 'heights[2] * 2'.\n"
            let width = ReplCommand.commands.map(\.usage.count).max() ?? 0
            for c in ReplCommand.commands {
                text += "  " + c.usage + String(repeating: " ", count: width - c.usage.count + 2) + c.text + "\n"
            }
            writeOut(text)
        case "table", "json":
            // As `wfl run` prints them: at offset (0, 0), pinned and zoomed.
            do {
                let tables = try session.tablesAtRest()
                writeOut(name == "table" ? TableFormat.format(tables) : JSONFormat.format(tables))
            } catch {
                writeErr(DiagnosticRenderer(color: session.color).render([error], in: SourceFile(name: Session.sessionName, text: session.text)))
                fail(Exit.dataError)
            }
        case "scroll":
            // As `wfl run --scroll PATH` prints it: the table where the path leaves each layout,
            // with its offset and the last stop's adjustments in the title line.
            let steps: [PathStep]
            switch RunCommand.scrollPath(argument, as: ":scroll") {
            case .failure(let e):
                error(e.text, help: "write ':scroll X,Y' or ':scroll X,Y/D' (a stop every D points), joined by ':'")
                fail(Exit.usage)
                return true
            case .success(let s):
                steps = s
            }
            let rendered: Result<[AttributeTable], Diagnostic>
            do {
                rendered = try session.tablesAfterPath(steps)
            } catch {
                switch error {
                case .layout(let f):
                    writeErr(DiagnosticRenderer(color: session.color).render(f.diagnostics, in: SourceFile(name: Session.sessionName, text: session.text)))
                    fail(Exit.dataError)
                    return true
                case .badStep(let d):
                    self.error("a step of ':scroll' must be above 0, not \(NumberFormat.format(d))")
                    fail(Exit.usage)
                    return true
                case .tooManyStops:
                    self.error("':scroll \(argument)' makes more than 1,000,000 stops", help: "make its steps larger")
                    fail(Exit.usage)
                    return true
                }
            }
            switch rendered {
            case .success(let tables):
                writeOut(TableFormat.format(tables))
            case .failure(let d):
                writeErr(DiagnosticRenderer(color: session.color).render([d], in: SourceFile(name: Session.sessionName, text: session.text)))
                fail(Exit.dataError)
            }
        case "transitions":
            do {
                writeOut(TransitionFormat.table(try session.transitionTables()))
            } catch {
                writeErr(DiagnosticRenderer(color: session.color).render([error], in: SourceFile(name: Session.sessionName, text: session.text)))
                fail(Exit.dataError)
            }
        case "show":
            // On a terminal the picture fits the screen, the prompt after it included; through a
            // pipe it is 80 columns wide and as tall as the viewport's shape makes it.
            let rows = interactive ? Terminal.rows().map { $0 - 1 } : nil
            writeOut(ASCIIPicture.format(session.tables, columns: pictureColumns(), rows: rows))
        case "layout":
            let names = session.layoutNames
            let list = names.map { "'\($0)'" }.joined(separator: ", ")
            if argument.isEmpty {
                writeOut("expressions read '\(Session.escaped(session.expressionLayout ?? ""))' (layouts: \(Session.escaped(list)))\n")
            } else if names.contains(argument) {
                session.chosenLayout = argument
                writeOut("expressions read '\(Session.escaped(argument))'\n")
            } else {
                error("no layout '\(argument)'; the layouts are \(list)", help: "write ':layout' and one of the names")
                fail(Exit.usage)
            }
        case "load":
            let path = expandHome(argument)
            if path == "-" {
                error("':load' reads a file, not standard input", help: "write ':load layout.wfl'")
                fail(Exit.usage)
                return true
            }
            switch ReplFiles.isFIFO(path) ? ReplFiles.readFIFO(path, interruptible: interactive) : readSource(path) {
            case .failure(let e):
                error(e.message)
                fail(Exit.ioError)
            case .success(let source):
                show(session.load(source, name: Session.layoutName(forPath: path)))
            }
        case "save":
            let path = expandHome(argument)
            // The session in the canonical form of `wfl fmt` (as typed, should that ever fail).
            var text = session.text
            if case .success(let canonical) = Formatter.format(SourceFile(name: argument, text: text)) { text = canonical }
            let bytes = Array(text.utf8)
            if let message = ReplFiles.isFIFO(path) ? ReplFiles.writeFIFO(path, bytes, interruptible: interactive) : writeWhole(path, bytes) {
                error(message)
                fail(Exit.ioError)
            } else {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
                writeOut("saved \(lines) \(lines == 1 ? "line" : "lines") to \(Session.escaped(argument))\n")
            }
        case "reset":
            show(session.reset())
        case "undo":
            show(session.undo())
        default:
            return false
        }
        flushOutput()
        return true
    }

    /// `~/x.wfl` in the home folder.
    func expandHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = getenv("HOME") else { return path }
        return String(cString: home) + path.dropFirst()
    }
}
