import ShadeCore

/// A colour a cell asks for. Back ends map these to what the terminal can show
/// (256 colours, 8 colours, or none at all: every screen must read in monochrome too).
public enum Color: Hashable, Sendable {
    case `default`
    /// The avatar palette (N2): index 0..<Palette.count.
    case avatar(Int)
    /// Roles rather than hues, so a monochrome back end can ignore them safely.
    case accent, muted, warning, danger, success
}

/// How a cell is drawn. Bold, dim, reverse and underline carry the meaning when colour is off.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(foreground: Color = .default, background: Color = .default,
                bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()
}

/// One terminal cell: a grapheme cluster and the columns it takes. A wide grapheme occupies
/// its own cell (width 2) and the next one, which is a continuation (empty text, width 0).
public struct Cell: Equatable, Sendable {
    public var text: String
    public var width: Int
    public var style: Style

    public init(text: String, width: Int, style: Style = .plain) {
        self.text = text
        self.width = width
        self.style = style
    }

    public static let blank = Cell(text: " ", width: 1)
    public static func continuation(_ style: Style) -> Cell { Cell(text: "", width: 0, style: style) }
}

/// A grid of cells: what the user sees, as a value. Composed by pure code, presented by
/// ShadeTerminal (curses) or printed by `shade snapshot`.
public struct Screen: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    public private(set) var cells: [Cell]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        self.cells = Array(repeating: .blank, count: self.columns * self.rows)
    }

    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }
}
