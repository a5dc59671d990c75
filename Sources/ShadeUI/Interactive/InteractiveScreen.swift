import ShadeCore

/// Where a replay is, for the progress bar.
public struct ReplayStatus: Equatable, Sendable {
    public var position: Int
    public var count: Int
    public var elapsedMillis: Int64
    public var totalMillis: Int64
    public var speed: Double
    public var paused: Bool
    public var finished: Bool
    /// A looping replay that has finished: how long until it starts over.
    public var restartInMillis: Int64?

    public init(position: Int, count: Int, elapsedMillis: Int64, totalMillis: Int64, speed: Double, paused: Bool, finished: Bool,
                restartInMillis: Int64? = nil) {
        self.position = position
        self.count = count
        self.elapsedMillis = elapsedMillis
        self.totalMillis = totalMillis
        self.speed = speed
        self.paused = paused
        self.finished = finished
        self.restartInMillis = restartInMillis
    }
}

/// What surrounds the centers in the live UI: where Shade listens, recording, replay progress.
public struct Chrome: Equatable, Sendable {
    public var title: String
    public var recording: String?
    public var replay: ReplayStatus?
    /// The clock (ms) that transient messages expire against.
    public var now: Int64
    /// TLS and proxy state for a live session (`TLS ✓ 3 · proxy 2 tunnels, relays others`), nil for replay.
    public var network: String?
    /// How the user runs shade (`shade` once installed), for hints that name a command.
    public var command: String

    public init(title: String, recording: String? = nil, replay: ReplayStatus? = nil, now: Int64 = 0, network: String? = nil,
                command: String = "shade") {
        self.title = title
        self.recording = recording
        self.replay = replay
        self.now = now
        self.network = network
        self.command = command
    }
}

/// The full-screen interactive UI as a Screen: header, replay bar, centers (and inspector, help,
/// errors), status line, footer. ShadeTerminal presents it; tests compare it as text.
public enum InteractiveScreen {
    static let bar = Style(reverse: true)
    static let dim = Style(dim: true)

    public static func compose(_ states: [CenterState], model: InteractiveModel, chrome: Chrome, columns: Int, rows: Int,
                               diagnostics: (Item, Platform) -> [String] = { _, _ in [] }) -> Screen {
        var screen = Screen(columns: columns, rows: rows)
        // The same minimum and message as the snapshot screens.
        guard columns >= ShadeView.minimumColumns, rows >= ShadeView.minimumRows else {
            ShadeView.drawTooSmall(into: &screen)
            return screen
        }
        drawHeader(&screen, chrome: chrome, model: model)
        let body = bodyRect(columns: columns, rows: rows, chrome: chrome)
        switch model.pane {
        case .help:
            ShadeView.draw(states, view: model.view, into: &screen, rect: body)
            drawHelp(&screen, in: body, replaying: chrome.replay != nil, scroll: model.helpScroll)
        case .errors:
            drawErrors(&screen, states: states, in: body, scroll: model.errorsScroll)
        case .inspector:
            let selected = selectedItem(states, model: model)
            let events = selected.flatMap { item in states.first { $0.platform == item.1 }?.events } ?? []
            if columns >= 110 {
                let listWidth = columns / 2
                ShadeView.draw(states, view: model.view, into: &screen, rect: Rect(column: 0, row: body.row, columns: listWidth, rows: body.rows))
                for r in body.row..<(body.row + body.rows) { screen.put("│", column: listWidth, row: r, style: dim) }
                drawInspector(&screen, selected, events: events, in: Rect(column: listWidth + 2, row: body.row, columns: columns - listWidth - 2, rows: body.rows),
                              scroll: model.inspectorScroll, command: chrome.command, localTime: model.view.localTime, diagnostics: diagnostics)
            } else {
                drawInspector(&screen, selected, events: events, in: body, scroll: model.inspectorScroll, command: chrome.command,
                              localTime: model.view.localTime, diagnostics: diagnostics)
            }
        case .list:
            ShadeView.draw(states, view: model.view, into: &screen, rect: body)
        }
        drawStatus(&screen, row: rows - 2, states: states, model: model, chrome: chrome)
        drawFooter(&screen, row: rows - 1, model: model, replaying: chrome.replay != nil)
        return screen
    }

    /// The rows between the header (and replay bar) and the status line and footer.
    public static func bodyRect(columns: Int, rows: Int, chrome: Chrome) -> Rect {
        let top = chrome.replay == nil ? 1 : 2
        return Rect(column: 0, row: top, columns: columns, rows: max(0, rows - top - 2))
    }

    /// The selected item and the platform whose column holds it.
    public static func selectedItem(_ states: [CenterState], model: InteractiveModel) -> (Item, Platform)? {
        guard let id = model.view.selection else { return nil }
        for state in states {
            if let item = findItem(id, in: state.items) { return (item, state.platform) }
        }
        return nil
    }

    static func findItem(_ id: String, in items: [Item]) -> Item? {
        for item in items {
            if item.id == id { return item }
            if let child = item.children.flatMap({ findItem(id, in: $0) }) { return child }
        }
        return nil
    }

    static func drawHeader(_ screen: inout Screen, chrome: Chrome, model: InteractiveModel) {
        screen.fill(row: 0, style: bar)
        var column = screen.put(" Shade ", column: 0, row: 0, style: Style(bold: true, reverse: true))
        column += screen.put("│ " + chrome.title + " ", column: column, row: 0, width: screen.columns - column, style: bar)
        if let network = chrome.network {
            column += screen.put("│ " + network + " ", column: column, row: 0, width: screen.columns - column, style: bar)
        }
        if let recording = chrome.recording {
            column += screen.put("● REC " + recording + " ", column: column, row: 0, width: screen.columns - column,
                                 style: Style(foreground: .danger, bold: true, reverse: true))
        }
        let platforms = model.view.platforms.count > 1 ? "all platforms" : model.view.platforms.map(\.displayName).joined()
        let right = " p: \(platforms) "
        let rightWidth = displayWidth(of: right)
        if column + rightWidth <= screen.columns {
            screen.put(right, column: screen.columns - rightWidth, row: 0, style: bar)
        }
        guard let replay = chrome.replay else { return }
        // ▶ 00:23 / 00:58 ━━━━━━━━──────── ×1  12/22
        let state: String
        if replay.finished, let wait = replay.restartInMillis {
            // The way to keep it is worth saying where there is room; the help says it anyway.
            state = "■ done · again in \((max(0, wait) + 999) / 1000) s" + (screen.columns >= 100 ? " (space holds)" : "")
        } else if replay.finished {
            state = replay.paused ? "■ done · held (space starts over)" : "■ done"
        } else {
            state = replay.paused ? "❚❚ paused" : "▶"
        }
        let speed = replay.speed == replay.speed.rounded() ? String(Int(replay.speed)) : String(replay.speed)
        let left = " \(state) \(clock(replay.elapsedMillis)) / \(clock(replay.totalMillis)) "
        let tail = " ×\(speed)  \(replay.position)/\(replay.count) pushes "
        let barWidth = max(0, screen.columns - displayWidth(of: left) - displayWidth(of: tail))
        let filled = replay.totalMillis > 0 ? Int(Double(barWidth) * min(1, Double(replay.elapsedMillis) / Double(replay.totalMillis)))
            : (replay.count > 0 ? barWidth * replay.position / replay.count : 0)
        var c = screen.put(left, column: 0, row: 1, style: Style(bold: true))
        c += screen.put(String(repeating: "━", count: filled), column: c, row: 1, style: Style(foreground: .accent))
        c += screen.put(String(repeating: "─", count: barWidth - filled), column: c, row: 1, style: dim)
        screen.put(tail, column: c, row: 1)
    }

    static func clock(_ millis: Int64) -> String {
        let seconds = max(0, millis / 1000)
        let m = seconds / 60, s = seconds % 60
        return (m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
    }

    /// The row above the footer: the filter being typed; else an active filter's indicator (always,
    /// so a filtered list is never mistaken for the whole), then a transient message (a rejected push,
    /// a push that went to a platform not shown), or how many pushes were rejected.
    static func drawStatus(_ screen: inout Screen, row: Int, states: [CenterState], model: InteractiveModel, chrome: Chrome) {
        if model.editingFilter {
            let c = screen.put(" filter: ", column: 0, row: row, style: Style(bold: true))
            let t = screen.put(model.view.filter, column: c, row: row)
            screen.put("▏ Enter keeps it, Esc clears it", column: c + t, row: row, style: dim)
            return
        }
        var column = 0
        if !model.view.filter.isEmpty {
            column += screen.put(" filter: \(model.view.filter)  (Esc clears) ", column: 0, row: row, width: screen.columns,
                                 style: Style(foreground: .accent))
        }
        let width = screen.columns - column
        if let message = model.message, chrome.now < model.messageUntil {
            let style = model.messageTone == .problem ? Style(foreground: .danger, bold: true) : Style(foreground: .accent, bold: true)
            screen.put(" " + message, column: column, row: row, width: width, style: style)
        } else {
            let rejected = RejectionSummary(states).count
            if rejected > 0 { screen.put(" \(rejected) rejected — press e to see why", column: column, row: row, width: width, style: dim) }
        }
    }

    static func drawFooter(_ screen: inout Screen, row: Int, model: InteractiveModel, replaying: Bool) {
        let keys: [(String, String)]
        switch model.pane {
        case .help: keys = [("↑↓", "scroll"), ("any key", "close help"), ("q", "quit")]
        case .errors: keys = [("↑↓", "scroll"), ("Esc", "back"), ("q", "quit")]
        case .inspector: keys = [("↑↓", "item"), ("PgUp/PgDn", "scroll"), ("Esc", "close"), ("d", "dismiss"), ("q", "quit")]
        case .list:
            var list: [(String, String)] = [("↑↓", "move"), ("⏎", "expand"), ("i", "inspect"), ("p", "platform"), ("d", "dismiss"),
                                            ("D", "clear"), ("/", "filter"), ("e", "errors"), ("o", "offline")]
            if replaying { list += [("space", "pause"), (".", "step"), ("+-", "speed"), ("[]", "seek")] }
            keys = list + [("?", "help"), ("q", "quit")]
        }
        for placed in footerKeys(keys, columns: screen.columns) {
            let column = placed.column + screen.put(placed.key, column: placed.column, row: row, style: Style(bold: true))
            screen.put(" " + placed.action + "  ", column: column, row: row, style: dim)
        }
    }

    /// A key of the footer and where it starts.
    struct FooterKey: Equatable {
        var key: String
        var action: String
        var column: Int

        var width: Int { displayWidth(of: key) + 1 + displayWidth(of: action) + 2 }
    }

    /// The keys that fit in `columns`, placed. The last two (`? help`, `q quit` in the list) are
    /// the way out and the way to every other key: they are kept, and the keys before them are left
    /// out from the end until the rest fits.
    static func footerKeys(_ keys: [(String, String)], columns: Int) -> [FooterKey] {
        let all = keys.map { FooterKey(key: $0.0, action: $0.1, column: 0) }
        let kept = Array(all.suffix(2))
        var available = columns - 1 - kept.reduce(0) { $0 + $1.width }
        var chosen: [FooterKey] = []
        for key in all.dropLast(2) {
            guard key.width <= available else { break }
            chosen.append(key)
            available -= key.width
        }
        var column = 1
        var placed: [FooterKey] = []
        for var key in chosen + kept where column + key.width - 2 <= columns {
            key.column = column
            placed.append(key)
            column += key.width
        }
        return placed
    }

    static func drawInspector(_ screen: inout Screen, _ selected: (Item, Platform)?, events: [TraceStep], in rect: Rect, scroll: Int,
                              command: String, localTime: LocalTime, diagnostics: (Item, Platform) -> [String]) {
        screen.fillRect(column: rect.column, row: rect.row, width: rect.columns, height: rect.rows)
        guard let (item, platform) = selected else {
            screen.put("Nothing selected — move with ↑↓, then i", column: rect.column, row: rect.row, width: rect.columns, style: dim)
            return
        }
        let lines = Inspector.lines(for: item, platform: platform, diagnostics: diagnostics(item, platform), events: events,
                                    command: command, localTime: localTime)
            .flatMap { wrappedLine($0, width: rect.columns) }
        let first = min(max(0, scroll), max(0, lines.count - rect.rows))
        for (offset, line) in lines.dropFirst(first).prefix(rect.rows).enumerated() {
            screen.put(line, column: rect.column, row: rect.row + offset, width: rect.columns)
        }
    }

    static func drawErrors(_ screen: inout Screen, states: [CenterState], in rect: Rect, scroll: Int) {
        // Every platform's errors, once each (a push rejected everywhere is one error), in the order
        // they came: the same count as the status line below.
        let summary = RejectionSummary(states)
        let errors = summary.errors
        screen.put("Errors — \(summary.count) rejected push\(summary.count == 1 ? "" : "es") (Esc to go back)", column: rect.column,
                   row: rect.row, width: rect.columns, style: Style(bold: true, underline: true))
        var lines: [StyledLine] = []
        for e in errors {
            lines.append([Span("✗ ", Style(foreground: .danger, bold: true)), Span(e.source, Style(bold: true))])
            for part in wrapped(e.reason, width: max(1, rect.columns - 4), maxLines: 4) { lines.append([Span("    " + part)]) }
        }
        if summary.unlisted > 0 { lines.append([Span("… and \(summary.unlisted) more, not listed", dim)]) }
        if summary.count == 0 { lines = [[Span("No rejected pushes.", dim)]] }
        let visible = max(0, rect.rows - 2)
        let first = min(max(0, scroll), max(0, lines.count - visible))
        for (offset, line) in lines.dropFirst(first).prefix(visible).enumerated() {
            screen.put(line, column: rect.column, row: rect.row + 2 + offset, width: rect.columns)
        }
    }

    public static let helpLines: [(String, String)] = [
        ("↑ ↓  j k", "move between items (PgUp PgDn Home End)"),
        ("Enter", "expand or collapse a stack or bundle"),
        ("i", "inspector: payload, headers, data, why (rule ids)"),
        ("p", "platform: Android → iOS → web → all side by side"),
        ("d / D", "dismiss the item / clear all"),
        ("/", "filter by text (Esc clears)"),
        ("e", "errors: rejected pushes and why"),
        ("o", "take the shown profile offline and back: pushes wait at their services (O1–O5)"),
        ("Space .", "replay: pause or resume / step one push"),
        ("+ -  [ ]", "replay: speed ×2 ÷2 / seek 10 s"),
        ("q  Ctrl-C", "quit"),
    ]

    /// The help overlay's lines at a width: every key, then the legend; a key's text wraps under
    /// itself, so a narrow terminal loses nothing.
    static func helpContent(width: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        for (key, text) in helpLines {
            lines += wrappedLine([Span(key.padding(to: 12), Style(bold: true)), Span(text)], width: width)
        }
        lines.append([])
        for line in ShadeView.legend.split(separator: "\n") { lines += wrappedLine([Span(String(line), dim)], width: width) }
        return lines
    }

    /// The furthest the help overlay scrolls on a screen this size (0 when it all fits), so that ↑
    /// after holding ↓ moves at once.
    public static func helpScrollLimit(columns: Int, rows: Int, chrome: Chrome) -> Int {
        let body = bodyRect(columns: columns, rows: rows, chrome: chrome)
        let width = min(body.columns - 2, 110)
        guard width >= 20, body.rows >= 3 else { return 0 }
        let count = helpContent(width: width - 4).count
        return max(0, count - (min(body.rows, count + 2) - 2))
    }

    /// A framed box over the list, as large as the screen allows; when its lines do not fit, it
    /// scrolls (↑↓) and its bottom edge says how many are below.
    static func drawHelp(_ screen: inout Screen, in rect: Rect, replaying: Bool, scroll: Int) {
        let width = min(rect.columns - 2, 110)
        guard width >= 20, rect.rows >= 3 else { return }
        let inner = width - 4
        let content = helpContent(width: inner)
        let height = min(rect.rows, content.count + 2)
        let visible = height - 2
        let first = min(max(0, scroll), max(0, content.count - visible))
        let left = rect.column + (rect.columns - width) / 2
        let top = rect.row + max(0, (rect.rows - height) / 2)
        let frame = Style(foreground: .accent)
        screen.fillRect(column: left, row: top, width: width, height: height)
        // A box, so the overlay reads as one over the list in monochrome too.
        screen.put("┌" + String(repeating: "─", count: width - 2) + "┐", column: left, row: top, style: frame)
        screen.put("└" + String(repeating: "─", count: width - 2) + "┘", column: left, row: top + height - 1, style: frame)
        for r in (top + 1)..<(top + height - 1) {
            screen.put("│", column: left, row: r, style: frame)
            screen.put("│", column: left + width - 1, row: r, style: frame)
        }
        screen.put(" Keys — any key closes ", column: left + 2, row: top, width: width - 4, style: Style(bold: true))
        for (offset, line) in content.dropFirst(first).prefix(visible).enumerated() {
            screen.put(line, column: left + 2, row: top + 1 + offset, width: inner)
        }
        let below = content.count - first - visible
        if first > 0 || below > 0 {
            let more = below > 0 ? " ↓ \(below) more — ↑↓ scroll " : " ↑↓ scroll "
            screen.put(more, column: left + 2, row: top + height - 1, width: width - 4, style: Style(bold: true))
        }
    }
}
