import Testing
import ShadeCore
import ShadeUI

// Android's shade (SPEC §3) as whole screens.

@Test func A5_demoShowsConversationsAboveNotifications() throws {
    let screen = snapshot(try sampleStates("demo.jsonl", platforms: [.android]), 100, 30)
    expectScreen(screen, equals: [
        " Android 14 · SDK 0.1.22                                                                            ",
        " 22 received · 5 shown · 1 silent · 0 calls · 1 rejected · 7 elsewhere · badge 0                    ",
        " Conversations ─────────────────────────────────────────────────────────────────────────────────────",
        " [A]  @ali · app                                                                               10:15",
        "      +1 earlier message                                                                            ",
        "      I can pick it up tonight                                                                      ",
        "      Does 7 work for you?                                                                          ",
        "      See you then 👍                                                                               ",
        " (M)  Family · app                                                                             10:15",
        "      +1 earlier message                                                                            ",
        "      Sara: I'll bring dessert 🍰                                                                   ",
        "            And the kids?                                                                           ",
        "      Maman: Yes, everyone                                                                          ",
        " (ع)  علی · app                                                                                10:15",
        "      سلام! دوچرخه هنوز هست؟                                                                        ",
        " (王) 王小明 · app                                                                             10:15",
        "      你好！周末有空吗？                                                                            ",
        " Notifications ─────────────────────────────────────────────────────────────────────────────────────",
        " ▣    app · Order shipped                                                       tag order_1042 10:15",
        "      Delivered to your door                                                                        ",
        "                                                                                                    ",
        " ✗ rejected demo.jsonl:15: unknown payload shape (top-level keys \"notification_title\"): tried D1    ",
        " envelope (\"payload\"), D2 FCM v1 (\"message\"), D3 send-to-user (\"userId\"), D4 APNs (\"aps\"), D5 Expo… ",
        "                                                                                                    ",
        "                                                                                                    ",
        "                                                                                                    ",
        "                                                                                                    ",
        "                                                                                                    ",
        "                                                                                                    ",
        "                                                                                                    ",
    ])
}

@Test func A5_beforeAndroid11ConversationsShareOneList() {
    let states = centerStates([
        chat("10:00:00", room: "r1", sender: "Ali", text: "Hi"),
        fcm("10:01:00", title: "Order shipped", body: "On its way"),
        chat("10:02:00", room: "r2", sender: "Sara", text: "Lunch?"),
    ].joined(separator: "\n"), profile: { $0.osVersion = Version(10) })
    expectScreen(snapshot(states, 50, 10), equals: [
        " Android 10 · SDK 0.1.22                   badge 0",
        " 3 received · 3 shown                             ",
        " Notifications ───────────────────────────────────",
        " (S)  Sara · app                             10:02",
        "      Lunch?                                      ",
        " ▣    app · Order shipped                    10:01",
        "      On its way                                  ",
        " (A)  Ali · app                              10:00",
        "      Hi                                          ",
        "                                                  ",
    ])
}

@Test func A1_collapsedShowsTheNewestLinesAndCountsTheEarlierOnes() {
    let pushes = (1...30).map { chat("10:\(10 + $0):00", room: "r", sender: "Ali", text: "message \($0)") }
    let states = centerStates(pushes.joined(separator: "\n"))
    expectScreen(snapshot(states, 40, 10), equals: [
        " Android 14 · SDK 0.1.22         badge 0",
        " 30 received · 1 shown                  ",
        " Conversations ─────────────────────────",
        " (A)  Ali · app                    10:40",
        "      +27 earlier messages              ",
        "      message 28                        ",
        "      message 29                        ",
        "      message 30                        ",
        "                                        ",
        "                                        ",
    ])
}

@Test func A1_expandedShowsEveryKeptLineAndCountsTheDropped() {
    let pushes = (1...30).map { chat("10:\(10 + $0):00", room: "r", sender: "Ali", text: "message \($0)") }
    let states = centerStates(pushes.joined(separator: "\n"))
    var view = ViewState()
    view.expanded = [states[0].items[0].id]
    expectScreen(snapshot(states, 40, 31, view: view), equals: [
        " Android 14 · SDK 0.1.22         badge 0",
        " 30 received · 1 shown                  ",
        " Conversations ─────────────────────────",
        " (A)  Ali · app                    10:40",
        "      +5 earlier messages not kept      ",
        "      message 6                         ",
        "      message 7                         ",
        "      message 8                         ",
        "      message 9                         ",
        "      message 10                        ",
        "      message 11                        ",
        "      message 12                        ",
        "      message 13                        ",
        "      message 14                        ",
        "      message 15                        ",
        "      message 16                        ",
        "      message 17                        ",
        "      message 18                        ",
        "      message 19                        ",
        "      message 20                        ",
        "      message 21                        ",
        "      message 22                        ",
        "      message 23                        ",
        "      message 24                        ",
        "      message 25                        ",
        "      message 26                        ",
        "      message 27                        ",
        "      message 28                        ",
        "      message 29                        ",
        "      message 30                        ",
        "                                        ",
    ])
}

@Test func A4_groupLinesFormABlockPerSenderIdentity() {
    let states = centerStates([
        chat("10:00:00", room: "g", sender: "Ali", id: "ali_tehran", text: "Hi from Tehran", group: "Two Alis"),
        chat("10:00:10", room: "g", sender: "Ali", id: "ali_tehran", text: "Still here", group: "Two Alis"),
        chat("10:00:20", room: "g", sender: "Ali", id: "ali_shiraz", text: "Hi from Shiraz", group: "Two Alis"),
    ].joined(separator: "\n"))
    let screen = snapshot(states, 44, 10)
    expectScreen(screen, equals: [
        " Android 14 · SDK 0.1.22             badge 0",
        " 3 received · 1 shown                       ",
        " Conversations ─────────────────────────────",
        " (A)  Two Alis · app                   10:00",
        "      Ali: Hi from Tehran                   ",
        "           Still here                       ",
        "      Ali: Hi from Shiraz                   ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
    // C3: the same name with another senderId is another person, in another colour.
    let tehran = Avatar.color(for: "ali_tehran"), shiraz = Avatar.color(for: "ali_shiraz")
    #expect(tehran != shiraz)
    #expect(screen[6, 4].style == Style(foreground: .avatar(tehran), bold: true))
    #expect(screen[6, 6].style == Style(foreground: .avatar(shiraz), bold: true))
}

@Test func A2_theBadgeIsThePhotoOrInitialsOfTheLatestSenderInTheirColour() {
    let states = centerStates([
        chat("10:00:00", room: "g", sender: "Maman", text: "Dinner?", group: "Family"),
        chat("10:00:10", room: "g", sender: "@ali", text: "Yes", group: "Family", photo: "https://cdn.example.com/ali.jpg"),
        chat("10:00:20", room: "d", sender: "zoë", text: "Hello"),
    ].joined(separator: "\n"))
    let screen = snapshot(states, 40, 12)
    expectScreen(screen, equals: [
        " Android 14 · SDK 0.1.22         badge 0",
        " 3 received · 2 shown                   ",
        " Conversations ─────────────────────────",
        " (Z)  zoë · app                    10:00",
        "      Hello                             ",
        " [A]  Family · app                 10:00",
        "      Maman: Dinner?                    ",
        "      @ali: Yes                         ",
        "                                        ",
        "                                        ",
        "                                        ",
        "                                        ",
    ])
    #expect(screen[1, 3].style == Style(foreground: .avatar(Avatar.color(for: "zoë")), bold: true))
    #expect(screen[1, 5].style == Style(foreground: .avatar(Avatar.color(for: "@ali")), bold: true))
}

@Test func A7_plainNotificationsShowAppTitleBodyAndTag() {
    let states = centerStates([
        fcm("10:00:00", title: "Delivery", body: "Courier picked up your parcel", tag: "parcel_77"),
        fcm("10:05:00", title: "Delivery", body: "Delivered to your door, signed by the neighbour at number 12 who was home", tag: "parcel_77"),
        fcm("10:06:00", title: "Sale", body: "Everything must go"),
    ].joined(separator: "\n"))
    expectScreen(snapshot(states, 50, 10), equals: [
        " Android 14 · SDK 0.1.22                   badge 0",
        " 3 received · 2 shown                             ",
        " Notifications ───────────────────────────────────",
        " ▣    app · Sale                             10:06",
        "      Everything must go                          ",
        " ▣    app · Delivery           tag parcel_77 10:05",
        "      Delivered to your door, signed by the       ",
        "      neighbour at number 12 who was home         ",
        "                                                  ",
        "                                                  ",
    ])
}

@Test func A8_aBundleShowsItsNewestTwoThenEveryChildWhenExpanded() {
    let pushes = (1...5).map { fcm("10:0\($0):00", title: "Update \($0)", body: "Body \($0)") }
    let states = centerStates(pushes.joined(separator: "\n"))
    let bundle = states[0].items[0]
    #expect(bundle.kind == .bundle)
    expectScreen(snapshot(states, 44, 10), equals: [
        " Android 14 · SDK 0.1.22             badge 0",
        " 5 received · 5 shown                       ",
        " Notifications ─────────────────────────────",
        " ▣    app · 5 notifications            10:05",
        "      Update 5  Body 5                      ",
        "      Update 4  Body 4                      ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
    var view = ViewState()
    view.expanded = [bundle.id]
    expectScreen(snapshot(states, 44, 20, view: view), equals: [
        " Android 14 · SDK 0.1.22             badge 0",
        " 5 received · 5 shown                       ",
        " Notifications ─────────────────────────────",
        " ▣    app · 5 notifications            10:05",
        "      Update 5                         10:05",
        "        Body 5                              ",
        "      Update 4                         10:04",
        "        Body 4                              ",
        "      Update 3                         10:03",
        "        Body 3                              ",
        "      Update 2                         10:02",
        "        Body 2                              ",
        "      Update 1                         10:01",
        "        Body 1                              ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
    // The children follow their bundle in what ↑/↓ walk through, only when it is expanded.
    #expect(ShadeView.selectableItems(states, view: ViewState()).map(\.id) == [bundle.id])
    #expect(ShadeView.selectableItems(states, view: view).map(\.id) == [bundle.id] + bundle.children!.map(\.id))
}
