import Testing
import ShadeCore
@testable import ShadeUI

/// The live UI's chrome around the shades: footer, status line, errors view, help overlay, inspector.
struct InteractiveScreenTests {
    static func screen(_ states: [CenterState], _ model: InteractiveModel, columns: Int = 100, rows: Int = 30,
                       chrome: Chrome = Chrome(title: "test", now: 0)) -> Screen {
        InteractiveScreen.compose(states, model: model, chrome: chrome, columns: columns, rows: rows)
    }

    static func model(_ platforms: [Platform] = [.android]) -> InteractiveModel {
        InteractiveModel(view: ViewState(platforms: platforms))
    }

    static func footer(_ screen: Screen) -> String { screen.plainLines().last! }
    static func status(_ screen: Screen) -> String { screen.plainLines()[screen.rows - 2] }

    /// A replay's chrome: the footer has its most keys then.
    static let replaying = Chrome(title: "test", replay: ReplayStatus(position: 1, count: 2, elapsedMillis: 0, totalMillis: 1000,
                                                                      speed: 1, paused: false, finished: false))

    // MARK: footer

    @Test(arguments: [120, 100, 80, 60, 40])
    func theFooterKeepsHelpAndQuitAtEveryWidth(columns: Int) throws {
        let states = try sampleStates("demo.jsonl", platforms: [.android])
        for chrome in [Chrome(title: "test"), Self.replaying] {
            let footer = Self.footer(Self.screen(states, Self.model(), columns: columns, rows: 20, chrome: chrome))
            #expect(footer.hasSuffix("? help  q quit  ") || footer.trimmingCharacters(in: .whitespaces).hasSuffix("? help  q quit"),
                    "\(columns) columns: \(footer)")
            #expect(footer.contains("↑↓ move"), "\(columns) columns: the first keys go last: \(footer)")
        }
    }

    @Test func theFooterAt80And60ColumnsLeavesOutTheLastKeysFirst() throws {
        let states = try sampleStates("demo.jsonl", platforms: [.android])
        #expect(Self.footer(Self.screen(states, Self.model(), columns: 80, rows: 20, chrome: Self.replaying))
            == " ↑↓ move  ⏎ expand  i inspect  p platform  d dismiss  D clear  ? help  q quit   ")
        #expect(Self.footer(Self.screen(states, Self.model(), columns: 60, rows: 20, chrome: Self.replaying))
            == " ↑↓ move  ⏎ expand  i inspect  p platform  ? help  q quit   ")
    }

    // MARK: status line

    @Test func anActiveFilterStaysShownWhilePushesAreRejected() throws {
        let states = try sampleStates("demo.jsonl", platforms: [.android])   // one push of it is rejected
        var model = Self.model()
        model.view.filter = "dessert"
        #expect(Self.status(Self.screen(states, model)).hasPrefix(" filter: dessert  (Esc clears)  1 rejected — press e"))
        model.show(message: "✗ rejected demo.jsonl:15: unknown payload shape", now: 0)
        let status = Self.status(Self.screen(states, model))
        #expect(status.hasPrefix(" filter: dessert  (Esc clears)  ✗ rejected demo.jsonl:15"), "\(status)")
    }

    @Test func aHintIsDrawnInTheAccentColourAndARejectionInDanger() throws {
        var model = Self.model()
        model.show(message: "1 push for iOS — p shows it", tone: .hint, now: 0)
        let screen = Self.screen([], model)
        #expect(Self.status(screen).hasPrefix(" 1 push for iOS — p shows it"))
        #expect(screen[1, screen.rows - 2].style.foreground == .accent)
        model.show(message: "✗ rejected x", now: 0)
        #expect(Self.screen([], model)[1, screen.rows - 2].style.foreground == .danger)
    }

    // MARK: errors view

    /// The web rejects `renotify` without a tag (W3) where Android shows it; every platform rejects an unknown shape.
    static let rejectedOnDifferentPlatforms = [
        #"{"title":"T","options":{"renotify":true,"body":"b"}}"#,
        #"{"nothing":"known"}"#,
        #"{"userId":"u","title":"fine","body":"ok"}"#,
        #"{"also":"unknown"}"#,
    ].joined(separator: "\n")

    @Test func theErrorsViewAndTheStatusLineCountTheSameRejectionsInTheOrderTheyCame() {
        let states = centerStates(Self.rejectedOnDifferentPlatforms, platforms: Platform.allCases)
        var model = Self.model(Platform.allCases)
        model.pane = .errors
        let lines = Self.screen(states, model).plainLines()
        #expect(lines[1].hasPrefix("Errors — 3 rejected pushes"), "\(lines[1])")
        #expect(Self.status(Self.screen(states, model)).hasPrefix(" 3 rejected — press e"))
        let sources = lines.filter { $0.hasPrefix("✗ ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(sources == ["✗ test.jsonl:1", "✗ test.jsonl:2", "✗ test.jsonl:4"])
    }

    // MARK: help overlay

    @Test func theHelpOverlayFitsASmallTerminalAndScrolls() {
        var model = Self.model()
        model.pane = .help
        let small = Self.screen([], model, columns: 60, rows: 14).plainLines()
        let top = small.firstIndex { $0.contains("┌") }!, bottom = small.firstIndex { $0.contains("└") }!
        #expect(top >= 1 && bottom <= 11, "the box stays between the header and the status line")
        #expect(small[bottom].contains("more — ↑↓ scroll"), "\(small[bottom])")
        #expect(small.contains { $0.contains("move between items") })
        let limit = InteractiveScreen.helpScrollLimit(columns: 60, rows: 14, chrome: Chrome(title: "test"))
        #expect(limit > 0)
        model.helpScroll = limit
        let scrolled = Self.screen([], model, columns: 60, rows: 14).plainLines()
        #expect(scrolled.contains { $0.contains("a ringing VoIP call") }, "the legend's last lines come into view")
        #expect(!scrolled.contains { $0.contains("move between items") })
        #expect(InteractiveScreen.helpScrollLimit(columns: 120, rows: 60, chrome: Chrome(title: "test")) == 0)
    }

    @Test func arrowsScrollTheHelpAndAnyOtherKeyClosesIt() {
        var model = Self.model()
        model.pane = .help
        let context = KeyContext(items: [], isReplaying: false, pageSize: 10)
        _ = KeyReducer.handle(.down, model: &model, context: context)
        _ = KeyReducer.handle(.character("j"), model: &model, context: context)
        #expect(model.helpScroll == 2 && model.pane == .help)
        _ = KeyReducer.handle(.up, model: &model, context: context)
        #expect(model.helpScroll == 1)
        _ = KeyReducer.handle(.character("x"), model: &model, context: context)
        #expect(model.pane == .list)
    }

    // MARK: selection

    @Test func somethingIsSelectedFromTheStartSoTheFirstJSelectsTheSecondItem() {
        let items = ["a", "b", "c"].map { Item(id: $0, kind: .plain, key: $0, app: "app") }
        var model = Self.model()
        model.keepSelection(in: items)
        #expect(model.view.selection == "a")
        _ = KeyReducer.handle(.character("j"), model: &model, context: KeyContext(items: items, isReplaying: false, pageSize: 9))
        #expect(model.view.selection == "b")
        model.keepSelection(in: Array(items.dropFirst(2)))   // b was dismissed or replaced
        #expect(model.view.selection == "c")
        model.keepSelection(in: [])
        #expect(model.view.selection == "c", "nothing to select: the selection is left as it was")
    }
}

/// The inspector reads a stack push by push, and says how to look a rule id up.
struct InspectorTests {
    static func text(_ item: Item, command: String = "shade") -> [String] {
        Inspector.lines(for: item, platform: .ios, command: command).map { $0.map(\.text).joined() }
    }

    @Test func aStacksTracesAreSeparatedPushByPush() throws {
        let states = centerStates([envelope("10:00:00", #"{"aps":{"alert":"one"}}"#),
                                   envelope("10:00:01", #"{"aps":{"alert":"two"}}"#)].joined(separator: "\n"), platforms: [.ios])
        let stack = try #require(states[0].items.first)
        let lines = Self.text(stack)
        let separators = lines.filter { $0.contains("── push #") }
        #expect(separators == ["  ── push #1 ──", "  ── push #2 ──"])
        let why = try #require(lines.firstIndex(of: "Why (decision trace)"))
        #expect(lines[why + 2] == "  ── push #1 ──")
    }

    @Test func theWhySectionSaysOnceHowToLookARuleUp() throws {
        let states = centerStates(envelope("10:00:00", #"{"aps":{"alert":"one"}}"#), platforms: [.ios])
        let item = try #require(states[0].items.first)
        let lines = Self.text(item, command: ".build/debug/shade")
        let hints = lines.filter { $0.contains("explain") }
        #expect(hints.count == 1)
        #expect(hints.first == "  rule ids: `.build/debug/shade explain \(item.trace[0].rule)` says what a rule is and where it comes from")
        #expect(!lines.contains { $0.contains("── push #") }, "one push: nothing to separate")
    }

    @Test func theInspectorShowsWhenAPushCameInLocalTime() throws {
        let states = centerStates(envelope("10:15:00", #"{"aps":{"alert":"one"}}"#), platforms: [.ios])
        let item = try #require(states[0].items.first)
        let tokyo = Inspector.lines(for: item, platform: .ios, localTime: LocalTime(offsetSeconds: 9 * 3600)).map { $0.map(\.text).joined() }
        #expect(tokyo.contains { $0.hasSuffix("at          2026-11-30 19:15:00 +09:00  (2026-11-30T10:15:00.000Z)") }, "\(tokyo)")
    }
}

/// A push that lands only on a platform not shown says so, so it does not look lost.
struct ElsewhereHintTests {
    /// A push that went to `reached` and was elsewhere on the rest.
    static func tally(_ pushes: [Set<Platform>]) -> ElsewhereTally {
        var tally = ElsewhereTally()
        for reached in pushes { tally.add(missed: { !reached.contains($0) }, reached: reached.contains) }
        return tally
    }

    @Test(arguments: [
        // (where each push since the last frame went, shown) → hint
        ([[Platform.ios]], [Platform.android], "1 push for iOS — p shows it"),
        ([[.ios], [.ios, .web]], [.android], "2 pushes for iOS and Web — p shows them"),
        // An APNs payload and a send-to-user push in one frame: Android missed only the first.
        ([[.ios], [.android, .ios, .web]], [.android], "1 push for iOS — p shows it"),
        ([[.android, .ios, .web]], [.android], nil),
        ([[.ios]], Platform.allCases, nil),
        // The web view and Android's: both missed the APNs push, which only iOS shows.
        ([[.ios], [.android]], [.android, .web], "1 push for iOS — p shows it"),
    ] as [([Set<Platform>], [Platform], String?)])
    func theHintNamesWhereThePushesTheViewMissedWent(pushes: [Set<Platform>], shown: [Platform], hint: String?) {
        #expect(ElsewhereHint.text(before: ElsewhereTally(), after: Self.tally(pushes), shown: shown) == hint)
    }

    @Test func nothingNewNoHint() {
        let tally = Self.tally([[.ios], [.ios]])
        #expect(ElsewhereHint.text(before: tally, after: tally, shown: [.android]) == nil)
    }
}


/// The replay bar of a looping replay that has ended says when it starts over.
@Test(arguments: [(100, " ■ done · again in 12 s (space holds) 00:57 / 00:57 "), (60, " ■ done · again in 12 s 00:57 / 00:57 ")])
func theEndOfALoopSaysWhenItStartsOver(columns: Int, start: String) {
    let replay = ReplayStatus(position: 22, count: 22, elapsedMillis: 57_000, totalMillis: 57_000, speed: 1, paused: false,
                              finished: true, restartInMillis: 11_200)
    let screen = InteractiveScreen.compose([], model: InteractiveModel(view: ViewState()), chrome: Chrome(title: "demo", replay: replay),
                                           columns: columns, rows: 20)
    #expect(screen.plainLines()[1].hasPrefix(start), "\(screen.plainLines()[1])")
}
