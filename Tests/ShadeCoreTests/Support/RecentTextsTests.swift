import Testing
@testable import ShadeCore

/// `RecentTexts` hands back a kept string in place of making one again: whatever the order of
/// lookups, each answer must be exactly what making it would give, and a repeat must not make it.
struct RecentTextsTests {
    /// Texts that share lengths, first and last bytes (so slots), empty, non-ASCII, and past 15 bytes
    /// (the length from which a `String` allocates).
    static let texts = ["", "a", "b", "ab", "ba", "apns", "http", "/fcm/send", "/push/send-to-user",
                        "/push/send-to-uses", "com.example.app", "دوچرخه", "你好", "apns-push-type", "alert",
                        "APNS-PRIORITY", "apns-priority", "10", "5", "room_42", "room_24"]

    @Test func aKeptTextIsWhatMakingItAgainWouldGive() {
        var recent = RecentTexts()
        var made = 0
        // Every text after every other, twice over: each slot is taken, lost and taken again.
        var order: [String] = []
        for first in Self.texts { for second in Self.texts { order += [first, second, first] } }
        for text in order {
            let bytes = Array(text.utf8)
            let answer = bytes.withUnsafeBufferPointer { buffer in
                recent.text(buffer) { made += 1; return String(decoding: $0, as: UTF8.self) }
            }
            #expect(answer == text)
        }
        // Each triple's third lookup repeats its first with at most one other between: few are made again.
        #expect(made < order.count * 2 / 3)
    }

    @Test func aNameMadeLowercaseIsFoundAgainOnlyByItsLowercaseBytes() {
        var recent = RecentTexts()
        func lower(_ name: String) -> String {
            Array(name.utf8).withUnsafeBufferPointer { buffer in
                recent.text(buffer) { UTF8Text.lowercased(String(decoding: $0, as: UTF8.self)) }
            }
        }
        #expect(lower("APNs-Topic") == "apns-topic")
        #expect(lower("apns-topic") == "apns-topic")
        #expect(lower("APNs-Topic") == "apns-topic")
        #expect(lower("apns-Topic") == "apns-topic")
    }

    /// D1: each envelope's route, channel and headers reach its own push, however the lines before it
    /// repeated or changed them (their texts are kept from line to line).
    @Test func D1_eachEnvelopeLinesHeadersAndRouteAreItsOwn() {
        let lines = [
            #"{"via": "apns", "path": "/3/device/ab12", "headers": {"apns-push-type": "alert", "APNs-Topic": "com.example.app"}, "payload": {"aps": {"alert": "1"}}}"#,
            #"{"via": "apns", "path": "/3/device/ab12", "headers": {"apns-push-type": "alert", "apns-topic": "com.example.app"}, "payload": {"aps": {"alert": "2"}}}"#,
            #"{"via": "apns", "path": "/3/device/ab13", "headers": {"apns-push-type": "background", "apns-priority": 5}, "payload": {"aps": {"content-available": 1}}}"#,
            #"{"via": "http", "path": "/push/send-to-user", "headers": {"apns-push-type": "alerT"}, "payload": {"userId": "u", "title": "T", "body": "B"}}"#,
            #"{"via": "h\u0074tp", "path": "/push/send-to-user", "headers": {"x-n": "\u0041"}, "payload": {"userId": "u", "title": "T", "body": "B"}}"#,
            #"{"via": 7, "path": null, "headers": {}, "payload": {"userId": "u", "title": "T", "body": "B"}}"#,
        ]
        var intake = Intake()
        let transports = intake.lines(Array(lines.joined(separator: "\n").utf8), source: "r.jsonl").map { outcome -> Transport? in
            if case .push(let push) = outcome { return push.transport }
            return nil
        }
        let expected: [(via: String?, path: String?, headers: HeaderFields)] = [
            ("apns", "/3/device/ab12", ["apns-push-type": "alert", "apns-topic": "com.example.app"]),
            ("apns", "/3/device/ab12", ["apns-push-type": "alert", "apns-topic": "com.example.app"]),
            ("apns", "/3/device/ab13", ["apns-push-type": "background", "apns-priority": "5"]),
            ("http", "/push/send-to-user", ["apns-push-type": "alerT"]),
            ("http", "/push/send-to-user", ["x-n": "A"]),
            (nil, nil, [:]),
        ]
        #expect(transports.count == expected.count)
        for (transport, want) in zip(transports, expected) {
            #expect(transport?.via == want.via)
            #expect(transport?.path == want.path)
            #expect(transport?.headers == want.headers)
        }
    }
}
