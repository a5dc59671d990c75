import Testing
@testable import ShadeCore

/// SPEC §1: shapes D1–D9 in detection order (D9 after D7), envelopes, batches, unknown shapes.
struct PayloadShapeTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        var json: String
        var shape: PayloadShape
        var why: String
        init(_ json: String, _ shape: PayloadShape, _ why: String) {
            self.json = json
            self.shape = shape
            self.why = why
        }
        var testDescription: String { why }
    }

    static let samples: [Sample] = [
        // D1
        Sample(#"{"headers": {"apns-topic": "a"}, "payload": {"aps": {"alert": "hi"}}}"#, .envelope, "D1 envelope"),
        Sample(#"{"payload": {"aps": {}}, "at": "2026-11-30T10:15:00Z"}"#, .envelope, "D1 envelope with only at"),
        Sample(#"{"payload": {"room": "r1"}, "data": {"a": "b"}}"#, .dataOnly, "D1 needs no data beside payload: D8"),
        Sample(#"{"payload": {"x": 1}, "aps": {"alert": "hi"}}"#, .apns, "D1 needs no aps beside payload: D4"),
        Sample(#"{"payload": {"x": 1}, "notification": {"title": "t"}}"#, .fcmLegacy, "D1 needs no notification beside payload: D7"),
        Sample(#"{"payload": "text", "data": {}}"#, .dataOnly, "D1 payload must be an object"),
        // D2
        Sample(#"{"message": {"token": "t", "notification": {"title": "t"}}}"#, .fcmV1, "D2 FCM v1"),
        Sample(#"{"message": {"token": "t"}, "userId": "u"}"#, .fcmV1, "D2 before D3"),
        Sample(#"{"message": "hello", "data": {"a": "b"}}"#, .dataOnly, "D2 message must be an object"),
        // D3
        Sample(#"{"userId": "u", "title": "t", "body": "b"}"#, .sendToUser, "D3 userId"),
        Sample(#"{"userIds": ["u", "v"], "title": "t"}"#, .sendToUser, "D3 userIds"),
        Sample(#"{"userId": "u", "aps": {"alert": "hi"}}"#, .sendToUser, "D3 before D4: userId and aps"),
        Sample(#"{"userId": "u", "to": "ExponentPushToken[x]"}"#, .sendToUser, "D3 before D5"),
        // D4
        Sample(#"{"aps": {"alert": "hi"}, "Simulator Target Bundle": "com.example"}"#, .apns, "D4 APNs"),
        Sample(#"{"aps": {}, "to": "ExponentPushToken[x]"}"#, .apns, "D4 before D5"),
        Sample(#"{"aps": {}, "notification": {"title": "t"}}"#, .apns, "D4 before D7"),
        Sample(#"{"aps": "hi", "data": {"a": "b"}}"#, .dataOnly, "D4 aps must be an object"),
        // D5
        Sample(#"{"to": "ExponentPushToken[abc]", "body": "hi"}"#, .expo, "D5 ExponentPushToken, not D7"),
        Sample(#"{"to": "ExpoPushToken[abc]", "title": "t"}"#, .expo, "D5 ExpoPushToken"),
        Sample(#"{"to": ["ExponentPushToken[a]", "ExpoPushToken[b]"], "body": "hi"}"#, .expo, "D5 to an array of tokens"),
        Sample(#"{"to": ["ExponentPushToken[a]", "fcm-token"]}"#, .fcmLegacy, "D5 needs every address to be an Expo token"),
        Sample(#"{"to": [], "data": {}}"#, .fcmLegacy, "D5 empty address list: D7"),
        Sample(#"{"to": "exponentpushtoken[abc]"}"#, .fcmLegacy, "D5 prefix is case-sensitive"),
        // D6
        Sample(#"{"web_push": 8030, "notification": {"title": "t", "navigate": "https://example.com"}}"#, .webPush, "D6 declarative web push before D7 notification"),
        Sample(#"{"web_push": 8031, "notification": {"title": "t"}}"#, .fcmLegacy, "D6 only 8030"),
        Sample(#"{"title": "Hello", "options": {"body": "b"}}"#, .webPush, "D6 showNotification arguments"),
        Sample(#"{"title": "Hello", "options": {}, "data": {"a": "b"}}"#, .webPush, "D6 before D8"),
        Sample(#"{"title": "Hello", "options": "b", "data": {}}"#, .dataOnly, "D6 options must be an object"),
        // D7
        Sample(#"{"to": "fcm-token", "notification": {"title": "t"}}"#, .fcmLegacy, "D7 to"),
        Sample(#"{"registration_ids": ["a", "b"], "data": {"a": "b"}}"#, .fcmLegacy, "D7 registration_ids beats D8"),
        Sample(#"{"condition": "'news' in topics"}"#, .fcmLegacy, "D7 condition"),
        Sample(#"{"notification": {"title": "t"}}"#, .fcmLegacy, "D7 notification"),
        Sample(#"{"collapse_key": "k", "data": {"a": "b"}}"#, .fcmLegacy, "D7 collapse_key"),
        Sample(#"{"collapseKey": "k", "data": {"a": "b"}}"#, .fcmLegacy, "D7 node-gcm collapseKey"),
        Sample(#"{"time_to_live": 60, "data": {"a": "b"}}"#, .fcmLegacy, "D7 time_to_live"),
        Sample(#"{"timeToLive": 60, "data": {"a": "b"}}"#, .fcmLegacy, "D7 node-gcm timeToLive"),
        // D9, tried after D7
        Sample(#"{"interests": ["donuts"], "apns": {"aps": {"alert": "hi"}}}"#, .pusherBeams, "D9 interests with an apns block"),
        Sample(#"{"users": ["user-1"], "fcm": {"notification": {"title": "t"}}}"#, .pusherBeams, "D9 users with an fcm block"),
        Sample(#"{"interests": ["a"], "web": {"notification": {"title": "t"}}, "data": {"a": "b"}}"#, .pusherBeams, "D9 before D8"),
        Sample(#"{"interests": ["a"], "to": "t", "fcm": {}}"#, .fcmLegacy, "D9 after D7"),
        Sample(#"{"interests": ["a"], "data": {"a": "b"}}"#, .dataOnly, "D9 needs a platform block: D8"),
        Sample(#"{"interests": "a", "apns": {"aps": {}}, "data": {}}"#, .dataOnly, "D9 interests must be an array"),
        // D8
        Sample(#"{"data": {"a": "b"}}"#, .dataOnly, "D8 data"),
        Sample(#"{"data": {"a": "b"}, "priority": "high", "token": "t", "content_available": true}"#, .dataOnly, "D8 with transport keys"),
    ]

    @Test(arguments: samples)
    func D1toD9_theFirstMatchingShapeWins(_ sample: Sample) throws {
        let object = try #require(try JSONParser.parse(sample.json).object)
        #expect(PayloadShape.detect(object) == .success(sample.shape))
        // A payload on its tape has its members read in one pass: the same shape.
        try JSONTapeTests.withView(sample.json) { #expect(PayloadShape.detect(PayloadValue.view($0)) == .success(sample.shape)) }
    }

    /// The one-pass reading tells names apart by a switch on their length, which spells each
    /// `ShapeKey` name again: every one must be found there, and a name one byte off must not.
    @Test(arguments: ShapeKey.allCases)
    func D1toD9_theOnePassReadingKnowsEveryShapeKey(key: ShapeKey) throws {
        try JSONTapeTests.withView(#"{"x": 1, "\#(key.name)": {"a": 1}, "y": 2}"#) { view in
            let keys = try #require(TapeShapeKeys(view))
            #expect(keys[key]?["a"]?.int == 1)
            #expect(ShapeKey.allCases.filter { keys[$0] != nil } == [key])
        }
        let offByOne = key.name.dropLast() + "_"
        try JSONTapeTests.withView(#"{"\#(offByOne)": {}}"#) { view in
            let keys = try #require(TapeShapeKeys(view))
            #expect(ShapeKey.allCases.allSatisfy { keys[$0] == nil })
        }
    }

    /// The one-pass reading takes a name's last member, as a lookup does, and leaves an object with an
    /// escaped key to lookups (which decode it); an unknown shape names the same keys either way.
    @Test(arguments: [
        (#"{"aps": 1, "aps": {"alert": "hi"}}"#, "apns"),
        (#"{"aps": {"alert": "hi"}, "aps": 1, "to": "t"}"#, "fcmLegacy"),
        (#"{"\u0061ps": {"alert": "hi"}}"#, "apns"),
        (#"{"payload": {"x": 1}, "d\u0061ta": {}}"#, "dataOnly"),
        (#"{"payload": {"x": 1}, "payload": 2, "data": {}}"#, "dataOnly"),
        (#"{"title": "t", "options": {}, "options": []}"#, "unknown"),
        (#"{"interests": ["i"], "web": {"notification": {}}}"#, "pusherBeams"),
        (#"{"registration_ids": ["a"], "time_to_live": 3}"#, "fcmLegacy"),
        (#"{"tó": 1, "xyz": {}}"#, "unknown"),
        (#"{}"#, "unknown"),
    ])
    func D1toD9_readInOnePassAsKeyByKey(json: String, shape: String) throws {
        let tree = try #require(try JSONParser.parse(json).object)
        let byKey = PayloadShape.detect(tree)
        try JSONTapeTests.withView(json) { view in
            #expect(PayloadShape.detect(PayloadValue.view(view)) == byKey)
        }
        switch byKey {
        case .success(let found): #expect(found.rawValue == shape)
        case .failure: #expect(shape == "unknown")
        }
    }

    @Test func D1toD9_shapesCarryTheirRuleIdsAndPlatforms() {
        #expect(PayloadShape.allCases.map(\.rule) == ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D9", "D8"])
        let reach = PayloadShape.allCases.filter { $0 != .envelope }.map { shape in
            "\(shape.rule) " + Platform.allCases.filter(shape.platforms.contains).map(\.rawValue).joined(separator: ",")
        }
        #expect(reach == ["D2 android,ios,web", "D3 android,ios,web", "D4 ios", "D5 android,ios",
                          "D6 web", "D7 android,ios", "D9 android,ios,web", "D8 android,ios,web"])
    }

    /// SPEC §1: a D7 push reaches iOS only with a notification block or content_available; a D9
    /// request reaches the platforms it has a block for.
    @Test(arguments: [
        (#"{"to": "t", "notification": {"title": "t"}}"#, "android,ios"),
        (#"{"to": "t", "content_available": true, "data": {"a": "b"}}"#, "android,ios"),
        (#"{"to": "t", "contentAvailable": true}"#, "android,ios"),
        (#"{"to": "t", "content_available": false, "data": {"a": "b"}}"#, "android"),
        (#"{"to": "t", "data": {"a": "b"}}"#, "android"),
        (#"{"interests": ["a"], "apns": {"aps": {}}}"#, "ios"),
        (#"{"interests": ["a"], "fcm": {}, "web": {}}"#, "android,web"),
        (#"{"users": ["u"], "apns": {}, "fcm": {}, "web": {}}"#, "android,ios,web"),
    ])
    func D7_D9_whichPlatformsAPushReaches(json: String, platforms: String) throws {
        var intake = Intake()
        guard case .push(let push)? = intake.document(Array(json.utf8), source: "x.json").first else {
            Issue.record("not a push")
            return
        }
        #expect(Platform.allCases.filter(push.platforms.contains).map(\.rawValue).joined(separator: ",") == platforms)
        for platform in Platform.allCases where !push.reaches(platform) {
            #expect(push.delivery(on: platform, defaultApp: "app") == .elsewhere)
        }
    }

    static let tried = #"tried D1 envelope ("payload"), D2 FCM v1 ("message"), D3 send-to-user ("userId"), D4 APNs ("aps"), D5 Expo ("to": "ExponentPushToken[…]"), D6 web push ("web_push": 8030 or "title" + "options"), D7 FCM legacy ("to", "notification", …), D9 Pusher Beams ("interests" or "users" with "apns", "fcm" or "web"), D8 data-only ("data" object)"#

    @Test(arguments: [
        (#"{}"#, "unknown payload shape (an empty object): " + tried),
        (#"{"title": "Hi", "body": "there"}"#, #"unknown payload shape (top-level keys "title", "body"): "# + tried),
        (#"{"data": "not an object"}"#, #"unknown payload shape (top-level keys "data"): "# + tried),
        (#"{"interests": ["a"]}"#, #"unknown payload shape (top-level keys "interests"): "# + tried),
        (#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}"#,
         #"unknown payload shape (top-level keys "a", "b", "c", "d", "e", "f", "g", "h", …): "# + tried),
    ])
    func D1toD9_anUnknownShapeNamesTheShapesTried(json: String, reason: String) throws {
        var intake = Intake()
        let outcomes = intake.document(Array(json.utf8), source: "x.json")
        #expect(outcomes == [.rejected(Rejection(source: SourcePosition(name: "x.json", line: 1), reason: reason))])
    }

    @Test func D2_platformBlocksOverrideTheSharedFieldsForTheirPlatformOnly() {
        let push = #"{"message":{"token":"t","notification":{"title":"generic","body":"shared body"},"data":{"conversationId":"shared","senderName":"Ali","senderId":"ali_1"},"android":{"notification":{"title":"Android"},"data":{"conversationId":"android_room","senderName":"Ali","senderId":"ali_1"}},"apns":{"payload":{"aps":{"alert":{"title":"iOS","body":"ios body"},"badge":3}}},"webpush":{"notification":{"title":"Web"}}}}"#
        // The conversation keys come from message.data, replaced on Android by message.android.data.
        #expect(digest(centers(push, everyPlatform)) == #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"android_room","app":"app","title":"Ali","isGroup":false,"avatar":{"initials":"A","color":7},"lines":[{"sender":"Ali","senderId":"ali_1","text":"shared body"}],"total":1}

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=3
            Notification Center
              {"kind":"conversation","key":"shared","app":"app","title":"Ali","isGroup":false,"avatar":{"initials":"A","color":7},"lines":[{"sender":"Ali","senderId":"ali_1","text":"ios body"}],"total":1}

            web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"conversation","key":"shared","app":"app","title":"Ali","isGroup":false,"avatar":{"initials":"A","color":7},"lines":[{"sender":"Ali","senderId":"ali_1","text":"shared body"}],"total":1}
            """#)
        // Without conversation keys the titles show which block each platform read.
        let plain = #"{"message":{"token":"t","notification":{"title":"generic","body":"b"},"android":{"notification":{"title":"Android"}},"apns":{"headers":{"apns-collapse-id":"c1"},"payload":{"aps":{"alert":{"title":"iOS","body":"b"}}}},"webpush":{"notification":{"title":"Web"}}}}"#
        #expect(centers(plain + "\n" + plain, everyPlatform).map { $0.state.items.map { "\($0.title ?? "-") \($0.lines.count)" } }
                == [["Android 1", "Android 1"], ["iOS 1"], ["Web 1", "Web 1"]])
    }

    @Test func D2_theAppIsTheRestrictedPackageNameOrTheApnsTopic() {
        let push = #"{"message":{"token":"t","notification":{"title":"T","body":"B"},"android":{"restricted_package_name":"com.example.android"}}}"#
        let envelope = #"{"headers":{"apns-topic":"com.example.ios.voip-ptt"},"payload":{"userId":"u","title":"T","body":"B"}}"#
        #expect(centers(push + "\n" + envelope, everyPlatform).map { $0.state.items.map(\.app) }
                == [["com.example.ios", "com.example.android"], ["com.example.ios", "app"], ["com.example.ios", "app"]])
    }

    /// SPEC §1: the app is the apns-topic without its push-type suffix, read on bytes for an ASCII topic
    /// and character by character otherwise, where a combining mark after the suffix makes it another.
    @Test(arguments: ["com.example.ios", "com.x.voip", "com.x.voip-ptt", "com.x.complication", "com.x.pushkit.fileprovider",
                      "com.x.push-type.liveactivity", "com.x.push-type.location", ".voip", "voip", "com.x.voipx", "com.x.VOIP",
                      "caf\u{E9}.voip", "com.x.voip\u{301}", "\u{5F0}.push-type.location", "com.x.pushkit.voip"])
    func D2_theAppIsTheTopicWithoutItsPushTypesSuffix(topic: String) {
        let characterWise = Push.topicSuffixes.first { topic.hasSuffix($0) }.map { String(topic.dropLast($0.count)) } ?? topic
        #expect(Push.bundleID(ofTopic: topic) == characterWise)
    }

    @Test func D2_theApnsBlocksTopicNamesTheAppOnIOS() {
        // SPEC §1: the app is the apns-topic without its push-type suffix; message.apns.headers are iOS's headers.
        let push = #"{"message":{"token":"t","notification":{"title":"T","body":"B"},"apns":{"headers":{"APNs-Topic":"com.example.ios"}}}}"#
        let call = #"{"message":{"token":"t","apns":{"headers":{"apns-topic":"com.example.calls.voip"},"payload":{"aps":{}}}}}"#
        let overridden = #"{"headers":{"apns-topic":"com.request.topic"},"payload":{"message":{"token":"t","notification":{"title":"T"},"apns":{"headers":{"apns-topic":"com.block.topic"}}}}}"#
        #expect(centers(push + "\n" + call + "\n" + overridden, everyPlatform).map { $0.state.items.map(\.app) }
                == [["com.request.topic", "app"], ["com.block.topic", "com.example.ios", "com.example.calls"], ["com.request.topic", "app"]])
    }

    // MARK: envelopes (D1)

    @Test func D1_envelopeCarriesHeadersAtViaAndPathToItsPayload() throws {
        let line = #"{"at": "2026-11-30T10:15:00.120Z", "via": "apns", "path": "/3/device/ab12", "headers": {"APNs-Collapse-Id": "room_42", "apns-priority": 10}, "payload": {"aps": {"alert": "hi"}}}"#
        var intake = Intake()
        let outcomes = intake.lines(Array((line + "\n").utf8), source: "r.jsonl")
        let expected = Push(id: 1, payload: try JSONParser.parse(#"{"aps": {"alert": "hi"}}"#), shape: .apns,
                            transport: Transport(headers: ["apns-collapse-id": "room_42", "apns-priority": "10"], path: "/3/device/ab12",
                                                 via: "apns", at: "2026-11-30T10:15:00.120Z", atMillis: 1_796_033_700_120),
                            source: SourcePosition(name: "r.jsonl", line: 1))
        #expect(outcomes == [.push(expected)])
    }

    @Test func D1_envelopeHeadersOverrideTheConnectionsHeaders() {
        var intake = Intake()
        let outer = Transport(headers: ["apns-topic": "a", "x-api-key": "k"])
        let envelope = #"{"payload": {"data": {"n": "1"}}, "headers": {"apns-topic": "b"}}"#
        let outcomes = intake.document(Array(envelope.utf8), source: "-", transport: outer)
        let expected = Push(id: 1, payload: .object(JSONObject(["data": .object(JSONObject(["n": .string("1")]))])), shape: .dataOnly,
                            transport: Transport(headers: ["apns-topic": "b", "x-api-key": "k"]), source: SourcePosition(name: "-", line: 1))
        #expect(outcomes == [.push(expected)])
    }

    /// D1 over a stream: each envelope's transport is its own fields and time, though an intake gives
    /// envelopes of a recent route the same box (more routes than it keeps, coming back, header
    /// orders and times that do not parse or are not strings, which fall back to the connection's).
    @Test func D1_eachEnvelopeOfAStreamHasItsOwnTransport() {
        let routes: [(via: String, path: String, headers: String, expected: HeaderFields)] = [
            ("http", "/push/send-to-user", "{}", [:]),
            ("fcm", "/fcm/send", "{}", [:]),
            ("apns", "/3/device/a", #"{"apns-topic": "t", "apns-collapse-id": "c1"}"#, ["apns-topic": "t", "apns-collapse-id": "c1"]),
            ("apns", "/3/device/a", #"{"apns-collapse-id": "c1", "apns-topic": "t"}"#, ["apns-collapse-id": "c1", "apns-topic": "t"]),
            ("apns", "/3/device/a", #"{"apns-topic": "t", "apns-collapse-id": "c2"}"#, ["apns-topic": "t", "apns-collapse-id": "c2"]),
            ("apns", "/3/device/b", #"{"APNs-Topic": "t"}"#, ["apns-topic": "t"]),
        ]
        let times: [(json: String, at: String?, millis: Int64?)] = [
            (#""2026-11-30T10:15:00.120Z""#, "2026-11-30T10:15:00.120Z", 1_796_033_700_120),
            (#""2026-11-30T11:15:00+01:00""#, "2026-11-30T11:15:00+01:00", 1_796_033_700_000),
            (#""soon""#, "soon", 5000),
            ("12", "1970-01-01T00:00:05.000Z", 5000),
        ]
        let outer = Transport(headers: ["x-connection": "1"], at: "1970-01-01T00:00:05.000Z")
        var intake = Intake()
        for n in 0..<40 {
            let route = routes[(n * 5 + n / 7) % routes.count]
            let time = times[n % times.count]
            let line = #"{"at": \#(time.json), "via": "\#(route.via)", "path": "\#(route.path)", "headers": \#(route.headers), "payload": {"data": {"n": "\#(n)"}}}"#
            let outcomes = intake.document(Array(line.utf8), source: "-", transport: outer)
            var headers: HeaderFields = ["x-connection": "1"]   // the connection's first, as an envelope adds to them
            for (name, value) in route.expected { headers[name] = value }
            var expected = Transport(headers: ["x-connection": "1"], path: route.path, via: route.via, at: time.at, atMillis: time.millis)
            expected.headers = headers
            guard case .push(let push)? = outcomes.first else { Issue.record("line \(n): \(outcomes)"); continue }
            #expect(push.transport == expected, "line \(n)")
            #expect(push.transport.headers.keys == expected.headers.keys, "line \(n)")
            #expect(push.transport.at == time.at && push.transport.atMillis == time.millis, "line \(n)")
        }
    }

    @Test func D1_anEnvelopePayloadMustBeAnObject() {
        var intake = Intake()
        let outcomes = intake.document(Array(#"{"payload": [{"data": {}}], "via": "http"}"#.utf8), source: "-")
        #expect(outcomes == [.rejected(Rejection(source: SourcePosition(name: "-", line: 1),
                                                 reason: #"unknown payload shape (top-level keys "payload", "via"): "# + PayloadShapeTests.tried))])
    }

    @Test func D1_theEnvelopeTimeIsTheItemTime() {
        let state = center(#"{"at": "2026-11-30T10:15:00.120Z", "payload": {"to": "t", "notification": {"title": "T", "body": "B"}}}"#).state
        #expect(digest(state) == #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"T","lines":[{"text":"B"}],"total":1,"at":"2026-11-30T10:15:00.120Z"}
            """#)
    }

    @Test(arguments: [
        ("2026-11-30T10:15:00.120Z", 1_796_033_700_120 as Int64?),
        ("2026-11-30T10:15:00Z", 1_796_033_700_000),
        ("2026-11-30T11:15:00.12+01:00", 1_796_033_700_120),
        ("2026-11-30T05:15:00-0500", 1_796_033_700_000),
        ("2026-11-30 10:15:00.5", 1_796_033_700_500),
        ("1970-01-01T00:00:00Z", 0),
        ("2026-13-01T00:00:00Z", nil),
        ("2026-11-30T10:15Z", nil),
        ("yesterday", nil),
        ("2026-11-30T10:15:00Zjunk", nil),
    ])
    func D1_envelopeTimesAreISO8601(text: String, millis: Int64?) {
        #expect(Timestamp.millis(fromISO8601: text) == millis)
        if let millis, text.hasSuffix("Z"), text.contains(".") {
            #expect(Timestamp.iso8601(millis: millis) == text)
        }
    }

    // MARK: batches

    @Test func batch_eachElementIsOnePushReportedAtItsOwnLine() {
        let text = """
            [
              {"aps": {"alert": "one"}},
              {"nope": 1},
              42,
              {"aps": {"alert": "four"},
               "Simulator Target Bundle": "com.example"}
            ]
            """
        var intake = Intake()
        let outcomes = intake.document(Array(text.utf8), source: "batch.json")
        let summary = outcomes.map { outcome -> String in
            switch outcome {
            case .push(let push): return "push \(push.id) \(push.shape.rule) at \(push.source)"
            case .rejected(let r): return "rejected at \(r.source): \(r.reason)"
            }
        }
        #expect(summary == [
            "push 1 D4 at batch.json:2",
            #"rejected at batch.json:3: unknown payload shape (top-level keys "nope"): "# + PayloadShapeTests.tried,
            "rejected at batch.json:4: expected a JSON object (a payload) or an array of them; got number",
            "push 2 D4 at batch.json:5",
        ])
    }

    @Test func batch_ofNDJSONLinesCountsEveryElementAndLineNumbersSkipBlankLines() {
        let text = "{\"data\": {\"a\": \"1\"}}\r\n\n   \n[{\"data\": {}}, {\"data\": {}}]\n{\"aps\": \n"
        var intake = Intake()
        let outcomes = intake.lines(Array(text.utf8), source: "s.jsonl")
        #expect(outcomes.count == 4)
        let sources = outcomes.map { outcome -> String in
            switch outcome {
            case .push(let push): return "\(push.id)@\(push.source)"
            case .rejected(let r): return "x@\(r.source) \(r.reason)"
            }
        }
        #expect(sources == ["1@s.jsonl:1", "2@s.jsonl:4", "3@s.jsonl:4",
                            "x@s.jsonl:5 invalid JSON (V8) at line 5, column 9: unexpected end of input: expected a value"])
    }

    @Test func batch_anArrayInsideABatchIsRejectedNotFlattened() {
        // SPEC §1: each object of the top-level array is one push; an array there is no payload.
        var intake = Intake()
        let outcomes = intake.document(Array(#"[[{"aps":{"alert":"n"}}], {"aps":{"alert":"a"}}, []]"#.utf8), source: "b.json")
        let nested = "a batch element must be a JSON object (a payload); got an array — a batch is one array of payloads, not arrays of arrays"
        #expect(outcomes.map { outcome -> String in
            switch outcome {
            case .push(let push): return "push \(push.id)"
            case .rejected(let rejection): return rejection.reason
            }
        } == [nested, "push 1", nested])
    }

    @Test func V8_twoValuesOnALineNameTheLinesFixNotTheDocumentsOne() {
        // A document with two values is told to use .jsonl; a .jsonl line already is one, so it is
        // told to split the line.
        var intake = Intake()
        let line = intake.lines(Array("{\"data\": {}} {\"data\": {}}\n".utf8), source: "two.jsonl")
        #expect(line == [.rejected(Rejection(source: SourcePosition(name: "two.jsonl", line: 1),
            reason: "invalid JSON (V8) at line 1, column 14: unexpected '{' after the JSON value (one value per line: put each payload on its own line)"))])
        let document = intake.document(Array("{\"data\": {}} {\"data\": {}}".utf8), source: "two.json")
        #expect(document == [.rejected(Rejection(source: SourcePosition(name: "two.json", line: 1),
            reason: "invalid JSON (V8) at line 1, column 14: unexpected '{' after the JSON value (one value per document; use .jsonl for one per line)"))])
    }

    @Test func batch_aLastLineCutShortIsReportedAsTruncated() {
        var intake = Intake()
        let outcomes = intake.lines(Array("{\"data\": {}}\n{\"data\": {".utf8), source: "cut.jsonl")
        #expect(outcomes.count == 2)
        #expect(outcomes.last == .rejected(Rejection(source: SourcePosition(name: "cut.jsonl", line: 2),
            reason: "truncated last line (no newline at the end and not complete JSON): invalid JSON (V8) at line 2, column 11: unexpected end of input inside an object: expected a key")))
    }

    @Test func batch_invalidJSONInsideAFileIsReportedWhereTheParseFailed() {
        var intake = Intake()
        let outcomes = intake.document(Array("[\n  {\"data\": {}},\n  {\"data\": {},}\n]".utf8), source: "b.json")
        // One error for the whole document: nothing of it is delivered (a file is one document).
        #expect(outcomes == [.rejected(Rejection(source: SourcePosition(name: "b.json", line: 3),
                                                 reason: "invalid JSON (V8) at line 3, column 14: trailing comma before '}'"))])
    }
}
