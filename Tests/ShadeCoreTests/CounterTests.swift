import Testing
@testable import ShadeCore

/// DESIGN.md counters: `received` counts every push (batch elements, rejected ones included);
/// `shown` counts the notifications on screen now.
struct CounterTests {
    static let session = [
        #"{"aps":{"alert":"cut short"}"#,
        #"{"hello":"world"}"#,
        #"{"aps":{"alert":{"title":"T","body":"ios"}}}"#,
        #"{"to":"t","notification":{"title":"T","body":"android"}}"#,
        #"{"data":{"sync":"1"}}"#,
        #"{"headers":{"apns-push-type":"voip"},"payload":{"aps":{},"callerName":"Alice"}}"#,
        #"[{"userId":"u","title":"A","body":"a"},{"userId":"u","title":"B","body":"b"}]"#,
    ].joined(separator: "\n")

    @Test func receivedIncludesRejectedAndElsewhere() {
        let counters = centers(Self.session, everyPlatform).map { center in
            digest(center.state).split(separator: "\n").first.map(String.init) ?? ""
        }
        #expect(counters == [
            "android received=8 shown=3 silent=1 calls=0 rejected=2 elsewhere=2 badge=0",
            // The FCM legacy notification reaches iOS too (SPEC §1).
            "ios received=8 shown=4 silent=1 calls=1 rejected=2 elsewhere=0 badge=0",
            "web received=8 shown=2 silent=1 calls=0 rejected=2 elsewhere=3 badge=0",
        ])
    }

    @Test func shownCountsWhatIsOnScreenAfterReplacementCapsAndDismissal() throws {
        let session = [
            sendToUser(title: "@ali", body: "one", data: #""conversationId":"room_42","senderName":"@ali""#),
            sendToUser(title: "@ali", body: "two", data: #""conversationId":"room_42","senderName":"@ali""#),
            #"{"to":"t","notification":{"title":"T","body":"1","tag":"x"}}"#,
            #"{"to":"t","notification":{"title":"T","body":"2","tag":"x"}}"#,
            #"{"to":"t","notification":{"title":"T","body":"3"}}"#,
        ].joined(separator: "\n")
        var android = center(session)
        // A conversation is one; a tag replaced its notification: one.
        #expect(android.state.shown == 3)
        let conversation = try #require(android.state.items.first { $0.kind == .conversation })
        android.dismiss(itemID: conversation.id)
        #expect("\(android.state.shown) \(android.state.received)" == "2 5")
        android.clearAll()
        #expect("\(android.state.shown) \(android.state.received) \(android.state.items.count)" == "0 5 0")

        // iOS: each notification in a stack is one: the conversation's 2, and the 3 FCM legacy pushes
        // (which reach iOS too, SPEC §1; their tag is Android's, so none replaces another).
        #expect(center(session, Profile(platform: .ios)).state.shown == 5)
    }

    @Test func dismissingABundleTakesItsChildren() throws {
        let session = (1...5).map { #"{"to":"t","notification":{"title":"N\#($0)","body":"b"}}"# } + [
            sendToUser(title: "@ali", body: "hi", data: #""conversationId":"room_42""#),
        ]
        var android = center(session.joined(separator: "\n"))
        let bundle = try #require(android.state.items.first { $0.kind == .bundle })
        #expect(android.state.shown == 6)
        android.dismiss(itemID: bundle.id)
        #expect(android.state.items.map(\.key) == ["room_42"])
        #expect(android.state.shown == 1)
    }
}
