import Testing
import ShadeUI

/// A string and the width of each of its grapheme clusters, as Python wcwidth 0.9.4
/// measures them (`wcwidth.wcswidth` of each cluster of `wcwidth.iter_graphemes`).
struct WidthSample: CustomTestStringConvertible, Sendable {
    let text: String
    let clusterWidths: [Int]
    let note: String
    init(_ text: String, _ clusterWidths: [Int], _ note: String) {
        self.text = text
        self.clusterWidths = clusterWidths
        self.note = note
    }
    var testDescription: String { note }
}

@Test(arguments: [
    WidthSample("Hello", [1, 1, 1, 1, 1], "ASCII"),
    WidthSample("王小明", [2, 2, 2], "CJK ideographs are wide"),
    WidthSample("علی", [1, 1, 1], "Arabic letters in logical order, one column each"),
    WidthSample("می\u{200C}خواهم", [1, 1, 1, 1, 1, 1, 1], "Persian ZWNJ joins its letter's cluster, adds nothing"),
    WidthSample("zoe\u{0308}", [1, 1, 1], "decomposed ë: the combining diaeresis adds nothing"),
    WidthSample("zo\u{00EB}", [1, 1, 1], "precomposed ë"),
    WidthSample("e\u{0301}\u{0302}", [1], "stacked combining marks"),
    WidthSample("👨‍👩‍👧", [2], "ZWJ family is one cluster, as wide as its first emoji (wcwidth)"),
    WidthSample("👨‍👩‍👧‍👦", [2], "four-person ZWJ family"),
    WidthSample("🇮🇷", [2], "flag: two regional indicators, one cluster"),
    WidthSample("🇮🇷🇺", [2, 2], "a flag and a lone regional indicator"),
    WidthSample("1️⃣", [2], "keycap with VS16"),
    WidthSample("#️⃣", [2], "keycap # with VS16"),
    WidthSample("1\u{20E3}", [1], "keycap without VS16 stays narrow"),
    WidthSample("❤️", [2], "text-default heart with VS16 is wide"),
    WidthSample("❤", [1], "text-default heart alone is narrow"),
    WidthSample("❤\u{FE0E}", [1], "heart with VS15 stays narrow"),
    WidthSample("☺️", [2], "smiley with VS16"),
    WidthSample("⌚", [2], "emoji-presentation watch is wide"),
    WidthSample("⌚\u{FE0E}", [1], "VS15 narrows an emoji-presentation emoji"),
    WidthSample("👍🏽", [2], "skin tone modifier joins the emoji"),
    WidthSample("👨🏽‍💻", [2], "skin tone inside a ZWJ sequence"),
    WidthSample("🏳️‍🌈", [2], "rainbow flag: VS16 then ZWJ"),
    WidthSample("❤️‍🔥", [2], "heart on fire"),
    WidthSample("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", [2], "tag sequence flag (England)"),
    WidthSample("ｈｉ", [2, 2], "fullwidth Latin"),
    WidthSample("ｶﾅ", [1, 1], "halfwidth katakana"),
    WidthSample("한국", [2, 2], "Hangul syllables"),
    WidthSample("\u{1100}\u{1161}\u{11A8}", [2], "conjoining Hangul jamo: one cluster, leading jamo wide"),
    WidthSample("ひら", [2, 2], "hiragana"),
    WidthSample("\u{3000}", [2], "ideographic space"),
    WidthSample("⏎␛…•·▸▾─│┌", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "Shade's own layout glyphs are narrow"),
    WidthSample("a🏽", [3], "wcwidth: a skin tone after a letter keeps its own 2 columns"),
    WidthSample("\u{200B}", [0], "zero width space"),
    WidthSample("\u{0301}", [0], "a combining mark with no base"),
    WidthSample("\u{1B}\u{07}\u{7F}\u{85}", [1, 1, 1, 1], "controls count as their one-column placeholder"),
])
func clusterWidthsAgreeWithWcwidth(_ sample: WidthSample) {
    #expect(sample.text.map { displayWidth(of: $0) } == sample.clusterWidths)
    #expect(displayWidth(of: sample.text) == sample.clusterWidths.reduce(0, +))
    #expect(displayWidth(of: sample.text[...]) == sample.clusterWidths.reduce(0, +))
}

@Test func graphemeSegmentationKeepsEmojiSequencesWhole() {
    #expect(Array("👨‍👩‍👧 🇮🇷🇩🇪 1️⃣ 👨🏽‍💻 🏳️‍🌈").map(String.init)
            == ["👨‍👩‍👧", " ", "🇮🇷", "🇩🇪", " ", "1️⃣", " ", "👨🏽‍💻", " ", "🏳️‍🌈"])
    // A ZWJ between letters does not join them: it ends the first cluster.
    #expect(Array("a\u{200D}b").map(String.init) == ["a\u{200D}", "b"])
}

@Test func asciiFastPathCountsBytes() {
    let line = String(repeating: "abc ~!", count: 100)
    #expect(displayWidth(of: line) == 600)
    #expect(displayWidth(of: "\r\n") == 1)
}
