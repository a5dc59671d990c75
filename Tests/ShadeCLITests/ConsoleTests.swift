import Testing
@testable import shade
import ShadeCore

/// `Console.line`'s fast path says a line is safe only when `SafeText.line` would leave it unchanged.
@Suite struct ConsoleTests {
    @Test func theFastPathAgreesWithSafeTextForEveryScalar() {
        var disagreements: [UInt32] = []
        // Every scalar of the BMP, and a few beyond: a 4-byte sequence starts with F0–F4 and goes on with
        // bytes under C0, so it can never be read as the C2 or E2 sequences the gate looks for.
        for value in Array(UInt32(0)...0xFFFF) + [0x1_0000, 0x1_F600, 0x2_0000, 0xE_0001, 0x10_FFFF] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a\(Character(scalar))b"
            if Console.isSafeLine(text) && SafeText.line(text) != text { disagreements.append(value) }
            // Safe text must be taken as safe when it is, or the fast path buys nothing: all but the gated ranges.
            if !Console.isSafeLine(text) && SafeText.line(text) == text { disagreements.append(value) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).map { String($0, radix: 16) })")
    }

    /// The word-at-a-time path: every ASCII byte at every place of a line longer than a word, and a
    /// non-ASCII character after it, read as `SafeText.line` reads them.
    @Test(arguments: Array(0...19))
    func theWordAtATimePathAgreesWithSafeTextForEveryASCIIByteAtEveryPlace(place: Int) {
        var disagreements: [UInt8] = []
        for byte in UInt8(0)...0x7F {
            var bytes = Array("0123456789abcdefghij".utf8)
            bytes[place] = byte
            for tail in ["", "\u{9B}", "é"] {
                let text = String(decoding: bytes, as: UTF8.self) + tail
                if Console.isSafeLine(text) != (SafeText.line(text) == text) { disagreements.append(byte) }
            }
        }
        #expect(disagreements.isEmpty, "at \(place): \(disagreements.map { String($0, radix: 16) })")
    }

    @Test func aLogLineWithAnArrowAndNonLatinTextIsSafeAndAControlIsNot() {
        #expect(Console.isSafeLine("12:00:01 #3 android: conversation room_42 ← @ali: 周末 سلام"))
        #expect(!Console.isSafeLine("title \u{1B}[2J"))
        #expect(!Console.isSafeLine("csi \u{9B}31m"))
        #expect(!Console.isSafeLine("bidi \u{202E}txt"))
        #expect(!Console.isSafeLine("isolate \u{2067}x"))
        #expect(!Console.isSafeLine("line\u{2028}break"))
    }
}
