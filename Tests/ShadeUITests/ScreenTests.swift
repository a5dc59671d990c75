import Testing
import ShadeUI

@Test func putWritesGraphemesAndReturnsColumnsUsed() {
    var screen = Screen(columns: 12, rows: 3)
    #expect(screen.put("Hello", column: 0, row: 0) == 5)
    #expect(screen.put("王小明", column: 1, row: 1) == 6)
    #expect(screen.put("👨‍👩‍👧🇮🇷!", column: 7, row: 2) == 5)
    expectScreen(screen, equals: [
        "Hello       ",
        " 王小明     ",
        "       👨‍👩‍👧🇮🇷!",
    ])
    #expect(screen[1, 1] == Cell(text: "王", width: 2))
    #expect(screen[2, 1] == Cell.continuation(.plain))
}

@Test func putClipsAtTheRightEdgeWithAnEllipsis() {
    var screen = Screen(columns: 8, rows: 2)
    #expect(screen.put("Hello world", column: 2, row: 0) == 6)
    #expect(screen.put("Hello world", column: 0, row: 1, width: 4) == 4)
    expectScreen(screen, equals: [
        "  Hello…",
        "Hel…    ",
    ])
}

@Test func aWideGlyphThatDoesNotFitLeavesABlank() {
    var screen = Screen(columns: 4, rows: 2)
    screen.put("xxxx", column: 0, row: 0)
    screen.put("xxxx", column: 0, row: 1)
    #expect(screen.put("王王王", column: 0, row: 0) == 4)
    #expect(screen.put("ab王", column: 1, row: 1, width: 3) == 3)
    expectScreen(screen, equals: [
        "王… ",
        "xab…",
    ])
}

@Test func aWideGlyphAtTheLastColumnIsNeverHalfDrawn() {
    var screen = Screen(columns: 5, rows: 1)
    #expect(screen.put("王", column: 4, row: 0) == 1)
    expectScreen(screen, equals: ["    …"])
    #expect(screen.put("王", column: 3, row: 0) == 2)
    expectScreen(screen, equals: ["   王"])
}

@Test func writingOverHalfAWideGlyphBlanksTheOtherHalf() {
    var screen = Screen(columns: 6, rows: 3)
    for row in 0..<3 { screen.put("王小明", column: 0, row: row) }
    screen.put("x", column: 1, row: 0)          // the right half of 王
    screen.put("ab", column: 1, row: 1)         // right half of 王 and left half of 小
    screen.put("山", column: 3, row: 2)         // right half of 小 and left half of 明
    expectScreen(screen, equals: [
        " x小明",
        " ab 明",
        "王 山 ",
    ])
}

@Test func fillAndFillRectBlankInAStyle() {
    let bar = Style(reverse: true)
    var screen = Screen(columns: 6, rows: 3)
    for row in 0..<3 { screen.put("王小明", column: 0, row: row) }
    screen.fill(row: 0, style: bar)
    screen.fillRect(column: 1, row: 1, width: 2, height: 5, style: bar)
    expectScreen(screen, equals: [
        "      ",
        "    明",
        "    明",
    ])
    #expect((0..<6).allSatisfy { screen[$0, 0] == Cell(text: " ", width: 1, style: bar) })
    #expect(screen[0, 1] == Cell(text: " ", width: 1))        // 王's left half: blanked, not filled
    #expect(screen[3, 1] == Cell(text: " ", width: 1))        // 小's right half: blanked, not filled
    #expect(screen[1, 2].style == bar && screen[2, 2].style == bar)
}

@Test func putSanitisesWhatItWrites() {
    var screen = Screen(columns: 16, rows: 1)
    screen.put("\u{1B}]0;pwned\u{07}\nx", column: 0, row: 0)
    expectScreen(screen, equals: ["␛]0;pwned␇ x    "])
}

@Test func putOutsideTheScreenWritesNothing() {
    var screen = Screen(columns: 3, rows: 1)
    #expect(screen.put("abc", column: 3, row: 0) == 0)
    #expect(screen.put("abc", column: 0, row: 1) == 0)
    #expect(screen.put("abc", column: -1, row: 0) == 0)
    #expect(screen.put("abc", column: 0, row: 0, width: 0) == 0)
    expectScreen(screen, equals: ["   "])
}

/// Whatever is written wherever, every line is exactly `columns` wide and holds no control.
@Test func plainLinesAreAlwaysExactlyTheScreenWidth() {
    var generator = SeededGenerator(seed: 99)
    let texts = ["王小明", "علی", "👨‍👩‍👧", "🇮🇷", "1️⃣", "❤️", "zoe\u{0308}", "a🏽", "⏎ ␛ …", "\u{1B}[2J"]
    for size in [(1, 1), (2, 2), (7, 3), (13, 4)] {
        var screen = Screen(columns: size.0, rows: size.1)
        for _ in 0..<300 {
            let text = Bool.random(using: &generator)
                ? texts.randomElement(using: &generator)! + texts.randomElement(using: &generator)!
                : randomTrickyString(&generator)
            let width: Int? = Bool.random(using: &generator) ? Int.random(in: 0...5, using: &generator) : nil
            screen.put(text, column: Int.random(in: 0..<size.0, using: &generator),
                       row: Int.random(in: 0..<size.1, using: &generator), width: width)
            let lines = screen.plainLines()
            #expect(lines.count == size.1)
            #expect(lines.allSatisfy { displayWidth(of: $0) == size.0 }, "after \(text.debugDescription): \(lines)")
            #expect(lines.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } })
        }
    }
}

@Test func plainLinesBlankCellsThatDoNotHoldAWholeGlyph() {
    var screen = Screen(columns: 4, rows: 1)
    screen[0, 0] = Cell.continuation(.plain)                  // no glyph before it
    screen[1, 0] = Cell(text: "王", width: 1)                  // narrower than its text
    screen[3, 0] = Cell(text: "明", width: 2)                  // cut off by the edge
    #expect(screen.plainLines() == ["    "])
}

@Test func ansiTextStylesRunsAndResetsAtLineEnds() {
    var screen = Screen(columns: 6, rows: 3)
    screen.put("Hi", column: 0, row: 0, style: Style(foreground: .avatar(0), bold: true))
    screen.fill(row: 1, style: Style(reverse: true))
    screen.put("王", column: 1, row: 1, style: Style(reverse: true))
    screen.put("ok", column: 0, row: 2)
    screen.put("!", column: 5, row: 2, style: Style(foreground: .danger, background: .avatar(9), dim: true, underline: true))
    #expect(screen.ansiText() == [
        "\u{1B}[0;1;38;5;167mHi\u{1B}[0m    ",
        "\u{1B}[0;7m 王   \u{1B}[0m",
        "ok   \u{1B}[0;2;4;38;5;196;48;5;208m!\u{1B}[0m",
    ].joined(separator: "\n"))
}

@Test func diffIsNilForEqualScreensAndReadableOtherwise() {
    var expected = Screen(columns: 6, rows: 3)
    expected.put("Hello", column: 0, row: 0)
    expected.put("王小明", column: 0, row: 2)
    var actual = expected
    #expect(expected.diff(actual) == nil)

    actual.put("a", column: 1, row: 0)
    actual.put("山", column: 2, row: 2)
    #expect(expected.diff(actual) == """
        screen differs: - expected, + actual (3 expected lines, 3 actual)
        0 - |Hello |
          + |Hallo |
              ^ column 1
        1   |      |
        2 - |王小明|
          + |王山明|
               ^ column 2
        """)

    var restyled = expected
    restyled.put("H", column: 0, row: 0, style: Style(bold: true))
    #expect(expected.diff(restyled) == """
        same text, different styles:
          row 0, column 0 "H": expected plain, actual bold
        """)
    #expect(expected.diff(Screen(columns: 5, rows: 3))?.hasPrefix("size: expected 6x3, actual 5x3\n") == true)
}

@Test func linesDiffMarksMissingLines() {
    #expect(linesDiff(expected: ["a", "b"], actual: ["a"]) == """
        screen differs: - expected, + actual (2 expected lines, 1 actual)
        0   |a|
        1 - |b|
          + (no line)
        """)
}

@Test func paletteHasDistinctColoursAndWrapsIndices() {
    #expect(Palette.count == 8)
    #expect(Set(Palette.avatar256).count == Palette.count)
    #expect(Palette.avatarNames.count == Palette.count && Palette.avatarBasic.count == Palette.count)
    #expect(Palette.xterm256(.avatar(8)) == Palette.xterm256(.avatar(0)))
    #expect(Palette.xterm256(.avatar(-1)) == Palette.xterm256(.avatar(7)))
    #expect(Palette.xterm256(.default) == nil && Palette.basic(.default) == nil)
    #expect([Color.accent, .muted, .warning, .danger, .success].compactMap(Palette.xterm256) == [39, 245, 214, 196, 70])
}

@Test func expectScreenRecordsAnIssueWhenLinesDiffer() {
    var screen = Screen(columns: 3, rows: 1)
    screen.put("abc", column: 0, row: 0)
    withKnownIssue { expectScreen(screen, equals: ["abd"]) }
    expectScreen(screen, equals: ["abc"])
}
