import ShadeCore

/// A region of a screen, in cells.
public struct Rect: Equatable, Sendable {
    public var column: Int
    public var row: Int
    public var columns: Int
    public var rows: Int

    public init(column: Int, row: Int, columns: Int, rows: Int) {
        self.column = column
        self.row = row
        self.columns = columns
        self.rows = rows
    }
}

/// What the person looking at the shades has chosen: which platforms, what is selected,
/// expanded or filtered, how far the list is scrolled. The TUI changes it; snapshots use the
/// defaults (nothing selected, every stack collapsed to its newest lines, no filter).
public struct ViewState: Equatable, Sendable {
    /// One platform, or all three side by side. A state whose platform is not listed is not drawn.
    public var platforms: [Platform]
    /// `Item.id` of the selected item (nil: nothing selected).
    public var selection: String?
    /// `Item.id`s shown expanded: every kept line of a conversation or stack, every bundle child.
    public var expanded: Set<String>
    /// Case-insensitive text filter over titles, senders, texts and the app ("" = none).
    public var filter: String
    /// Entries skipped at the top of a single-platform list (TUI scrolling): the entries are
    /// the ones `ShadeView.selectableItems` walks, in the same order.
    public var scroll: Int
    /// What an empty shade suggests doing (the live UI: how to send this Shade a push); nil, and it
    /// just says it is empty (a snapshot has nothing to receive pushes).
    public var emptyHint: String?
    /// How times read on screen: the viewer's zone, as their phone would show them (`.utc` by
    /// default, so screens built in tests are the same everywhere).
    public var localTime: LocalTime

    public init(platforms: [Platform] = [.android], localTime: LocalTime = .utc) {
        self.platforms = platforms
        self.selection = nil
        self.expanded = []
        self.filter = ""
        self.scroll = 0
        self.emptyHint = nil
        self.localTime = localTime
    }
}
