import Foundation
import Testing
import ShadeCore

// Real push client libraries (Tests/Clients/requirements.txt, in the venv of RealClientTests.swift)
// reaching the real `shade` binary over TLS, HTTP/2 and the CONNECT proxy exactly as their users run
// them: the shell evals `shade env` and then the script, which calls the library with the real
// services' names.

/// `shade listen --headless` on a free port with a CA of its own, and a shell that evals `shade env` for it.
final class ClientSession {
    let shade: ShadeProcess
    let port: String
    let ca = ServerBuild.temporary("ca")

    init(_ extra: [String] = []) throws {
        (shade, port) = try startListening(["--ca-dir", ca] + extra)
    }

    deinit { _ = shade.stop(signal: SIGKILL) }

    /// `eval "$(shade env --port N --ca-dir DIR)"` and then `command`, in one shell.
    func shell(_ command: String, timeout: TimeInterval = 60) throws -> CommandResult {
        let env = "eval \"$('\(ServerBuild.shade)' env --port \(port) --ca-dir '\(ca)')\""
        // Proxy settings of the machine running the tests must not leak in: only shade env's count.
        return try runProgram("/bin/sh", ["-c", "\(env) && \(command)"],
                              environment: ["HTTP_PROXY": "", "http_proxy": "", "NO_PROXY": "", "no_proxy": "", "ALL_PROXY": ""],
                              timeout: timeout)
    }

    /// A client script with the venv's python, after `eval "$(shade env)"`.
    func python(_ script: String, _ arguments: [String]) throws -> CommandResult {
        let python = try clientPython.get()
        let words = [python, clientScript(script)] + arguments
        return try shell(words.map { "'\($0)'" }.joined(separator: " "))
    }

    func state(_ platform: String) throws -> JSON {
        try JSONParser.parse(try curlText(["http://127.0.0.1:\(port)/state?platform=\(platform)"]))
    }

    /// Stops Shade and returns its log lines, without the local time a push's line starts with
    /// (ContractTests checks that).
    func stop() -> [String] {
        _ = shade.stop()
        return shade.stdout.text.split(separator: "\n").map {
            $0.replacingOccurrences(of: #"^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] #"#, with: "#", options: .regularExpression)
        }
    }
}

func sectionItems(_ state: JSON, section: String) -> [JSON] {
    state["sections"]?.array?.first { $0["name"]?.string == section }?["items"]?.array ?? []
}

func lineTexts(_ item: JSON?) -> [String] {
    item?["lines"]?.array?.compactMap { $0["text"]?.string } ?? []
}

@Test(.timeLimit(.minutes(5))) func aioapnsDeliversOverTLSWithoutALPNAndHTTP2() throws {
    let session = try ClientSession(["--platform", "ios"])
    let result = try session.python("aioapns_send.py", [session.port, "aabbccdd00112233", "from aioapns"])
    #expect(result.status == 0, "\(result.stderr)")
    let reply = try JSONParser.parse(result.stdout)
    #expect(reply["successful"] == .bool(true))
    #expect(reply["status"]?.string == "200")
    #expect(reply["apns_id"]?.string?.count == 36)
    let state = try session.state("ios")
    #expect(state["received"] == .number("1"))
    #expect(lineTexts(sectionItems(state, section: "Notification Center").first) == ["from aioapns"])
    #expect(session.stop().contains("#1 ios: notification com.example.app: from aioapns [HTTP/2 over TLS (TLSv1.3), SNI localhost]"))
}

@Test(.timeLimit(.minutes(5))) func httpxWithHTTP2ChoosesH2ByALPNThroughTheProxy() throws {
    let session = try ClientSession(["--platform", "ios"])
    let result = try session.python("httpx_apns.py", ["aabbccdd00112233", "from httpx"])
    #expect(result.status == 0, "\(result.stderr)")
    let reply = try JSONParser.parse(result.stdout)
    #expect(reply["status"] == .number("200"))
    #expect(reply["http_version"]?.string == "HTTP/2")
    #expect(reply["body"]?.string == "")
    #expect(reply["apns_id"]?.string?.hasSuffix("-0000-4000-8000-000000000001") == true)
    #expect(lineTexts(sectionItems(try session.state("ios"), section: "Notification Center").first) == ["from httpx"])
    #expect(session.stop().contains("#1 ios: notification com.example.app: from httpx [HTTP/2 over TLS (TLSv1.3), SNI api.push.apple.com, "
        + "through the proxy (CONNECT api.push.apple.com:443)]"))
}

@Test(.timeLimit(.minutes(5))) func firebaseAdminFetchesATokenThenSendsThroughTheProxy() throws {
    let session = try ClientSession()
    let account = ServerBuild.temporary("service-account.json")
    let result = try session.python("firebase_send.py", [account, "fcm-token-1", "Dana", "see you at 6"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "{\"name\": \"projects/shade-demo/messages/1\"}\n")
    let room = sectionItems(try session.state("android"), section: "Conversations").first
    #expect(room?["key"]?.string == "room_7")
    #expect(lineTexts(room) == ["see you at 6"])
    let log = session.stop()
    #expect(log.contains { $0.hasPrefix("#1 android: conversation room_7 ← Dana: see you at 6 [HTTP/1.1 over TLS (TLSv1.3), SNI fcm.googleapis.com, "
        + "through the proxy (CONNECT fcm.googleapis.com:443)]") })
}

@Test(.timeLimit(.minutes(5))) func firebaseAdminRaisesTheExceptionClassesOfShadesRepliesThroughTheProxy() throws {
    // A backend's clean-up path: the token given with --unregistered raises UnregisteredError, a
    // reserved data key InvalidArgumentError, and a fourth message in the minute of --fcm-quota 3
    // QuotaExceededError, exactly as firebase-admin maps FCM's own replies.
    let session = try ClientSession(["--unregistered", "fcm-gone", "--fcm-quota", "3"])
    let result = try session.python("fcm_admin.py", [ServerBuild.temporary("service-account.json"), "fcm-gone"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n") == [
        #"{"case": "registered", "name": "projects/shade-demo/messages/1"}"#,
        #"{"case": "unregistered", "exception": "UnregisteredError", "code": "NOT_FOUND", "status": 404}"#,
        #"{"case": "reserved-key", "exception": "InvalidArgumentError", "code": "INVALID_ARGUMENT", "status": 400}"#,
        #"{"case": "over-quota", "exception": "QuotaExceededError", "code": "RESOURCE_EXHAUSTED", "status": 429}"#,
    ])
}

@Test(.timeLimit(.minutes(5))) func exponentServerSDKSendsToItsDefaultHostThroughTheProxy() throws {
    let session = try ClientSession()
    let result = try session.python("expo_proxy_send.py", ["ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]", "Order", "shipped"])
    #expect(result.status == 0, "\(result.stderr)")
    let reply = try JSONParser.parse(result.stdout)
    #expect(reply["status"]?.string == "ok")
    #expect(reply["id"]?.string?.hasSuffix("-0000-4000-8000-000000000001") == true)
    let shown = sectionItems(try session.state("android"), section: "Notifications").first
    #expect(shown?["title"]?.string == "Order")
    #expect(lineTexts(shown) == ["shipped"])
    #expect(session.stop().contains { $0.hasSuffix("[HTTP/1.1 over TLS (TLSv1.3), SNI exp.host, through the proxy (CONNECT exp.host:443)]") })
}

@Test(.enabled(if: curlInstalled)) func curlWithHTTP2PriorKnowledgeGetsTheSameAPNsReply() throws {
    let session = try ClientSession(["--platform", "ios"])
    let result = try session.shell("curl --silent --max-time 5 --include --http2-prior-knowledge http://127.0.0.1:\(session.port)/3/device/aabbccdd "
        + "-H 'apns-push-type: alert' -H 'apns-id: 0F0F0F0F-0000-4000-8000-000000000ABC' -d '{\"aps\":{\"alert\":\"h2c\"}}'")
    #expect(result.stdout == "HTTP/2 200 \r\napns-id: 0F0F0F0F-0000-4000-8000-000000000ABC\r\ncontent-length: 0\r\n\r\n")
    #expect(lineTexts(sectionItems(try session.state("ios"), section: "Notification Center").first) == ["h2c"])
    #expect(session.stop().contains { $0.hasSuffix(": h2c [HTTP/2 cleartext]") })
}

@Test(.enabled(if: curlInstalled)) func curlWithHTTP2OverHTTPSThroughTheProxy() throws {
    let session = try ClientSession(["--platform", "ios"])
    // curl reads HTTPS_PROXY and CURL_CA_BUNDLE from `shade env`, as any script using curl would.
    let result = try session.shell("curl --silent --show-error --max-time 5 --http2 --write-out '%{http_version} %{http_code}' "
        + "https://api.push.apple.com/3/device/aabbccdd -H 'apns-push-type: alert' -d '{\"aps\":{\"alert\":\"via proxy\"}}'")
    #expect(result.stderr == "")
    #expect(result.stdout == "2 200")
    #expect(lineTexts(sectionItems(try session.state("ios"), section: "Notification Center").first) == ["via proxy"])
}

@Test(.timeLimit(.minutes(5))) func pyfcmFetchesATokenThenSendsThroughTheProxy() throws {
    let session = try ClientSession()
    let result = try session.python("pyfcm_send.py", [ServerBuild.temporary("service-account.json"), "fcm-token-2", "Hello", "from pyfcm"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "{\"name\": \"projects/shade-demo/messages/1\"}\n")
    let shown = sectionItems(try session.state("android"), section: "Notifications").first
    #expect(shown?["title"]?.string == "Hello")
    #expect(lineTexts(shown) == ["from pyfcm"])
}

@Test(.timeLimit(.minutes(5))) func pyapnsClientSendsOverHTTP2ThroughTheProxy() throws {
    let session = try ClientSession(["--platform", "ios"])
    let result = try session.python("pyapns_client_send.py", [ServerBuild.temporary("AuthKey.p8"), "aabbccdd00112233", "Hi", "from pyapns-client"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "{\"pushed\": true}\n")
    let shown = sectionItems(try session.state("ios"), section: "Notification Center").first
    #expect(shown?["title"]?.string == "Hi")
    #expect(lineTexts(shown) == ["from pyapns-client"])
}

let nodeInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/node")

@Test(.enabled(if: nodeInstalled)) func nodeHTTP2ConnectsWithTheRealServerNameAndTrustsTheCA() throws {
    let session = try ClientSession(["--platform", "ios"])
    let result = try session.shell("node '\(clientScript("node_http2_apns.js"))' \(session.port) aabbccdd00112233 'from node'")
    #expect(result.status == 0, "\(result.stderr)")
    let reply = try JSONParser.parse(result.stdout)
    #expect(reply["status"] == .number("200"))
    #expect(reply["alpn"]?.string == "h2")
    #expect(reply["body"]?.string == "")
    #expect(lineTexts(sectionItems(try session.state("ios"), section: "Notification Center").first) == ["from node"])
    #expect(session.stop().contains("#1 ios: notification com.example.app: from node [HTTP/2 over TLS (TLSv1.3), SNI api.push.apple.com]"))
}

@Test(.enabled(if: curlInstalled)) func aCADirectoryThatCannotBeMadeClosesTLSAndSaysWhyOnce() throws {
    let blocker = ServerBuild.temporary("not-a-dir")
    try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
    let (shade, port) = try startListening(["--ca-dir", blocker + "/ca"])
    defer { _ = shade.stop(signal: SIGKILL) }
    for _ in 0..<2 { _ = try runProgram("/usr/bin/curl", ["--silent", "--max-time", "5", "-k", "https://127.0.0.1:\(port)/healthz"]) }
    #expect(try curlText(["http://127.0.0.1:\(port)/healthz"]) == "ok")   // cleartext goes on
    #expect(shade.stop() == 0)
    #expect(shade.stderr.text == "shade: warning: cannot use the CA directory \(blocker)/ca: Not a directory; TLS connections are closed\n")
}

@Test(.enabled(if: curlInstalled)) func interceptAddsAHostAndNoRelayRefusesTheOthers() throws {
    let session = try ClientSession(["--intercept", "push.example.com", "--no-relay"])
    let intercepted = try session.shell("curl --silent --show-error --max-time 5 https://push.example.com/push "
        + "-d '{\"userId\":\"u\",\"title\":\"T\",\"body\":\"intercepted\"}'")
    #expect(intercepted.stdout == "{\"ok\": true, \"id\": 1}")
    let refused = try session.shell("curl --silent --show-error --max-time 5 https://www.example.org/")
    #expect(refused.status == 56)
    #expect(refused.stderr == "curl: (56) CONNECT tunnel failed, response 403\n")
    let bad = try runShadeCommand(["listen", "--headless", "--port", "0", "--intercept", "bad host"])
    #expect(bad.status == 2)
    #expect(bad.stderr == "shade: --intercept bad host is not a host name: give one such as api.example.com (letters, digits, - and .)\n")
}
