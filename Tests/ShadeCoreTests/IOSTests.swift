import Testing
@testable import ShadeCore

/// SPEC §4: the iOS profile (default: iOS 17, SDK 0.1.21, Communication Notifications on).
struct IOSTests {
    static let ios = Profile(platform: .ios)

    static func alert(_ title: String, _ body: String, thread: String? = nil, extra: String = "") -> String {
        let threadKey = thread.map { #","thread-id":"\#($0)""# } ?? ""
        return #"{"aps":{"alert":{"title":"\#(title)","body":"\#(body)"}\#(threadKey)}\#(extra)}"#
    }

    static func session(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    @Test func I1_threadsAndAppStacksAreItemsWithTheNewestTitle() {
        let session = Self.session([
            Self.alert("Ana", "a1", thread: "t1"),
            Self.alert("Bo", "b1", thread: "t2"),
            Self.alert("Ana (2)", "a2", thread: "t1"),
            Self.alert("News", "n1"),
            Self.alert("Other app", "o1", thread: "t1", extra: #","Simulator Target Bundle":"com.other""#),
            Self.alert("News", "n2"),
        ])
        #expect(digest(center(session, Self.ios)) == #"""
            ios received=6 shown=6 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"News","lines":[{"text":"n1"},{"text":"n2"}],"total":2}
              {"kind":"plain","key":"t1","app":"com.other","title":"Other app","lines":[{"text":"o1"}],"total":1}
              {"kind":"plain","key":"t1","app":"app","title":"Ana (2)","lines":[{"text":"a1"},{"text":"a2"}],"total":2}
              {"kind":"plain","key":"t2","app":"app","title":"Bo","lines":[{"text":"b1"}],"total":1}
            """#)
    }

    @Test func I1_theConversationGroupsBeforeTheThreadId() {
        let session = Self.session([
            // APNs custom keys beside aps are the conversation keys (D4).
            #"{"aps":{"alert":{"title":"@ali","body":"hi"},"thread-id":"chat"},"conversationId":"room_42","senderName":"@ali","senderId":"user_ali"}"#,
            #"{"aps":{"alert":{"title":"Sara","body":"yo"},"thread-id":"chat"},"conversationId":"room_7","senderName":"Sara","senderId":"user_sara"}"#,
            #"{"aps":{"alert":{"title":"@ali","body":"there?"},"thread-id":"chat"},"conversationId":"room_42","senderName":"@ali","senderId":"user_ali"}"#,
        ])
        #expect(digest(center(session, Self.ios)) == #"""
            ios received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"hi"},{"sender":"@ali","senderId":"user_ali","text":"there?"}],"total":2}
              {"kind":"conversation","key":"room_7","app":"app","title":"Sara","isGroup":false,"avatar":{"initials":"S","color":2},"lines":[{"sender":"Sara","senderId":"user_sara","text":"yo"}],"total":1}
            """#)
    }

    static let twoRooms = session([
        sendToUser(title: "New message", body: "hi", data: #""conversationId":"room_42","senderName":"@ali","senderId":"user_ali","senderAvatarUrl":"https://cdn.example.com/ali.jpg""#),
        sendToUser(title: "New message", body: "yo", data: #""conversationId":"room_7","senderName":"Sara","senderId":"user_sara""#),
        sendToUser(title: "New message", body: "there?", data: #""conversationId":"room_42","senderName":"@ali","senderId":"user_ali","senderAvatarUrl":"https://cdn.example.com/ali.jpg""#),
    ])

    @Test func I2_theCommunicationLookShowsTheSender() {
        #expect(digest(center(Self.twoRooms, Profile(platform: .ios, osVersion: Version(15)))) == #"""
            ios received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"hi"},{"sender":"@ali","senderId":"user_ali","text":"there?"}],"total":2}
              {"kind":"conversation","key":"room_7","app":"app","title":"Sara","isGroup":false,"avatar":{"initials":"S","color":2},"lines":[{"sender":"Sara","senderId":"user_sara","text":"yo"}],"total":1}
            """#)
    }

    @Test(arguments: [
        Profile(platform: .ios, osVersion: Version(14)),
        Profile(platform: .ios, osVersion: Version(12)),
        Profile(platform: .ios, iosCommunication: false),
    ])
    func I2_withoutTheLookConversationsStillGroupButShowTheAppIconAndThePushTitle(_ profile: Profile) {
        #expect(digest(center(Self.twoRooms, profile)) == #"""
            ios received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"conversation","key":"room_42","app":"app","title":"New message","isGroup":false,"lines":[{"text":"hi"},{"text":"there?"}],"total":2}
              {"kind":"conversation","key":"room_7","app":"app","title":"New message","isGroup":false,"lines":[{"text":"yo"}],"total":1}
            """#)
    }

    @Test func I2_anOldSDKIgnoresTheKeysAndStacksByApp() {
        #expect(digest(center(Self.twoRooms, Profile(platform: .ios, sdk: Version(0, 1, 20)))) == #"""
            ios received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"New message","lines":[{"text":"hi"},{"text":"yo"},{"text":"there?"}],"total":3}
            """#)
    }

    @Test func I2_aGroupShowsItsNameAsTitleAndTheSenderBelow() {
        let push = sendToUser(title: "Family", body: "Dinner at 8?", data: #""conversationId":"family_7","conversationIsGroup":true,"conversationTitle":"Family","senderName":"Maman","senderId":"user_maman""#)
        #expect(digest(center(push, Self.ios)) == #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"conversation","key":"family_7","app":"app","title":"Family","subtitle":"Maman","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"}],"total":1}
            """#)
    }

    @Test func I3_alertAsStringIsTheBodyAsDictionaryTitleSubtitleBody() {
        let session = Self.session([
            #"{"aps":{"alert":"Hello!"},"Simulator Target Bundle":"com.a"}"#,
            #"{"aps":{"alert":{"title":"Push Notification Test","subtitle":"Hey! 👋","body":"Is this working?"}},"Simulator Target Bundle":"com.b"}"#,
            // A non-empty literal body wins over loc-key (I3).
            #"{"aps":{"alert":{"body":"Literal","loc-key":"im_loc_text","loc-args":["Ali","hi"]}},"Simulator Target Bundle":"com.c"}"#,
        ])
        #expect(digest(center(session, Self.ios)) == #"""
            ios received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.c","app":"com.c","lines":[{"text":"Literal"}],"total":1}
              {"kind":"plain","key":"com.b","app":"com.b","title":"Push Notification Test","subtitle":"Hey! 👋","lines":[{"text":"Is this working?"}],"total":1}
              {"kind":"plain","key":"com.a","app":"com.a","lines":[{"text":"Hello!"}],"total":1}
            """#)
    }

    static func collapsing(_ id: String, _ body: String) -> String {
        #"{"headers":{"apns-collapse-id":"\#(id)","apns-topic":"com.example.scores"},"payload":{"aps":{"alert":{"title":"Match 12","body":"\#(body)"}}}}"#
    }

    @Test func I4_aCollapseIdReplacesTheNotificationAndTotalKeepsCounting() {
        let session = Self.session([
            Self.collapsing("score_match_12", "1 – 0"),
            #"{"headers":{"apns-topic":"com.example.scores"},"payload":{"aps":{"alert":{"title":"Transfer","body":"News"}}}}"#,
            Self.collapsing("score_match_12", "1 – 1"),
            Self.collapsing("score_match_12", "Full time: 2 – 1"),
        ])
        #expect(digest(centers(session, everyPlatform)) == #"""
            android received=4 shown=0 silent=0 calls=0 rejected=0 elsewhere=4 badge=0

            ios received=4 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"News"},{"text":"Full time: 2 – 1"}],"total":4}

            web received=4 shown=0 silent=0 calls=0 rejected=0 elsewhere=4 badge=0
            """#)
    }

    @Test func I4_aNotificationReplacedTwiceStaysOneWithEveryPushCounted() {
        let session = Self.session([Self.collapsing("score_match_12", "1 – 0"), Self.collapsing("score_match_12", "1 – 1"),
                                    Self.collapsing("score_match_12", "Full time: 2 – 1")])
        #expect(digest(center(session, Self.ios)) == #"""
            ios received=3 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"Full time: 2 – 1"}],"total":3}
            """#)
    }

    @Test func I4_replacingAMiddleNotificationKeepsTheOthersInOrder() {
        let session = Self.session(["a", "b", "c", "d"].map { Self.collapsing($0, "\($0)1") } + [Self.collapsing("b", "b2"), Self.collapsing("a", "a2")])
        #expect(digest(center(session, Self.ios)) == #"""
            ios received=6 shown=4 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"c1"},{"text":"d1"},{"text":"b2"},{"text":"a2"}],"total":6}
            """#)
    }

    /// A conversation is not per app, so two apps' notifications with one collapse id can share it;
    /// a replacement takes every line of the thread with that id.
    @Test func I4_aReplacementTakesEveryLineOfTheThreadWithTheId() {
        func push(_ app: String, _ body: String) -> String {
            #"{"headers":{"apns-collapse-id":"same","apns-topic":"\#(app)"},"payload":{"userId":"u","title":"Sara","body":"\#(body)","data":{"conversationId":"room_7"}}}"#
        }
        #expect(digest(center(Self.session([push("com.a", "a1"), push("com.b", "b1"), push("com.a", "a2")]), Self.ios)) == #"""
            ios received=3 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"conversation","key":"room_7","app":"com.a","title":"Sara","isGroup":false,"avatar":{"initials":"S","color":0},"lines":[{"sender":"Sara","senderId":"Sara","text":"a2"}],"total":3}
            """#)
    }

    /// Replacement finds lines by push id; pushes numbered out of arrival order still replace right.
    @Test func I4_pushesNumberedOutOfOrderStillReplace() {
        var intake = Intake(firstID: 100)
        var ios = Center(profile: Self.ios)
        let lines = ["a", "b", "c"].map { Self.collapsing($0, "\($0)1") } + [Self.collapsing("b", "b2")]
        for (i, line) in lines.enumerated() {
            intake = Intake(firstID: 100 - i)
            for outcome in intake.lines(Array(line.utf8), source: "t.jsonl") { ios.apply(outcome) }
        }
        #expect(digest(ios) == #"""
            ios received=4 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"a1"},{"text":"c1"},{"text":"b2"}],"total":4}
            """#)
    }

    @Test func I4_aCollapseIdOver64BytesIsRefused() {
        let id = String(repeating: "x", count: 65)
        let session = Self.session([Self.collapsing(String(repeating: "x", count: 64), "fits"), Self.collapsing(id, "too long")])
        #expect(digest(center(session, Self.ios)) == #"""
            ios received=2 shown=1 silent=0 calls=0 rejected=1 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"fits"}],"total":1}
            errors
              t.jsonl:2 BadCollapseId: apns-collapse-id is 65 bytes, over the 64-byte limit (I4)
            """#)
    }

    @Test(arguments: [
        (#"{"aps":{"content-available":1}}"#, 7),
        (#"{"aps":{"content-available":1,"badge":3}}"#, 3),
        (#"{"headers":{"apns-push-type":"background"},"payload":{"aps":{"content-available":1,"badge":4}}}"#, 4),
        (#"{"headers":{"apns-push-type":"background"},"payload":{"aps":{"alert":"hi"}}}"#, 7),
        (#"{"aps":{"badge":0}}"#, 0),
        (#"{"aps":{"sound":"default"}}"#, 7),
        (#"{"aps":{"alert":""}}"#, 7),
    ])
    func I5_backgroundPushesAreSilentAndTheBadgeStillApplies(push: String, badge: Int) {
        let state = center(#"{"aps":{"alert":"first","badge":7}}"# + "\n" + push, Self.ios).state
        #expect("shown=\(state.shown) silent=\(state.silent) badge=\(state.badge)" == "shown=1 silent=1 badge=\(badge)")
    }

    @Test func I5_contentAvailableWithAnAlertIsShown() {
        let state = center(#"{"aps":{"alert":"hi","content-available":1}}"#, Self.ios).state
        #expect("shown=\(state.shown) silent=\(state.silent)" == "shown=1 silent=0")
    }

    @Test func I6_badgeSetsZeroClearsAbsentLeaves() {
        let steps: [(String, Int)] = [
            (#"{"aps":{"alert":"a"}}"#, 0),
            (#"{"aps":{"alert":"b","badge":5}}"#, 5),
            (#"{"aps":{"alert":"c"}}"#, 5),
            (#"{"aps":{"badge":2}}"#, 2),
            (#"{"aps":{"alert":"d","badge":0}}"#, 0),
        ]
        var session: [String] = []
        var badges: [Int] = []
        for (push, _) in steps {
            session.append(push)
            badges.append(center(Self.session(session), Self.ios).state.badge)
        }
        #expect(badges == steps.map(\.1))
    }

    @Test func I7_voipPushesRingInTheCallsLane() {
        let session = Self.session([
            #"{"aps":{"alert":{"title":"Chat","body":"Missed you"}},"Simulator Target Bundle":"com.example.chat"}"#,
            #"{"headers":{"apns-push-type":"voip","apns-topic":"com.example.chat"},"payload":{"aps":{},"uuid":"c-1","callerName":"Alice"}}"#,
            #"{"headers":{"apns-topic":"com.example.chat.voip"},"payload":{"aps":{},"uuid":"c-2","callerName":"Bob","hasVideo":true,"badge":1}}"#,
        ])
        #expect(digest(centers(session, everyPlatform)) == #"""
            android received=3 shown=0 silent=0 calls=0 rejected=0 elsewhere=3 badge=0

            ios received=3 shown=1 silent=0 calls=2 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.example.chat","app":"com.example.chat","title":"Chat","lines":[{"text":"Missed you"}],"total":1}
            Calls
              {"kind":"call","key":"c-2","app":"com.example.chat","title":"Bob","avatar":{"initials":"B","color":4},"lines":[{"text":"Incoming video call"}],"total":1}
              {"kind":"call","key":"c-1","app":"com.example.chat","title":"Alice","avatar":{"initials":"A","color":7},"lines":[{"text":"Incoming call"}],"total":1}

            web received=3 shown=0 silent=0 calls=0 rejected=0 elsewhere=3 badge=0
            """#)
    }

    @Test func I8_interruptionLevelIsShown() {
        let levels = ["passive", "active", "time-sensitive", "critical", "loud"]
        let session = Self.session(levels.map { #"{"aps":{"alert":"\#($0)","thread-id":"\#($0)","interruption-level":"\#($0)"}}"# })
        let shown = center(session, Self.ios).state.items.map { "\($0.key): \($0.level?.rawValue ?? "none")" }
        #expect(shown == ["loud: none", "critical: critical", "time-sensitive: time-sensitive", "active: active", "passive: passive"])
        #expect(StateJSON.item(center(Self.session([#"{"aps":{"alert":"x","interruption-level":"time-sensitive"}}"#]), Self.ios).state.items[0])["level"]
                == .string("time-sensitive"))
    }

    // MARK: I9 sizes, measured as compact JSON

    /// `{"aps":{"alert":"…"}}` is 20 bytes around the text.
    static func apns(compactSize: Int) -> String {
        #"{"aps":{"alert":"\#(String(repeating: "x", count: compactSize - 20))"}}"#
    }

    @Test func I9_aPayloadOf4096BytesIsAcceptedAndOneMoreIsRefused() {
        let session = Self.session([Self.apns(compactSize: 4096), Self.apns(compactSize: 4097)])
        #expect(digest(centers(session, everyPlatform)) == #"""
            android received=2 shown=0 silent=0 calls=0 rejected=0 elsewhere=2 badge=0

            ios received=2 shown=1 silent=0 calls=0 rejected=1 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","lines":[{"text":"\#(String(repeating: "x", count: 4076))"}],"total":1}
            errors
              t.jsonl:2 PayloadTooLarge: the APNs payload is 4097 bytes as compact JSON, over the 4096-byte limit (I9); APNs refuses it

            web received=2 shown=0 silent=0 calls=0 rejected=0 elsewhere=2 badge=0
            """#)
    }

    @Test func I9_sizeIsMeasuredCompactNotAsWritten() {
        let text = String(repeating: "é", count: 2038)  // 4076 bytes of UTF-8
        let pretty = "{\n    \"aps\" : {\n        \"alert\" : \"\(text)\"\n    },\n    \"Simulator Target Bundle\" : \"com.example.news\"\n}\n"
        #expect(pretty.utf8.count > 4096 + 40)
        let state = centers(document: pretty, [Self.ios])[0].state
        #expect("shown=\(state.shown) rejected=\(state.rejected)" == "shown=1 rejected=0")
    }

    static func voip(compactSize: Int) -> String {
        // `{"aps":{},"callerName":"…"}` is 26 bytes around the name.
        #"{"headers":{"apns-topic":"com.example.chat.voip"},"payload":{"aps":{},"callerName":"\#(String(repeating: "x", count: compactSize - 26))"}}"#
    }

    @Test func I9_voipMayBe5120Bytes() {
        let state = center(Self.session([Self.voip(compactSize: 5120), Self.voip(compactSize: 5121)]), Self.ios).state
        #expect("calls=\(state.calls) rejected=\(state.rejected)" == "calls=1 rejected=1")
        #expect(state.errors.map(\.reason) == ["PayloadTooLarge: the APNs payload is 5121 bytes as compact JSON, over the 5120-byte limit for VoIP (I9); APNs refuses it"])
    }
}
