import Foundation
import Testing
import ShadeCore

// Issue 10, finding 1, as a user meets it: the 72-byte push that trapped in `abs(Int.min)` goes
// through every command on every platform, and through a live `listen` over HTTP and NDJSON, which
// keeps answering.

/// A file of Tests/ShadeCoreTests/Fixtures/regressions (the exact inputs of issue 10's findings).
func regression(_ name: String) -> String {
    Build.packageRoot.appendingPathComponent("Tests/ShadeCoreTests/Fixtures/regressions/\(name)").path
}

/// What a trap looks like from outside: a signal (SIGILL, SIGTRAP) or Swift's message.
func expectNoCrash(_ result: CommandResult, _ comment: Comment? = nil) {
    #expect(!result.killedBySignal, comment)
    #expect(!result.stderr.contains("Fatal error"), comment)
}

@Test(arguments: ["android", "ios", "web", "all"])
func finding1_theFuzzedPushGoesThroughStateLintAndSnapshot(platform: String) throws {
    let push = regression("loc-args-exponent-int-min.apns")
    let state = try runShadeCommand(["state", push, "--platform", platform])
    expectNoCrash(state)
    #expect(state.status == 0)
    let parsed = try JSONParser.parse(state.stdout)
    let profiles = parsed["profiles"]?.array ?? [parsed]
    let ios = profiles.first { $0["platform"]?.string == "ios" }
    #expect(ios?["sections"]?[0]?["items"]?.array?.first?["lines"]?.array?.first?["text"]?.string
        == (platform == "ios" || platform == "all" ? "1e-9223372036854775808" : nil))

    let lint = try runShadeCommand(["lint", push, "--platform", platform])
    expectNoCrash(lint)
    #expect(lint.status == 0)   // a warning (V6: no such key), not an error

    let snapshot = try runShadeCommand(["snapshot", push, "--platform", platform, "--size", "120x20"])
    expectNoCrash(snapshot)
    #expect(snapshot.status == 0)
    #expect(snapshot.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 21)
}

@Test func finding1_anAndroidStringsTableHoldingPercentFGoesThroughEveryCommand() throws {
    let push = regression("fcm-loc-args-exponent-int-min.json"), table = regression("percent-f-strings.xml")
    for command in ["state", "lint", "snapshot"] {
        let result = try runShadeCommand([command, push, "--strings", table])
        expectNoCrash(result, "\(command)")
        #expect(result.status == 0, "\(command)")
    }
    let state = try runShadeCommand(["state", push, "--strings", table])
    #expect(try JSONParser.parse(state.stdout)["sections"]?[0]?["items"]?[0]?["lines"]?[0]?["text"]?.string
        == "1e-9223372036854775808")
}

private extension JSON {
    subscript(index: Int) -> JSON? { array.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
}

@Test(.enabled(if: curlInstalled)) func finding1_aLiveListenTakesTheFuzzedPushOnEveryRouteAndKeepsAnswering() throws {
    let socket = ServerBuild.temporary("s.sock")
    let (shade, port) = try startListening(["--strings", regression("percent-f-strings.xml")], socket: socket)
    defer { _ = shade.stop(signal: SIGKILL) }
    let base = "http://127.0.0.1:\(port)"
    let push = regression("loc-args-exponent-int-min.apns")

    let apns = try curlText(["-o", "/dev/null", "-w", "%{http_code}", "\(base)/3/device/\(String(repeating: "ab", count: 32))",
                             "--data-binary", "@\(push)"])
    #expect(apns == "200")
    #expect(try curlText(["\(base)/push", "--data-binary", "@\(push)"]) == #"{"ok": true, "id": 2}"#)
    let fcm = try curlText(["\(base)/fcm/send", "--data-binary", "@\(regression("fcm-loc-args-exponent-int-min.json"))"])
    #expect(fcm.contains(#""success": 1"#))
    let ndjson = try runShadeCommand(["send", "--socket", socket, push])
    expectNoCrash(ndjson)
    #expect(ndjson.stdout == push + #": {"ok": true, "id": 4}"# + "\n")

    #expect(try curlText(["\(base)/healthz"]) == "ok")
    let ios = try JSONParser.parse(try curlText(["\(base)/state?platform=ios"]))
    #expect(ios["received"]?.int == 4)
    let android = try JSONParser.parse(try curlText(["\(base)/state?platform=android"]))
    #expect(android["sections"]?[0]?["items"]?[0]?["lines"]?[0]?["text"]?.string == "1e-9223372036854775808")
    #expect(shade.stop() == 0)
    #expect(!shade.stderr.text.contains("Fatal error"))
}
