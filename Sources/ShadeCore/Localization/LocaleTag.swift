/// The `--locale` of a profile: a BCP-47-style language tag and the built-in
/// language (L2) it selects. Any well-formed tag is accepted, because user
/// tables may serve it; only the 13 built-in keys need one of `en`, `zh-Hans`,
/// `zh-Hant`, and every other language reads them in `en`.
public struct LocaleTag: Sendable, Equatable, CustomStringConvertible {
    /// The tag in canonical case with `-` separators: `zh_tw` → `zh-TW`.
    public let identifier: String
    /// The language of the built-in table this tag reads.
    public let builtIn: BuiltInLanguage

    /// `en`, the default `--locale` (L2).
    public static let `default` = LocaleTag(identifier: "en", builtIn: .en)

    /// True when the tag's language has no built-in table and `en` stands in for it.
    public var builtInIsFallback: Bool {
        builtIn == .en && language != "en"
    }

    /// The primary language subtag, lower case: `zh` for `zh-Hant-TW`.
    public var language: String {
        String(identifier.prefix { $0 != "-" })
    }

    public var description: String { identifier }

    private init(identifier: String, builtIn: BuiltInLanguage) {
        self.identifier = identifier
        self.builtIn = builtIn
    }

    /// Parses the text of `--locale`. Accepts `_` for `-`, ignores a POSIX codeset
    /// or modifier (`zh_TW.UTF-8`, `de_DE@euro`) and reads `C`/`POSIX` as `en`,
    /// so `--locale "$LANG"` works.
    public static func parse(_ text: String) throws(LocaleTagError) -> LocaleTag {
        var core = Substring(text)
        if let cut = core.firstIndex(where: { $0 == "." || $0 == "@" }) {
            core = core[..<cut]
        }
        if core.isEmpty {
            throw LocaleTagError(input: text, problem: "the tag is empty")
        }
        // The POSIX locale (`LANG=C.UTF-8` in most containers) is untranslated English.
        if core == "C" || core == "POSIX" {
            return .default
        }
        if let bad = core.unicodeScalars.first(where: { !isASCIIAlphanumeric($0) && $0 != "-" && $0 != "_" }) {
            throw LocaleTagError(input: text, problem: "\(describe(bad)) is not allowed in a language tag")
        }
        let subtags = core.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        if subtags.contains(where: \.isEmpty) {
            throw LocaleTagError(input: text, problem: "it has an empty part (two separators in a row, or one at an end)")
        }
        let language = subtags[0]
        guard (2...3).contains(language.count), language.unicodeScalars.allSatisfy(isASCIILetter) else {
            throw LocaleTagError(input: text,
                                 problem: "the language `\(language)` must be a 2- or 3-letter ISO 639 code")
        }
        var canonical = [language.lowercased()]
        var script: String?
        var region: String?
        var inExtension = false
        for subtag in subtags.dropFirst() {
            guard subtag.count <= 8 else {
                throw LocaleTagError(input: text, problem: "the part `\(subtag)` is longer than 8 characters")
            }
            let letters = subtag.unicodeScalars.allSatisfy(isASCIILetter)
            let digits = subtag.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
            if inExtension {
                canonical.append(subtag.lowercased())
            } else if subtag.count == 1 {
                // A singleton (`-u-`, `-x-`) starts an extension or private use: no more script or region.
                inExtension = true
                canonical.append(subtag.lowercased())
            } else if subtag.count == 4, letters, script == nil, region == nil {
                let titled = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
                script = titled
                canonical.append(titled)
            } else if region == nil, (subtag.count == 2 && letters) || (subtag.count == 3 && digits) {
                region = subtag.uppercased()
                canonical.append(subtag.uppercased())
            } else {
                canonical.append(subtag.lowercased())
            }
        }
        return LocaleTag(identifier: canonical.joined(separator: "-"),
                         builtIn: builtInLanguage(language: canonical[0], script: script, region: region))
    }

    /// Chinese picks its script from the tag: an explicit script wins, then the
    /// regions that write Traditional Chinese; plain `zh` is Simplified.
    private static func builtInLanguage(language: String, script: String?, region: String?) -> BuiltInLanguage {
        guard language == "zh" else { return .en }
        switch script {
        case "Hant": return .zhHant
        case "Hans": return .zhHans
        default: return ["TW", "HK", "MO"].contains(region ?? "") ? .zhHant : .zhHans
        }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        isASCIILetter(scalar) || ("0"..."9").contains(scalar)
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        scalar == " " ? "a space" : scalar.quotedForMessage
    }
}

/// An ill-formed `--locale` value, with the fix in its message.
public struct LocaleTagError: Error, Sendable, Equatable, CustomStringConvertible {
    public let input: String
    public let problem: String

    public var message: String {
        "--locale \(input.debugDescription): \(problem); use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"
    }

    public var description: String { message }
}
