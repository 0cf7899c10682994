import Testing
import WFL
import WFLTesting

/// `expectLayout`, the Swift Testing entry point: an issue with `wfl diff`'s text, or none.
@Suite struct ExpectLayoutTests {
    @Test func aMatchRecordsNoIssue() {
        #expect(expectLayout(feedRecording(), matches: .source(feedSource)))
    }

    @Test func aDifferenceRecordsAnIssueWithTheDiffText() {
        var r = feedRecording()
        r.elements.removeLast()
        withKnownIssue {
            #expect(!expectLayout(r, matches: .source(feedSource)))
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["the recording does not match spec.wfl:\nfeed: frame(0, 2) missing from the recording (in spec.wfl at [10, 164, 172.5, 100])\n1 difference\n"]
        }
    }
}
