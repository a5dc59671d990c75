import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// Issue 10, finding 7 and DESIGN "Keys and private files": `--api-key` locks every route that takes
// pushes (401 in the route's own format) and NDJSON over TCP (`{"apiKey": "KEY"}` first, else one error
// line and close); the unix socket needs no key; `--server-secret` adds send-to-user's own check.

private func session(apiKey: String? = "k-123", serverSecret: String? = nil) -> LiveSession {
    let clock = ManualClock(now: fixedReceivedMillis)
    return LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: apiKey, serverSecret: serverSecret,
                       clock: clock, wallClock: clock)
}

private let tcp = ConnectionInfo(id: 7, transport: .tcp(peer: "127.0.0.1:50000"))
private let unix = ConnectionInfo(id: 8, transport: .unix)

private func request(_ method: String, _ path: String, _ headers: HTTPHeaders = [:], body: String = "") -> HTTPRequest {
    HTTPRequest(method: method, target: path, headers: headers, body: bytes(body))
}

private let missing = "unauthorized: this Shade was started with --api-key; send it in the x-api-key header"

@Test(arguments: [
    ("/push", #"{"data":{"k":"v"}}"#, #"{"ok": false, "error": "\#(missing)"}"#),
    ("/push/send-to-user", #"{"userId":"u","title":"T","body":"B"}"#, #"{"ok": false, "error": "\#(missing)"}"#),
    ("/3/device/00ff", #"{"aps":{"alert":"hi"}}"#, #"{"reason": "MissingProviderToken", "message": "\#(missing)"}"#),
    ("/fcm/send", #"{"to":"t","notification":{"title":"T"}}"#, #"{"error": "\#(missing)"}"#),
    ("/v1/projects/p/messages:send", #"{"message":{"token":"t","data":{"k":"v"}}}"#,
     #"{"error": {"code": 401, "message": "\#(missing)", "status": "UNAUTHENTICATED"}}"#),
    ("/--/api/v2/push/send", #"{"to":"ExponentPushToken[a]","title":"T"}"#, #"{"errors": [{"code": "UNAUTHORIZED", "message": "\#(missing)"}]}"#),
])
func finding7_everyRouteThatTakesPushesNeedsTheKeyAndSaysSoInItsOwnFormat(path: String, body: String, reply: String) {
    let shade = session()
    let refused = shade.respond(to: request("POST", path, body: body), from: tcp)
    #expect(refused.status == 401)
    #expect(text(refused.body) == reply)
    #expect(shade.center(.android).state.received == 0 && shade.center(.ios).state.received == 0)   // not a push
    let taken = shade.respond(to: request("POST", path, ["x-api-key": "k-123"], body: body), from: tcp)
    #expect(taken.status == 200)
    #expect(shade.acceptedCount == 1)
    // The unix socket is private to its user: no key there.
    #expect(shade.respond(to: request("POST", path, body: body), from: unix).status == 200)
}

@Test func finding7_aWrongKeyIsRefusedAndReadingNeedsNone() {
    let shade = session()
    let wrong = shade.respond(to: request("POST", "/push", ["x-api-key": "k-124"], body: "{}"), from: tcp)
    #expect(text(wrong.body) == #"{"ok": false, "error": "unauthorized: x-api-key is not the value this Shade was started with (--api-key)"}"#)
    #expect(shade.respond(to: request("GET", "/state"), from: tcp).status == 200)
    #expect(shade.respond(to: request("GET", "/healthz"), from: tcp).status == 200)
}

@Test func finding7_theRouteTableSaysWhichRoutesTakePushes() {
    let routes = Route.table.map { entry -> (String, Bool?) in
        let parts = entry.split(separator: " ")
        let path = String(parts[1]).replacingOccurrences(of: "{token}", with: "00ff").replacingOccurrences(of: "{project}", with: "p")
            .replacingOccurrences(of: "{id}", with: "abc").replacingOccurrences(of: "[?platform=android|ios|web|all]", with: "")
        guard case .found(let route) = Route.match(method: String(parts[0]), path: path) else { return (entry, nil) }
        return (String(parts[0] + " " + parts[1]), route.takesPushes)
    }
    #expect(routes.filter { $0.1 == true }.map(\.0) == [
        "POST /push/send-to-user", "POST /3/device/{token}", "POST /v1/projects/{project}/messages:send", "POST /fcm/send",
        "POST /--/api/v2/push/send", "POST /push", "POST /webpush/{id}",
    ])
    // What only reads, or hands out an OAuth token, is open.
    #expect(routes.filter { $0.1 == false }.map(\.0) == [
        "POST /--/api/v2/push/getReceipts", "GET /webpush/subscription", "GET /state[?platform=android|ios|web|all]", "GET /healthz", "POST /token",
    ])
}

@Test func finding7_theServerSecretIsCheckedAgainstItsOwnValueOnSendToUserOnly() {
    let shade = session(apiKey: nil, serverSecret: "s3")
    let body = #"{"userId":"u","title":"T","body":"B"}"#
    let none = shade.respond(to: request("POST", "/push/send-to-user", body: body), from: tcp)
    #expect(text(none.body) == #"{"ok": false, "error": "unauthorized: this Shade was started with --server-secret; send it in the x-server-secret header"}"#)
    // Any non-empty secret used to pass.
    #expect(shade.respond(to: request("POST", "/push/send-to-user", ["x-server-secret": "anything"], body: body), from: tcp).status == 401)
    #expect(shade.respond(to: request("POST", "/push/send-to-user", ["x-server-secret": "s3"], body: body), from: tcp).status == 200)
    #expect(shade.respond(to: request("POST", "/push", body: body), from: tcp).status == 200)
}

@Test func finding7_aStreamOverTCPPresentsTheKeyFirstOrIsAnsweredOnceAndClosed() {
    let shade = session()
    let push = bytes(#"{"data":{"k":"v"}}"#)
    // No key: one error line, then the connection closes.
    #expect(text(shade.respond(toLine: push, lineNumber: 1, from: tcp))
        == #"{"ok": false, "error": "unauthorized: this Shade was started with --api-key; send {\"apiKey\": \"KEY\"} as the stream's first line"}"#)
    #expect(shade.closesAfterReply(on: tcp))
    #expect(shade.acceptedCount == 0 && shade.refusedCount == 0)
    // A wrong key: the same.
    let second = ConnectionInfo(id: 9, transport: .tcp(peer: "127.0.0.1:50001"))
    #expect(text(shade.respond(toLine: bytes(#"{"apiKey": "nope"}"#), lineNumber: 1, from: second))
        == #"{"ok": false, "error": "unauthorized: apiKey is not the key this Shade was started with (--api-key)"}"#)
    #expect(shade.closesAfterReply(on: second))
    // The key, then pushes.
    let third = ConnectionInfo(id: 10, transport: .tcp(peer: "127.0.0.1:50002"))
    #expect(text(shade.respond(toLine: bytes(#"{"apiKey": "k-123"}"#), lineNumber: 1, from: third)) == #"{"ok": true}"#)
    #expect(text(shade.respond(toLine: push, lineNumber: 2, from: third)) == #"{"ok": true, "id": 1}"#)
    #expect(!shade.closesAfterReply(on: third))
    // The unix socket needs none.
    #expect(text(shade.respond(toLine: push, lineNumber: 1, from: unix)) == #"{"ok": true, "id": 2}"#)
    // A closed connection is forgotten: the id may come again, and must present the key again.
    shade.closed(third)
    #expect(shade.respond(toLine: push, lineNumber: 1, from: third).starts(with: bytes(#"{"ok": false"#)))
}

@Test func finding7_aRealTCPStreamWithoutTheKeyIsClosedAfterOneLine() throws {
    let server = try LiveServer(apiKey: "k-123")
    defer { server.stop() }
    let refused = try SendClient(connectingTo: .loopback(port: server.port))
    #expect(text(try refused.send(line: bytes(#"{"data":{"k":"v"}}"#))).hasPrefix(#"{"ok": false, "error": "unauthorized"#))
    try refused.write(bytes(#"{"data":{"k":"v"}}"# + "\n"))
    #expect(try refused.readToEnd() == [])   // closed: the second line got no answer
    let admitted = try SendClient(connectingTo: .loopback(port: server.port))
    #expect(try admitted.send(lines: [bytes(#"{"apiKey": "k-123"}"#), bytes(#"{"data":{"k":"v"}}"#)]).map(text)
        == [#"{"ok": true}"#, #"{"ok": true, "id": 1}"#])
    let local = try SendClient(connectingTo: .unix(path: server.socketPath))
    #expect(text(try local.send(line: bytes(#"{"data":{"k":"v"}}"#))) == #"{"ok": true, "id": 2}"#)
}
