import Testing
@testable import ShadeCore

/// SPEC L4 (user tables override), L5 (missing key), L6 (argument count), per platform.
struct LocalizerTests {
    static let iosTable = try! StringTable.parse(TableBytes.utf16LE("""
    /* Seed 001: the string resource for im_loc_text on iOS. */
    "im_loc_text" = "%1$@: %2$@";
    "im_loc_image" = "%1$@ hat ein Foto gesendet";
    """), name: "Localizable.strings")

    static let androidTable = try! StringTable.parse(TableBytes.utf8("""
    <resources>
        <string name="im_loc_text">%1$s: %2$s</string>
        <string name="im_loc_image">%1$s hat ein Bild gesendet</string>
        <string name="promo" formatted="false">100% for $1</string>
    </resources>
    """), name: "strings.xml")

    // Seed 001: "%1$@: %2$@" (iOS) or "%1$s: %2$s" (Android) with ["Alice", "Hello"] shows "Alice: Hello".
    @Test func L4_seedExampleOnBothPlatforms() {
        let tables = StringTables(user: [Self.iosTable, Self.androidTable])
        let ios = resolveIOS(key: "im_loc_text", args: ["Alice", "Hello"], tables: tables)
        #expect(ios == Resolution(
            text: "Alice: Hello",
            notes: ["L4: `im_loc_text` is `%1$@: %2$@` from Localizable.strings:2"],
            missingKey: false, argumentMismatch: false,
            lookup: Lookup(key: "im_loc_text", format: "%1$@: %2$@", source: .table(name: "Localizable.strings", line: 2))))
        let android = resolveAndroid(key: "im_loc_text", args: ["Alice", "Hello"], tables: tables)
        #expect(android == Resolution(
            text: "Alice: Hello",
            notes: ["L4: `im_loc_text` is `%1$s: %2$s` from strings.xml:2"],
            missingKey: false, argumentMismatch: false,
            lookup: Lookup(key: "im_loc_text", format: "%1$s: %2$s", source: .table(name: "strings.xml", line: 2))))
    }

    @Test func L4_userTableOverridesBuiltIn() throws {
        let tables = StringTables(locale: try LocaleTag.parse("zh-CN"), user: [Self.iosTable])
        #expect(resolveIOS(key: "im_loc_image", args: ["Alice"], tables: tables).text == "Alice hat ein Foto gesendet")
        // Keys the user table lacks still come from the built-in table of the locale.
        let video = resolveIOS(key: "im_loc_video", args: ["Alice"], tables: tables)
        #expect(video.text == "Alice 发送了一段视频")
        #expect(video.notes == ["L2: `im_loc_video` is `$1 发送了一段视频` from built-in zh-Hans"])
    }

    @Test func L4_laterUserTableOverridesEarlier() throws {
        let first = try StringTable.parse(TableBytes.utf8("\"k\" = \"first\";\n\"only\" = \"one\";"), name: "a.strings")
        let second = try StringTable.parse(TableBytes.utf8("{\n\"k\": \"second\"}"), name: "b.json")
        let tables = StringTables(user: [first, second])
        #expect(tables.lookup("k") == Lookup(key: "k", format: "second", source: .table(name: "b.json", line: 2)))
        #expect(tables.lookup("only") == Lookup(key: "only", format: "one", source: .table(name: "a.strings", line: 2)))
        #expect(tables.lookup("nothing") == nil)
    }

    // Given both apps' tables, each platform reads its own; a lone table serves both.
    @Test func L4_eachPlatformPrefersItsOwnTableFormat() {
        let both = StringTables(user: [Self.iosTable, Self.androidTable])
        #expect(resolveIOS(key: "im_loc_image", args: ["Alice"], tables: both).text == "Alice hat ein Foto gesendet")
        #expect(resolveAndroid(key: "im_loc_image", args: ["Alice"], tables: both).text == "Alice hat ein Bild gesendet")
        let androidOnly = StringTables(user: [Self.androidTable])
        #expect(resolveIOS(key: "im_loc_image", args: ["Alice"], tables: androidOnly).text == "Alice hat ein Bild gesendet")
    }

    @Test func L4_formattedFalseReachesTheFormatter() {
        let tables = StringTables(user: [Self.androidTable])
        #expect(tables.lookup("promo")?.percentIsLiteral == true)
        let android = resolveAndroid(key: "promo", args: ["Alice"], tables: tables)
        #expect(android.text == "100% for Alice")
        #expect(android.notes == ["L4: `promo` is `100% for $1` from strings.xml:4 (formatted=\"false\": % is literal)"])
    }

    @Test func L5_missingKeyOnIOSShowsTheKey() {
        #expect(resolveIOS(key: "im_loc_gift", args: ["Alice"], tables: StringTables()) == Resolution(
            text: "im_loc_gift",
            notes: ["L5: no string `im_loc_gift` in the loaded tables (built-in en); iOS shows the key itself; consider sending a literal body, as the IM SDK advises"],
            missingKey: true, argumentMismatch: false, lookup: nil))
    }

    @Test func L5_missingKeyOnIOSIsFormattedWithItsArgs() {
        let resolution = resolveIOS(key: "%@ sent a gift to %@", args: ["Alice"], tables: StringTables(user: [Self.iosTable]))
        #expect(resolution.text == "Alice sent a gift to (null)")
        #expect(resolution.notes == ["L5: no string `%@ sent a gift to %@` in the loaded tables (Localizable.strings, built-in en); iOS shows the key itself; consider sending a literal body, as the IM SDK advises"])
        #expect(resolution.missingKey)
    }

    @Test func L5_missingKeyOnAndroidLeavesTheFieldEmpty() throws {
        let tables = StringTables(locale: try LocaleTag.parse("fa"))
        #expect(resolveAndroid(key: "im_loc_gift", args: ["Alice"], tables: tables) == Resolution(
            text: nil,
            notes: ["L5: no string `im_loc_gift` in the loaded tables (built-in en, standing in for fa); Android leaves the field empty; consider sending a literal body, as the IM SDK advises"],
            missingKey: true, argumentMismatch: false, lookup: nil))
    }

    @Test func L5_keyFromPayloadCannotSmuggleControlCharacters() {
        let notes = resolveAndroid(key: "a\u{1B}[31mred", args: [], tables: StringTables()).notes
        #expect(notes == [#"L5: no string `a\u{1B}[31mred` in the loaded tables (built-in en); Android leaves the field empty; consider sending a literal body, as the IM SDK advises"#])
    }

    @Test func L6_tooFewArgumentsOnIOSShowNull() throws {
        let tables = StringTables(locale: try LocaleTag.parse("zh-Hans"))
        #expect(resolveIOS(key: "im_loc_addMember", args: ["Alice"], tables: tables) == Resolution(
            text: "Alice 邀请了 (null)",
            notes: [
                "L2: `im_loc_addMember` is `$1 邀请了 $2` from built-in zh-Hans",
                "L6: `im_loc_addMember` uses argument 2 but only 1 was given; iOS shows (null) in its place",
            ],
            missingKey: false, argumentMismatch: true,
            lookup: Lookup(key: "im_loc_addMember", format: "$1 邀请了 $2", source: .builtIn(.zhHans))))
    }

    @Test func L6_tooFewArgumentsOnAndroidLeaveTheFieldEmpty() {
        #expect(resolveAndroid(key: "im_loc_deleteMember", args: [], tables: StringTables()) == Resolution(
            text: nil,
            notes: [
                "L2: `im_loc_deleteMember` is `$1 removed $2 from the chat` from built-in en",
                "L6: `im_loc_deleteMember` uses arguments 1 and 2 but none were given; Android's String.format fails (MissingFormatArgumentException) and the field stays empty",
            ],
            missingKey: false, argumentMismatch: true,
            lookup: Lookup(key: "im_loc_deleteMember", format: "$1 removed $2 from the chat", source: .builtIn(.en))))
    }

    @Test func L6_extraArgumentsAreIgnoredOnBothPlatforms() {
        let tables = StringTables()
        let expectedNotes = [
            "L2: `im_loc_image` is `$1 sent a photo` from built-in en",
            "L6: `im_loc_image` does not use arguments 2 and 3 of the 3 given; they are ignored",
        ]
        for resolution in [resolveIOS(key: "im_loc_image", args: ["Alice", "x", "y"], tables: tables),
                           resolveAndroid(key: "im_loc_image", args: ["Alice", "x", "y"], tables: tables)] {
            #expect(resolution.text == "Alice sent a photo")
            #expect(resolution.notes == expectedNotes)
            #expect(resolution.argumentMismatch)
        }
    }

    @Test func L3_formatterWarningsReachTheNotes() throws {
        let table = try StringTable.parse(TableBytes.utf8(#""count" = "%d new messages";"#), name: "Localizable.strings")
        let resolution = resolveIOS(key: "count", args: ["many"], tables: StringTables(user: [table]))
        #expect(resolution.text == "many new messages")
        #expect(resolution.notes == [
            "L4: `count` is `%d new messages` from Localizable.strings:1",
            "L3: `%d` expects an integer but argument 1 is `many`; inserted as text",
        ])
        #expect(resolution.argumentMismatch == false)
    }
}
