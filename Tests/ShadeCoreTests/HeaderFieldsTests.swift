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
