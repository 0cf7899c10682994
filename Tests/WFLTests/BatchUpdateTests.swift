import XCTest
@testable import WFL

/// The index rules of a batch update: deletes name indices before it, inserts indices after it,
/// and the staying items keep their order in the indices left over.
final class BatchUpdateTests: XCTestCase {
    /// 10 items, delete 2 and 5, insert 0: 9 after. Index 0 is new; 1, 2 are old 0, 1; old 2 is
    /// gone, so 3, 4 are old 3, 4; old 5 is gone, so 5...8 are old 6...9.
    func testIndicesOfTheSpecExample() {
        let u = SectionUpdate(countBefore: 10, deleted: [2, 5], inserted: [0])
        XCTAssertEqual(u.countAfter, 9)
        XCTAssertEqual(u.indicesBefore(), [nil, 0, 1, 3, 4, 6, 7, 8, 9])
        XCTAssertEqual(u.indicesAfter(), [1, 2, nil, 3, 4, nil, 5, 6, 7, 8])
    }

    /// Inserting at the end and at indices that deleted items held: 3 items, delete 0 and 2,
    /// insert 0 and 2. After: new, old 1, new.
    func testInsertsWhereDeletesWere() {
        let u = SectionUpdate(countBefore: 3, deleted: [0, 2], inserted: [0, 2])
        XCTAssertEqual(u.indicesBefore(), [nil, 1, nil])
        XCTAssertEqual(u.indicesAfter(), [nil, 1, nil])
        XCTAssertFalse(u.isEmpty)
    }

    /// Against a plain model: remove the deleted items from a list, then insert markers.
    func testAgainstAListModel() {
        var g = SeededRandom.forTest("BatchUpdateTests.testAgainstAListModel")
        let seed = g.label
        for _ in 0..<300 {
            let n = Int.random(in: 0...12, using: &g)
            let deleted = (0..<n).filter { _ in Bool.random(using: &g) }
            let n1 = n - deleted.count
            let k = Int.random(in: 0...4, using: &g)
            var items: [Int?] = (0..<n).filter { !deleted.contains($0) }
            var inserted: [Int] = []
            for _ in 0..<k {
                let at = Int.random(in: 0...items.count, using: &g)
                items.insert(nil, at: at)
            }
            inserted = items.indices.filter { items[$0] == nil }
            XCTAssertEqual(items.count, n1 + k, seed)
            let u = SectionUpdate(countBefore: n, deleted: deleted, inserted: inserted)
            XCTAssertEqual(u.indicesBefore(), items, "\(seed): n \(n) delete \(deleted) insert \(inserted)")
        }
    }
}
