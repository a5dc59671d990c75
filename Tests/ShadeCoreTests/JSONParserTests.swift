import Testing
@testable import ShadeCore

/// Shade's own strict JSON parser (V8: invalid JSON is rejected with line and column).
struct JSONParserTests {
    // MARK: valid documents

    struct Escape: Sendable, CustomTestStringConvertible {
        var json: String
        var scalars: [UInt32]
        var testDescription: String { json }
    }

    @Test(arguments: [
        Escape(json: #""\"""#, scalars: [0x22]),
        Escape(json: #""\\""#, scalars: [0x5C]),
        Escape(json: #""\/""#, scalars: [0x2F]),
        Escape(json: #""\b\f\n\r\t""#, scalars: [0x08, 0x0C, 0x0A, 0x0D, 0x09]),
        Escape(json: #""\u0000\u001f""#, scalars: [0x00, 0x1F]),
        Escape(json: #""\u0041\u00e9\u00E9\u4e2d""#, scalars: [0x41, 0xE9, 0xE9, 0x4E2D]),
        // Surrogate pairs decode to one scalar, not two.
        Escape(json: #""\uD83D\uDE00""#, scalars: [0x1F600]),
        Escape(json: #""\ud83d\ude00""#, scalars: [0x1F600]),
        Escape(json: #""\uD800\uDC00\uDBFF\uDFFF""#, scalars: [0x10000, 0x10FFFF]),
        Escape(json: #""a\uD83C\uDF89b""#, scalars: [0x61, 0x1F389, 0x62]),
        // Raw UTF-8 of 2, 3 and 4 bytes, and escapes mixed with it.
        Escape(json: "\"é王😀\"", scalars: [0xE9, 0x738B, 0x1F600]),
        Escape(json: "\"é\\n王\"", scalars: [0xE9, 0x0A, 0x738B]),
        Escape(json: "\"\"", scalars: []),
    ])
    func V8_stringsDecodeEveryEscapeToTheRightScalars(_ escape: Escape) throws {
        let value = try JSONParser.parse(escape.json)
        let text = try #require(value.string)
        #expect(text.unicodeScalars.map(\.value) == escape.scalars)
    }

    @Test(arguments: ["0", "-0", "7", "-12", "0.5", "-1.25", "1e10", "1E+2", "2.5e-3", "-0.0E-0",
                      "12345678901234567890", "1e400"])
    func V8_numbersKeepTheirLexeme(_ lexeme: String) throws {
        // Kept as written, so a payload re-serialises byte for byte (I9 measures it).
        #expect(try JSONParser.parse(lexeme) == .number(lexeme))
        #expect(try JSONParser.parse("[\(lexeme)]") == .array([.number(lexeme)]))
    }

    @Test func V8_literalsAndContainers() throws {
        let value = try JSONParser.parse(#" { "a" : [ true , false , null , { } , [ ] ] , "b" : "x" } "#)
        #expect(value == .object(JSONObject([
            "a": .array([.bool(true), .bool(false), .null, .object(JSONObject()), .array([])]),
            "b": .string("x"),
        ])))
    }

    @Test func V8_whitespaceOfEveryKindAroundTokens() throws {
        let value = try JSONParser.parse("\r\n\t {\r\n\t\"a\"\t:\r\n1\n}\n\n")
        #expect(value == .object(JSONObject(["a": .number("1")])))
    }

    @Test func V8_duplicateKeysAreKeptAndTheLastWinsOnLookup() throws {
        let value = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        let object = try #require(value.object)
        // JavaScript's JSON.parse answers the last one; lint still sees both.
        #expect(object["a"] == .number("3"))
        #expect(object.keys == ["a", "b", "a"])
    }

    @Test func V8_aByteOrderMarkBeforeTheDocumentIsAllowed() throws {
        #expect(try JSONParser.parse("\u{FEFF}{\"aps\": {}}") == .object(JSONObject(["aps": .object(JSONObject())])))
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF, 0x5B, 0x5D]) == .array([]))
    }

    @Test func V8_nestingUpToTheMaximumDepthParses() throws {
        let depth = JSONParser.maximumDepth
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(arrays)
        var levels = 0
        while case .array(let inner) = value { levels += 1; value = inner.first ?? .null }
        #expect(levels == depth)
        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        #expect(throws: Never.self) { try JSONParser.parse(objects) }
    }

    @Test func V8_topLevelArrayReportsWhereEachElementStarts() throws {
        let bytes = Array("[\n  {\"a\": [1, 2]},\n  {\"b\": 2}\n]".utf8)
        let parsed = try JSONParser.parseDocument(bytes)
        #expect(parsed.elementOffsets == [4, 21])
        #expect(parsed.elementOffsets.map { JSONParser.line(of: $0, in: bytes) } == [2, 3])
    }

    // MARK: malformed input: exact message, line and column

    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var message: String
        var line: Int
        var column: Int

        init(_ name: String, _ text: String, _ message: String, _ line: Int, _ column: Int) {
            self.init(name, Array(text.utf8), message, line, column)
        }

        init(_ name: String, _ bytes: [UInt8], _ message: String, _ line: Int, _ column: Int) {
            self.name = name
            self.bytes = bytes
            self.message = message
            self.line = line
            self.column = column
        }

        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        // Trailing commas: the error points at the comma.
        Malformed("trailing comma in an object", #"{"a": 1,}"#, "trailing comma before '}'", 1, 8),
        Malformed("trailing comma in an array", "[1, 2,]", "trailing comma before ']'", 1, 6),
        Malformed("trailing comma on its own line", "{\n  \"a\": 1,\n  \"b\": 2,\n}", "trailing comma before '}'", 3, 9),
        Malformed("trailing comma before a newline and ']'", "[\n  1,\n]", "trailing comma before ']'", 2, 4),
        // Not-a-number values JavaScript writes.
        Malformed("NaN", #"{"a": NaN}"#, "NaN is not JSON: send null or a number", 1, 7),
        Malformed("Infinity", #"{"a": Infinity}"#, "Infinity is not JSON: send null or a number", 1, 7),
        Malformed("-Infinity", #"{"a": -Infinity}"#, "Infinity is not JSON: send null or a number", 1, 7),
        Malformed("leading zero", #"{"badge": 01}"#, "invalid number: leading zeros are not allowed", 1, 11),
        Malformed("negative leading zero", "[-007]", "invalid number: leading zeros are not allowed", 1, 2),
        Malformed("plus sign", "[+1]", "unexpected '+': expected a value", 1, 2),
        Malformed("fraction without digits", "[1.]", "invalid number: expected a digit after '.'", 1, 4),
        Malformed("fraction without integer", "[.5]", "unexpected '.': expected a value", 1, 2),
        Malformed("exponent without digits", "[1e]", "invalid number: expected a digit in the exponent", 1, 4),
        Malformed("minus alone", "[-]", "invalid number: expected a digit", 1, 3),
        Malformed("misspelled literal", "[tru]", "invalid literal: expected true", 1, 2),
        Malformed("capitalised literal", "[True]", "unexpected 'T': expected a value", 1, 2),
        Malformed("Python None", #"{"a": None}"#, "unexpected 'N': expected a value", 1, 7),
        Malformed("Infinity misspelled", "[Inf]", "unexpected 'I': expected a value", 1, 2),
        // Strings.
        Malformed("unescaped tab", "[\"a\tb\"]", "unescaped control character U+0009 in a string (write it as \\u0009)", 1, 4),
        Malformed("unescaped newline", "{\"a\": \"line\nbreak\"}", "unescaped control character U+000A in a string (write it as \\u000A)", 1, 12),
        Malformed("unescaped control after an escape", "[\"\\n\u{1}\"]", "unescaped control character U+0001 in a string (write it as \\u0001)", 1, 5),
        Malformed("lone high surrogate", #"["\uD83D"]"#, "lone surrogate \\uD83D: a high surrogate must be followed by a low one", 1, 3),
        Malformed("high surrogate then text", #"["\uD83Dx"]"#, "lone surrogate \\uD83D: a high surrogate must be followed by a low one", 1, 3),
        Malformed("high surrogate then a non-surrogate", #"["ab\uD83D\u0041"]"#, "lone surrogate \\uD83D: followed by \\u0041, not a low surrogate", 1, 5),
        Malformed("lone low surrogate", #"["\uDE00"]"#, "lone surrogate \\uDE00: a low surrogate without a high one", 1, 3),
        Malformed("invalid escape", #"["\x41"]"#, "invalid escape \\x in a string", 1, 3),
        Malformed("short \\u escape", #"["\u12G4"]"#, "invalid \\u escape: expected 4 hex digits", 1, 3),
        Malformed("\\u escape cut by the end", #"["\u12"#, "invalid \\u escape: expected 4 hex digits", 1, 3),
        Malformed("unterminated string", #"{"a": "abc"#, "unterminated string", 1, 7),
        Malformed("unterminated string with an escape", #"["a\"]"#, "unterminated string", 1, 2),
        // Invalid UTF-8 (the error names the string it is in).
        Malformed("invalid UTF-8 byte", [0x5B, 0x22, 0x61, 0xFF, 0x62, 0x22, 0x5D], "invalid UTF-8 in a string", 1, 2),
        Malformed("overlong UTF-8", [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], "invalid UTF-8 in a string", 1, 2),
        Malformed("truncated UTF-8", [0x5B, 0x22, 0xE7, 0x8E, 0x22, 0x5D], "invalid UTF-8 in a string", 1, 2),
        Malformed("UTF-8 encoded surrogate", [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], "invalid UTF-8 in a string", 1, 2),
        Malformed("invalid UTF-8 after an escape", [0x5B, 0x22, 0x5C, 0x6E, 0xFE, 0x22, 0x5D], "invalid UTF-8 in a string", 1, 2),
        Malformed("invalid UTF-8 outside a string", [0x5B, 0xFF, 0x5D], "unexpected byte 0xFF: expected a value", 1, 2),
        // What people write in hand-made .apns files.
        Malformed("single-quoted value", #"{"a": 'b'}"#, "strings must use double quotes, not single quotes", 1, 7),
        Malformed("single-quoted key", #"{'a': 1}"#, "strings must use double quotes, not single quotes", 1, 2),
        Malformed("unquoted key", #"{aps: {}}"#, "unexpected 'a': expected a key in double quotes", 1, 2),
        Malformed("line comment before the document", "// test push\n{}", "comments are not JSON", 1, 1),
        Malformed("line comment as a value", "[// c\n1]", "comments are not JSON", 1, 2),
        Malformed("line comment before a key", "{\n  // the alert\n  \"aps\": {}\n}", "comments are not JSON", 2, 3),
        Malformed("block comment after a member", #"{"a": 1 /* one */}"#, "comments are not JSON", 1, 9),
        Malformed("comment after the document", "{}\n// end", "comments are not JSON", 2, 1),
        // Structure.
        Malformed("missing colon", #"{"a" 1}"#, "unexpected '1': expected ':' after the key \"a\"", 1, 6),
        Malformed("missing value", #"{"a":}"#, "unexpected '}': expected a value", 1, 6),
        Malformed("missing comma between members", #"{"a": 1 "b": 2}"#, "unexpected '\"': expected ',' or '}' after a member", 1, 9),
        Malformed("missing comma between elements", "[1 2]", "unexpected '2': expected ',' or ']' after an element", 1, 4),
        Malformed("unterminated object", #"{"a": 1"#, "unexpected end of input inside an object: expected ',' or '}'", 1, 8),
        Malformed("unterminated object after a key", #"{"a""#, "unexpected end of input: expected ':' after the key \"a\"", 1, 5),
        Malformed("unterminated object after a comma", #"{"a": 1,"#, "unexpected end of input inside an object: expected a key", 1, 9),
        Malformed("unterminated array", "[1, 2", "unexpected end of input inside an array: expected ',' or ']'", 1, 6),
        Malformed("unterminated nested", "{\"aps\": {\"alert\": [1,\n", "unexpected end of input: expected a value", 2, 1),
        Malformed("garbage after the value", #"{"a": 1} x"#, "unexpected 'x' after the JSON value (one value per document; use .jsonl for one per line)", 1, 10),
        Malformed("two documents", "{}\n{}", "unexpected '{' after the JSON value (one value per document; use .jsonl for one per line)", 2, 1),
        Malformed("empty input", "", "empty input: expected a JSON value", 1, 1),
        Malformed("only whitespace", "  \n\t", "empty input: expected a JSON value", 2, 2),
        Malformed("only a byte order mark", "\u{FEFF}", "empty input: expected a JSON value", 1, 1),
        Malformed("columns after a byte order mark", "\u{FEFF}{\"a\": 1,}", "trailing comma before '}'", 1, 8),
        Malformed("control byte between tokens", "{\u{1}}", "unexpected byte 0x1: expected a key in double quotes", 1, 2),
        // Columns count characters, not bytes: an editor shows this `,` in column 10 (it is byte 13).
        Malformed("column after multi-byte text", #"{"é": "王",}"#, "trailing comma before '}'", 1, 10),
        Malformed("column after an emoji", "[\"😀\" x]", "unexpected 'x': expected ',' or ']' after an element", 1, 6),
    ]

    @Test(arguments: malformed)
    func V8_malformedInputFailsWithMessageLineAndColumn(_ sample: Malformed) {
        #expect(throws: JSONError.self) { try JSONParser.parse(sample.bytes) }
        do {
            _ = try JSONParser.parse(sample.bytes)
        } catch {
            #expect(error.message == sample.message)
            #expect(error.line == sample.line)
            #expect(error.column == sample.column)
            #expect(error.description == "line \(sample.line), column \(sample.column): \(sample.message)")
        }
    }

    @Test func V8_nestingOverTheMaximumDepthFails() {
        let depth = JSONParser.maximumDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: JSONError(message: "nesting deeper than 512 levels", offset: 512, line: 1, column: 513)) {
            try JSONParser.parse(text)
        }
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(throws: JSONError(message: "nesting deeper than 512 levels", offset: 5 * 512, line: 1, column: 5 * 512 + 1)) {
            try JSONParser.parse(objects)
        }
    }

    // MARK: writing

    static let roundTrips = [
        #"{"aps":{"alert":{"title":"Hi","body":"there"},"badge":1,"sound":null,"mutable-content":true}}"#,
        #"[1,-0.5,2.5e3,12345678901234567890,"",[],{}]"#,
        #"{"q":"\"\\\/\b\f\n\r\t","c":"\u0001\u001f","u":"é王😀","s":"\uD83D\uDE00"}"#,
        #"{"a":1,"a":2}"#,
        "  {\n  \"pretty\" : [ 1 ,\n 2 ] ,\n \"x\" : { \"y\" : null } }  ",
    ]

    @Test(arguments: roundTrips)
    func V8_compactOutputReparsesEqualAndItsSizeIsKnownWithoutWriting(_ text: String) throws {
        let value = try JSONParser.parse(text)
        let compact = JSONWriter.compact(value)
        #expect(try JSONParser.parse(compact) == value)
        #expect(JSONWriter.compactSize(value) == compact.utf8.count)
        #expect(JSONWriter.compactBytes(value) == Array(compact.utf8))
        #expect(try JSONParser.parse(JSONWriter.pretty(value)) == value)
    }

    @Test func V8_compactOutputIsWhatAPushServiceReceives() throws {
        let value = try JSONParser.parse("{ \"a\" : [ 1 , 2.5e3 , \"x\\u0001\\u00e9\\/\" , null , true ] , \"b\" : { } }")
        #expect(JSONWriter.compact(value) == "{\"a\":[1,2.5e3,\"x\\u0001é/\",null,true],\"b\":{}}")
        #expect(JSONWriter.compactSize(value) == 45)
    }

    /// Every control character (C0, DEL, C1: issue 10 found raw DEL and C1 in `state` JSON), the quote
    /// and the backslash are escaped, between runs copied whole.
    @Test func V8_stringsAreEscapedExactly() {
        let text = "ab\"c\\" + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined() + "é王\u{7F}\u{80}\u{9B}\u{9F}\u{A0}/end"
        let written = #""ab\"c\\\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"#
            + #"é王\u007f\u0080\u009b\u009f"# + "\u{A0}/end\""
        #expect(JSONWriter.compact(.string(text)) == written)
        // I9 measures what a sender sends: DEL and C1 go raw on the wire (one and two bytes), not as
        // the six-byte escapes Shade writes for terminals.
        let escapedForTerminals = 4 * 6 - (1 + 2 * 3)
        #expect(JSONWriter.compactSize(.string(text)) == written.utf8.count - escapedForTerminals)
        #expect(JSONWriter.compact(.string("")) == #""""#)
    }

    @Test func V8_prettyOutputIndentsByTwoSpaces() throws {
        let value = try JSONParser.parse(#"{"a":[1,{"b":null}],"c":{},"d":[]}"#)
        #expect(JSONWriter.pretty(value) == """
            {
              "a": [
                1,
                {
                  "b": null
                }
              ],
              "c": {},
              "d": []
            }
            """)
    }
}
