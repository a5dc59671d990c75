// Writing into a Screen. Wide glyphs are handled here and only here: a glyph of width w
// is a cell holding the grapheme followed by w - 1 continuation cells, and nothing ever
// leaves half of one behind.

extension Screen {
    /// Writes `text` on `row` from `column`, one grapheme per cell, and returns the columns
    /// it used. The text is sanitised first (one line, no controls). It is clipped at the
    /// right edge and at `width` columns when given, ending in `…` when cut; a wide glyph
    /// that does not fit is left out and its column blanked in `style`. Writing over part
    /// of an existing wide glyph blanks the rest of it.
    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, width: Int? = nil, style: Style = .plain) -> Int {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return 0 }
        let room = min(columns - column, width ?? Int.max)
        guard room > 0 else { return 0 }
        let line = sanitized(text)
        let fitted = truncated(line, toWidth: room)
        var x = column
        if isPrintableASCII(fitted) {
            // The common case, every frame: one byte, one cell; only the ends can cut a wide glyph.
            let end = column + fitted.utf8.count
            if end > column {
                blankGlyph(covering: column, row: row)
                blankGlyph(covering: end - 1, row: row)
            }
            for byte in fitted.utf8 {
                self[x, row] = Cell(text: String(Unicode.Scalar(byte)), width: 1, style: style)
                x += 1
            }
        } else {
            for cluster in fitted {
                let clusterWidth = displayWidth(of: cluster)
                place(String(cluster), width: clusterWidth, column: x, row: row, style: style)
                x += clusterWidth
            }
        }
        // Cut text owns its whole room: the column a wide glyph left over becomes a blank.
        if fitted != line {
            fillRect(column: x, row: row, width: column + room - x, height: 1, style: style)
            x = column + room
        }
        return x - column
    }

    /// Blanks a whole row in `style` (a header bar, a selection highlight).
    public mutating func fill(row: Int, style: Style = .plain) {
        fillRect(column: 0, row: row, width: columns, height: 1, style: style)
    }

    /// Blanks a rectangle in `style`, clipped to the screen. A wide glyph cut by its left or
    /// right edge is blanked whole.
    public mutating func fillRect(column: Int, row: Int, width: Int, height: Int, style: Style = .plain) {
        let left = max(0, column)
        let right = min(columns, column + width)
        let top = max(0, row)
        let bottom = min(rows, row + height)
        guard left < right, top < bottom else { return }
        let blank = Cell(text: " ", width: 1, style: style)
        for y in top..<bottom {
            blankGlyph(covering: left, row: y)
            blankGlyph(covering: right - 1, row: y)
            for x in left..<right { self[x, y] = blank }
        }
    }

    /// Puts one grapheme of the given width at (column, row), clearing what it overlaps.
    private mutating func place(_ grapheme: String, width: Int, column: Int, row: Int, style: Style) {
        let end = min(columns, column + width)
        blankGlyph(covering: column, row: row)
        blankGlyph(covering: end - 1, row: row)
        self[column, row] = Cell(text: grapheme, width: width, style: style)
        for x in (column + 1)..<max(column + 1, end) { self[x, row] = .continuation(style) }
    }

    /// Blanks the glyph that covers (column, row) when it is wider than one cell, so that
    /// overwriting any part of it leaves no half glyph. Blanks keep the glyph's style.
    private mutating func blankGlyph(covering column: Int, row: Int) {
        var lead = column
        while lead > 0, self[lead, row].width == 0 { lead -= 1 }
        let glyph = self[lead, row]
        let span = lead..<min(columns, lead + max(1, glyph.width))
        guard span.contains(column) else {
            // A continuation with no glyph before it: blank just this cell.
            self[column, row] = Cell(text: " ", width: 1, style: self[column, row].style)
            return
        }
        guard span.count > 1 || glyph.width == 0 else { return }
        for x in span { self[x, row] = Cell(text: " ", width: 1, style: glyph.style) }
    }
}
