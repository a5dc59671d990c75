import Testing
@testable import ShadeCore

/// SPEC §3: the Android profile (default: Android 14, native SDK 0.1.22).
struct AndroidTests {
    /// A one-to-one message from @ali in room_42 (seed 000's example).
    static func fromAli(_ text: String, room: String = "room_42") -> String {
        sendToUser(title: "@ali", body: text, data: #""conversationId":"\#(room)","senderName":"@ali","senderId":"user_ali""#)
    }

    /// A message in the Family group.
    static func inFamily(_ text: String, from name: String, id: String, photo: String? = nil) -> String {
        let photoKey = photo.map { #","senderAvatarUrl":"\#($0)""# } ?? ""
        return sendToUser(title: "Family", body: text, data: #""conversationId":"family_7","conversationIsGroup":"true","conversationTitle":"Family","senderName":"\#(name)","senderId":"\#(id)""# + photoKey)
    }

    static func plain(_ title: String, _ body: String, app: String? = nil, tag: String? = nil) -> String {
        let package = app.map { #","restricted_package_name":"\#($0)""# } ?? ""
        let tagKey = tag.map { #","tag":"\#($0)""# } ?? ""
        return #"{"to":"fcm-token"\#(package),"notification":{"title":"\#(title)","body":"\#(body)"\#(tagKey)}}"#
    }

    static func session(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    @Test func A1_aConversationKeepsTheNewest25Messages() throws {
        let state = center(Self.session((1...26).map { Self.fromAli("m\($0)") })).state
        let item = try #require(state.items.first)
        #expect(item.lines.map(\.text) == (2...26).map { "m\($0)" })
        #expect(item.total == 26)
        #expect(state.items.count == 1)
        #expect(state.shown == 1)
        #expect(state.received == 26)
    }

    @Test func A2_theIconIsTheLatestSendersPhotoOrInitials() {
        let photo = "https://cdn.example.com/maman.jpg"
        var avatars: [Avatar?] = []
        var session: [String] = []
        for push in [Self.inFamily("Dinner at 8?", from: "Maman", id: "user_maman", photo: photo),
                     Self.inFamily("I'll bring dessert", from: "Sara", id: "user_sara"),
                     Self.inFamily("Thanks", from: "Maman", id: "user_maman", photo: photo)] {
            session.append(push)
            avatars.append(center(Self.session(session)).state.items.first?.avatar)
        }
        #expect(avatars == [Avatar(initials: "M", imageURL: photo, color: 7),
                            Avatar(initials: "S", imageURL: nil, color: 2),
                            Avatar(initials: "M", imageURL: photo, color: 7)])
    }

    @Test func A3_A4_titleAndLinesOfOneToOneAndGroups() {
        let session = Self.session([
            Self.fromAli("Is the bike still available?"),
            Self.inFamily("Dinner at 8?", from: "Maman", id: "user_maman"),
            Self.inFamily("I'll bring dessert", from: "Sara", id: "user_sara"),
            Self.inFamily("And the kids?", from: "Sara", id: "user_sara"),
            // A group without conversationTitle: the push title names it.
            sendToUser(title: "Bike club", body: "Ride at 6", data: #""conversationId":"club","conversationIsGroup":1,"senderName":"Bob","senderId":"bob""#),
        ])
        #expect(digest(center(session)) == #"""
            android received=5 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"club","app":"app","title":"Bike club","isGroup":true,"avatar":{"initials":"B","color":4},"lines":[{"sender":"Bob","senderId":"bob","text":"Ride at 6"}],"total":1}
              {"kind":"conversation","key":"family_7","app":"app","title":"Family","isGroup":true,"avatar":{"initials":"S","color":2},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"}],"total":3}
              {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1}
            """#)
    }

    static let conversationThenPlain = session([
        fromAli("Is the bike still available?"),
        plain("Order shipped", "Your order is on the way"),
    ])

    @Test func A5_android11AndLaterHasAConversationsSection() {
        for version in [Version(11), Version(14)] {
            #expect(digest(center(Self.conversationThenPlain, Profile(platform: .android, osVersion: version))) == #"""
                android received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
                Conversations
                  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1}
                Notifications
                  {"kind":"plain","key":"n2","app":"app","title":"Order shipped","lines":[{"text":"Your order is on the way"}],"total":1}
                """#)
        }
    }

    @Test func A5_beforeAndroid11OneListWithConversationsStyledAsMessaging() {
        for version in [Version(10), Version(8, 1)] {
            #expect(digest(center(Self.conversationThenPlain, Profile(platform: .android, osVersion: version))) == #"""
                android received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
                Notifications
                  {"kind":"plain","key":"n2","app":"app","title":"Order shipped","lines":[{"text":"Your order is on the way"}],"total":1}
                  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1}
                """#)
        }
    }

    @Test func A6_theMostRecentlyUpdatedItemComesFirst() {
        let session = Self.session([
            Self.fromAli("a1", room: "A"),
            Self.fromAli("b1", room: "B"),
            Self.plain("P", "p1"),
            Self.fromAli("a2", room: "A"),
        ])
        func order(_ version: Version) -> [String] {
            center(session, Profile(platform: .android, osVersion: version)).state.sections.map { section in
                section.name + ": " + section.items.map(\.key).joined(separator: ", ")
            }
        }
        #expect(order(Version(14)) == ["Conversations: A, B", "Notifications: n3"])
        #expect(order(Version(10)) == ["Notifications: A, n3, B"])
    }

    @Test func A7_aNonEmptyTagReplacesTheNotificationWithTheSameTag() {
        let session = Self.session([
            Self.plain("Delivery", "Courier picked up your parcel", tag: "parcel_77"),
            Self.plain("Delivery", "Courier is 5 stops away", tag: "parcel_77"),
            Self.plain("Promo", "No tag"),
            Self.plain("Delivery", "Other app, same tag", app: "com.other", tag: "parcel_77"),
            Self.plain("Delivery", "Delivered to your door", tag: "parcel_77"),
            Self.plain("Empty", "An empty tag is no tag", tag: ""),
        ])
        #expect(digest(center(session)) == #"""
            android received=6 shown=4 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n6","app":"app","title":"Empty","lines":[{"text":"An empty tag is no tag"}],"total":1}
              {"kind":"plain","key":"parcel_77","app":"app","title":"Delivery","lines":[{"text":"Delivered to your door"}],"total":3}
              {"kind":"plain","key":"parcel_77","app":"com.other","title":"Delivery","lines":[{"text":"Other app, same tag"}],"total":1}
              {"kind":"plain","key":"n3","app":"app","title":"Promo","lines":[{"text":"No tag"}],"total":1}
            """#)
    }

    @Test func A7_fcmV1AndroidTagAndSendToUserTagReplaceToo() {
        let session = Self.session([
            #"{"message":{"token":"t","notification":{"title":"Score","body":"1-0"},"android":{"notification":{"tag":"match"}}}}"#,
            #"{"message":{"token":"t","notification":{"title":"Score","body":"2-0"},"android":{"notification":{"tag":"match"}}}}"#,
            #"{"userId":"u","title":"Order","body":"paid","tag":"order_1"}"#,
            #"{"userId":"u","title":"Order","body":"shipped","tag":"order_1"}"#,
        ])
        #expect(digest(center(session)) == #"""
            android received=4 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"order_1","app":"app","title":"Order","lines":[{"text":"shipped"}],"total":2}
              {"kind":"plain","key":"match","app":"app","title":"Score","lines":[{"text":"2-0"}],"total":2}
            """#)
    }

    @Test func A8_fourPlainNotificationsOfOneAppAreBundled() {
        let session = Self.session((1...4).map { Self.plain("News \($0)", "Story \($0)") } + [Self.fromAli("hi")])
        #expect(digest(center(session)) == #"""
            android received=5 shown=5 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"hi"}],"total":1}
            Notifications
              {"kind":"bundle","key":"app","app":"app","title":"app","lines":[],"total":4,"children":[{"kind":"plain","key":"n4","app":"app","title":"News 4","lines":[{"text":"Story 4"}],"total":1},{"kind":"plain","key":"n3","app":"app","title":"News 3","lines":[{"text":"Story 3"}],"total":1},{"kind":"plain","key":"n2","app":"app","title":"News 2","lines":[{"text":"Story 2"}],"total":1},{"kind":"plain","key":"n1","app":"app","title":"News 1","lines":[{"text":"Story 1"}],"total":1}]}
            """#)
    }

    @Test func A8_threeAreNotBundledNorAreConversationsCounted() {
        let session = Self.session((1...3).map { Self.plain("News \($0)", "Story \($0)") } + [Self.fromAli("hi")])
        let state = center(session).state
        #expect(state.sections.map { "\($0.name): " + $0.items.map { "\($0.kind.rawValue) \($0.key)" }.joined(separator: ", ") }
            == ["Conversations: conversation room_42", "Notifications: plain n3, plain n2, plain n1"])
    }

    @Test func A8_bundlesArePerAppAndTheCountIsAProfileSetting() {
        let session = Self.session([
            Self.plain("A1", "a", app: "com.a"), Self.plain("B1", "b", app: "com.b"),
            Self.plain("A2", "a", app: "com.a"), Self.plain("B2", "b", app: "com.b"),
            Self.plain("C1", "c", app: "com.c"),
            Self.plain("A3", "a", app: "com.a"),
        ])
        func layout(_ profile: Profile) -> [String] {
            center(session, profile).state.items.map { item in
                item.kind == .bundle ? "bundle \(item.key) [\(item.children!.map(\.title!).joined(separator: " "))] total \(item.total)" : "plain \(item.title!)"
            }
        }
        #expect(layout(Profile(platform: .android)) == ["plain A3", "plain C1", "plain B2", "plain A2", "plain B1", "plain A1"])
        #expect(layout(Profile(platform: .android, bundleAt: 3)) == ["bundle com.a [A3 A2 A1] total 3", "plain C1", "plain B2", "plain B1"])
        #expect(layout(Profile(platform: .android, bundleAt: 2)) == ["bundle com.a [A3 A2 A1] total 3", "plain C1", "bundle com.b [B2 B1] total 2"])
        #expect(center(session, Profile(platform: .android, bundleAt: 2)).state.shown == 6)
    }

    @Test func A9_atMost50NotificationsPerAppTheOldestGoes() throws {
        let session = Self.session((1...51).map { Self.plain("N\($0)", "b") } + [Self.plain("Other", "b", app: "com.other")])
        let state = center(session).state
        #expect(state.items.map { "\($0.kind.rawValue) \($0.app) \($0.total)" } == ["plain com.other 1", "bundle app 50"])
        let bundle = try #require(state.items.last)
        #expect(bundle.children?.map(\.key) == (2...51).reversed().map { "n\($0)" })
        #expect(state.shown == 51)
        #expect(state.received == 52)
    }

    @Test func A9_theOldestPlainOneGoesBeforeAConversation() {
        let session = Self.session([Self.fromAli("first of all")] + (2...51).map { Self.plain("N\($0)", "b") })
        let state = center(session).state
        #expect(state.sections.map { "\($0.name) \($0.items.count)" } == ["Conversations 1", "Notifications 1"])
        #expect(state.items.last?.children?.map(\.key) == (3...51).reversed().map { "n\($0)" })
        #expect(state.shown == 50)
    }

    @Test func A10_aLiteralTitleAndBodyWinOverLocKeys() {
        let push = #"{"to":"t","notification":{"title":"Hello","title_loc_key":"im_loc_joinRoom","title_loc_args":["Ali"],"body":"World","body_loc_key":"im_loc_text","body_loc_args":["Ali","hi"]}}"#
        #expect(digest(center(push)) == #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"Hello","lines":[{"text":"World"}],"total":1}
            """#)
    }

    @Test(arguments: [
        (#"{"to":"t","data":{"type":"sync"}}"#, false),
        (#"{"to":"t","notification":{}}"#, false),
        (#"{"to":"t","notification":{"title":""}}"#, false),
        (#"{"to":"t","notification":{"title":"","body":""},"data":{"a":"b"}}"#, false),
        (#"{"to":"t","notification":{"icon":"ic_chat","click_action":"push_chatroom","sound":"default"}}"#, false),
        (#"{"message":{"token":"t","data":{"a":"b"}}}"#, false),
        (#"{"message":{"token":"t","notification":{"title":"","body":""}}}"#, false),
        (#"{"data":{"a":"b"},"priority":"high"}"#, false),
        (#"{"to":"t","notification":{"title":"T"}}"#, true),
        (#"{"to":"t","notification":{"body":"B"}}"#, true),
        // A loc key counts as a title or body (A11), even if the text then comes out empty (A10).
        (#"{"to":"t","notification":{"body_loc_key":"im_loc_encrypted"}}"#, true),
        (#"{"to":"t","notification":{"title_loc_key":"im_loc_joinRoom","title_loc_args":["Ali"]}}"#, true),
        (#"{"message":{"token":"t","android":{"notification":{"title":"Android only"}}}}"#, true),
    ])
    func A11_withoutTitleOrBodyAPushIsSilent(push: String, shown: Bool) {
        let state = center(push).state
        #expect("shown=\(state.shown) silent=\(state.silent) items=\(state.items.count)" == (shown ? "shown=1 silent=0 items=1" : "shown=0 silent=1 items=0"))
    }

    /// SPEC A12 says collapse_key does not replace what is on screen, but seed 001 says "Android 的
    /// collapseKey 用于同类型消息合并显示" (merges same-type messages on display), and SPEC's own rule is
    /// that the seed wins where they disagree. node-gcm camelCase and FCM v1 android.collapse_key alike.
    @Test func A12_seed001_collapseKeyMergesSameTypeMessagesOnAndroid() {
        let session = Self.session([
            #"{"to":"t","collapse_key":"score","notification":{"title":"Score","body":"1-0"}}"#,
            #"{"to":"t","collapseKey":"score","notification":{"title":"Score","body":"2-0"}}"#,
            #"{"message":{"token":"t","notification":{"title":"Score","body":"3-0"},"android":{"collapse_key":"score"}}}"#,
            #"{"to":"t","collapse_key":"news","notification":{"title":"News","body":"n"}}"#,
        ])
        let items = center(session).state.items
        #expect(items.map { "\($0.key) \($0.lines.map(\.text)) total \($0.total)" } == ["news [\"n\"] total 1", "score [\"3-0\"] total 3"])
    }

    @Test func A12_aTagWinsOverTheCollapseKey() {
        let session = Self.session([
            #"{"to":"t","collapse_key":"score","notification":{"title":"Score","body":"1-0","tag":"a"}}"#,
            #"{"to":"t","collapse_key":"score","notification":{"title":"Score","body":"2-0","tag":"b"}}"#,
        ])
        #expect(center(session).state.items.map(\.key) == ["b", "a"])
    }

    @Test func A13_theBadgeIsSetByNotificationBadgeOrNotificationCount() {
        let steps: [(String, Int)] = [
            (#"{"to":"t","notification":{"title":"T","body":"B"}}"#, 0),
            (#"{"to":"t","notification":{"title":"T","body":"B","badge":3}}"#, 3),
            (#"{"to":"t","notification":{"title":"T","body":"B"}}"#, 3),
            (#"{"to":"t","notification":{"title":"T","body":"B","badge":"5"}}"#, 5),
            // Seed 001: a silent push may carry the unread count.
            (#"{"to":"t","notification":{"badge":2},"data":{"unread":"2"}}"#, 2),
            (#"{"message":{"token":"t","notification":{"title":"T","body":"B"},"android":{"notification":{"notification_count":9}}}}"#, 9),
            (#"{"to":"t","notification":{"title":"T","body":"B","badge":0}}"#, 0),
        ]
        var session: [String] = []
        var badges: [Int] = []
        for (push, _) in steps {
            session.append(push)
            badges.append(center(Self.session(session)).state.badge)
        }
        #expect(badges == steps.map(\.1))
    }
}
