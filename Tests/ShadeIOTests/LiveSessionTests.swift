import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// A LiveSession on real sockets: NDJSON replies, limits, keep-alive, partial and pipelined requests,
// a client that leaves mid-body, the recording. Every wait is bounded (clients 5 s, curl 5 s).

let bigAPNs = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#

@Test func ndjsonLinesAreAnsweredOneReplyEach() throws {
    var configuration = PollLoop.Configuration()
    configuration.maxLineBytes = 8192
    let server = try LiveServer(configuration: configuration)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.socketPath))
    let replies = try client.send(lines: [
        #"{"aps":{"alert":"one"}}"#,
        #"[{"aps":{"alert":"a"}}, {"data":{"k":"v"}}]"#,
        "{bad",
        bigAPNs,
        #"{"path":"/3/device/zz","headers":{"apns-push-type":"alert"},"payload":{"aps":{"alert":"hi"}}}"#,
        #"{"title":"T","options":{"silent":true,"vibrate":[100]}}"#,
        #"{"pad":""# + String(repeating: "p", count: 9000) + #""}"#,
        #"[{"aps":{"alert":"c"}}, 7]"#,
        "[1,",
        #"{"message":{"data":{"from":"x"}}}"#,
        #"{"aps":{"alert":"a"}} {"aps":{"alert":"b"}}"#,
    ].map(bytes)).map(text)
    #expect(replies == [
        #"{"ok": true, "id": 1}"#,
        #"{"ok": true, "ids": [2, 3]}"#,
        #"{"ok": false, "error": "invalid JSON (V8) at line 3, column 2: unexpected 'b': expected a key in double quotes"}"#,
        #"{"ok": false, "error": "PayloadTooLarge: the APNs payload is 4120 bytes as compact JSON, over the 4096-byte limit (I9); APNs refuses it"}"#,
        #"{"ok": false, "error": "BadDeviceToken: \"zz\" is not a hex APNs device token; APNs refuses the push — send the hex token from didRegisterForRemoteNotificationsWithDeviceToken (an FCM or Expo token goes to its own service)"}"#,
        #"{"ok": false, "error": "TypeError: silent cannot be combined with vibrate; the browser refuses to show it (W3) at $.options.vibrate"}"#,
        #"{"ok": false, "error": "line 7: line is 9010 bytes; the limit is 8192 bytes (8 KiB)"}"#,
        #"{"ok": false, "ids": [4, null], "error": "element 2: expected a JSON object (a payload) or an array of them; got number"}"#,
        #"{"ok": false, "error": "invalid JSON (V8) at line 9, column 4: unexpected end of input: expected a value"}"#,
        #"{"ok": false, "error": "\"from\" is a key FCM reserves (\"from\", \"message_type\", keys starting with \"google\" or \"gcm\"); FCM refuses the whole message — rename the key"}"#,
        #"{"ok": false, "error": "invalid JSON (V8) at line 11, column 23: unexpected '{' after the JSON value (one value per line: put each payload on its own line)"}"#,
    ])
    // Every line counted, refusals included (on Android, APNs and web pushes are elsewhere).
    let state = try server.state()
    #expect(["received", "shown", "silent", "rejected", "elsewhere"].map { compact(state[$0]) } == ["13", "0", "1", "6", "6"])
    #expect(state["errors"]?.array?.map { $0["source"]?.string ?? "" } == ["unix#1:3", "unix#1:7", "unix#1:8", "unix#1:9", "unix#1:10", "unix#1:11"])
}

@Test func bodyOverTheLimitGets413AndCountsAsRejected() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    try client.write(bytes("POST /push HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n{"))
    let reply = try client.readResponse()
    #expect(reply.status == 413)
    #expect(text(reply.body) == #"{"error": "request body is 2000000 bytes; the limit is 1048576 bytes (1 MiB)"}"#)
    let state = try server.state()
    #expect(compact(state["rejected"]) == "1")
    #expect(state["errors"]?.array?.first?["reason"]?.string == "request body is 2000000 bytes; the limit is 1048576 bytes (1 MiB)")
}

@Test(.enabled(if: curlAvailable)) func headersOverTheLimitGet431AndTheServerGoesOn() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let reply = try curlRequest([server.base + "/push", "-H", "x-padding: " + String(repeating: "h", count: 17_000), "-d", "{}"])
    #expect(reply.description == #"431 {"error": "request line and headers are over the limit of 16384 bytes (16 KiB)"}"#)
    #expect(try curlRequest([server.base + "/healthz"]).description == "200 ok")
    #expect(compact(try server.state()["received"]) == "0")   // not a push: nothing counted
}

@Test(.enabled(if: curlAvailable)) func curlKeepsOneConnectionForSeveralPushes() throws {
    let server = try LiveServer()
    defer { server.stop() }
    // Both pushes are of no known shape, so each leaves its source (the connection) in `errors`.
    for arguments in [[server.base + "/push"], ["--unix-socket", server.socketPath, "http://localhost/push"]] {
        let result = try curl(["-d", #"{"a":1}"#] + arguments + ["--next", "-d", #"{"b":2}"#] + arguments)
        #expect(result.stdout.components(separatedBy: "}{").count == 2)
    }
    let sources = try server.state()["errors"]?.array?.map { $0["source"]?.string ?? "" } ?? []
    #expect(sources.count == 4)
    #expect(sources[0] == sources[1])
    #expect(sources[0].hasSuffix("#1 POST /push") && sources[0].hasPrefix("tcp 127.0.0.1:"))
    #expect(sources[2...] == ["unix#2 POST /push", "unix#2 POST /push"])
}

@Test func pipelinedAndPartialRequestsAreAnsweredInOrder() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.socketPath))
    let one = #"{"aps":{"alert":"one"}}"#, two = #"{"data":{"n":"2"}}"#
    // Two requests in one write, then a third in pieces with pauses between them.
    try client.write(bytes("POST /push HTTP/1.1\r\nContent-Length: \(one.utf8.count)\r\n\r\n\(one)"
        + "POST /push HTTP/1.1\r\nContent-Length: \(two.utf8.count)\r\n\r\n\(two)"))
    let third = "POST /3/device/abcd HTTP/1.1\r\napns-push-type: alert\r\nContent-Length: \(one.utf8.count)\r\n\r\n\(one)"
    for piece in [third.prefix(7), third.dropFirst(7).prefix(40), third.dropFirst(47)] {
        try client.write(bytes(String(piece)))
        usleep(30_000)
    }
    let replies = try (0..<3).map { _ in try client.readResponse() }
    #expect(replies.map { "\($0.status) \(text($0.body))" } == [#"200 {"ok": true, "id": 1}"#, #"200 {"ok": true, "id": 2}"#, "200 "])
    #expect(replies[2].headers["apns-id"]?.hasSuffix("-0000-4000-8000-000000000003") == true)
}

@Test func clientLeavingMidBodyLeavesNoPushBehind() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let leaving = try SendClient(connectingTo: .unix(path: server.socketPath))
    try leaving.write(bytes("POST /push HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"aps\":"))
    leaving.close()
    let next = try SendClient(connectingTo: .loopback(port: server.port))
    #expect(text(try next.post(path: "/push", body: bytes(#"{"aps":{"alert":"after"}}"#)).body) == #"{"ok": true, "id": 1}"#)
    #expect(compact(try server.state()["received"]) == "1")
}

// MARK: recording

@Test(.enabled(if: curlAvailable)) func recordingHoldsAcceptedPushesWithoutCredentials() throws {
    let server = try LiveServer(record: true)
    let path = try #require(server.recordPath)
    _ = try shell(seedCurlCommand(base: server.base).replacingOccurrences(of: "$ABROVA_API_KEY", with: "secret-key")
        .replacingOccurrences(of: "$ABROVA_SERVER_SECRET", with: "secret-secret"))
    _ = try curlRequest([server.base + "/3/device/00ff", "-H", "authorization: bearer secret-jwt", "-H", "apns-push-type: alert",
                         "-H", "apns-collapse-id: c1", "-H", "cookie: secret-cookie", "-H", "user-agent: test", "-d", #"{"aps":{"alert":"hi"}}"#])
    _ = try curlRequest([server.base + "/3/device/zz", "-d", #"{"aps":{"alert":"refused"}}"#])   // refused: not recorded
    let client = try SendClient(connectingTo: .unix(path: server.socketPath))
    _ = try client.send(lines: [bytes(#"{"headers":{"authorization":"secret-2","x-api-key":"secret-3","apns-topic":"com.example"},"payload":{"aps":{"alert":"nd"}}}"#)])
    #expect(server.stop())
    let recording = try String(contentsOfFile: path, encoding: .utf8)
    #expect(recording == """
        {"at":"2026-11-30T10:15:00.120Z","via":"http","path":"/push/send-to-user","headers":{"content-type":"application/json"},"payload":{"userId":"user_kian","title":"@ali","body":"Is the bike still available?","data":{"conversationId":"room_42","senderName":"@ali","senderId":"user_ali","senderAvatarUrl":"https://cdn.example.com/avatars/ali.jpg"}}}
        {"at":"2026-11-30T10:15:00.120Z","via":"apns","path":"/3/device/00ff","headers":{"apns-collapse-id":"c1","apns-push-type":"alert","content-type":"application/x-www-form-urlencoded"},"payload":{"aps":{"alert":"hi"}}}
        {"at":"2026-11-30T10:15:00.120Z","via":"ndjson","path":null,"headers":{"apns-topic":"com.example"},"payload":{"aps":{"alert":"nd"}}}

        """)
    #expect(!recording.contains("secret"))
}

@Test(.enabled(if: curlAvailable)) func recordThenReplayGivesTheSameSectionsAndItems() throws {
    var options = ProfileOptions()
    _ = try options.set("--platform", "all")
    let server = try LiveServer(options: options, record: true)
    let path = try #require(server.recordPath)
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples").path
    // Refused first: it takes no number, so the generated keys of later items match the replay's.
    _ = try curlRequest([server.base + "/3/device/00ff", "-d", bigAPNs])
    let client = try SendClient(connectingTo: .unix(path: server.socketPath))
    for document in try InputFiles.expand([samples]) {
        let units = document.kind == .lines
            ? LineFramer.lines(of: document.bytes, unterminatedLastLine: .accepted).compactMap { line -> [UInt8]? in
                if case .line(let bytes, _) = line { return bytes }
                return nil
            }
            : [JSONWriter.compactBytes(try JSONParser.parse(document.bytes))]
        _ = try client.send(lines: units)
    }
    let live = try server.state(platform: "all")
    #expect(server.stop())

    let replayed = LiveSession(options: options, texts: TextResolver(), journal: nil, apiKey: nil, clock: ManualClock())
    replayed.startReplay(try InputFiles.expand([path]), speed: 1, instant: true, paused: false, loops: false)
    #expect(replayed.replay?.isFinished == true)
    let again = StateJSON.value(replayed.states(Platform.allCases))
    func sections(_ state: JSON) -> [String] { state["profiles"]?.array?.map { compact($0["sections"]) } ?? [] }
    #expect(sections(again) == sections(live))
    #expect(sections(live).allSatisfy { $0.contains("\"items\"") })
    // What was refused is counted live and absent from the recording: the APNs push over 4096 bytes,
    // and demo.jsonl's line of no known shape.
    func reasons(_ state: JSON) -> [String] { state["profiles"]?.array?[1]["errors"]?.array?.compactMap { $0["reason"]?.string } ?? [] }
    #expect(reasons(live).count == reasons(again).count + 2)
    #expect(reasons(live).first?.hasPrefix("PayloadTooLarge: the APNs payload is 4120 bytes") == true)
    #expect(reasons(live).contains { $0.hasPrefix("unknown payload shape (top-level keys \"notification_title\")") })
}

@Test func aPushThatCannotBeRecordedIsRefusedWith500() throws {
    let clock = ManualClock(now: fixedReceivedMillis)
    let session = LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: try Journal(appendingTo: "/dev/full"),
                              apiKey: nil, clock: clock, wallClock: clock)
    let reply = session.respond(to: HTTPRequest(method: "POST", target: "/push", body: bytes(#"{"data":{"k":"v"}}"#)),
                                from: ConnectionInfo(id: 1, transport: .unix))
    #expect(reply.status == 500)
    #expect(text(reply.body) == #"{"ok": false, "error": "cannot write the recording /dev/full: No space left on device — the push was not recorded, so it is not shown"}"#)
    #expect(session.center(.android).rejected == 1)
    #expect(session.acceptedCount == 0)
    #expect(session.refusedCount == 1)
}

/// A request's outcomes are amended where they lie: a one-line body's source loses its line number, and
/// the route's notes (a service's answer Shade let through) are added after what the push noted itself.
/// Pushes share the route's list of notes; a push that had notes keeps them first.
@Test func aRequestsOutcomesTakeTheRoutesNotesAfterTheirOwn() throws {
    let payload = try JSONParser.parse(#"{"aps":{"alert":"hi"}}"#)
    var plain = Push(id: 0, payload: payload, shape: .apns, source: SourcePosition(name: "tcp #1 POST /3/device/ab12", line: 1))
    var noted = plain
    noted.notes = ["read as aes128gcm"]
    let routeNotes = ["APNs would answer 403 MissingProviderToken (Shade accepted it)"]
    var outcomes: [Intake.Outcome] = [.push(plain), .push(noted), .rejected(Rejection(source: SourcePosition(name: "r", line: 2), reason: "invalid JSON"))]
    for index in outcomes.indices { LiveSession.amend(&outcomes[index], withoutLine: true, notes: routeNotes) }
    plain.source.line = nil
    plain.notes = routeNotes
    noted.source.line = nil
    noted.notes = ["read as aes128gcm"] + routeNotes
    #expect(outcomes == [.push(plain), .push(noted), .rejected(Rejection(source: SourcePosition(name: "r"), reason: "invalid JSON"))])
    // Without notes or the line rule, nothing changes.
    var kept: [Intake.Outcome] = [.push(noted)]
    LiveSession.amend(&kept[0], withoutLine: false, notes: nil)
    #expect(kept == [.push(noted)])
}
