import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// The loopback routes of DESIGN.md against a LiveSession on real sockets, driven by real curl.
// Every curl call has --max-time 5; every server stops within 5 s.

/// Seed 000's curl example, verbatim but for the host (the shell expands the unset $ABROVA_… to nothing).
func seedCurlCommand(base: String) -> String {
    """
    curl -X POST \(base)/push/send-to-user \\
      -H "x-api-key: $ABROVA_API_KEY" \\
      -H "x-server-secret: $ABROVA_SERVER_SECRET" \\
      -H "content-type: application/json" \\
      -d '{"userId":"user_kian","title":"@ali","body":"Is the bike still available?",
           "data":{"conversationId":"room_42","senderName":"@ali","senderId":"user_ali",
                   "senderAvatarUrl":"https://cdn.example.com/avatars/ali.jpg"}}'
    """
}

func shell(_ command: String) throws -> CurlResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "unset ABROVA_API_KEY ABROVA_SERVER_SECRET; " + command.replacingOccurrences(of: "curl ", with: "curl --silent --show-error --max-time 5 ")]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CurlResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
}

let seedConversationItem = """
    {"kind":"conversation","key":"room_42","app":"app","title":"@ali","subtitle":null,"isGroup":false,\
    "avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},\
    "lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1,\
    "children":null,"level":null,"at":"2026-11-30T10:15:00.120Z","image":null,"category":null,"mutableContent":false}
    """

@Test(.enabled(if: curlAvailable)) func C1_seedCurlCommandMakesTheConversationAppear() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let result = try shell(seedCurlCommand(base: server.base))
    #expect(result.status == 0)
    #expect(result.stdout == "{\"ok\": true, \"id\": 1}")
    let state = try server.state()
    #expect(state["sections"]?.array?.map { $0["name"]?.string } == ["Conversations"])
    #expect(compact(item(state, section: "Conversations", key: "room_42")) == seedConversationItem)
    #expect(compact(state["received"]) == "1")
}

/// Issue 10, finding 7: `--api-key` guarded only send-to-user (and any non-empty secret passed).
@Test(.enabled(if: curlAvailable)) func finding7_apiKeyIsRequiredOverRealTCPAndNothingUnauthorizedIsCounted() throws {
    let server = try LiveServer(apiKey: "k-123")
    defer { server.stop() }
    let body = #"{"userId":"u","title":"T","body":"B"}"#
    let url = server.base + "/push/send-to-user"
    #expect(try curlRequest([url, "-d", body]).description
        == #"401 {"ok": false, "error": "unauthorized: this Shade was started with --api-key; send it in the x-api-key header"}"#)
    #expect(try curlRequest([url, "-H", "x-api-key: wrong", "-d", body]).description
        == #"401 {"ok": false, "error": "unauthorized: x-api-key is not the value this Shade was started with (--api-key)"}"#)
    #expect(try curlRequest([url, "-H", "x-api-key: k-123", "-d", body]).description == #"200 {"ok": true, "id": 1}"#)
    // Unauthenticated requests are not pushes: nothing else was counted. Reading needs no key.
    #expect(compact(try server.state()["received"]) == "1")
    #expect(try curlRequest([server.base + "/healthz"]).description == "200 ok")
}

let largeAlert = String(repeating: "x", count: 4100)

/// (path, extra curl arguments, body) → "status body" as curl saw it.
@Test(.enabled(if: curlAvailable), arguments: [
    // seed 000's service
    ("/push/send-to-user", [String](), #"{"userId":"u","title":"T","body":"B"}"#, #"200 {"ok": true, "id": 1}"#),
    ("/push/send-to-user", [], #"{"aps":{"alert":"hi"}}"#,
     #"400 {"ok": false, "error": "send-to-user takes {\"userId\": …, \"title\": …, \"body\": …, \"data\": {…}} (D3); got an APNs payload — POST it to /push, or add userId"}"#),
    // APNs
    ("/3/device/00ff", ["-H", "apns-push-type: alert"], #"{"aps":{"alert":{"title":"T","body":"B"}}}"#, "200 "),
    ("/3/device/00ff", [], #"{"aps":{"alert":"\#(largeAlert)"}}"#, #"413 {"reason": "PayloadTooLarge"}"#),
    ("/3/device/00ff", ["-H", "apns-collapse-id: \(String(repeating: "c", count: 65))"], #"{"aps":{"alert":"hi"}}"#,
     #"400 {"reason": "BadCollapseId"}"#),
    ("/3/device/00ff", ["-H", "apns-push-type: background", "-H", "apns-priority: 10"], #"{"aps":{"content-available":1}}"#,
     #"400 {"reason": "BadPriority"}"#),
    ("/3/device/00ff", [], "", #"400 {"reason": "PayloadEmpty"}"#),
    ("/3/device/not-hex", [], #"{"aps":{"alert":"hi"}}"#, #"400 {"reason": "BadDeviceToken"}"#),
    ("/3/device/", [], #"{"aps":{"alert":"hi"}}"#, #"400 {"reason": "MissingDeviceToken"}"#),
    ("/3/device/00ff", [], #"{"notification":{"title":"x"}}"#,
     #"400 {"reason": "BadPayload", "message": "APNs takes {\"aps\": {…}} (D4); got an FCM legacy message — put what it shows in \"aps\", or POST it to /push"}"#),
    ("/3/device/00ff", [], #"{"data":{"k":"v"}}"#,
     #"400 {"reason": "BadPayload", "message": "APNs takes {\"aps\": {…}} (D4); got a data-only message — put what it shows in \"aps\", or POST it to /push"}"#),
    ("/3/device/00ff", [], #"{"aps":{"alert":"hi"},}"#,
     #"400 {"reason": "BadPayload", "message": "invalid JSON (V8) at line 1, column 22: trailing comma before '}'"}"#),
    // FCM HTTP v1
    ("/v1/projects/demo/messages:send", [], #"{"message":{"token":"t","notification":{"title":"T","body":"B"}}}"#,
     #"200 {"name": "projects/demo/messages/1"}"#),
    ("/v1/projects/demo/messages:send", [], #"{"message":{"token":"t","data":{"n":3}}}"#,
     #"400 {"error": {"code": 400, "message": "Invalid value at 'message.data[0].value' (TYPE_STRING), 3", "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}]}}"#),
    ("/v1/projects/demo/messages:send", [], #"{"aps":{"alert":"hi"}}"#,
     #"400 {"error": {"code": 400, "message": "Invalid JSON payload received. the FCM v1 API takes {\"message\": {…}} (D2); got an APNs payload — wrap it in \"message\", or POST it to /push", "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}]}}"#),
    ("/v1/projects/demo/messages:send", [], "{", 
     #"400 {"error": {"code": 400, "message": "invalid JSON (V8) at line 1, column 2: unexpected end of input inside an object: expected a key", "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}]}}"#),
    // FCM legacy
    ("/fcm/send", [], #"{"to":"tok","notification":{"title":"T","body":"B"}}"#,
     #"200 {"multicast_id": 1, "success": 1, "failure": 0, "canonical_ids": 0, "results": [{"message_id": "0:1"}]}"#),
    ("/fcm/send", [], #"{"to":"tok","data":{"from":"me"}}"#,
     #"200 {"multicast_id": 0, "success": 0, "failure": 1, "canonical_ids": 0, "results": [{"error": "InvalidDataKey"}]}"#),
    ("/fcm/send", [], #"{"aps":{"alert":"hi"}}"#,
     #"200 {"multicast_id": 0, "success": 0, "failure": 1, "canonical_ids": 0, "results": [{"error": "InvalidParameters", "message": "FCM legacy takes {\"to\": …, \"notification\": {…}, \"data\": {…}} (D7); got an APNs payload — POST it to /push, or address it with \"to\""}]}"#),
    ("/fcm/send", [], #"{"data":{"k":"v"}}"#,
     #"200 {"multicast_id": 1, "success": 1, "failure": 0, "canonical_ids": 0, "results": [{"message_id": "0:1"}]}"#),
    // Expo: a ticket per message
    ("/--/api/v2/push/send", [], #"[{"to":"ExponentPushToken[a]","title":"T","body":"B"},{"to":"fcm-token","title":"T"}]"#,
     #"200 {"data": [{"status": "ok", "id": "UUID-000000000001"}, {"status": "error", "message": "Expo takes messages whose \"to\" is an Expo push token, ExponentPushToken[…] (D5); got an FCM legacy message — POST it to /push, or send it to an Expo token", "details": {"error": "DeviceNotRegistered"}}]}"#),
    ("/--/api/v2/push/send", [], "[1,",
     #"400 {"errors": [{"code": "VALIDATION_ERROR", "message": "invalid JSON (V8) at line 1, column 4: unexpected end of input: expected a value"}]}"#),
    // any shape
    ("/push", [], #"{"aps":{"alert":"hi"}}"#, #"200 {"ok": true, "id": 1}"#),
    ("/push", [], #"[{"aps":{"alert":"a"}},{"data":{"k":"v"}}]"#, #"200 {"ok": true, "ids": [1, 2]}"#),
    ("/push", [], #"[{"aps":{"alert":"a"}},{"nope":1}]"#,
     #"400 {"ok": false, "ids": [1, null], "error": "element 2: unknown payload shape (top-level keys \"nope\"): tried D1 envelope (\"payload\"), D2 FCM v1 (\"message\"), D3 send-to-user (\"userId\"), D4 APNs (\"aps\"), D5 Expo (\"to\": \"ExponentPushToken[…]\"), D6 web push (\"web_push\": 8030 or \"title\" + \"options\"), D7 FCM legacy (\"to\", \"notification\", …), D9 Pusher Beams (\"interests\" or \"users\" with \"apns\", \"fcm\" or \"web\"), D8 data-only (\"data\" object)"}"#),
    ("/push", [], "{\n  \"aps\": {\"alert\": \"hi\"},\n}",
     #"400 {"ok": false, "error": "invalid JSON (V8) at line 2, column 25: trailing comma before '}'"}"#),
    ("/push", [], #"{"title":"T","options":{"renotify":true}}"#,
     #"400 {"ok": false, "error": "TypeError: renotify needs a non-empty tag; the browser refuses to show it (W3) at $.options.renotify"}"#),
])
func routeReplies(path: String, arguments: [String], body: String, expected: String) throws {
    let server = try LiveServer()
    defer { server.stop() }
    var reply = try curlRequest([server.base + path, "--data-binary", body] + arguments)
    // Expo ids and apns-id are UUIDs whose first group is random per session.
    if let range = reply.body.range(of: #"[0-9A-F]{8}-0000-4000-8000-"#, options: .regularExpression) {
        reply.body = reply.body.replacingCharacters(in: range, with: "UUID-")
    }
    #expect(reply.description == expected)
}

@Test(.enabled(if: curlAvailable)) func apnsAnswersWithAnAPNsIDAndPutsHeadersInTheTransport() throws {
    let server = try LiveServer(options: { var o = ProfileOptions(); _ = try? o.set("--platform", "ios"); return o }())
    defer { server.stop() }
    let url = server.base + "/3/device/0a1b2c"
    let first = try curlRequest([url, "-H", "apns-push-type: alert", "-H", "apns-collapse-id: room_42",
                                 "-d", #"{"aps":{"alert":{"title":"Ali","body":"one"}}}"#])
    #expect(first.status == 200)
    #expect(first.body == "")
    #expect(first.headers["apns-id"]?.range(of: #"^[0-9A-F]{8}-0000-4000-8000-000000000001$"#, options: .regularExpression) != nil)
    // APNs echoes an apns-id the sender chose; apns-collapse-id replaces the first (I4): the header reached the Center.
    let second = try curlRequest([url, "-H", "apns-id: 123E4567-E89B-12D3-A456-426614174000", "-H", "apns-collapse-id: room_42",
                                  "-d", #"{"aps":{"alert":{"title":"Ali","body":"two"}}}"#])
    #expect(second.headers["apns-id"] == "123E4567-E89B-12D3-A456-426614174000")
    let state = try server.state()
    let items = state["sections"]?.array?.first?["items"]?.array ?? []
    #expect(items.map { compact($0["lines"]) } == [#"[{"sender":null,"senderId":null,"text":"two"}]"#])
    #expect(try curlRequest(["-X", "GET", url]).description == #"405 {"reason": "MethodNotAllowed"}"#)
}

@Test(.enabled(if: curlAvailable)) func refusedPushesCountAsRejectedOnThePlatformsTheyReach() throws {
    let server = try LiveServer()
    defer { server.stop() }
    _ = try curlRequest([server.base + "/3/device/zz", "-d", #"{"aps":{"alert":"hi"}}"#])
    _ = try curlRequest([server.base + "/v1/projects/p/messages:send", "-d", #"{"message":{"data":{"n":1}}}"#])
    let all = try server.state(platform: "all")
    let counters = (all["profiles"]?.array ?? []).map { profile in
        ["platform", "received", "rejected", "elsewhere"].map { compact(profile[$0]) }.joined(separator: " ")
    }
    // The APNs push reaches iOS only; the FCM v1 message all three.
    #expect(counters == [#""android" 2 1 1"#, #""ios" 2 2 0"#, #""web" 2 1 1"#])
    let iosErrors = all["profiles"]?.array?[1]["errors"]?.array ?? []
    #expect(iosErrors.map { $0["reason"]?.string ?? "" } == [
        "BadDeviceToken: \"zz\" is not a hex APNs device token; APNs refuses the push — send the hex token from didRegisterForRemoteNotificationsWithDeviceToken (an FCM or Expo token goes to its own service)",
        "FCM v1 requires string values; got number 1 — send \"1\"; FCM refuses the whole message",
    ])
    #expect(iosErrors.map { ($0["source"]?.string ?? "").split(separator: " ").suffix(2).joined(separator: " ") }
        == ["POST /3/device/zz", "POST /v1/projects/p/messages:send"])
}

@Test(.enabled(if: curlAvailable)) func stateAnswersForTheStartupPlatformOrTheOneAsked() throws {
    var options = ProfileOptions()
    _ = try options.set("--platform", "web")
    let server = try LiveServer(options: options)
    defer { server.stop() }
    #expect(compact(try server.state()["platform"]) == #""web""#)
    #expect(compact(try server.state(platform: "ios")["platform"]) == #""ios""#)
    #expect(try server.state(platform: "all")["profiles"]?.array?.map { compact($0["platform"]) } == [#""android""#, #""ios""#, #""web""#])
    #expect(try curlRequest([server.base + "/state?platform=tv"]).description
        == #"400 {"error": "platform tv is unknown: use android, ios, web or all"}"#)
    #expect(try curlRequest([server.base + "/healthz"]).description == "200 ok")
    let notFound = try curlRequest([server.base + "/v2/push"])
    #expect(notFound.status == 404)
    #expect(notFound.body.hasPrefix(#"{"error": "no route for GET /v2/push; Shade answers the routes listed here", "routes": ["POST /push/send-to-user", "POST /3/device/{token}", "#))
    #expect(try curlRequest(["-X", "DELETE", server.base + "/push"]).description == #"405 {"error": "DELETE /push: this route takes POST"}"#)
}
