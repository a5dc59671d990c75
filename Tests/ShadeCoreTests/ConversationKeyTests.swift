import Testing
@testable import ShadeCore
import Dispatch
import Synchronization

/// SPEC §2: the conversation keys of seed 000 (C1–C10) and `--group-by`.
struct ConversationKeyTests {
    static let ali = #""conversationId":"room_42","senderName":"@ali","senderId":"user_ali""#

    @Test func C1_numberIdsAreStringifiedAndTheSameIdJoins() {
        let session = [
            sendToUser(title: "@ali", body: "one", data: #""conversationId":42,"senderName":"@ali","senderId":"user_ali""#),
            sendToUser(title: "@ali", body: "two", data: #""conversationId":"42","senderName":"@ali","senderId":"user_ali""#),
        ].joined(separator: "\n")
        #expect(digest(centers(session, everyPlatform)) == #"""
            android received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"one"},{"sender":"@ali","senderId":"user_ali","text":"two"}],"total":2}

            ios received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"conversation","key":"42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"one"},{"sender":"@ali","senderId":"user_ali","text":"two"}],"total":2}

            web received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"conversation","key":"42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"one"},{"sender":"@ali","senderId":"user_ali","text":"two"}],"total":2}
            """#)
    }

    @Test func C1_differentIdsAreDifferentConversations() {
        let session = [
            sendToUser(title: "@ali", body: "one", data: Self.ali),
            sendToUser(title: "@ali", body: "two", data: #""conversationId":"room_7","senderName":"@ali","senderId":"user_ali""#),
        ].joined(separator: "\n")
        #expect(center(session).state.items.map(\.key) == ["room_7", "room_42"])
    }

    @Test func C2_withoutSenderNameThePushTitleIsTheSender() {
        let state = center(sendToUser(title: "Sara", body: "hi", data: #""conversationId":"dm_sara""#)).state
        #expect(digest(state) == #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"dm_sara","app":"app","title":"Sara","isGroup":false,"avatar":{"initials":"S","color":0},"lines":[{"sender":"Sara","senderId":"Sara","text":"hi"}],"total":1}
            """#)
    }

    @Test func C3_sameNameDifferentIdAreTwoSenders() throws {
        let group = #""conversationId":"team","conversationIsGroup":true,"conversationTitle":"Team","senderName":"Ali""#
        let session = [
            sendToUser(title: "Team", body: "hi", data: group + #","senderId":"ali_1""#),
            sendToUser(title: "Team", body: "hello", data: group + #","senderId":"ali_2""#),
        ].joined(separator: "\n")
        let state = center(session).state
        #expect(digest(state) == #"""
            android received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"team","app":"app","title":"Team","isGroup":true,"avatar":{"initials":"A","color":2},"lines":[{"sender":"Ali","senderId":"ali_1","text":"hi"},{"sender":"Ali","senderId":"ali_2","text":"hello"}],"total":2}
            """#)
        // Separate avatar colours: FNV-1a("ali_1") % 8 = 7, FNV-1a("ali_2") % 8 = 2.
        let item = try #require(state.items.first)
        #expect(item.lines.map { $0.senderAvatar?.color } == [7, 2])
    }

    @Test func C3_withoutSenderIdTheNameIsTheIdentity() {
        let session = [
            sendToUser(title: "Team", body: "hi", data: #""conversationId":"team","senderName":"Ali""#),
            sendToUser(title: "Team", body: "again", data: #""conversationId":"team","senderName":"Ali""#),
        ].joined(separator: "\n")
        let item = center(session).state.items.first
        #expect(item?.lines.map(\.senderID) == ["Ali", "Ali"])
        #expect(item?.lines.map { $0.senderAvatar?.color } == [3, 3])
    }

    @Test(arguments: [
        (#""https://cdn.example.com/avatars/ali.jpg""#, "https://cdn.example.com/avatars/ali.jpg"),
        (#""HTTPS://CDN.EXAMPLE.COM/ALI.JPG""#, "HTTPS://CDN.EXAMPLE.COM/ALI.JPG"),
        (#""https://cdn.example.com""#, "https://cdn.example.com"),
        (#""http://cdn.example.com/avatars/ali.jpg""#, nil),
        (#""//cdn.example.com/ali.jpg""#, nil),
        (#""cdn.example.com/ali.jpg""#, nil),
        (#""ftp://cdn.example.com/ali.jpg""#, nil),
        (#""https://""#, nil),
        (#""https:// cdn.example.com/ali.jpg""#, nil),
        (#""""#, nil),
        ("42", nil),
    ] as [(String, String?)])
    func C4_onlyAnHttpsURLIsAPhotoOtherwiseInitials(url: String, photo: String?) {
        let state = center(sendToUser(title: "@ali", body: "hi", data: Self.ali + #","senderAvatarUrl":"# + url)).state
        #expect(state.items.first?.avatar == Avatar(initials: "A", imageURL: photo, color: 1))
    }

    @Test func C5_theGroupNameIsTheTitleOfGroupsOnlyAndStaysWhenLaterPushesOmitIt() {
        let session = [
            sendToUser(title: "Family", body: "Dinner at 8?", data: #""conversationId":"family_7","conversationIsGroup":true,"conversationTitle":"Family","senderName":"Maman","senderId":"user_maman""#),
            // Later pushes of a group may leave the name out: the group keeps the name it was given.
            sendToUser(title: "Sara", body: "Yes", data: #""conversationId":"family_7","conversationIsGroup":true,"senderName":"Sara","senderId":"user_sara""#),
            // One-to-one: the title is the sender, whatever conversationTitle says.
            sendToUser(title: "@ali", body: "hi", data: Self.ali + #","conversationTitle":"Bike sale""#),
        ].joined(separator: "\n")
        #expect(center(session).state.items.map(\.title) == ["@ali", "Family"])
    }

    @Test(arguments: [
        ("true", true), (#""true""#, true), ("1", true), (#""1""#, true), ("1.0", true),
        (#""yes""#, false), ("false", false), (#""false""#, false), ("0", false), (#""0""#, false),
        // Only the four spellings of SPEC C6; Python's str(True) is not one of them (lint V4 says so).
        (#""True""#, false), (#""TRUE""#, false), ("2", false), ("null", false), (#""""#, false), ("[true]", false),
    ])
    func C6_groupFlagSpellings(value: String, isGroup: Bool) throws {
        let data = #""conversationId":"family_7","conversationTitle":"Family","senderName":"Maman","senderId":"user_maman","conversationIsGroup":"# + value
        let item = try #require(center(sendToUser(title: "Push title", body: "Dinner at 8?", data: data)).state.items.first)
        #expect(item.isGroup == isGroup)
        #expect(item.title == (isGroup ? "Family" : "Maman"))
    }

    @Test func C6_absentFlagIsOneToOne() {
        let item = center(sendToUser(title: "Push title", body: "hi", data: Self.ali)).state.items.first
        #expect(item?.isGroup == false)
    }

    @Test func C8_withoutConversationIdTheSenderKeysAreIgnored() {
        let data = #""senderName":"@ali","senderId":"user_ali","senderAvatarUrl":"https://cdn.example.com/a.jpg","conversationTitle":"Family","conversationIsGroup":true,"orderId":"o-1""#
        let session = [
            sendToUser(title: "Order shipped", body: "Your order is on the way", data: data),
            sendToUser(title: "Order shipped", body: "Empty id", data: #""conversationId":"","senderName":"@ali""#),
        ].joined(separator: "\n")
        #expect(digest(centers(session, everyPlatform)) == #"""
            android received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n2","app":"app","title":"Order shipped","lines":[{"text":"Empty id"}],"total":1}
              {"kind":"plain","key":"n1","app":"app","title":"Order shipped","lines":[{"text":"Your order is on the way"}],"total":1}

            ios received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Order shipped","lines":[{"text":"Your order is on the way"},{"text":"Empty id"}],"total":2}

            web received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n2","app":"app","title":"Order shipped","lines":[{"text":"Empty id"}],"total":1}
              {"kind":"plain","key":"n1","app":"app","title":"Order shipped","lines":[{"text":"Your order is on the way"}],"total":1}
            """#)
    }

    struct Gate: Sendable, CustomTestStringConvertible {
        var platform: Platform
        var flavor: Flavor
        var sdk: String
        var conversation: Bool
        var testDescription: String { "\(platform.rawValue) \(flavor.rawValue) \(sdk) → \(conversation ? "conversation" : "plain")" }
    }

    @Test(arguments: [
        Gate(platform: .android, flavor: .native, sdk: "0.1.21", conversation: false),
        Gate(platform: .android, flavor: .native, sdk: "0.1.22", conversation: true),
        Gate(platform: .android, flavor: .native, sdk: "0.1.100", conversation: true),
        Gate(platform: .android, flavor: .native, sdk: "0.2", conversation: true),
        Gate(platform: .ios, flavor: .native, sdk: "0.1.20", conversation: false),
        Gate(platform: .ios, flavor: .native, sdk: "0.1.21", conversation: true),
        Gate(platform: .android, flavor: .flutter, sdk: "0.1.30", conversation: false),
        Gate(platform: .android, flavor: .flutter, sdk: "0.1.31", conversation: true),
        Gate(platform: .ios, flavor: .flutter, sdk: "0.1.30", conversation: false),
        Gate(platform: .ios, flavor: .flutter, sdk: "0.1.31", conversation: true),
        Gate(platform: .android, flavor: .reactNative, sdk: "0.1.21", conversation: false),
        Gate(platform: .android, flavor: .reactNative, sdk: "0.1.22", conversation: true),
        Gate(platform: .ios, flavor: .reactNative, sdk: "0.1.21", conversation: false),
        Gate(platform: .ios, flavor: .reactNative, sdk: "0.1.22", conversation: true),
        Gate(platform: .web, flavor: .native, sdk: "0.1.14", conversation: false),
        Gate(platform: .web, flavor: .native, sdk: "0.1.15", conversation: true),
        // The web SDK is the browser's: --flavor names how the mobile SDK is embedded.
        Gate(platform: .web, flavor: .flutter, sdk: "0.1.15", conversation: true),
    ])
    func C9_sdkGatePerPlatformAndFlavor(_ gate: Gate) throws {
        let profile = Profile(platform: gate.platform, sdk: Version(gate.sdk), flavor: gate.flavor)
        let item = try #require(center(sendToUser(title: "@ali", body: "hi", data: Self.ali), profile).state.items.first)
        #expect(item.kind == (gate.conversation ? .conversation : .plain))
        #expect(item.avatar == (gate.conversation ? Avatar(initials: "A", imageURL: nil, color: 1) : nil))
    }

    @Test func C9_anOldSDKShowsAPlainNotificationExactlyAsBefore() {
        let session = [
            sendToUser(title: "@ali", body: "Is the bike still available?", data: Self.ali),
            sendToUser(title: "@ali", body: "Hello?", data: Self.ali),
        ].joined(separator: "\n")
        #expect(digest(center(session, Profile(platform: .android, sdk: Version(0, 1, 21)))) == #"""
            android received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n2","app":"app","title":"@ali","lines":[{"text":"Hello?"}],"total":1}
              {"kind":"plain","key":"n1","app":"app","title":"@ali","lines":[{"text":"Is the bike still available?"}],"total":1}
            """#)
    }

    @Test func C9_theDefaultSDKOfEachFlavorShowsConversations() {
        let defaults = Platform.allCases.flatMap { platform in
            Flavor.allCases.map { "\(platform.rawValue) \($0.rawValue) \(Profile(platform: platform, flavor: $0).sdk)" }
        }
        #expect(defaults == ["android native 0.1.22", "android flutter 0.1.31", "android react-native 0.1.22",
                             "ios native 0.1.21", "ios flutter 0.1.31", "ios react-native 0.1.22",
                             "web native 0.1.15", "web flutter 0.1.15", "web react-native 0.1.15"])
    }

    @Test func C10_everyDataKeyIsKeptForTheApp() throws {
        let data = Self.ali + #","roomId":"room_42","deepLink":"app://rooms/42","unread":3,"meta":{"a":[1]}"#
        let conversation = try #require(center(sendToUser(title: "@ali", body: "hi", data: data)).state.items.first)
        #expect(conversation.data == (try JSONParser.parse("{\(data)}")).object)
        let plain = try #require(center(#"{"to":"t","notification":{"title":"T","body":"B"},"data":{"orderId":"o-1","tab":"orders"}}"#).state.items.first)
        #expect(plain.data == JSONObject(["orderId": .string("o-1"), "tab": .string("orders")]))
    }

    // MARK: --group-by

    @Test func groupBy_aPathIntoAStringHoldingJSONNamesTheConversation() {
        let push = #"{"to":"fcm-token","notification":{"title":"Ali","body":"BODY"},"data":{"type":"text","payload":"{\"room\":\"r7\",\"id\":9}","senderName":"Ali","senderId":"ali_1"}}"#
        let session = [push.replacingOccurrences(of: "BODY", with: "hi"), push.replacingOccurrences(of: "BODY", with: "again")]
            .joined(separator: "\n")
        #expect(digest(center(session, Profile(platform: .android, groupBy: "data.payload.room"))) == #"""
            android received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"r7","app":"app","title":"Ali","isGroup":false,"avatar":{"initials":"A","color":7},"lines":[{"sender":"Ali","senderId":"ali_1","text":"hi"},{"sender":"Ali","senderId":"ali_1","text":"again"}],"total":2}
            """#)
    }

    @Test(arguments: [
        ("data.room.id", #"{"userId":"u","title":"Ali","body":"hi","data":{"room":{"id":7}}}"#, "7"),
        ("message.data.thread", #"{"message":{"token":"t","notification":{"title":"Ali","body":"hi"},"data":{"thread":"th-1"}}}"#, "th-1"),
        ("data.payload.room", #"{"userId":"u","title":"Ali","body":"hi","data":{"payload":"  {\"room\": 5}"}}"#, "5"),
        ("custom.room", #"{"userId":"u","title":"Ali","body":"hi","custom":{"room":"c1"}}"#, "c1"),
        // `data.…` not at the root reads the app's data where the shape keeps it.
        ("data.payload.room", #"{"message":{"token":"t","notification":{"title":"T","body":"b"},"data":{"payload":"{\"room\":\"R9\"}"}}}"#, "R9"),
        ("data.thread", #"{"message":{"token":"t","notification":{"title":"T","body":"b"},"data":{"thread":"th-2"}}}"#, "th-2"),
        ("data.room", #"{"interests":["i"],"fcm":{"notification":{"title":"T","body":"b"},"data":{"room":"p1"}}}"#, "p1"),
    ])
    func groupBy_thePathIsTheConversationId(path: String, push: String, key: String) throws {
        let item = try #require(center(push, Profile(platform: .android, groupBy: path)).state.items.first)
        #expect(item.kind == .conversation)
        #expect(item.key == key)
    }

    @Test(arguments: [
        // The path replaces conversationId: where it finds nothing, the push is plain (C8).
        ("data.room", #"{"userId":"u","title":"Ali","body":"hi","data":{"conversationId":"room_42"}}"#),
        ("data.payload.room", #"{"userId":"u","title":"Ali","body":"hi","data":{"payload":"not json"}}"#),
        ("data.payload.room", #"{"userId":"u","title":"Ali","body":"hi","data":{"payload":{"room":{"id":1}}}}"#),
        ("data.payload.room", #"{"userId":"u","title":"Ali","body":"hi","data":{"payload":{"room":""}}}"#),
        ("data.nope", #"{"message":{"token":"t","notification":{"title":"T","body":"b"},"data":{"thread":"th-2"}}}"#),
        ("message.nope", #"{"message":{"token":"t","notification":{"title":"T","body":"b"},"data":{"nope":"x"}}}"#),
    ])
    func groupBy_nothingAtThePathIsAPlainNotification(path: String, push: String) throws {
        let item = try #require(center(push, Profile(platform: .android, groupBy: path)).state.items.first)
        #expect(item.kind == .plain)
    }
}

/// C4 on ASCII URLs is answered on bytes; it must be the grapheme rule's answer exactly.
@Test(arguments: [
    "https://cdn.example.com/a.jpg", "HTTPS://CDN.example.com", "https://", "https://x", "https:///a", "https://a b/c",
    "https://a\tb", "https://host?q", "https://#", "http://cdn.example.com/a.jpg", "https:/x.com/a", "hTtPs://h/p q",
    "https://\u{1A}", "https:/\u{0F}x", "https:\u{1A}//x", "https://h\r\n/x", "https://h\u{0B}", "https://h\u{1C}x", "ftp://host",
    "https://é.com", "https://a\u{A0}b", "https://a\u{3000}b", "", "https://h\u{7F}",
])
func C4_theASCIIPathAnswersAsTheGraphemeRule(url: String) {
    #expect(ConversationKeys.isHTTPSImageURL(url) == ConversationKeys.unicodeIsHTTPSImageURL(url))
    if let fast = ConversationKeys.asciiIsHTTPSImageURL(url) { #expect(fast == ConversationKeys.unicodeIsHTTPSImageURL(url)) }
}

@Test func C4_theWordAtATimeReadingAgreesForEveryASCIIByteAtEveryPlaceOfAURL() {
    // The scheme is compared as one word, with its letters lowercased by `| 0x20`, and the URL is
    // checked for ASCII and `\r` eight bytes at a time: every byte at every place must agree.
    let url = Array("https://cdn.example.com/avatars/ali.png?size=64".utf8)
    var disagreements: [String] = []
    for place in url.indices {
        for byte in UInt8(0)..<0x80 {
            var bytes = url
            bytes[place] = byte
            let text = String(decoding: bytes, as: UTF8.self)
            if ConversationKeys.isHTTPSImageURL(text) != ConversationKeys.unicodeIsHTTPSImageURL(text) {
                disagreements.append("\(place): 0x\(String(byte, radix: 16))")
            }
        }
        // A non-ASCII scalar there leaves it to the grapheme rule.
        var bytes = url
        bytes.replaceSubrange(place...place, with: Array("é".utf8))
        #expect(ConversationKeys.asciiIsHTTPSImageURL(String(decoding: bytes, as: UTF8.self)) == nil)
    }
    #expect(disagreements == [])
}

/// Centers that share `SharedReadings` (a live session's three, for the session; `state`'s, a push's
/// own, on threads of their own) must each hold what it would alone: what one center read is handed
/// to the next only for the same payload, app and tracing (the content) or the same data, push,
/// `--group-by` and title (the keys).
struct SharedReadingsTests {
    /// FCM v1 with an APNs override: one data object, and a title per platform, which C2 makes
    /// the sender's name where the data names none.
    static let titledPerPlatform = #"""
        {"message":{"token":"t","notification":{"title":"Android title","body":"b"},"data":{"conversationId":"room_1"},"apns":{"payload":{"aps":{"alert":{"title":"iOS title","body":"b"}}}}}}
        """#

    static func documents() throws -> [(name: String, outcomes: [Intake.Outcome])] {
        var out: [(String, [Intake.Outcome])] = []
        for name in SamplesStateTests.pushFiles { out.append((name, try SamplesStateTests.outcomes(of: name))) }
        for name in try fixtureNames("vectors") where name != "README.md" {
            var intake = Intake()
            out.append((name, intake.document(try fixtureBytes("vectors/" + name), source: name)))
        }
        var intake = Intake()
        out.append(("titled per platform", intake.document(Array(titledPerPlatform.utf8), source: "t.json")))
        return out
    }

    @Test(arguments: [nil, "data.conversationId", "data.payload.room"] as [String?])
    func C1_C2_D3_centersSharingTheLiveSessionsReadingsHoldWhatEachHoldsAlone(groupBy: String?) throws {
        let profiles = Platform.allCases.map { Profile(platform: $0, groupBy: groupBy) }
        var differences: [String] = []
        for (name, outcomes) in try Self.documents() {
            var alone = profiles.map { Center(profile: $0) }
            let shared = SharedReadings()
            var sharing = profiles.map { profile -> Center in
                var center = Center(profile: profile)
                center.sharedReadings = shared
                return center
            }
            for outcome in outcomes {
                for i in alone.indices { alone[i].apply(outcome) }
                for i in sharing.indices { sharing[i].apply(outcome) }
            }
            for (a, s) in zip(alone, sharing) where tracedDigest(a.state) != tracedDigest(s.state) {
                differences.append("\(name) on \(a.profile.platform)")
            }
        }
        #expect(differences == [])
    }

    /// `state` with several profiles: each center on a thread of its own, each push with readings of its
    /// own, so whichever center comes first reads for the others (and which one does varies).
    @Test(arguments: [nil, "data.conversationId"] as [String?])
    func C1_C2_D3_centersOnThreadsOfTheirOwnSharingEachPushsReadingsHoldWhatEachHoldsAlone(groupBy: String?) throws {
        let profiles = Platform.allCases.map { Profile(platform: $0, groupBy: groupBy) }
        var differences: [String] = []
        for (name, outcomes) in try Self.documents() {
            var alone = profiles.map { Center(profile: $0) }
            for outcome in outcomes { for i in alone.indices { alone[i].apply(outcome) } }
            let readings = outcomes.map { _ in SharedReadings() }
            let sharing = Mutex<[Center?]>(Array(repeating: nil, count: profiles.count))
            DispatchQueue.concurrentPerform(iterations: profiles.count) { i in
                var center = Center(profile: profiles[i])
                for (outcome, shared) in zip(outcomes, readings) {
                    center.sharedReadings = shared
                    center.apply(outcome)
                }
                sharing.withLock { $0[i] = center }
            }
            let threaded = sharing.withLock { $0.compactMap { $0 } }
            for (a, s) in zip(alone, threaded) where tracedDigest(a.state) != tracedDigest(s.state) {
                differences.append("\(name) on \(a.profile.platform)")
            }
        }
        #expect(differences == [])
    }

    /// Two pushes of one send-to-user body, read from two files: the same bytes, two payload stores.
    static func twoPushesOfTheSameBytes() throws -> [Push] {
        let text = #"{"userId":"u","title":"@ali","body":"hi","data":{"conversationId":"room_42"}}"#
        var intake = Intake()
        let pushes = (intake.document(Array(text.utf8), source: "a.json") + intake.document(Array(text.utf8), source: "b.json"))
            .compactMap { outcome -> Push? in if case .push(let push) = outcome { return push } else { return nil } }
        try #require(pushes.count == 2)
        return pushes
    }

    @Test func theKeysAreReadAgainForAnotherTitleGroupByOrPushAndOnlyThen() throws {
        let pushes = try Self.twoPushesOfTheSameBytes()
        func data(_ push: Push, _ platform: Platform) throws -> AppData {
            guard case .show(let content) = push.delivery(on: platform, defaultApp: "app") else { throw CancellationError() }
            return content.appData
        }
        let shared = SharedReadings()
        var reads: [String] = []
        func read(_ push: Push, _ platform: Platform, groupBy: String? = nil, title: String?, _ label: String) throws {
            _ = shared.keys(try data(push, platform), push: push, groupBy: groupBy, pushTitle: title) {
                reads.append(label)
                return (nil, false)
            }
        }
        try read(pushes[0], .android, title: "@ali", "first")
        try read(pushes[0], .ios, title: "@ali", "same data and title: kept")
        try read(pushes[0], .web, title: "Ali", "another title")
        try read(pushes[0], .web, groupBy: "data.conversationId", title: "Ali", "another --group-by")
        try read(pushes[1], .android, groupBy: "data.conversationId", title: "Ali", "another push, the same bytes")
        #expect(reads == ["first", "another title", "another --group-by", "another push, the same bytes"])
    }

    @Test func D3_theContentIsReadAgainForAnotherPushAppOrTracingAndOnlyThen() throws {
        let pushes = try Self.twoPushesOfTheSameBytes()
        let shared = SharedReadings()
        var reads: [String] = []
        func read(_ push: Push, app: String = "app", traced: Bool = false, _ label: String) -> Content {
            shared.content(store: push.store, app: app, traced: traced) {
                reads.append(label)
                return push.withPayload { ShapeReader(store: push.store, app: app, traced: traced).sendToUserContent($0) }
            }
        }
        let first = read(pushes[0], "first")
        #expect(read(pushes[0], "the same push, app and tracing: kept") == first)
        #expect(read(pushes[0], app: "com.other", "another app").app == "com.other")
        #expect(read(pushes[0], app: "com.other", traced: true, "traced").trace.map(\.rule) == ["D3"])
        #expect(read(pushes[1], "another push, the same bytes") == first)
        #expect(reads == ["first", "another app", "traced", "another push, the same bytes"])
    }

    @Test func C2_eachPlatformNamesTheSenderAfterItsOwnTitleThroughSharedReadings() throws {
        var intake = Intake()
        let outcomes = intake.document(Array(Self.titledPerPlatform.utf8), source: "t.json")
        let shared = SharedReadings()
        var centers = [Platform.android, .ios].map { platform -> Center in
            var center = Center(profile: Profile(platform: platform))
            center.sharedReadings = shared
            return center
        }
        for outcome in outcomes { for i in centers.indices { centers[i].apply(outcome) } }
        #expect(centers.map { $0.state.sections.flatMap(\.items).first?.lines.first?.sender } == ["Android title", "iOS title"])
    }
}
