import Testing
@testable import ShadeCore

/// A transport's header fields (DECISIONS 113) answer as the dictionary they replaced did: one value a
/// name, a later value replacing an earlier, nil removing, equality whatever the order.
@Test func headerFieldsAnswerAsADictionaryWould() {
    var fields: HeaderFields = ["apns-topic": "com.example.app", "apns-push-type": "alert", "apns-topic": "com.example.voip"]
    var dictionary: [String: String] = ["apns-topic": "com.example.voip", "apns-push-type": "alert"]
    #expect(fields.dictionary == dictionary)
    #expect(fields.count == 2)
    #expect(fields["apns-topic"] == "com.example.voip")
    #expect(fields["APNS-TOPIC"] == nil)   // names are compared as stored: Transport lower-cases them
    #expect(fields["apns-priority"] == nil)

    for (name, value) in [("apns-priority", "10"), ("apns-push-type", "voip"), ("ttl", "60")] as [(String, String?)] {
        fields[name] = value
        dictionary[name] = value
    }
    fields["ttl"] = nil
    dictionary["ttl"] = nil
    fields["absent"] = nil
    #expect(fields.dictionary == dictionary)
    #expect(fields == HeaderFields(dictionary))
    #expect(fields.keys == ["apns-topic", "apns-push-type", "apns-priority"])   // the order names were first set
    #expect(fields == ["apns-priority": "10", "apns-push-type": "voip", "apns-topic": "com.example.voip"])
    #expect(fields != ["apns-priority": "10", "apns-push-type": "voip"])
    #expect(fields != ["apns-priority": "5", "apns-push-type": "voip", "apns-topic": "com.example.voip"])
    #expect(fields.filter { $0.key.hasPrefix("apns-p") } == ["apns-priority": "10", "apns-push-type": "voip"])
    #expect(HeaderFields().isEmpty && HeaderFields() == [:])
}

/// Transport lower-cases names as it did, the last of a name (in either case) winning.
@Test func aTransportKeepsItsHeaderNamesLowerCased() {
    let mixed = Transport(headers: ["APNs-Topic": "a", "content-type": "application/json"])
    #expect(mixed.headers == ["apns-topic": "a", "content-type": "application/json"])
    #expect(mixed.header("APNS-TOPIC") == "a")
    #expect(Transport(headers: ["ttl": "60"]) == Transport(headers: ["ttl": "60"]))
    #expect(Transport(headers: ["ttl": "60"]) != Transport(headers: ["ttl": "61"]))
}

/// `isIdentical` is `==` with the order: what lets an envelope's transport share a recent one's box.
@Test func headerFieldsAreIdenticalOnlyInTheSameOrder() {
    let ab: HeaderFields = ["a": "1", "b": "2"]
    #expect(ab.isIdentical(to: ["a": "1", "b": "2"]))
    #expect(!ab.isIdentical(to: ["b": "2", "a": "1"]) && ab == ["b": "2", "a": "1"])
    #expect(!ab.isIdentical(to: ["a": "1", "b": "3"]))
    #expect(!ab.isIdentical(to: ["a": "1"]))
    #expect(HeaderFields().isIdentical(to: [:]))
}

/// D1: an envelope's `at` is kept as written, whatever form it has, beside its milliseconds; when it
/// does not parse, the milliseconds are the outer transport's. A text in `Timestamp.iso8601`'s own
/// form is written again from its milliseconds rather than kept (`Timestamp.isWrittenForm`): the
/// same text either way, which this checks for every form the parser takes.
@Test(arguments: [
    "2026-11-30T10:15:00.120Z", "2026-11-30T10:15:00Z", "2026-11-30T10:15:00.12Z", "2026-11-30T10:15:00.1200Z",
    "2026-11-30t10:15:00.120Z", "2026-11-30 10:15:00.120Z", "2026-11-30T10:15:00,120Z", "2026-11-30T10:15:00.120z",
    "2026-11-30T10:15:00.120+00:00", "2026-11-30T10:15:00.120", "2016-12-31T23:59:60.000Z", "0000-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z", "2024-02-29T12:00:00.000Z", "2023-02-29T12:00:00.000Z", "yesterday", "",
])
func D1_anEnvelopeTimeIsKeptAsWritten(text: String) {
    let outer = Transport(at: "1970-01-01T00:00:01.000Z")
    let bytes = Array(text.utf8)
    let transport = bytes.withUnsafeBufferPointer { outer.at($0, orMillis: outer.atMillis) }
    let millis = Timestamp.millis(fromISO8601: text)
    #expect(transport.at == text)
    #expect(transport.atMillis == (millis ?? 1000))
    #expect(transport == Transport(at: text, atMillis: millis ?? 1000))
    if let millis {
        let written = bytes.withUnsafeBufferPointer(Timestamp.isWrittenForm)
        #expect(written == (Timestamp.iso8601(millis: millis) == text))
    }
}

/// A live stamp keeps no text and writes it when asked; setting the milliseconds afterwards keeps the
/// text the old ones wrote, as a stored text would have been kept.
@Test func aStampedTimeIsWrittenFromItsMilliseconds() {
    var transport = Transport(path: "/push")
    transport.stamp(millis: 1_796_033_700_120)
    #expect(transport.at == "2026-11-30T10:15:00.120Z" && transport.atMillis == 1_796_033_700_120)
    #expect(transport == Transport(path: "/push", at: "2026-11-30T10:15:00.120Z"))
    transport.atMillis = 0
    #expect(transport.at == "2026-11-30T10:15:00.120Z" && transport.atMillis == 0)
    transport.at = nil
    #expect(transport.at == nil && transport.atMillis == 0)
}
