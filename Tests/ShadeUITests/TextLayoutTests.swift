import Testing
import ShadeUI

@Test(arguments: [
    ("Hello world", 11, "Hello world"),
    ("Hello world", 20, "Hello world"),
    ("Hello world", 5, "Hell…"),
    ("Hello world", 7, "Hello…"),               // the space before the cut is dropped
    ("Hello world", 1, "…"),
    ("Hello world", 0, ""),
    ("王小明", 6, "王小明"),
    ("王小明", 5, "王小…"),
    ("王小明", 4, "王…"),                         // 小 would straddle the limit: cut before it
    ("王小明", 2, "…"),
    ("👨‍👩‍👧 family", 3, "👨‍👩‍👧…"),
    ("🇮🇷🇩🇪🇯🇵", 5, "🇮🇷🇩🇪…"),
    ("1️⃣2️⃣3️⃣", 4, "1️⃣…"),
    ("zoe\u{0308}zoe\u{0308}", 4, "zoe\u{0308}…"),    // the mark stays on its letter
    ("علی رضایی", 5, "علی…"),
] as [(String, Int, String)])
func truncatedCutsBetweenClusters(_ text: String, _ width: Int, _ expected: String) {
    let result = truncated(text, toWidth: width)
    #expect(result == expected)
    #expect(displayWidth(of: result) <= max(0, width))
}

/// For every limit, the cut text is a whole-cluster prefix of the original plus `…`.
@Test(arguments: ["👨‍👩‍👧王🇮🇷a1️⃣zoe\u{0308}❤️b", "王小明王小明", "می‌خواهم فردا بیایم"])
func truncatedNeverSplitsAGrapheme(_ text: String) {
    let clusters = Array(text)
    for width in 0...(displayWidth(of: text) + 1) {
        let result = truncated(text, toWidth: width)
        #expect(displayWidth(of: result) <= width)
        if width == 0 { #expect(result == ""); continue }
        if result == text { continue }
        let kept = Array(result.dropLast())
        #expect(result.last == "…")
        #expect(Array(clusters.prefix(kept.count)) == kept, "width \(width): \(result)")
    }
}

@Test(arguments: [
    ("ab", 4, "ab  "),
    ("", 3, "   "),
    ("王小明", 7, "王小明 "),
    ("王小明", 5, "王小…"),
    ("王小明", 4, "王… "),
    ("abc", 0, ""),
] as [(String, Int, String)])
func paddedIsExactlyTheWidth(_ text: String, _ width: Int, _ expected: String) {
    #expect(padded(text, toWidth: width) == expected)
    #expect(displayWidth(of: padded(text, toWidth: width)) == width)
}

struct WrapCase: CustomTestStringConvertible, Sendable {
    let text: String
    let width: Int
    let maxLines: Int
    let lines: [String]
    let note: String
    var testDescription: String { note }
}

@Test(arguments: [
    WrapCase(text: "the quick brown fox jumps", width: 10, maxLines: 5,
             lines: ["the quick", "brown fox", "jumps"], note: "words fill lines"),
    WrapCase(text: "the quick brown fox jumps", width: 10, maxLines: 2,
             lines: ["the quick", "brown fox…"], note: "the last line shows more text remains"),
    WrapCase(text: "the quick brown fox jumps", width: 10, maxLines: 1,
             lines: ["the quick…"], note: "one line"),
    WrapCase(text: "supercalifragilistic", width: 8, maxLines: 5,
             lines: ["supercal", "ifragili", "stic"], note: "a long word is broken"),
    WrapCase(text: "see supercalifragilistic", width: 8, maxLines: 5,
             lines: ["see", "supercal", "ifragili", "stic"], note: "a long word starts its own line"),
    WrapCase(text: "王小明王小明王小明", width: 7, maxLines: 5,
             lines: ["王小明", "王小明", "王小明"], note: "CJK breaks between characters"),
    WrapCase(text: "Hello 王小明王小明", width: 10, maxLines: 5,
             lines: ["Hello 王小", "明王小明"], note: "CJK fills the line after a word"),
    WrapCase(text: "王小明王小明王小明", width: 7, maxLines: 2,
             lines: ["王小明", "王小明…"], note: "CJK cut with an ellipsis"),
    WrapCase(text: "سلام دوست من", width: 6, maxLines: 3,
             lines: ["سلام", "دوست", "من"], note: "Persian words in logical order"),
    WrapCase(text: "first\nsecond", width: 20, maxLines: 5,
             lines: ["first", "second"], note: "the text's own line breaks are kept"),
    WrapCase(text: "first\nsecond", width: 20, maxLines: 1,
             lines: ["first…"], note: "a later paragraph counts as remaining text"),
    WrapCase(text: "\n\nhi\n \n", width: 10, maxLines: 5,
             lines: ["hi"], note: "blank lines around the text are left out"),
    WrapCase(text: "a\n\nb", width: 10, maxLines: 5,
             lines: ["a", "", "b"], note: "blank lines inside are kept"),
    WrapCase(text: "  ", width: 10, maxLines: 5, lines: [], note: "nothing to show"),
    WrapCase(text: "x \u{1B}[31mred\tok", width: 20, maxLines: 5,
             lines: ["x ␛[31mred ok"], note: "wrapped text is sanitised"),
    WrapCase(text: "👨‍👩‍👧 🇮🇷 1️⃣ ❤️ zoe\u{0308}", width: 5, maxLines: 5,
             lines: ["👨‍👩‍👧 🇮🇷", "1️⃣ ❤️", "zoe\u{0308}"], note: "emoji count 2 columns"),
    WrapCase(text: "王", width: 1, maxLines: 3, lines: ["…"], note: "a glyph wider than the line"),
    WrapCase(text: "abc", width: 0, maxLines: 3, lines: [], note: "no room"),
])
func wrappedBreaksByDisplayWidth(_ c: WrapCase) {
    let lines = wrapped(c.text, width: c.width, maxLines: c.maxLines)
    #expect(lines == c.lines)
    #expect(lines.allSatisfy { displayWidth(of: $0) <= c.width })
}

@Test func wrappedLinesNeverExceedTheWidth() {
    var generator = SeededGenerator(seed: 7)
    let words = ["a", "word", "王小明", "علی", "👨‍👩‍👧", "🇮🇷", "supercalifragilistic", "zoe\u{0308}", "1️⃣", "\n"]
    for _ in 0..<500 {
        let text = (0..<Int.random(in: 0...15, using: &generator))
            .map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        let width = Int.random(in: 1...12, using: &generator)
        let maxLines = Int.random(in: 1...6, using: &generator)
        let lines = wrapped(text, width: width, maxLines: maxLines)
        #expect(lines.count <= maxLines)
        #expect(lines.allSatisfy { displayWidth(of: $0) <= width }, "\(text.debugDescription) at \(width): \(lines)")
    }
}
