import Testing
@testable import ShadeCore

/// SPEC §7: initials (N1) and colours (N2).
struct AvatarTests {
    @Test(arguments: [
        ("@ali", "A"), ("王小明", "王"), ("علی", "ع"), ("zoë", "Z"), ("", "?"), ("!!!", "!"),
        ("ali", "A"), ("_bob", "B"), ("  sara", "S"), ("élan", "É"), ("e\u{301}lan", "E\u{301}"),
        ("Ωmega", "Ω"), ("한국", "한"), ("日本語", "日"), ("Дмитрий", "Д"), ("42 Club", "4"), ("(555) 123", "5"),
        ("١٢٣", "١"), ("\u{200B}Zed", "Z"),
        // Emoji are not letters: the first letter after them is the initial.
        ("🎉 Party", "P"), ("👩‍💻Dana", "D"), ("🇮🇷 Kian", "K"),
        // No letter or digit at all: the first grapheme, whole.
        ("🎉🎉", "🎉"), ("👩‍👩‍👧", "👩‍👩‍👧"), ("...", "."),
        // Only blanks is an empty name.
        ("   ", "?"),
        // Upper-casing that would make two letters keeps the one grapheme.
        ("ßtraße", "ß"),
    ])
    func N1_initialsAreTheFirstLetterOrDigitUpperCased(name: String, initials: String) {
        #expect(Avatar.initials(of: name) == initials)
        #expect(Avatar.initials(of: name).count == 1 || initials == "?")
    }

    /// The ASCII shortcut answers as the grapheme rule does, or leaves the name to it.
    @Test func N1_theASCIIShortcutAgreesWithTheGraphemeRule() {
        let pieces = ["a", "Z", "7", " ", "\t", "\r", "\n", "\u{B}", "-", "\u{1}", "\u{301}", "é", "🎉", "\u{85}"]
        var names = [""]
        for _ in 1...4 { names += names.flatMap { name in pieces.map { name + $0 } } }
        var answered = 0
        for name in Set(names) {
            guard let initial = Avatar.asciiInitial(of: name) else { continue }
            answered += 1
            #expect(initial == Avatar.graphemeInitial(of: name), "\(name.unicodeScalars.map { $0.value })")
        }
        #expect(answered > 10_000)
    }

    // FNV-1a (32-bit) of the identity's UTF-8, modulo the 8 colours, computed outside Swift:
    //   python3 -c 'h=2166136261; [h:=((h^b)*16777619)&0xffffffff for b in s.encode()]; print(h % 8)'
    @Test(arguments: [
        ("", 5),            // 0x811c9dc5, the offset basis
        ("a", 4),           // 0xe40c292c
        ("user_ali", 1),    // 0x63558b79
        ("@ali", 1),        // 0xb6acedb1
        ("ali_1", 7),       // 0x3aefff77
        ("ali_2", 2),       // 0x3bf0010a
        ("user_maman", 7),  // 0x85a75497
        ("user_sara", 2),   // 0x84dcec5a
        ("Alice", 7),       // 0x2cdd8587
        ("王小明", 3),       // 0x2b4cfee3
        ("علی", 0),         // 0x940a8568
        ("zoë", 4),         // 0x4314427c
    ])
    func N2_colourIsAStableHashOfTheIdentity(identity: String, color: Int) {
        #expect(Avatar.color(for: identity) == color)
        #expect(Avatar(name: "anyone", identity: identity, imageURL: nil).color == color)
    }

    @Test func N2_thePaletteHasEightColours() {
        #expect(Avatar.paletteSize == 8)
    }
}
