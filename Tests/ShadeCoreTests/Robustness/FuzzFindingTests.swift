import Testing
@testable import ShadeCore

// Inputs the fuzz targets found (Fixtures/fuzz/TARGET), each with the bug it showed, now fixed.

/// FuzzStringTables: a JSON table whose backslash was followed by a NUL got the error
/// `invalid escape \<NUL>`: the raw byte in a message that --strings prints.
@Test func fuzzStringTables_anInvalidEscapeNamesTheByteNotTheByteItself() throws {
    let finding = try fixtureBytes("fuzz/StringTables/nul-after-backslash-in-json")
    #expect(throws: StringTableError.self) { try StringTable.parse(Array(finding.dropFirst()), name: "strings.json") }
    do {
        _ = try StringTable.parse(Array(finding.dropFirst()), name: "strings.json")
    } catch {
        #expect(error.message.contains("invalid escape \\ followed by byte 0x0"), "\(error.message)")
        #expect(!error.message.unicodeScalars.contains { SafeText.isControl($0.value) })
    }
    #expect(throws: JSONError(message: "invalid escape \\ followed by byte 0x1B in a string", offset: 2, line: 1, column: 3)) {
        try JSONParser.parse(Array("\"a\\\u{1B}\"".utf8))
    }
}

@Test func fuzzJSON_aKeyInAnErrorIsQuotedWithItsControlCharactersEscaped() {
    #expect(throws: JSONError(message: #"unexpected '1': expected ':' after the key "k\u001b""#, offset: 11, line: 1, column: 12)) {
        try JSONParser.parse(Array(#"{"k\u001b" 1}"#.utf8))
    }
}
