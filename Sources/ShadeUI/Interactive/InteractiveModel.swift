import ShadeCore

/// A key as the interactive UI understands it; the terminal back end translates its own keys.
public enum UIKey: Equatable, Sendable {
    case character(Character)
    case up, down, pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    case controlC
    case wheelUp, wheelDown
    case click(column: Int, row: Int)
    case resize
}

/// What a key asks the outside world to do: the run loop performs it (the reducer stays pure).
public enum UIEffect: Equatable, Sendable {
    case quit
    case dismiss(itemID: String, platforms: [Platform])
    case clearAll(platforms: [Platform])
    case togglePause, step, faster, slower
    case seek(seconds: Int)
    /// SPEC §8: the shown profiles go offline, or come back.
    case toggleOffline(platforms: [Platform])
}

/// Which pane has the keyboard.
public enum Pane: Equatable, Sendable {
    case list, inspector, help, errors
}

/// The interactive UI's state: what is shown and selected, beyond the centers themselves.
public struct InteractiveModel: Equatable, Sendable {
    public var view: ViewState
    public var pane: Pane = .list
    /// `/` was pressed: keys edit the filter until Enter or Esc.
    public var editingFilter = false
    public var inspectorScroll = 0
    public var errorsScroll = 0
    /// Lines of the `?` overlay scrolled past (it scrolls where the terminal is too small for it).
    public var helpScroll = 0
    /// A transient status message (a rejected push, a push for a platform not shown) and when it
    /// goes away (clock ms).
    public var message: String?
    public var messageUntil: Int64 = 0
    public var messageTone: MessageTone = .problem

    public enum MessageTone: Equatable, Sendable {
        /// Something was refused: said in the danger colour.
        case problem
        /// Something worth knowing: where a push went, what key shows it.
        case hint
    }

    public init(view: ViewState) { self.view = view }

    /// The order `p` cycles through: android → ios → web → all.
    public static let platformCycle: [[Platform]] = [[.android], [.ios], [.web], Platform.allCases]

    public mutating func show(message: String, tone: MessageTone = .problem, now: Int64, for millis: Int64 = 4000) {
        self.message = message
        messageTone = tone
        messageUntil = now + millis
    }

    /// Something is always selected while there is something to select, so the first `j` moves to
    /// the second item and `i` or `d` act on what the screen marks. A selection that went away (its
    /// item dismissed or replaced) moves to the first item.
    public mutating func keepSelection(in items: [Item]) {
        guard let first = items.first else { return }
        if let selection = view.selection, items.contains(where: { $0.id == selection }) { return }
        view.selection = first.id
    }
}

/// What the reducer needs to know about the screen it acts on.
public struct KeyContext: Sendable {
    /// Selectable items in display order (ShadeView.selectableItems).
    public var items: [Item]
    public var isReplaying: Bool
    /// Rows of the list area: PgUp/PgDn move about this many items' worth.
    public var pageSize: Int

    public init(items: [Item], isReplaying: Bool, pageSize: Int) {
        self.items = items
        self.isReplaying = isReplaying
        self.pageSize = pageSize
    }
}

/// The key reducer: `(model, key) → effects`, like bubbletea's Update. No side effects here.
public enum KeyReducer {
    public static func handle(_ key: UIKey, model: inout InteractiveModel, context: KeyContext) -> [UIEffect] {
        if model.editingFilter { return editFilter(key, model: &model) }
        if key == .controlC { return [.quit] }
        switch model.pane {
        case .help:
            switch key {
            case .character("q"): return [.quit]
            case .up, .character("k"), .wheelUp: model.helpScroll = max(0, model.helpScroll - 1)
            case .down, .character("j"), .wheelDown: model.helpScroll += 1
            case .pageUp: model.helpScroll = max(0, model.helpScroll - context.pageSize)
            case .pageDown: model.helpScroll += context.pageSize
            case .resize: break
            default: model.pane = .list  // any other key closes the help overlay
            }
            return []
        case .errors:
            switch key {
            case .up, .character("k"), .wheelUp: model.errorsScroll = max(0, model.errorsScroll - 1)
            case .down, .character("j"), .wheelDown: model.errorsScroll += 1
            case .pageUp: model.errorsScroll = max(0, model.errorsScroll - context.pageSize)
            case .pageDown: model.errorsScroll += context.pageSize
            case .home: model.errorsScroll = 0
            case .character("q"): return [.quit]
            case .escape, .character("e"): model.pane = .list
            default: break
            }
            return []
        case .inspector:
            switch key {
            case .pageUp, .wheelUp: model.inspectorScroll = max(0, model.inspectorScroll - context.pageSize / 2); return []
            case .pageDown, .wheelDown: model.inspectorScroll += context.pageSize / 2; return []
            case .escape, .character("i"): model.pane = .list; model.inspectorScroll = 0; return []
            default: break  // movement and the other keys work as in the list, the inspector follows
            }
        case .list:
            break
        }
        return listKey(key, model: &model, context: context)
    }

    static func listKey(_ key: UIKey, model: inout InteractiveModel, context: KeyContext) -> [UIEffect] {
        let ids = uniqueIDs(context.items)
        let current = model.view.selection.flatMap { ids.firstIndex(of: $0) }
        func select(_ index: Int?) {
            guard !ids.isEmpty, let index else { model.view.selection = nil; return }
            model.view.selection = ids[min(max(0, index), ids.count - 1)]
            model.inspectorScroll = 0
        }
        let page = max(1, context.pageSize / 3)
        switch key {
        case .up, .character("k"), .wheelUp: select(current.map { $0 - 1 } ?? ids.count - 1)
        case .down, .character("j"), .wheelDown: select(current.map { $0 + 1 } ?? 0)
        case .pageUp: select((current ?? 0) - page)
        case .pageDown: select((current ?? -1) + page)
        case .home, .character("g"): select(0)
        case .end, .character("G"): select(ids.count - 1)
        case .character(" ") where context.isReplaying:
            return [.togglePause]
        case .enter, .character(" "):
            guard let id = model.view.selection else { select(0); return [] }
            if model.view.expanded.contains(id) { model.view.expanded.remove(id) } else { model.view.expanded.insert(id) }
        case .character("i"):
            if model.view.selection == nil { select(0) }
            model.pane = model.view.selection == nil ? .list : .inspector
        case .character("p"):
            let index = InteractiveModel.platformCycle.firstIndex(of: model.view.platforms) ?? 0
            model.view.platforms = InteractiveModel.platformCycle[(index + 1) % InteractiveModel.platformCycle.count]
            model.view.scroll = 0
        case .character("d"):
            guard let id = model.view.selection else { return [] }
            let next = current.flatMap { $0 + 1 < ids.count ? ids[$0 + 1] : ($0 > 0 ? ids[$0 - 1] : nil) }
            model.view.selection = next
            model.view.expanded.remove(id)
            return [.dismiss(itemID: id, platforms: model.view.platforms)]
        case .character("D"):
            model.view.selection = nil
            model.view.expanded = []
            return [.clearAll(platforms: model.view.platforms)]
        case .character("/"):
            model.editingFilter = true
        case .escape:
            model.view.filter = ""
        case .character("?"):
            model.pane = .help
            model.helpScroll = 0
        case .character("e"):
            model.pane = .errors
            model.errorsScroll = 0
        case .character("o"):
            return [.toggleOffline(platforms: model.view.platforms)]
        case .character("q"):
            return [.quit]
        case .character(".") where context.isReplaying: return [.step]
        case .character("+") where context.isReplaying, .character("=") where context.isReplaying: return [.faster]
        case .character("-") where context.isReplaying: return [.slower]
        case .character("[") where context.isReplaying: return [.seek(seconds: -10)]
        case .character("]") where context.isReplaying: return [.seek(seconds: 10)]
        default:
            break
        }
        return []
    }

    static func editFilter(_ key: UIKey, model: inout InteractiveModel) -> [UIEffect] {
        switch key {
        case .enter: model.editingFilter = false
        case .escape: model.editingFilter = false; model.view.filter = ""
        case .backspace: if !model.view.filter.isEmpty { model.view.filter.removeLast() }
        case .controlC: return [.quit]
        case .character(let c) where !c.isNewline && c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }):
            model.view.filter.append(c)
        default: break
        }
        model.view.selection = nil
        model.view.scroll = 0
        return []
    }

    /// In the side-by-side view one item id can stand in three columns: walk it once.
    static func uniqueIDs(_ items: [Item]) -> [String] {
        var seen: Set<String> = []
        return items.compactMap { seen.insert($0.id).inserted ? $0.id : nil }
    }
}
