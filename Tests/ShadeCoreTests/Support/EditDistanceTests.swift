import Testing
@testable import ShadeCore

/// The one edit distance the command line and lint's did-you-mean (V9) share.
struct EditDistanceTests {
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("alert", "alert", 0),
        ("aler", "alert", 1), ("alret", "alert", 2), ("thread_id", "thread-id", 1),
        ("conversationID", "conversationId", 1), ("--sise", "--size", 1), ("王小明", "王小", 1), ("kitten", "sitting", 3),
    ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(editDistance(a, b) == expected)
        #expect(editDistance(b, a) == expected)
    }

    @Test func closestIsTheNearestWithinTheLimitAndTheFirstOfEquals() {
        #expect(closest(to: "aler", among: ["badge", "alert", "sound"], limit: 1) == "alert")
        #expect(closest(to: "stat", among: ["state", "start"], limit: 2) == "state")
        #expect(closest(to: "zzz", among: ["state", "start"], limit: 2) == nil)
        #expect(closest(to: "x", among: [String](), limit: 5) == nil)
    }
}
