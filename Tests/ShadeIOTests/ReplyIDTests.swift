import Testing
@testable import ShadeIO
import ShadeCore

/// The `apns-id` every APNs reply carries (and Expo's ticket ids): the push number in the last
/// group, the recipient's index in the second, uppercase hex, as it always was.

/// The reading it had, built from formatted strings: the oracle.
private func spelledUUID(prefix: UInt32, id: Int, recipient: Int) -> String {
    func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return hex(UInt64(prefix), width: 8) + "-" + hex(UInt64(min(max(recipient, 0), 0xFFFF)), width: 4) + "-4000-8000-"
        + hex(UInt64(max(0, id)), width: 12)
}

@Test(arguments: [0, 1, 15, 16, 4095, 1 << 47, (1 << 48) - 1, 1 << 48, Int.max, -5])
func theReplyIDSpellsThePushNumberInItsLastGroup(id: Int) {
    for prefix: UInt32 in [0, 0xA1B2_C3D4, .max] {
        let replies = RouteReplies(uuidPrefix: prefix)
        for recipient in [0, 1, 0xFFFF, 70_000, -1] {
            #expect(replies.uuid(for: id, recipient: recipient) == spelledUUID(prefix: prefix, id: id, recipient: recipient))
        }
    }
}

@Test(arguments: [
    (["apns-push-type": "voip"], true), (["apns-push-type": "VoIP"], true), (["apns-push-type": "VOIP"], true),
    (["apns-push-type": "alert"], false), (["apns-push-type": "voipx"], false), (["apns-push-type": "voi"], false),
    (["apns-topic": "com.example.app.voip"], true), (["apns-topic": "com.example.app.VOIP"], false),
    (["apns-topic": ".voip"], true), (["apns-topic": "voip"], false), (["apns-topic": "com.example.app.voip\u{301}"], false),
    (["apns-topic": "com.example.app"], false), ([:], false),
] as [([String: String], Bool)])
func I7_aVoIPPushIsItsPushTypeOrATopicEndingInDotVoip(headers: [String: String], voip: Bool) {
    #expect(ServiceRules.isVoIP(headers: HeaderFields(headers)) == voip)
    // As it read before: a lowercase copy of the type, the topic's suffix compared by characters.
    #expect(voip == (headers["apns-push-type"]?.lowercased() == "voip" || (headers["apns-topic"]?.hasSuffix(".voip") ?? false)))
}

@Test(arguments: [0, 1, 9, 10, 99, 100, 12_345, Int.max, -1, Int.min])
func anAcceptedPushGetsTheGenericRepliesSpacedJSON(id: Int) {
    // Written straight for speed; the tree `generic` builds, spaced as every reply is, is the oracle.
    var intake = Intake()
    let push = intake.value(.object(JSONObject(["aps": .object(JSONObject(["alert": .string("hi")]))])),
                              source: SourcePosition(name: "t", line: 1))
    guard case .push(var accepted) = push.first else { Issue.record("no push"); return }
    accepted.id = id
    let replies = RouteReplies(uuidPrefix: 7)
    let expected = RouteReplies.textBytes(replies.generic([.accepted(accepted)], isBatch: false))
    #expect(String(decoding: replies.genericBytes([.accepted(accepted)], isBatch: false), as: UTF8.self)
            == String(decoding: expected, as: UTF8.self))
    #expect(String(decoding: RouteReplies.accepted(id: id), as: UTF8.self) == #"{"ok": true, "id": \#(id)}"#)
}
