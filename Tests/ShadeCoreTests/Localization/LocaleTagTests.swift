import Testing
@testable import ShadeCore

/// SPEC L4: `--locale` picks the language; L2: only en, zh-Hans, zh-Hant are built in.
struct LocaleTagTests {
    @Test(arguments: [
        ("en", "en", BuiltInLanguage.en),
        ("en-US", "en-US", .en),
        ("en_GB", "en-GB", .en),
        ("EN-us", "en-US", .en),
        ("zh", "zh", .zhHans),
        ("zh-CN", "zh-CN", .zhHans),
        ("zh-SG", "zh-SG", .zhHans),
        ("zh-Hans", "zh-Hans", .zhHans),
        ("zh-Hans-CN", "zh-Hans-CN", .zhHans),
        ("zh_CN", "zh-CN", .zhHans),
        ("zh-TW", "zh-TW", .zhHant),
        ("zh-HK", "zh-HK", .zhHant),
        ("zh-MO", "zh-MO", .zhHant),
        ("zh-Hant", "zh-Hant", .zhHant),
        ("zh-Hant-TW", "zh-Hant-TW", .zhHant),
        ("zh-hant-hk", "zh-Hant-HK", .zhHant),
        ("zh-Hans-HK", "zh-Hans-HK", .zhHans),
        ("zh_TW.UTF-8", "zh-TW", .zhHant),
        ("fa", "fa", .en),
        ("fa-IR", "fa-IR", .en),
        ("de_DE@euro", "de-DE", .en),
        ("es-419", "es-419", .en),
        ("sr-Latn-RS", "sr-Latn-RS", .en),
        ("en-US-u-ca-gregory", "en-US-u-ca-gregory", .en),
        ("C.UTF-8", "en", .en),
        ("POSIX", "en", .en),
    ])
    func L4_localeMapsToBuiltInLanguage(input: String, identifier: String, builtIn: BuiltInLanguage) throws {
        let tag = try LocaleTag.parse(input)
        #expect(tag.identifier == identifier)
        #expect(tag.builtIn == builtIn)
    }

    @Test func L2_defaultLocaleIsEnglish() {
        #expect(LocaleTag.default.identifier == "en")
        #expect(LocaleTag.default.builtIn == .en)
        #expect(StringTables().locale == .default)
    }

    @Test(arguments: [("fa", true), ("de-DE", true), ("en-US", false), ("zh", false), ("zh-TW", false)])
    func L2_otherLanguagesFallBackToEnglish(input: String, isFallback: Bool) throws {
        #expect(try LocaleTag.parse(input).builtInIsFallback == isFallback)
    }

    @Test(arguments: [
        ("", #"--locale "": the tag is empty; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
        ("en US", #"--locale "en US": a space is not allowed in a language tag; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
        ("中文", #"--locale "中文": `中` is not allowed in a language tag; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
        ("english", #"--locale "english": the language `english` must be a 2- or 3-letter ISO 639 code; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
        ("en--US", #"--locale "en--US": it has an empty part (two separators in a row, or one at an end); use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
        ("en-", #"--locale "en-": it has an empty part (two separators in a row, or one at an end); use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
        ("zh-abcdefghi", #"--locale "zh-abcdefghi": the part `abcdefghi` is longer than 8 characters; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
        ("1en", #"--locale "1en": the language `1en` must be a 2- or 3-letter ISO 639 code; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"#),
    ])
    func L4_illFormedLocaleNamesTheFix(input: String, message: String) {
        #expect(throws: LocaleTagError.self) { try LocaleTag.parse(input) }
        do {
            _ = try LocaleTag.parse(input)
        } catch {
            #expect(error.message == message)
        }
    }
}
