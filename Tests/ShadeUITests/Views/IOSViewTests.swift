import Testing
import ShadeCore
import ShadeUI

// iOS's Notification Center (SPEC §4) as whole screens.

/// An APNs payload (D4) in an envelope, with the app as its `apns-topic`.
func apns(_ at: String, title: String, body: String, subtitle: String? = nil, thread: String? = nil,
          level: String? = nil, badge: Int? = nil, app: String = "com.example.app", collapse: String? = nil) -> String {
    var alert = #""title":"\#(title)","body":"\#(body)""#
    if let subtitle { alert += #","subtitle":"\#(subtitle)""# }
    var aps = #""alert":{\#(alert)}"#
    if let thread { aps += #","thread-id":"\#(thread)""# }
    if let level { aps += #","interruption-level":"\#(level)""# }
    if let badge { aps += #","badge":\#(badge)"# }
    let collapseHeader = collapse.map { #","apns-collapse-id":"\#($0)""# } ?? ""
    return envelope(at, #"{"aps":{\#(aps)}}"#, headers: #"{"apns-topic":"\#(app)"\#(collapseHeader)}"#)
}

@Test func I1_demoStacksNewestFirstWithTheCallsLaneOnTop() throws {
    let screen = snapshot(try sampleStates("demo.jsonl", platforms: [.ios]), 80, 24)
    expectScreen(screen, equals: [
        " iOS 17 · SDK 0.1.21                                                            ",
        " 22 received · 15 shown · 1 silent · 1 call · 1 rejected · 2 elsewhere · badge 2",
        " Calls ─────────────────────────────────────────────────────────────────────────",
        " (A)  Alice · Incoming call · com.example.imkit                            10:15",
        " Notification Center ───────────────────────────────────────────────────────────",
        " ▣    Match 12 · com.example.scores                                        10:15",
        "      ⚑ Time Sensitive                                                          ",
        "      Full time: 2 – 1                                                          ",
        " [A]  @ali · app                                                           10:15",
        "      See you then 👍                                                           ",
        "      3 more                                                                    ",
        " ▣    Order shipped · app                                                  10:15",
        "      Delivered to your door                                                    ",
        "      2 more                                                                    ",
        " (M)  Family · app                                                         10:15",
        "      Maman                                                                     ",
        "      Yes, everyone                                                             ",
        "      3 more                                                                    ",
        " (ع)  علی · app                                                            10:15",
        "      سلام! دوچرخه هنوز هست؟                                                    ",
        " ▣    com.example.imkit                                                    10:15",
        "      Alice sent a photo                                                        ",
        " (王) 王小明 · app                                                         10:15",
        "      你好！周末有空吗？                                                        ",
    ])
}

@Test func I1_aStackShowsItsNewestNotificationAndHowManyMore() {
    let states = centerStates([
        apns("09:00:00", title: "Build 41", body: "Passed", thread: "ci"),
        apns("09:10:00", title: "Build 42", body: "Failed: 3 tests", subtitle: "main branch", thread: "ci"),
        apns("09:20:00", title: "Build 43", body: "Passed", subtitle: "main branch", thread: "ci", badge: 3),
    ].joined(separator: "\n"), platforms: [.ios])
    expectScreen(snapshot(states, 44, 10), equals: [
        " iOS 17 · SDK 0.1.21                 badge 3",
        " 3 received · 3 shown                       ",
        " Notification Center ───────────────────────",
        " ▣    Build 43 · com.example.app       09:20",
        "      main branch                           ",
        "      Passed                                ",
        "      2 more                                ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
    var view = ViewState(platforms: [.ios])
    view.expanded = [states[0].items[0].id]
    expectScreen(snapshot(states, 44, 14, view: view), equals: [
        " iOS 17 · SDK 0.1.21                 badge 3",
        " 3 received · 3 shown                       ",
        " Notification Center ───────────────────────",
        " ▣    Build 43 · com.example.app       09:20",
        "      main branch                           ",
        "      Passed                                ",
        "      Build 42                         09:10",
        "      main branch                           ",
        "      Failed: 3 tests                       ",
        "      Build 41                         09:00",
        "      Passed                                ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
}

@Test func I2_withoutTheCapabilityConversationsShowTheAppIcon() throws {
    let on = snapshot(try sampleStates("seed000-group-conversation.jsonl", platforms: [.ios]), 44, 10)
    expectScreen(on, equals: [
        " iOS 17 · SDK 0.1.21                 badge 0",
        " 4 received · 4 shown                       ",
        " Notification Center ───────────────────────",
        " (M)  Family · app                          ",
        "      Maman                                 ",
        "      Yes, everyone                         ",
        "      3 more                                ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
    let off = centerStates(try String(contentsOf: samplesFolder.appendingPathComponent("seed000-group-conversation.jsonl"), encoding: .utf8),
                           platforms: [.ios], profile: { $0.iosCommunication = false })
    expectScreen(snapshot(off, 44, 10), equals: [
        " iOS 17 · SDK 0.1.21 · no comm. cap… badge 0",
        " 4 received · 4 shown                       ",
        " Notification Center ───────────────────────",
        " ▣    Family · app                          ",
        "      Yes, everyone                         ",
        "      3 more                                ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
}

@Test func I7_aRingingCallIsAReverseVideoBarOnTop() throws {
    let screen = snapshot(try sampleStates("seed001-voip-call.jsonl", platforms: [.ios]), 60, 10)
    expectScreen(screen, equals: [
        " iOS 17 · SDK 0.1.21                                 badge 0",
        " 1 received · 0 shown · 0 silent · 1 call · 0 rejected      ",
        " Calls ─────────────────────────────────────────────────────",
        " (A)  Alice · Incoming call · com.example.imkit        10:15",
        "                                                            ",
        "                                                            ",
        "                                                            ",
        "                                                            ",
        "                                                            ",
        "                                                            ",
    ])
    #expect((1..<60).allSatisfy { screen[$0, 3].style.reverse })
    #expect(!screen[0, 3].style.reverse)
}

@Test func I8_interruptionLevelsAreMarked() {
    let states = centerStates([
        apns("09:00:00", title: "Digest", body: "5 new posts", level: "passive", app: "com.example.news"),
        apns("09:01:00", title: "Flood warning", body: "Leave now", level: "critical", app: "com.example.alerts"),
        apns("09:02:00", title: "Your ride", body: "Arriving in 2 min", level: "time-sensitive", app: "com.example.ride"),
        apns("09:03:00", title: "Hello", body: "An ordinary one", level: "active", app: "com.example.chat"),
    ].joined(separator: "\n"), platforms: [.ios])
    let screen = snapshot(states, 50, 16)
    expectScreen(screen, equals: [
        " iOS 17 · SDK 0.1.21                       badge 0",
        " 4 received · 4 shown                             ",
        " Notification Center ─────────────────────────────",
        " ▣    Hello · com.example.chat               09:03",
        "      An ordinary one                             ",
        " ▣    Your ride · com.example.ride           09:02",
        "      ⚑ Time Sensitive                            ",
        "      Arriving in 2 min                           ",
        " ▣    Flood warning · com.example.alerts     09:01",
        "      ‼ Critical                                  ",
        "      Leave now                                   ",
        " ▣    Digest · com.example.news              09:00",
        "      passive                                     ",
        "      5 new posts                                 ",
        "                                                  ",
        "                                                  ",
    ])
    #expect(screen[6, 9].style == Style(foreground: .danger, bold: true))
    #expect(screen[6, 6].style == Style(foreground: .warning, bold: true))
}

@Test func I4_replacedByCollapseIDShowsOnlyTheNewest() throws {
    expectScreen(snapshot(try sampleStates("replace-by-collapse-id.jsonl", platforms: [.ios]), 50, 10), equals: [
        " iOS 17 · SDK 0.1.21                       badge 0",
        " 3 received · 1 shown                             ",
        " Notification Center ─────────────────────────────",
        " ▣    Match 12 · com.example.scores          10:40",
        "      Full time: 2 – 1                            ",
        "                                                  ",
        "                                                  ",
        "                                                  ",
        "                                                  ",
        "                                                  ",
    ])
}
