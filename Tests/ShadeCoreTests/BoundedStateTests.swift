import Testing
@testable import ShadeCore

/// Nothing grows with the number of pushes beyond what a device keeps (issue 13, bounded state).
@Suite struct BoundedStateTests {
    static func apns(_ body: String, thread: String = "th", collapse: String? = nil) -> String {
        let headers = collapse.map { #"{"apns-collapse-id": "\#($0)"}"# } ?? "{}"
        return #"{"via": "apns", "headers": \#(headers), "payload": {"aps": {"alert": {"title": "T", "body": "\#(body)"}, "thread-id": "\#(thread)"}}}"#
    }

    @Test func iOSStackKeepsTheNewest64NotificationsAndCountsTheRestInTotal() throws {
        let pushes = (1...70).map { Self.apns("m\($0)") }.joined(separator: "\n")
        let state = center(pushes, Profile(platform: .ios)).state
        let stack = try #require(state.items.first)
        #expect(Center.iosStackLimit == 64)
        #expect(stack.lines.count == 64)
        #expect(stack.lines.first?.text == "m7")
        #expect(stack.lines.last?.text == "m70")
        #expect(stack.total == 70)
        #expect(state.shown == 64)
        #expect(state.received == 70)
    }

    @Test func I4_aCollapseIdWhoseNotificationWasDroppedReplacesNothing() throws {
        // c1 is the oldest notification; 64 newer ones push it out of the stack.
        let pushes = [Self.apns("first", collapse: "c1")] + (1...64).map { Self.apns("m\($0)") } + [Self.apns("again", collapse: "c1")]
        var ios = center(pushes.joined(separator: "\n"), Profile(platform: .ios))
        let stack = try #require(ios.state.items.first)
        #expect(stack.lines.count == 64)
        #expect(stack.lines.last?.text == "again")
        #expect(!stack.lines.contains { $0.text == "first" })
        #expect(!stack.trace.contains { $0.description.contains("replaced the notification shown") })
        #expect(stack.total == 66)
        // The bookkeeping follows: the kept c1 line is the only one, and a third c1 replaces exactly it.
        #expect(ios.collapsedLines.count == 1)
        var intake = Intake(firstID: 100)
        for outcome in intake.lines(Array((Self.apns("third", collapse: "c1") + "\n").utf8), source: "t.jsonl") { ios.apply(outcome) }
        let after = try #require(ios.state.items.first)
        #expect(after.lines.filter { $0.collapseID == "c1" }.map(\.text) == ["third"])
        #expect(after.lines.count == 64)
    }

    @Test func I4_aCollapseIdStillKeptIsReplacedAfterOlderLinesAreDropped() throws {
        let pushes = (1...63).map { Self.apns("m\($0)") } + [Self.apns("keep", collapse: "c2"), Self.apns("x"), Self.apns("y"), Self.apns("new", collapse: "c2")]
        let stack = try #require(center(pushes.joined(separator: "\n"), Profile(platform: .ios)).state.items.first)
        #expect(stack.lines.filter { $0.collapseID == "c2" }.map(\.text) == ["new"])
        #expect(stack.lines.count == 64)
        #expect(stack.total == 67)
    }

    @Test(arguments: Platform.allCases)
    func errorsListTheFirst1000AndRejectedCountsThemAll(platform: Platform) {
        let lines = (1...1005).map { "{\"bad\": \($0)," }.joined(separator: "\n") + "\n"
        let c = center(lines, Profile(platform: platform))
        let state = c.state
        #expect(Center.errorLimit == 1000)
        #expect(state.rejected == 1005)
        #expect(state.errors.count == 1000)
        #expect(state.errors.first?.source == "t.jsonl:1")
        #expect(state.errors.last?.source == "t.jsonl:1000")
        #expect(state.lastError?.source == "t.jsonl:1005")
        guard case .object(let json) = StateJSON.value(state) else { Issue.record("not an object"); return }
        #expect(json["errors"]?.array?.count == 1000)
    }
}
