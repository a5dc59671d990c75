import Testing
import ShadeUI

@Test(arguments: [
        (0x00, "␀"),  // NUL
        (0x01, "␁"),  // SOH
        (0x02, "␂"),  // STX
        (0x03, "␃"),  // ETX
        (0x04, "␄"),  // EOT
        (0x05, "␅"),  // ENQ
        (0x06, "␆"),  // ACK
        (0x07, "␇"),  // BEL
        (0x08, "␈"),  // BS
        (0x09, " "),  // HT: a space on one line
        (0x0A, " "),  // LF: a space on one line
        (0x0B, "␋"),  // VT
        (0x0C, "␌"),  // FF
        (0x0D, " "),  // CR: a space on one line
        (0x0E, "␎"),  // SO
        (0x0F, "␏"),  // SI
        (0x10, "␐"),  // DLE
        (0x11, "␑"),  // DC1
        (0x12, "␒"),  // DC2
        (0x13, "␓"),  // DC3
        (0x14, "␔"),  // DC4
        (0x15, "␕"),  // NAK
        (0x16, "␖"),  // SYN
        (0x17, "␗"),  // ETB
        (0x18, "␘"),  // CAN
        (0x19, "␙"),  // EM
        (0x1A, "␚"),  // SUB
        (0x1B, "␛"),  // ESC
        (0x1C, "␜"),  // FS
        (0x1D, "␝"),  // GS
        (0x1E, "␞"),  // RS
        (0x1F, "␟"),  // US
        (0x7F, "␡"),  // DEL
] as [(UInt32, String)])
func everyC0ControlAndDelBecomeVisible(_ byte: UInt32, _ shown: String) {
    let control = String(Unicode.Scalar(byte)!)
    #expect(sanitized("a" + control + "b") == "a" + shown + "b")
}

@Test(arguments: Array(UInt32(0x80)...0x9F))
func everyC1ControlBecomesReplacementCharacter(_ value: UInt32) {
    #expect(sanitized("a" + String(Unicode.Scalar(value)!) + "b") == "a\u{FFFD}b")
}

@Test(arguments: [
    ("\u{1B}]0;pwned\u{07}", "␛]0;pwned␇"),                     // OSC: would set the window title
    ("\u{1B}]0;pwned\u{1B}\\", "␛]0;pwned␛\\"),                 // OSC ended by ST
    ("\u{1B}[31mred\u{1B}[0m", "␛[31mred␛[0m"),                 // CSI SGR colour
    ("\u{1B}[2J\u{1B}[H", "␛[2J␛[H"),                           // CSI clear screen, cursor home
    ("\u{1B}]8;;https://x.example\u{1B}\\link\u{1B}]8;;\u{1B}\\",
     "␛]8;;https://x.example␛\\link␛]8;;␛\\"),                  // OSC 8 hyperlink
    ("\u{9B}31m", "\u{FFFD}31m"),                               // 8-bit CSI
    ("\u{1B}P+q\u{1B}\\", "␛P+q␛\\"),                           // DCS
] as [(String, String)])
func escapeSequencesStayAsPrintableText(_ payload: String, _ shown: String) {
    #expect(sanitized(payload) == shown)
}

@Test(arguments: Array(UInt32(0x202A)...0x202E) + Array(UInt32(0x2066)...0x2069))
func bidiControlsAreDropped(_ value: UInt32) {
    #expect(sanitized("abc" + String(Unicode.Scalar(value)!) + "def") == "abcdef")
}

@Test(arguments: [
    ("one\ntwo", "one two"),
    ("one\r\ntwo", "one two"),
    ("one\rtwo", "one two"),
    ("one\u{2028}two\u{2029}three", "one two three"),
    ("one\ttwo", "one two"),
    ("one\n\ntwo", "one  two"),
] as [(String, String)])
func lineBreaksAndTabsBecomeOneSpaceEach(_ payload: String, _ line: String) {
    #expect(sanitized(payload) == line)
}

@Test(arguments: [
    ("\u{200B}zero\u{200B}width\u{FEFF}", "zerowidth", "zero width space and BOM: nothing to see"),
    ("\u{200E}mark\u{200F}\u{061C}", "mark", "LRM, RLM, ALM"),
    ("\u{0301}leading mark", "leading mark", "a combining mark with no base"),
    ("\u{FE0F}x", "x", "a variation selector with no base"),
    ("\u{3164}\u{3164}", "", "Hangul fillers (invisible names)"),
    ("a\u{200D}b", "ab", "ZWJ between letters would swallow the next cell in wcwidth"),
    ("👨\u{200D}", "👨", "trailing ZWJ"),
    ("👨‍👩‍👧", "👨‍👩‍👧", "a ZWJ sequence is kept whole"),
    ("می\u{200C}خواهم", "می\u{200C}خواهم", "Persian ZWNJ is kept"),
    ("zoe\u{0308}", "zoe\u{0308}", "combining marks on a base are kept"),
    ("🇮🇷🇺", "🇮🇷🇺\u{200C}", "a lone regional indicator is closed with ZWNJ"),
    ("क्", "क्\u{200C}", "a trailing virama is closed with ZWNJ"),
    ("🏽 tone", " tone", "a skin tone with no emoji before it is dropped"),
    ("\u{20E3}\u{1F3FB}\u{0308}x", "x", "a cluster with no base: keycap mark, skin tone, diaeresis"),
    ("👍🏽", "👍🏽", "a skin tone on its emoji is kept"),
] as [(String, String, String)])
func clustersThatWouldBreakLayoutAreFixed(_ payload: String, _ clean: String, _ why: String) {
    #expect(sanitized(payload) == clean, Comment(rawValue: why))
}

@Test func sanitizedLinesSplitsOnEveryLineBreak() {
    #expect(sanitizedLines("one\ntwo\r\nthree\rfour\u{2028}five\u{2029}six")
            == ["one", "two", "three", "four", "five", "six"])
    #expect(sanitizedLines("") == [""])
    #expect(sanitizedLines("last\n") == ["last", ""])
    #expect(sanitizedLines("\r\r\n") == ["", "", ""])
    #expect(sanitizedLines("\t\u{1B}[1mbold\n\u{202E}x\u{07}") == [" ␛[1mbold", "x␇"])
}

@Test func plainTextIsReturnedUnchanged() {
    for text in ["Hello, world", "王小明: 你好", "علی", "👨‍👩‍👧 🇮🇷 1️⃣ ❤️", "⏎ ␛ … • · ▸ ▾ ─ │"] {
        #expect(sanitized(text) == text)
    }
}

/// Whatever goes in, what comes out has no control, every cluster takes a column, and
/// sanitising again changes nothing.
@Test func sanitizedOutputIsAlwaysSafe() {
    var generator = SeededGenerator(seed: 2024)
    for _ in 0..<3000 {
        let payload = randomTrickyString(&generator)
        let clean = sanitized(payload)
        let forbidden = clean.unicodeScalars.filter {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
        #expect(forbidden.isEmpty, "\(payload.debugDescription) → \(clean.debugDescription)")
        #expect(clean.allSatisfy { displayWidth(of: $0) >= 1 }, "\(payload.debugDescription) → \(clean.debugDescription)")
        #expect(clean.allSatisfy { $0.unicodeScalars.last?.value != 0x200D }, "\(payload.debugDescription)")
        #expect(sanitized(clean) == clean, "\(payload.debugDescription) → \(clean.debugDescription)")
        for line in sanitizedLines(payload) {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }
}
