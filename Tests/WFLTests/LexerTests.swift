import XCTest
@testable import WFL

final class LexerTests: XCTestCase {
    /// `kind text` for each token but the final end of input.
    func lex(_ text: String) -> [String] {
        let source = SourceFile(name: "t.wfl", text: text)
        let out = Lexer.tokenize(source)
        XCTAssertEqual(out.tokens.last?.kind, .eof)
        return out.tokens.dropLast().map { t in
            t.kind == .error ? "error \(out.errors[out.tokens.firstIndex(of: t)!]!.message)" : "\(t.kind.name) \(source.text(t.span))"
        }
    }

    func testSizesSplitAtX() {
        XCTAssertEqual(lex("375x812"), ["number 375", "identifier x", "number 812"])
        XCTAssertEqual(lex("0x10"), ["number 0", "identifier x", "number 10"])
        XCTAssertEqual(lex("1.5x2e1"), ["number 1.5", "identifier x", "number 2e1"])
        XCTAssertEqual(lex("w x h"), ["identifier w", "identifier x", "identifier h"])
        XCTAssertEqual(lex("10xy"), ["error invalid number '10xy'"])
    }

    func testNumbers() {
        XCTAssertEqual(lex("1_000 2.5 1e3 1E-2 3.25e+1"),
                       ["number 1_000", "number 2.5", "number 1e3", "number 1E-2", "number 3.25e+1"])
        XCTAssertEqual(lex(".5"), ["error invalid number '.5'"])
        XCTAssertEqual(lex("5."), ["error invalid number '5.'"])
        XCTAssertEqual(lex("1__0"), ["error invalid number '1__0'"])
        XCTAssertEqual(lex("1_"), ["error invalid number '1_'"])
        XCTAssertEqual(lex("1.2.3"), ["error invalid number '1.2.3'"])
        XCTAssertEqual(lex("1e"), ["error invalid number '1e'"])
        XCTAssertEqual(lex("10px"), ["error invalid number '10px'"])
    }

    func testNumberValues() {
        let source = SourceFile(name: "t", text: "1_000_000 0.1 1e21 123456789012345678")
        let p = Parser(source: source)
        let values = p.tokens.filter { $0.kind == .number }.map { p.numberValue($0) }
        XCTAssertEqual(values, [1_000_000, 0.1, 1e21, 123456789012345678])
    }

    /// `numberValue` (a fast path for short decimals, a general one past it) against Swift's own
    /// reading of the same text, over generated numbers on both sides of the fast path's limits.
    func testNumberValuesAgreeWithDoubleParsing() {
        var rng = SeededRandom.forTest("LexerTests.testNumberValuesAgreeWithDoubleParsing")
        var texts: [String] = []
        // 20,000 numbers under WFL_STRESS=1, 5,000 in the plain run.
        for _ in 0..<(Stress.enabled ? 20_000 : 5_000) {
            let digits = Int.random(in: 1...22, using: &rng)
            var t = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
            if Bool.random(using: &rng) {
                t += "." + String((0..<Int.random(in: 1...20, using: &rng)).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
            }
            if Int.random(in: 0..<3, using: &rng) == 0 {
                t += ["e", "E"].randomElement(using: &rng)! + ["", "+", "-"].randomElement(using: &rng)! + String(Int.random(in: 0...330, using: &rng))
            }
            texts.append(t)
        }
        let source = SourceFile(name: "t", text: texts.joined(separator: " "))
        let p = Parser(source: source)
        let values = p.tokens.filter { $0.kind == .number }.map { p.numberValue($0) }
        XCTAssertEqual(values.count, texts.count)
        for (t, v) in zip(texts, values) {
            let expected = Double(t)!
            XCTAssertEqual(v.bitPattern, expected.bitPattern, "\(t): \(v) against \(expected)")
        }
    }

    func testOperatorsAndKeywords() {
        XCTAssertEqual(lex("a<=b!=c&&!d||e==f>=g"),
                       ["identifier a", "'<=' <=", "identifier b", "'!=' !=", "identifier c", "'&&' &&", "'!' !",
                        "identifier d", "'||' ||", "identifier e", "'==' ==", "identifier f", "'>=' >=", "identifier g"])
        XCTAssertEqual(lex("let letter layout_ expect true false section"),
                       ["'let' let", "identifier letter", "identifier layout_", "'expect' expect", "'true' true",
                        "'false' false", "'section' section"])
        XCTAssertEqual(lex("a & b"), ["identifier a", "error unexpected character '&'", "identifier b"])
    }

    func testStringsAndEscapes() {
        XCTAssertEqual(lex(#""a\"b\\c\n\t\u{1F600}""#), [#"string "a\"b\\c\n\t\u{1F600}""#])
        XCTAssertEqual(lex(#""x\q""#), [#"error unknown escape '\q' in a string"#])
        XCTAssertEqual(lex(#""\u{D800}""#), [#"error '\u{D800}' is not a Unicode scalar value"#])
        XCTAssertEqual(lex("\"open\nitems 2"), ["error unterminated string", "newline \n", "identifier items", "number 2"])
        let source = SourceFile(name: "t", text: #""a\"b\u{1F600}\n""#)
        let p = Parser(source: source)
        XCTAssertEqual(p.stringValue(p.tokens[0]), "a\"b\u{1F600}\n")
    }

    func testComments() {
        XCTAssertEqual(lex("a // note\nb"), ["identifier a", "newline \n", "identifier b"])
        XCTAssertEqual(lex("a /* x /* nested */ still */ b"), ["identifier a", "identifier b"])
        // A block comment that holds a line break counts as one.
        XCTAssertEqual(lex("a /* one\ntwo */ b"), ["identifier a", "newline ", "identifier b"])
        XCTAssertEqual(lex("a /* /* */ b"), ["identifier a", "error unterminated comment"])
        let kept = Lexer.tokenize(SourceFile(name: "t", text: "a // c\n"), keepComments: true)
        XCTAssertEqual(kept.tokens.map(\.kind), [.identifier, .comment, .newline, .eof])
        let block = Lexer.tokenize(SourceFile(name: "t", text: "a /* x\n */b"))
        XCTAssertEqual(block.tokens.map(\.span), [Span(0, 1), Span(10, 10), Span(10, 11), Span(11, 11)])
    }

    func testSpansAreByteOffsets() {
        let source = SourceFile(name: "t", text: "é = \"ü\" x")
        let out = Lexer.tokenize(source)
        XCTAssertEqual(out.tokens.map(\.span), [Span(0, 2), Span(3, 4), Span(5, 9), Span(10, 11), Span(11, 11)])
        XCTAssertEqual(out.errors[0]?.message, "unexpected character 'é'")
        XCTAssertEqual(source.position(of: 10), Position(line: 1, column: 9), "columns count scalars")
    }

    func testInvalidUTF8BecomesOneErrorPerRun() {
        let source = SourceFile(name: "t", bytes: Array("a ".utf8) + [0xFF, 0xC0, 0x80] + Array(" b // \u{FF}".utf8) + [0xFE])
        let out = Lexer.tokenize(source)
        XCTAssertEqual(out.tokens.map(\.kind), [.identifier, .error, .identifier, .error, .eof])
        XCTAssertEqual(out.errors[1]?.message, "invalid UTF-8: bytes 0xFF 0xC0 0x80")
        XCTAssertEqual(out.errors[1]?.span, Span(2, 5))
        XCTAssertEqual(out.errors[3]?.message, "invalid UTF-8: byte 0xFE")
    }

    func testBOMAndCRLF() {
        let source = SourceFile(name: "t", bytes: [0xEF, 0xBB, 0xBF] + Array("a\r\nb".utf8))
        let out = Lexer.tokenize(source)
        XCTAssertEqual(out.tokens.map(\.kind), [.identifier, .newline, .identifier, .eof])
        XCTAssertEqual(source.position(of: out.tokens[2].start), Position(line: 2, column: 1))
        XCTAssertEqual(String(decoding: source.lineBytes(0), as: UTF8.self), "a", "the BOM is not part of line 1")
        XCTAssertEqual(source.position(of: 3), Position(line: 1, column: 1))
    }

    func testSpaceBeforeFlag() {
        let out = Lexer.tokenize(SourceFile(name: "t", text: "f(a) g (b)"))
        XCTAssertEqual(out.tokens.map(\.spaceBefore), [true, false, false, false, true, true, false, false, false])
    }

    /// A token a byte fills the first guess of room (half a token a byte) in the middle of the
    /// common tokens' loop: the lexer lexes again with room for all, and every token is there once.
    func testATokenEveryByteOutgrowsTheFirstGuess() {
        let text = String(repeating: "(", count: 3000) + String(repeating: "a)", count: 1500) + String(repeating: ")", count: 1500) + "\n1"
        let out = Lexer.tokenize(SourceFile(name: "t", text: text))
        XCTAssertEqual(out.tokens.count, text.utf8.count + 1)
        XCTAssertEqual(out.tokens.map(\.length), Array(repeating: 1, count: text.utf8.count) + [0])
        XCTAssertEqual(out.tokens[3000].kind, .identifier)
        XCTAssertEqual(out.tokens[3001].kind, .rParen)
        XCTAssertEqual(out.tokens[text.utf8.count - 2].kind, .newline)
        XCTAssertEqual(out.tokens[text.utf8.count - 1].kind, .number)
        XCTAssertTrue(out.tokens[text.utf8.count - 1].spaceBefore, "a line break counts as space before the next token")
        XCTAssertFalse(out.tokens[1].spaceBefore)
    }

    /// Names and numbers that the common tokens' loop hands to the full rules (a letter outside
    /// ASCII after a name, a point or a letter after digits, a tab, a carriage return) read as
    /// they do alone, and the loop goes on after them.
    func testTheLongWayAndBackAgain() {
        XCTAssertEqual(lex("ab\tcd 12.5 3e2 7x8 n\u{E9}e 4_0\r\nz"), [
            "identifier ab", "identifier cd", "number 12.5", "number 3e2", "number 7", "identifier x", "number 8",
            "error invalid character 'é' in the name 'née'", "number 4_0", "newline \n", "identifier z",
        ])
    }
}
