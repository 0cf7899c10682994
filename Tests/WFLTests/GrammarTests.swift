import Foundation
import XCTest

/// `grammar/wfl.ebnf` and the rule comments of the parser and lexer must say the same thing.
final class GrammarTests: XCTestCase {
    typealias Rules = [String: String]

    static func normalise(_ s: Substring) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// `name = body ;` lines, comments `(* ... *)` removed.
    static func grammarRules() throws -> Rules {
        var text = try String(contentsOf: Golden.root.appendingPathComponent("grammar/wfl.ebnf"), encoding: .utf8)
        while let open = text.range(of: "(*"), let close = text.range(of: "*)", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        var rules: Rules = [:]
        for line in text.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
            guard let eq = line.range(of: " = "), line.hasSuffix(";") else {
                XCTFail("not a rule: \(line)")
                continue
            }
            let name = normalise(line[..<eq.lowerBound])
            XCTAssertNil(rules[name], "rule '\(name)' is defined twice in wfl.ebnf")
            rules[name] = normalise(line[eq.upperBound...].dropLast())
        }
        return rules
    }

    /// Rule comments `// name = body ;` in a source file, each with the line after the comment
    /// block it stands in (several rules may stand above one function: a precedence climber
    /// carries the rules of the levels it reads).
    static func commentRules(_ path: String) throws -> [(name: String, body: String, next: String)] {
        let lines = try String(contentsOf: Golden.root.appendingPathComponent(path), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        var found: [(String, String, String)] = []
        for (k, raw) in lines.enumerated() {
            let line = raw.drop(while: { $0 == " " })
            guard line.hasPrefix("// "), line.hasSuffix(";"), let eq = line.range(of: " = ") else { continue }
            let name = normalise(line.dropFirst(3)[..<eq.lowerBound])
            guard name.allSatisfy({ $0.isLetter }) else { continue }
            var j = k + 1
            while j < lines.count, lines[j].drop(while: { $0 == " " }).hasPrefix("//") { j += 1 }
            found.append((name, normalise(line[eq.upperBound...].dropLast()), String(lines[min(j, lines.count - 1)])))
        }
        return found
    }

    func testGrammarFileAndParserCommentsAgree() throws {
        let grammar = try Self.grammarRules()
        XCTAssertGreaterThan(grammar.count, 30)
        var seen: Rules = [:]
        let syntax = Golden.root.appendingPathComponent("Sources/WFL/Syntax")
        let parserFiles = try FileManager.default.contentsOfDirectory(atPath: syntax.path)
            .filter { $0.hasPrefix("Parser") && $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(parserFiles.count, 1)
        for path in parserFiles.map({ "Sources/WFL/Syntax/" + $0 }) + ["Sources/WFL/Syntax/Lexer.swift"] {
            for rule in try Self.commentRules(path) {
                XCTAssertNil(seen[rule.name], "rule '\(rule.name)' is in two comments")
                seen[rule.name] = rule.body
                XCTAssertTrue(rule.next.contains("func "), "the comment of '\(rule.name)' in \(path) stands above no function: \(rule.next)")
                guard let written = grammar[rule.name] else {
                    XCTFail("'\(rule.name)' is read by \(path) but missing from grammar/wfl.ebnf")
                    continue
                }
                XCTAssertEqual(written, rule.body, "rule '\(rule.name)' differs between wfl.ebnf and \(path)")
            }
        }
        for name in grammar.keys where seen[name] == nil {
            XCTFail("'\(name)' is in grammar/wfl.ebnf but no parser or lexer function reads it")
        }
    }

    /// Every rule a body names is defined (a typo in the grammar would otherwise go unnoticed).
    func testEveryReferencedRuleIsDefined() throws {
        let grammar = try Self.grammarRules()
        for (name, body) in grammar {
            var words: [String] = []
            var inQuote: Character? = nil
            var current = ""
            for c in body {
                if let q = inQuote {
                    if c == q { inQuote = nil }
                    continue
                }
                if c == "\"" || c == "'" || c == "?" { inQuote = c; continue }
                if c.isLetter { current.append(c) } else {
                    if !current.isEmpty { words.append(current) }
                    current = ""
                }
            }
            if !current.isEmpty { words.append(current) }
            for w in words where w != "EOF" {
                XCTAssertNotNil(grammar[w], "rule '\(name)' names '\(w)', which is not defined")
            }
        }
    }
}
