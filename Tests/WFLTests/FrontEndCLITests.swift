import Foundation
import XCTest

/// `wfl tokens`, `wfl ast`, help, version and the exit codes of docs/usage.md.
final class FrontEndCLITests: XCTestCase {
    let samples = Golden.root.appendingPathComponent("samples")

    func testTokensAndASTOfASample() throws {
        let tokens = try WFLCommand.run(["tokens", "feed.wfl"], directory: samples)
        XCTAssertEqual(tokens.status, 0)
        XCTAssertTrue(tokens.stdout.contains("3:1-3:10      identifier  container\n"), tokens.stdout)
        XCTAssertEqual(tokens.stderr, "")
        let ast = try WFLCommand.run(["ast", "feed.wfl"], directory: samples)
        XCTAssertEqual(ast.status, 0)
        XCTAssertTrue(ast.stdout.hasPrefix("file [1:1-20:1]\n  setting container [3:1-3:20]\n    size [3:11-3:20]\n"), ast.stdout)
    }

    func testStandardInput() throws {
        let r = try WFLCommand.run(["ast", "-"], input: Data("colums 3\n".utf8))
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderr, """
            <stdin>:1:1: error: unknown setting 'colums'
              1 | colums 3
                | ^~~~~~
              = help: did you mean 'columns'?

            """)
    }

    func testErrorsExitWith65AndWarningsDoNot() throws {
        let bad = try WFLCommand.run(["tokens", "-"], input: Data("items 1.2.3\n".utf8))
        XCTAssertEqual(bad.status, 65)
        XCTAssertTrue(bad.stderr.hasPrefix("<stdin>:1:7: error: invalid number '1.2.3'\n"), bad.stderr)
        let warned = try WFLCommand.run(["ast", "-"], input: Data("columns 2\ncolumns 3\n".utf8))
        XCTAssertEqual(warned.status, 0)
        XCTAssertTrue(warned.stderr.contains("warning: 'columns' is set twice in this block"), warned.stderr)
    }

    func testUnreadableFilesExitWith74() throws {
        let missing = try WFLCommand.run(["ast", "no-such-file.wfl"], directory: samples)
        XCTAssertEqual(missing.status, 74)
        XCTAssertEqual(missing.stderr, "wfl: cannot read 'no-such-file.wfl': no such file or directory\n")
        let directory = try WFLCommand.run(["tokens", "."], directory: samples)
        XCTAssertEqual(directory.status, 74)
        XCTAssertEqual(directory.stderr, "wfl: cannot read '.': it is a directory\n")
    }

    func testUsageMistakesExitWith64() throws {
        let unknown = try WFLCommand.run(["tokns", "feed.wfl"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stderr, "wfl: unknown command 'tokns'; did you mean 'tokens'?\nusage: wfl COMMAND ... (see 'wfl --help')\n")
        let noFile = try WFLCommand.run(["ast"])
        XCTAssertEqual(noFile.status, 64)
        XCTAssertEqual(noFile.stderr, "wfl: 'ast' needs a FILE\nusage: wfl ast FILE\n")
        let option = try WFLCommand.run(["tokens", "--fast", "a.wfl"])
        XCTAssertEqual(option.status, 64)
        XCTAssertTrue(option.stderr.hasPrefix("wfl: unknown option '--fast' for 'tokens'\n"))
        XCTAssertEqual(try WFLCommand.run([]).status, 64)
    }

    /// A mistyped option gets the nearest one of its command, as a mistyped command does; one
    /// of `run`'s options before the file works as `wfl FILE` does with it after.
    func testAnUnknownOptionSuggestsTheNearestOne() throws {
        let file = Golden.root.appendingPathComponent("samples/feed.wfl").path
        let cases: [([String], String)] = [
            (["run", file, "--formt", "json"], "wfl: unknown option '--formt' for 'run'; did you mean '--format'?\n"),
            ([file, "--formt=json"], "wfl: unknown option '--formt=json' for 'run'; did you mean '--format'?\n"),
            (["--formt", "json", file], "wfl: unknown option '--formt'; did you mean '--format'?\n"),
            (["--verison"], "wfl: unknown option '--verison'; did you mean '--version'?\n"),
            (["diff", "a.json", "b.json", "--tolerence", "1"], "wfl: unknown option '--tolerence' for 'diff'; did you mean '--tolerance'?\n"),
            (["fmt", "--wirte", file], "wfl: unknown option '--wirte' for 'fmt'; did you mean '--write'?\n"),
            (["preview", "--prot", "0", file], "wfl: unknown option '--prot' for 'preview'; did you mean '--port'?\n"),
            (["run", file, "--zzz"], "wfl: unknown option '--zzz' for 'run'\n"),
        ]
        for (arguments, firstLine) in cases {
            let r = try WFLCommand.run(arguments)
            XCTAssertEqual(r.status, 64, "\(arguments)")
            XCTAssertEqual(r.stdout, "", "\(arguments)")
            XCTAssertTrue(r.stderr.hasPrefix(firstLine), "\(arguments): \(r.stderr)")
        }
        let before = try WFLCommand.run(["--format", "json", file])
        XCTAssertEqual(before.status, 0, before.stderr)
        XCTAssertEqual(before.stdout, try WFLCommand.run([file, "--format", "json"]).stdout)
    }

    func testHelpAndVersion() throws {
        let help = try WFLCommand.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("wfl tokens FILE"))
        XCTAssertTrue(help.stdout.contains("wfl ast FILE"))
        let one = try WFLCommand.run(["help", "tokens"])
        XCTAssertEqual(one.status, 0)
        XCTAssertTrue(one.stdout.hasPrefix("usage: wfl tokens FILE\n"))
        let version = try WFLCommand.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("wfl "))
    }

    /// Colour needs a terminal; through a pipe there are no escape codes, with or without NO_COLOR.
    func testNoColourThroughAPipe() throws {
        let r = try WFLCommand.run(["ast", "-"], input: Data("colums 3\n".utf8), environment: ["TERM": "xterm-256color"])
        XCTAssertFalse(r.stderr.contains("\u{1B}["))
    }
}
