import Testing
@testable import ShadeCore

/// SPEC §4, I10–I13: critical sounds, mutable content, categories and images, and interruption
/// levels on iOS before 15. Each row is its pushes and the whole state of one profile after them.
struct AlertMarkTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var ndjson: String
        var profile: Profile
        var expected: String
        init(_ name: String, _ ndjson: String, _ profile: Profile, _ expected: String) {
            self.name = name
            self.ndjson = ndjson
            self.profile = profile
            self.expected = expected
        }
        var testDescription: String { name }
    }

    static let criticalSounds: [Row] = [
        Row("critical: 1 is critical", #"{"aps":{"alert":{"title":"Leak","body":"Water detected"},"sound":{"critical":1,"name":"siren.caf","volume":1.0}}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Leak","lines":[{"text":"Water detected"}],"total":1,"level":"critical"}
            """#),
        Row("on iOS 12 too (before interruption levels)", #"{"aps":{"alert":{"title":"Leak","body":"Water detected"},"sound":{"critical":1}}}"#, Profile(platform: .ios, osVersion: Version(12)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Leak","lines":[{"text":"Water detected"}],"total":1,"level":"critical"}
            """#),
        Row("it wins over an interruption level", #"{"aps":{"alert":{"title":"Leak","body":"Water detected"},"sound":{"critical":1},"interruption-level":"passive"}}"#, Profile(platform: .ios, osVersion: Version(15)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Leak","lines":[{"text":"Water detected"}],"total":1,"level":"critical"}
            """#),
        Row("the Admin SDK's critical: true in FCM v1", #"{"message":{"token":"t","apns":{"payload":{"aps":{"alert":"Leak","sound":{"critical":true}}}}}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","lines":[{"text":"Leak"}],"total":1,"level":"critical"}
            """#),
        Row("critical: 0 is an ordinary sound", #"{"aps":{"alert":{"title":"Leak","body":"Water detected"},"sound":{"critical":0,"name":"a.caf"}}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Leak","lines":[{"text":"Water detected"}],"total":1}
            """#),
    ]

    @Test(arguments: criticalSounds)
    func I10_aCriticalSoundIsMarkedCriticalOnIOS12AndLater(_ row: Row) {
        #expect(digest(center(row.ndjson, row.profile)) == row.expected)
    }

    static let levelsBefore15: [Row] = [
        Row("time-sensitive is ignored on iOS 14", #"{"aps":{"alert":{"title":"Match","body":"Goal"},"interruption-level":"time-sensitive"}}"#, Profile(platform: .ios, osVersion: Version(14)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Match","lines":[{"text":"Goal"}],"total":1}
            """#),
        Row("and marked from iOS 15", #"{"aps":{"alert":{"title":"Match","body":"Goal"},"interruption-level":"time-sensitive"}}"#, Profile(platform: .ios, osVersion: Version(15)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Match","lines":[{"text":"Goal"}],"total":1,"level":"time-sensitive"}
            """#),
        Row("critical as a level is ignored on iOS 14", #"{"aps":{"alert":{"title":"Leak","body":"Water"},"interruption-level":"critical"}}"#, Profile(platform: .ios, osVersion: Version(14)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Leak","lines":[{"text":"Water"}],"total":1}
            """#),
        Row("passive is ignored on iOS 12", #"{"aps":{"alert":{"title":"News","body":"Digest"},"interruption-level":"passive"}}"#, Profile(platform: .ios, osVersion: Version(12)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"News","lines":[{"text":"Digest"}],"total":1}
            """#),
    ]

    @Test(arguments: levelsBefore15)
    func I13_interruptionLevelIsIgnoredBeforeIOS15(_ row: Row) {
        #expect(digest(center(row.ndjson, row.profile)) == row.expected)
    }

    static let mutableContent: [Row] = [
        Row("mutable-content: 1 marks the item", #"{"aps":{"alert":{"title":"New message","body":"APN_Message"},"mutable-content":1}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"New message","lines":[{"text":"APN_Message"}],"total":1,"mutableContent":true}
            """#),
        Row("mutable-content: 0 does not", #"{"aps":{"alert":{"title":"New message","body":"Hi"},"mutable-content":0}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"New message","lines":[{"text":"Hi"}],"total":1}
            """#),
        Row("a stack carries its newest notification's (newest not mutable)", #"{"aps":{"alert":{"title":"A","body":"one"},"mutable-content":1,"thread-id":"t"}}"# + "\n" + #"{"aps":{"alert":{"title":"B","body":"two"},"thread-id":"t"}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"t","app":"app","title":"B","lines":[{"text":"one"},{"text":"two"}],"total":2}
            """#),
        Row("a stack carries its newest notification's (newest mutable)", #"{"aps":{"alert":{"title":"A","body":"one"},"thread-id":"t"}}"# + "\n" + #"{"aps":{"alert":{"title":"B","body":"two"},"mutable-content":1,"thread-id":"t"}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"t","app":"app","title":"B","lines":[{"text":"one"},{"text":"two"}],"total":2,"mutableContent":true}
            """#),
    ]

    @Test(arguments: mutableContent)
    func I11_mutableContentMarksTheItem(_ row: Row) {
        #expect(digest(center(row.ndjson, row.profile)) == row.expected)
    }

    static let categoriesAndImages: [Row] = [
        Row("top-level image with mutable-content", #"{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"},"mutable-content":1},"image":"https://cdn.example.com/image.jpg"}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Price drop","lines":[{"text":"Now 180 €"}],"total":1,"image":"https://cdn.example.com/image.jpg","mutableContent":true}
            """#),
        Row("top-level imageUrl with mutable-content", #"{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"},"mutable-content":1},"imageUrl":"https://cdn.example.com/imageUrl.jpg"}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Price drop","lines":[{"text":"Now 180 €"}],"total":1,"image":"https://cdn.example.com/imageUrl.jpg","mutableContent":true}
            """#),
        Row("top-level image_url with mutable-content", #"{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"},"mutable-content":1},"image_url":"https://cdn.example.com/image-url.jpg"}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Price drop","lines":[{"text":"Now 180 €"}],"total":1,"image":"https://cdn.example.com/image-url.jpg","mutableContent":true}
            """#),
        Row("top-level attachment-url with mutable-content", #"{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"},"mutable-content":1},"attachment-url":"https://cdn.example.com/attachment-url.jpg"}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Price drop","lines":[{"text":"Now 180 €"}],"total":1,"image":"https://cdn.example.com/attachment-url.jpg","mutableContent":true}
            """#),
        Row("attachment.url with mutable-content", #"{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"},"mutable-content":1},"attachment":{"url":"https://cdn.example.com/attachment.jpg","type":"image"}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Price drop","lines":[{"text":"Now 180 €"}],"total":1,"image":"https://cdn.example.com/attachment.jpg","mutableContent":true}
            """#),
        Row("without mutable-content no extension fetches it", #"{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"}},"imageUrl":"https://cdn.example.com/x.jpg"}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Price drop","lines":[{"text":"Now 180 €"}],"total":1}
            """#),
        Row("the category the app registered", #"{"aps":{"alert":{"title":"Invite","body":"Join us?"},"category":"INVITE"}}"#, Profile(platform: .ios, osVersion: Version(17)), #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Invite","lines":[{"text":"Join us?"}],"total":1,"category":"INVITE"}
            """#),
        Row("a conversation carries its newest notification's", #"{"userId":"u","title":"@ali","body":"photo","image":"https://cdn.example.com/p.jpg","data":{"conversationId":"r1","senderName":"@ali"}}"# + "\n" + #"{"userId":"u","title":"@ali","body":"text","data":{"conversationId":"r1","senderName":"@ali"}}"#, Profile(platform: .android), #"""
            android received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Conversations
              {"kind":"conversation","key":"r1","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"@ali","text":"photo"},{"sender":"@ali","senderId":"@ali","text":"text"}],"total":2}
            """#),
        Row("Android's click_action is the category", #"{"to":"t","notification":{"title":"t","body":"b","click_action":"OPEN_ORDER","image":"https://cdn.example.com/o.jpg"}}"#, Profile(platform: .android), #"""
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://cdn.example.com/o.jpg","category":"OPEN_ORDER"}
            """#),
        Row("the web has actions instead", #"{"title":"t","options":{"body":"b","image":"https://cdn.example.com/w.jpg","actions":[{"action":"a","title":"Open"}]}}"#, Profile(platform: .web), #"""
            web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"t","lines":[{"text":"b"}],"total":1,"image":"https://cdn.example.com/w.jpg"}
            """#),
    ]

    @Test(arguments: categoriesAndImages)
    func I12_theCategoryAndThePictureAreCarried(_ row: Row) {
        #expect(digest(center(row.ndjson, row.profile)) == row.expected)
    }

    /// The trace says which rule marked what, in words.
    @Test(arguments: [
        (#"{"aps":{"alert":"Leak","sound":{"critical":1}}}"#, 17,
         "[I10] sound with critical: 1: a critical alert, marked critical (it plays even when muted; the app needs Apple's critical-alerts entitlement)"),
        (#"{"aps":{"alert":"Goal","interruption-level":"time-sensitive"}}"#, 14,
         "[I13] interruption-level time-sensitive is ignored: iOS 14 is older than 15, which brought interruption levels"),
        (#"{"aps":{"alert":"Goal","interruption-level":"time-sensitive"}}"#, 15, "[I8] interruption-level time-sensitive: marked"),
        (#"{"aps":{"alert":"APN_Message","mutable-content":1}}"#, 17,
         "[I11] mutable-content: 1: the app's Notification Service Extension may rewrite the title and body before they are shown; Shade shows them as the payload has them"),
        (#"{"aps":{"alert":"Join us?","category":"INVITE"}}"#, 17,
         "[I12] category INVITE: the action buttons the app registered for it are offered (Shade cannot know their titles)"),
        (#"{"aps":{"alert":"Sale","mutable-content":1},"image":"https://cdn.example.com/a.jpg"}"#, 17,
         "[I12] image https://cdn.example.com/a.jpg: the picture the notification shows"),
    ])
    func I10toI13_theTraceSaysWhy(json: String, version: Int, step: String) throws {
        let item = try #require(center(json, Profile(platform: .ios, osVersion: Version(version))).state.items.first)
        #expect(item.trace.map(\.description).contains(step))
    }

    @Test func I12_androidsClickActionIsTheActivityATapOpens() throws {
        let item = try #require(center(#"{"to":"t","notification":{"title":"t","body":"b","click_action":"OPEN"}}"#).state.items.first)
        #expect(item.trace.map(\.description).contains("[I12] click_action OPEN: the activity a tap opens, carried as the category"))
    }
}
