import XCTest
@testable import WFL

/// Issue 17: keyword values are bare words in their positions and are not looked up as names
/// (docs/language.md, "Settings"), so a `let` of the same name changes nothing there.
final class KeywordPositionTests: XCTestCase {
    /// `let top = 5` once turned `insets top 7` into two values (top and bottom 5, left and right 7).
    func testASideWordStartsTheNamedFormEvenWhenALetHasItsName() throws {
        for side in ["top", "left", "bottom", "right"] {
            for setting in ["insets", "headerInsets", "footerInsets"] {
                let body = "items 2\nheader 20\nfooter 20\n\(setting) \(side) 7\n"
                let plain = try XCTUnwrap(Eval.table(body))
                let shadowed = try XCTUnwrap(Eval.table("let \(side) = 5\n" + body))
                XCTAssertEqual(plain.elements.map(Eval.rect), shadowed.elements.map(Eval.rect), "\(setting) \(side) 7")
                XCTAssertEqual(plain.contentWidth, shadowed.contentWidth)
                XCTAssertEqual(plain.contentHeight, shadowed.contentHeight)
            }
        }
        let cell = try XCTUnwrap(Eval.table("let top = 5\ninsets top 7\nitems 1\n")).elements[0]
        XCTAssertEqual(Eval.rect(cell), [0, 7, 182.5, 182.5])
        // Every side named, each also a `let`: the values after the sides are expressions.
        let named = try XCTUnwrap(Eval.table("let top = 5\nlet left = 3\ninsets top left left top\nitems 1\n")).elements[0]
        XCTAssertEqual(Eval.rect(named), [5, 3, 182.5 - 2.5, 182.5 - 2.5])
    }

    /// In parentheses the name is a value again; a lone side says so.
    func testTheValueOfASideNamedLetIsWrittenInParentheses() throws {
        let cell = try XCTUnwrap(Eval.table("let top = 5\ninsets (top) 2\nitems 1\n")).elements[0]
        XCTAssertEqual(Eval.rect(cell), [2, 5, 180.5, 180.5])
        let source = SourceFile(name: "t.wfl", text: "let top = 5\ninsets top\nitems 1\n")
        let errors = Parser.parse(source).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.message.description), ["missing value after 'top'"])
        XCTAssertEqual(errors.first?.help.first?.description, "to use the value of 'top', write it in parentheses: 'insets (top)'")
        let times = Parser.parse(SourceFile(name: "t.wfl", text: "let top = 5\ninsets top * 2\nitems 1\n")).diagnostics
        XCTAssertEqual(times.first?.help.first?.description, "to use the value of 'top', write it in parentheses: 'insets (top)'")
        // Without such a `let` the help stays the example.
        let plain = Parser.parse(SourceFile(name: "t.wfl", text: "insets top\nitems 1\n")).diagnostics
        XCTAssertEqual(plain.first?.help.first?.description, "write, for example, 'insets top 10'")
    }

    /// Every word of every word-valued setting means the same with a `let` of that name.
    func testWordSettingsIgnoreLetsOfTheirWords() throws {
        for info in SettingTable.all {
            guard case .word(let words) = info.shape else { continue }
            for word in words {
                // justify and align are used by flow only; flow sizes items with `size`.
                let source: String
                if info.level == .attached {
                    // anchor stands in an attach block.
                    source = "items 7\nheight 10 + i\nattach badge { \(info.name) \(word) }\n"
                } else if ["justify", "align", "snapping"].contains(info.name) || word == "flow" {
                    source = "style flow\n\(info.name) \(word)\nitems 7\nsize 60 + i * 7 x 20\n"
                } else if word == "groups" {
                    source = "style groups\nitems 7\ngroup horizontal gw x 20 { item gw / 3 x gh }\n"
                } else if info.name == "paging" || word == "shelf" {
                    source = "style shelf\n\(info.name) \(word)\nitems 7\nsize 60 + i * 7 x 20\n"
                } else {
                    source = "\(info.name) \(word)\nitems 7\n\(word == "horizontal" ? "width" : "height") 10 + i\n"
                }
                let plain = try XCTUnwrap(Eval.table(source), "\(info.name) \(word)")
                let shadowed = try XCTUnwrap(Eval.table("let \(word) = 1\n" + source), "let \(word) = 1; \(info.name) \(word)")
                XCTAssertEqual(plain.elements.map(Eval.rect), shadowed.elements.map(Eval.rect), "\(info.name) \(word)")
            }
        }
    }
}
