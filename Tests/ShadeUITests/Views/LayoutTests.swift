import Testing
import ShadeCore
import ShadeUI

// Layout rules shared by the platforms: columns side by side, small screens, what does not
// fit, selection, filter, scrolling, and the API the TUI builds on.

@Test func sideBySideColumnsOfEqualWidthEachWithItsOwnHeader() throws {
    let screen = snapshot(try sampleStates("demo.jsonl"), 100, 30)
    expectScreen(screen, equals: [
        " Android 14 · SDK 0.1.22  badge 0│ iOS 17 · SDK 0.1.21      badge 2│ Web · SDK 0.1.15        badge 0",
        " 22 recv · 5 shown · 1 silent    │ 22 recv · 15 shown · 1 silent   │ 22 recv · 5 shown · 1 rej      ",
        " 1 rej · 7 elsewhere             │ 1 call · 1 rej · 2 elsewhere    │ 10 elsewhere                   ",
        " Conversations ──────────────────│ Calls ──────────────────────────│ Notifications ─────────────────",
        " [A]  @ali · app            10:15│ (A)  Alice · Incoming call 10:15│ [A]  @ali · app           10:15",
        "      +1 earlier message         │ Notification Center ────────────│      Is the bike still availab…",
        "      I can pick it up tonight   │ ▣    Match 12 · com.examp… 10:15│      I can pick it up tonight  ",
        "      Does 7 work for you?       │      ⚑ Time Sensitive           │      Does 7 work for you?      ",
        "      See you then 👍            │      Full time: 2 – 1           │      See you then 👍           ",
        " (M)  Family · app          10:15│ [A]  @ali · app            10:15│ ▣    app · New comment    10:15",
        "      +1 earlier message         │      See you then 👍            │      Sara replied to your post ",
        "      Sara: I'll bring dessert 🍰│      3 more                     │      [Reply] [Like]            ",
        "            And the kids?        │ ▣    Order shipped · app   10:15│ (M)  Family · app         10:15",
        "      Maman: Yes, everyone       │      Delivered to your door     │      Maman: Dinner at 8?       ",
        " (ع)  علی · app             10:15│      2 more                     │      Sara: I'll bring dessert… ",
        "      سلام! دوچرخه هنوز هست؟     │ (M)  Family · app          10:15│      Sara: And the kids?       ",
        " (王) 王小明 · app          10:15│      Maman                      │      Maman: Yes, everyone      ",
        "      你好！周末有空吗？         │      Yes, everyone              │ (ع)  علی · app            10:15",
        " Notifications ──────────────────│      3 more                     │      سلام! دوچرخه هنوز هست؟    ",
        " ▣    app · Order shipped   10:15│ (ع)  علی · app             10:15│ (王) 王小明 · app         10:15",
        "      Delivered to your door     │      سلام! دوچرخه هنوز هست؟     │      你好！周末有空吗？        ",
        "                                 │ ▣    com.example.imkit     10:15│                                ",
        " ✗ rejected demo.jsonl:15:       │      Alice sent a photo         │ ✗ rejected demo.jsonl:15:      ",
        " unknown payload shape (top-leve…│ (王) 王小明 · app          10:15│ unknown payload shape (top-lev…",
        "                                 │      你好！周末有空吗？         │                                ",
        "                                 │                                 │                                ",
        "                                 │ ✗ rejected demo.jsonl:15:       │                                ",
        "                                 │ unknown payload shape (top-leve…│                                ",
        "                                 │                                 │                                ",
        "                                 │                                 │                                ",
    ])
    expectWellFormed(screen)
}

@Test func theSmallestScreenStillShowsEveryColumn() throws {
    expectScreen(snapshot(try sampleStates("demo.jsonl"), 40, 10), equals: [
        " Android 14… │ iOS 17 · SD…│ Web · SDK… ",
        " 22 recv     │ 22 recv     │ 22 recv    ",
        " 5 shown …   │ 15 shown …  │ 5 shown …  ",
        " Conversatio…│ Calls ──────│ Notificati…",
        " [A]  @ali ·…│ (A)  Alice… │ [A]  @ali… ",
        "      +1 ear…│ +7 more in… │      Is th…",
        "      I can… │             │      I can…",
        "      Does 7…│             │      Does… ",
        "      See yo…│             │      See y…",
        " +4 more: 3… │             │ +4 more in…",
    ])
    expectScreen(snapshot(try sampleStates("demo.jsonl", platforms: [.android]), 40, 10), equals: [
        " Android 14 · SDK 0.1.22         badge 0",
        " 22 received · 5 shown · 1 silent       ",
        " 0 calls · 1 rejected · 7 elsewhere     ",
        " Conversations ─────────────────────────",
        " [A]  @ali · app                   10:15",
        "      +1 earlier message                ",
        "      I can pick it up tonight          ",
        "      Does 7 work for you?              ",
        "      See you then 👍                   ",
        " +4 more: 3 in Conversations, 1 in Noti…",
    ])
}

@Test(arguments: [(39, 10), (40, 9), (30, 8)])
func aScreenBelow40x10SaysItIsTooSmall(columns: Int, rows: Int) throws {
    let screen = snapshot(try sampleStates("demo.jsonl"), columns, rows)
    let text = screen.plainLines().joined(separator: "\n")
    #expect(text.contains("Terminal too small"))
    #expect(!text.contains("Android"))
    expectWellFormed(screen)
}

@Test func theTooSmallMessageIsCentred() {
    expectScreen(snapshot(centerStates(""), 30, 8), equals: [
        "                              ",
        "                              ",
        "                              ",
        "  Terminal too small: 30×8 —  ",
        "      Shade needs 40×10       ",
        "                              ",
        "                              ",
        "                              ",
    ])
    expectScreen(snapshot(centerStates(""), 39, 5), equals: [
        "                                       ",
        "Terminal too small: 39×5 — Shade needs ",
        "                 40×10                 ",
        "                                       ",
        "                                       ",
    ])
}

@Test func itemsThatDoNotFitAreCountedPerSection() {
    let pushes = (1...6).map { chat("10:0\($0):00", room: "r\($0)", sender: "Person \($0)", text: "Hello \($0)") }
        + [fcm("10:07:00", title: "Order shipped", body: "On its way", tag: "o1")]
    let states = centerStates(pushes.joined(separator: "\n"))
    expectScreen(snapshot(states, 48, 10), equals: [
        " Android 14 · SDK 0.1.22                 badge 0",
        " 7 received · 7 shown                           ",
        " Conversations ─────────────────────────────────",
        " (P)  Person 6 · app                       10:06",
        "      Hello 6                                   ",
        " (P)  Person 5 · app                       10:05",
        "      Hello 5                                   ",
        " (P)  Person 4 · app                       10:04",
        "      Hello 4                                   ",
        " +4 more: 3 in Conversations, 1 in Notifications",
    ])
}

@Test func onlyAnEntryTallerThanTheWholeListIsCutAndItSaysSo() {
    let pushes = (1...12).map { chat("10:\(10 + $0):00", room: "r", sender: "Ali", text: "message \($0)") }
        + [fcm("09:00:00", title: "Older", body: "Below")]
    let states = centerStates(pushes.joined(separator: "\n"))
    var view = ViewState()
    view.expanded = [states[0].items[0].id]
    expectScreen(snapshot(states, 44, 10, view: view), equals: [
        " Android 14 · SDK 0.1.22             badge 0",
        " 13 received · 2 shown                      ",
        " Conversations ─────────────────────────────",
        " (A)  Ali · app                        10:22",
        "      message 1                             ",
        "      message 2                             ",
        "      message 3                             ",
        "      message 4                             ",
        "      … 8 more lines of this notification   ",
        " +1 more in Notifications                   ",
    ])
}

@Test func anEmptyCenterSaysWhatToDo() {
    // The live UI knows how to send it a push (ViewState.emptyHint); a snapshot just says it is empty.
    var view = ViewState(platforms: [.ios])
    view.emptyHint = "send one: .build/debug/shade send -"
    expectScreen(snapshot(centerStates("", platforms: [.ios]), 44, 10, view: view), equals: [
        " iOS 17 · SDK 0.1.21                 badge 0",
        " 0 received · 0 shown                       ",
        " No notifications yet — send one:           ",
        " .build/debug/shade send -                  ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
    #expect(snapshot(centerStates("", platforms: [.ios]), 44, 10).plainLines()[2] == " No notifications yet.                      ")
    let silentOnly = centerStates(envelope("10:00:00", #"{"to":"t","data":{"sync":"1"}}"#))
    #expect(snapshot(silentOnly, 60, 10).plainLines()[2] == " Nothing on screen: 1 silent.                               ")
}

@Test func theSelectionIsMarkedAndItsFirstRowReversed() throws {
    let states = try sampleStates("demo.jsonl", platforms: [.android])
    var view = ViewState()
    view.selection = states[0].sections[0].items[1].id      // Family
    let screen = snapshot(states, 60, 16, view: view)
    expectScreen(screen, equals: [
        " Android 14 · SDK 0.1.22                             badge 0",
        " 22 received · 5 shown · 1 silent · 1 rejected · 7 elsewhere",
        " Conversations ─────────────────────────────────────────────",
        " [A]  @ali · app                                       10:15",
        "      +1 earlier message                                    ",
        "      I can pick it up tonight                              ",
        "      Does 7 work for you?                                  ",
        "      See you then 👍                                       ",
        "▌(M)  Family · app                                     10:15",
        "▌     +1 earlier message                                    ",
        "▌     Sara: I'll bring dessert 🍰                           ",
        "▌           And the kids?                                   ",
        "▌     Maman: Yes, everyone                                  ",
        " (ع)  علی · app                                        10:15",
        "      سلام! دوچرخه هنوز هست؟                                ",
        " +2 more: 1 in Conversations, 1 in Notifications            ",
    ])
    // The marker beside every row of the item, the title row in reverse video, nothing else.
    let gutter = Array(repeating: " ", count: 8) + Array(repeating: "▌", count: 5) + Array(repeating: " ", count: 3)
    #expect((0..<16).map { screen[0, $0].text } == gutter)
    #expect((1..<60).allSatisfy { screen[$0, 8].style.reverse })
    #expect(!(1..<60).contains { screen[$0, 9].style.reverse || screen[$0, 7].style.reverse })
}

@Test func theFilterHidesWhatDoesNotMatch() throws {
    let states = try sampleStates("demo.jsonl", platforms: [.android])
    var view = ViewState()
    view.filter = "DESSERT"
    expectScreen(snapshot(states, 50, 10, view: view), equals: [
        " Android 14 · SDK 0.1.22                   badge 0",
        " 22 received · 5 shown · 1 silent · 0 calls       ",
        " 1 rejected · 7 elsewhere                         ",
        " Conversations ───────────────────────────────────",
        " (M)  Family · app                           10:15",
        "      +1 earlier message                          ",
        "      Sara: I'll bring dessert 🍰                 ",
        "            And the kids?                         ",
        "      Maman: Yes, everyone                        ",
        " ✗ rejected demo.jsonl:15: unknown payload shape… ",
    ])
    view.filter = "nothing like this"
    #expect(snapshot(states, 50, 10, view: view).plainLines()[3].hasPrefix(" No notification matches \"nothing like this\""))
    #expect(ShadeView.selectableItems(states, view: view).isEmpty)
}

@Test func theFilterKeepsABundlesMatchingChildren() {
    let pushes = ["Invoice", "Receipt", "Invoice reminder", "Newsletter"].enumerated()
        .map { fcm("10:0\($0.offset):00", title: $0.element, body: "Body") }
    let states = centerStates(pushes.joined(separator: "\n"))
    var view = ViewState()
    view.filter = "invoice"
    expectScreen(snapshot(states, 44, 10, view: view), equals: [
        " Android 14 · SDK 0.1.22             badge 0",
        " 4 received · 4 shown                       ",
        " Notifications ─────────────────────────────",
        " ▣    app · 2 notifications            10:03",
        "      Invoice reminder  Body                ",
        "      Invoice  Body                         ",
        "                                            ",
        "                                            ",
        "                                            ",
        "                                            ",
    ])
}

@Test func scrollingSkipsEntriesAndSaysHowMany() throws {
    let states = try sampleStates("demo.jsonl", platforms: [.android])
    var view = ViewState()
    view.scroll = 2
    expectScreen(snapshot(states, 50, 12, view: view), equals: [
        " Android 14 · SDK 0.1.22                   badge 0",
        " 22 received · 5 shown · 1 silent · 0 calls       ",
        " 1 rejected · 7 elsewhere                         ",
        " ↑ 2 above                                        ",
        " Conversations ───────────────────────────────────",
        " (ع)  علی · app                              10:15",
        "      سلام! دوچرخه هنوز هست؟                      ",
        " (王) 王小明 · app                           10:15",
        "      你好！周末有空吗？                          ",
        " Notifications ───────────────────────────────────",
        " ▣    app · Order shipped     tag order_1042 10:15",
        "      Delivered to your door                      ",
    ])
}

@Test func itemRowRangesAreTheRowsDrawnAfterScrolling() throws {
    let states = try sampleStates("demo.jsonl", platforms: [.android])
    let ids = states[0].items.map(\.id)
    var view = ViewState()
    let rect = Rect(column: 0, row: 1, columns: 50, rows: 15)
    let ranges = ShadeView.itemRowRanges(states[0], view: view, rect: rect)
    // Header rows 1–3 (the counters take two at this width), the rule on 4; `+3 more` takes the last row.
    #expect(ranges.map(\.id) == [ids[0], ids[1]])
    #expect(ranges.map(\.rows) == [5..<10, 10..<15])
    view.scroll = 3
    let scrolled = ShadeView.itemRowRanges(states[0], view: view, rect: rect)
    #expect(scrolled.map(\.id) == [ids[3], ids[4]])
    #expect(scrolled.map(\.rows) == [6..<8, 9..<11])      // `↑ 3 above` on row 4
}

@Test func selectableItemsFollowTheScreenOrder() throws {
    let ios = try sampleStates("demo.jsonl", platforms: [.ios])
    let items = ShadeView.selectableItems(ios, view: ViewState(platforms: [.ios]))
    #expect(items.first?.kind == .call)                        // the Calls lane is drawn on top
    #expect(items.map(\.id) == ios[0].sections[1].items.map(\.id) + ios[0].sections[0].items.map(\.id))
    // Side by side: column after column, an item shown in several columns listed once.
    let all = try sampleStates("demo.jsonl")
    let walk = ShadeView.selectableItems(all, view: ViewState(platforms: Platform.allCases)).map(\.id)
    #expect(Set(walk).count == walk.count)
    #expect(walk.prefix(all[0].items.count) == all[0].items.map(\.id)[...])
    #expect(Set(walk) == Set(all.flatMap { $0.items.map(\.id) }))
}

@Test func theViewPicksTheStatesOfItsPlatforms() throws {
    let all = try sampleStates("demo.jsonl")
    let onlyIOS = ShadeView.compose(all, view: ViewState(platforms: [.ios]), columns: 60, rows: 12)
    #expect(onlyIOS == ShadeView.compose([all[1]], view: ViewState(platforms: [.ios]), columns: 60, rows: 12))
    #expect(onlyIOS.plainLines()[0].hasPrefix(" iOS 17"))
}

@Test func drawFillsOnlyItsRect() throws {
    var screen = Screen(columns: 50, rows: 12)
    for row in 0..<12 { screen.put(String(repeating: "#", count: 50), column: 0, row: row) }
    ShadeView.draw(try sampleStates("demo.jsonl", platforms: [.web]), view: ViewState(platforms: [.web]), into: &screen,
                   rect: Rect(column: 2, row: 1, columns: 46, rows: 10))
    expectScreen(screen, equals: [
        "##################################################",
        "## Web · SDK 0.1.15                      badge 0##",
        "## 22 recv · 5 shown · 1 rej · 10 elsewhere     ##",
        "## Notifications ───────────────────────────────##",
        "## [A]  @ali · app                         10:15##",
        "##      Is the bike still available?            ##",
        "##      I can pick it up tonight                ##",
        "##      Does 7 work for you?                    ##",
        "##      See you then 👍                         ##",
        "## +4 more in Notifications                     ##",
        "##                                              ##",
        "##################################################",
    ])
}

@Test func headerCountersShortenWhenNarrow() throws {
    let states = try sampleStates("demo.jsonl", platforms: [.ios])
    let lines = (40...100).map { snapshot(states, $0, 10).plainLines() }
    for screen in lines {
        #expect(screen[0].hasPrefix(" iOS 17 · SDK 0.1.21"))
        #expect(screen[1].contains("22 re"))
    }
    #expect(lines[0][1] == " 22 received · 15 shown · 1 silent      ")
    #expect(lines[60][1] == padded(" 22 received · 15 shown · 1 silent · 1 call · 1 rejected · 2 elsewhere · badge 2", toWidth: 100))
}

@Test func theScreenReadsWithoutColour() throws {
    // Colours only add: each role also has a monochrome attribute (NO_COLOR, dumb terminals).
    let states = try sampleStates("demo.jsonl", platforms: [.ios])
    let screen = snapshot(states, 80, 24)
    func style(_ column: Int, _ row: Int) -> Style { screen[column, row].style }
    #expect(style(1, 0).bold)                                   // the profile
    #expect(style(1, 1).dim)                                    // the counters
    #expect(style(1, 2).bold && style(20, 2).dim)               // `Calls` and its rule
    #expect((1..<80).allSatisfy { style($0, 3).reverse })       // the ringing call
    #expect(style(6, 5).bold)                                   // a title: `Match 12`
    #expect(style(16, 5).dim)                                   // its app
    #expect(style(76, 5).dim)                                   // its time
    #expect(style(6, 6).bold)                                   // `⚑ Time Sensitive`
    #expect(style(6, 10).dim)                                   // `3 more`
    #expect(style(1, 8).bold)                                   // an avatar badge
}

@Test func drawCopesWithAnyRect() throws {
    // The TUI may hand over any region, however small, even one reaching past the screen.
    let states = try sampleStates("demo.jsonl")
    for view in [ViewState(platforms: Platform.allCases), ViewState(platforms: [.ios])] {
        for columns in 0...14 {
            for rows in 0...5 {
                var screen = Screen(columns: 20, rows: 8)
                ShadeView.draw(states, view: view, into: &screen, rect: Rect(column: 10, row: 4, columns: columns, rows: rows))
                expectWellFormed(screen)
                #expect(screen.plainLines()[0...3].allSatisfy { $0 == String(repeating: " ", count: 20) })
            }
        }
    }
}
