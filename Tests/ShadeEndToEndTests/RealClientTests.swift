import Foundation
import Testing
import ShadeCore

// Real client libraries from PyPI (Tests/Clients/requirements.txt, in the venv scripts/client-venv.sh
// makes) against the real `shade listen`: pywebpush and py_vapid, Expo's Python SDK.
// The scripts in Tests/Clients/ call the libraries as their users do and print what came back.

/// The venv's python, made on first use (CI makes it before the tests; then this is instant).
let clientPython: Result<String, TestFailure> = {
    let script = Build.packageRoot.appendingPathComponent("scripts/client-venv.sh").path
    guard let result = try? runProgram("/bin/bash", [script], timeout: 900), result.status == 0 else {
        return .failure(TestFailure("scripts/client-venv.sh could not make the client venv (PyPI unreachable?)"))
    }
    return .success(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
}()

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func clientScript(_ name: String) -> String { Build.packageRoot.appendingPathComponent("Tests/Clients/\(name)").path }

/// A data directory of its own, so the test's Web Push keys are not the user's.
func temporaryDataHome() throws -> String {
    let path = ServerBuild.temporary("data")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Each printed line as JSON.
func jsonLines(_ text: String) throws -> [JSON] {
    try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
}

@Test(.enabled(if: curlInstalled)) func pywebpushSendsToAFreshSubscriptionUnchangedAndTheWebColumnShowsIt() throws {
    let python = try clientPython.get()
    let data = try temporaryDataHome()
    let record = ServerBuild.temporary("webpush.jsonl")
    let environment = ["XDG_DATA_HOME": data]
    let (shade, port) = try startListening(["--platform", "web", "--record", record], environment: environment)
    defer { _ = shade.stop(signal: SIGKILL) }

    // `shade subscription` gives the same subscription as the running Shade, keys kept 0600.
    let printed = try runShadeCommand(["subscription", "--port", port], environment: environment)
    #expect(printed.status == 0)
    #expect(try curlText(["http://127.0.0.1:\(port)/webpush/subscription"]) + "\n" == printed.stdout)
    let subscription = try JSONParser.parse(printed.stdout)
    let id = subscription["endpoint"]?.string?.split(separator: "/").last.map(String.init) ?? ""
    #expect(subscription["endpoint"]?.string == "http://127.0.0.1:\(port)/webpush/\(id)")
    #expect(compact(subscription["expirationTime"]) == "null")
    #expect(subscription["keys"]?["p256dh"]?.string?.count == 87)   // 65 bytes, base64url
    #expect(subscription["keys"]?["auth"]?.string?.count == 22)     // 16 bytes
    let keyFile = data + "/shade/webpush/subscription.json"
    #expect(try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int == 0o600)

    let sent = try runProgram(python, [clientScript("webpush_send.py"), printed.stdout, data], timeout: 60)
    #expect(sent.status == 0, "\(sent.stderr)")
    let replies = try jsonLines(sent.stdout).map { reply in
        let location = reply["headers"]?["location"]?.string?
            .replacingOccurrences(of: #"[0-9A-F]{8}-0000-4000-8000-0000000000"#, with: "UUID-", options: .regularExpression)
        return "\(reply["case"]?.string ?? "") \(compact(reply["status"])) \(location ?? "-") \(reply["headers"]?["ttl"]?.string ?? "-") \(reply["body"]?.string ?? "")"
    }
    #expect(replies == [
        "aes128gcm 201 http://127.0.0.1:\(port)/webpush/messages/UUID-01 3600 ",
        "aesgcm 201 http://127.0.0.1:\(port)/webpush/messages/UUID-02 60 ",
        #"wrong-signature 403 - - {"code": 403, "error": "Forbidden", "message": "the VAPID JWT's signature does not verify with its key (k / p256ecdsa): signed with another key, or changed on the way"}"#,
        #"other-keys 400 - - {"code": 400, "error": "Bad Request", "message": "cannot decrypt: the authentication tag does not match — encrypted for another subscription's keys (p256dh, auth), or changed on the way"}"#,
        #"no-ttl 400 - - {"code": 400, "error": "Bad Request", "message": "no TTL header: a push service needs to know how long to keep the message (RFC 8030 §5.2), e.g. TTL: 86400"}"#,
    ])

    // The web column: the JSON one as showNotification arguments, the text one as its body.
    let state = try JSONParser.parse(try curlText(["http://127.0.0.1:\(port)/state"]))
    let items = state["sections"]?.array?.first?["items"]?.array ?? []
    #expect(items.map { "\($0["key"]?.string ?? "") \($0["title"]?.string ?? "-"): \(compact($0["lines"]?.array?.first?["text"]))" } == [
        #"n2 -: "Ali: Is the bike still available?""#,
        #"order-7 Order shipped: "Your order is on the way""#,
    ])
    // The two messages Shade could read but refused (another's keys, no TTL) count as rejected; the
    // one with a bad signature was never a push for this receiver.
    #expect(["received", "shown", "rejected"].map { compact(state[$0]) } == ["4", "2", "2"])

    #expect(shade.stop() == 0)
    // Recorded decrypted, with the Web Push headers a replay needs (TTL, Urgency, Topic); no credentials.
    let recorded = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map { line in
        String(line).replacingOccurrences(of: #""at":"[^"]*","#, with: "", options: .regularExpression)
    }
    #expect(recorded == [
        #"{"via":"webpush","path":"/webpush/\#(id)","headers":{"topic":"order7","ttl":"3600","urgency":"high"},"payload":{"title":"Order shipped","options":{"body":"Your order is on the way","tag":"order-7"}}}"#,
        #"{"via":"webpush","path":"/webpush/\#(id)","headers":{"ttl":"60"},"payload":{"title":"","options":{"body":"Ali: Is the bike still available?"}}}"#,
    ])
    // The log says how each plaintext was read.
    let log = shade.stdout.text
    #expect(log.contains("#1 note: decrypted (aes128gcm) with the subscription's keys; the plaintext is JSON, read as a D6 web push notification (what event.data.json() gives the worker)"))
    #expect(log.contains("#2 note: decrypted (aesgcm) with the subscription's keys; the plaintext is not JSON: a notification whose body is the text, as event.data.text() gives it to a worker that shows it"))
    // The recording replays without keys to the same screen.
    let replayed = try runShadeCommand(["state", record, "--platform", "web"])
    #expect(try JSONParser.parse(replayed.stdout)["sections"]?.array?.first?["items"]?.array?.map { $0["key"]?.string } == ["n2", "order-7"])
}

@Test(.enabled(if: curlInstalled)) func expoSDKGetsATicketPerMessageReceiptsAndDeviceNotRegistered() throws {
    let python = try clientPython.get()
    let (shade, port) = try startListening(["--unregistered", "ExponentPushToken[gone]"])
    defer { _ = shade.stop(signal: SIGKILL) }
    let sent = try runProgram(python, [clientScript("expo_send.py"), "http://127.0.0.1:\(port)",
                                       "ExponentPushToken[a]", "ExponentPushToken[b]", "ExponentPushToken[gone]"], timeout: 60)
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(sent.stdout.split(separator: "\n") == [
        #"{"ticket": "ExponentPushToken[a]", "status": "ok"}"#,
        #"{"ticket": "ExponentPushToken[b]", "status": "ok"}"#,
        #"{"ticket": "ExponentPushToken[gone]", "status": "error", "error": "DeviceNotRegisteredError", "expoPushToken": "ExponentPushToken[gone]"}"#,
        #"{"receipt": true, "status": "ok"}"#,
        #"{"receipt": true, "status": "ok"}"#,
    ])
    #expect(shade.stop() == 0)
}

func compact(_ value: JSON?) -> String { value.map(JSONWriter.compact) ?? "nil" }
