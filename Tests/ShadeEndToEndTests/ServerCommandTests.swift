import Foundation
import Testing
import ShadeCore

// `shade listen`, `send` and `replay` as a user runs them: the real binary on a free port and a
// temporary socket, real curl, SIGTERM to stop. Every wait is bounded.

/// Seed 000's curl example, verbatim but for the host.
func seedCurl(port: String) -> String {
    """
    curl -X POST http://127.0.0.1:\(port)/push/send-to-user \\
      -H "x-api-key: $ABROVA_API_KEY" \\
      -H "x-server-secret: $ABROVA_SERVER_SECRET" \\
      -H "content-type: application/json" \\
      -d '{"userId":"user_kian","title":"@ali","body":"Is the bike still available?",
           "data":{"conversationId":"room_42","senderName":"@ali","senderId":"user_ali",
                   "senderAvatarUrl":"https://cdn.example.com/avatars/ali.jpg"}}'
    """
}

/// Starts `shade listen --headless --port 0` on a temporary socket (and a temporary CA directory unless
/// `extra` names one); returns it and its port.
func startListening(_ extra: [String] = [], socket: String = ServerBuild.temporary("s.sock"),
                    environment: [String: String] = [:]) throws -> (ShadeProcess, String) {
    let ca = extra.contains("--ca-dir") ? [] : ["--ca-dir", ServerBuild.temporary("ca")]
    let shade = try ShadeProcess(["listen", "--headless", "--port", "0", "--socket", socket] + ca + extra, environment: environment)
    guard let port = shade.waitForOutput(matching: #"http://127\.0\.0\.1:([0-9]+)"#) else {
        _ = shade.stop(signal: SIGKILL)
        throw CancellationError()
    }
    return (shade, port)
}

@Test(.enabled(if: curlInstalled)) func listenServesTheSeedCurlLineLogsEachPushAndStopsCleanly() throws {
    let socket = ServerBuild.temporary("s.sock"), record = ServerBuild.temporary("rec.jsonl"), ca = ServerBuild.temporary("ca")
    let (shade, port) = try startListening(["--record", record, "--ca-dir", ca], socket: socket)
    defer { _ = shade.stop(signal: SIGKILL) }

    let seed = try runProgram("/bin/sh", ["-c", seedCurl(port: port).replacingOccurrences(of: "curl ", with: "curl --silent --max-time 5 ")])
    #expect(seed.stdout == #"{"ok": true, "id": 1}"#)
    let state = try JSONParser.parse(try curlText(["http://127.0.0.1:\(port)/state"]))
    let conversations = state["sections"]?.array?.first
    #expect(conversations?["name"]?.string == "Conversations")
    let room = conversations?["items"]?.array?.first
    #expect(room?["key"]?.string == "room_42")
    #expect(room?["avatar"]?["initials"]?.string == "A")
    #expect(room?["lines"].map(JSONWriter.compact) == #"[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}]"#)

    let send = try runShadeCommand(["send", "--socket", socket, ServerBuild.sample("seed001-im-apns-loc.apns")])
    #expect(send.status == 0)
    #expect(send.stdout == ServerBuild.sample("seed001-im-apns-loc.apns") + #": {"ok": true, "id": 2}"# + "\n")
    // Payload text is data: escape sequences and bells show as visible symbols.
    _ = try curlText(["http://127.0.0.1:\(port)/push", "-d", #"{"userId":"u","title":"T","body":"a\u001b[31mred\u0007"}"#])
    _ = try curlText(["http://127.0.0.1:\(port)/3/device/zz", "-d", #"{"aps":{"alert":"no"}}"#])

    #expect(shade.stop() == 0)
    // Each push's line starts with the time it was received, in local time (TZ=UTC here).
    let lines = shade.stdout.text.split(separator: "\n").map { line in
        line.replacingOccurrences(of: #"tcp 127\.0\.0\.1:[0-9]+#[0-9]+"#, with: "tcp PEER", options: .regularExpression)
            .replacingOccurrences(of: #"^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] #"#, with: "HH:MM:SS #", options: .regularExpression)
    }
    #expect(lines == [
        "shade: listening on unix \(socket) and http://127.0.0.1:\(port), recording to \(record)",
        "shade: TLS (HTTP/2 or HTTP/1.1) and HTTP/2 cleartext on the same port, certificates from the CA in \(ca); HTTPS proxy: "
            + "answers CONNECT to api.development.push.apple.com, api.push.apple.com, api.sandbox.push.apple.com, exp.host, "
            + "fcm.googleapis.com, oauth2.googleapis.com itself, relays other hosts unchanged",
        "HH:MM:SS #1 android: conversation room_42 ← @ali: Is the bike still available?",
        // The seed's curl line with its variables unset sends empty credentials: taken, with a note.
        "HH:MM:SS #1 note: the push service would answer 401: unauthorized: the push service requires x-api-key and x-server-secret; x-api-key and x-server-secret empty or missing (Shade accepted it; --strict-auth refuses it as the push service does)",
        "HH:MM:SS #2 android: elsewhere (APNs payload for iOS)",
        "HH:MM:SS #3 android: notification n3 \"T\": a␛[31mred␇",
        "tcp PEER POST /3/device/zz: refused (not recorded): BadDeviceToken: \"zz\" is not a hex APNs device token; APNs refuses the push — send the hex token from didRegisterForRemoteNotificationsWithDeviceToken (an FCM or Expo token goes to its own service)",
        "shade: stopped: 4 received, 3 accepted, 1 refused (3 recorded to \(record)); android: 2 shown, 0 silent, 0 calls, 0 rejected, 2 elsewhere, badge 0",
    ])
    #expect(shade.stdout.text.utf8.allSatisfy { $0 >= 0x20 || $0 == 0x0A })
    #expect(shade.stderr.text == "")
    #expect(!FileManager.default.fileExists(atPath: socket))
    let journal = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
    #expect(journal.count == 3)
    #expect(journal.allSatisfy { !$0.contains("x-api-key") && !$0.contains("x-server-secret") })
    #expect(journal[0].hasPrefix(#"{"at":""#) && journal[0].contains(#""via":"http","path":"/push/send-to-user""#))
}

@Test func aSecondListenOnALiveSocketExitsWith2() throws {
    let socket = ServerBuild.temporary("s.sock")
    let (first, _) = try startListening(socket: socket)
    defer { _ = first.stop(signal: SIGKILL) }
    let second = try runShadeCommand(["listen", "--headless", "--port", "0", "--socket", socket], timeout: 10)
    #expect(second.status == 2)
    #expect(second.stderr == "shade: another Shade is listening on \(socket) — stop it, or choose another --socket\n")
    #expect(first.stop(signal: SIGINT) == 0)
}

@Test func withoutATerminalListenGoesHeadlessAndSaysSo() throws {
    let socket = ServerBuild.temporary("s.sock")
    let shade = try ShadeProcess(["listen", "--port", "0", "--socket", socket])
    defer { _ = shade.stop(signal: SIGKILL) }
    #expect(shade.waitForOutput(matching: "listening on") != nil)
    #expect(shade.stop(signal: SIGINT) == 0)
    #expect(shade.stderr.text == "shade: no terminal: running headless\n")
    #expect(shade.stdout.text.hasSuffix("shade: stopped: 0 received, 0 accepted, 0 refused; android: 0 shown, 0 silent, 0 calls, 0 rejected, 0 elsewhere, badge 0\n"))
}

@Test func sendWithoutAListeningShadeExitsWith2AndSaysHowToStartOne() throws {
    let socket = ServerBuild.temporary("none.sock")
    let result = try runShadeCommand(["send", "--socket", socket, ServerBuild.sample("seed000-send-to-user.json")])
    #expect(result.status == 2)
    #expect(result.stderr == "shade: no Shade is listening on \(socket) — start one with `shade listen`\n")
}

@Test func sendOverHTTPGoesToTheAPNsRouteWithAPNsHeaders() throws {
    let (shade, port) = try startListening(["--platform", "ios"])
    defer { _ = shade.stop(signal: SIGKILL) }
    let sample = ServerBuild.sample("seed001-voip-call.jsonl")
    let result = try runShadeCommand(["send", "--port", port, "--header", "apns-push-type: voip", sample])
    #expect(result.status == 0)
    #expect(result.stdout.range(of: #"^.*seed001-voip-call.jsonl:1: 200 apns-id: [0-9A-F]{8}-0000-4000-8000-000000000001\n$"#,
                                options: .regularExpression) != nil)
    let state = try JSONParser.parse(try curlText(["http://127.0.0.1:\(port)/state"]))
    #expect(state["calls"].map(JSONWriter.compact) == "1")
    let refused = try runShadeCommand(["send", "--port", port, "--header", "apns-collapse-id: " + String(repeating: "c", count: 65), sample])
    #expect(refused.status == 1)
    #expect(refused.stdout.range(of: #": 400 apns-id: [0-9A-F-]{36} \{"reason": "BadCollapseId"\}\n$"#, options: .regularExpression) != nil)
    #expect(shade.stop() == 0)
}

@Test func recordedSessionReplaysToTheSameSectionsAndItems() throws {
    let socket = ServerBuild.temporary("s.sock"), record = ServerBuild.temporary("rec.jsonl")
    let (shade, port) = try startListening(["--record", record, "--platform", "all"], socket: socket)
    defer { _ = shade.stop(signal: SIGKILL) }
    let send = try runShadeCommand(["send", "--socket", socket, Build.packageRoot.appendingPathComponent("Samples").path])
    #expect(send.status == 1)   // demo.jsonl holds a payload of no known shape: refused, not recorded
    #expect(send.stdout.contains(#"demo.jsonl:15: {"ok": false, "error": "unknown payload shape"#))
    let live = try JSONParser.parse(try curlText(["http://127.0.0.1:\(port)/state?platform=all"]))
    #expect(shade.stop() == 0)

    let state = try runShadeCommand(["state", record, "--platform", "all"])
    #expect(state.status == 0)
    let replayed = try JSONParser.parse(state.stdout)
    func sections(_ value: JSON) -> [String] { value["profiles"]?.array?.map { JSONWriter.compact($0["sections"] ?? .null) } ?? [] }
    #expect(sections(replayed).count == 3)
    #expect(sections(replayed) == sections(live))

    let replay = try runShadeCommand(["replay", record, "--instant", "--headless", "--platform", "all"])
    #expect(replay.status == 0)
    let pushes = send.stdout.split(separator: "\n").filter { $0.contains(#""ok": true"#) }.count
    #expect(replay.stdout.range(of: #"^[0-9:]{8} #1 android: "#, options: .regularExpression) != nil)
    #expect(replay.stdout.split(separator: "\n").last?.hasPrefix("shade: replayed ") == true)
    #expect(pushes > 20)
}

@Test func replayKeepsTimeAndReportsACutOffLastLine() throws {
    let file = ServerBuild.temporary("cut.jsonl")
    try """
        {"at":"2026-11-30T10:15:00.000Z","payload":{"userId":"u","title":"@ali","body":"one","data":{"conversationId":"room_42"}}}
        {"at":"2026-11-30T10:15:01.000Z","payload":{"userId":"u","title":"@ali","body":"two","data":{"conversationId":"room_42"}}}
        {"at":"2026-11-30T10:15:02.000Z","payload":{"userId":"u","ti
        """.write(toFile: file, atomically: true, encoding: .utf8)
    let started = Date()
    let result = try runShadeCommand(["replay", file, "--speed", "4", "--headless"])
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").map(String.init) == [
        "10:15:00 #1 android: conversation room_42 ← @ali: one",
        "10:15:01 #2 android: conversation room_42 ← @ali: two",
        "\(file):3: rejected: truncated last line (no newline at the end and not complete JSON): invalid JSON (V8) at line 3, column 58: unterminated string",
        "shade: replayed 3 pushes from 1 file; android: 1 shown, 0 silent, 0 calls, 1 rejected, 0 elsewhere, badge 0",
    ])
    #expect(elapsed >= 0.25)   // 1 s of recording at speed 4 (and 250 ms for the unstamped last line)
    // The input was read: exit 0, and one line on stderr says what was rejected.
    #expect(result.stderr == "shade: 1 of 3 pushes rejected: \(file):3 truncated last line\n")
    #expect(try runShadeCommand(["replay", file, "--paused", "--headless"]).stderr
        == "shade: --paused needs the terminal UI to resume from; without a terminal, leave it out\n")
}

@Test(arguments: [
    ("listen", "curl -X POST http://127.0.0.1:4747/push/send-to-user \\"),
    ("send", "shade send Samples/seed000-send-to-user.json"),
    ("replay", "shade replay session.jsonl --speed 10 --platform all"),
    ("trust", "sudo cp ~/.local/share/shade/ca/ca.pem /usr/local/share/ca-certificates/shade-local-ca.crt"),
    ("env", "eval \"$(shade env)\" && python3 send_apns.py"),
])
func helpHasExamples(command: String, example: String) throws {
    let result = try runShadeCommand([command, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Usage: shade \(command) "))
    #expect(result.stdout.contains(example))
}

@Test(.enabled(if: curlInstalled)) func withoutStrictAuthTheLogSaysWhatTheRealServiceWouldHaveAnswered() throws {
    let (shade, port) = try startListening(["--platform", "ios"])
    defer { _ = shade.stop(signal: SIGKILL) }
    #expect(try curlText(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/3/device/00ff", "-d", #"{"aps":{"alert":"hi"}}"#]) == "200")
    #expect(try curlText(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/v1/projects/p/messages:send",
                          "-d", #"{"message":{"token":"t","notification":{"title":"T"}}}"#]) == "200")
    #expect(shade.stop() == 0)
    // Each line starts with the push's local time (checked in ContractTests); the notes are what matter here.
    let notes = shade.stdout.text.split(separator: "\n").filter { $0.contains(" note: ") }
        .map { $0.replacingOccurrences(of: #"^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] "#, with: "", options: .regularExpression) }
    #expect(notes == [
        "#1 note: APNs would answer 403 MissingProviderToken: no provider token: send authorization: bearer JWT (ES256, signed with your .p8 key) (Shade accepted it; --strict-auth refuses it as APNs does)",
        "#2 note: FCM would answer 401 UNAUTHENTICATED: Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. (Authorization: Bearer ACCESS_TOKEN) (Shade accepted it; --strict-auth refuses it as FCM does)",
    ])
}
