import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// The replies the real services give (DESIGN, wave 2): compressed bodies, a ticket or result per
// recipient, Expo receipts, unregistered tokens, --strict-auth. Real sockets, real curl.

/// `bytes` compressed by the system's python3 zlib: "gzip", "deflate" (zlib-wrapped) or "raw" deflate.
func compressed(_ text: String, _ coding: String) throws -> String {
    let path = temporaryFile("body.\(coding)")
    let program = """
    import sys, zlib, gzip
    def raw(data):
        stream = zlib.compressobj(9, zlib.DEFLATED, -15)
        return stream.compress(data) + stream.flush()
    data = sys.stdin.buffer.read()
    out = {"gzip": gzip.compress, "deflate": zlib.compress, "raw": raw}[sys.argv[1]](data)
    open(sys.argv[2], "wb").write(out)
    """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", program, coding, path]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return path
}

@Test(.enabled(if: curlAvailable), arguments: [
    ("/push", #"{"aps":{"alert":"hi"}}"#, "gzip", #"200 {"ok": true, "id": 1}"#),
    ("/push", #"{"aps":{"alert":"hi"}}"#, "deflate", #"200 {"ok": true, "id": 1}"#),
    ("/3/device/00ff", #"{"aps":{"alert":"hi"}}"#, "gzip", "200 "),
    ("/fcm/send", #"{"to":"tok","notification":{"title":"T"}}"#, "gzip",
     #"200 {"multicast_id": 1, "success": 1, "failure": 0, "canonical_ids": 0, "results": [{"message_id": "0:1"}]}"#),
])
func compressedBodiesAreReadOnEveryRoute(path: String, body: String, coding: String, expected: String) throws {
    let server = try LiveServer()
    defer { server.stop() }
    let file = try compressed(body, coding)
    #expect(try curlRequest([server.base + path, "-H", "Content-Encoding: \(coding)", "--data-binary", "@" + file]).description == expected)
}

@Test(.enabled(if: curlAvailable)) func expoSDKsGzippedBatchGetsATicketPerMessage() throws {
    let server = try LiveServer()
    defer { server.stop() }
    // Expo's Node SDK gzips bodies over 1 KiB: a batch of 20 messages is well over.
    let messages = (1...20).map { #"{"to":"ExponentPushToken[t\#($0)]","title":"Order \#($0)","body":"shipped"}"# }
    let file = try compressed("[" + messages.joined(separator: ",") + "]", "gzip")
    let reply = try curlRequest([server.base + "/--/api/v2/push/send", "-H", "Content-Encoding: gzip", "--data-binary", "@" + file])
    let tickets = try JSONParser.parse(reply.body)["data"]?.array ?? []
    #expect(tickets.count == 20)
    #expect(tickets.allSatisfy { $0["status"]?.string == "ok" })
}

@Test(.enabled(if: curlAvailable)) func aZipBombIsRefusedWith413WithoutInflatingPastTheLimit() throws {
    let server = try LiveServer()
    defer { server.stop() }
    // 8 MiB of one letter: a few KiB of gzip that inflates to eight times the 1 MiB limit.
    let file = try compressed(#"{"aps":{"alert":""# + String(repeating: "x", count: 8 << 20) + #""}}"#, "gzip")
    #expect(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? .max < 64 << 10)
    let reply = try curlRequest([server.base + "/push", "-H", "Content-Encoding: gzip", "--data-binary", "@" + file])
    #expect(reply.description == #"413 {"error": "the gzip body inflates past the limit of 1048576 bytes (1 MiB); it was not read further"}"#)
    let state = try server.state()
    #expect(["received", "rejected"].map { compact(state[$0]) } == ["1", "1"])
}

@Test(.enabled(if: curlAvailable), arguments: [
    ("gzip", "not gzip at all", #"400 {"error": "the body is not gzip data as Content-Encoding says (zlib: incorrect header check)"}"#),
    ("br", "{}", #"415 {"error": "Content-Encoding br is not supported: send the body as it is, or gzip or deflate it"}"#),
])
func bodiesThatAreNotWhatTheirEncodingSaysAreRefused(coding: String, body: String, expected: String) throws {
    let server = try LiveServer()
    defer { server.stop() }
    #expect(try curlRequest([server.base + "/push", "-H", "Content-Encoding: \(coding)", "--data-binary", body]).description == expected)
}

@Test(.enabled(if: curlAvailable)) func rawDeflateIsAcceptedTooAsSomeClientsSendIt() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let file = try compressed(#"{"aps":{"alert":"hi"}}"#, "raw")
    #expect(try curlRequest([server.base + "/push", "-H", "Content-Encoding: deflate", "--data-binary", "@" + file]).description
        == #"200 {"ok": true, "id": 1}"#)
}

/// The per-session first group of the UUIDs as "UUID".
func withoutSessionPrefix(_ text: String) -> String {
    text.replacingOccurrences(of: #"[0-9A-F]{8}-([0-9A-F]{4})-4000-8000-"#, with: "UUID-$1-", options: .regularExpression)
}

@Test(.enabled(if: curlAvailable)) func expoToAnArrayGetsATicketPerRecipientAndReceiptsForThem() throws {
    let server = try LiveServer(unregistered: ["ExponentPushToken[gone]"])
    defer { server.stop() }
    let send = try curlRequest([server.base + "/--/api/v2/push/send", "--data-binary",
                                #"{"to":["ExponentPushToken[a]","ExponentPushToken[gone]","ExponentPushToken[b]"],"title":"T","body":"B"}"#])
    #expect(withoutSessionPrefix(send.description) == #"200 {"data": [{"status": "ok", "id": "UUID-0000-000000000001"}, {"status": "error", "message": "\"ExponentPushToken[gone]\" is not a registered push notification recipient", "details": {"error": "DeviceNotRegistered", "expoPushToken": "ExponentPushToken[gone]"}}, {"status": "ok", "id": "UUID-0002-000000000001"}]}"#)
    let ids = (try JSONParser.parse(send.body)["data"]?.array ?? []).compactMap { $0["id"]?.string }
    #expect(ids.count == 2)
    let receipts = try curlRequest([server.base + "/--/api/v2/push/getReceipts", "--data-binary",
                                    #"{"ids": ["\#(ids[1])", "00000000-0000-4000-8000-000000000009", "\#(ids[0])"]}"#])
    // Unknown ids are left out; the known ones answer in the order asked.
    #expect(receipts.description == #"200 {"data": {"\#(ids[1])": {"status": "ok"}, "\#(ids[0])": {"status": "ok"}}}"#)
    #expect(try curlRequest([server.base + "/--/api/v2/push/getReceipts", "--data-binary", #"{"id": []}"#]).description
        == #"400 {"errors": [{"code": "VALIDATION_ERROR", "message": "getReceipts takes {\"ids\": [\"TICKET_ID\", …]}: the ids of the tickets push/send answered"}]}"#)
    // One push, shown once: the device Shade simulates is one of the recipients.
    #expect(compact(try server.state()["received"]) == "1")
}

@Test(.enabled(if: curlAvailable), arguments: [
    // FCM legacy: a result per registration id, success and failure to match.
    ("/fcm/send", #"{"registration_ids":["a","gone","c"],"notification":{"title":"T"}}"#,
     #"200 {"multicast_id": 1, "success": 2, "failure": 1, "canonical_ids": 0, "results": [{"message_id": "0:1%1"}, {"error": "NotRegistered"}, {"message_id": "0:1%3"}]}"#),
    ("/fcm/send", #"{"to":"gone","notification":{"title":"T"}}"#,
     #"200 {"multicast_id": 0, "success": 0, "failure": 1, "canonical_ids": 0, "results": [{"error": "NotRegistered"}]}"#),
    // FCM v1: 404 NOT_FOUND with the FcmError detail firebase-admin turns into UnregisteredError.
    ("/v1/projects/p/messages:send", #"{"message":{"token":"gone","notification":{"title":"T"}}}"#,
     #"404 {"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}"#),
    // APNs: 410 Unregistered with the time the token stopped being valid.
    ("/3/device/0abc", #"{"aps":{"alert":"hi"}}"#, #"410 {"reason": "Unregistered", "timestamp": 1796033700120}"#),
    ("/--/api/v2/push/send", #"{"to":"ExponentPushToken[gone]","title":"T"}"#,
     #"200 {"data": [{"status": "error", "message": "\"ExponentPushToken[gone]\" is not a registered push notification recipient", "details": {"error": "DeviceNotRegistered", "expoPushToken": "ExponentPushToken[gone]"}}]}"#),
])
func unregisteredTokensAreAnsweredAsEachServiceAnswersThem(path: String, body: String, expected: String) throws {
    let server = try LiveServer(unregistered: ["gone", "0abc", "ExponentPushToken[gone]"])
    defer { server.stop() }
    #expect(try curlRequest([server.base + path, "--data-binary", body]).description == expected)
}

@Test(.enabled(if: curlAvailable)) func aPushToUnregisteredTokensOnlyIsNotRecorded() throws {
    let server = try LiveServer(record: true, unregistered: ["0abc"])
    defer { server.stop() }
    _ = try curlRequest([server.base + "/3/device/0abc", "-d", #"{"aps":{"alert":"gone"}}"#])
    _ = try curlRequest([server.base + "/3/device/0def", "-d", #"{"aps":{"alert":"here"}}"#])
    #expect(server.stop())
    let lines = try String(contentsOfFile: server.recordPath!, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.contains(#""path":"/3/device/0def""#) == true)
}

@Test(.enabled(if: curlAvailable), arguments: [
    ("/3/device/00ff", [String](), #"{"aps":{"alert":"hi"}}"#, #"403 {"reason": "MissingProviderToken"}"#),
    ("/3/device/00ff", ["-H", "authorization: bearer x.y"], #"{"aps":{"alert":"hi"}}"#, #"403 {"reason": "InvalidProviderToken"}"#),
    ("/v1/projects/p/messages:send", [], #"{"message":{"token":"t","notification":{"title":"T"}}}"#,
     #"401 {"error": {"code": 401, "message": "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. (Authorization: Bearer ACCESS_TOKEN)", "status": "UNAUTHENTICATED"}}"#),
    ("/v1/projects/p/messages:send", ["-H", "Authorization: Bearer ya29.token"], #"{"message":{"token":"t","notification":{"title":"T"}}}"#,
     #"200 {"name": "projects/p/messages/1"}"#),
    ("/push/send-to-user", ["-H", "x-api-key: k"], #"{"userId":"u","title":"T","body":"B"}"#,
     #"401 {"ok": false, "error": "unauthorized: the push service requires x-api-key and x-server-secret; x-server-secret empty or missing"}"#),
    ("/push/send-to-user", ["-H", "x-server-secret: s"], #"{"userId":"u","title":"T","body":"B"}"#,
     #"401 {"ok": false, "error": "unauthorized: the push service requires x-api-key and x-server-secret; x-api-key empty or missing"}"#),
    ("/push/send-to-user", [], #"{"userId":"u","title":"T","body":"B"}"#,
     #"401 {"ok": false, "error": "unauthorized: the push service requires x-api-key and x-server-secret; x-api-key and x-server-secret empty or missing"}"#),
    ("/push/send-to-user", ["-H", "x-api-key: k", "-H", "x-server-secret: s"], #"{"userId":"u","title":"T","body":"B"}"#,
     #"200 {"ok": true, "id": 1}"#),
] as [(String, [String], String, String)])
func strictAuthRefusesWhatTheServicesRefuse(path: String, arguments: [String], body: String, expected: String) throws {
    let server = try LiveServer(strictAuth: true)
    defer { server.stop() }
    #expect(try curlRequest([server.base + path, "--data-binary", body] + arguments).description == expected)
    // Refused for credentials: not a push for this receiver, so nothing is counted.
    #expect(compact(try server.state()["received"]) == (expected.hasPrefix("200") ? "1" : "0"))
}

@Test(.enabled(if: curlAvailable)) func aValidProviderTokenAndTopicPassStrictAuth() throws {
    let server = try LiveServer(strictAuth: true)
    defer { server.stop() }
    let token = providerToken(claims: #"{"iss":"DEF123GHIJ","iat":\#(Int64(Date().timeIntervalSince1970))}"#)
    #expect(try curlRequest([server.base + "/3/device/00ff", "-H", "authorization: bearer \(token)", "-d", #"{"aps":{"alert":"hi"}}"#]).description
        == #"400 {"reason": "MissingTopic"}"#)
    #expect(try curlRequest([server.base + "/3/device/00ff", "-H", "authorization: bearer \(token)", "-H", "apns-topic: com.example.app",
                             "-d", #"{"aps":{"alert":"hi"}}"#]).status == 200)
}

/// --fcm-quota: FCM counts messages per minute, refused ones too, and answers 429 RESOURCE_EXHAUSTED
/// with the QUOTA_EXCEEDED detail (firebase-admin's QuotaExceededError) once they are spent.
@Test(.enabled(if: curlAvailable)) func fcmQuotaCountsRefusedMessagesAndAnswers429QuotaExceededOnceSpent() throws {
    let server = try LiveServer(record: true, fcmQuota: 2)
    defer { server.stop() }
    let send = server.base + "/v1/projects/p/messages:send"
    #expect(try curlRequest([send, "--data-binary", #"{"message":{"token":"t","notification":{"title":"one"}}}"#]).description
        == #"200 {"name": "projects/p/messages/1"}"#)
    #expect(try curlRequest([send, "--data-binary", #"{"message":{"token":"t","data":{"from":"x"}}}"#]).status == 400)
    #expect(try curlRequest([send, "--data-binary", #"{"message":{"token":"t","notification":{"title":"three"}}}"#]).description
        == #"429 {"error": {"code": 429, "message": "Quota exceeded for the project's downstream messages (2 a minute).", "status": "RESOURCE_EXHAUSTED", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "QUOTA_EXCEEDED"}]}}"#)
    // Other services are not FCM's quota.
    #expect(try curlRequest([server.base + "/3/device/00ff", "-d", #"{"aps":{"alert":"apns"}}"#]).status == 200)
    #expect(compact(try server.state()["received"]) == "4")
    #expect(compact(try server.state()["rejected"]) == "2")
    #expect(server.stop())
    // A throttled message is not recorded: replay shows what the user got.
    let lines = try String(contentsOfFile: server.recordPath!, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
}

@Test func fcmQuotaIsAMinuteFromItsFirstMessageAndSaysWhenItRefills() throws {
    var quota = FCMQuota(limit: 2)
    let start: Int64 = 1_796_033_700_000
    #expect(quota.take(now: start) == nil)
    #expect(quota.take(now: start + 10_000) == nil)
    let answer = quota.take(now: start + 20_500)
    let throttled = try #require(answer)
    #expect(throttled.status == 429)
    #expect(throttled.message.hasSuffix("is over, in 40 s; back off and retry"))
    var answers: [Int?] = []
    for millis in [start + 59_999, start + 60_000, start + 60_001, start + 60_002] {
        answers.append(quota.secondsUntilRefill(now: millis))
        _ = quota.take(now: millis)
    }
    // Still throttled at 59.999 s (the 429s neither count nor move the minute); a new minute begins
    // with the next message at 60 s; its quota is spent by the third, which waits a whole minute.
    #expect(answers == [1, nil, nil, 60])
}

@Test(.enabled(if: curlAvailable), arguments: [
    (false, [String](), #"{"aps":{"alert":"hi"},}"#, 400),                 // BadPayload: invalid JSON
    (false, [], "", 400),                                                  // PayloadEmpty
    (false, ["-X", "PUT"], #"{"aps":{"alert":"hi"}}"#, 405),              // MethodNotAllowed
    (false, [], #"{"aps":{"alert":"\#(String(repeating: "x", count: 4100))"}}"#, 413),
    (true, [], #"{"aps":{"alert":"hi"}}"#, 403),                           // MissingProviderToken
    (false, [], #"{"aps":{"alert":"hi"}}"#, 200),
] as [(Bool, [String], String, Int)])
func everyAPNsReplyCarriesAnAPNsIDTheRequestsOwnWhenItSentOne(strictAuth: Bool, arguments: [String], body: String, status: Int) throws {
    // APNs answers each request with `apns-id`, its errors too: a client matches replies by it.
    let server = try LiveServer(strictAuth: strictAuth)
    defer { server.stop() }
    let made = try curlRequest([server.base + "/3/device/00ff", "--data-binary", body] + arguments)
    #expect(made.status == status)
    let id = made.headers["apns-id"] ?? ""
    #expect(id.count == 36 && id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12], "apns-id \(id)")
    let own = "123E4567-E89B-42D3-A456-426614174000"
    let echoed = try curlRequest([server.base + "/3/device/00ff", "--data-binary", body, "-H", "apns-id: \(own)"] + arguments)
    #expect(echoed.status == status)
    #expect(echoed.headers["apns-id"] == own)
}

@Test(.enabled(if: curlAvailable), arguments: [
    // An unreadable request counts where its service delivers: APNs to iOS, the others everywhere.
    ("/3/device/00ff", #"{"aps":{"alert":"hi"},}"#, "android 1/0/1 ios 1/1/0 web 1/0/1"),
    ("/3/device/00ff", "", "android 1/0/1 ios 1/1/0 web 1/0/1"),
    ("/push", #"{"aps":{"alert":"hi"},}"#, "android 1/1/0 ios 1/1/0 web 1/1/0"),
    ("/fcm/send", "{", "android 1/1/0 ios 1/1/0 web 1/1/0"),
])
func aRequestNoOneCouldReadIsRejectedOnThePlatformsItsServiceReaches(path: String, body: String, expected: String) throws {
    let server = try LiveServer()
    defer { server.stop() }
    #expect(try curlRequest([server.base + path, "--data-binary", body]).status == 400)
    let profiles = try server.state(platform: "all")["profiles"]?.array ?? []
    let counts = profiles.map { p in
        "\(p["platform"]?.string ?? "?") \(compact(p["received"]))/\(compact(p["rejected"]))/\(compact(p["elsewhere"]))"
    }
    #expect(counts.joined(separator: " ") == expected, "received/rejected/elsewhere")
}
