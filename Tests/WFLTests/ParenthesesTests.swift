import Foundation
import XCTest
@testable import WFL

/// Parentheses around any subexpression change nothing: every sample and passing fixture, with
/// generated subexpressions wrapped in `( )`, gives the same tables and the same diagnostics. (A
/// name alone in parentheses was once read with a stale name id: `height (i) + 10` said "unknown
/// name 'style'".)
final class ParenthesesTests: XCTestCase {
    /// Every expression's span in a tree, outermost first.
    static func expressionSpans(_ statements: [Statement]) -> [Span] {
        var out: [Span] = []
        func walk(_ e: Expr) {
            out.append(e.span)
            switch e {
            case .number, .boolean, .string, .name, .invalid: break
            case .list(let xs, _): xs.forEach(walk)
            case .unary(_, let x, _): walk(x)
            case .binary(let chain):
                let first = chain.head, rest = chain.operands
                walk(first)
                for o in rest { walk(o.rhs) }
            case .conditional(let c, let a, let b, _): walk(c); walk(a); walk(b)
            case .call(let call): call.arguments.forEach(walk)
            case .index(let base, let k, _): walk(base); walk(k)
            }
        }
        for st in statements {
            switch st.kind {
            case .let(let d): walk(d.value)
            case .layout(let b), .section(let b), .attach(let b), .update(let b), .scroll(let b): out += expressionSpans(b.statements)
            case .to(let stop): walk(stop.x); walk(stop.y); if let step = stop.step { walk(step) }
            case .change(let c): c.arguments.forEach(walk)
            case .group(let g):
                walk(g.width); walk(g.height)
                if let c = g.count { walk(c) }
                out += expressionSpans(g.block.statements)
            case .item(let item):
                walk(item.width); walk(item.height)
                out += expressionSpans(item.block?.statements ?? [])
            case .appear(let a): out += expressionSpans(a.block.statements)
            case .expect(let x): walk(x.condition)
            case .setting(let s):
                for a in s.arguments {
                    switch a {
                    case .value(let e), .side(_, let e), .adaptive(let e, _): walk(e)
                    case .size(let w, let h, _): walk(w); walk(h)
                    case .word: break
                    }
                }
            }
        }
        return out
    }

    /// What a source gives: its diagnostics' codes and the json of its tables.
    static func result(_ source: SourceFile) -> (codes: [DiagnosticCode], json: String) {
        let c = Pipeline.run(source)
        return (c.diagnostics.map(\.code), JSONFormat.format(c.tables))
    }

    func testWrappingSubexpressionsChangesNothing() throws {
        var generator = SeededRandom.forTest("ParenthesesTests.testWrappingSubexpressionsChangesNothing")
        var checked = 0
        var inputs = Golden.inputs("samples")
        inputs += Golden.inputs("Tests/Fixtures/test/pass")
        // The files to evaluate are made here, in order (the generator's draws stay as they were),
        // then evaluated on every core, the plain files with them.
        var sources: [SourceFile] = [], wrappedOf: [Int] = []
        for url in inputs {
            let source = try Golden.source(url)
            let parsed = Parser.parse(source)
            XCTAssertFalse(parsed.diagnostics.hasErrors, url.lastPathComponent)
            let plainIndex = sources.count
            sources.append(source)
            wrappedOf.append(-1)
            let spans = Self.expressionSpans(parsed.tree.statements)
            // Every span alone, then a few random sets of spans at once (nested ones included). The
            // plain run takes every 32nd span from a random start and 2 sets; WFL_STRESS=1 all.
            let step = Stress.enabled ? 1 : 32
            let first = spans.isEmpty ? 0 : Int.random(in: 0..<Swift.min(step, spans.count), using: &generator)
            var trials: [[Span]] = stride(from: first, to: spans.count, by: step).map { [spans[$0]] }
            for _ in 0..<(Stress.enabled ? 20 : 2) where !spans.isEmpty {
                trials.append((0..<Int.random(in: 2...6, using: &generator)).map { _ in spans.randomElement(using: &generator)! })
            }
            for wrapped in trials {
                var opens = [Int: Int](), closes = [Int: Int]()
                for s in wrapped {
                    opens[s.start, default: 0] += 1
                    closes[s.end, default: 0] += 1
                }
                var bytes: [UInt8] = []
                for (k, b) in source.bytes.enumerated() {
                    bytes += Array(repeating: UInt8(ascii: ")"), count: closes[k] ?? 0)
                    bytes += Array(repeating: UInt8(ascii: "("), count: opens[k] ?? 0)
                    bytes.append(b)
                }
                bytes += Array(repeating: UInt8(ascii: ")"), count: closes[source.bytes.count] ?? 0)
                sources.append(SourceFile(name: source.name, bytes: bytes))
                wrappedOf.append(plainIndex)
            }
        }
        let results = Concurrent.map(sources, Self.result)
        for (k, plainIndex) in wrappedOf.enumerated() where plainIndex >= 0 {
            let text = String(decoding: sources[k].bytes, as: UTF8.self)
            XCTAssertEqual(results[k].codes, results[plainIndex].codes, text)
            XCTAssertEqual(results[k].json, results[plainIndex].json, text)
            checked += 1
        }
        XCTAssertGreaterThan(checked, Stress.enabled ? 500 : 40)
    }
}
