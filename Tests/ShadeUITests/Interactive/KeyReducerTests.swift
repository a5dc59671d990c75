import Testing
import ShadeCore
@testable import ShadeUI

/// The key reducer: every key of the TUI issue, as pure state changes and effects.
struct KeyReducerTests {
    static func items(_ ids: [String]) -> [Item] {
        ids.map { Item(id: $0, kind: .plain, key: $0, app: "app") }
    }

    static func press(_ keys: [UIKey], on model: InteractiveModel = InteractiveModel(view: ViewState(platforms: [.android])),
                      items: [String] = ["a", "b", "c"], replaying: Bool = false) -> (InteractiveModel, [UIEffect]) {
        var model = model
        var effects: [UIEffect] = []
        for key in keys {
            effects += KeyReducer.handle(key, model: &model, context: KeyContext(items: Self.items(items), isReplaying: replaying, pageSize: 9))
        }
        return (model, effects)
    }

    @Test(arguments: [
        ([UIKey.down], "a"), ([.down, .down], "b"), ([.character("j"), .character("j"), .character("j"), .character("j")], "c"),
        ([.up], "c"), ([.down, .up, .up], "a"), ([.end], "c"), ([.end, .home], "a"), ([.character("G")], "c"),
        ([.pageDown], "c"), ([.down, .down, .pageUp], "a"), ([.wheelDown, .wheelDown], "b"),
    ])
    func movingSelectsItemsInDisplayOrder(keys: [UIKey], selected: String) {
        #expect(Self.press(keys).0.view.selection == selected)
    }

    @Test func enterExpandsAndCollapsesTheSelectedStack() {
        let (expanded, _) = Self.press([.down, .enter])
        #expect(expanded.view.expanded == ["a"])
        let (collapsed, _) = Self.press([.down, .enter, .enter])
        #expect(collapsed.view.expanded == [])
    }

    @Test func pCyclesAndroidIOSWebAllAndBack() {
        var seen: [[Platform]] = []
        var model = InteractiveModel(view: ViewState(platforms: [.android]))
        for _ in 0..<4 {
            model = Self.press([.character("p")], on: model).0
            seen.append(model.view.platforms)
        }
        #expect(seen == [[.ios], [.web], [.android, .ios, .web], [.android]])
    }

    /// SPEC §8: `o` takes the shown profiles offline and back, live and while replaying; the run loop
    /// knows which state they are in, the reducer only asks.
    @Test(arguments: [[Platform.ios], [.web], Platform.allCases])
    func oTogglesTheShownProfilesOffline(_ platforms: [Platform]) {
        let model = InteractiveModel(view: ViewState(platforms: platforms))
        for replaying in [false, true] {
            let (after, effects) = Self.press([.character("o")], on: model, replaying: replaying)
            #expect(effects == [.toggleOffline(platforms: platforms)])
            #expect(after == model)
        }
        // In the inspector too: movement and the other keys work there as in the list.
        var inspecting = model
        inspecting.pane = .inspector
        #expect(Self.press([.character("o")], on: inspecting).1 == [.toggleOffline(platforms: platforms)])
    }

    @Test func dDismissesTheSelectedItemAndSelectsTheNext() {
        let (model, effects) = Self.press([.down, .down, .character("d")])
        #expect(effects == [.dismiss(itemID: "b", platforms: [.android])])
        #expect(model.view.selection == "c")
    }

    @Test func capitalDClearsAll() {
        let (model, effects) = Self.press([.down, .character("D")])
        #expect(effects == [.clearAll(platforms: [.android])])
        #expect(model.view.selection == nil)
    }

    @Test func slashEditsTheFilterUntilEnterAndEscClearsIt() {
        let (typing, _) = Self.press([.character("/"), .character("a"), .character("l"), .character("i")])
        #expect(typing.editingFilter && typing.view.filter == "ali")
        let (kept, _) = Self.press([.character("/"), .character("a"), .character("x"), .backspace, .enter])
        #expect(!kept.editingFilter && kept.view.filter == "a")
        // While editing, q is text, not quit.
        let (noQuit, effects) = Self.press([.character("/"), .character("q")])
        #expect(noQuit.view.filter == "q" && effects.isEmpty)
        let (cleared, _) = Self.press([.character("/"), .character("a"), .enter, .escape])
        #expect(cleared.view.filter == "")
    }

    @Test func iOpensTheInspectorOnTheSelectionAndEscClosesIt() {
        let (open, _) = Self.press([.character("i")])
        #expect(open.pane == .inspector && open.view.selection == "a")
        let (closed, _) = Self.press([.character("i"), .escape])
        #expect(closed.pane == .list)
        let (scrolled, _) = Self.press([.character("i"), .pageDown, .pageDown])
        #expect(scrolled.inspectorScroll == 8)
    }

    @Test func helpAndErrorsPanesOpenAndClose() {
        #expect(Self.press([.character("?")]).0.pane == .help)
        #expect(Self.press([.character("?"), .character("x")]).0.pane == .list)
        #expect(Self.press([.character("e")]).0.pane == .errors)
        #expect(Self.press([.character("e"), .escape]).0.pane == .list)
    }

    @Test(arguments: [
        (UIKey.character(" "), UIEffect.togglePause), (.character("."), .step), (.character("+"), .faster),
        (.character("-"), .slower), (.character("["), .seek(seconds: -10)), (.character("]"), .seek(seconds: 10)),
    ])
    func replayKeysWorkOnlyWhileReplaying(key: UIKey, effect: UIEffect) {
        #expect(Self.press([key], replaying: true).1 == [effect])
        #expect(Self.press([key], replaying: false).1 == [])
    }

    @Test func qAndControlCQuitFromEveryPane() {
        #expect(Self.press([.character("q")]).1 == [.quit])
        #expect(Self.press([.controlC]).1 == [.quit])
        #expect(Self.press([.character("e"), .character("q")]).1 == [.quit])
        #expect(Self.press([.character("/"), .controlC]).1 == [.quit])
    }

    @Test func theSideBySideViewWalksAnItemIDOnce() {
        let (model, _) = Self.press([.down, .down], items: ["a", "a", "b", "b"])
        #expect(model.view.selection == "b")
    }
}
