import Foundation
import Testing
@testable import ShadeCore

/// The flat tape: what `JSONParser` builds its trees from (so JSONParserTests check its grammar and
/// errors), and the view the payload reading is ported onto.
struct JSONTapeTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// Every document of Samples/ and the test fixtures: each line of a .jsonl, each other file whole.
    static func documents() throws -> [(name: String, bytes: [UInt8])] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        var out: [(String, [UInt8])] = []
        for root in [samples, fixtures] {
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for url in files where ["json", "jsonl", "ndjson", "apns"].contains(url.pathExtension) {
                let bytes = Array(try Data(contentsOf: url))
                if url.pathExtension == "json" || url.pathExtension == "apns" {
                    out.append((url.lastPathComponent, bytes))
                } else {
                    for (i, line) in bytes.split(separator: 0x0A).enumerated() { out.append(("\(url.lastPathComponent):\(i + 1)", Array(line))) }
                }
            }
        }
        return out
    }

    static func withView<R>(_ text: String, _ body: (JSONView) throws -> R) throws -> R {
        let bytes = Array(text.utf8)
        var tape = JSONTape()
        try bytes.withUnsafeBufferPointer { try tape.parse($0) }
        return try bytes.withUnsafeBufferPointer { buffer in try tape.withRoot(buffer, body) }
    }

    @Test func compactSizeOnTheTapeIsTheSizeOfTheCompactTextForEverySampleDocument() throws {
        var checked = 0
        for (name, bytes) in try Self.documents() {
            var tape = JSONTape()
            let parsed: Bool = bytes.withUnsafeBufferPointer { (buffer) -> Bool in (try? tape.parse(buffer)) != nil }
            guard parsed else { continue }   // the invalid-JSON samples
            try bytes.withUnsafeBufferPointer { buffer in
                try tape.withRoot(buffer) { root in
                    let tree = try JSONParser.parse(bytes)
                    #expect(root.json == tree, "\(name)")
                    #expect(root.compactSize == JSONWriter.compactSize(tree), "\(name)")
                    // Shade's own text escapes DEL and C1, which the wire size counts raw (I9): the
                    // two agree on documents that hold neither.
                    if !bytes.contains(0x7F) && !bytes.contains(0xC2) {
                        #expect(root.compactSize == JSONWriter.compactBytes(tree).count, "\(name)")
                    }
                }
            }
            checked += 1
        }
        #expect(checked > 100)
    }

    /// Issue 13: a recording writes each payload from its tape. What it writes must be what the tree
    /// of the payload writes, compact and pretty, byte for byte: every sample and fixture document.
    @Test func writingATapeWritesWhatItsTreeWritesForEverySampleDocument() throws {
        var checked = 0
        for (name, bytes) in try Self.documents() {
            var tape = JSONTape()
            guard bytes.withUnsafeBufferPointer({ (try? tape.parse($0)) != nil }) else { continue }
            let tree = try JSONParser.parse(bytes)
            bytes.withUnsafeBufferPointer { buffer in
                tape.withRoot(buffer) { root in
                    for pretty in [false, true] {
                        var fromTape = JSONWriter(pretty: pretty)
                        fromTape.write(root)
                        var fromTree = JSONWriter(pretty: pretty)
                        fromTree.write(tree)
                        #expect(fromTape.bytes == fromTree.bytes, "\(name), pretty: \(pretty)")
                    }
                }
            }
            checked += 1
        }
        #expect(checked > 100)
    }

    /// Strings are written eight bytes at a time: whatever the position of a byte that needs an
    /// escape (or a C1 lead, or a byte that only looks like one), the text is what escaping byte by
    /// byte writes.
    @Test func aStringIsEscapedTheSameWhereverItsSpecialBytesStand() {
        /// The rule, byte by byte: a quote, a backslash, C0 and DEL escaped, C1 (0xC2 0x80–0x9F) escaped.
        func reference(_ utf8: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [0x22]
            var i = 0
            while i < utf8.count {
                let b = utf8[i]
                let escape: UInt8? = b < 0x20 || b == 0x7F || b == 0x22 || b == 0x5C ? b
                    : b == 0xC2 && i + 1 < utf8.count && (0x80...0x9F).contains(utf8[i + 1]) ? utf8[i + 1] : nil
                guard let escape else { out.append(b); i += 1; continue }
                i += b == 0xC2 ? 2 : 1
                switch escape {
                case 0x22: out += Array(#"\""#.utf8)
                case 0x5C: out += Array(#"\\"#.utf8)
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0x08: out += Array(#"\b"#.utf8)
                case 0x0C: out += Array(#"\f"#.utf8)
                default: out += Array(String(format: "\\u%04x", escape).utf8)
                }
            }
            return out + [0x22]
        }
        let specials: [[UInt8]] = [[0x22], [0x5C], [0x00], [0x01], [0x0A], [0x1F], [0x20], [0x7E], [0x7F], [0xC2, 0x80],
                                   [0xC2, 0x9B], [0xC2, 0x9F], [0xC2, 0xA0], [0xC3, 0xA9], [0xE2, 0x80, 0xA8], [0xF0, 0x9F, 0x98, 0x80]]
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 24] {
            for special in specials {
                for at in 0...length {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    text.insert(contentsOf: special, at: at)
                    var writer = JSONWriter()
                    text.withUnsafeBufferPointer { writer.writeString(utf8: $0) }
                    #expect(writer.bytes == reference(text), "\(special) at \(at) of \(length)")
                    // and as a String, through the public entry
                    var viaString = JSONWriter()
                    viaString.writeString(String(decoding: text, as: UTF8.self))
                    #expect(viaString.bytes == writer.bytes, "\(special) at \(at) of \(length)")
                }
            }
        }
    }

    /// The same for what samples seldom hold: escapes of every kind, DEL and C1 raw and escaped (Shade's
    /// text escapes them), NUL, duplicate keys (both written, as the tree keeps both), empty containers,
    /// nesting, and every scalar.
    @Test(arguments: [
        #"{"a":"x\ty","b":"\u00e9\ud83d\ude00","c":"\/\"\\","d":"\u0001","e":"\u0000"}"#,
        "{\"del\u{7F}\": \"csi\u{9B}2J \u{85} \u{A0}\", \"e\": \"\\u007f\\u009b\"}",
        #"{"k": 1, "k": 2, "k\u0065": [], "o": {}, "x": [[], {}, [[1]], {"y": {"z": null}}]}"#,
        #"[1,-2.5e+3,0.0,1E9,true,false,null,"",{},[]]"#,
        "  {\n \"spaced\" :\t[ 1 ,\r\n 2 ] }  ",
        #""just a string""#,
        "42",
        // One reason each to leave the copy of the raw text: DEL alone, a C1 control alone, an escape
        // alone (short and past eight bytes), and what only looks like one (a no-break space, C2 A0).
        "{\"k\": \"a\u{7F}b\"}",
        "{\"key\": \"a long text before a DEL \u{7F} and after\"}",
        "[\"a long text before CSI \u{9B}2J and after\"]",
        #"{"url": "https:\/\/example.com\/a-long-path\/x.jpg"}"#,
        "{\"nbsp\": \"caf\u{A0}s and more text past eight\"}",
    ])
    func writingATapeWritesWhatItsTreeWrites(text: String) throws {
        let tree = try JSONParser.parse(text)
        try Self.withView(text) { root in
            for pretty in [false, true] {
                var fromTape = JSONWriter(pretty: pretty)
                fromTape.write(root)
                var fromTree = JSONWriter(pretty: pretty)
                fromTree.write(tree)
                #expect(String(decoding: fromTape.bytes, as: UTF8.self) == String(decoding: fromTree.bytes, as: UTF8.self))
            }
        }
    }

    @Test(arguments: [
        #"{"a":"x\ty","b":"\u00e9\ud83d\ude00","c":"\/\"\\","d":"\u0001"}"#,
        #"[1,-2.5e+3,true,false,null,"",{},[]]"#,
        "{\"k\": \"caf\u{E9} \u{1F600}\", \"n\": [ 1 , 2 ] }",
    ])
    func escapedStringsAreMeasuredAsTheyWillBeWritten(text: String) throws {
        let tree = try JSONParser.parse(text)
        try Self.withView(text) { root in
            #expect(root.compactSize == JSONWriter.compactBytes(tree).count)
            #expect(root.compactSize == JSONWriter.compactSize(tree))
            #expect(root.json == tree)
        }
    }

    // I9: APNs counts the bytes a provider sent. Raw DEL and C1 are valid JSON text that senders send as
    // they are (JSON.stringify escapes only quotes, backslashes and C0), so they count as themselves,
    // although Shade's own output escapes them so that no terminal acts on them (issue 10).
    @Test(arguments: [
        ("{\"del\u{7F}\": \"csi\u{9B}2J \u{85} \u{A0}\"}", "{\"del\u{7F}\":\"csi\u{9B}2J \u{85} \u{A0}\"}"),
        (#"{"e":"\u007f\u009b"}"#, "{\"e\":\"\u{7F}\u{9B}\"}"),
    ])
    func deleteAndC1CountAsTheBytesASenderSends(text: String, wire: String) throws {
        let tree = try JSONParser.parse(text)
        try Self.withView(text) { root in
            #expect(root.compactSize == wire.utf8.count)
            #expect(JSONWriter.compactSize(tree) == wire.utf8.count)
            #expect(!JSONWriter.compactBytes(tree).contains(0x7F))
        }
    }

    @Test func lookupsAnswerAsTheTreeDoes() throws {
        let text = #"{"aps": {"alert": {"title": "T\u00e9", "body": "b"}, "badge": 3, "thread-id": "t"}, "k\u0065y": 1, "key": 2, "flag": true, "n": null, "list": [1, "2", {"x": []}], "s": " 42 "}"#
        let tree = try JSONParser.parse(text)
        try Self.withView(text) { root in
            #expect(root.isObject && root.count == 7)
            #expect(root["aps"]?["alert"]?["title"]?.string == "Té")
            #expect(root["aps"]?["alert"]?["title"]?.stringEquals("Té") == true)
            #expect(root["aps"]?["badge"]?.int == 3)
            #expect(root["aps"]?["missing"] == nil)
            #expect(root["aps"]?["badge"]?["x"] == nil)   // a number has no members
            // Duplicates (one spelled with an escape): the last wins, as in JSONObject.
            #expect(root["key"]?.numberLexeme == "2")
            #expect(root["flag"]?.bool == true)
            #expect(root["n"]?.isNull == true)
            #expect(root["s"]?.int == tree["s"]?.int)
            #expect(root["list"]?.elements.map { $0.scalarText } == ["1", "2", nil])
            #expect(root["list"]?.elements.map(\.json) == tree["list"]?.array)
            #expect(root.members.map { $0.key.string ?? "?" } == tree.object?.keys)
            #expect(root.members.map(\.value.json) == tree.object?.members.map(\.value))
            for (key, value) in root.members {
                #expect(tree.object?[key.string ?? ""]?.scalarText == root[key.string ?? ""]?.scalarText)
                #expect(value.kind == root[key.string ?? ""].map { $0.kind } || key.string == "key")
            }
        }
    }

    @Test func aTapeIsReusedAndHoldsOnlyTheLastDocument() throws {
        var tape = JSONTape()
        let first = Array(#"{"a": [1, 2, 3], "b": {"c": "d"}}"#.utf8)
        let second = Array(#"[true]"#.utf8)
        try first.withUnsafeBufferPointer { try tape.parse($0) }
        #expect(tape.tokens.count == 10)  // object, a, array, 1, 2, 3, b, object, c, d
        #expect(tape.topOffsets == [1, 17])
        let broken = Array(#"{"a": }"#.utf8)
        #expect(throws: JSONError.self) { try broken.withUnsafeBufferPointer { try tape.parse($0) } }
        try second.withUnsafeBufferPointer { try tape.parse($0) }
        #expect(tape.tokens.count == 2)
        #expect(tape.topOffsets == [1])
        second.withUnsafeBufferPointer { buffer in tape.withRoot(buffer) { #expect($0.json == .array([.bool(true)])) } }
    }

    /// Where each top-level element or member key starts (its quote for a string), as the tree
    /// parser reported them: every kind of value, whitespace before it, and a scalar document.
    @Test(arguments: [
        (#"[ "x" , 12,{},[] ,true, null,"\u00e9" ]"#, [2, 8, 11, 14, 18, 24, 29]),
        (#" { "a" : 1 , "b\n": {"c": 2} , "" : "" } "#, [3, 13, 31]),
        (#"[]"#, []),
        (#"{}"#, []),
        (#""text""#, []),
        (#"12"#, []),
    ] as [(String, [Int])])
    func topOffsetsAreWhereEachTopLevelValueStarts(document: String, offsets: [Int]) throws {
        var tape = JSONTape()
        let bytes = Array(document.utf8)
        try bytes.withUnsafeBufferPointer { try tape.parse($0) }
        #expect(tape.topOffsets == offsets)
        for offset in offsets { #expect(bytes[offset] != 0x20) }
    }

    @Test func containersKnowWhereTheValueAfterThemStarts() throws {
        try Self.withView(#"{"a": {"b": [1, {"c": 2}]}, "z": 0}"#) { root in
            let tokens = root.tokens
            #expect(Int(tokens[0].next) == tokens.count)
            #expect(root["z"]?.numberLexeme == "0")
            #expect(root["a"]?["b"]?.count == 2)
            #expect(root["a"]?.compactSize == #"{"b":[1,{"c":2}]}"#.utf8.count)
        }
    }

    /// Strings are scanned eight bytes at a time: whatever the position of a quote, escape, control
    /// character or non-ASCII byte within a word, the answer is the byte-by-byte one.
    @Test(arguments: 0...17)
    func everyPositionInAWordIsSeen(offset: Int) throws {
        let before = String(repeating: "a", count: offset)
        let after = String(repeating: "b", count: 17 - offset)
        #expect(try JSONParser.parse("[\"\(before)\\n\(after)\"]") == .array([.string(before + "\n" + after)]))
        #expect(try JSONParser.parse("[\"\(before)é\(after)\", \"\(before)\"]") == .array([.string(before + "é" + after), .string(before)]))
        #expect(throws: JSONError(message: "unescaped control character U+0001 in a string (write it as \\u0001)", offset: 2 + offset,
                                  line: 1, column: 3 + offset)) {
            try JSONParser.parse(Array("[\"\(before)".utf8) + [0x01] + Array("\(after)\"]".utf8))
        }
        #expect(throws: JSONError(message: "invalid UTF-8 in a string", offset: 1, line: 1, column: 2)) {
            try JSONParser.parse(Array("[\"\(before)".utf8) + [0xFF] + Array("\(after)\"]".utf8))
        }
        // A byte ≥ 0x80 after the closing quote, within the same word, is not the string's.
        #expect(try JSONParser.parse("[\"\(before)\", \"é\"]") == .array([.string(before), .string("é")]))
    }
}

/// `shade state` writes its text in pieces: together they are the pretty text and a newline.
@Test func prettyTextInPiecesIsThePrettyText() {
    let big = JSON.object(JSONObject((0..<3000).map { JSONObject.Member(key: "k\($0)", value: .array([.string("v \($0) \u{1F600}\n"), .number("\($0)"), .null])) }))
    var pieces: [[UInt8]] = []
    JSONWriter.pretty(big) { pieces.append(Array($0)) }
    #expect(pieces.count > 2)
    #expect(pieces.dropLast().allSatisfy { $0.count >= 1 << 16 })
    #expect(pieces.flatMap { $0 } == Array((JSONWriter.pretty(big) + "\n").utf8))
}

/// The fast ISO 8601 writer gives the digit-by-digit one's text, edges of days, years and eras included.
@Test func iso8601IsWrittenAsTheDigitByDigitWriterWritesIt() {
    var generator = SystemRandomNumberGenerator()
    let edges: [Int64] = [0, -1, 1, 86_399_999, 86_400_000, -86_400_000, 951_782_400_000, 1_796_033_820_120,
                          253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000, -62_167_219_200_001, Int64(Int32.max) * 1000]
    let random = (0..<2000).map { _ in Int64.random(in: -70_000_000_000_000...300_000_000_000_000, using: &generator) }
    for millis in edges + random {
        #expect(Timestamp.iso8601(millis: millis) == Timestamp.iso8601Digits(millis: millis), "\(millis)")
        var appended: [UInt8] = [0x22]   // appended after what a writer holds, as a recording's line does
        Timestamp.appendISO8601(millis: millis, to: &appended)
        #expect(appended == [0x22] + Array(Timestamp.iso8601Digits(millis: millis).utf8), "\(millis)")
        if let back = Timestamp.millis(fromISO8601: Timestamp.iso8601(millis: millis)), (0...253_402_300_799_999).contains(millis) {
            #expect(back == millis)
        }
    }
}
