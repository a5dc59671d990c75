import Foundation
import Testing

// `--offline FROM..UNTIL` and the new lint rules as a user runs them: the real binary, real files.

@Test func stateOfflineKeepsWhatTheServicesKeep() throws {
    let run = try runCommand(Build.shade, ["state", Build.sample("offline-session.jsonl"), "--offline", "10s..5m", "--platform", "ios"])
    #expect(run.status == 0, "\(run.stderr)")
    let state = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(state["dropped"] as? Int == 6)
    #expect(state["shown"] as? Int == 7)
    // Without the window every push arrives as it came.
    let online = try runCommand(Build.shade, ["state", Build.sample("offline-session.jsonl"), "--platform", "ios"])
    let whole = try #require(try JSONSerialization.jsonObject(with: Data(online.stdout.utf8)) as? [String: Any])
    #expect(whole["dropped"] as? Int == 0)
}

@Test func stateOfflineTraceListsTheDeletedMessagesEvent() throws {
    let run = try runCommand(Build.shade, ["state", Build.sample("offline-session.jsonl"), "--offline", "10s..5m", "--trace"])
    #expect(run.status == 0)
    let state = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let events = try #require(state["events"] as? [String])
    #expect(events.contains { $0.hasPrefix("[O2] ") && $0.contains("onDeletedMessages()") })
}

@Test(arguments: [
    ("5m", "shade: --offline 5m: expected FROM..UNTIL, e.g. --offline 5m..10m (offsets from the first push: 90s, 5m, 1h30m) or ISO 8601 times\n"),
    ("10m..5m", "shade: --offline 10m..5m: FROM must come before UNTIL, e.g. --offline 5m..10m (offsets from the first push: 90s, 5m, 1h30m) or ISO 8601 times\n"),
])
func aBadOfflineWindowIsAUsageError(window: String, message: String) throws {
    for command in ["state", "snapshot", "replay"] {
        let run = try runCommand(Build.shade, [command, Build.sample("offline-session.jsonl"), "--offline", window, "--headless"].filter { command == "replay" || $0 != "--headless" })
        #expect(run.status == 2, "\(command)")
        #expect(run.stderr == message, "\(command)")
    }
}

@Test func replayOfflineHeadlessLogsWhatWaits() throws {
    let run = try runCommand(Build.shade, ["replay", Build.sample("offline-session.jsonl"), "--offline", "10s..5m", "--instant", "--headless", "--platform", "web"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("web: waiting: the device is offline (rules O1–O5)"), "\(run.stdout)")
    #expect(run.stdout.hasSuffix("web: 2 shown, 0 silent, 0 calls, 0 rejected, 114 elsewhere, 2 dropped, badge 0\n"), "\(run.stdout)")
}

@Test func snapshotOfflineShowsWhatArrivedAtUntil() throws {
    let run = try runCommand(Build.shade, ["snapshot", Build.sample("offline-session.jsonl"), "--offline", "10s..5m", "--platform", "web", "--size", "60x10"])
    #expect(run.status == 0)
    #expect(run.stdout.split(separator: "\n").map(String.init) == [
        " Web · SDK 0.1.15                                    badge 0",
        " 118 received · 2 shown · 114 elsewhere · 2 dropped         ",
        " Notifications ─────────────────────────────────────────────",
        " ▣    app · Newsletter                                 10:05",
        "      The week in review                                    ",
        " ▣    app · Basket                                     10:05",
        "      2 items waiting                                       ",
        "                                                            ",
        "                                                            ",
        "                                                            ",
    ])
}

@Test func lintSaysWhatATypoMeant() throws {
    let run = try runCommand(Build.shade, ["lint", Build.packageRoot.appendingPathComponent("Samples/lint/V9-aps-aler.apns").path])
    #expect(run.status == 0)
    #expect(run.stdout.contains(#"warning [V9] $.aps.aler (iOS): "aler": did you mean alert? As written, iOS shows no alert (I3)"#), "\(run.stdout)")
}
