import Testing
@testable import ShadeCore

/// SPEC L4: Android `strings.xml`, read as aapt2 compiles it.
struct AndroidStringsTests {
    static func parse(_ body: String) throws -> StringTable {
        let xml = """
        <?xml version="1.0" encoding="utf-8"?>
        <resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
        \(body)
        </resources>
        """
        return try StringTable.parse(TableBytes.utf8(xml), name: "strings.xml")
    }

    /// The value of the single `<string name="v">` in `body` (written on line 3).
    static func value(_ inner: String) throws -> String? {
        try parse("<string name=\"v\">\(inner)</string>").entries["v"]?.value
    }

    @Test func L4_androidResourcesEntriesWithLines() throws {
        let table = try Self.parse("""
        <!-- IM notifications (seed 001) -->
        <string name="im_loc_text">%1$s: %2$s</string>
        <string name="im_loc_image"
                translatable="false">%1$s hat ein Foto gesendet</string>
        <plurals name="unread">
            <item quantity="one">%d unread</item>
            <item quantity="other">%d unread</item>
        </plurals>
        <string-array name="days"><item>Mo</item></string-array>
        <integer name="max">3</integer>
        <string name="percent" formatted="false">100% sicher</string>
        <item type="string" name="as_item">Item string</item>
        <eat-comment />
        """)
        #expect(table == StringTable(name: "strings.xml", format: .androidXML, entries: [
            "im_loc_text": StringEntry(value: "%1$s: %2$s", line: 4),
            "im_loc_image": StringEntry(value: "%1$s hat ein Foto gesendet", line: 5),
            "percent": StringEntry(value: "100% sicher", line: 13, percentIsLiteral: true),
            "as_item": StringEntry(value: "Item string", line: 14),
        ]))
    }

    @Test(arguments: [
        // Outside quotes whitespace runs collapse to one space and the ends are trimmed.
        ("  Hello\n     world  ", "Hello world"),
        ("\"  two  spaces  \"", "  two  spaces  "),
        ("a \"  b  \" c", "a   b   c"),
        // Escapes.
        (##"it\'s \"q\" a\nb c\td \@home \?x back\\slash \#1 caf\u00e9 \u00E9t\u00e9"##,
         "it's \"q\" a\nb c\td @home ?x back\\slash #1 café été"),
        (#"emoji \uD83D\uDE00"#, "emoji 😀"),
        (#"unknown \k escape"#, "unknown k escape"),
        ("\"it's quoted\"", "it's quoted"),
        // Entities are XML's; `&quot;` is a quote to Android and toggles quoting.
        ("Tom &amp; Jerry &lt;3 &gt; caf&#233; &#x1F600;", "Tom & Jerry <3 > café 😀"),
        ("say &quot;  hi  &quot;", "say   hi  "),
        ("<![CDATA[<b>bold</b> & more]]>", "<b>bold</b> & more"),
        ("a<!-- note -->b", "ab"),
        // Inline tags are reduced to their text.
        ("Hello <xliff:g id=\"name\" example=\"Bob\">%1$s</xliff:g>!", "Hello %1$s!"),
        ("This is <b>bold</b>, <i>italic</i> and <u>under</u>", "This is bold, italic and under"),
        ("<font color=\"#FF0000\">red</font> text", "red text"),
        // A span ends quoting and space runs (aapt2), and with spans the ends are not trimmed.
        ("a <b> b</b>", "a  b"),
        ("  <b>x</b>  ", " x "),
        // Without spans, xliff:g text counts for trimming like any other.
        ("<xliff:g id=\"n\">  %1$s </xliff:g>", "%1$s"),
        ("", ""),
    ])
    func L4_androidStringText(inner: String, expected: String) throws {
        #expect(try Self.value(inner) == expected)
    }

    @Test func L4_androidUTF16WithBOM() throws {
        let xml = "<resources>\n  <string name=\"im_loc_image\">%1$s 发送了一张图片</string>\n</resources>\n"
        for bytes in [TableBytes.utf16LE(xml), TableBytes.utf16BE(xml)] {
            let table = try StringTable.parse(bytes, name: "strings.xml")
            #expect(table.entries == ["im_loc_image": StringEntry(value: "%1$s 发送了一张图片", line: 2)])
        }
    }

    @Test func L4_androidStringReferencesResolveWithinTheFile() throws {
        let table = try Self.parse("""
        <string name="app">Shade</string>
        <string name="title">@string/app</string>
        <string name="chain">@string/title</string>
        <string name="other">@android:string/ok</string>
        <string name="lost">@string/nowhere</string>
        <string name="literal">\\@string/app</string>
        """)
        #expect(table.entries == [
            "app": StringEntry(value: "Shade", line: 3),
            "title": StringEntry(value: "Shade", line: 4),
            "chain": StringEntry(value: "Shade", line: 5),
            "other": StringEntry(value: "@android:string/ok", line: 6),
            "lost": StringEntry(value: "@string/nowhere", line: 7),
            "literal": StringEntry(value: "@string/app", line: 8),
        ])
        #expect(table.warnings == [
            "strings.xml:6: `other` is the reference `@android:string/ok`, which Shade cannot resolve; its text is shown as written (write `\\@` for a literal @)",
            "strings.xml:7: `lost` refers to @string/nowhere, which is not in this file; its text is shown as written",
        ])
    }

    @Test func L4_androidReferenceCycleIsWarned() throws {
        let table = try Self.parse("""
        <string name="a">@string/b</string>
        <string name="b">@string/a</string>
        """)
        #expect(table.entries == ["a": StringEntry(value: "@string/b", line: 3), "b": StringEntry(value: "@string/a", line: 4)])
        #expect(table.warnings == [
            "strings.xml:3: `a` is part of a cycle of @string references; its text is shown as written",
            "strings.xml:4: `b` is part of a cycle of @string references; its text is shown as written",
        ])
    }

    @Test func L4_androidWarnings() throws {
        let table = try Self.parse("""
        <string name="two">%s and %s</string>
        <string name="ok">%1$s and %2$s, 100%%</string>
        <string name="free" formatted="false">%s and %s</string>
        <string name="two">again</string>
        """)
        #expect(table.warnings == [
            "strings.xml:3: `two` has 2 substitutions and not all are positional; aapt2 refuses this unless the string has formatted=\"false\" — write %1$s, %2$s …",
            "strings.xml:6: `two` is defined again (first on line 3); the later one is used",
        ])
    }

    @Test(arguments: [
        ("<resources>\n<string name=\"a\">x</b>\n</resources>",
         "strings.xml:2: `</b>` does not match `<string>` opened on line 2; add `</string>` before it"),
        ("<resources>\n<string name=\"a\">x\n</resources>",
         "strings.xml:3: `</resources>` does not match `<string>` opened on line 2; add `</string>` before it"),
        ("<resources>\n<string name=\"a\">x</string>\n",
         "strings.xml:1: `<resources>` opened here is never closed; add `</resources>`"),
        ("<resources>\n<string name=\"a\"\n",
         "strings.xml:2: the tag `<string` opened here is never finished; add `>`"),
        ("<resources>\n<string name=a>x</string></resources>",
         "strings.xml:2: the value of `name` in `<string>` must be in quotes, found `a`"),
        ("<resources>\n<string name=\"a\">Tom & Jerry</string></resources>",
         "strings.xml:2: a bare `&`; write `&amp;` for an ampersand"),
        ("<resources>\n<string name=\"a\">&nbsp;</string></resources>",
         "strings.xml:2: unknown entity `&nbsp;`; XML knows &amp; &lt; &gt; &quot; &apos; — write other characters as `&#NNN;` or as themselves"),
        ("<resources>\n<string name=\"a\">it's</string></resources>",
         "strings.xml:2: `a`: unescaped apostrophe; write `\\'` or put the whole text in double quotes"),
        ("<resources>\n<string name=\"a\">&apos;</string></resources>",
         "strings.xml:2: `a`: unescaped apostrophe; write `\\'` or put the whole text in double quotes"),
        ("<resources>\n<string name=\"a\">\\u12G4</string></resources>",
         "strings.xml:2: `a`: `\\u` needs 4 hex digits (as in `\\u00E9`)"),
        ("<resources>\n<string>x</string></resources>",
         "strings.xml:2: `<string>` has no `name` attribute; add name=\"…\""),
        ("<resources>\n<string name=\"a\">Hi <xliff:g>x</xliff:g></string></resources>",
         "strings.xml:2: the prefix `xliff` in `xliff:g` is not declared; add xmlns:xliff=\"urn:oasis:names:tc:xliff:document:1.2\" to `<resources>`"),
        ("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>",
         "strings.xml:2: this is an Apple property list (a .stringsdict?); Shade reads `Localizable.strings` for iOS"),
        ("<manifest/>",
         "strings.xml:1: the root element must be `<resources>`, found `<manifest>`"),
        ("<resources>\n  stray text\n<string name=\"a\">x</string></resources>",
         "strings.xml:1: text outside any `<string>` is not allowed in `<resources>`; put it inside `<string name=\"…\">`"),
        ("<resources/>\n<resources/>",
         "strings.xml:2: unexpected `<` after the root element; a file has one root, `<resources>`"),
        ("<resources>\n<!-- open\n</resources>",
         "strings.xml:2: the comment `<!--` opened here is never closed; add `-->`"),
        ("<resources>\n<string name=\"a\"><![CDATA[x</string></resources>",
         "strings.xml:2: the CDATA section opened here is never closed; add `]]>`"),
        ("<resources>\n<string name=\"a\" name=\"b\">x</string></resources>",
         "strings.xml:2: `<string>` has the attribute `name` twice; keep one"),
        ("no xml at all",
         "strings.xml:1: expected the root element `<resources>`, found `n`"),
        ("<resources>\n<string name=\"a\">" + String(repeating: "<b>", count: 300),
         "strings.xml:2: elements nest deeper than 256 levels; a strings.xml needs three"),
    ])
    func L4_androidMalformedNamesFileAndLine(source: String, message: String) {
        #expect(TableBytes.errorMessage(TableBytes.utf8(source), name: "strings.xml") == message)
    }
}
