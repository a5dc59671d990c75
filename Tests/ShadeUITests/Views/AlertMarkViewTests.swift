import Testing
import ShadeCore
@testable import ShadeUI

// What wave 2 added to the shades (SPEC I10–I12, §8), as whole screens: a critical mark, the note
// that the app's extension may change the text, the category, the image line, and an offline header.

/// A critical sound (I10), a Signal-style placeholder with a category (I11, I12), and an attachment
/// that an extension would fetch (I12).
let alertMarksSession = [
    #"{"at":"2026-11-30T09:00:00.000Z","headers":{"apns-topic":"com.example.alarms"},"payload":{"aps":{"alert":{"title":"Water leak","body":"Basement sensor: water detected"},"sound":{"critical":1,"name":"siren.caf"}}}}"#,
    #"{"at":"2026-11-30T09:05:00.000Z","headers":{"apns-topic":"org.example.chat"},"payload":{"aps":{"alert":{"title":"New message","body":"APN_Message"},"mutable-content":1,"category":"SECURE_MESSAGE"}}}"#,
    #"{"at":"2026-11-30T09:10:00.000Z","headers":{"apns-topic":"com.example.listings"},"payload":{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"},"mutable-content":1},"attachment-url":"https://cdn.example.com/listings/4821/cover.jpg"}}"#
].joined(separator: "\n")

@Test func I10_I11_I12_theNewMarksOnIOS() {
    let states = centerStates(alertMarksSession, platforms: [.ios])
    expectScreen(snapshot(states, 56, 20), equals: [
        " iOS 17 · SDK 0.1.21                             badge 0",
        " 3 received · 3 shown · 0 silent · 0 calls · 0 rejected ",
        " Notification Center ───────────────────────────────────",
        " ▣    Price drop · com.example.listings            09:10",
        "      Now 180 €                                         ",
        "      may be changed by the app's extension             ",
        "      image https://cdn.example.com/listings/4821/cover…",
        " ▣    New message · org.example.chat               09:05",
        "      APN_Message                                       ",
        "      may be changed by the app's extension             ",
        "      category SECURE_MESSAGE                           ",
        " ▣    Water leak · com.example.alarms              09:00",
        "      ‼ Critical                                        ",
        "      Basement sensor: water detected                   ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
    ])
    // Narrow: every mark keeps its row, cut to fit with an ellipsis.
    let narrow = snapshot(states, 40, 14)
    expectScreen(narrow, equals: [
        " iOS 17 · SDK 0.1.21             badge 0",
        " 3 received · 3 shown                   ",
        " Notification Center ───────────────────",
        " ▣    Price drop · com.example.li… 09:10",
        "      Now 180 €                         ",
        "      may be changed by the app's exten…",
        "      image https://cdn.example.com/lis…",
        " ▣    New message · org.example.c… 09:05",
        "      APN_Message                       ",
        "      may be changed by the app's exten…",
        "      category SECURE_MESSAGE           ",
        " ▣    Water leak · com.example.al… 09:00",
        "      ‼ Critical                        ",
        "      Basement sensor: water detected   ",
    ])
    expectWellFormed(narrow)
}

/// The Admin-SDK-spelled FCM v1 request of Samples: each platform shows what it reads.
@Test func I11_I12_theNewMarksOnEveryPlatformSideBySide() throws {
    expectScreen(snapshot(try sampleStates("fcm-v1-admin-sdk-spellings.json"), 120, 10), equals: [
        " Android 14 · SDK 0.1.22         badge 1│ iOS 17 · SDK 0.1.21            badge 0│ Web · SDK 0.1.15               badge 0",
        " 1 received · 1 shown                   │ 1 received · 1 shown                  │ 1 received · 1 shown                  ",
        " Notifications ─────────────────────────│ Notification Center ──────────────────│ Notifications ────────────────────────",
        " ▣    app · Your ride is here           │ ▣    Your ride is here · app          │ ▣    app · Your ride is here          ",
        "      Grey Škoda Octavia · 4 min away   │      Grey Škoda Octavia · 4 min away  │      Grey Škoda Octavia · 4 min away  ",
        "      category OPEN_RIDE                │      may be changed by the app's exte…│      image https://cdn.example.com/ri…",
        "      image https://cdn.example.com/rid…│      category RIDE_ARRIVING           │                                       ",
        "                                        │      image https://cdn.example.com/ri…│                                       ",
        "                                        │                                       │                                       ",
        "                                        │                                       │                                       ",
    ])
}

/// SPEC §8: an offline profile says so in its header, with how many pushes wait; `dropped` counts
/// what the services discarded.
@Test func O3_anOfflineProfileSaysSoInItsHeader() {
    var intake = Intake()
    var ios = Center(profile: Profile(platform: .ios))
    ios.goOffline(at: 0)
    for (index, outcome) in intake.lines(Array(alertMarksSession.utf8), source: "t.jsonl").enumerated() {
        ios.apply(outcome, at: Int64(index))
    }
    expectScreen(snapshot([ios.state], 56, 10), equals: [
        " iOS 17 · SDK 0.1.21 · offline · 3 waiting       badge 0",
        " 3 received · 0 shown · 0 silent · 0 calls · 0 rejected ",
        " Nothing on screen: 3 waiting while offline.            ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
        "                                                        ",
    ])
    // The same three again: APNs keeps the newest per app (O3), so three are dropped.
    for outcome in intake.lines(Array(alertMarksSession.utf8), source: "t.jsonl") { ios.apply(outcome, at: 10) }
    ios.comeOnline(at: 60_000)
    // Zero counters give way so the header stays one line of counters (ColumnHeader's forms).
    #expect(snapshot([ios.state], 56, 10).plainLines()[0...1] == [
        " iOS 17 · SDK 0.1.21                             badge 0",
        " 6 received · 3 shown · 3 dropped                       ",
    ])
}

/// The inspector explains each mark with its rule id, and lists what the services did while the
/// device was offline (O2's onDeletedMessages among them).
@Test func I10_I11_I12_O2_theInspectorExplainsEachWithItsRule() throws {
    let states = centerStates(alertMarksSession, platforms: [.ios])
    let items = states[0].items
    func text(_ lines: [StyledLine]) -> [String] { lines.map { $0.map(\.text).joined() } }
    let critical = text(Inspector.lines(for: try #require(items.first { $0.app == "com.example.alarms" }), platform: .ios))
    #expect(critical.contains("  level       critical (I10: a critical sound; the app needs Apple's critical-alerts entitlement)"))
    #expect(critical.contains { $0.hasPrefix("  [I10]  sound with critical: 1: a critical alert") })
    let chat = text(Inspector.lines(for: try #require(items.first { $0.app == "org.example.chat" }), platform: .ios))
    #expect(chat.contains("  extension   mutable-content: 1 (I11): the app's Notification Service Extension may rewrite the title and body before they are shown"))
    #expect(chat.contains("  category    SECURE_MESSAGE (I12): the action buttons the app registered for it"))
    let listing = text(Inspector.lines(for: try #require(items.first { $0.app == "com.example.listings" }), platform: .ios))
    #expect(listing.contains("  image       https://cdn.example.com/listings/4821/cover.jpg (I12)"))
    #expect(!listing.contains { $0.hasPrefix("Device events") })

    let event = TraceStep("O2", "offline 10:00:10 → 10:05:00: FCM had more than 100 non-collapsible messages and discarded 101; on reconnect the app's onDeletedMessages() is called once")
    let withEvents = text(Inspector.lines(for: items[0], platform: .ios, events: [event]))
    let heading = try #require(withEvents.firstIndex(of: "Device events (offline delivery, O1–O5)"))
    #expect(withEvents[heading + 1] == "  [O2]  " + event.text)
}

/// Payload text in the new rows goes through the same sanitising as every other.
@Test func I12_aCategoryAndAnImageAreSanitisedLikeAnyPayloadText() {
    let push = #"{"aps":{"alert":"hi","category":"A\u001b[2JB","mutable-content":1},"image":"https://x.example/\u009b31m.jpg"}"#
    let screen = snapshot(centerStates(push, platforms: [.ios]), 50, 8)
    expectWellFormed(screen)
    #expect(!screen.plainLines().joined().unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
}
