import CNcursesw
import Glibc
import Testing
@testable import ShadeTerminal
import ShadeUI

/// Lays out `lines` the simple way these tests need: CJK and emoji (the East Asian wide range
/// by wcwidth) take 2 columns, anything else 1. Cells past the text stay blank.
func screen(columns: Int, _ lines: [String], style: Style = .plain) -> Screen {
    Terminal.setUTF8Locale()
    var screen = Screen(columns: columns, rows: lines.count)
    for (row, line) in lines.enumerated() {
        var column = 0
        for character in line where column < columns {
            let width = shade_wcwidth(wchar_t(bitPattern: character.unicodeScalars.first!.value)) == 2 ? 2 : 1
            screen[column, row] = Cell(text: String(character), width: width, style: style)
            if width == 2 && column + 1 < columns { screen[column + 1, row] = .continuation(style) }
            column += width
        }
    }
    return screen
}

struct GlyphTests {
    init() { Terminal.setUTF8Locale() }

    @Test(arguments: [
        ("a", 1, "a"),
        ("中", 2, "中"),
        ("😀", 2, "😀"),
        ("e\u{301}", 1, "e\u{301}"),                                   // combining mark kept
        ("\u{2600}\u{FE0F}", 2, "\u{2600}"),                           // variation selector left out
        ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 2, "\u{1F468}"), // ZWJ family: the first person
        ("\u{1F44D}\u{1F3FD}", 2, "\u{1F44D}"),                        // skin tone modifier has a width of its own
        ("", 1, " "),
        ("\u{1B}[31m", 1, "?"),                                        // ESC: never reaches the terminal
        ("a\u{7}", 1, "?"),
        ("\u{7F}", 1, "?"),
        ("\u{9B}", 1, "?"),                                            // C1 CSI
        ("\u{1B}", 2, "?"),
    ])
    func textBecomesWhatCursesIsGiven(text: String, width: Int, expected: String) {
        let glyph = Glyph(text: text, width: width)
        #expect(glyph.text == expected)
        #expect(glyph.width == width)
    }

    @Test func aContinuationAfterAWideGlyphDrawsNothing() {
        let glyph = Glyph(.continuation(.plain), previous: Cell(text: "中", width: 2), column: 1, visibleColumns: 10)
        #expect(glyph.isContinuation)
    }

    @Test func aStrayContinuationIsABlank() {
        let glyph = Glyph(.continuation(.plain), previous: Cell(text: "a", width: 1), column: 1, visibleColumns: 10)
        #expect(!glyph.isContinuation && glyph.text == " ")
    }

    @Test func aWideGlyphCutByTheRightEdgeIsABlank() {
        let glyph = Glyph(Cell(text: "中", width: 2), previous: nil, column: 9, visibleColumns: 10)
        #expect(glyph.text == " " && glyph.width == 1)
    }
}

struct ScreenDiffTests {
    @Test func anUnchangedRowIsSkipped() {
        let a = screen(columns: 8, ["abcdefgh", "12345678"])
        #expect(ScreenDiff.changedSpan(old: a, new: a, row: 0) == nil)
    }

    @Test func theChangedSpanHasOneColumnOfMarginEachSide() {
        let a = screen(columns: 8, ["abcdefgh"])
        let b = screen(columns: 8, ["abcXYfgh"])
        #expect(ScreenDiff.changedSpan(old: a, new: b, row: 0) == 2..<6)
    }

    @Test func theSpanStopsAtTheRowEdges() {
        let a = screen(columns: 4, ["abcd"])
        let b = screen(columns: 4, ["Xbc中"])
        #expect(ScreenDiff.changedSpan(old: a, new: b, row: 0) == 0..<4)
    }
}

/// `present` against a real curses screen with no terminal behind it. Serialized: curses has one
/// current screen per process.
@Suite(.serialized)
struct PresentTests {
    @Test func cellsLandInCursesAsLaidOut() throws {
        let terminal = try #require(Terminal.offscreen(columns: 12, rows: 3))
        defer { terminal.stop() }
        terminal.present(screen(columns: 12, ["中文 ok", "a😀b", "王小明 done"]))
        #expect((0..<3).map(terminal.cursesRow) == [
            "中文 ok     ",
            "a😀b        ",
            "王小明 done ",
        ])
    }

    @Test func controlCharactersNeverReachCurses() throws {
        let terminal = try #require(Terminal.offscreen(columns: 8, rows: 1))
        defer { terminal.stop() }
        var s = Screen(columns: 8, rows: 1)
        s[0, 0] = Cell(text: "\u{1B}", width: 1)
        s[1, 0] = Cell(text: "[", width: 1)
        s[2, 0] = Cell(text: "2J\u{7}", width: 1)
        s[3, 0] = Cell(text: "\u{1B}", width: 2)
        s[4, 0] = .continuation(.plain)
        terminal.present(s)
        #expect(terminal.cursesRow(0) == "?[??    ")
    }

    @Test func emojiSequencesKeepTheGridAligned() throws {
        let terminal = try #require(Terminal.offscreen(columns: 10, rows: 1))
        defer { terminal.stop() }
        var s = Screen(columns: 10, rows: 1)
        s[0, 0] = Cell(text: "\u{2600}\u{FE0F}", width: 2)   // a width-1 base the layout counts as 2
        s[1, 0] = .continuation(.plain)
        s[2, 0] = Cell(text: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", width: 2)
        s[3, 0] = .continuation(.plain)
        s[4, 0] = Cell(text: "x", width: 1)
        terminal.present(s)
        #expect(terminal.cursesRow(0) == "\u{2600} \u{1F468}x     ")
    }

    @Test func aLargerScreenIsClippedAndAWideGlyphAtTheEdgeBlanked() throws {
        let terminal = try #require(Terminal.offscreen(columns: 5, rows: 2))
        defer { terminal.stop() }
        terminal.present(screen(columns: 8, ["abcd中xy", "123456", "hidden"]))
        #expect((0..<2).map(terminal.cursesRow) == ["abcd ", "12345"])
    }

    @Test func aSmallerScreenLeavesTheRestBlank() throws {
        let terminal = try #require(Terminal.offscreen(columns: 6, rows: 3))
        defer { terminal.stop() }
        terminal.present(screen(columns: 6, ["xxxxxx", "xxxxxx", "xxxxxx"]))
        terminal.present(screen(columns: 3, ["abc"]))
        #expect((0..<3).map(terminal.cursesRow) == ["abc   ", "      ", "      "])
    }

    @Test(arguments: [
        (["ab中cd", "1234567"], ["a中bcd", "1234567"], ["a中bcd  ", "1234567 "]),
        (["中文字幕", "xy"], ["a中b文字", "xy"], ["a中b文字", "xy      "]),
        (["a中b文字", "xy"], ["中文字幕", "xz"], ["中文字幕", "xz      "]),
        (["😀😀😀", "abc"], ["abcdef", "abc"], ["abcdef  ", "abc     "]),
        (["abcdef", ""], ["😀😀😀", "中"], ["😀😀😀  ", "中      "]),
    ])
    func aDiffedFrameShowsTheNewScreen(before: [String], after: [String], expected: [String]) throws {
        let terminal = try #require(Terminal.offscreen(columns: 8, rows: 2))
        defer { terminal.stop() }
        terminal.present(screen(columns: 8, before))
        terminal.present(screen(columns: 8, after))
        #expect((0..<2).map(terminal.cursesRow) == expected)
    }

    @Test func attributesReachCurses() throws {
        let terminal = try #require(Terminal.offscreen(columns: 4, rows: 1))
        defer { terminal.stop() }
        var s = Screen(columns: 4, rows: 1)
        s[0, 0] = Cell(text: "b", width: 1, style: Style(bold: true))
        s[1, 0] = Cell(text: "r", width: 1, style: Style(reverse: true, underline: true))
        s[2, 0] = Cell(text: "a", width: 1, style: Style(foreground: .avatar(2)))   // monochrome: bold reverse
        terminal.present(s)
        #expect(terminal.cursesAttributes(column: 0, row: 0) == shade_A_BOLD)
        #expect(terminal.cursesAttributes(column: 1, row: 0) == shade_A_REVERSE | shade_A_UNDERLINE)
        #expect(terminal.cursesAttributes(column: 2, row: 0) == shade_A_BOLD | shade_A_REVERSE)
        #expect(terminal.cursesAttributes(column: 3, row: 0) == shade_A_NORMAL)
    }
}
