import Testing
@testable import ShadeCore

/// SPEC L4: iOS `Localizable.strings`.
struct AppleStringsTests {
    static let sample = #"""
    /* Notifications of the IM SDK (seed 001). */
    "im_loc_text" = "%1$@: %2$@";
    // A line comment, then two entries on one line.
    "im_loc_image" = "%1$@ hat ein Foto gesendet"; "im_loc_video"="%1$@ hat ein Video gesendet" ;
    im_loc_file = "%1$@ hat eine Datei gesendet";
    "im_loc_encrypted" =
        /* comment between = and value */
        "Du hast eine verschlüsselte Nachricht erhalten";
    "Done";
    plain.key-1 = value_2;
    """#

    @Test func L4_appleStringsEntriesWithLines() throws {
        let table = try StringTable.parse(TableBytes.utf8(Self.sample), name: "Localizable.strings")
        #expect(table == StringTable(name: "Localizable.strings", format: .appleStrings, entries: [
            "im_loc_text": StringEntry(value: "%1$@: %2$@", line: 2),
            "im_loc_image": StringEntry(value: "%1$@ hat ein Foto gesendet", line: 4),
            "im_loc_video": StringEntry(value: "%1$@ hat ein Video gesendet", line: 4),
            "im_loc_file": StringEntry(value: "%1$@ hat eine Datei gesendet", line: 5),
            "im_loc_encrypted": StringEntry(value: "Du hast eine verschlüsselte Nachricht erhalten", line: 6),
            "Done": StringEntry(value: "Done", line: 9),
            "plain.key-1": StringEntry(value: "value_2", line: 10),
        ]))
    }

    @Test func L4_appleStringsEveryEscape() throws {
        let source = #""esc" = "q\" s\' b\\ n\n t\t r\r z\0 u\u00e9 U\U00E9 pair\UD83D\UDE00 oct\101 nul\0end";"#
        let table = try StringTable.parse(TableBytes.utf8(source), name: "Localizable.strings")
        #expect(table.entries["esc"]?.value == "q\" s' b\\ n\n t\t r\r z\0 u\u{E9} U\u{E9} pair\u{1F600} octA nul\0end")
    }

    // Xcode writes UTF-16; the BOM says which byte order.
    @Test(arguments: [
        ("UTF-8", TableBytes.utf8(multiline)),
        ("UTF-8 with BOM", TableBytes.utf8(multiline, bom: true)),
        ("UTF-16LE with BOM", TableBytes.utf16LE(multiline)),
        ("UTF-16BE with BOM", TableBytes.utf16BE(multiline)),
        ("UTF-16LE with BOM, CRLF", TableBytes.utf16LE(multiline.replacing("\n", with: "\r\n"))),
    ])
    func L4_appleStringsEncodings(encoding: String, bytes: [UInt8]) throws {
        let table = try StringTable.parse(bytes, name: "Localizable.strings")
        #expect(table.entries == [
            "im_loc_image": StringEntry(value: "$1 发送了一张图片", line: 2),
            "im_loc_sticker": StringEntry(value: "$1 sent a sticker 🙂", line: 4),
        ], "\(encoding)")
    }

    static let multiline = """
    /* 图片 */
    "im_loc_image" = "$1 发送了一张图片";

    "im_loc_sticker" = "$1 sent a sticker 🙂";
    """

    @Test func L4_appleStringsInBraces() throws {
        let table = try StringTable.parse(TableBytes.utf8("{\n  \"a\" = \"b\";\n}\n"), name: "Localizable.strings")
        #expect(table.entries == ["a": StringEntry(value: "b", line: 2)])
    }

    @Test func L4_appleStringsDuplicateKeyKeepsTheLaterWithWarning() throws {
        let table = try StringTable.parse(TableBytes.utf8("\"a\" = \"one\";\n\"a\" = \"two\";\n"), name: "Localizable.strings")
        #expect(table.entries == ["a": StringEntry(value: "two", line: 2)])
        #expect(table.warnings == ["Localizable.strings:2: `a` is defined again (first on line 1); the later one is used"])
    }

    @Test(arguments: [
        ("\"a\" = \"b\"\n\"c\" = \"d\";",
         "Localizable.strings:1: expected `;` after the value of `a`, found `\"`"),
        ("\"a\" = \"b\"",
         "Localizable.strings:1: expected `;` after the value of `a`, found the end of the file"),
        ("\"a\" = \"b\";\n\"c\" = \"oops;\n\"d\" = \"e\";",
         "Localizable.strings:3: expected `;` after the value of `c`, found `d`; the string from line 2 may be missing its closing `\"`"),
        ("\"a\" = \"b\";\n\"c\" = \"never closed;\n",
         "Localizable.strings:2: the string opened with `\"` here is never closed; add the closing `\"`"),
        (#""a" = "x\qy";"#,
         #"Localizable.strings:1: unknown escape `\q`; the escapes are \" \' \\ \n \t \r \0 and \Uxxxx; write `\\` for a backslash"#),
        (#""a" = "\U12";"#,
         #"Localizable.strings:1: `\U` needs exactly 4 hex digits (as in `\U00E9`)"#),
        (#""a" = "\uD83D";"#,
         #"Localizable.strings:1: `\uD83D` is the first half of a surrogate pair; follow it with the second half (`\uDC00`…`\uDFFF`)"#),
        (#""a" = "\uD83D\u0041";"#,
         #"Localizable.strings:1: `\uD83D` must be followed by the second half of a surrogate pair (`\uDC00`…`\uDFFF`), not `\u0041`"#),
        (#""a" = "\uDE00";"#,
         #"Localizable.strings:1: `\uDE00` is the second half of a surrogate pair without the first; write the character's pair in order or the character itself"#),
        ("\"a\" \"b\";",
         "Localizable.strings:1: expected `=` or `;` after the key `a`, found `\"`"),
        ("\"a\" = ;",
         "Localizable.strings:1: expected the value of `a` in double quotes, found `;`"),
        ("= \"b\";",
         "Localizable.strings:1: expected a key in double quotes, found `=`"),
        ("\"a\" = \"b\";\n/* note\n\"c\" = \"d\";",
         "Localizable.strings:2: the comment `/*` opened here is never closed; add `*/`"),
        ("{ \"a\" = \"b\";\n",
         "Localizable.strings:2: expected `}` to close the `{` on line 1, found the end of the file"),
    ])
    func L4_appleStringsMalformedNamesFileAndLine(source: String, message: String) {
        #expect(TableBytes.errorMessage(TableBytes.utf8(source), name: "Localizable.strings") == message)
    }

    @Test func L4_appleStringsBadEncodings() {
        #expect(TableBytes.errorMessage([0x22, 0x61, 0x22, 0x3B, 0x0A, 0x22, 0xFF, 0x22, 0x3B], name: "Localizable.strings")
            == "Localizable.strings:2: not valid UTF-8; save the file as UTF-8, or as UTF-16 with a BOM")
        #expect(TableBytes.errorMessage(TableBytes.utf16LE("\"a\";", bom: false), name: "Localizable.strings")
            == "Localizable.strings: looks like UTF-16 without a byte-order mark; save it as UTF-8, or as UTF-16 with a BOM")
        #expect(TableBytes.errorMessage(TableBytes.utf16LE("\"a\";") + [0x22], name: "Localizable.strings")
            == "Localizable.strings: UTF-16 text with an odd number of bytes (11); the file is cut short")
        #expect(TableBytes.errorMessage([0xFF, 0xFE, 0x22, 0x00, 0x0A, 0x00, 0x00, 0xD8, 0x22, 0x00], name: "Localizable.strings")
            == "Localizable.strings:2: a lone UTF-16 surrogate; the file is damaged or not UTF-16 LE")
    }
}
