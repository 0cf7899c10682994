import XCTest
@testable import WFL

/// The parser's interning of names: one id per distinct name, whatever the bytes around it.
final class NameTableTests: XCTestCase {
    /// Interns every word of `text` (split at spaces) from the text's own bytes, as the parser
    /// does from the source, and gives their ids.
    func ids(_ text: String, in table: inout NameTable) -> [Int32] {
        let bytes = Array(text.utf8)
        var out: [Int32] = []
        var start = 0
        bytes.withUnsafeBufferPointer { buf in
            for k in 0...buf.count where k == buf.count || buf[k] == 0x20 {
                if k > start { out.append(table.intern(buf, start, k)) }
                start = k + 1
            }
        }
        return out
    }

    func testNamesAlikeInTheirFirstEightBytesOrPrefixesOfEachOtherAreApart() {
        var table = NameTable()
        let words = ["cardHeight", "cardHeightX", "cardHeigh", "cardHeightY", "abcdefgh", "abcdefghi", "a", "ab", "abc",
                     "abcdefghabcdefgh", "abcdefghabcdefgi", "x1", "x2", "columns"]
        let first = ids(words.joined(separator: " "), in: &table)
        XCTAssertEqual(Set(first).count, words.count, "each distinct word gets its own id")
        // The same words again, in another order and at other offsets (the last one at the very
        // end of its buffer, where eight bytes cannot be read at once): the same ids.
        let again = ids(words.reversed().joined(separator: "  "), in: &table)
        XCTAssertEqual(again, first.reversed())
        for (w, id) in zip(words, first) { XCTAssertEqual(table.strings[Int(id)], w) }
        XCTAssertNotNil(table.settingRow(first[words.firstIndex(of: "columns")!]), "a setting's name finds its row")
    }

    func testManyNamesGrowTheTableAndKeepTheirIds() {
        var table = NameTable()
        let words = (0..<5000).map { "name\($0)_\($0 * 7919 % 10007)" }
        let first = ids(words.joined(separator: " "), in: &table)
        XCTAssertEqual(Set(first).count, words.count)
        XCTAssertEqual(ids(words.joined(separator: " "), in: &table), first)
        XCTAssertEqual(ids("name17_" + String(17 * 7919 % 10007), in: &table), [first[17]])
    }
}
