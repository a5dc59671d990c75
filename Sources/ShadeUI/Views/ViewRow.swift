import ShadeCore

// The shades are built as rows of styled spans first and written into the Screen second, so
// that an item's height is known before it is placed (a `+N more` line instead of a cut item).

/// Text in one style. Payload text goes in as it came: `Screen.put` sanitises it.
public struct Span: Equatable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }

    var width: Int { displayWidth(of: sanitized(text)) }
}

/// One screen row of a column, before placement. `left` is written from `indent` on, each span
/// getting what the ones before it left (so the first span, usually the title, wins); `right`
/// is flush with the column's right edge, and its leftmost spans are dropped when the left
/// side would get less than `minimumLeft` columns (or less than it needs, when that is less).
struct ViewRow: Equatable {
    var indent: Int
    var left: [Span]
    var right: [Span]
    /// Fills the whole row first (a ringing call is a reverse-video bar); spans take its flags.
    var background: Style?
    /// A one-column character repeated after the left spans up to the right edge (a rule).
    var fill: Span?
    var minimumLeft: Int

    init(indent: Int = 0, _ left: [Span], right: [Span] = [], background: Style? = nil, fill: Span? = nil,
         minimumLeft: Int = ViewRow.titleRoom) {
        self.indent = indent
        self.left = left
        self.right = right
        self.background = background
        self.fill = fill
        self.minimumLeft = minimumLeft
    }

    static let blank = ViewRow([])

    /// An item's icon and title get this many columns before its tag or time give way.
    static let titleRoom = 24

    /// Writes the row at (column, row), `width` columns wide.
    func draw(into screen: inout Screen, column: Int, row: Int, width: Int) {
        guard width > 0 else { return }
        if let background { screen.fillRect(column: column, row: row, width: width, height: 1, style: background) }
        var rightSpans = right
        let room = width - indent
        func rightWidth() -> Int { rightSpans.reduce(0) { $0 + $1.width } + max(0, rightSpans.count - 1) }
        while !rightSpans.isEmpty, room - rightWidth() - 1 < min(minimumLeft, leftWidth) {
            rightSpans.removeFirst()
        }
        var end = column + width
        if !rightSpans.isEmpty {
            var x = column + width - rightWidth()
            end = x - 1
            for (index, span) in rightSpans.enumerated() {
                if index > 0 { x += 1 }
                x += screen.put(span.text, column: x, row: row, width: column + width - x, style: styled(span.style))
            }
        }
        var x = column + indent
        for span in left where x < end {
            x += screen.put(span.text, column: x, row: row, width: end - x, style: styled(span.style))
        }
        if let fill, x < end {
            screen.put(String(repeating: fill.text, count: end - x), column: x, row: row, width: end - x, style: styled(fill.style))
        }
    }

    private var leftWidth: Int { left.reduce(0) { $0 + $1.width } }

    private func styled(_ style: Style) -> Style {
        guard let background else { return style }
        var merged = style
        merged.reverse = merged.reverse || background.reverse
        if merged.background == .default { merged.background = background.background }
        return merged
    }
}

/// Styles of the shades. Each carries its meaning without colour: bold for names and
/// headers, dim for metadata, reverse for what rings or is selected.
enum ViewStyle {
    static let title = Style(bold: true)
    static let meta = Style(foreground: .muted, dim: true)
    static let body = Style.plain
    static let summary = Style(foreground: .accent, bold: true)
    static let sectionName = Style(foreground: .accent, bold: true)
    static let rule = Style(foreground: .muted, dim: true)
    static let more = Style(foreground: .muted, dim: true)
    static let message = Style(foreground: .muted, dim: true)
    static let error = Style(foreground: .danger, bold: true)
    static let ringing = Style(foreground: .success, bold: true, reverse: true)
    static let marker = Style(foreground: .accent, bold: true)
    static let separator = Style(foreground: .muted, dim: true)
    static let action = Style(foreground: .accent, bold: true)

    static func avatar(_ index: Int) -> Style { Style(foreground: .avatar(index), bold: true) }
}
