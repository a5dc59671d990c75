// A curses session with no terminal behind it, so tests can check what `present` leaves in
// curses' screen (clipping, wide glyphs, diffs) as whole rows of text.
import CNcursesw
import Glibc
import ShadeUI

extension Terminal {
    /// Curses drawing to /dev/null at the given size, monochrome, with no signal handlers, no tty
    /// changes and no stderr hold. One at a time: curses has one current screen per process.
    static func offscreen(columns: Int, rows: Int) -> Terminal? {
        Terminal.setUTF8Locale()
        guard let output = fopen("/dev/null", "w"), let input = fopen("/dev/null", "r"),
              let screen = newterm("xterm-256color", output, input) else { return nil }
        let terminal = Terminal()
        terminal.offscreen = true
        terminal.screenHandle = screen
        terminal.started = true
        resizeterm(Int32(rows), Int32(columns))
        return terminal
    }

    /// What curses holds for row `row` of the screen: each glyph once (a wide glyph's second
    /// column is not repeated), trailing spaces kept.
    func cursesRow(_ row: Int) -> String {
        let window = shade_stdscr()
        var text = ""
        var column = 0
        while column < size.columns {
            var character = cchar_t()
            _ = mvwin_wch(window, Int32(row), Int32(column), &character)
            var characters = [wchar_t](repeating: 0, count: Int(CCHARW_MAX) + 1)
            var attributes: attr_t = 0
            var pair: Int16 = 0
            _ = getcchar(&character, &characters, &attributes, &pair, nil)
            for value in characters.prefix(while: { $0 != 0 }) {
                if let scalar = Unicode.Scalar(UInt32(bitPattern: value)) { text.unicodeScalars.append(scalar) }
            }
            column += max(1, Int(shade_wcwidth(characters[0])))
        }
        return text
    }

    /// The curses attributes of one cell (A_BOLD…, colour pair bits excluded).
    func cursesAttributes(column: Int, row: Int) -> attr_t {
        var character = cchar_t()
        _ = mvwin_wch(shade_stdscr(), Int32(row), Int32(column), &character)
        var characters = [wchar_t](repeating: 0, count: Int(CCHARW_MAX) + 1)
        var attributes: attr_t = 0
        var pair: Int16 = 0
        _ = getcchar(&character, &characters, &attributes, &pair, nil)
        return attributes
    }
}
