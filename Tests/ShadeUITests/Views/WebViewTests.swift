import Testing
import ShadeCore
import ShadeUI

// Browser notifications (SPEC §5) as whole screens.

/// A `showNotification(title, options)` payload (D6).
func webPush(_ at: String, title: String, body: String, tag: String? = nil, actions: [String] = [], data: String = "{}") -> String {
    var options = #""body":"\#(body)","data":\#(data)"#
    if let tag { options += #","tag":"\#(tag)""# }
    if !actions.isEmpty {
        options += #","actions":["# + actions.map { #"{"action":"\#($0.lowercased())","title":"\#($0)"}"# }.joined(separator: ",") + "]"
    }
    return envelope(at, #"{"title":"\#(title)","options":{\#(options)}}"#)
}

@Test func W1_demoShowsOneNotificationPerConversation() throws {
    let states = try sampleStates("demo.jsonl", platforms: [.web])
    // W1: one item per conversation, the group's lines `sender: text`, at most 5 kept.
    #expect(states[0].items.filter { $0.kind == .conversation }.map(\.key) == ["room_42", "family_7", "dm_ali_fa", "dm_wang"])
    expectScreen(snapshot(states, 80, 24), equals: [
        " Web · SDK 0.1.15                                                        badge 0",
        " 22 received · 5 shown · 0 silent · 0 calls · 1 rejected · 10 elsewhere         ",
        " Notifications ─────────────────────────────────────────────────────────────────",
        " [A]  @ali · app                                                           10:15",
        "      Is the bike still available?                                              ",
        "      I can pick it up tonight                                                  ",
        "      Does 7 work for you?                                                      ",
        "      See you then 👍                                                           ",
        " ▣    app · New comment                                       tag comments 10:15",
        "      Sara replied to your post                                                 ",
        "      [Reply] [Like]                                                            ",
        " (M)  Family · app                                                         10:15",
        "      Maman: Dinner at 8?                                                       ",
        "      Sara: I'll bring dessert 🍰                                               ",
        "      Sara: And the kids?                                                       ",
        "      Maman: Yes, everyone                                                      ",
        " (ع)  علی · app                                                            10:15",
        "      سلام! دوچرخه هنوز هست؟                                                    ",
        " (王) 王小明 · app                                                         10:15",
        "      你好！周末有空吗？                                                        ",
        "                                                                                ",
        " ✗ rejected demo.jsonl:15: unknown payload shape (top-level keys                ",
        " \"notification_title\"): tried D1 envelope (\"payload\"), D2 FCM v1 (\"message\"), D…",
        "                                                                                ",
    ])
}

@Test func W1_aConversationKeepsItsLastFiveLinesNewestLast() {
    let pushes = (1...7).map { chat("11:0\($0):00", room: "r", sender: "Ali", text: "line \($0)") }
    let states = centerStates(pushes.joined(separator: "\n"), platforms: [.web])
    expectScreen(snapshot(states, 40, 10), equals: [
        " Web · SDK 0.1.15                badge 0",
        " 7 received · 1 shown                   ",
        " Notifications ─────────────────────────",
        " (A)  Ali · app                    11:07",
        "      +2 earlier messages not kept      ",
        "      line 3                            ",
        "      line 4                            ",
        "      line 5                            ",
        "      line 6                            ",
        "      line 7                            ",
    ])
}

@Test func W2_groupLinesNameTheirSender() throws {
    expectScreen(snapshot(try sampleStates("seed000-group-conversation.jsonl", platforms: [.web]), 44, 10), equals: [
        " Web · SDK 0.1.15                    badge 0",
        " 4 received · 1 shown                       ",
        " Notifications ─────────────────────────────",
        " (M)  Family · app                          ",
        "      Maman: Dinner at 8?                   ",
        "      Sara: I'll bring dessert 🍰           ",
        "      Sara: And the kids?                   ",
        "      Maman: Yes, everyone                  ",
        "                                            ",
        "                                            ",
    ])
}

@Test func W3_W4_plainNotificationsShowTheirTagAndAtMostTwoActions() {
    let states = centerStates([
        webPush("11:00:00", title: "New comment", body: "Sara replied to your post", tag: "comments",
                actions: ["Reply", "Like", "Share"]),
        webPush("11:01:00", title: "Backup done", body: "2 GB saved"),
        envelope("11:02:00", #"{"title":"Bad","options":{"body":"x","renotify":true}}"#),
    ].joined(separator: "\n"), platforms: [.web])
    expectScreen(snapshot(states, 56, 12), equals: [
        " Web · SDK 0.1.15                                badge 0",
        " 3 received · 2 shown · 0 silent · 0 calls · 1 rejected ",
        " Notifications ─────────────────────────────────────────",
        " ▣    app · Backup done                            11:01",
        "      2 GB saved                                        ",
        " ▣    app · New comment               tag comments 11:00",
        "      Sara replied to your post                         ",
        "      [Reply] [Like]                                    ",
        "                                                        ",
        " ✗ rejected test.jsonl:3: TypeError: renotify needs a   ",
        " non-empty tag; the browser refuses to show it (W3) at… ",
        "                                                        ",
    ])
}
