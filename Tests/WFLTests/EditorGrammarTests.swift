import Foundation
import XCTest
@testable import WFL

/// editors/: the TextMate grammar is generated from the reference table (so its lists of words
/// are the parser's), and every sample, tokenized with it by a small TextMate interpreter in
/// Python (Tests/Editors/textmate.py), gives each setting, keyword value, function, variable,
/// number, string, comment and keyword the scope the parser's view of the file calls for.
final class EditorGrammarTests: XCTestCase {
    // MARK: The grammar

    /// The words that open blocks and statements of their own (`attach`, `appear`, `disappear`,
    /// `update` with `insert` and `delete`), from the table of block words: those the parser reads
    /// today. None is reserved: elsewhere each is a name.
    static let blockWords = BlockTable.read.map(\.word.word)

    /// The keyword values: the words of every `.word` shape, the sides of the insets, `adaptive`.
    static var valueWords: [String] {
        var words: [String] = []
        for s in SettingTable.all {
            for (w, _) in LanguageReference.values(of: s) where !words.contains(w) { words.append(w) }
        }
        return words
    }

    static func alternation(_ words: [String]) -> String {
        // Longest first, so that no word stops at a shorter one it starts with.
        "(" + words.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }.joined(separator: "|") + ")"
    }

    /// editors/wfl.tmLanguage.json.
    static func grammar() -> String {
        let statementStart = "(?:^|(?<=[;{])|(?<=\\*/))\\s*"
        let name = "[A-Za-z_][A-Za-z0-9_]*"
        let digits = "[0-9](?:_?[0-9])*"
        let reserved = LanguageReference.reservedWords.map(\.word)
        let statementWords = reserved.filter { $0 != "true" && $0 != "false" }
        func scope(_ s: String) -> JSON { .object([("name", .string(s))]) }
        func include(_ s: String) -> JSON { .object([("include", .string("#" + s))]) }
        let repository: [(String, JSON)] = [
            ("comments", .object([("patterns", .array([include("block-comment"), include("line-comment")]))])),
            ("line-comment", .object([
                ("name", .string("comment.line.double-slash.wfl")),
                ("match", .string("(//).*")),
                ("captures", .object([("1", scope("punctuation.definition.comment.wfl"))])),
            ])),
            ("block-comment", .object([
                ("name", .string("comment.block.wfl")),
                ("begin", .string("/\\*")),
                ("end", .string("\\*/")),
                ("beginCaptures", .object([("0", scope("punctuation.definition.comment.begin.wfl"))])),
                ("endCaptures", .object([("0", scope("punctuation.definition.comment.end.wfl"))])),
                ("patterns", .array([include("block-comment")])),
            ])),
            ("strings", .object([
                ("name", .string("string.quoted.double.wfl")),
                ("begin", .string("\"")),
                ("end", .string("\"|$")),
                ("beginCaptures", .object([("0", scope("punctuation.definition.string.begin.wfl"))])),
                ("endCaptures", .object([("0", scope("punctuation.definition.string.end.wfl"))])),
                ("patterns", .array([
                    .object([("name", .string("constant.character.escape.wfl")), ("match", .string("\\\\(?:[\"\\\\nt]|u\\{[0-9A-Fa-f]{1,8}\\})"))]),
                    .object([("name", .string("invalid.illegal.escape.wfl")), ("match", .string("\\\\."))]),
                ])),
            ])),
            ("declarations", .object([("patterns", .array([
                .object([
                    ("match", .string("\\b(let)\\s+(\(name))(?=\\()")),
                    ("captures", .object([("1", scope("keyword.control.let.wfl")), ("2", scope("entity.name.function.wfl"))])),
                ]),
                .object([
                    ("match", .string("\\b(let)\\s+(\(name))")),
                    ("captures", .object([("1", scope("keyword.control.let.wfl")), ("2", scope("variable.other.definition.wfl"))])),
                ]),
                .object([
                    ("match", .string("\\b(layout|section)\\s+(\(name))")),
                    ("captures", .object([("1", scope("keyword.control.wfl")), ("2", scope("entity.name.section.wfl"))])),
                ]),
                // `attach NAME {`: the view's name is its kind, as a section's name names it.
                .object([
                    ("match", .string(statementStart + "(attach)\\s+(\(name))(?=\\s*\\{)")),
                    ("captures", .object([("1", scope("keyword.control.block.wfl")), ("2", scope("entity.name.type.wfl"))])),
                ]),
            ]))])),
            // `to X, Y by D` in a scroll block: `by` is a word of the stop, up to the statement's end.
            ("stops", .object([
                ("begin", .string(statementStart + "(to)\\b")),
                ("end", .string("(?=[;}])|$")),
                ("beginCaptures", .object([("1", scope("keyword.control.block.wfl"))])),
                ("patterns", .array([.object([("name", .string("keyword.control.block.wfl")), ("match", .string("\\bby\\b"))])]
                    + ["comments", "strings", "numbers", "size", "functions", "values", "variables", "operators", "names"].map(include))),
            ])),
            ("keywords", .object([("patterns", .array([
                .object([("name", .string("keyword.control.wfl")), ("match", .string("\\b\(alternation(statementWords))\\b"))]),
                .object([("name", .string("constant.language.boolean.wfl")), ("match", .string("\\b(true|false)\\b"))]),
                .object([
                    ("match", .string(statementStart + alternation(blockWords) + "\\b")),
                    ("captures", .object([("1", scope("keyword.control.block.wfl"))])),
                ]),
            ]))])),
            ("settings", .object([
                // A name that is also a function (`frame`, `alpha`) followed by `(` is a call.
                ("match", .string(statementStart + alternation(SettingTable.names) + "\\b(?!\\()")),
                ("captures", .object([("1", scope("support.type.property-name.wfl"))])),
            ])),
            ("numbers", .object([
                ("name", .string("constant.numeric.wfl")),
                ("match", .string("(?:(?<![A-Za-z0-9_.])|(?<=[0-9]x))\(digits)(?:\\.\(digits))?(?:[eE][+-]?\(digits))?")),
            ])),
            ("size", .object([
                ("name", .string("keyword.operator.size.wfl")),
                ("match", .string("\\bx\\b|(?<=[0-9])x(?=[0-9])")),
            ])),
            ("functions", .object([("patterns", .array([
                .object([("name", .string("support.function.builtin.wfl")), ("match", .string("\\b\(alternation(Builtins.functions.map(\.name)))(?=\\()"))]),
                .object([("name", .string("support.function.expect.wfl")), ("match", .string("\\b\(alternation(Builtins.expectFunctions.map(\.name)))(?=\\()"))]),
            ]))])),
            ("values", .object([
                ("name", .string("support.constant.property-value.wfl")),
                ("match", .string("\\b\(alternation(valueWords))\\b")),
            ])),
            ("variables", .object([
                ("name", .string("variable.language.wfl")),
                ("match", .string("\\b\(alternation(Builtins.variables))\\b")),
            ])),
            ("operators", .object([
                ("name", .string("keyword.operator.wfl")),
                ("match", .string("&&|\\|\\||==|!=|<=|>=|[-+*/%<>!?:=]")),
            ])),
            ("names", .object([
                ("name", .string("variable.other.wfl")),
                ("match", .string("\\b\(name)\\b")),
            ])),
        ]
        // At one position the first pattern wins: comments before operators (`/`), settings
        // and declarations before names, the size's `x` before names.
        let order = ["comments", "strings", "declarations", "stops", "keywords", "settings", "numbers", "size", "functions",
                     "values", "variables", "operators", "names"]
        let grammar = JSON.object([
            ("$schema", .string("https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json")),
            ("name", .string("wfl")),
            ("scopeName", .string("source.wfl")),
            ("fileTypes", .array([.string("wfl")])),
            ("comment", .string("Generated from the reference table (Sources/WFL/Syntax/Vocabulary.swift) by EditorGrammarTests; do not edit: WFL_UPDATE_GOLDEN=1 swift test --filter EditorGrammarTests writes it anew.")),
            ("patterns", .array(order.map(include))),
            ("repository", .object(repository)),
        ])
        return grammar.text(indent: 0) + "\n"
    }

    /// The grammar in editors/ (and its copy in the VS Code extension, which may only read files
    /// inside its folder) is the one the table generates.
    func testTheGrammarIsGeneratedFromTheTable() throws {
        let generated = Self.grammar()
        let input = Golden.root.appendingPathComponent("Sources/WFL/Syntax/Vocabulary.swift")
        for path in ["editors/wfl.tmLanguage.json", "editors/vscode/syntaxes/wfl.tmLanguage.json"] {
            Golden.check(generated, against: Golden.root.appendingPathComponent(path), input: input)
        }
        // It is JSON, and every word list holds the table's words.
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(generated.utf8)) as? [String: Any])
        XCTAssertEqual(object["scopeName"] as? String, "source.wfl")
        for word in SettingTable.names + Builtins.variables + Builtins.functions.map(\.name) + Self.valueWords {
            XCTAssertTrue(generated.contains("|\(word)|") || generated.contains("(\(word)|") || generated.contains("|\(word))"), word)
        }
    }

    // MARK: Tokenizing the samples

    /// A span and the scope it must get.
    struct Check: Encodable {
        var start: Int
        var end: Int
        var scope: String
        var what: String
    }

    /// What the lexer and parser say each word and token of a file is, as scopes.
    static func checks(_ source: SourceFile) -> [Check] {
        var out: [Check] = []
        func add(_ span: Span, _ scope: String) {
            out.append(Check(start: span.start, end: span.end, scope: scope, what: "'\(source.text(span))'"))
        }
        let tokens = Lexer.tokenize(source, keepComments: true).tokens
        for t in tokens {
            switch t.kind {
            case .comment: add(t.span, source.text(t.span).hasPrefix("//") ? "comment.line" : "comment.block")
            case .string: add(t.span, "string.quoted.double")
            case .number: add(t.span, "constant.numeric")
            case .kwLet, .kwLayout, .kwSection, .kwExpect: add(t.span, "keyword.control")
            case .kwTrue, .kwFalse: add(t.span, "constant.language.boolean")
            default: break
            }
        }
        let tree = Parser.parse(source).tree
        let expectNames = Set(Builtins.expectFunctions.map(\.name))
        func expr(_ e: Expr) {
            switch e {
            case .name(let id):
                // A `let` that hides an engine variable keeps the variable's colour: a grammar
                // cannot follow bindings.
                let hidden = id.binding != Binding.free && Builtins.variables.contains(id.text)
                add(id.span, id.binding == Binding.free ? "variable.language" : hidden ? "variable" : "variable.other")
            case .call(let call):
                let callee = call.callee, args = call.arguments
                if callee.binding != Binding.free {
                    add(callee.span, "variable.other")
                } else {
                    add(callee.span, expectNames.contains(callee.text) ? "support.function.expect" : "support.function.builtin")
                }
                args.forEach(expr)
            case .list(let xs, _): xs.forEach(expr)
            case .unary(_, let x, _): expr(x)
            case .binary(let chain):
                let first = chain.head, rest = chain.operands
                expr(first)
                for o in rest {
                    add(o.opSpan, "keyword.operator")
                    expr(o.rhs)
                }
            case .conditional(let c, let a, let b, _): expr(c); expr(a); expr(b)
            case .index(let x, let k, _): expr(x); expr(k)
            case .number, .boolean, .string, .invalid: break
            }
        }
        func statements(_ ss: [Statement]) {
            for s in ss {
                switch s.kind {
                case .let(let d):
                    add(d.name.span, d.parameters == nil ? "variable.other.definition" : "entity.name.function")
                    expr(d.value)
                case .layout(let b), .section(let b):
                    if let n = b.name, !n.quoted { add(n.span, "entity.name.section") }
                    statements(b.statements)
                case .attach(let b):
                    // A keyword where a statement starts (elsewhere `attach` is a name).
                    add(b.keyword, "keyword.control")
                    if let n = b.name, !n.quoted { add(n.span, "entity.name.type") }
                    statements(b.statements)
                case .appear(let a):
                    // Nor `appear` and `disappear`.
                    statements(a.block.statements)
                case .update(let b):
                    // Nor `update`, `insert` and `delete`: words in statement position.
                    statements(b.statements)
                case .scroll(let b):
                    // Words in their positions, keywords where a statement starts.
                    add(b.keyword, "keyword.control")
                    statements(b.statements)
                case .to(let stop):
                    add(stop.word, "keyword.control")
                    expr(stop.x); expr(stop.y)
                    if let by = stop.byWord { add(by, "keyword.control") }
                    if let step = stop.step { expr(step) }
                case .change(let c): c.arguments.forEach(expr)
                case .group(let g):
                    // Nor `group`, its kind and `count`: words in statement position.
                    expr(g.width); expr(g.height)
                    if let c = g.count { expr(c) }
                    statements(g.block.statements)
                case .item(let item):
                    expr(item.width); expr(item.height)
                    statements(item.block?.statements ?? [])
                case .expect(let x): expr(x.condition)
                case .setting(let setting):
                    add(setting.name.span, "support.type.property-name")
                    for a in setting.arguments {
                        switch a {
                        case .value(let e): expr(e)
                        case .word(let n): add(n.span, "support.constant.property-value")
                        case .side(let n, let e):
                            add(n.span, "support.constant.property-value")
                            expr(e)
                        case .adaptive(let e, let span):
                            add(Span(span.start, span.start + "adaptive".utf8.count), "support.constant.property-value")
                            expr(e)
                        case .size(let w, let h, _):
                            expr(w)
                            expr(h)
                            for t in tokens where t.kind == .identifier && t.start >= w.span.end && t.end <= h.span.start
                                && source.text(t.span) == "x" {
                                add(t.span, "keyword.operator.size")
                            }
                        }
                    }
                }
            }
        }
        statements(tree.statements)
        return out
    }

    /// The files the grammar is tried on: the samples, every fixture that parses without
    /// errors, and editors/example.wfl.
    static func sampleFiles() throws -> [URL] {
        var files = Golden.inputs("samples")
        let fixtures = Golden.root.appendingPathComponent("Tests/Fixtures")
        let walker = FileManager.default.enumerator(atPath: fixtures.path)
        var found: [URL] = []
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".wfl") else { continue }
            let url = fixtures.appendingPathComponent(path)
            if !Parser.parse(try Golden.source(url)).diagnostics.hasErrors { found.append(url) }
        }
        files += found.sorted { $0.path < $1.path }
        files.append(Golden.root.appendingPathComponent("editors/example.wfl"))
        return files
    }

    func testEverySampleGetsItsScopes() throws {
        let python = try Self.python3()
        let example = try Golden.source(Golden.root.appendingPathComponent("editors/example.wfl"))
        XCTAssertFalse(Pipeline.run(example).diagnostics.hasErrors, "editors/example.wfl is a correct file")

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-grammar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        struct Entry: Encodable { var path: String; var checks: [Check] }
        var entries: [Entry] = []
        var kinds: Set<String> = []
        for url in try Self.sampleFiles() {
            let checks = Self.checks(try Golden.source(url))
            kinds.formUnion(checks.map(\.scope))
            entries.append(Entry(path: url.path, checks: checks))
        }
        // The block words of attached views, updates and appearances, which the parser does not read yet, in a file of their own.
        let blocks = "attach badge {\n  size 20 x 20\n}\nupdate {\n  insert 0 3\n  delete 0 1\n}\nappear {\n  zIndex 1\n}\ndisappear { zIndex 0 }\n"
        let blocksURL = work.appendingPathComponent("blocks.wfl")
        try Data(blocks.utf8).write(to: blocksURL)
        var blockChecks: [Check] = []
        for word in Self.blockWords + ["size"] {
            var from = blocks.startIndex
            while let r = blocks.range(of: word, range: from..<blocks.endIndex) {
                from = r.upperBound
                // Whole words only: 'appear' stands inside 'disappear'.
                if r.lowerBound > blocks.startIndex, blocks[blocks.index(before: r.lowerBound)].isLetter { continue }
                let start = blocks.utf8.distance(from: blocks.startIndex, to: r.lowerBound)
                blockChecks.append(Check(start: start, end: start + word.utf8.count,
                                         scope: word == "size" ? "support.type.property-name" : "keyword.control", what: word))
            }
        }
        XCTAssertEqual(blockChecks.count, 7)
        entries.append(Entry(path: blocksURL.path, checks: blockChecks))
        // The same words are names where no statement starts with them: bound by `let` and read.
        var names = ""
        var nameChecks: [Check] = []
        for word in Self.blockWords {
            nameChecks.append(Check(start: names.utf8.count + 4, end: names.utf8.count + 4 + word.utf8.count,
                                    scope: "variable.other.definition", what: word))
            names += "let \(word) = 3\n"
        }
        names += "items "
        for (k, word) in Self.blockWords.enumerated() {
            if k > 0 { names += " + " }
            nameChecks.append(Check(start: names.utf8.count, end: names.utf8.count + word.utf8.count, scope: "variable.other", what: word))
            names += word
        }
        names += "\nsection s { height attach * update }\n"
        let namesURL = work.appendingPathComponent("names.wfl")
        try Data(names.utf8).write(to: namesURL)
        for word in ["attach", "update"] {
            let r = try XCTUnwrap(names.range(of: "height attach * update"))
            let at = names.utf8.distance(from: names.startIndex, to: r.lowerBound) + (word == "attach" ? 7 : 16)
            nameChecks.append(Check(start: at, end: at + word.utf8.count, scope: "variable.other", what: word))
        }
        entries.append(Entry(path: namesURL.path, checks: nameChecks))
        XCTAssertFalse(Pipeline.run(try Golden.source(namesURL)).diagnostics.hasErrors, names)
        // Every kind of word is tried somewhere.
        for kind in ["comment.line", "comment.block", "string.quoted.double", "constant.numeric", "keyword.control",
                     "constant.language.boolean", "support.type.property-name", "support.constant.property-value",
                     "support.function.builtin", "support.function.expect", "variable.language", "variable.other",
                     "variable.other.definition", "entity.name.function", "entity.name.section", "entity.name.type",
                     "keyword.operator.size"] {
            XCTAssertTrue(kinds.contains(kind), "no sample has a \(kind)")
        }

        // Two checkers side by side, each with every other file.
        let script = Golden.root.appendingPathComponent("Tests/Editors/textmate.py")
        let grammar = Golden.root.appendingPathComponent("editors/wfl.tmLanguage.json")
        let halves = [0, 1].map { h in entries.enumerated().filter { $0.offset % 2 == h }.map(\.element) }
        let runs = try Concurrent.map(Array(halves.enumerated())) { h, half -> (Int32, String) in
            let checksURL = work.appendingPathComponent("checks\(h).json")
            try JSONEncoder().encode(half).write(to: checksURL)
            return try Self.run(python, [script.path, grammar.path, checksURL.path])
        }
        for (status, output) in runs {
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains(" 0 failures"), output)
        }
    }

    /// The interpreter itself: a span it scopes wrongly is reported.
    func testTheCheckerCatchesAWrongScope() throws {
        let python = try Self.python3()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-grammar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("a.wfl")
        try Data("columns 3 // two\n".utf8).write(to: file)
        struct Entry: Encodable { var path: String; var checks: [Check] }
        let wrong = [Entry(path: file.path, checks: [Check(start: 8, end: 9, scope: "string", what: "3")])]
        let checksURL = work.appendingPathComponent("checks.json")
        try JSONEncoder().encode(wrong).write(to: checksURL)
        let script = Golden.root.appendingPathComponent("Tests/Editors/textmate.py")
        let grammar = Golden.root.appendingPathComponent("editors/wfl.tmLanguage.json")
        let (status, output) = try Self.run(python, [script.path, grammar.path, checksURL.path])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("a.wfl:1:9: 3: expected string, got source.wfl constant.numeric.wfl"), output)
    }

    // MARK: The editors' configurations

    func testEditorConfigurationsStartTheServer() throws {
        let editors = Golden.root.appendingPathComponent("editors")
        let package = try Data(contentsOf: editors.appendingPathComponent("vscode/package.json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: package) as? [String: Any])
        let contributes = try XCTUnwrap(json["contributes"] as? [String: Any])
        let languages = try XCTUnwrap(contributes["languages"] as? [[String: Any]])
        XCTAssertEqual(languages.first?["extensions"] as? [String], [".wfl"])
        let grammars = try XCTUnwrap(contributes["grammars"] as? [[String: Any]])
        let grammarPath = try XCTUnwrap(grammars.first?["path"] as? String)
        XCTAssertTrue(FileManager.default.fileExists(atPath: editors.appendingPathComponent("vscode").appendingPathComponent(grammarPath).path))
        let extensionJS = try String(contentsOf: editors.appendingPathComponent("vscode/extension.js"), encoding: .utf8)
        XCTAssertTrue(extensionJS.contains("args: ['lsp']"))
        let helix = try String(contentsOf: editors.appendingPathComponent("helix/languages.toml"), encoding: .utf8)
        XCTAssertTrue(helix.contains("command = \"wfl\"\nargs = [\"lsp\"]"))
        XCTAssertTrue(helix.contains("file-types = [\"wfl\"]"))
        let nvim = try String(contentsOf: editors.appendingPathComponent("nvim/wfl.lua"), encoding: .utf8)
        XCTAssertTrue(nvim.contains("cmd = { \"wfl\", \"lsp\" }"))
        let readme = try String(contentsOf: editors.appendingPathComponent("README.md"), encoding: .utf8)
        for name in ["Neovim", "VS Code", "Helix", "wfl lsp"] { XCTAssertTrue(readme.contains(name), name) }
        // The TOML parses, when Python can say so.
        if let python = try? Self.python3() {
            let (status, output) = try Self.run(python, ["-c", "import sys, tomllib; tomllib.load(open(sys.argv[1], 'rb'))",
                                                         editors.appendingPathComponent("helix/languages.toml").path])
            XCTAssertEqual(status, 0, output)
        }
    }

    /// Neovim, when installed, gives a .wfl file the filetype `wfl` and starts `wfl lsp` for it
    /// (a stand-in `wfl` on the PATH notes its arguments; the real server is tested elsewhere).
    func testNeovimStartsTheServerForWflFiles() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        guard let nvim = path.split(separator: ":").map({ "\($0)/nvim" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("nvim is not installed: editors/nvim/wfl.lua is not tried")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("wfl-nvim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let fake = work.appendingPathComponent("wfl"), noted = work.appendingPathComponent("args")
        try Data("#!/bin/sh\necho \"$@\" > '\(noted.path)'\nexec cat > /dev/null\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let file = work.appendingPathComponent("feed.wfl")
        try Data("columns 3\n".utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["PATH=\(work.path):\(path)", nvim, "--headless", "--clean",
                             "-u", Golden.root.appendingPathComponent("editors/nvim/wfl.lua").path,
                             "-c", "e \(file.path)", "-c", "lua io.stdout:write('filetype=' .. vim.bo.filetype .. '\\n')",
                             "-c", "sleep 200m", "-c", "qa!"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitQuickly()
        XCTAssertTrue(output.contains("filetype=wfl"), output)
        let args = try String(contentsOf: noted, encoding: .utf8)
        XCTAssertEqual(args, "lsp\n")
    }

    // MARK: Helpers

    /// python3, or a skip that says the grammar is not checked without it.
    static func python3() throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(dir)/python3"
            if FileManager.default.isExecutableFile(atPath: path), (try? run(path, ["--version"]).status) == 0 { return path }
        }
        throw XCTSkip("python3 is not installed: the TextMate grammar is not tokenized (Tests/Editors/textmate.py needs it)")
    }

    static func run(_ executable: String, _ args: [String]) throws -> (status: Int32, output: String) {
        let r = try Spawn.run(executable, args, mergingErrors: true)
        return (r.status, String(decoding: r.stdout, as: UTF8.self))
    }
}

/// A JSON value written with its keys in the order given, two spaces an indent.
enum JSON {
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    func text(indent: Int) -> String {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch self {
        case .string(let s): return JSON.quote(s)
        case .array(let xs):
            if xs.allSatisfy({ if case .string = $0 { return true } else { return false } }) {
                return "[" + xs.map { $0.text(indent: 0) }.joined(separator: ", ") + "]"
            }
            return "[\n" + xs.map { pad + $0.text(indent: indent + 1) }.joined(separator: ",\n") + "\n" + end + "]"
        case .object(let kvs):
            if kvs.count == 1, case .string = kvs[0].1 { return "{ " + JSON.quote(kvs[0].0) + ": " + kvs[0].1.text(indent: 0) + " }" }
            return "{\n" + kvs.map { pad + JSON.quote($0.0) + ": " + $0.1.text(indent: indent + 1) }.joined(separator: ",\n") + "\n" + end + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }
}
