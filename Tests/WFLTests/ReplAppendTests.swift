import XCTest
@testable import WFL

/// The REPL's session appends a statement entry to what it has already read and resolved
/// (`IncrementalPipeline.append`); these tests prove that equal, reply for reply, to taking the
/// whole session through the pipeline again (`PipelineOptions.sessionAppends` off).
final class ReplAppendTests: XCTestCase {
    /// A generator of entries: sections of every engine (some with errors, some named alike, some
    /// with backgrounds, attached views, attribute rules or update blocks), attach and update
    /// blocks at the top level, appear and disappear blocks,
    /// lets (some shadowing, some used later), settings typed again, expectations, expressions,
    /// undo and reset.
    struct Entries {
        var state: UInt64
        var lets = 0

        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }

        mutating func pick(_ n: Int) -> Int { Int(next() % UInt64(n)) }

        mutating func entry() -> String {
            switch pick(20) {
            case 0..<8:
                var body = ["items \(pick(6))"]
                switch pick(4) {
                case 0: body += ["style flow", "size \(20 + pick(80)) x \(10 + pick(40))"]
                case 1: body += ["style shelf", "rows \(1 + pick(2))", "size \(40 + pick(60)) x 30"]
                case 2: body += ["height \(lets > 0 && pick(2) == 0 ? "v\(pick(lets)) + " : "")\(10 + pick(90))"]
                default: body += ["height 20 + i % 3 * 10", "span i % 4 == 0 ? full : 1"]
                }
                if pick(3) == 0 { body.append("header \(pick(30))") }
                if pick(4) == 0 { body.append("footer \(pick(20))") }
                if pick(6) == 0 { body.append("pinHeaders true") }
                if pick(12) == 0 { body.append("items -1") }
                if pick(12) == 0 { body.append("colums 2") }
                if pick(5) == 0 { body.append(["background cells", "background items; backgroundInsets -4", "attach b { when i == 0 }", "alpha 0.5"][pick(4)]) }
                if pick(5) == 0 { body.append(["update { delete 0 }", "update { insert \(pick(3)); expect contentHeight > 0 }", "update { delete 1; insert 0 1 }"][pick(3)]) }
                let name = pick(5) == 0 ? "\"s\(pick(2))\" " : ""
                return "section \(name){ " + body.joined(separator: "; ") + " }"
            case 8..<11:
                let k = pick(3) == 0 && lets > 0 ? pick(lets) : lets
                if k == lets { lets += 1 }
                return "let v\(k) = \(pick(50))" + (pick(4) == 0 ? " / \(pick(2))" : "")
            case 11..<14:
                return ["columns \(1 + pick(4))", "spacing \(pick(12))", "container \(300 + pick(100)) x 600", "insets \(pick(10))",
                        "direction horizontal", "rows 2", "order leftToRight", "seed \(pick(3))",
                        "background all", "attach badge { size 10 x 10; when i % 2 == 0 }", "update { insert 0 }",
                        "appear { alpha 0; offset 0 20 }", "disappear { zoom 0.5 }"][pick(13)]
            case 14..<16:
                return ["expect contentHeight > 0", "expect contentHeight == 1", "expect frame(0, 0)[0] >= 0", "expect count(0, 0, 375, 812) > 2"][pick(4)]
            case 16..<18:
                return ["contentHeight", "frame(0, 0)", "frame(1, 1)", "v0 + 1", "count(0, 0, 100, 100)"][pick(5)]
            case 18:
                return ":undo"
            default:
                return pick(4) == 0 ? ":reset" : "// a comment"
            }
        }
    }

    func run(_ session: Session, _ e: String) -> String {
        let r: SessionReply
        switch e {
        case ":undo": r = session.undo()
        case ":reset": r = session.reset()
        default: r = session.enter(e)
        }
        return "\(r.failed) | \(r.output) | \(r.diagnostics) | \(session.text.utf8.count) | \(session.tables.map(\.elements.count))"
    }

    /// 40 sessions of 60 entries under `WFL_STRESS` (15 s on a quiet 2-core machine), 2 in the
    /// plain run.
    func testAppendingIsEvaluatingTheWholeSession() {
        let seeds = Stress.enabled ? 40 : 2
        var appendedEntries = 0, fastEntries = 0
        for seed in 0..<seeds {
            var g = Entries(state: UInt64(seed) &* 0x9E3779B97F4A7C15 &+ 1)
            let fast = Session(), whole = Session(options: PipelineOptions(sessionAppends: false))
            for step in 0..<60 {
                let e = g.entry()
                let before = fast.entries.count
                let a = run(fast, e)
                let b = run(whole, e)
                XCTAssertEqual(a, b, "seed \(seed), step \(step), entry '\(e)'")
                XCTAssertEqual(fast.tables, whole.tables, "seed \(seed), step \(step), entry '\(e)'")
                XCTAssertEqual(fast.afterTables, whole.afterTables, "seed \(seed), step \(step), entry '\(e)'")
                XCTAssertEqual(fast.updates, whole.updates, "seed \(seed), step \(step), entry '\(e)'")
                if fast.entries.count == before + 1 { appendedEntries += 1 }
                if a != b { return }
            }
            fastEntries += fast.appended
            XCTAssertEqual(whole.appended, 0)
        }
        // Per 40 sessions: more than 400 entries appended, more than 500 accepted at the end.
        XCTAssertGreaterThan(fastEntries * 40, 400 * seeds, "the generator must take the appending path")
        XCTAssertGreaterThan(appendedEntries * 40, 500 * seeds, "the generator must exercise appending")
    }

    /// A generator of sessions that type settings again: at the file level (as long as the one
    /// they replace or not, reading `let`s declared before or after it, shadowed or not, some the
    /// engine refuses), sections with settings of their own, `:undo` after a replacement,
    /// expressions and now and then `:reset`.
    struct Replacements {
        var g: Entries
        var lets = 0

        mutating func pick(_ n: Int) -> Int { g.pick(n) }

        mutating func entry() -> String {
            switch pick(24) {
            case 0..<11:
                let v = lets > 0 && pick(3) == 0 ? "v\(pick(lets))" : "\(pick(9) + 1)"
                return ["columns \(v)", "columns \(pick(9) + 1)", "columns 1\(pick(9))", "spacing \(pick(20))", "spacing \(pick(9)) \(pick(9))",
                        "rowSpacing \(pick(9))", "columnSpacing \(v)", "insets \(pick(9))", "insets left \(pick(9))",
                        "container \(300 + pick(90)) x 600", "header \(pick(9))", "height \(v) + 2\(pick(9))", "style flow",
                        "style waterfall", "columns \(v) + 1"][pick(15)]
            case 11..<15:
                var body = ["items \(pick(7))"]
                switch pick(4) {
                case 0: body.append("columns \(1 + pick(3))")
                case 1: body.append("spacing \(pick(9)); header 10")
                case 2: body.append("height 40 + \(lets > 0 ? "v\(pick(lets))" : "1")")
                default: break
                }
                return "section { " + body.joined(separator: "; ") + " }"
            case 15..<18:
                let k = pick(3) == 0 && lets > 0 ? pick(lets) : lets
                if k == lets { lets += 1 }
                return "let v\(k) = \(pick(9) + 1)"
            case 18..<20:
                return ":undo"
            case 20..<22:
                return ["contentHeight", "frame(0, 0)", "v0 + 1", "expect contentHeight > 0"][pick(4)]
            default:
                return pick(3) == 0 ? ":reset" : "// a comment"
            }
        }
    }

    /// Settings typed again taken in place by the live program give the replies, tables and
    /// saved text of the whole session run again: 30 sessions under `WFL_STRESS`, 3 in the plain run.
    func testReplacingIsEvaluatingTheWholeSession() {
        let seeds = Stress.enabled ? 30 : 3
        var inPlace = 0
        for seed in 0..<seeds {
            var g = Replacements(g: Entries(state: UInt64(seed) &* 0xD1B54A32D192ED03 &+ 7))
            let fast = Session(), whole = Session(options: PipelineOptions(sessionAppends: false))
            for step in 0..<60 {
                let e = g.entry()
                let a = run(fast, e), b = run(whole, e)
                let where_ = "seed \(seed), step \(step), entry '\(e)'"
                XCTAssertEqual(a, b, where_)
                XCTAssertEqual(fast.text, whole.text, where_)
                XCTAssertEqual(fast.tables, whole.tables, where_)
                XCTAssertEqual(fast.afterTables, whole.afterTables, where_)
                if a != b || fast.text != whole.text { return }
            }
            inPlace += fast.replacedInPlace
        }
        XCTAssertGreaterThan(inPlace, 3 * seeds, "the generator must take settings in their place")
    }
}
