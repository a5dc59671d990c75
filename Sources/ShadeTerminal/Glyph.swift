// What one cell puts on the terminal, and which cells of a row need drawing again.
import CNcursesw
import Glibc
import ShadeUI

/// The characters curses is given for one cell: a spacing character and the zero-width marks
/// that combine with it (at most CCHARW_MAX), never a control character.
struct Glyph {
    /// Columns the layout gave the cell (1 or 2).
    let width: Int
    /// The cell is the second half of the wide glyph before it: nothing to draw.
    let isContinuation: Bool
    private var characters: (wchar_t, wchar_t, wchar_t, wchar_t, wchar_t, wchar_t) = (0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    private init(width: Int, isContinuation: Bool = false) {
        self.width = width
        self.isContinuation = isContinuation
    }

    /// Shown in place of text that must not or cannot be drawn; a wide cell keeps its two columns.
    static func replacement(width: Int) -> Glyph {
        var glyph = Glyph(width: width == 2 ? 2 : 1)
        glyph.append("?")
        return glyph
    }

    static func blank() -> Glyph {
        var glyph = Glyph(width: 1)
        glyph.append(" ")
        return glyph
    }

    init(_ cell: Cell, previous: Cell?, column: Int, visibleColumns: Int) {
        if cell.width == 0 {
            self = previous?.width == 2 ? Glyph(width: 0, isContinuation: true) : .blank()
        } else if cell.width != 1 && cell.width != 2 {
            self = .replacement(width: 1)
        } else if cell.width == 2 && column + 1 >= visibleColumns {
            self = .blank()   // half a wide glyph does not fit at the right edge
        } else {
            self = Glyph(text: cell.text, width: cell.width)
        }
    }

    /// Text from payloads is data: a grapheme holding a control character (C0, DEL, C1) becomes `?`
    /// as a whole, whatever the layout did before. Variation selectors and zero-width joiners are
    /// left out: terminals disagree on the width they give the sequences, and a cell grid that
    /// disagrees with the terminal garbles the rest of the row; the base emoji still shows.
    init(text: String, width: Int) {
        self.init(width: width)
        if text.isEmpty { append(" "); return }
        for scalar in text.unicodeScalars {
            if Glyph.isControl(scalar) { self = .replacement(width: width); return }
        }
        for scalar in text.unicodeScalars {
            if count == 0 { append(scalar); continue }
            if Glyph.isPresentationOnly(scalar) { continue }
            // Another spacing character (the next emoji of a ZWJ sequence, the second regional
            // indicator of a flag) would take columns of its own in curses' count: stop.
            guard shade_wcwidth(wchar_t(bitPattern: scalar.value)) == 0, count < Int(CCHARW_MAX) else { break }
            append(scalar)
        }
    }

    /// The columns curses will advance for this glyph (wcwidth of the spacing character);
    /// -1 when the locale cannot print it.
    var cursesWidth: Int {
        count == 0 ? 1 : Int(shade_wcwidth(characters.0))
    }

    /// The scalars, for tests.
    var text: String {
        var result = ""
        withWideCharacters { pointer in
            for index in 0..<count {
                if let scalar = Unicode.Scalar(UInt32(bitPattern: pointer[index])) {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A NUL-terminated wide string, as setcchar wants.
    func withWideCharacters<R>(_ body: (UnsafePointer<wchar_t>) -> R) -> R {
        var copy = characters
        return withUnsafePointer(to: &copy) { tuple in
            tuple.withMemoryRebound(to: wchar_t.self, capacity: 6) { body($0) }
        }
    }

    private mutating func append(_ scalar: Unicode.Scalar) {
        let value = wchar_t(bitPattern: scalar.value)
        switch count {
        case 0: characters.0 = value
        case 1: characters.1 = value
        case 2: characters.2 = value
        case 3: characters.3 = value
        case 4: characters.4 = value
        default: return
        }
        count += 1
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true
        default: return false
        }
    }

    private static func isPresentationOnly(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE0E, 0xFE0F, 0x200D: return true
        default: return false
        }
    }
}

enum ScreenDiff {
    /// The columns of `row` to draw again, or nil when the row is unchanged. One column more on each
    /// side than what differs, so a wide glyph next to a change is redrawn whole.
    static func changedSpan(old: Screen, new: Screen, row: Int) -> Range<Int>? {
        let columns = new.columns
        guard old.columns == columns, row < old.rows, row < new.rows else { return 0..<columns }
        var first = -1
        var last = -1
        for column in 0..<columns where old[column, row] != new[column, row] {
            if first < 0 { first = column }
            last = column
        }
        guard first >= 0 else { return nil }
        return max(0, first - 1)..<min(columns, last + 2)
    }
}
