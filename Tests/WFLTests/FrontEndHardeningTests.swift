import XCTest
@testable import WFL

/// Issue 17's front-end findings: one error per bad byte, and tokens of any length a file can hold.
final class FrontEndHardeningTests: XCTestCase {
    /// Bad bytes in each place a file can hold them: each program gives exactly one error, the
    /// invalid UTF-8 one, at the bad bytes.
    func testAnInvalidByteGivesOneErrorWherever() {
        let bads: [[UInt8]] = [[0x80], [0xFF], [0xE6, 0x97], [0xC3], [0xF0, 0x9F, 0x98], [0xC0, 0x80]]
        // `@` marks where the bad bytes go.
        let programs = [
            "layout a { items 1; columns f@oo }",      // inside a name
            "layout a { ite@ms 1 }",                    // inside a setting's name
            "layout a@b { items 1 }",                   // inside a layout's name
            "layout a { items 1; columns foo@ }",       // at a name's end
            "layout a { items 1; columns @foo }",       // at a name's start
            "layout a { items @1 }",                    // before a number
            "let f@oo = 1\nlayout a { items 1 }",       // a name being defined
            "layout a { items 1 @ }",                   // between tokens
            "layout \"x@y\" { items 1 }",               // in a string
            "layout a { items 1 } // x@y",              // in a line comment
            "layout a { items 1 } /* x@y */",           // in a block comment
        ]
        for bad in bads {
            for program in programs {
                let parts = program.split(separator: "@", omittingEmptySubsequences: false)
                let at = parts[0].utf8.count
                let bytes = Array(parts[0].utf8) + bad + Array(parts[1].utf8) + [0x0A]
                let ds = Parser.parse(SourceFile(name: "t.wfl", bytes: bytes)).diagnostics
                let shown = ds.map { "\($0.code.rawValue) \($0.message)" }
                XCTAssertEqual(ds.count, 1, "\(program) with \(bad): \(shown)")
                XCTAssertEqual(ds.first?.code, .invalidUTF8, "\(program) with \(bad): \(shown)")
                XCTAssertEqual(ds.first?.span.start, at, "\(program) with \(bad)")
            }
        }
    }

    func testAWordWithABadByteIsOneErrorToken() {
        let source = SourceFile(name: "t", bytes: Array("a f".utf8) + [0x80] + Array("oo".utf8) + [0xFF] + Array("1 b".utf8))
        let out = Lexer.tokenize(source)
        XCTAssertEqual(out.tokens.map(\.kind), [.identifier, .error, .identifier, .eof])
        XCTAssertEqual(out.tokens[1].span, Span(2, 8))
        XCTAssertEqual(out.errors[1]?.span, Span(3, 4), "the error marks the first bad byte")
        XCTAssertEqual(out.errors[1]?.message, "invalid UTF-8: byte 0x80")
    }

    func testASymbolOutsideASCIIAfterANameIsOneError() {
        let ds = Parser.parse(SourceFile(name: "t.wfl", text: "layout a { items 1; columns abc→ }\n")).diagnostics
        XCTAssertEqual(ds.map(\.message), ["unexpected character '→'"])
        XCTAssertEqual(ds.first?.help.map(\.description), [], "one scalar, not '3 of them in a row'")
    }
}

/// Tokens as long as a file can hold: a token used to keep 25 bits of its length, so a 40 MB
/// comment lost 8 MB in `wfl fmt -w`, a longer string stopped `fmt`, and a long name was cut.
final class LongTokenTests: XCTestCase {
    func testATokenKeepsAnyLengthAFileCanHold() {
        for (start, length) in [(0, 0), (5, 1), (7, (1 << 25) - 1), (7, 1 << 25), (3, 40_000_000), (0, 64 << 20),
                                ((64 << 20) - 1, 1), ((1 << 28) - 1, (1 << 29) - 1), (12_345_678, 50_000_001)] {
            for kind in [TokenKind.comment, .string, .identifier, .error, .eof] {
                for space in [false, true] {
                    let t = Token(kind, start, start + length, spaceBefore: space)
                    XCTAssertEqual(t.start, start)
                    XCTAssertEqual(t.end, start + length)
                    XCTAssertEqual(t.kind, kind)
                    XCTAssertEqual(t.spaceBefore, space)
                }
            }
        }
    }

    func testTokensLongerThan32MiBKeepTheirEnd() throws {
        try Stress.only()
        let long = 40_000_000
        let comment = "items 1\n/*" + String(repeating: "c", count: long) + "*/\n"
        var tokens = Lexer.tokenize(SourceFile(name: "c.wfl", text: comment), keepComments: true).tokens
        XCTAssertEqual(tokens.first { $0.kind == .comment }?.span, Span(8, 8 + long + 4))
        tokens = Lexer.tokenize(SourceFile(name: "n.wfl", text: "let " + String(repeating: "n", count: long) + " = 1\n")).tokens
        XCTAssertEqual(tokens[1].span, Span(4, 4 + long))
        XCTAssertEqual(tokens[2].kind, .assign)
    }

    func testFmtKeepsA40MBCommentWhole() throws {
        try Stress.only()
        let text = "items 1\n// " + String(repeating: "c", count: 40_000_000) + "\n"
        guard case .success(let out) = Formatter.format(SourceFile(name: "c.wfl", text: text)) else {
            return XCTFail("fmt failed")
        }
        XCTAssertEqual(out.utf8.count, text.utf8.count)
        XCTAssertTrue(out == text)
    }

    func testAStringLongerThan32MiBIsWholeInFmtAndInALayoutName() throws {
        try Stress.only()
        let name = String(repeating: "s", count: 34_000_000)
        let text = "layout \"" + name + "\" {\n  items 1\n}\n"
        let source = SourceFile(name: "s.wfl", text: text)
        guard case .success(let out) = Formatter.format(source) else { return XCTFail("fmt failed") }
        XCTAssertTrue(out == text)
        let run = Pipeline.run(source)
        XCTAssertEqual(run.diagnostics.map(\.message), [])
        XCTAssertEqual(run.tables.first?.name.utf8.count, name.utf8.count)
    }
}
