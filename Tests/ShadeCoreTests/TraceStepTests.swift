import Testing
@testable import ShadeCore

/// Trace sentences are kept as facts and worded when read; these are the words each fact reads as.
struct TraceStepTests {
    static let worded: [(TraceFact, String)] = [
        (.said("aps.alert is a string: it is the body"), "aps.alert is a string: it is the body"),
        (.plainNotification(groupBy: nil, data: JSONObject()), "no conversationId: a plain notification, shown exactly as before"),
        (.plainNotification(groupBy: "data.room", data: JSONObject(["senderId": .string("u1")])),
         "no data.room: a plain notification, shown exactly as before; the sender keys are ignored"),
        (.conversationsNeedNewerSDK(sdk: Version(0, 1, 20), needed: Version(0, 1, 22)),
         "SDK 0.1.20 is older than 0.1.22, which conversations need: the keys are ignored and a plain notification is shown"),
        (.conversationID("room_7", groupBy: nil), "conversationId room_7"),
        (.conversationID("room_7", groupBy: "data.room"), "conversationId room_7 (from --group-by data.room)"),
        (.sender("Sara", fromTitle: false), "sender Sara"),
        (.sender("Sara", fromTitle: true), "no senderName: the push title \"Sara\" is the sender"),
        (.senderPhoto(url: "https://x.example/a.png"), "sender photo https://x.example/a.png"),
        (.senderInitials("S", color: 2), "no https senderAvatarUrl: initials S in colour 2 (N1, N2)"),
        (.group(title: nil), "a group"),
        (.group(title: "Family"), "a group named Family (C5)"),
        (.joinedConversation("room_7", kept: 25), "joined conversation room_7: 25 messages kept (newest 25)"),
        (.tagReplaced("t1", collapseKey: false, pushes: 3), "tag t1 replaced the notification shown with the same tag (3 pushes so far)"),
        (.tagReplaced("k1", collapseKey: true, pushes: 2),
         "collapse key k1 replaced the notification shown with the same collapse key (2 pushes so far); the IM SDK's payload format: Android merges same-type messages by collapseKey"),
        (.tagged("t1", collapseKey: false), "tag t1: a later push with this tag replaces this one"),
        (.tagged("k1", collapseKey: true), "collapse key k1: a later push with this collapse key replaces this one"),
        (.bundled(count: 4, app: "com.a", bundleAt: 4), "4 notifications of com.a (bundled from 4): one app summary"),
        (.appLimit(app: "com.a", removed: "Old"), "more than 50 notifications for com.a: the oldest (Old) was removed"),
        (.webConversation("room_7", replaced: true), "replaced the conversation's notification (tag room_7), keeping the earlier lines (at most 5)"),
        (.webConversation("room_7", replaced: false), "one notification for conversation room_7, tagged with its id"),
        (.actionsCut(given: 3), "3 actions given; Chrome shows the first 2"),
        (.groupedByConversation("room_7"), "grouped by conversation room_7"),
        (.groupedByThread("th1"), "grouped by aps.thread-id th1"),
        (.stackedByApp("com.a"), "no conversation or thread-id: stacked with the other notifications of com.a"),
        (.communicationLook(group: false, photo: true), "communication notification: sender name as title, sender photo"),
        (.communicationLook(group: true, photo: false), "communication notification: group name as title, sender initials"),
        (.iosTooOldForCommunicationLook(Version(14)), "no communication look (iOS 14 is older than 15): the app icon and the push's own title"),
        (.collapseReplaced("c1"), "apns-collapse-id c1 replaced the notification shown with the same id"),
        (.interruptionLevelMarked(.timeSensitive), "interruption-level time-sensitive: marked"),
        (.readAsAPNs(origin: "$.message.apns.payload"), "read as an APNs payload at $.message.apns.payload"),
        (.apnsShowsNothing(badge: true, sound: false), "the payload has only a badge: nothing is shown in the Notification Center"),
        (.apnsShowsNothing(badge: false, sound: true), "the payload has only a sound: the sound plays, but nothing is shown in the Notification Center"),
        (.apnsShowsNothing(badge: true, sound: true), "the payload has a badge and a sound but no alert: the sound plays, but nothing is shown in the Notification Center"),
        (.literalWins(field: "body", over: LocRef(key: "im_text", args: [], path: "$.aps.alert.loc-key")),
         "the literal body wins over im_text ($.aps.alert.loc-key)"),
        (.localizerNote(field: "title", note: "L5: no string im_title in the tables"), "title: no string im_title in the tables"),
        (.leftEmpty(field: "title"), "the title is left empty on Android"),
    ]

    @Test(arguments: worded)
    func aFactReadsAsItsSentence(fact: TraceFact, sentence: String) {
        #expect(TraceStep("X1", fact).description == "[X1] " + sentence)
    }

    @Test func stepsAreEqualWhenTheyReadTheSame() {
        #expect(TraceStep("C1", .conversationID("room_7", groupBy: nil)) == TraceStep("C1", "conversationId room_7"))
        #expect(TraceStep("C1", .conversationID("room_7", groupBy: nil)) != TraceStep("C2", "conversationId room_7"))
        var step = TraceStep("I1", .groupedByThread("th1"))
        step.text = "rewritten"
        #expect(step == TraceStep("I1", "rewritten"))
    }

    /// An item keeps the newest 64 steps, oldest first, however many pushes went in.
    @Test func anItemKeepsTheNewest64StepsInOrder() {
        func steps(_ range: ClosedRange<Int>) -> [TraceStep] { range.map { TraceStep("X\($0)", "step \($0)") } }
        var item = Item(id: "i", kind: .plain, key: "k", app: "a")
        item.note(steps(1...40), push: nil)
        item.note(steps(41...100), push: nil)
        item.note(steps(101...103), push: nil)
        #expect(item.trace == steps(40...103))
        var same = Item(id: "i", kind: .plain, key: "k", app: "a")
        same.note(steps(40...103), push: nil)
        #expect(item == same)
        // A trace set longer than the limit is kept whole until the next step.
        item.trace = steps(1...70)
        #expect(item.trace.count == 70)
        item.note(steps(71...71), push: nil)
        #expect(item.trace == steps(8...71))
    }
}
