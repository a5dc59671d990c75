import Testing
import ShadeCore

// Issue 10, deliver 5: one gate for every byte Shade writes. Control characters come out as
// symbols, never as themselves.

@Test(arguments: [
    ("plain text", "plain text"),
    ("\u{1B}[31mred\u{1B}[0m", "␛[31mred␛[0m"),          // CSI: the rest stays as the text it is
    ("\u{1B}]0;title\u{07}", "␛]0;title␇"),               // OSC retitling the window, ended by BEL
    ("nul\u{0}x", "nul␀x"),
    ("del\u{7F}", "del␡"),
    ("csi\u{9B}2J nel\u{85}", "csi�2J nel�"),             // C1 controls, CSI U+009B among them
    ("cr\rover", "cr over"),                               // a lone CR would overwrite the line
    ("a\r\nb\nc\u{2028}d\te", "a b c d e"),
    ("\u{202E}evil\u{2066}", "evil"),                      // bidi overrides and isolates are dropped
    ("王小明 ✓ é", "王小明 ✓ é"),
])
func deliver5_aLineComesOutWithoutAControlCharacter(text: String, safe: String) {
    #expect(SafeText.line(text) == safe)
    #expect(!SafeText.line(text).unicodeScalars.contains { SafeText.isControl($0.value) })
}

@Test func deliver5_severalLinesKeepTheirNewlines() {
    #expect(SafeText.lines("a\r\nb\nc\rd\u{1B}") == "a\nb\nc d␛")
    #expect(SafeText.isClean("ok\n", keepingNewlines: true))
    #expect(!SafeText.isClean("ok\n"))
}

@Test(arguments: Array(0...0x9F) + [0x202A, 0x202E, 0x2066, 0x2069])
func deliver5_everyControlIsClassifiedOnce(value: Int) {
    let scalar = UInt32(value)
    let isControl = scalar < 0x20 || (0x7F...0x9F).contains(scalar)
    #expect(SafeText.isControl(scalar) == isControl)
    guard isControl || SafeText.isBidiControl(scalar) else { return }
    let text = String(Character(Unicode.Scalar(scalar)!))
    #expect(!SafeText.line(text).unicodeScalars.contains { SafeText.isControl($0.value) || SafeText.isBidiControl($0.value) })
    #expect(!JSONWriter.compact(.string(text)).unicodeScalars.contains { SafeText.isControl($0.value) })
}
