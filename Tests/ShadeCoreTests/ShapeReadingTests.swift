import Testing
@testable import ShadeCore

/// SPEC §1, the additions of wave 2: the Firebase Admin SDK's spellings, Expo's iOS-only keys, FCM
/// legacy reaching iOS through APNs, and D9 Pusher Beams. Each row is one push and the whole state
/// of one platform after it.
struct ShapeReadingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var platform: Platform
        var expected: String
        init(_ name: String, _ json: String, _ platform: Platform, _ expected: String) {
            self.name = name
            self.json = json
            self.platform = platform
            self.expected = expected
        }
        var testDescription: String { name }
    }

    static func state(_ row: Row) -> String { digest(center(row.json, Profile(platform: row.platform))) }

    /// mutableContent → mutable-content, contentAvailable → content-available (true → 1), threadId →
    /// thread-id, Android's imageUrl, clickAction, notificationCount, collapseKey, … in FCM v1 blocks
    /// and in APNs payloads.
    static let adminSpellings: [Row] = [
        Row("aps.mutableContent true is mutable-content: 1", #"{"message":{"token":"t","apns":{"payload":{"aps":{"alert":"hi","mutableContent":true}}}}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","lines":[{"text":"hi"}],"total":1,"mutableContent":true}
            """#),
        Row("aps.contentAvailable true is content-available: 1", #"{"message":{"token":"t","apns":{"payload":{"aps":{"contentAvailable":true}}}}}"#, .ios, #"""
            ios received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0
            """#),
        Row("aps.threadId is thread-id", #"{"message":{"token":"t","apns":{"payload":{"aps":{"alert":"hi","threadId":"t1"}}}}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"t1","app":"app","lines":[{"text":"hi"}],"total":1}
            """#),
        Row("the wire spelling wins over the Admin one", #"{"message":{"token":"t","apns":{"payload":{"aps":{"alert":"hi","thread-id":"wire","threadId":"admin"}}}}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"wire","app":"app","lines":[{"text":"hi"}],"total":1}
            """#),
        Row("aps.mutableContent false is left out", #"{"message":{"token":"t","apns":{"payload":{"aps":{"alert":"hi","mutableContent":false}}}}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","lines":[{"text":"hi"}],"total":1}
            """#),
        Row("apns.fcmOptions.imageUrl is the iOS picture", #"{"message":{"token":"t","notification":{"title":"t","body":"b"},"apns":{"fcmOptions":{"imageUrl":"https://a.example/i.png"}}}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://a.example/i.png"}
            """#),
        Row("an APNs payload's alert.locKey and locArgs", #"{"aps":{"alert":{"locKey":"im_loc_text","locArgs":["Alice","hi"]},"mutableContent":true}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","lines":[{"text":"Alice: hi"}],"total":1,"mutableContent":true}
            """#),
        Row("android.notification imageUrl, clickAction, notificationCount", #"{"message":{"token":"t","android":{"notification":{"title":"t","body":"b","imageUrl":"https://a.example/i.png","clickAction":"OPEN","notificationCount":3}}}}"#, .android, #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=3
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://a.example/i.png","category":"OPEN"}
            """#),
        Row("android.collapseKey and restrictedPackageName", #"{"message":{"token":"t","notification":{"title":"t","body":"b"},"android":{"collapseKey":"k1","restrictedPackageName":"com.example.app"}}}"#, .android, #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"k1","app":"com.example.app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("notification.imageUrl on Android", #"{"message":{"token":"t","notification":{"title":"t","body":"b","imageUrl":"https://a.example/i.png"}}}"#, .android, #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://a.example/i.png"}
            """#),
        Row("notification.imageUrl on the web", #"{"message":{"token":"t","notification":{"title":"t","body":"b","imageUrl":"https://a.example/i.png"}}}"#, .web, #"""
            web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://a.example/i.png"}
            """#),
    ]

    @Test(arguments: adminSpellings)
    func spec1_adminSDKSpellingsAreReadAsTheWireSendsThem(_ row: Row) {
        #expect(Self.state(row) == row.expected)
    }

    /// Expo's docs: badge, sound and subtitle are iOS-only; the Android badge stays as it was.
    static let expoIOSOnly: [Row] = [
        Row("badge on android", #"{"to":"ExponentPushToken[x]","title":"t","body":"b","badge":3}"#, .android, #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("subtitle and a critical sound on android", #"{"to":"ExponentPushToken[x]","title":"t","body":"b","subtitle":"s","sound":{"critical":true,"name":"a.caf"}}"#, .android, #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("mutableContent, richContent.image and categoryId on android", #"{"to":"ExponentPushToken[x]","title":"t","body":"b","mutableContent":true,"richContent":{"image":"https://a.example/i.png"},"categoryId":"REPLY"}"#, .android, #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://a.example/i.png","category":"REPLY"}
            """#),
        Row("badge on ios", #"{"to":"ExponentPushToken[x]","title":"t","body":"b","badge":3}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=3
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("subtitle and a critical sound on ios", #"{"to":"ExponentPushToken[x]","title":"t","body":"b","subtitle":"s","sound":{"critical":true,"name":"a.caf"}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","subtitle":"s","lines":[{"text":"b"}],"total":1,"level":"critical"}
            """#),
        Row("mutableContent, richContent.image and categoryId on ios", #"{"to":"ExponentPushToken[x]","title":"t","body":"b","mutableContent":true,"richContent":{"image":"https://a.example/i.png"},"categoryId":"REPLY"}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://a.example/i.png","category":"REPLY","mutableContent":true}
            """#),
    ]

    @Test(arguments: expoIOSOnly)
    func spec1_D5_expoBadgeSoundAndSubtitleAreIOSOnly(_ row: Row) {
        #expect(Self.state(row) == row.expected)
    }

    /// FCM legacy requests reach iOS tokens through APNs: notification.title/body/badge/sound,
    /// content_available and mutable_content read as their APNs counterparts; neither a notification
    /// nor content_available: elsewhere.
    static let legacyOnIOS: [Row] = [
        Row("notification title, body, badge, sound", #"{"to":"t","notification":{"title":"t","body":"b","badge":"2","sound":"default"}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=2
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("subtitle and click_action as the category", #"{"to":"t","notification":{"title":"t","subtitle":"s","body":"b","click_action":"OPEN"}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","subtitle":"s","lines":[{"text":"b"}],"total":1,"category":"OPEN"}
            """#),
        Row("mutable_content", #"{"to":"t","mutable_content":true,"notification":{"title":"t","body":"b"}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"mutableContent":true}
            """#),
        Row("content_available without a notification: a background push", #"{"to":"t","content_available":true,"data":{"sync":"1"}}"#, .ios, #"""
            ios received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0
            """#),
        Row("neither notification nor content_available: elsewhere", #"{"to":"t","data":{"sync":"1"}}"#, .ios, #"""
            ios received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
            """#),
        Row("data is the custom keys beside aps: a conversation", #"{"to":"t","notification":{"title":"@ali","body":"hi"},"data":{"conversationId":"room_42","senderName":"@ali","senderId":"user_ali"}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"hi"}],"total":1}
            """#),
        Row("body_loc_key and body_loc_args as loc-key and loc-args", #"{"to":"t","notification":{"body_loc_key":"im_loc_text","body_loc_args":"[\"Alice\",\"hi\"]"}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","lines":[{"text":"Alice: hi"}],"total":1}
            """#),
        Row("the tag is Android's", #"{"to":"t","notification":{"title":"t","body":"b","tag":"x"}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("node-gcm's contentAvailable", #"{"to":"t","contentAvailable":true,"data":{"sync":"1"}}"#, .ios, #"""
            ios received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0
            """#),
    ]

    @Test(arguments: legacyOnIOS)
    func spec1_D7_fcmLegacyReachesIOSThroughAPNs(_ row: Row) {
        #expect(Self.state(row) == row.expected)
    }

    /// The payload FCM hands APNs for a legacy message, which the APNs reading reads (and I9 measures),
    /// is the compact text of the tree FCM makes: written here as that tree, member by member.
    static let legacyMessages: [String] = [
        #"{"to":"t","notification":{"title":"t","body":"b","badge":"2","sound":"default"}}"#,
        #"{"to":"t","notification":{"title":"t","subtitle":"s","body":"b","click_action":"OPEN","tag":"x"}}"#,
        #"{"to":"t","mutable_content":true,"content_available":1,"notification":{"body":"b","sound":{"critical":1,"name":"a.caf"}}}"#,
        #"{"to":"t","content_available":true,"data":{"sync":"1"}}"#,
        #"{"to":"t","notification":{"body_loc_key":"k","body_loc_args":"[\"Alice\",2]","title_loc_key":"tk","title_loc_args":["x",{"y":1}]}}"#,
        #"{"to":"t","notification":{"title":"a \"quoted\" \u00e9 \\ title","body":12.50,"badge":7,"sound":null}}"#,
        #"{"to":"t","notification":{"title":"first","title":"second","body":"b"}}"#,
        #"{"to":"t","notification":{}}"#,
    ]

    @Test(arguments: legacyMessages)
    func spec1_D7_theAPNsPayloadOfALegacyMessageIsTheCompactTreeFCMMakes(_ json: String) throws {
        let store = PayloadStore.make(try JSONParser.parse(json))
        let (written, tree) = store.withRoot { root -> ([UInt8], JSON) in
            let message = PayloadValue.view(root)
            let notification = ShapeReader.object(message["notification"])
            let contentAvailable = ShapeReader.legacyContentAvailable(message)
            let mutable = message["mutable_content"]?.bool == true || message["mutable_content"]?.int == 1
            var aps = JSONObject()
            if let notification {
                var alert = JSONObject()
                for (legacy, apns, _) in ShapeReader.legacyAlertKeys {
                    let apnsKey = apns.description
                    guard let value = notification[legacy] else { continue }
                    alert[apnsKey] = legacy.hasSuffix("_args") && value.isString
                        ? .array(ShapeReader.locArgs(value).map(JSON.string)) : value.json
                }
                if !alert.isEmpty { aps["alert"] = .object(alert) }
                if let badge = notification["badge"]?.int { aps["badge"] = .number(String(badge)) }
                if let sound = notification["sound"] { aps["sound"] = sound.json }
                if let action = notification["click_action"] { aps["category"] = action.json }
            }
            if contentAvailable { aps["content-available"] = .number("1") }
            if mutable { aps["mutable-content"] = .number("1") }
            return (ShapeReader.legacyAPNsPayload(notification, contentAvailable: contentAvailable, mutable: mutable),
                    .object(JSONObject(["aps": .object(aps)])))
        }
        #expect(String(decoding: written, as: UTF8.self) == JSONWriter.compact(tree))
        #expect(written.count == JSONWriter.compactSize(tree))
    }

    /// Each block is that platform's payload: apns as D4, fcm as D7 on Android only, web.notification as D6.
    static let pusherBeams: [Row] = [
        Row("an apns block only: iOS", #"{"interests":["a"],"apns":{"aps":{"alert":{"title":"t","body":"b"},"badge":1}}}"#, .ios, #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("an apns block only: Android has none", #"{"interests":["a"],"apns":{"aps":{"alert":{"title":"t","body":"b"}}}}"#, .android, #"""
            android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
            """#),
        Row("the fcm block is FCM legacy on Android", #"{"users":["u1"],"fcm":{"notification":{"title":"t","body":"b","tag":"x"},"data":{"conversationId":"r1","senderName":"Sara"}}}"#, .android, #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"r1","app":"app","title":"Sara","isGroup":false,"avatar":{"initials":"S","color":0},"lines":[{"sender":"Sara","senderId":"Sara","text":"b"}],"total":1}
            """#),
        Row("web.notification on the web", #"{"interests":["a"],"web":{"notification":{"title":"t","body":"b","icon":"https://a.example/i.png","deep_link":"https://a.example"},"data":{"k":"v"}}}"#, .web, #"""
            web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1}
            """#),
        Row("a web block without a notification is data for the service worker", #"{"interests":["a"],"web":{"data":{"k":"v"}}}"#, .web, #"""
            web received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0
            """#),
        Row("the fcm block reaches Android only", #"{"interests":["a"],"fcm":{"notification":{"title":"t","body":"b"}}}"#, .ios, #"""
            ios received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
            """#),

    ]

    @Test(arguments: pusherBeams)
    func D9_pusherBeamsBlocksArePlatformPayloads(_ row: Row) {
        #expect(Self.state(row) == row.expected)
    }

    @Test func D9_theTraceNamesTheBlockRead() throws {
        let row = #"{"interests":["a"],"apns":{"aps":{"alert":"hi"}}}"#
        let item = try #require(center(row, Profile(platform: .ios)).state.items.first)
        #expect(item.trace.prefix(2).map(\.description) == [
            "[D9] Pusher Beams publish request: the apns block is the iOS payload",
            "[D4] read as an APNs payload at $.apns",
        ])
    }

    @Test func spec1_theTraceNamesTheOtherSpellingsRead() throws {
        let row = #"{"message":{"token":"t","apns":{"payload":{"aps":{"alert":"hi","threadId":"t1","mutableContent":true}}}}}"#
        let item = try #require(center(row, Profile(platform: .ios)).state.items.first)
        #expect(item.trace.map(\.description).contains(
            "[D4] $.message.apns.payload.aps: the Firebase Admin SDK's spellings read as the wire sends them: threadId → thread-id, mutableContent → mutable-content"))
    }
}
