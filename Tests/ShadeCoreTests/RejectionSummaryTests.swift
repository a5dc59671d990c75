import Testing
import ShadeCore

/// The one line `state`, `snapshot` and `replay` print on stderr, and the count the live UI shows.
struct RejectionSummaryTests {
    static func states(_ lines: [String], platforms: [Platform] = Platform.allCases) -> [CenterState] {
        var intake = Intake()
        let outcomes = intake.lines(Array((lines.joined(separator: "\n") + "\n").utf8), source: "p.jsonl")
        return platforms.map { platform in
            var center = Center(profile: ProfileOptions().profile(platform))
            for outcome in outcomes { center.apply(outcome) }
            return center.state
        }
    }

    @Test func aPushRejectedEverywhereIsOneAndOneRejectedOnlyOnTheWebStillCounts() {
        let states = Self.states([#"{"nope":1}"#, #"{"title":"T","options":{"renotify":true,"body":"b"}}"#,
                                  #"{"userId":"u","title":"t","body":"b"}"#])
        let summary = RejectionSummary(states)
        #expect(summary.count == 2)
        #expect(summary.errors.map(\.source) == ["p.jsonl:1", "p.jsonl:2"])
        #expect(summary.line == "2 of 3 pushes rejected: p.jsonl:1 unknown payload shape, p.jsonl:2 \(RejectionSummary.brief(summary.errors[1].reason))")
    }

    @Test func nothingRejectedNoLine() {
        #expect(RejectionSummary(Self.states([#"{"userId":"u","title":"t","body":"b"}"#])).line == nil)
    }

    @Test func moreThanThreeAreCountedAndTheRestElided() {
        let summary = RejectionSummary(Self.states(Array(repeating: "[1,", count: 5), platforms: [.android]))
        #expect(summary.line == "5 of 5 pushes rejected: p.jsonl:1 invalid JSON, p.jsonl:2 invalid JSON, p.jsonl:3 invalid JSON, …")
    }

    @Test(arguments: [
        ("unknown payload shape (top-level keys \"x\"): tried D1 …", "unknown payload shape"),
        ("invalid JSON (V8) at line 1, column 1: empty input", "invalid JSON"),
        ("PayloadTooLarge: 5000 bytes", "PayloadTooLarge"),
        ("refused", "refused"),
    ])
    func aReasonIsCutToItsFirstClause(reason: String, brief: String) {
        #expect(RejectionSummary.brief(reason) == brief)
    }
}
