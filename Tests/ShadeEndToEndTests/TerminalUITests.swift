import Foundation
import Testing

/// The real binary in a real terminal (tmux, fixed-size panes): what a person sees and types.
/// Serialized: each test owns a tmux server and a Shade, and the machine has two cores.
@Suite(.serialized, .enabled(if: TmuxPane.available, "tmux is not installed"))
struct TerminalUITests {
    static func socketPath() -> String { NSTemporaryDirectory() + "shade-e2e-\(UInt32.random(in: 0...UInt32.max)).sock" }

    /// `shade listen` in a pane, with pushes sent over its unix socket by `shade send`.
    static func listening(columns: Int = 100, rows: Int = 30) throws -> (TmuxPane, String) {
        let socket = socketPath()
        let pane = try TmuxPane(command: "\(Build.shade) listen --socket \(socket) --port 0", columns: columns, rows: rows)
        #expect(pane.waitFor("listening on unix \(socket)"), "the header names the socket:\n\(pane.text)")
        return (pane, socket)
    }

    static func send(_ socket: String, _ files: String...) throws {
        let result = try runCommand(Build.shade, ["send", "--socket", socket] + files)
        #expect(result.status == 0, "shade send failed: \(result.stderr)")
    }

    static func sendLine(_ socket: String, _ json: String) throws {
        let result = try runCommand(Build.shade, ["send", "--socket", socket, "-"], input: json + "\n")
        #expect(result.status == 0, "shade send failed: \(result.stderr)")
    }

    @Test func demoAnimatesTheFirstConversationWithinTwoSecondsAndCyclesPlatforms() throws {
        let pane = try TmuxPane(command: "\(Build.shade) demo")
        #expect(pane.waitFor("Is the bike still available?", timeout: 2.5), "the first conversation within 2 s:\n\(pane.text)")
        #expect(pane.text.contains("Conversations"))
        #expect(pane.text.contains("[A]  @ali"))
        #expect(pane.text.contains("▶ 00:0"), "the replay progress bar:\n\(pane.text)")
        try pane.send("p")
        #expect(pane.waitFor("iOS 17 · SDK 0.1.21"))
        #expect(pane.text.contains("Notification Center"))
        try pane.send("p")
        #expect(pane.waitFor("Web · SDK 0.1.15"))
        try pane.send("p")
        #expect(pane.waitUntil { $0.contains("Android 14") && $0.contains("iOS 17") && $0.contains("Web · SDK") && $0.contains("p: all platforms") })
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
        #expect(try pane.value("#{alternate_on}") == "0", "the terminal left the alternate screen")
    }

    @Test func theSeedsSendToUserRequestShowsTheConversationWithInitials() throws {
        let (pane, socket) = try Self.listening()
        try Self.send(socket, Build.sample("seed000-send-to-user.json"))
        #expect(pane.waitFor("Is the bike still available?"), "\(pane.text)")
        let lines = try pane.lines()
        let section = try #require(lines.firstIndex { $0.contains("Conversations ─") }, "\(pane.text)")
        #expect(lines[section + 1].contains("[A]  @ali · app"), "photo-marked initials under Conversations:\n\(pane.text)")
        // Selected from the start: the first item carries the selection mark.
        #expect(lines[section + 2].trimmingCharacters(in: .whitespaces) == "▌     Is the bike still available?")
        #expect(lines.contains { $0.contains("1 received · 1 shown · 0 silent · 0 calls · 0 rejected") })
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func keysInspectDismissFilterHelpAndClear() throws {
        let (pane, socket) = try Self.listening()
        try Self.send(socket, Build.sample("seed000-send-to-user.json"), Build.sample("seed000-group-conversation.jsonl"),
                      Build.sample("seed000-plain-no-conversation.json"))
        #expect(pane.waitFor("Order shipped"), "\(pane.text)")

        // Inspector: the selected item's data, trace and payload.
        try pane.send("j", "i")
        #expect(pane.waitFor("On tap the app receives (C10)"), "\(pane.text)")
        try pane.send("PageDown")
        #expect(pane.waitFor("Why (decision trace)"), "\(pane.text)")
        try pane.send("Escape")
        #expect(pane.waitUntil { !$0.contains("On tap the app receives") })

        // Filter: only matching items stay.
        try pane.send("/")
        try pane.type("dessert")
        try pane.send("Enter")
        #expect(pane.waitUntil { $0.contains("filter: dessert") && $0.contains("Family") && !$0.contains("Order shipped") }, "\(pane.text)")
        try pane.send("Escape")
        #expect(pane.waitFor("Order shipped"))

        // Help overlay, closed by any key.
        try pane.send("?")
        #expect(pane.waitFor("Keys — any key closes"))
        try pane.send("x")
        #expect(pane.waitUntil { !$0.contains("Keys — any key closes") })

        // Dismiss the selected (first) item, then clear all.
        try pane.send("g")
        let before = pane.text
        #expect(before.contains("Family"))
        try pane.send("d")
        #expect(pane.waitUntil { !$0.contains("Family · app") }, "the group conversation was dismissed:\n\(pane.text)")
        try pane.send("D")
        #expect(pane.waitFor("Nothing on screen"), "\(pane.text)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test(arguments: [120, 80, 60])
    func theDemoFooterKeepsHelpAndQuit(columns: Int) throws {
        let pane = try TmuxPane(command: "\(Build.shade) demo", columns: columns, rows: 24)
        #expect(pane.waitFor("Is the bike still available?", timeout: 5), "\(pane.text)")
        let footer = try pane.lines().last ?? ""
        #expect(footer.contains("? help") && footer.contains("q quit"), "\(columns) columns: \(footer)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func aPushForAnotherPlatformSaysWhereItWent() throws {
        let (pane, socket) = try Self.listening()
        try Self.send(socket, Build.sample("seed001-im-apns-loc.apns"))
        #expect(pane.waitFor("1 push for iOS — p shows it"), "\(pane.text)")
        try pane.send("p")
        #expect(pane.waitFor("Notification Center"), "\(pane.text)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func theHintNamesOnlyWhereThePushesTheViewMissedWent() throws {
        // An APNs payload (iOS only) and a send-to-user push (all three) in one send, so in one
        // frame: Android missed the first only, which went to iOS, not to the web.
        let (pane, socket) = try Self.listening()
        try Self.sendLine(socket, #"{"aps":{"alert":"only on iOS"}}"# + "\n" + #"{"userId":"u","title":"T","body":"everywhere"}"#)
        #expect(pane.waitFor("everywhere"), "\(pane.text)")
        #expect(pane.waitFor("1 push for iOS — p shows it"), "\(pane.text)")
        #expect(!pane.text.contains("iOS and Web"), "\(pane.text)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func quittingTheListenerEndsWithWhatTheSessionTook() throws {
        let (pane, socket) = try Self.listening()
        try Self.send(socket, Build.sample("seed000-send-to-user.json"))
        #expect(pane.waitFor("Is the bike still available?"), "\(pane.text)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
        let lines = try pane.lines().filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let summary = try #require(lines.last { $0.hasPrefix("shade: ") }, "\(pane.text)")
        #expect(summary.hasPrefix("shade: stopped: 1 received, 1 accepted, 0 refused; android: 1 shown"), "\(summary)")
    }

    @Test func anEmptyListenerSaysHowToSendItAPushWithACommandThatExists() throws {
        let (pane, _) = try Self.listening()
        // The pane runs the binary by its path, and `shade` is not installed here: the hint names the path.
        #expect(pane.waitFor("No notifications yet — send one:"), "\(pane.text)")
        #expect(pane.waitFor("send --socket"), "\(pane.text)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func theHelpOverlayScrollsOnASmallTerminal() throws {
        let (pane, _) = try Self.listening(columns: 60, rows: 16)
        try pane.send("?")
        #expect(pane.waitFor("more — ↑↓ scroll"), "\(pane.text)")
        for _ in 0..<30 { try pane.send("Down") }
        #expect(pane.waitFor("a ringing VoIP call"), "the legend's end scrolls into view:\n\(pane.text)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func aPushOverTLSThroughTheProxyShowsHowItCameInTheHeaderAndTheInspector() throws {
        let socket = Self.socketPath(), ca = NSTemporaryDirectory() + "shade-e2e-ca-\(UInt32.random(in: 0...UInt32.max))"
        #expect(try runCommand(Build.shade, ["trust", "--ca-dir", ca]).status == 0)
        let pane = try TmuxPane(command: "\(Build.shade) listen --socket \(socket) --port 0 --ca-dir \(ca)", columns: 180, rows: 40)
        #expect(pane.waitFor("TLS·h2 0 handshakes · proxy 0 intercepted, 0 relayed"), "the header shows the TLS and proxy state:\n\(pane.text)")
        let port = try #require(pane.text.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression).map { pane.text[$0].dropFirst(10) })
        let curl = try runCommand("/usr/bin/curl", ["--silent", "--max-time", "5", "--proxy", "http://127.0.0.1:\(port)", "--cacert", "\(ca)/ca.pem",
                                                   "https://fcm.googleapis.com/v1/projects/p/messages:send",
                                                   "-d", #"{"message":{"token":"t","notification":{"title":"Dana","body":"over TLS"}}}"#])
        #expect(curl.stdout == #"{"name": "projects/p/messages/1"}"#)
        #expect(pane.waitFor("TLS·h2 1 handshake · proxy 1 intercepted, 0 relayed"), "\(pane.text)")
        try pane.send("j", "i")
        #expect(pane.waitFor("protocol    HTTP/2 over TLS (TLSv1.3)"), "\(pane.text)")
        #expect(pane.text.contains("TLS host    fcm.googleapis.com"))
        #expect(pane.text.contains("proxy       through Shade's proxy: CONNECT fcm.googleapis.com:443"))
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func resizingThePaneLaysTheScreenOutAgain() throws {
        let (pane, socket) = try Self.listening(columns: 100, rows: 30)
        try Self.send(socket, Build.sample("seed000-send-to-user.json"))
        #expect(pane.waitFor("Is the bike still available?"))
        try pane.resize(columns: 60, rows: 20)
        #expect(pane.waitUntil { text in
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count == 20 && lines.last?.contains("move") == true && text.contains("@ali")
        }, "footer on the last of 20 rows:\n\(pane.text)")
        try pane.resize(columns: 30, rows: 8)
        #expect(pane.waitFor("Terminal too small"), "\(pane.text)")
        try pane.resize(columns: 100, rows: 30)
        #expect(pane.waitFor("Is the bike still available?"))
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func escapeSequencesInAPayloadNeverReachTheTerminal() throws {
        let (pane, socket) = try Self.listening()
        let titleBefore = try pane.value("#{pane_title}")
        try Self.sendLine(socket, #"{"userId":"u","title":"\u001b]0;pwned\u0007Evil","body":"\u001b[2J\u001b[31mred\u001b[0m text"}"#)
        #expect(pane.waitFor("Evil"), "\(pane.text)")
        #expect(try pane.value("#{pane_title}") == titleBefore, "the OSC title sequence was not obeyed")
        #expect(pane.text.contains("␛]0;pwned␇Evil"), "the escape shows as a visible placeholder:\n\(pane.text)")
        #expect(pane.text.contains("␛[2J␛[31mred␛[0m text"))
        #expect(pane.text.contains("Shade │ listening"), "the screen was not cleared by the payload")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    /// SPEC §8 through the key `o`: the shown profile goes offline, FCM keeps the newest push of a
    /// collapse key (O1), and `o` again brings it in, its trace saying where it waited.
    @Test func keyOTakesTheProfileOfflineAndBack() throws {
        let (pane, socket) = try Self.listening()
        try Self.sendLine(socket, #"{"to":"t","notification":{"title":"Before","body":"online"}}"#)
        #expect(pane.waitFor("online"), "\(pane.text)")
        try pane.send("o")
        #expect(pane.waitFor("offline · 0 waiting"), "the header says the profile is offline:\n\(pane.text)")
        try Self.sendLine(socket, #"{"to":"t","collapse_key":"score","notification":{"title":"Match 12","body":"1 – 0"}}"#)
        try Self.sendLine(socket, #"{"to":"t","collapse_key":"score","notification":{"title":"Match 12","body":"2 – 0"}}"#)
        #expect(pane.waitUntil { $0.contains("offline · 1 waiting") && $0.contains("1 dropped") }, "O1 keeps the newer of one key:\n\(pane.text)")
        #expect(!pane.text.contains("Match 12"), "nothing arrives while offline:\n\(pane.text)")
        try pane.send("o")
        #expect(pane.waitUntil { $0.contains("2 – 0") && !$0.contains("offline ·") }, "back online, the kept push arrives:\n\(pane.text)")
        #expect(!pane.text.contains("1 – 0"))
        // The inspector of the item that waited says where, and why it survived.
        try pane.send("g", "i")
        #expect(pane.waitFor("Why (decision trace)"), "\(pane.text)")
        try pane.send("PageDown")
        #expect(pane.waitUntil { $0.contains("[O1]") && $0.contains("waited at FCM") }, "\(pane.text)")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let socket = Self.socketPath()
        let pane = try TmuxPane(command: "\(Build.shade) listen --socket \(socket) --port 0")
        #expect(pane.waitFor("listening on unix"))
        let pid = try pane.value("#{pane_pid}")
        // The pane runs a shell whose child is shade.
        let child = try runCommand("/usr/bin/pgrep", ["-P", pid, "-x", "shade"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!child.isEmpty)
        _ = try runCommand("/bin/kill", ["-TERM", child])
        #expect(pane.waitFor("[exit 143]"), "\(pane.text)")
        #expect(try pane.value("#{alternate_on}") == "0")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed on the way out")
    }
}
