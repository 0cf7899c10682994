import XCTest
@testable import WFL

/// The balance of braces that tells the parser whether a block is closed later.
final class BraceBalanceTests: XCTestCase {
    /// `closes(after:)` against the scan it replaces (braces counted from `p` until the balance
    /// falls below zero), at every position of random brace strings.
    func testClosesAgreesWithAScanFromEveryPosition() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = String((0..<Int.random(in: 0...40, using: &rng)).map { _ in "{}x\n".randomElement(using: &rng)! })
            let tokens = Lexer.tokenize(SourceFile(name: "t", text: text)).tokens
            let balance = BraceBalance(tokens)
            for p in 0..<tokens.count {
                var depth = 0, closes = false
                for t in tokens[p...] {
                    if t.kind == .lBrace { depth += 1 } else if t.kind == .rBrace { depth -= 1 }
                    if depth < 0 { closes = true; break }
                }
                XCTAssertEqual(balance.closes(after: p), closes, "\(text.debugDescription) from token \(p)")
            }
        }
    }
}
