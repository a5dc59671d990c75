/// A sender's picture: a photo where an https URL is given (C4), initials otherwise (N1), and a
/// stable colour from the sender identity (N2).
public struct Avatar: Sendable, Equatable {
    public var initials: String
    public var imageURL: String?
    /// Index into the avatar palette, 0..<Avatar.paletteSize.
    public var color: Int

    public init(initials: String, imageURL: String?, color: Int) {
        self.initials = initials
        self.imageURL = imageURL
        self.color = color
    }

    /// The number of avatar colours; ShadeUI's palette has exactly this many entries.
    public static let paletteSize = 8

    public init(name: String, identity: String, imageURL: String?) {
        self.init(initials: Avatar.initials(of: name), imageURL: imageURL, color: Avatar.color(for: identity))
    }

    /// N1: the first grapheme cluster that starts with a letter or digit, upper-cased where the
    /// script has case; a name with none uses its first grapheme; an empty name shows `?`.
    public static func initials(of name: String) -> String {
        asciiInitial(of: name) ?? graphemeInitial(of: name)
    }

    static func graphemeInitial(of name: String) -> String {
        let graphemes = name.filter { !$0.isWhitespace }
        guard let fallback = graphemes.first else { return "?" }
        let chosen = graphemes.first { character in
            guard let scalar = character.unicodeScalars.first else { return false }
            let p = scalar.properties
            return p.isAlphabetic || p.numericType == .decimal || p.generalCategory == .decimalNumber
        } ?? fallback
        let upper = chosen.uppercased()
        // Upper-casing may expand (ß → SS); an initial stays one grapheme.
        return upper.count == 1 ? upper : String(chosen)
    }

    /// N1 for an ASCII name (most are), without breaking graphemes: the same answer as the general
    /// rule, or nil where non-ASCII text could change it. A combining mark joins the letter before
    /// it even across blanks, which the rule removes first ("a\t\u{301}" → "Á").
    static func asciiInitial(of name: String) -> String? {
        var letter: UInt8?    // confirmed by the next non-blank byte being ASCII, or by the end
        var fallback: UInt8?  // the first non-blank character, should there be no letter or digit
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            if isBlank(byte) { continue }
            if let letter { return initial(letter) }
            if isLetterOrDigit(byte) { letter = byte } else if fallback == nil { fallback = byte }
        }
        if let letter { return initial(letter) }
        return fallback.map { String(UnicodeScalar($0)) } ?? "?"

        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
        func initial(_ byte: UInt8) -> String {
            String(UnicodeScalar(byte >= UInt8(ascii: "a") ? byte - 0x20 : byte))
        }
    }

    /// N2: FNV-1a over the UTF-8 of the identity: the same on every run and machine
    /// (Swift's `hashValue` is seeded per process).
    public static func color(for identity: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in identity.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash % UInt32(paletteSize))
    }
}
