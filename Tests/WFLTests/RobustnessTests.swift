import Foundation
import XCTest
@testable import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Robustness of the front end (docs/language.md, "Files and lines", "Diagnostics" and "Limits"):
/// thousands of generated inputs (random bytes and mutated samples) go through the lexer, the
/// parser, the renderer and the AST printer, and each must give diagnostics, never a crash or a
/// hang. The limits of the language (256 levels of nesting, chains as long as the file) are
/// checked at 100,000, each in a child process so that a stack overflow fails one test instead of
/// killing the run.
///
/// Everything is deterministic (SplitMix64 with fixed seeds). Set `WFL_FUZZ_TRACE=1` to print each
/// input's label before it runs: after a crash, the last label names the input, and
/// `RobustnessTests.input(for:)` rebuilds it.
final class RobustnessTests: XCTestCase {

    // MARK: - A deterministic PRNG

    /// Fixed seeds, so every run tests the same inputs.
    typealias SplitMix64 = SeededRandom

    // MARK: - Inputs

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bytes of every `samples/*.wfl`, by file name.
    static func samples() throws -> [(String, [UInt8])] {
        let dir = root.appendingPathComponent("samples")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".wfl") }.sorted()
        return try names.map { ($0, [UInt8](try Data(contentsOf: dir.appendingPathComponent($0)))) }
    }

    /// Pieces that random inputs are made of, besides plain random bytes: the language's tokens,
    /// the bytes that trouble lexers (NUL, CR, quotes, backslashes, comment openers), multi-byte
    /// UTF-8 and sequences that are not UTF-8.
    static let fragments: [[UInt8]] = {
        let text = [
            "let", "layout", "section", "expect", "true", "false", "x", "columns", "height", "size", "insets",
            "style", "waterfall", "top", "left", "adaptive", "min", "max", "f", "i", "w", "heights", "a_1",
            "0", "1", "375", "1_000", "1.5", "2e3", "1e", "1.", ".5", "1__0", "375x812", "0x10", "10px", "1.2.3",
            "{", "}", "(", ")", "[", "]", ",", ";", "=", "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=",
            "&&", "||", "&", "|", "!", "?", ":", "#", "'", ".", "@", "~", "`", "$", "^",
            "\"", "\"abc\"", "\"a\\\"b\"", "\"\\u{1F600}\"", "\"\\u{D800}\"", "\"\\q\"", "\"\\u{\"", "\\",
            "//", "// c\n", "/*", "*/", "/* c */", "/* a\n b */", "/* /* */",
            " ", "  ", "\t", "\n", "\r\n", "\r", "\n\n",
            "é", "名", "😀", "\u{FEFF}", "\u{2028}", "\u{00A0}", "ñame",
        ]
        var out = text.map { Array($0.utf8) }
        out += [[0x00], [0x80], [0xFF], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                [0xF0, 0x9F, 0x98], [0xC3], [0xE2, 0x82], [0xFE, 0xFF], [0x7F], [0x1B]]
        return out
    }()

    static let punctuation: [UInt8] = Array("{}()[],;=+-*/%!<>&|?:\"'.#\\@`~^$".utf8)

    /// A random input: raw bytes, bytes from a small alphabet, or a sequence of fragments.
    static func randomInput(seed: UInt64) -> [UInt8] {
        var r = SplitMix64(seed: seed)
        let length = r.pick([0, 1, 2, 3, 5, 8, 16, 40, 100, 300, 1000, 3000])
        var out: [UInt8] = []
        switch r.below(4) {
        case 0:
            for _ in 0..<length { out.append(r.byte()) }
        case 1:
            let alphabet = Array("(){}[]\"/*\\\r\n \0ax1=;".utf8) + [0xC3, 0xA9, 0xFF]
            for _ in 0..<length { out.append(r.pick(alphabet)) }
        default:
            while out.count < length {
                if r.chance(10) { out.append(r.byte()) } else { out += r.pick(fragments) }
                if r.chance(30) { out.append(UInt8(ascii: " ")) }
            }
        }
        return out
    }

    /// One mutation step of a valid file.
    static func mutate(_ input: [UInt8], _ r: inout SplitMix64) -> [UInt8] {
        var b = input
        if b.isEmpty { return r.pick(fragments) }
        let i = r.below(b.count)
        switch r.below(12) {
        case 0: // delete a byte
            b.remove(at: i)
        case 1: // delete a range
            let n = Swift.min(b.count - i, 1 + r.below(16))
            b.removeSubrange(i..<(i + n))
        case 2: // swap two neighbouring bytes
            if i + 1 < b.count { b.swapAt(i, i + 1) }
        case 3: // swap two random bytes
            b.swapAt(i, r.below(b.count))
        case 4: // duplicate a byte or a range
            let n = Swift.min(b.count - i, 1 + r.below(8))
            b.insert(contentsOf: Array(b[i..<(i + n)]), at: i)
        case 5: // insert ASCII punctuation
            b.insert(r.pick(punctuation), at: r.below(b.count + 1))
        case 6: // insert a fragment (a token, a bad byte, a comment opener...)
            b.insert(contentsOf: r.pick(fragments), at: r.below(b.count + 1))
        case 7: // replace a byte with punctuation or a random byte
            b[i] = r.chance(70) ? r.pick(punctuation) : r.byte()
        case 8, 9, 10: // duplicate, delete or swap whole lines
            var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            let k = r.below(lines.count)
            switch r.below(3) {
            case 0: lines.insert(lines[k], at: k)
            case 1: lines.remove(at: k)
            default: lines.swapAt(k, r.below(lines.count))
            }
            b = Array(lines.joined(separator: [0x0A]))
        default: // truncate
            b.removeSubrange(i...)
        }
        return b
    }

    /// The inputs the sample mutations produce, with a label that says how to rebuild each.
    static func sampleInputs(_ samples: [(String, [UInt8])], mutantsPerFile: Int, truncateEvery: Int) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for (fileIndex, (name, bytes)) in samples.enumerated() {
            out.append((name, bytes))
            for cut in stride(from: 0, to: bytes.count, by: truncateEvery) {
                out.append(("\(name) truncated at \(cut)", Array(bytes[..<cut])))
            }
            for k in 0..<mutantsPerFile {
                var r = SplitMix64(seed: UInt64(fileIndex) << 32 | UInt64(k))
                var b = bytes
                for _ in 0..<(1 + r.below(3)) { b = mutate(b, &r) }
                out.append(("\(name) mutant \(k)", b))
            }
        }
        return out
    }

    // MARK: - Invariants

    struct Violation {
        /// A stable name for the kind of failure, without offsets, so that failures group.
        var category: String
        var detail: String
    }

    static let errorPrefix = ": error: ", warningPrefix = ": warning: "

    /// The independent position of an offset: lines end at LF, columns count scalars, a leading
    /// BOM is not a column. nil when the line up to the offset is not valid UTF-8.
    static func expectedPosition(_ bytes: [UInt8], _ offset: Int) -> Position? {
        var lineStart = 0, line = 1
        for k in 0..<Swift.min(offset, bytes.count) where bytes[k] == 0x0A { lineStart = k + 1; line += 1 }
        if line == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]), offset >= 3 { lineStart = 3 }
        guard let prefix = String(validating: bytes[lineStart..<Swift.min(offset, bytes.count)], as: UTF8.self) else { return nil }
        return Position(line: line, column: prefix.unicodeScalars.count + 1)
    }

    static func isContinuation(_ bytes: [UInt8], _ i: Int) -> Bool { i < bytes.count && bytes[i] & 0xC0 == 0x80 }

    /// Checks every invariant for one input; returns what went wrong.
    static func violations(_ bytes: [UInt8], name: String = "fuzz.wfl") -> [Violation] {
        var v: [Violation] = []
        func fail(_ category: String, _ detail: String = "") { v.append(Violation(category: category, detail: detail)) }
        let source = SourceFile(name: name, bytes: bytes)
        let n = bytes.count
        let validUTF8 = String(validating: bytes, as: UTF8.self) != nil

        // The lexer.
        let lexed = Lexer.tokenize(source)
        if lexed.tokens.last?.kind != .eof { fail("the last token is not .eof") }
        if let last = lexed.tokens.last, last.kind == .eof, last.span != Span(n, n) { fail("the .eof token is not at the end", "\(last.span)") }
        if lexed.tokens.dropLast().contains(where: { $0.kind == .eof }) { fail(".eof before the last token") }
        var previousEnd = 0
        for (k, t) in lexed.tokens.enumerated() {
            if !(0 <= t.start && t.start <= t.end && t.end <= n) { fail("token span out of bounds", "token \(k) \(t.kind) \(t.span)") }
            if t.start < previousEnd { fail("tokens overlap or go backwards", "token \(k) \(t.kind) \(t.span) after \(previousEnd)") }
            previousEnd = t.end
            if (t.kind == .error) != (lexed.errors[k] != nil) { fail("an .error token without its diagnostic, or the reverse", "token \(k)") }
        }
        let lexErrorTokens = lexed.tokens.filter { $0.kind == .error }.count

        // The parser.
        let result = Parser.parse(source)
        let errors = result.diagnostics.filter { $0.severity == .error }
        if lexErrorTokens > 0, errors.isEmpty { fail("the lexer made an .error token but the parser reported no error") }
        if errors.isEmpty, lexErrorTokens > 0 { fail("no parser error although the input does not lex cleanly") }
        if result.incomplete, errors.isEmpty { fail("incomplete without an error") }
        if result.tree.span != Span(0, n) { fail("the tree does not span the file", "\(result.tree.span)") }

        // Spans and rendering of every diagnostic.
        let renderer = DiagnosticRenderer()
        for d in result.diagnostics {
            let spans = [d.span] + d.notes.compactMap(\.span)
            for s in spans {
                if !(0 <= s.start && s.start <= s.end && s.end <= n) { fail("diagnostic span out of bounds", "\(s) for '\(d.message)'") }
                else if validUTF8, isContinuation(bytes, s.start) || isContinuation(bytes, s.end) {
                    fail("diagnostic span splits a UTF-8 sequence", "\(s) for '\(d.message)'")
                }
            }
            guard 0 <= d.span.start, d.span.start <= d.span.end, d.span.end <= n else { continue }
            let text = renderer.render(d, in: source)
            // Split on LF bytes: a CR left in a quoted line would make "\r\n" one Character.
            let lines = text.utf8.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
            let firstLine = lines.first ?? ""
            let position = source.position(of: d.span.start)
            let prefix = "\(name):\(position.line):\(position.column)" + (d.severity == .error ? errorPrefix : warningPrefix)
            if !firstLine.hasPrefix(prefix) || !text.hasSuffix("\n") { fail("a rendered diagnostic does not start with name:line:col: severity:", firstLine) }
            if let expected = expectedPosition(bytes, d.span.start), expected != position {
                fail("wrong line or column", "'\(d.message)' at \(position), expected \(expected)")
            }
            if lines.count < 3 || !lines[1].hasPrefix("  \(position.line) |") || !lines[2].contains("^") {
                fail("a rendered diagnostic has no source line and caret", text)
            }
        }

        // The tree: spans in bounds, and the printer.
        var badSpans: [String] = []
        walk(result.tree) { span, what in
            if !(0 <= span.start && span.start <= span.end && span.end <= n) { badSpans.append("\(what) \(span)") }
        }
        if !badSpans.isEmpty { fail("tree span out of bounds", badSpans.prefix(3).joined(separator: ", ")) }
        let printed = ASTPrinter.print(result.tree, source: source)
        if !printed.hasPrefix("file [1:1-") { fail("ASTPrinter output does not start with the file", String(printed.prefix(40))) }

        // Determinism.
        let again = Parser.parse(source)
        if again.tree != result.tree || again.diagnostics != result.diagnostics || again.incomplete != result.incomplete {
            fail("two parses of the same input differ")
        }
        let lexedAgain = Lexer.tokenize(source)
        if lexedAgain.tokens != lexed.tokens || lexedAgain.errors != lexed.errors { fail("two lexings of the same input differ") }
        return v
    }

    /// Calls `visit` with every span in the tree.
    static func walk(_ tree: SyntaxTree, _ visit: (Span, String) -> Void) {
        func expr(_ e: Expr) {
            visit(e.span, "expression")
            switch e {
            case .number, .boolean, .string, .name, .invalid: break
            case .list(let items, _): items.forEach(expr)
            case .unary(_, let x, _): expr(x)
            case .binary(let chain):
                let first = chain.head, rest = chain.operands
                expr(first)
                for r in rest { visit(r.opSpan, "operator"); expr(r.rhs) }
            case .conditional(let c, let a, let b, _): expr(c); expr(a); expr(b)
            case .call(let call): visit(call.callee.span, "callee"); call.arguments.forEach(expr)
            case .index(let base, let index, _): expr(base); expr(index)
            }
        }
        func statement(_ s: Statement) {
            visit(s.span, "statement")
            switch s.kind {
            case .let(let d): visit(d.name.span, "let name"); d.parameters?.forEach { visit($0.span, "parameter") }; expr(d.value)
            case .expect(let x): expr(x.condition); if let l = x.label { visit(l.span, "label") }
            case .setting(let x):
                visit(x.name.span, "setting name")
                for a in x.arguments {
                    visit(a.span, "argument")
                    switch a {
                    case .value(let e), .adaptive(let e, _), .side(_, let e): expr(e)
                    case .size(let w, let h, _): expr(w); expr(h)
                    case .word: break
                    }
                }
            case .change(let c): visit(c.word, "keyword"); c.arguments.forEach(expr)
            case .to(let stop):
                visit(stop.word, "keyword"); expr(stop.x); expr(stop.y)
                if let w = stop.byWord, let step = stop.step { visit(w, "keyword"); expr(step) }
            case .layout(let b), .section(let b), .attach(let b), .update(let b), .scroll(let b):
                visit(b.keyword, "keyword"); visit(b.openBrace, "'{'")
                if let c = b.closeBrace { visit(c, "'}'") }
                if let name = b.name { visit(name.span, "block name") }
                b.statements.forEach(statement)
            case .appear(let a):
                visit(a.block.keyword, "keyword"); visit(a.block.openBrace, "'{'")
                if let c = a.block.closeBrace { visit(c, "'}'") }
                a.block.statements.forEach(statement)
            case .group(let g):
                visit(g.block.keyword, "keyword"); visit(g.kindSpan, "group kind"); visit(g.block.openBrace, "'{'")
                if let c = g.block.closeBrace { visit(c, "'}'") }
                expr(g.width); expr(g.height)
                if let c = g.count { expr(c) }
                g.block.statements.forEach(statement)
            case .item(let item):
                visit(item.keyword, "keyword")
                expr(item.width); expr(item.height)
                if let b = item.block {
                    visit(b.openBrace, "'{'")
                    if let c = b.closeBrace { visit(c, "'}'") }
                    b.statements.forEach(statement)
                }
            }
        }
        tree.statements.forEach(statement)
    }

    /// What a file's diagnostics look like to a user: rendered, and the printed tree's positions.
    static func rendered(_ bytes: [UInt8]) -> (diagnostics: String, tree: String) {
        let source = SourceFile(name: "same.wfl", bytes: bytes)
        let r = Parser.parse(source)
        return (DiagnosticRenderer().render(r.diagnostics, in: source), ASTPrinter.print(r.tree, source: source))
    }

    static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for b in bytes { if b == 0x0A { out.append(0x0D) }; out.append(b) }
        return out
    }

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The violations of the CRLF and BOM rules: the same file with CRLF line ends, or with a
    /// leading BOM, renders the same diagnostics (positions included) and prints the same tree.
    static func lineEndViolations(_ bytes: [UInt8]) -> [Violation] {
        guard !bytes.contains(0x0D), !bytes.starts(with: bom) else { return [] }
        var v: [Violation] = []
        let plain = rendered(bytes)
        let withCRLF = rendered(crlf(bytes))
        if withCRLF.diagnostics != plain.diagnostics { v.append(Violation(category: "CRLF changes the diagnostics", detail: diff(plain.diagnostics, withCRLF.diagnostics))) }
        if withCRLF.tree != plain.tree { v.append(Violation(category: "CRLF changes the tree's positions", detail: diff(plain.tree, withCRLF.tree))) }
        let withBOM = rendered(bom + bytes)
        if withBOM.diagnostics != plain.diagnostics { v.append(Violation(category: "a leading BOM changes the diagnostics", detail: diff(plain.diagnostics, withBOM.diagnostics))) }
        if withBOM.tree != plain.tree { v.append(Violation(category: "a leading BOM changes the tree's positions", detail: diff(plain.tree, withBOM.tree))) }
        return v
    }

    static func diff(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false), y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for k in 0..<Swift.max(x.count, y.count) {
            let l = k < x.count ? String(x[k]) : "<none>", r = k < y.count ? String(y[k]) : "<none>"
            if l != r { return "line \(k + 1): \(l.debugDescription) became \(r.debugDescription)" }
        }
        return "(equal)"
    }

    // MARK: - Running many inputs

    /// Failures grouped by category, each with its smallest input, reduced further before it is
    /// reported.
    struct Findings {
        var count: [String: Int] = [:]
        var smallest: [String: (label: String, bytes: [UInt8], detail: String)] = [:]

        mutating func add(_ v: Violation, label: String, bytes: [UInt8]) {
            count[v.category, default: 0] += 1
            if let s = smallest[v.category], s.bytes.count <= bytes.count { return }
            smallest[v.category] = (label, bytes, v.detail)
        }
    }

    /// Greedy reduction: removes chunks of bytes while the input still shows the category.
    static func reduce(_ bytes: [UInt8], keeps: ([UInt8]) -> Bool) -> [UInt8] {
        var b = bytes
        var chunk = Swift.max(1, b.count / 2)
        var budget = 3000
        while chunk >= 1, budget > 0 {
            var i = 0
            var removed = false
            while i < b.count, budget > 0 {
                budget -= 1
                var candidate = b
                candidate.removeSubrange(i..<Swift.min(b.count, i + chunk))
                if keeps(candidate) { b = candidate; removed = true } else { i += chunk }
            }
            if !removed { chunk /= 2 }
        }
        return b
    }

    static func show(_ bytes: [UInt8]) -> String {
        var s = "\""
        for b in bytes {
            switch b {
            case 0x0A: s += "\\n"
            case 0x0D: s += "\\r"
            case 0x09: s += "\\t"
            case 0x22: s += "\\\""
            case 0x5C: s += "\\\\"
            case 0x20..<0x7F: s.unicodeScalars.append(Unicode.Scalar(b))
            default: s += "\\x" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return s + "\""
    }

    static let trace = ProcessInfo.processInfo.environment["WFL_FUZZ_TRACE"] == "1"

    /// Runs the invariants over the inputs and reports each category of failure once, with a
    /// reduced input.
    func check(_ inputs: [(String, [UInt8])], lineEnds: Bool, file: StaticString = #filePath, line: UInt = #line) {
        var findings = Findings()
        var slowest: (String, Double) = ("", 0)
        for (label, bytes) in inputs {
            if Self.trace { FileHandle.standardError.write(Data("fuzz: \(label)\n".utf8)) }
            let t0 = Date()
            for v in Self.violations(bytes) { findings.add(v, label: label, bytes: bytes) }
            if lineEnds, label.contains("mutant") || !label.contains(" ") { for v in Self.lineEndViolations(bytes) { findings.add(v, label: label, bytes: bytes) } }
            let dt = Date().timeIntervalSince(t0)
            if dt > slowest.1 { slowest = (label, dt) }
            if dt > 10 { findings.add(Violation(category: "an input took more than 10 s", detail: "\(dt) s"), label: label, bytes: bytes) }
        }
        for (category, n) in findings.count.sorted(by: { $0.key < $1.key }) {
            let example = findings.smallest[category]!
            let keeps: ([UInt8]) -> Bool = { b in
                (Self.violations(b) + (lineEnds ? Self.lineEndViolations(b) : [])).contains { $0.category == category }
            }
            let reduced = category.contains("took more than") ? example.bytes : Self.reduce(example.bytes, keeps: keeps)
            let detail = (Self.violations(reduced) + (lineEnds ? Self.lineEndViolations(reduced) : []))
                .first { $0.category == category }?.detail ?? example.detail
            XCTFail("""
                \(category): \(n) of \(inputs.count) inputs.
                  smallest: \(example.label) (\(example.bytes.count) bytes)
                  reduced: \(Self.show(reduced))
                  detail: \(detail)
                """, file: file, line: line)
        }
        print("RobustnessTests: \(inputs.count) inputs, slowest \(slowest.0) in \(String(format: "%.3f", slowest.1)) s")
    }

    // MARK: - Fuzzing

    func testRandomBytes() throws {
        try Stress.only()
        let inputs = (0..<2000).map { k in ("random input \(k)", Self.randomInput(seed: 0x5EED_0000 + UInt64(k))) }
        XCTAssertGreaterThan(inputs.filter { String(validating: $0.1, as: UTF8.self) == nil }.count, 200, "the generator must make invalid UTF-8")
        check(inputs, lineEnds: false)
    }

    func testMutatedSamples() throws {
        try Stress.only()
        let samples = try Self.samples()
        XCTAssertGreaterThanOrEqual(samples.count, 6, "samples/*.wfl not found from \(#filePath)")
        // The samples themselves are valid: a mutant's errors come from its mutation.
        for (name, bytes) in samples {
            let r = Parser.parse(SourceFile(name: name, bytes: bytes))
            XCTAssertFalse(r.diagnostics.hasErrors, "\(name): \(DiagnosticRenderer().render(r.diagnostics, in: SourceFile(name: name, bytes: bytes)))")
        }
        let inputs = Self.sampleInputs(samples, mutantsPerFile: 300, truncateEvery: 3)
        XCTAssertGreaterThan(inputs.count, 2500)
        check(inputs, lineEnds: true)
    }

    /// A rebuilt input from its label, to investigate a crash found with `WFL_FUZZ_TRACE=1`.
    static func input(for label: String) throws -> [UInt8]? {
        if label.hasPrefix("random input "), let k = UInt64(label.dropFirst("random input ".count)) {
            return randomInput(seed: 0x5EED_0000 + k)
        }
        return sampleInputs(try samples(), mutantsPerFile: 300, truncateEvery: 3).first { $0.0 == label }?.1
    }

    // MARK: - Line ends and the BOM, by hand

    func testCRLFGivesTheSamePositions() {
        let text = "container 375 x 812\ncolums 3\nsection {\n  items 2.5.1\n  height \"abc\n}\nlet = 4\nexpect (1 +\n"
        let lf = Array(text.utf8)
        let source = SourceFile(name: "a.wfl", bytes: lf)
        let crlfSource = SourceFile(name: "a.wfl", bytes: Self.crlf(lf))
        let a = Parser.parse(source), b = Parser.parse(crlfSource)
        XCTAssertGreaterThanOrEqual(a.diagnostics.count, 4)
        XCTAssertEqual(a.diagnostics.map { source.position(of: $0.span.start) }, b.diagnostics.map { crlfSource.position(of: $0.span.start) })
        XCTAssertEqual(a.diagnostics.map { source.position(of: $0.span.end) }, b.diagnostics.map { crlfSource.position(of: $0.span.end) })
        XCTAssertEqual(a.diagnostics.map(\.message), b.diagnostics.map(\.message))
        XCTAssertEqual(DiagnosticRenderer().render(a.diagnostics, in: source), DiagnosticRenderer().render(b.diagnostics, in: crlfSource))
        XCTAssertFalse(DiagnosticRenderer().render(b.diagnostics, in: crlfSource).contains("\r"), "a CR is shown in a diagnostic")
    }

    /// An invalid byte inside an unterminated block comment: tokens stay in source order and the
    /// unterminated comment is still reported.
    func testUnterminatedCommentWithInvalidUTF8() {
        let source = SourceFile(name: "d.wfl", bytes: Array("columns 2 /* a".utf8) + [0xFF])
        let lexed = Lexer.tokenize(source)
        XCTAssertEqual(lexed.tokens.map(\.start), lexed.tokens.map(\.start).sorted(), "tokens out of source order: \(lexed.tokens.map { "\($0.kind) \($0.span)" })")
        let messages = Parser.parse(source).diagnostics.map(\.message)
        XCTAssertTrue(messages.contains("unterminated comment"), "\(messages)")
    }

    func testLeadingBOMIsSkipped() {
        let text = "colums 3\nlet a = (1 +\n"
        let plain = SourceFile(name: "b.wfl", bytes: Array(text.utf8))
        let withBOM = SourceFile(name: "b.wfl", bytes: Self.bom + Array(text.utf8))
        let lexed = Lexer.tokenize(withBOM)
        XCTAssertEqual(lexed.tokens.first?.kind, .identifier)
        XCTAssertEqual(lexed.tokens.first?.span, Span(3, 9))
        XCTAssertTrue(lexed.errors.isEmpty, "the BOM is not an error")
        let a = Parser.parse(plain), b = Parser.parse(withBOM)
        XCTAssertEqual(a.diagnostics.map(\.message), b.diagnostics.map(\.message))
        XCTAssertEqual(a.diagnostics.count, 2)
        // The BOM is not a column: 'colums' is at 1:1 in both.
        XCTAssertEqual(b.diagnostics.map { withBOM.position(of: $0.span.start) }, a.diagnostics.map { plain.position(of: $0.span.start) })
        XCTAssertEqual(DiagnosticRenderer().render(b.diagnostics, in: withBOM), DiagnosticRenderer().render(a.diagnostics, in: plain))
        XCTAssertEqual(ASTPrinter.print(b.tree, source: withBOM).split(separator: "\n").dropFirst(),
                       ASTPrinter.print(a.tree, source: plain).split(separator: "\n").dropFirst())
        // A BOM anywhere else is not skipped.
        let inside = Parser.parse(SourceFile(name: "c.wfl", bytes: Array("columns 2\n".utf8) + Self.bom))
        XCTAssertTrue(inside.diagnostics.hasErrors)
    }

    // MARK: - Limits, each in a child process

    /// What a child process found, as lines of text.
    struct ChildResult {
        var status: String
        var lines: [String]
        var ok: Bool { status == "exit 0" }
    }

    /// Runs `body` in a forked child with a time limit, so that a stack overflow or a hang fails
    /// the calling test only. The child writes `body`'s lines to a pipe.
    func inChild(timeout: UInt32 = 20, _ body: () -> [String]) -> ChildResult {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return ChildResult(status: "no pipe", lines: []) }
        fflush(nil)
        let pid = fork()
        if pid == 0 {
            close(fds[0])
            // Die quietly on a crash (the parent reports it) rather than print a backtrace of
            // thousands of frames.
            for sig in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] { signal(sig, SIG_DFL) }
            // The parse runs here, on this (main) thread, as deep as the input nests: let its
            // stack grow as far as the library's own threads' (LargeStack.size). A debug build's
            // frames at the 256 levels accepted take 8.4 MB, just past the usual 8 MiB. (Not on
            // a thread of its own: ThreadSanitizer refuses threads after a fork.)
            var limit = rlimit()
            if getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &limit) == 0 {
                limit.rlim_cur = max(limit.rlim_cur, min(limit.rlim_max, rlim_t(LargeStack.size)))
                setrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &limit)
            }
            alarm(timeout)
            let text = body().joined(separator: "\n") + "\n"
            text.utf8CString.withUnsafeBufferPointer { p in
                var off = 0
                let n = p.count - 1
                while off < n {
                    let w = write(fds[1], p.baseAddress! + off, n - off)
                    if w <= 0 { break }
                    off += w
                }
            }
            close(fds[1])
            _exit(0)
        }
        close(fds[1])
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let r = read(fds[0], &buffer, buffer.count)
            if r <= 0 { break }
            data += buffer[0..<r]
        }
        close(fds[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let signal = status & 0x7F
        let description: String
        if signal == 0 { description = "exit \((status >> 8) & 0xFF)" }
        else if signal == SIGALRM { description = "hang: killed after \(timeout) s" }
        else { description = "crash: signal \(signal)\(signal == SIGSEGV ? " (SIGSEGV, likely a stack overflow)" : "")" }
        return ChildResult(status: description, lines: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// A summary of a parse that the parent can check: one line per error, and the shape of the
    /// first statement's value.
    static func summary(_ text: String, print: Bool = true, again: Bool = true) -> [String] {
        let source = SourceFile(name: "limit.wfl", bytes: Array(text.utf8))
        let t0 = Date()
        let r = Parser.parse(source)
        let seconds = Date().timeIntervalSince(t0)
        var out = r.diagnostics.filter { $0.severity == .error }.map { "error \($0.span.start) \($0.message)" }
        out += r.diagnostics.filter { $0.severity == .warning }.map { "warning \($0.message)" }
        out.append("statements \(r.tree.statements.count)")
        out.append("seconds \(seconds)")
        if case .let(let decl)? = r.tree.statements.last?.kind, case .binary(let chain) = decl.value {
            let first = chain.head, rest = chain.operands
            let ops = Set(rest.map(\.op.rawValue)).sorted().joined(separator: " ")
            var simple = true
            if case .number = first {} else if case .boolean = first {} else { simple = false }
            for o in rest {
                switch o.rhs { case .number, .boolean: break; default: simple = false }
            }
            out.append("binary \(rest.count) [\(ops)] \(simple ? "flat" : "nested")")
        }
        // The printer and equality must cope with the tree too.
        if print {
            let printed = ASTPrinter.print(r.tree, source: source)
            out.append("printed \(printed.hasPrefix("file") ? "ok" : "bad")")
        }
        if again {
            out.append("equal \(Parser.parse(source).tree == r.tree ? "ok" : "bad")")
        }
        return out
    }

    func errors(_ r: ChildResult) -> [String] { r.lines.filter { $0.hasPrefix("error ") } }

    /// Checks that `make(n)` parses without error at `accepted` levels and gives exactly one
    /// "nested too deeply" error at `accepted + 1` and at 100,000.
    func checkNesting(_ what: String, accepted: Int = Parser.maxDepth, _ make: @escaping (Int) -> String,
                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Parser.maxDepth, 256, file: file, line: line)
        let ok = inChild { Self.summary(make(accepted)) }
        XCTAssertTrue(ok.ok, "\(what) at \(accepted) levels: \(ok.status)", file: file, line: line)
        XCTAssertEqual(errors(ok), [], "\(what) at \(accepted) levels must be accepted", file: file, line: line)
        XCTAssertTrue(ok.lines.contains("printed ok") && ok.lines.contains("equal ok"), "\(what): \(ok.lines.suffix(3))", file: file, line: line)
        // 100,000 levels under WFL_STRESS=1; 10,000 in the plain run.
        for n in [accepted + 1, Stress.enabled ? 100_000 : 10_000] {
            let r = inChild { Self.summary(make(n)) }
            XCTAssertTrue(r.ok, "\(what) at \(n) levels: \(r.status)", file: file, line: line)
            let errs = errors(r)
            XCTAssertEqual(errs.count, 1, "\(what) at \(n) levels: \(errs.prefix(5))", file: file, line: line)
            XCTAssertTrue(errs.first?.contains("nested too deeply") ?? false, "\(what) at \(n) levels: \(errs.prefix(1))", file: file, line: line)
            XCTAssertTrue(errs.first?.contains("256") ?? false, "\(what): the message names the limit", file: file, line: line)
        }
    }

    static func repeated(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

    func testNestedParentheses() {
        checkNesting("parentheses") { n in "let a = " + Self.repeated("(", n) + "1" + Self.repeated(")", n) + "\n" }
    }

    func testNestedBrackets() {
        checkNesting("brackets") { n in "let a = " + Self.repeated("[", n) + "1" + Self.repeated("]", n) + "\n" }
    }

    func testNestedUnaryMinus() {
        checkNesting("unary '-'") { n in "let a = " + Self.repeated("-", n) + "1\n" }
    }

    func testNestedNot() {
        checkNesting("unary '!'") { n in "let a = " + Self.repeated("!", n) + "true\n" }
    }

    func testNestedConditionals() {
        checkNesting("conditionals") { n in "let a = true\nlet b = 1\nlet c = " + Self.repeated("a ? b : ", n) + "b\n" }
        checkNesting("conditionals in the middle branch") { n in
            "let a = true\nlet b = 1\nlet c = " + Self.repeated("a ? ", n) + "b" + Self.repeated(" : b", n) + "\n"
        }
    }

    func testNestedCalls() {
        checkNesting("calls") { n in "let f(v) = v\nlet a = " + Self.repeated("f(", n) + "1" + Self.repeated(")", n) + "\n" }
    }

    func testNestedIndexing() {
        checkNesting("indexing") { n in "let xs = [1]\nlet a = xs" + Self.repeated("[0]", n) + "\n" }
    }

    func testMixedNesting() {
        // Each '(' and each '-' is a level: 128 of each is 256.
        checkNesting("'(-' pairs", accepted: 128) { n in "let a = " + Self.repeated("(-", n) + "1" + Self.repeated(")", n) + "\n" }
    }

    /// Random mixtures of every kind of nesting, 240 to 270 levels deep: up to 256 levels parse
    /// without error, and 257 or more give exactly one "nested too deeply" error.
    func testRandomMixedNestingBoundary() {
        let kinds: [(String, String)] = [("(", ")"), ("[", "]"), ("-", ""), ("!", ""), ("f(", ")"), ("xs[", "]"),
                                         ("c ? ", " : 1"), ("c ? 1 : ", ""), ("(1 + ", ")"), ("[1, ", ",]")]
        var r = SplitMix64(seed: 256)
        var checked = 0
        // 160 mixtures under WFL_STRESS=1, 50 in the plain run (the 20 at 256 and 257 levels first).
        let mixtures = Stress.enabled ? 160 : 50
        for k in 0..<mixtures {
            let depth = k < 20 ? 256 + k % 2 : 240 + r.below(31)
            var open = "", close = ""
            for _ in 0..<depth {
                var (o, c) = r.pick(kinds)
                // `-c ? 1 : x` is `(-c) ? 1 : x`: after a unary operator a conditional is not nested.
                while (open.hasSuffix("-") || open.hasSuffix("!")), o.hasPrefix("c ?") { (o, c) = r.pick(kinds) }
                open += o
                close = c + close
            }
            let text = "let f(v) = v\nlet c = true\nlet xs = [1]\nlet a = " + open + "1" + close + "\n"
            let result = Parser.parse(SourceFile(name: "mixed.wfl", text: text))
            let errors = result.diagnostics.filter { $0.severity == .error }.map(\.message)
            if depth <= Parser.maxDepth {
                XCTAssertEqual(errors, [], "\(depth) levels: \(open.prefix(60))...")
            } else {
                XCTAssertEqual(errors.count, 1, "\(depth) levels: \(errors.prefix(3)) for \(open.prefix(60))...")
                XCTAssertTrue(errors.first?.contains("nested too deeply") ?? false, "\(depth) levels: \(errors.prefix(1))")
            }
            checked += 1
        }
        XCTAssertEqual(checked, mixtures)
    }

    /// Nesting in one statement does not count against the next.
    func testDepthIsPerStatement() {
        let line = "let a = " + Self.repeated("(", 256) + "1" + Self.repeated(")", 256) + "\n"
        let r = inChild { Self.summary(Self.repeated(line, 50)) }
        XCTAssertTrue(r.ok, r.status)
        XCTAssertEqual(errors(r), [])
    }

    func checkChain(_ what: String, _ first: String, _ ops: [String], expected: String,
                    file: StaticString = #filePath, line: UInt = #line) {
        let r = inChild {
            var s = "let a = " + first
            s.reserveCapacity(500_000)
            for k in 1..<100_000 { s += " " + ops[k % ops.count] + " " + first }
            return Self.summary(s + "\n", print: false, again: ops == ["+"])
        }
        XCTAssertTrue(r.ok, "\(what): \(r.status)", file: file, line: line)
        XCTAssertEqual(errors(r), [], what, file: file, line: line)
        XCTAssertTrue(r.lines.contains(expected), "\(what): expected '\(expected)' in \(r.lines.suffix(4))", file: file, line: line)
        if ops == ["+"] { XCTAssertTrue(r.lines.contains("equal ok"), "\(what): \(r.lines.suffix(3))", file: file, line: line) }
    }

    func testLongChainsAreOneNode() throws {
        try Stress.only()
        checkChain("1 + 1 + ... + 1", "1", ["+"], expected: "binary 99999 [+] flat")
        checkChain("mixed + and -", "1", ["+", "-"], expected: "binary 99999 [+ -] flat")
        checkChain("* and /", "1", ["*", "/"], expected: "binary 99999 [* /] flat")
        checkChain("%", "2", ["%"], expected: "binary 99999 [%] flat")
        checkChain("||", "true", ["||"], expected: "binary 99999 [||] flat")
        checkChain("&&", "false", ["&&"], expected: "binary 99999 [&&] flat")
    }

    func testHundredThousandLines() throws {
        try Stress.only()
        let r = inChild {
            var s = ""
            s.reserveCapacity(3_000_000)
            for k in 0..<100_000 {
                switch k % 4 {
                case 0: s += "let v\(k) = \(k) * 2 + 1\n"
                case 1: s += "// comment \(k)\n"
                case 2: s += "expect v\(k - 2) == \(2 * (k - 2) + 1), \"line \(k)\"\n"
                default: s += "let w\(k) = [v\(k - 3), (v\(k - 3) + 1)] /* c */\n"
                }
            }
            return Self.summary(s, print: true, again: false)
        }
        XCTAssertTrue(r.ok, r.status)
        XCTAssertEqual(errors(r), [])
        XCTAssertTrue(r.lines.contains("statements 75000"), "\(r.lines.suffix(4))")
        // Speed is the benchmark's business; here only a hang fails (the child's time limit).
    }

    /// Blocks are not expressions, but a file of `section {` lines must still give errors, not
    /// a stack overflow.
    func testDeeplyNestedBlocks() throws {
        try Stress.only()
        for (what, opener) in [("section", "section {\n"), ("layout", "layout a {\n")] {
            for n in [1_000, 100_000] {
                for closed in [false, true] {
                    let r = inChild { Self.summary(Self.repeated(opener, n) + (closed ? Self.repeated("}\n", n) : "")) }
                    guard r.ok else {
                        XCTFail("\(n) nested '\(what)' blocks\(closed ? ", closed" : ""): \(r.status)")
                        continue
                    }
                    XCTAssertFalse(errors(r).isEmpty, "\(n) nested '\(what)' blocks must give errors")
                }
            }
        }
    }

    /// One mistake per line over 10,000 lines: one error each, in reasonable time.
    func testManyErrors() {
        let n = Stress.enabled ? 5_000 : 1_000
        let r = inChild { Self.summary(Self.repeated("colums 3\n", n) + Self.repeated("let = \"\n", n), print: false, again: false) }
        XCTAssertTrue(r.ok, r.status)
        XCTAssertEqual(errors(r).count, 2 * n, "one error per line")
        // Only a hang fails: the child's time limit.
    }

    /// `wfl ast` of a long chain: the printer must not be quadratic in the length of a line.
    /// The terms of the long chains: 100,000 under WFL_STRESS=1, 10,000 in the plain run.
    static var longChain: Int { Stress.enabled ? 100_000 : 10_000 }

    func testPrintingALongChain() {
        let r = inChild(timeout: 120) {
            let source = SourceFile(name: "chain.wfl", text: "let a = 1" + Self.repeated(" + 1", Self.longChain - 1) + "\n")
            let tree = Parser.parse(source).tree
            let t0 = Date()
            let printed = ASTPrinter.print(tree, source: source)
            return ["lines \(printed.split(separator: "\n").count)", "seconds \(Date().timeIntervalSince(t0))"]
        }
        guard r.ok else { return XCTFail("printing a chain of 100,000 terms (linear: well under a second): \(r.status)") }
        XCTAssertTrue(r.lines.contains("lines \(Self.longChain + 3)"), "\(r.lines)")
    }

    /// `1 < 1 < ... < 1`: comparisons do not chain, which is one mistake, so one error, and
    /// rendering the diagnostics must not take long.
    func testComparisonChain() {
        let text = "let a = 1" + Self.repeated(" < 1", Stress.enabled ? 99_999 : 9_999) + "\n"
        let r = inChild(timeout: 120) {
            Parser.parse(SourceFile(name: "cmp.wfl", text: text)).diagnostics.map { "error \($0.span.start) \($0.message)" }
        }
        XCTAssertTrue(r.ok, "a chain of 100,000 comparisons: \(r.status)")
        let rendered = inChild(timeout: 120) {
            let source = SourceFile(name: "cmp.wfl", text: text)
            return ["rendered \(DiagnosticRenderer().render(Parser.parse(source).diagnostics, in: source).count > 0)"]
        }
        XCTAssertEqual(rendered.lines, ["rendered true"], "rendering the diagnostics of a chain of 100,000 comparisons: \(rendered.status)")
        let errs = errors(r)
        XCTAssertFalse(errs.isEmpty)
        XCTAssertEqual(errs.count, 1, "one mistake, one error: \(errs.count) errors, the first \(errs.prefix(2))")
        XCTAssertTrue(errs.first?.contains("comparisons do not chain") ?? false, "\(errs.prefix(1))")
    }

    /// "did you mean" suggestions must not make a long file quadratic: each one compares a word
    /// with every visible name, so only the first ones of a file are looked for. Counted, not
    /// timed: 2,000 names and 2,000 misspelt uses.
    func testSuggestionsAreBounded() {
        var s = ""
        // 2,000 misspellings under WFL_STRESS=1, 400 in the plain run: more than the 100 searched.
        let n = Stress.enabled ? 2000 : 400
        for k in 0..<n { s += "let value\(k) = \(k)\n" }
        for k in 0..<n { s += "expect valeu\(k) == 1\n" }
        let errors = Parser.parse(SourceFile(name: "t.wfl", text: s)).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.count, n)
        XCTAssertEqual(errors.first?.help, ["did you mean 'value0'?"])
        let suggested = errors.filter { $0.help.contains { $0.description.hasPrefix("did you mean") } }.count
        XCTAssertGreaterThan(suggested, 0)
        XCTAssertLessThanOrEqual(suggested, 100, "suggestions are looked for at most 100 times a file")
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: Swift.max(0, n - count)) + self }
}
