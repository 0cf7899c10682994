import Foundation
import XCTest
@testable import WFL

/// The engine layer (docs/ARCHITECTURE.md, "The engine layer"): every engine registered and
/// declared, its refusals covering every setting it does not read, and the section stacker open
/// to an engine it was not written for.
final class EngineLayerTests: XCTestCase {
    /// Each engine of `Engines.all` has its declaration in `EngineTable`, in the same order, and
    /// every style but `mixed` is an engine's.
    func testEveryEngineIsRegisteredAndDeclared() {
        XCTAssertEqual(Engines.all.map { $0.style }, EngineTable.all.map(\.style))
        XCTAssertEqual(Set(LayoutStyle.allCases.filter { $0 != .mixed }), Set(EngineTable.all.map(\.style)))
        XCTAssertNil(Engines.engine(.mixed))
        XCTAssertEqual(SettingTable.info("style")?.shape, .word(EngineTable.words))
        XCTAssertEqual(SettingTable.info("style").map { Set($0.values.keys) }, Set(EngineTable.words))
    }

    /// An engine refuses each setting another engine reads with a message of its own (not the
    /// fallback), in each direction it does not read it in; and every setting it declares is one
    /// of the settings table.
    func testEveryUnreadSettingHasARefusal() {
        for d in EngineTable.all {
            for r in d.reads { XCTAssertNotNil(SettingTable.info(r.setting), "\(d.style): '\(r.setting)' is not a setting") }
            for r in d.refusals {
                for s in r.settings { XCTAssertNotNil(SettingTable.info(s), "\(d.style): refuses '\(s)', not a setting") }
            }
            for setting in EngineTable.engineSettings.sorted() {
                for direction in [Direction.vertical, .horizontal] where !d.reads(setting, in: direction) {
                    let answered = d.refusals.contains { $0.settings.contains(setting) && ($0.direction == nil || $0.direction == direction) }
                    XCTAssertTrue(answered, "\(d.style) \(direction): no refusal of '\(setting)'")
                }
            }
        }
    }

    /// Every engine setting written in a section (and the layout settings in its layout) of every
    /// engine in both directions: the errors are the ones of the golden file, as they were when
    /// each was a case of a switch in the resolver.
    func testUnusedSettingErrors() throws {
        for url in Golden.inputs("Tests/Fixtures/engines") {
            let source = try Golden.source(url)
            let c = Pipeline.run(source)
            XCTAssertTrue(c.diagnostics.contains { $0.code == .unusedSetting })
            Golden.check(DiagnosticRenderer().render(c.diagnostics, in: source),
                         against: url.deletingPathExtension().appendingPathExtension("expected"), input: url)
        }
    }

    /// An engine the stacker was not written for: each item a square as wide as the section
    /// allows, one under the other. The stacker puts the header, the insets and the footer around
    /// what it places, as for the engines of the language.
    struct Column: Engine {
        static let style = LayoutStyle.waterfall
        var gap: Double
        static func configure(_ settings: inout some SectionSettings) -> Column { Column(gap: 0) }
        func place(_ sec: ResolvedSection, from start: Double, _ stack: SectionStack,
                   into writer: inout ElementWriter) throws(Diagnostic) -> Double {
            let (aw, _) = stack.available(sec)
            var y = start
            for i in 0..<sec.items {
                writer.table.elements.append(Element(cell: i, section: sec.index, frame: Frame(x: sec.insets.left, y: y, width: aw, height: aw)))
                y += aw + (i + 1 < sec.items ? gap : 0)
            }
            return y
        }
    }

    func testTheStackerTakesAnyEngine() throws {
        let (_, program, _) = Eval.run("container 100 x 400\nitems 2\ninsets 10\nheader 20\nfooter 5\nsection {\n items 1\n}\nsection {\n items 2\n}")
        var layout = try XCTUnwrap(try program.resolve(layoutNamed: "t")?.get())
        layout.sections[1].engine = Column(gap: 4)
        var warnings: [Diagnostic] = []
        let t = try Sections.stacked(layout, warnings: &warnings)
        // Section 0 (a waterfall of 2 columns, square items 35 wide): header 0..20, items from 30
        // to 65, end 75, footer 75..80. Section 1: header 80..100, items from 110: 80 x 80 at
        // 110 and at 110 + 80 + 4 = 194, bottom 274, end 284, footer 284..289.
        let s1 = t.sectionStarts[1]
        XCTAssertEqual(t.elements[s1.firstCell].frame, Frame(x: 10, y: 110, width: 80, height: 80))
        XCTAssertEqual(t.elements[s1.firstCell + 1].frame, Frame(x: 10, y: 194, width: 80, height: 80))
        XCTAssertEqual(s1.end, 284)
        XCTAssertEqual(t.elements[try XCTUnwrap(s1.footer)].frame, Frame(x: 0, y: 284, width: 100, height: 5))
        XCTAssertEqual(t.contentHeight, 289)
    }
}
