import WFL

/// The version `wfl --version` prints.
let wflVersion = "0.1.0"

/// One help text per command; `wfl --help` lists them all.
let commandHelp: [(name: String, usage: String, text: String)] = [
    ("run", "wfl run FILE [--format table|json|csv|swift|svg|html|ascii] [--layout NAME] [--offset X,Y] [--rect X,Y,W,H] [--after | --transitions] [--name TYPE] [--device NAME] [--shelf S=X]... [-o FILE]",
     "Evaluate FILE and print the attribute table of each layout in it. 'wfl FILE' is the same.\n-o writes the file whole or not at all (through a symlink, into its target; a device or FIFO\nis written as it stands); without --format, -o's extension picks the format (.json, .csv,\n.swift, .svg, .html; any other: table). --layout picks one layout of the file.\n--offset X,Y gives the frames at that scroll offset (pinned headers, zoomFirst; default 0,0);\n--rect X,Y,W,H prints only the elements that overlap the rect, at the offset.\n--shelf S=X (repeatable) moves shelf S sideways by X (its own offset 'sx'), in every layout\nprinted that has a shelf S.\n--after prints each layout's table after its batch update ('update' blocks).\nsvg and html draw the layouts (html: one self-contained page, a slider for frames that move\nwith the offset); ascii draws the viewport with box-drawing characters, as wide as the terminal\n(80 columns when the output is not one).\n--transitions prints how every element moves in each layout's batch update: table, json,\ncsv, html with a Play button that animates them, or swift; not with --after or --rect.\n--name TYPE names the type of a swift fixture (one layout); without it the type is the\nlayout's name ('FeedLayout'), 'FeedLayoutAfterUpdate' with --after, 'FeedLayoutTransitions'\nwith --transitions.\n--device NAME lays every layout out on a device of the table ('wfl help device'): its\ncontainer, safe area and readable width replace the file's; NAME is 'iPhone13' or\n'iPhone13.landscape'."),
    ("tokens", "wfl tokens FILE",
     "Print the lexer's tokens, one a line, with their positions (line:column-line:column)."),
    ("ast", "wfl ast FILE",
     "Print the parser's tree, one node a line, with positions. Errors go to standard error;\nthe tree is printed all the same, with 'invalid' where they were."),
    ("test", "wfl test PATH... [--device NAME | --devices A,B,...]",
     "Check every 'expect' of the files; a directory means every *.wfl file inside it, recursively,\nin sorted path order. Prints a line per failed expectation (file:line:col, the expression,\nboth sides' values) and then 'N passed, N failed'. Exit status 1 when any failed, 65 when a\nfile does not evaluate (it counts as one failure and its diagnostics are shown).\n--device NAME checks them on a device ('wfl help device'); --devices A,B,... once on each,\nfailure lines starting '[NAME] ', counting (expectation, device) pairs."),
    ("fmt", "wfl fmt FILE... [-w]",
     "Print the canonical form of each FILE: two-space indents, one statement a line, spaces around\nbinary operators, at most one blank line, comments where they were. -w rewrites the files\ninstead, each whole or not at all. A file with errors is left as it is (exit status 65)."),
    ("diff", "wfl diff A B [--tolerance T]",
     "Compare two attribute tables (json or csv, as 'wfl run' writes them) element by element,\nmatched by layout, section, item and kind. Prints the missing, extra and moved elements with\ntheir deltas (at most 20 lines, then a count); exit status 1 when they differ. Numbers are\nequal within T (default 0.001).\nA or B may be a spec instead: a file named *.wfl, or standard input that is neither json\n(it starts with '{' or '[') nor csv (it starts with 'layout,'). It is evaluated as 'wfl run'\nevaluates it (its diagnostics are shown; exit status 65 when it has errors), and its tables\nat offset 0,0 are compared as their json would be."),
    ("repl", "wfl repl",
     "The interactive session: one layout under construction. Type statements as in a .wfl file\n(the summary says what moved), an expression to see its value ('frame(0, 3)'), or a command:\n:help :table :json :transitions :show :load FILE :save FILE :reset :undo :quit. On a pipe it prints\nresults only, one per entry (exit status 65 when an entry had errors)."),
    ("lsp", "wfl lsp",
     "A language server on standard input and output (the Language Server Protocol 3.17), for\neditors: diagnostics as you type, failed expectations, hover, completion, go to definition,\ndocument symbols and formatting. Start it from the editor's LSP client for *.wfl files."),
    ("preview", "wfl preview FILE [--port N]",
     "Serve a live picture of FILE on http://127.0.0.1:PORT/?token=TOKEN (the loopback interface\nonly; without --port, a free port) and print that address: only requests with its random token\nare answered. The page shows the html format's pictures and tables with the offset slider, and\nredraws itself when FILE changes on disk; while FILE has errors it shows them over the last good\npicture. Ctrl-C stops it; it writes nothing."),
    ("help", "wfl help COMMAND | settings | functions | variables | SETTING",
     "Show the help of one command; 'settings', 'functions' and 'variables' list the words of the\nlanguage, and a setting's name tells that setting in full (docs/reference.md has them all)."),
]

let generalHelp = """
    wfl: collection-view layouts, declared and computed.

    usage:
      wfl FILE                      the same as 'wfl run FILE'
      \(commandHelp.map(\.usage).joined(separator: "\n  "))
      wfl --help | wfl --version

    FILE may be '-' for standard input.
    Exit status: 0 success, 1 'test' or 'diff' found differences, 64 usage error, 65 errors in the spec,
    74 a file (or standard output) could not be read or written.

    """

struct CLI {
    var arguments: [String]

    func usageError(_ message: String, command: String? = nil) -> Int32 {
        let usage = command.flatMap { c in commandHelp.first { $0.name == c }?.usage } ?? "wfl COMMAND ... (see 'wfl --help')"
        writeErr("wfl: \(message)\nusage: \(usage)\n")
        return Exit.usage
    }

    func run() -> Int32 {
        guard let first = arguments.first else {
            return usageError("no command or file given")
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            writeOut(generalHelp)
            return Exit.ok
        case "--version":
            writeOut("wfl \(wflVersion)\n")
            return Exit.ok
        case "help":
            guard let name = rest.first else {
                writeOut(generalHelp)
                return Exit.ok
            }
            if let entry = commandHelp.first(where: { $0.name == name }) {
                writeOut("usage: \(entry.usage)\n\n\(entry.text)\n")
                return Exit.ok
            }
            if let text = helpTopic(name) {
                writeOut(text)
                return Exit.ok
            }
            let topics = commandHelp.map(\.name) + Self.helpTopics + SettingTable.names + BlockTable.read.map(\.word.word)
            let suggestion = Suggest.closest(to: name, among: topics).map { "; did you mean '\($0)'?" } ?? ""
            return usageError("unknown command or setting '\(name)'" + suggestion, command: "help")
        case "tokens":
            return withOneFile(rest, command: "tokens") { source in
                let lexed = Lexer.tokenize(source)
                writeOut(TokenPrinter.print(lexed, source: source))
                let errors = lexed.errors.sorted { $0.key < $1.key }.map(\.value)
                return report(errors, in: source)
            }
        case "run":
            return RunCommand(cli: self).run(rest)
        case "repl":
            return ReplCommand(cli: self).run(rest)
        case "test":
            return TestCommand(cli: self).run(rest)
        case "fmt":
            return FmtCommand(cli: self).run(rest)
        case "diff":
            return DiffCommand(cli: self).run(rest)
        case "lsp":
            return LSPCommand(cli: self).run(rest)
        case "preview":
            return PreviewCommand(cli: self).run(rest)
        case "ast":
            return withOneFile(rest, command: "ast") { source in
                let parsed = Parser.parse(source)
                writeOut(ASTPrinter.print(parsed.tree, source: source))
                return report(parsed.diagnostics, in: source)
            }
        default:
            if first.hasPrefix("-") && first != "-" {
                // `wfl --format json FILE` is `wfl FILE --format json`.
                if RunCommand.options.contains(String(first.prefix { $0 != "=" })) { return RunCommand(cli: self).run(arguments) }
                return unknownOption(first, for: nil, among: ["--help", "--version"] + RunCommand.options)
            }
            if !first.contains(".") && !first.contains("/") && first != "-" {
                return usageError("unknown command '\(first)'" + hint(first))
            }
            // `wfl FILE` is `wfl run FILE`.
            return RunCommand(cli: self).run(arguments)
        }
    }

    /// The words of `wfl help` besides commands and settings.
    static let helpTopics = ["settings", "functions", "variables"]

    /// The reference text of `wfl help settings`, `functions`, `variables` or a setting's name.
    func helpTopic(_ name: String) -> String? {
        switch name {
        case "settings": return LanguageReference.settingsText()
        case "functions": return LanguageReference.functionsText()
        case "variables": return LanguageReference.variablesText()
        default: return LanguageReference.settingText(name) ?? LanguageReference.blockText(name)
        }
    }

    /// The usage error of an unknown option, with the nearest of the long `options` its command
    /// takes when one is close ('--formt': "did you mean '--format'?"); a value after '=' is not
    /// compared.
    func unknownOption(_ option: String, for command: String?, among options: [String]) -> Int32 {
        let word = String(option.prefix { $0 != "=" })
        let guess = Suggest.closest(to: word, among: options.filter { $0.hasPrefix("--") }).map { "; did you mean '\($0)'?" } ?? ""
        return usageError("unknown option '\(option)'" + (command.map { " for '\($0)'" } ?? "") + guess, command: command)
    }

    func hint(_ word: String) -> String {
        Suggest.closest(to: word, among: commandHelp.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Runs a command that takes exactly one FILE argument.
    func withOneFile(_ args: [String], command: String, _ body: (SourceFile) -> Int32) -> Int32 {
        var paths: [String] = []
        for a in args {
            if a.hasPrefix("-") && a != "-" { return unknownOption(a, for: command, among: []) }
            paths.append(a)
        }
        guard paths.count == 1 else {
            return usageError(paths.isEmpty ? "'\(command)' needs a FILE" : "'\(command)' takes one FILE, not \(paths.count)", command: command)
        }
        switch readSource(paths[0]) {
        case .failure(let e):
            writeErr("wfl: \(e.message)\n")
            return Exit.ioError
        case .success(let source):
            return body(source)
        }
    }

    /// Prints diagnostics to standard error; 65 when any is an error.
    func report(_ diagnostics: [Diagnostic], in source: SourceFile) -> Int32 {
        if !diagnostics.isEmpty {
            writeErr(DiagnosticRenderer(color: stderrIsColourTerminal).render(diagnostics, in: source))
        }
        return diagnostics.hasErrors ? Exit.dataError : Exit.ok
    }
}
