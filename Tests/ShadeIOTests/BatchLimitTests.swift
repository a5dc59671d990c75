import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// Issue 10, finding 4: one 1 MiB POST of 349,524 `{}` got a 124 MB reply, held the loop for 17.7 s and
// left 355 MB behind. A batch over ServiceRules.batchLimit pushes (Expo: 100) is refused whole with
// 413 before any push is taken; a batch reply names its first refusals and counts the rest.

private func session() -> LiveSession {
    let clock = ManualClock(now: fixedReceivedMillis)
    return LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: nil, clock: clock, wallClock: clock)
}

private func post(_ session: LiveSession, _ path: String, _ body: String) -> HTTPResponse {
    session.respond(to: HTTPRequest(method: "POST", target: path, body: bytes(body)), from: ConnectionInfo(id: 1, transport: .unix))
}

private func batch(_ count: Int, of element: String = "{}") -> String {
    "[" + Array(repeating: element, count: count).joined(separator: ",") + "]"
}

private let tooMany = "a batch of 1001 pushes: Shade takes at most 1000 in one request or NDJSON line (as FCM takes 1000 "
    + "registration_ids at most) — send them in several"

@Test(arguments: [
    ("/push", #"{"ok": false, "error": "\#(tooMany)"}"#),
    ("/push/send-to-user", #"{"ok": false, "error": "\#(tooMany)"}"#),
    ("/3/device/00ff", #"{"reason": "PayloadTooLarge", "message": "\#(tooMany)"}"#),
    ("/fcm/send", #"{"error": "\#(tooMany)"}"#),
    ("/v1/projects/p/messages:send", #"{"error": {"code": 413, "message": "\#(tooMany)", "status": "INVALID_ARGUMENT"}}"#),
])
func finding4_aBatchOverTheLimitIsRefusedWholeWith413(path: String, reply: String) {
    let shade = session()
    let response = post(shade, path, batch(1001, of: #"{"data":{"k":"v"}}"#))
    #expect(response.status == 413)
    #expect(text(response.body) == reply)
    // Counted as one rejected request; no push was taken.
    #expect(shade.acceptedCount == 0)
    #expect(shade.refusedCount == 1)
    // Where the service delivers: APNs reaches iOS only, and the others count it elsewhere.
    let reached: Platform = path.hasPrefix("/3/") ? .ios : .android
    #expect(shade.center(reached).state.received == 1)
    #expect(shade.center(reached).errors.map(\.reason) == [tooMany])
    #expect(shade.center(.web).state.elsewhere == (path.hasPrefix("/3/") ? 1 : 0))
}

@Test func finding4_expoTakesAHundredMessagesARequestAsExpoDoes() {
    let shade = session()
    let message = #"{"to":"ExponentPushToken[a]","title":"T","body":"B"}"#
    let refused = post(shade, "/--/api/v2/push/send", batch(101, of: message))
    #expect(refused.status == 413)
    #expect(text(refused.body) == #"{"errors": [{"code": "PUSH_TOO_MANY_NOTIFICATIONS", "message": "You can send a maximum of 100 notifications per request (received 101); divide your requests."}]}"#)
    let taken = post(shade, "/--/api/v2/push/send", batch(100, of: message))
    #expect(taken.status == 200)
    #expect(shade.acceptedCount == 100)
}

@Test func finding4_theLimitItselfIsTakenAndItsReplyStaysSmall() {
    let shade = session()
    let accepted = post(shade, "/push", batch(1000, of: #"{"data":{"k":"v"}}"#))
    #expect(accepted.status == 200)
    #expect(text(accepted.body) == #"{"ok": true, "ids": ["# + (1...1000).map(String.init).joined(separator: ", ") + "]}")
    // 1000 refusals: the first ten say why, the rest are counted.
    let refused = post(shade, "/push", batch(1000))
    #expect(refused.status == 400)
    let body = text(refused.body)
    #expect(body.utf8.count < 25_000)   // ten reasons and a thousand ids, not a thousand reasons
    #expect(body.hasSuffix(#"D8 data-only (\"data\" object); and 990 more elements refused (every reason is in GET /state's errors)"}"#), "\(body.suffix(300))")
    #expect(body.components(separatedBy: "unknown payload shape").count == 11)
    #expect(shade.center(.android).rejected == 1000)
}

@Test func finding4_fcmLegacyResultsStayOnePerMessageAndExplainTheFirstTen() throws {
    let shade = session()
    let response = post(shade, "/fcm/send", batch(1000))
    #expect(response.status == 200)
    let results = try JSONParser.parse(response.body)["results"]?.array ?? []
    #expect(results.count == 1000)
    #expect(results.filter { $0["message"] != nil }.count == 10)
    #expect(response.body.count < 60_000)
}

@Test func finding4_anNDJSONLineIsHeldToTheSameLimit() {
    let shade = session()
    let reply = shade.respond(toLine: bytes(batch(1001)), lineNumber: 3, from: ConnectionInfo(id: 2, transport: .unix))
    #expect(text(reply) == #"{"ok": false, "error": "\#(tooMany)"}"#)
    #expect(shade.center(.ios).errors.map(\.source.description) == ["unix#2:3"])
    // Nested arrays count every push they hold.
    let nested = "[" + Array(repeating: #"[{"payload":{"aps":{}}},{}]"#, count: 501).joined(separator: ",") + "]"
    #expect(Intake.pushCount(try! JSONParser.parse(nested)) == 1002)
    let again = shade.respond(toLine: bytes(nested), lineNumber: 4, from: ConnectionInfo(id: 2, transport: .unix))
    #expect(text(again).hasPrefix(#"{"ok": false, "error": "a batch of 1002 pushes"#))
}

@Test func finding4_tokensOfOnePushCountAsTheMessagesTheyAre() {
    let shade = session()
    let tokens = (1...1001).map { #""t\#($0)""# }.joined(separator: ",")
    let legacy = post(shade, "/fcm/send", #"{"registration_ids":[\#(tokens)],"notification":{"title":"T","body":"B"}}"#)
    #expect(legacy.status == 413)
    #expect(text(legacy.body).hasPrefix(#"{"error": "a batch of 1001 messages (a push to several tokens is one per token)"#))
    let expoTokens = (1...101).map { #""ExponentPushToken[\#($0)]""# }.joined(separator: ",")
    let expo = post(shade, "/--/api/v2/push/send", #"{"to":[\#(expoTokens)],"title":"T"}"#)
    #expect(expo.status == 413)
    #expect(text(expo.body).contains("(received 101)"))
    #expect(shade.acceptedCount == 0)
}

/// The count is taken on the tape only when a body is long enough to hold more than the limit: the
/// shortest batch over it, 1001 bare values (`[1,1,…]`, 2003 bytes, each a rejection), is still counted
/// and refused, and one value fewer is read as pushes.
@Test func finding4_theShortestBatchOverTheLimitIsStillCounted() {
    var intake = Intake()
    let over = "[" + Array(repeating: "1", count: 1001).joined(separator: ",") + "]"
    let at = "[" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]"
    #expect(intake.pushCount(bytes(over), ifOver: 1000) == 1001)
    #expect(intake.pushCount(bytes(at), ifOver: 1000) == nil)
    #expect(intake.pushCount(bytes("[1,1,1"), ifOver: 1) == nil)   // not JSON: the intake says where
    #expect(intake.pushCount(bytes(#"[{"payload":{"aps":{}}},{},[{}]]"#), ifOver: 2) == 3)   // envelopes and arrays counted through
    let shade = session()
    let reply = shade.respond(toLine: bytes(over), lineNumber: 1, from: ConnectionInfo(id: 2, transport: .unix))
    #expect(text(reply) == #"{"ok": false, "error": "\#(tooMany)"}"#)
}
