import Testing
@testable import ShadeCore

// Issue 10, finding 3: `lint` of a 525 KB payload (a key of combining marks above a value nested 511
// deep) took 20.9 s while `state` took 0.15 s. Each nested value built and hashed a path string
// holding the whole key, and every key lookup normalised it: depth × key length.

/// `{"aps":{"alert":"hi"},"<marks>":[[[…0…]]]}`: the parser's deepest nesting under one long key.
func longKeyAboveDeepValue(marks: Int) -> [UInt8] {
    Array(#"{"aps":{"alert":"hi"},""#.utf8) + Array(String(repeating: "\u{301}", count: marks).utf8) + Array(#"":"#.utf8)
        + Array(repeating: UInt8(ascii: "["), count: 511) + [UInt8(ascii: "0")] + Array(repeating: UInt8(ascii: "]"), count: 511) + [UInt8(ascii: "}")]
}

@Test func finding3_lintOfALongKeyAboveADeepValueTakesTimeInProportionToItsSize() {
    // 2 MiB, four times the finding's input: the old code did 511 × 2 MiB of normalising (about a
    // minute in a debug build); linear work is well under a second.
    let bytes = longKeyAboveDeepValue(marks: 1 << 20)
    #expect(bytes.count == 2_098_201)
    var linted: [LintedPush] = []
    let elapsed = ContinuousClock().measure { linted = Lint.document(bytes, source: "deep.json") }
    #expect(elapsed < .seconds(10), "lint took \(elapsed)")
    #expect(linted.map { $0.diagnostics.map { "\($0.line ?? 0) \($0.rule) \($0.path)" } } == [["1 V1 $"]])
}

@Test func finding3_findingsUnderALongKeyStillPointAtTheirLine() {
    let key = String(repeating: "\u{301}", count: 1000)
    let bytes = Array("{\"aps\": {\"alert\": \"hi\",\n \"\(key)\": 1,\n \"\(key)\": 2}}".utf8)
    let diagnostics = Lint.document(bytes, source: "dup.apns").flatMap(\.diagnostics)
    #expect(diagnostics.map { "\($0.line ?? 0) \($0.rule) \($0.severity)" } == ["3 V8 warning", "3 V5 warning", "3 V5 warning"])
    #expect(diagnostics.allSatisfy { $0.path == JSONPath.member("$.aps", key) })
}

@Test func finding3_keysMatchByCodeUnitsAsJavaScriptMatchesThem() throws {
    let object = try #require(try JSONParser.parse(#"{"\u212Aey": 1, "e\u0301": 2, "K": 3}"#).object)
    #expect(object["Key"] == nil)            // U+212A KELVIN SIGN is not K, though canonically equivalent
    #expect(object["\u{E9}"] == nil)         // precomposed é is another key than e + U+0301
    #expect(object["e\u{301}"] == .number("2"))
    #expect(object["K"] == .number("3"))
}
