import CNcursesw
import Testing
@testable import ShadeTerminal

struct KeyDecodingTests {
    @Test(arguments: [
        (RawInput.character(0x71), Key.character("q")),
        (.character(0x4E2D), .character("中")),
        (.character(0x1F600), .character("😀")),
        (.character(3), .controlC),
        (.character(13), .enter),
        (.character(10), .enter),
        (.character(9), .tab),
        (.character(27), .escape),
        (.character(127), .backspace),
        (.character(8), .backspace),
        (.character(12), .control("l")),
        (.character(1), .control("a")),
        (.character(26), .control("z")),
        (.character(28), .control("\\")),
        (.keyCode(KEY_ENTER), .enter),
        (.keyCode(KEY_UP), .up),
        (.keyCode(KEY_DOWN), .down),
        (.keyCode(KEY_LEFT), .left),
        (.keyCode(KEY_RIGHT), .right),
        (.keyCode(KEY_PPAGE), .pageUp),
        (.keyCode(KEY_NPAGE), .pageDown),
        (.keyCode(KEY_HOME), .home),
        (.keyCode(KEY_END), .end),
        (.keyCode(KEY_BACKSPACE), .backspace),
        (.keyCode(KEY_DC), .delete),
        (.keyCode(KEY_IC), .insert),
        (.keyCode(KEY_BTAB), .backTab),
        (.keyCode(KEY_RESIZE), .resize),
        (.keyCode(shade_key_f(1)), .function(1)),
        (.keyCode(shade_key_f(12)), .function(12)),
        (.mouse(buttons: shade_BUTTON4_PRESSED, column: 3, row: 4), .mouseWheelUp),
        (.mouse(buttons: shade_BUTTON5_PRESSED, column: 3, row: 4), .mouseWheelDown),
        (.mouse(buttons: shade_BUTTON1_PRESSED, column: 3, row: 4), .mouseClick(column: 3, row: 4)),
        (.mouse(buttons: shade_BUTTON1_CLICKED, column: 0, row: 0), .mouseClick(column: 0, row: 0)),
    ])
    func oneInputIsOneKey(input: RawInput, expected: Key) {
        #expect(Key.decode([input]) == [expected])
    }

    @Test(arguments: [
        RawInput.character(0x9B),              // C1 CSI: would start an escape sequence
        .character(0x85),
        .character(0xD800),                    // a surrogate is not a character
        .keyCode(KEY_SUSPEND),
        .mouse(buttons: 0, column: 1, row: 1), // a release
    ])
    func inputWithNoMeaningIsDropped(input: RawInput) {
        #expect(Key.decode([input]) == [])
    }

    @Test func aDrainedBatchKeepsItsOrder() {
        let keys = Key.decode([.character(0x6A), .keyCode(KEY_DOWN), .character(0x6B), .character(27), .character(0x71)])
        #expect(keys == [.character("j"), .down, .character("k"), .escape, .character("q")])
    }

    @Test func aCombiningMarkJoinsTheCharacterBeforeIt() {
        // "e" + U+0301 COMBINING ACUTE ACCENT, as a terminal sends a decomposed é.
        #expect(Key.decode([.character(0x65), .character(0x301), .character(0x78)])
                == [.character("e\u{301}"), .character("x")])
    }

    @Test func aCombiningMarkWithNothingBeforeItStaysAlone() {
        #expect(Key.decode([.keyCode(KEY_UP), .character(0x301)]) == [.up, .character("\u{301}")])
    }
}
