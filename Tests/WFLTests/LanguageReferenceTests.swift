import Foundation
import XCTest
@testable import WFL

/// The reference table (Sources/WFL/Syntax/Vocabulary.swift) is complete and true to what the
/// parser, the resolver and the evaluator do; docs/reference.md and the texts of `wfl help` are
/// what it generates.
final class LanguageReferenceTests: XCTestCase {
    // MARK: Generated texts

    /// docs/reference.md is `LanguageReference.markdown()`.
    func testTheDocsAreGeneratedFromTheTable() {
        let url = Golden.root.appendingPathComponent("docs/reference.md")
        Golden.check(LanguageReference.markdown(), against: url, input: Golden.root.appendingPathComponent("Sources/WFL/Syntax/Vocabulary.swift"))
    }

    /// `wfl help ...` as pinned text: Tests/Fixtures/help/NAME.txt holds the standard output of
    /// `wfl help NAME` (NAME.stderr the standard error of a usage mistake).
    func testHelpTexts() throws {
        let dir = Golden.root.appendingPathComponent("Tests/Fixtures/help")
        let input = Golden.root.appendingPathComponent("Sources/WFL/Syntax/Vocabulary.swift")
        for topic in ["settings", "functions", "variables", "columns", "insets", "justify", "size", "height", "pinHeaders", "attach", "insert"] {
            let r = try WFLCommand.run(["help", topic])
            XCTAssertEqual(r.status, 0, topic)
            XCTAssertEqual(r.stderr, "", topic)
            Golden.check(r.stdout, against: dir.appendingPathComponent("\(topic).txt"), input: input)
        }
        for mistake in ["colums", "setings", "nosuchthing"] {
            let r = try WFLCommand.run(["help", mistake])
            XCTAssertEqual(r.status, 64, mistake)
            XCTAssertEqual(r.stdout, "", mistake)
            Golden.check(r.stderr, against: dir.appendingPathComponent("\(mistake).stderr"), input: input)
        }
        // Commands keep their own help.
        let run = try WFLCommand.run(["help", "run"])
        XCTAssertTrue(run.stdout.hasPrefix("usage: wfl run FILE"))
    }

    /// `wfl help settings` is a table: in every row each column starts where the header's does,
    /// however long a name, its arguments or its engines; arguments too long for their column go on
    /// to the next lines, in the same column; no line is wider than 96.
    func testTheSettingsTableKeepsItsColumns() throws {
        let lines = LanguageReference.settingsText().split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let header = try XCTUnwrap(lines.first { String($0).hasPrefix("setting ") })
        func column(_ word: String) throws -> Int {
            let r = try XCTUnwrap(String(header).range(of: " " + word))
            return String(header).distance(from: String(header).startIndex, to: r.lowerBound) + 1
        }
        let arguments = try column("arguments"), level = try column("level"), engines = try column("engines"), defaults = try column("default")
        func text(_ line: [Character], from: Int, to: Int? = nil) -> String {
            guard from < line.count else { return "" }
            return String(line[from..<Swift.min(to ?? line.count, line.count)]).trimmingCharacters(in: .whitespaces)
        }
        for line in lines { XCTAssertLessThanOrEqual(line.count, 96, String(line)) }
        for s in SettingTable.all {
            let k = try XCTUnwrap(lines.firstIndex { String($0).hasPrefix(s.name + " ") }, s.name)
            let row = lines[k]
            XCTAssertEqual(text(row, from: 0, to: arguments), s.name)
            XCTAssertEqual(row[arguments - 1], " ", s.name)
            XCTAssertEqual(row[level - 1], " ", s.name)
            XCTAssertEqual(text(row, from: level, to: engines), LanguageReference.letter(s.level), s.name)
            XCTAssertEqual(row[engines - 1], " ", s.name)
            XCTAssertEqual(text(row, from: engines, to: defaults), s.engines.description, s.name)
            XCTAssertEqual(text(row, from: defaults), s.defaultValue, s.name)
            // The arguments, with the lines that go on in their column.
            var written = text(row, from: arguments, to: level)
            for next in lines[(k + 1)...] {
                guard next.count > arguments, next[..<arguments].allSatisfy({ $0 == " " }), next[arguments] != " " else { break }
                written += " " + text(next, from: arguments)
            }
            XCTAssertEqual(written, s.arguments, s.name)
        }
    }

    func testEveryHelpTextSaysEveryRow() {
        let settings = LanguageReference.settingsText()
        for s in SettingTable.all {
            XCTAssertTrue(settings.contains("\n" + s.name + " "), s.name)
            XCTAssertNotNil(LanguageReference.settingText(s.name), s.name)
            XCTAssertNotNil(LanguageReference.hover(setting: s.name), s.name)
        }
        let functions = LanguageReference.functionsText()
        for f in Builtins.functions + Builtins.expectFunctions {
            for sig in f.signatures { XCTAssertTrue(functions.contains("  \(sig)\n"), sig) }
            XCTAssertNotNil(LanguageReference.hover(function: f.name), f.name)
        }
        let variables = LanguageReference.variablesText()
        for v in Builtins.variables {
            XCTAssertTrue(variables.contains("  \(v) "), v)
            XCTAssertNotNil(LanguageReference.hover(variable: v), v)
        }
        XCTAssertNil(LanguageReference.settingText("colums"))
        XCTAssertNil(LanguageReference.hover(setting: "colums"))
    }

    /// The hover texts an editor shows, pinned.
    func testHoverTexts() {
        XCTAssertEqual(LanguageReference.hover(setting: "columns"), """
            **columns** `N | adaptive(MIN)`

            vertical waterfall and grid: the lane count, a whole number from 1 to 1,000; `adaptive(MIN)`: as many lanes at least MIN wide as fit, `max(1, floor((aw + cs + 1e-6) / (MIN + cs)))`

            default `2` · level S (also inside a section) · waterfall and grid

            Example: `columns 2`
            """)
        XCTAssertEqual(LanguageReference.hover(setting: "spacing"), """
            **spacing** `N | R C`

            sets `rowSpacing` and `columnSpacing`: one value for both, or rows then columns

            level S (also inside a section) · every engine

            Example: `spacing 10`
            """)
        XCTAssertEqual(LanguageReference.hover(value: "leftToRight", setting: "order"),
                       "**leftToRight** (a value of `order`)\n\nitem i goes to lane `i % lanes`, counting from the first lane (moved back when its span does not fit)")
        XCTAssertEqual(LanguageReference.hover(value: "top", setting: "headerInsets"), "**top** (a value of `headerInsets`)\n\nthe top side")
        XCTAssertNil(LanguageReference.hover(value: "top", setting: "order"))
        XCTAssertEqual(LanguageReference.hover(function: "frame"),
                       "`frame(s, i)`, `frame(s, i, ox, oy)`, `frame(s, i, ox, oy, sx)`\n\n`[x, y, w, h]` of cell i of section s, at scroll offset (0, 0) or (ox, oy), with shelf s at its own offset sx (else 0)\n\nIn `expect` only.")
        XCTAssertEqual(LanguageReference.hover(function: "clamp"), "`clamp(x, lo, hi)`\n\nx, raised to lo or lowered to hi (lo must be at most hi)")
        XCTAssertEqual(LanguageReference.hover(variable: "w"),
                       "**w**: vertical waterfall: the item's width, spans included; `alpha`, `zoom`, `zIndex`: the cell's width at the scroll offset; vertical grid `rowHeight`: the column width\n\nHas a value in: vertical waterfall: `height`, `size`, `estimate`; vertical grid: `rowHeight`; waterfall `attach`: `when`, `size`; waterfall `attach`: `offset`; flow and shelf `attach`: `when`, `size`; flow and shelf `attach`: `offset`; `alpha`, `zoom`, `zIndex`, `translate`, `rotate`; shelf: `alpha`, `zoom`, `zIndex`, `translate`, `rotate`; `appear`, `disappear`: `alpha`, `zoom`, `offset`, `translate`, `rotate`")
        XCTAssertEqual(LanguageReference.hover(variable: "col"),
                       "**col**: waterfall: the item's first lane, from 0 (in `attach`, the cell's)\n\nHas a value in: vertical waterfall: `height`, `size`, `estimate`; horizontal waterfall: `width`, `size`, `estimate`; waterfall `attach`: `when`, `size`; waterfall `attach`: `offset`")
    }

    /// The READMEs and docs/ link only to files of the repository, and name no folder outside it.
    func testDocsLinkInsideTheRepository() throws {
        let docs = Golden.root.appendingPathComponent("docs")
        let pages = [Golden.root.appendingPathComponent("README.md"), Golden.root.appendingPathComponent("editors/README.md")]
            + (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
        var links = 0
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            XCTAssertFalse(text.contains("../shared"), "\(page.lastPathComponent) points outside the repository")
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close]).split(separator: "#").first.map(String.init) ?? ""
                if target.isEmpty || target.hasPrefix("http") { continue }
                links += 1
                let url = page.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
                XCTAssertTrue(url.path.hasPrefix(Golden.root.standardizedFileURL.path + "/"), "\(page.lastPathComponent): \(target) is outside the repository")
                XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(page.lastPathComponent) links to \(target), which is missing")
            }
        }
        XCTAssertGreaterThan(links, 10)
        let readme = try String(contentsOf: pages[0], encoding: .utf8)
        XCTAssertTrue(readme.contains("(docs/reference.md)"))
    }

    // MARK: The table is complete

    func testEverySettingIsDocumented() {
        for s in SettingTable.all {
            XCTAssertFalse(s.arguments.isEmpty, "\(s.name): no arguments")
            XCTAssertFalse(s.meaning.isEmpty, "\(s.name): no meaning")
            XCTAssertFalse(s.engines.isEmpty, "\(s.name): no engines")
            XCTAssertFalse(s.meaning.hasSuffix("."), "\(s.name): a meaning is a phrase, without a full stop")
            switch s.shape {
            case .word(let words):
                XCTAssertEqual(Set(s.values.keys), Set(words), "\(s.name): every keyword value and nothing else has a meaning")
                XCTAssertEqual(s.arguments, words.joined(separator: " | "), s.name)
                XCTAssertTrue(words.contains(s.defaultValue), "\(s.name): the default is one of its words")
            case .size:
                // `estimate` also takes one value (a waterfall's length).
                XCTAssertTrue(["W x H", "X x Y", "E | W x H", "C x R"].contains(s.arguments), s.name)
                XCTAssertEqual(s.values, [:], s.name)
            case .lanes:
                XCTAssertEqual(s.arguments, "N | adaptive(MIN)", s.name)
                XCTAssertEqual(s.values, [:], s.name)
            case .insets:
                XCTAssertTrue(s.arguments.hasPrefix("A | V H | T L B R") || s.arguments.hasPrefix("as insets"), s.name)
                XCTAssertEqual(s.values, [:], s.name)
            case .values:
                XCTAssertEqual(s.values, [:], s.name)
            case .device:
                XCTAssertEqual(s.arguments, "NAME [portrait | landscape]", s.name)
                XCTAssertEqual(s.values, [:], s.name)
            }
            for (word, meaning) in LanguageReference.values(of: s) { XCTAssertFalse(meaning.isEmpty, "\(s.name) \(word)") }
        }
        XCTAssertEqual(Set(SettingTable.sideMeanings.keys), Set(SettingTable.sides))
    }

    func testFunctionsHaveTheirSignatures() {
        for f in Builtins.functions + Builtins.expectFunctions {
            XCTAssertFalse(f.meaning.isEmpty, f.name)
            var counts: [Int] = []
            for sig in f.signatures {
                XCTAssertTrue(sig.hasPrefix(f.name + "(") && sig.hasSuffix(")"), sig)
                let inside = sig.dropFirst(f.name.count + 1).dropLast()
                let count = inside.isEmpty ? 0 : inside.split(separator: ",").count
                counts.append(count)
                if !inside.contains("...") { XCTAssertTrue(f.arity.accepts(count), "\(sig) against \(f.arity.description)") }
            }
            if case .exactly(let ks) = f.arity { XCTAssertEqual(Set(counts), Set(ks), "\(f.name): one signature per arity") }
        }
        // `min(list)` spreads its list; the parser accepts it as one argument.
        XCTAssertTrue(Builtins.arity(of: "min")!.accepts(1))
    }

    /// The variables are the engine's, every one with a meaning and a place.
    func testVariablesAreTheEngines() {
        XCTAssertEqual(Builtins.variables, EngineVar.allCases.map(\.name))
        for v in Builtins.variableTable {
            XCTAssertFalse(v.meaning.isEmpty, v.name)
            XCTAssertTrue(Builtins.places.contains { $0.variables.contains(v.name) }, "\(v.name) has a value nowhere")
        }
        for p in Builtins.places {
            for s in p.settings { XCTAssertNotNil(SettingTable.info(s), "\(p.place): '\(s)' is no setting") }
            for v in p.variables { XCTAssertNotNil(Builtins.variable(v), "\(p.place): '\(v)' is no variable") }
        }
        // A setting whose arguments are expressions has a place; one of bare words has none.
        for s in SettingTable.all {
            if case .word = s.shape {
                XCTAssertTrue(LanguageReference.places(of: s.name).isEmpty, s.name)
            } else if case .device = s.shape {
                XCTAssertTrue(LanguageReference.places(of: s.name).isEmpty, s.name)
            } else {
                XCTAssertFalse(LanguageReference.places(of: s.name).isEmpty, "\(s.name) has no row in the places of variables")
            }
        }
    }

    // MARK: The table is true

    /// A file that reads VAR where each place of `Builtins.places` is, for each of its settings.
    static let placeTemplates: [String: String] = [
        "container": "container 375 + 0 * VAR x 812\nitems 1\n",
        "seed": "seed 0 * VAR\nitems 1\n",
        "zoomFirst": "style flow\ndirection horizontal\nzoomFirst 100 + 0 * VAR x 100\nitems 1\n",
        "insets": "insets 0 * VAR\nitems 1\n",
        "headerInsets": "header 10\nheaderInsets 0 * VAR\nitems 1\n",
        "footerInsets": "footer 10\nfooterInsets 0 * VAR\nitems 1\n",
        "backgroundInsets": "footer 10\nbackgroundInsets 0 * VAR\nitems 1\n",
        "alpha": "items 1\nalpha 1 + 0 * VAR\n",
        "waterfall `attach`: `when`, `size`/when": "items 1\nattach b { when 0 * VAR == 0 }\n",
        "waterfall `attach`: `when`, `size`/size": "items 1\nattach b { size 1 + 0 * VAR x 1 }\n",
        "waterfall `attach`: `offset`/offset": "items 1\nattach b { offset 0 * VAR x 0 }\n",
        "flow and shelf `attach`: `when`, `size`/when": "style flow\nsize 10 x 10\nitems 1\nattach b { when 0 * VAR == 0 }\n",
        "flow and shelf `attach`: `when`, `size`/size": "style flow\nsize 10 x 10\nitems 1\nattach b { size 1 + 0 * VAR x 1 }\n",
        "flow and shelf `attach`: `offset`/offset": "style flow\nsize 10 x 10\nitems 1\nattach b { offset 0 * VAR x 0 }\n",
        "`appear`, `disappear`: `alpha`, `zoom`, `offset`, `translate`, `rotate`/alpha": "items 1\nappear { alpha 0 * VAR }\n",
        "`appear`, `disappear`: `alpha`, `zoom`, `offset`, `translate`, `rotate`/zoom": "items 1\ndisappear { zoom 1 + 0 * VAR }\n",
        "`appear`, `disappear`: `alpha`, `zoom`, `offset`, `translate`, `rotate`/offset": "items 1\nappear { offset 0 x 0 * VAR }\n",
        "zoom": "items 1\nzoom 1 + 0 * VAR\n",
        "translate": "items 1\ntranslate 0 x 0 * VAR\n",
        "rotate": "items 1\nrotate 0 * VAR\n",
        "`appear`, `disappear`: `alpha`, `zoom`, `offset`, `translate`, `rotate`/translate": "items 1\nappear { translate 0 x 0 * VAR }\n",
        "`appear`, `disappear`: `alpha`, `zoom`, `offset`, `translate`, `rotate`/rotate": "items 1\ndisappear { rotate 0 * VAR }\n",
        "shelf: `alpha`, `zoom`, `zIndex`, `translate`, `rotate`/alpha": "style shelf\nitems 1\nalpha 0 * VAR\n",
        "shelf: `alpha`, `zoom`, `zIndex`, `translate`, `rotate`/zoom": "style shelf\nitems 1\nzoom 1 + 0 * VAR\n",
        "shelf: `alpha`, `zoom`, `zIndex`, `translate`, `rotate`/zIndex": "style shelf\nitems 1\nzIndex 0 * VAR\n",
        "shelf: `alpha`, `zoom`, `zIndex`, `translate`, `rotate`/translate": "style shelf\nitems 1\ntranslate 0 x 0 * VAR\n",
        "shelf: `alpha`, `zoom`, `zIndex`, `translate`, `rotate`/rotate": "style shelf\nitems 1\nrotate 0 * VAR\n",
        "zIndex": "items 1\nzIndex 0 * VAR\n",
        "columns": "columns 1 + 0 * VAR\nitems 1\n",
        "rows": "direction horizontal\nrows 1 + 0 * VAR\nitems 1\n",
        "rowSpacing": "rowSpacing 0 * VAR\nitems 1\n",
        "columnSpacing": "columnSpacing 0 * VAR\nitems 1\n",
        "spacing": "spacing 0 * VAR\nitems 1\n",
        "header": "header 0 * VAR\nitems 1\n",
        "footer": "footer 0 * VAR\nitems 1\n",
        "pinHeaders": "pinHeaders 0 * VAR == 0\nitems 1\n",
        "pinFooters": "pinFooters 0 * VAR == 0\nitems 1\n",
        "items": "items 1 + 0 * VAR\n",
        "scale": "scale 0 * VAR\nitems 1\n",
        "span": "items 1\nspan 1 + 0 * VAR\n",
        "vertical waterfall: `height`, `size`, `estimate`/height": "items 1\nheight 10 + 0 * VAR\n",
        "vertical waterfall: `height`, `size`, `estimate`/size": "items 1\nsize 10 x 10 + 0 * VAR\n",
        "vertical waterfall: `height`, `size`, `estimate`/estimate": "items 1\nheight 10\nestimate 10 + 0 * VAR\n",
        "horizontal waterfall: `width`, `size`, `estimate`/width": "direction horizontal\nrows 2\nitems 1\nwidth 10 + 0 * VAR\n",
        "horizontal waterfall: `width`, `size`, `estimate`/size": "direction horizontal\nrows 2\nitems 1\nsize 10 + 0 * VAR x 10\n",
        "horizontal waterfall: `width`, `size`, `estimate`/estimate": "direction horizontal\nrows 2\nitems 1\nwidth 10\nestimate 10 + 0 * VAR\n",
        "flow and shelf: `size`, `estimate`/size": "style flow\nitems 1\nsize 10 + 0 * VAR x 10\n",
        "flow and shelf: `size`, `estimate`/estimate": "style flow\nitems 1\nsize 10 x 10\nestimate 10 + 0 * VAR x 10\n",
        "tile": "style grid\nitems 1\ntile 1 + 0 * VAR x 1\n",
        "rowHeight": "style grid\nitems 1\nrowHeight 10 + 0 * VAR\n",
        "columnWidth": "direction horizontal\nstyle grid\nrows 2\nitems 1\ncolumnWidth 10 + 0 * VAR\n",
        "`expect`/": "items 1\nexpect VAR == VAR\n",
        "`scroll` block: `expect`/": "items 1\nscroll {\n  expect VAR == VAR\n}\n",
        "`scroll` block: `to`/": "items 1\nscroll {\n  to 0 * VAR, 0\n}\n",
        "safeArea": "safeArea 0 * VAR\nitems 1\n",
        "layoutMargins": "layoutMargins 0 * VAR\nitems 1\n",
        "readableWidth": "readableWidth 1 + 0 * VAR\nitems 1\n",
        "`update`: `insert`, `delete`/": "items 2\nupdate { delete 0 * VAR }\n",
        "groupSpacing": "style groups\ngroupSpacing 0 * VAR\nitems 1\ngroup horizontal gw x 10 { item 1 x 1 }\n",
        "`group`, `item`: sizes, `count`/": "style groups\nitems 1\ngroup horizontal gw x 10 count 1 + 0 * VAR { item 1 + 0 * VAR x 1 }\n",
        "custom `group`: `frame`/frame": "style groups\nitems 1\ngroup custom gw x 10 count 1 { frame 0 0 1 + 0 * VAR 1 }\n",
        "`group`, `item`: `itemSpacing`, `insets`/itemSpacing": "style groups\nitems 1\ngroup horizontal gw x 10 { itemSpacing 0 * VAR\n item 1 x 1 }\n",
        "`group`, `item`: `itemSpacing`, `insets`/insets": "style groups\nitems 1\ngroup horizontal gw x 10 { item 5 x 5 { insets 0 * VAR } }\n",
    ]

    /// Each place has a value for exactly the variables its row lists: every variable is tried
    /// in every setting of every place, and the evaluator's "has no value" decides.
    func testPlacesAreWhereTheEvaluatorGivesValues() throws {
        for p in Builtins.places {
            for setting in p.settings.isEmpty ? [""] : p.settings {
                let key = Self.placeTemplates["\(p.place)/\(setting)"] ?? Self.placeTemplates[setting]
                let template = try XCTUnwrap(key, "no test file for '\(setting)' in \(p.place)")
                var valued: [String] = []
                // `sx` outside a shelf has its own code (E0430).
                let none: Set<DiagnosticCode> = [.noValueHere, .sxOutsideShelf]
                let runs = Concurrent.map(Builtins.variables) { v in
                    let text = template.replacingOccurrences(of: "VAR", with: v)
                    let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
                    return (v, text, c.diagnostics + Pipeline.checkExpectations(c).compactMap(\.diagnostic))
                }
                for (v, text, ds) in runs {
                    let others = ds.filter { !none.contains($0.code) && $0.severity == .error }
                    XCTAssertEqual(others.map(\.message), [], "\(text)")
                    if !ds.contains(where: { none.contains($0.code) }) { valued.append(v) }
                }
                XCTAssertEqual(Set(valued), Set(p.variables), "variables with a value in '\(setting)' of \(p.place)")
            }
        }
    }

    /// The help of "has no value" names every place of the table where the variable has one
    /// (it once left out `alpha`, `zoom` and `zIndex` for `i`, `n` and `s`), and no other place.
    func testWhereUsableSaysThePlacesOfTheTable() {
        for v in EngineVar.allCases {
            let text = v.whereUsable
            for p in Builtins.places {
                let said = text.contains(LanguageReference.plain(p.what)) && (p.scope.isEmpty || text.contains(LanguageReference.plain(p.scope) + ":"))
                if p.variables.contains(v.name) { XCTAssertTrue(said, "\(v.name): \(p.place) missing from \(text)") }
            }
            let without = Builtins.places.filter { !$0.variables.contains(v.name) && !$0.scope.isEmpty }.map(\.scope)
            for scope in Set(without) where !Builtins.places.contains(where: { $0.scope == scope && $0.variables.contains(v.name) }) {
                XCTAssertFalse(text.contains(LanguageReference.plain(scope) + ":"), "\(v.name): \(scope) named in \(text)")
            }
        }
        let c = Pipeline.run(SourceFile(name: "t.wfl", text: "items 1\nheader i\n"))
        let help = c.diagnostics.first { $0.code == .noValueHere }?.help.map(\.description).joined() ?? ""
        for word in ["'alpha'", "'zoom'", "'zIndex'", "'span'"] { XCTAssertTrue(help.contains(word), help) }
    }

    /// The table of block words is the language's: each block holds exactly the settings of its
    /// row, its statement words stand in it, and the words no stage reads yet are plain names.
    func testBlockWordsAreTheLanguages() {
        // A group block: each kind holds its own settings (a custom group needs 'frame').
        for (open, own) in [("style groups\ngroup horizontal gw x 100 {\n  item 1 x 1", ["itemSpacing", "insets"]),
                            ("style groups\ngroup custom gw x 100 count 1 {\n  frame 0 0 1 1", ["insets", "frame"])] {
            XCTAssertEqual(Set(BlockWord.group.info.settings).intersection(own), Set(own))
            for s in SettingTable.all {
                let text = "items 1\n\(open)\n  \(s.example)\n}\n"
                XCTAssertEqual(Pipeline.run(SourceFile(name: "t.wfl", text: text)).diagnostics.hasErrors, !own.contains(s.name), text)
            }
        }
        for line in ["group vertical gw x gh { item 1 x 1 }", "item 1 x 1"] {
            let c = Pipeline.run(SourceFile(name: "t.wfl", text: "items 2\nstyle groups\ngroup horizontal gw x 10 {\n  \(line)\n}\n"))
            XCTAssertFalse(c.diagnostics.hasErrors, "\(line) in group")
        }
        for b in BlockTable.read where b.within == nil && b.word != .group {
            let open = b.word == .attach ? "attach v {" : "\(b.word.word) {"
            for s in SettingTable.all {
                let text = "items 1\n\(open)\n  \(s.example)\n}\n"
                let c = Pipeline.run(SourceFile(name: "t.wfl", text: text))
                XCTAssertEqual(c.diagnostics.hasErrors, !b.settings.contains(s.name), text)
            }
            for word in b.statements {
                let line = word == "let" ? "let k = 1" : word == "expect" ? "expect cw > 0" : word == "to" ? "to 0, 0" : "\(word) 0"
                let c = Pipeline.run(SourceFile(name: "t.wfl", text: "items 2\n\(open)\n  \(line)\n}\n"))
                XCTAssertFalse(c.diagnostics.hasErrors, "\(line) in \(b.word)")
            }
        }
        for b in BlockTable.read where b.within != nil {
            let c = Pipeline.run(SourceFile(name: "t.wfl", text: "items 2\n\(b.word.word) 0\n"))
            XCTAssertTrue(c.diagnostics.hasErrors, "\(b.word) outside \(b.within!)")
            XCTAssertTrue(b.within!.info.statements.contains(b.word.word), "\(b.word) in the statements of \(b.within!)")
        }
        for b in BlockTable.all where !b.isRead {
            XCTAssertNil(BlockTable.info(b.word.word))
            let c = Pipeline.run(SourceFile(name: "t.wfl", text: "let \(b.word.word) = 2\nitems \(b.word.word)\n"))
            XCTAssertFalse(c.diagnostics.hasErrors, "\(b.word) is a name")
        }
        XCTAssertEqual(BlockTable.all.map(\.word), BlockWord.allCases)
        // The level of the settings that belong to blocks is said from the table.
        XCTAssertEqual(LanguageReference.levelMeaning(.attached), "only inside an `attach` block (`offset` also inside `appear` and `disappear`)")
    }

    /// The engines of each setting are those that accept it: written in a layout of an engine
    /// it lacks, in either direction, it is the error "not used here"; in one of its engines, it
    /// is fine in some direction.
    func testEnginesAreThoseThatUseTheSetting() {
        let settings = SettingTable.all.filter { $0.name != "style" && $0.name != "direction" }
        let cases = settings.flatMap { s in EngineSet.all.styles.map { (s, $0) } }
        // Each setting in each engine, both directions, evaluated on every core.
        let acceptedBy = Concurrent.map(cases) { s, engine in
            ["vertical", "horizontal"].filter { direction in
                let text = "style \(engine.rawValue)\ndirection \(direction)\n\(s.example)\nitems 1\n"
                return !Pipeline.run(SourceFile(name: "t.wfl", text: text)).diagnostics.contains(where: { $0.code == .unusedSetting })
            }
        }
        for ((s, engine), accepted) in zip(cases, acceptedBy) {
            let name = engine.rawValue
            if s.engines.contains(engine) {
                XCTAssertFalse(accepted.isEmpty, "\(s.name) is listed for \(name), which refuses it")
            } else {
                XCTAssertEqual(accepted, [], "\(s.name) is not listed for \(name), which uses it")
            }
        }
        XCTAssertEqual(SettingTable.info("style")?.engines, .all)
        XCTAssertEqual(SettingTable.info("direction")?.engines, .all)
    }

    /// The level is the parser's: a layout-level setting in a section is refused.
    func testLevelsAreTheParsers() {
        for s in SettingTable.all {
            let r = Parser.parse(SourceFile(name: "t.wfl", text: "section {\n  \(s.example)\n}\n"))
            let refused = r.diagnostics.contains { $0.code == .layoutOnlySetting }
            XCTAssertEqual(refused, s.level == .layout, s.name)
        }
        // A setting evaluated for each item has the item's index wherever it is read, and only those.
        for s in SettingTable.all where !LanguageReference.places(of: s.name).isEmpty {
            let perItem = LanguageReference.places(of: s.name).allSatisfy { $0.variables.contains("i") }
            XCTAssertEqual(perItem, s.level == .item || s.level == .attached, s.name)
        }
    }
}
