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
        ("{\"a\": \"1\",\n}", "strings.json:1: trailing comma before '}' (column 10)"),
        ("{\"a\" \"1\"}", "strings.json:1: unexpected '\"': expected ':' after the key \"a\" (column 6)"),
        ("{\"a\": \"1\"\n\"b\": \"2\"}", "strings.json:2: unexpected '\"': expected ',' or '}' after a member (column 1)"),
        ("{\"a\": \"1", "strings.json:1: unterminated string (column 7)"),
        ("{\"a\": \"one\ntwo\"}", "strings.json:1: unescaped control character U+000A in a string (write it as \\u000A) (column 11)"),
        ("{\"a\": \"\\x\"}", "strings.json:1: invalid escape \\x in a string (column 8)"),
        ("{\"a\": \"\\u12\"}", "strings.json:1: invalid \\u escape: expected 4 hex digits (column 8)"),
        ("{\"a\": \"\\ud83d\"}", "strings.json:1: lone surrogate \\uD83D: a high surrogate must be followed by a low one (column 8)"),
        ("[\"a\"]", "strings.json:1: expected a JSON object `{\"key\": \"value\", …}`, found an array"),
        ("{} {}", "strings.json:1: unexpected '{' after the JSON value (one value per document; use .jsonl for one per line) (column 4)"),
        ("", "strings.json:1: empty input: expected a JSON value (column 1)"),
    ])
    // Syntax errors are the project's one JSON parser's (V8 wording, with the column); the table
    // adds the file and what a string table needs (strings only, a flat object).
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
