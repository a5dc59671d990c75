import Testing
@testable import ShadeCore

/// SPEC L4: JSON `{key: value}` tables, and how a table's format is chosen.
struct JSONStringsTests {
    @Test func L4_jsonEntriesWithLines() throws {
        let json = #"""
        {
          "im_loc_text": "%1$s: %2$s",
          "im_loc_image" : "%1$s sent a photo \ud83d\udcf7",
          "escapes": "q\" b\\ s\/ n\n t\t r\r bs\b ff\f u\u00e9",
          "empty": ""
        }
        """#
        let table = try StringTable.parse(TableBytes.utf8(json, bom: true), name: "strings.json")
        #expect(table == StringTable(name: "strings.json", format: .json, entries: [
            "im_loc_text": StringEntry(value: "%1$s: %2$s", line: 2),
            "im_loc_image": StringEntry(value: "%1$s sent a photo 📷", line: 3),
            "escapes": StringEntry(value: "q\" b\\ s/ n\n t\t r\r bs\u{08} ff\u{0C} u\u{E9}", line: 4),
            "empty": StringEntry(value: "", line: 5),
        ]))
    }

    @Test func L4_jsonEmptyObjectAndDuplicates() throws {
        #expect(try StringTable.parse(TableBytes.utf8(" {} "), name: "t.json").entries == [:])
        let table = try StringTable.parse(TableBytes.utf8("{\"a\": \"1\",\n \"a\": \"2\"}"), name: "t.json")
        #expect(table.entries == ["a": StringEntry(value: "2", line: 2)])
        #expect(table.warnings == ["t.json:2: `a` is defined again (first on line 1); the later one is used"])
    }

    @Test(arguments: [
        ("{\n  \"count\": 3\n}", "strings.json:2: the value of `count` is a number; a string table holds strings only — put the value in quotes"),
        ("{\n  \"ok\": true\n}", "strings.json:2: the value of `ok` is a boolean; a string table holds strings only — put the value in quotes"),
        ("{\"none\": null}", "strings.json:1: the value of `none` is null; a string table holds strings only"),
        ("{\"list\": [\"a\"]}", "strings.json:1: the value of `list` is an array; a string table holds strings only"),
        ("{\n\"im\": {\"text\": \"x\"}}", "strings.json:2: the value of `im` is an object; a string table holds strings only — flatten nested keys as \"parent.child\""),
        ("{\"a\": \"1\",\n}", "strings.json:2: expected a key in double quotes, found `}` (a trailing comma is not allowed in JSON; remove it)"),
        ("{\"a\" \"1\"}", "strings.json:1: expected `:` after the key `a`, found `\"`"),
        ("{\"a\": \"1\"\n\"b\": \"2\"}", "strings.json:2: expected `,` or `}` after the value of `a`, found `\"`"),
        ("{\"a\": \"1", "strings.json:1: the string opened with `\"` here is never closed; add the closing `\"`"),
        ("{\"a\": \"one\ntwo\"}", "strings.json:1: the string opened here runs past the end of the line; close it with `\"` or write a line break as `\\n`"),
        ("{\"a\": \"\\x\"}", "strings.json:1: unknown escape `\\x`; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"),
        ("{\"a\": \"\\u12\"}", "strings.json:1: `\\u` needs exactly 4 hex digits (as in `\\u00E9`)"),
        ("{\"a\": \"\\ud83d\"}", "strings.json:1: `\\uD83D` is half a surrogate pair; write both halves or the character itself"),
        ("[\"a\"]", "strings.json:1: expected a JSON object `{\"key\": \"value\", …}`, found `[`"),
        ("{} {}", "strings.json:1: unexpected `{` after the closing `}`; the file holds one object"),
        ("", "strings.json:1: expected a JSON object `{\"key\": \"value\", …}`, found the end of the file"),
    ])
    func L4_jsonMalformedNamesFileAndLine(source: String, message: String) {
        #expect(TableBytes.errorMessage(TableBytes.utf8(source), name: "strings.json") == message)
    }

    @Test(arguments: [
        ("Localizable.strings", "{\"a\": \"b\"}", StringTableFormat.appleStrings),
        ("res/values-de/strings.xml", "\"a\" = \"b\";", .androidXML),
        ("de.JSON", "<resources/>", .json),
        ("paste", "  <resources/>", .androidXML),
        ("paste", "\n{\"a\": \"b\"}", .json),
        ("paste", "/* c */ \"a\" = \"b\";", .appleStrings),
        ("notes.txt", "\"a\" = \"b\";", .appleStrings),
    ])
    func L4_formatByExtensionElseByContent(name: String, text: String, format: StringTableFormat) {
        #expect(StringTable.detectFormat(name: name, scalars: Array(text.unicodeScalars)) == format)
    }

    @Test func L4_sniffedContentParses() throws {
        let table = try StringTable.parse(TableBytes.utf8("<resources><string name=\"a\">b</string></resources>"), name: "pasted")
        #expect(table.format == .androidXML)
        #expect(table.entries == ["a": StringEntry(value: "b", line: 1)])
    }
}
