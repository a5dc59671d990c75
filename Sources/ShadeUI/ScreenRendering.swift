// A Screen as text: plain lines for `shade snapshot` and golden tests, SGR-styled text
// for a terminal, and a readable diff when two screens differ.

extension Screen {
    /// Exactly `rows` strings, each exactly `columns` display columns wide: a glyph's cell
    /// prints its grapheme, its continuation cells print nothing.
    public func plainLines() -> [String] {
        (0..<rows).map { row in
            var line = ""
            forEachGlyph(in: row) { text, _ in line += text }
            return line
        }
    }

    /// The screen as lines joined by "\n", with SGR escapes for styles: bold 1, dim 2,
    /// underline 4, reverse 7, colours as 256-colour `38;5;n` / `48;5;n` (see `Palette`).
    /// Every style change starts with a reset, and a styled line ends with one.
    public func ansiText() -> String {
        (0..<rows).map { row in
            var line = ""
            var current = Style.plain
            forEachGlyph(in: row) { text, style in
                if style != current {
                    line += style.selectGraphicRendition
                    current = style
                }
                line += text
            }
            if current != .plain { line += Style.plain.selectGraphicRendition }
            return line
        }.joined(separator: "\n")
    }

    /// Calls `body` with each glyph of a row, left to right: its text and style, the text
    /// exactly as wide as the cells it covers. Cells that do not hold a whole glyph (a
    /// continuation without its glyph, a glyph cut off by the edge, text of another
    /// width than its cell says) print as blanks, so a line never comes out misaligned.
    private func forEachGlyph(in row: Int, _ body: (String, Style) -> Void) {
        var column = 0
        while column < columns {
            let cell = self[column, row]
            let width = cell.width
            if width == 1, cell.text.utf8.count == 1, isPrintableASCII(cell.text) {
                body(cell.text, cell.style)                     // most cells: nothing to check
                column += 1
            } else if width >= 1, column + width <= columns,
               (1..<width).allSatisfy({ self[column + $0, row].width == 0 }) {
                // Defence in depth: cells written by `put` are sanitised already.
                let text = sanitized(cell.text)
                if displayWidth(of: text) == width {
                    body(text, cell.style)
                } else {
                    body(String(repeating: " ", count: width), cell.style)
                }
                column += width
            } else {
                body(" ", cell.style)
                column += 1
            }
        }
    }

    /// `nil` when `other` shows the same as this screen (same size, text and styles);
    /// otherwise a readable, line-by-line account of what differs, this screen being the
    /// expected one: `expected.diff(actual)`.
    public func diff(_ other: Screen) -> String? {
        var report: [String] = []
        if columns != other.columns || rows != other.rows {
            report.append("size: expected \(columns)x\(rows), actual \(other.columns)x\(other.rows)")
        }
        if let lines = linesDiff(expected: plainLines(), actual: other.plainLines()) {
            report.append(lines)
        } else if columns == other.columns, rows == other.rows {
            let styles = styleDifferences(other)
            if !styles.isEmpty { report.append("same text, different styles:\n" + styles.joined(separator: "\n")) }
        }
        return report.isEmpty ? nil : report.joined(separator: "\n")
    }

    /// The first few cells whose style differs, as "row r, column c: expected … actual …".
    private func styleDifferences(_ other: Screen, limit: Int = 10) -> [String] {
        var found: [String] = []
        for row in 0..<rows {
            for column in 0..<columns where self[column, row].style != other[column, row].style {
                if found.count == limit { return found + ["…"] }
                found.append("  row \(row), column \(column) \(quoted(self[column, row].text)): expected "
                             + "\(self[column, row].style.summary), actual \(other[column, row].style.summary)")
            }
        }
        return found
    }
}

/// `nil` when the lines are equal; otherwise every line with its row number, differing
/// rows as a `-` expected and a `+` actual line with `^` under the first differing column.
/// Lines are shown between `|` so trailing spaces can be seen. For golden tests.
public func linesDiff(expected: [String], actual: [String]) -> String? {
    guard expected != actual else { return nil }
    var out = ["screen differs: - expected, + actual (\(expected.count) expected lines, \(actual.count) actual)"]
    let numberWidth = String(max(expected.count, actual.count)).count
    for row in 0..<max(expected.count, actual.count) {
        let number = String(repeating: " ", count: numberWidth - String(row).count) + String(row)
        let want = row < expected.count ? expected[row] : nil
        let got = row < actual.count ? actual[row] : nil
        if want == got, let want {
            out.append("\(number)   |\(want)|")
            continue
        }
        out.append("\(number) - " + (want.map { "|\($0)|" } ?? "(no line)"))
        out.append(String(repeating: " ", count: numberWidth) + " + " + (got.map { "|\($0)|" } ?? "(no line)"))
        if let want, let got {
            let column = firstDifferingColumn(want, got)
            out.append(String(repeating: " ", count: numberWidth + 4 + column) + "^ column \(column)")
        }
    }
    return out.joined(separator: "\n")
}

/// The display column where two lines stop agreeing.
private func firstDifferingColumn(_ a: String, _ b: String) -> Int {
    var column = 0
    for (x, y) in zip(a, b) {
        if x != y { break }
        column += displayWidth(of: x)
    }
    return column
}

private func quoted(_ text: String) -> String { "\"\(text)\"" }

extension Style {
    /// The SGR escape that sets exactly this style (after a reset).
    var selectGraphicRendition: String {
        var parameters = ["0"]
        if bold { parameters.append("1") }
        if dim { parameters.append("2") }
        if underline { parameters.append("4") }
        if reverse { parameters.append("7") }
        if let index = Palette.xterm256(foreground) { parameters.append("38;5;\(index)") }
        if let index = Palette.xterm256(background) { parameters.append("48;5;\(index)") }
        return "\u{1B}[" + parameters.joined(separator: ";") + "m"
    }

    /// A short description for diffs: "plain", or e.g. "bold reverse fg=avatar(2)".
    var summary: String {
        var parts: [String] = []
        if bold { parts.append("bold") }
        if dim { parts.append("dim") }
        if underline { parts.append("underline") }
        if reverse { parts.append("reverse") }
        if foreground != .default { parts.append("fg=\(foreground)") }
        if background != .default { parts.append("bg=\(background)") }
        return parts.isEmpty ? "plain" : parts.joined(separator: " ")
    }
}
