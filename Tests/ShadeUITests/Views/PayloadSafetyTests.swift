import Testing
import ShadeCore
import ShadeUI

// Payload text is data: whatever a push carries, the screen is exactly its size, wide glyphs
// stay whole, and no control character reaches a line.

/// A JSON string literal for any text (controls, DEL and C1 escaped).
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// A send-to-user push (D3) whose every text field is given, as a conversation when `room` is.
func anyTextPush(title: String, body: String, sender: String? = nil, room: String? = nil, group: String? = nil) -> String {
    var data: [String] = []
    if let room { data.append(#""conversationId":\#(jsonString(room))"#) }
    if let sender { data.append(#""senderName":\#(jsonString(sender))"#) }
    if let group { data += [#""conversationIsGroup":true"#, #""conversationTitle":\#(jsonString(group))"#] }
    return envelope("12:00:00", #"{"userId":"u","title":\#(jsonString(title)),"body":\#(jsonString(body)),"data":{\#(data.joined(separator: ","))}}"#)
}

/// `ansiText` may hold only its own SGR sequences: with them removed, no control is left.
func expectOnlySGR(_ screen: Screen, sourceLocation: SourceLocation = #_sourceLocation) {
    var rest = String.UnicodeScalarView()
    var scalars = screen.ansiText().unicodeScalars[...]
    while let scalar = scalars.popFirst() {
        if scalar == "\u{1B}" {
            // ESC [ digits/semicolons m, and nothing else.
            guard scalars.first == "[" else { Issue.record("a bare ESC in ansiText", sourceLocation: sourceLocation); return }
            scalars.removeFirst()
            while let next = scalars.first, next == ";" || ("0"..."9").contains(next) { scalars.removeFirst() }
            guard scalars.popFirst() == "m" else { Issue.record("an escape other than SGR in ansiText", sourceLocation: sourceLocation); return }
            continue
        }
        rest.append(scalar)
    }
    let controls = rest.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    #expect(controls.isEmpty, "controls in ansiText: \(controls.map { $0.value })", sourceLocation: sourceLocation)
}

@Test func escapeSequencesInAPayloadAreShownNotObeyed() {
    let pushes = [
        anyTextPush(title: "\u{1B}]0;pwned\u{07}", body: "\u{1B}[2J\u{1B}[H wiped\u{9B}31m red"),
        anyTextPush(title: "Chat", body: "line one\r\nline\ttwo \u{202E}evil", sender: "\u{1B}[31mEve\u{7F}", room: "r"),
    ].joined(separator: "\n")
    let states = centerStates(pushes, platforms: Platform.allCases)
    let android = snapshot([states[0]], 50, 10)
    expectScreen(android, equals: [
        " Android 14 · SDK 0.1.22                   badge 0",
        " 2 received · 2 shown                             ",
        " Conversations ───────────────────────────────────",
        " (3)  ␛[31mEve␡ · app                        12:00",
        "      line one…                                   ",
        " Notifications ───────────────────────────────────",
        " ▣    app · ␛]0;pwned␇                       12:00",
        "      ␛[2J␛[H wiped�31m red                       ",
        "                                                  ",
        "                                                  ",
    ])
    for screen in [android, snapshot(states, 100, 30), snapshot(states, 61, 17), snapshot([states[1]], 40, 10)] {
        expectWellFormed(screen)
        expectOnlySGR(screen)
    }
}

@Test func wideScriptsAndEmojiLineUpAndAreCutWhole() {
    let pushes = [
        anyTextPush(title: "家族", body: "今天晚上一起吃饭吗？我们在老地方见面吧", sender: "王小明", room: "g", group: "家族群组很长的名字测试一下"),
        anyTextPush(title: "علی", body: "سلام! دوچرخه هنوز هست؟ فردا می‌آیم", sender: "علی", room: "fa"),
        anyTextPush(title: "🎉 Party 👨‍👩‍👧", body: "🇮🇷🇮🇷🇮🇷 flags, 👍🏽 thumbs, zoe\u{0308} and café"),
    ].joined(separator: "\n")
    let states = centerStates(pushes, platforms: Platform.allCases)
    let android = snapshot([states[0]], 40, 14)
    expectScreen(android, equals: [
        " Android 14 · SDK 0.1.22         badge 0",
        " 3 received · 3 shown                   ",
        " Conversations ─────────────────────────",
        " (ع)  علی · app                    12:00",
        "      سلام! دوچرخه هنوز هست؟ فردا می‌آیم ",
        " (王) 家族群组很长的名字测试一下…  12:00",
        "      王小明: 今天晚上一起吃饭吗？我们… ",
        " Notifications ─────────────────────────",
        " ▣    app · 🎉 Party 👨‍👩‍👧            12:00",
        "      🇮🇷🇮🇷🇮🇷 flags, 👍🏽 thumbs, zoë and  ",
        "      café                              ",
        "                                        ",
        "                                        ",
        "                                        ",
    ])
    let all = snapshot(states, 61, 17)
    expectScreen(all, equals: [
        " Android 14… badge 0│ iOS 17 · S… badge 0│ Web · SDK… badge 0",
        " 3 recv · 3 shown   │ 3 recv · 3 shown   │ 3 recv · 3 shown  ",
        " Conversations ─────│ Notification Center│ Notifications ────",
        " (ع)  علی · app     │ ▣    🎉 Party 👨‍👩‍👧 ·…│ ▣    app · 🎉 Par…",
        "      سلام! دوچرخه… │      🇮🇷🇮🇷🇮🇷 flags, │      🇮🇷🇮🇷🇮🇷 flags,",
        " (王) 家族群组很长… │      👍🏽 thumbs, zo…│      👍🏽 thumbs, z…",
        "      王小明: 今天… │ (ع)  علی · app     │ (ع)  علی · app    ",
        " Notifications ─────│      سلام! دوچرخه  │      سلام! دوچرخه…",
        " ▣    app · 🎉 Part…│      هنوز هست؟ فرد…│ (王) 家族群组很长…",
        "      🇮🇷🇮🇷🇮🇷 flags, │ (王) 家族群组很长… │      王小明: 今天…",
        "      👍🏽 thumbs, zo…│      王小明        │                   ",
        "                    │      今天晚上一起吃│                   ",
        "                    │      饭吗？我们在… │                   ",
        "                    │                    │                   ",
        "                    │                    │                   ",
        "                    │                    │                   ",
        "                    │                    │                   ",
    ])
    for screen in [android, all, snapshot(states, 160, 40), snapshot(states, 100, 30)] { expectWellFormed(screen) }
    // A wide glyph is whole or absent: every glyph cell of width 2 is followed by its continuation.
    for row in 0..<all.rows {
        for column in 0..<all.columns where all[column, row].width == 2 {
            #expect(column + 1 < all.columns && all[column + 1, row].width == 0)
        }
    }
}

@Test func randomTrickyPayloadsKeepEveryScreenWellFormed() {
    var generator = SeededGenerator(seed: 4)
    for round in 0..<40 {
        var pushes: [String] = []
        for index in 0..<4 {
            let room: String? = Bool.random(using: &generator) ? "room\(index % 2)" : nil
            pushes.append(anyTextPush(title: randomTrickyString(&generator), body: randomTrickyString(&generator, maxLength: 30),
                                      sender: randomTrickyString(&generator), room: room,
                                      group: Bool.random(using: &generator) ? randomTrickyString(&generator) : nil))
        }
        let states = centerStates(pushes.joined(separator: "\n"), platforms: Platform.allCases)
        #expect(states.allSatisfy { $0.rejected == 0 }, "round \(round)")
        var view = ViewState(platforms: Platform.allCases)
        if round % 2 == 0 { view.expanded = Set(states.flatMap { $0.items.map(\.id) }) }
        for (columns, rows) in [(100, 30), (61, 17), (40, 10), (41, 11)] {
            let screen = ShadeView.compose(states, view: view, columns: columns, rows: rows)
            expectWellFormed(screen)
            expectOnlySGR(screen)
        }
    }
}

@Test(arguments: sampleNames())
func everySampleSnapshotsWellFormedWithItsSectionNames(name: String) throws {
    let states = try sampleStates(name)
    for (columns, rows) in [(100, 30), (160, 40), (40, 10), (61, 17)] {
        let screen = snapshot(states, columns, rows)
        expectWellFormed(screen)
        expectOnlySGR(screen)
    }
    // DESIGN: section headers print the section names of the state JSON as written.
    for state in states {
        let lines = snapshot([state], 100, 30).plainLines()
        for section in state.sections {
            #expect(lines.contains { $0.hasPrefix(" \(section.name) ─") }, "\(name) \(state.platform): \(section.name)")
        }
    }
}
