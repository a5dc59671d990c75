import ShadeCore

/// The Android, iOS and web shades drawn into a `Screen`: pure code, the same for `shade
/// snapshot`, the live TUI and the golden tests.
public enum ShadeView {
    /// Below this size the shades do not fit; `compose` says so instead.
    public static let minimumColumns = 40
    public static let minimumRows = 10

    /// What the marks on screen mean (for the TUI's help overlay).
    public static let legend = """
    (A)  sender initials, in the sender's colour (no https photo was given)
    [A]  the sender's photo (an https senderAvatarUrl); a terminal shows its initials
    ▣    the app's icon: a plain notification, or an iOS stack without the communication look
    ▌    the selected notification (its first row in reverse video)
    +N earlier messages   pushes of a conversation not shown (collapsed) or not kept (A1, W1)
    N more                older notifications in an iOS stack (I1)
    +N more               notifications below the bottom of the column
    ⚑ Time Sensitive · ‼ Critical · passive    iOS interruption levels (I8; a critical sound, I10)
    may be changed by the app's extension      mutable-content: the app may rewrite the text (I11)
    category X · image URL                     the action buttons' category and the picture (I12)
    reverse-video bar     a ringing VoIP call (I7)
    tag X                 the notification's tag: a later push with the same tag replaces it
    [Reply] [Like]        the notification's actions (the web shows at most 2, W4)
    ✗ rejected            the newest push the device refused, and why
    offline · N waiting   the device is offline: pushes wait at their services (O1–O5, key o)
    """

    /// The whole snapshot screen: each platform's header (profile summary + counters) and its
    /// sections; a clear message instead when the screen is smaller than 40×10.
    public static func compose(_ states: [CenterState], view: ViewState, columns: Int, rows: Int) -> Screen {
        var screen = Screen(columns: columns, rows: rows)
        guard screen.columns >= minimumColumns, screen.rows >= minimumRows else {
            drawTooSmall(into: &screen)
            return screen
        }
        draw(states, view: view, into: &screen, rect: Rect(column: 0, row: 0, columns: screen.columns, rows: screen.rows))
        return screen
    }

    /// Draws the centers (one column per state shown) into a region of an existing screen (the
    /// TUI adds its own header and footer). The states shown are those whose platform is in
    /// `view.platforms`, in the order given (every state when none is). Side by side, the
    /// columns are of equal width (±1) with a `│` between them, each with its own header.
    public static func draw(_ states: [CenterState], view: ViewState, into screen: inout Screen, rect: Rect) {
        let area = clipped(rect, to: screen)
        guard area.columns > 0, area.rows > 0 else { return }
        let shown = shownStates(states, view: view)
        guard !shown.isEmpty else { return }
        screen.fillRect(column: area.column, row: area.row, width: area.columns, height: area.rows)
        let rects = columnRects(shown.count, in: area)
        let headers = ColumnHeader.rows(shown, width: max(1, (rects.map(\.columns).min() ?? 1) - 1))
        for (index, state) in shown.enumerated() {
            let plan = ColumnPlan(state, header: headers[index], view: view, rect: rects[index],
                                  scroll: shown.count == 1 ? view.scroll : 0)
            plan.draw(into: &screen, rect: rects[index])
            if index > 0 {
                let x = rects[index].column - 1
                for y in area.row..<(area.row + area.rows) { screen.put("│", column: x, row: y, style: ViewStyle.separator) }
            }
        }
    }

    /// The selectable items in display order (what ↑/↓ walk through), after the filter; a
    /// bundle's children follow it when it is expanded. Side by side, the columns follow one
    /// another, and an item that more than one column shows (the same `Item.id`) is listed
    /// once: selecting it marks it in every column.
    public static func selectableItems(_ states: [CenterState], view: ViewState) -> [Item] {
        var seen: Set<String> = []
        var items: [Item] = []
        for state in shownStates(states, view: view) {
            for entry in ColumnPlan.entries(state, view: view) where seen.insert(entry.item.id).inserted {
                items.append(entry.item)
            }
        }
        return items
    }

    /// The screen rows each entry takes when `state` alone is drawn in `rect` with `view.scroll`
    /// applied: the entries drawn (a cut first entry included), in order. An entry above the
    /// scroll position or below the bottom (counted in `+N more`) is absent. To keep the
    /// selection at index `i` of `selectableItems` visible: if `i < scroll`, scroll to `i`;
    /// while its id is not listed here, scroll by one.
    public static func itemRowRanges(_ state: CenterState, view: ViewState, rect: Rect) -> [(id: String, rows: Range<Int>)] {
        guard rect.columns > 0, rect.rows > 0 else { return [] }
        let header = ColumnHeader.rows([state], width: max(1, rect.columns - 1))[0]
        return ColumnPlan(state, header: header, view: view, rect: rect, scroll: view.scroll).entries
    }

    // MARK: layout

    static func shownStates(_ states: [CenterState], view: ViewState) -> [CenterState] {
        let chosen = states.filter { view.platforms.contains($0.platform) }
        return chosen.isEmpty ? states : chosen
    }

    /// `count` columns of equal width (the first ones one wider when it does not divide),
    /// one column apart for the `│` between them.
    static func columnRects(_ count: Int, in rect: Rect) -> [Rect] {
        let available = max(0, rect.columns - (count - 1))
        let base = available / count
        let extra = available % count
        var x = rect.column
        return (0..<count).map { index in
            let width = base + (index < extra ? 1 : 0)
            defer { x += width + 1 }
            return Rect(column: x, row: rect.row, columns: width, rows: rect.rows)
        }
    }

    static func clipped(_ rect: Rect, to screen: Screen) -> Rect {
        let left = max(0, rect.column), top = max(0, rect.row)
        let right = min(screen.columns, rect.column + rect.columns), bottom = min(screen.rows, rect.row + rect.rows)
        return Rect(column: left, row: top, columns: max(0, right - left), rows: max(0, bottom - top))
    }

    /// `Terminal too small: 30×8 — Shade needs 40×10`, centred, wrapped when even that is too wide.
    static func drawTooSmall(into screen: inout Screen) {
        guard screen.columns > 0, screen.rows > 0 else { return }
        let text = "Terminal too small: \(screen.columns)×\(screen.rows) — Shade needs \(minimumColumns)×\(minimumRows)"
        let lines = wrapped(text, width: screen.columns, maxLines: screen.rows)
        let top = (screen.rows - lines.count) / 2
        for (index, line) in lines.enumerated() {
            let x = (screen.columns - displayWidth(of: line)) / 2
            screen.put(line, column: x, row: top + index, style: ViewStyle.title)
        }
    }
}
