import Foundation
import Testing
@testable import ShadeCore

/// Whole-state tests over every top-level file of Samples/: what `shade state --platform all` holds
/// for each seed scenario (the digest drops nulls; StateJSONTests checks they are written).
struct SamplesStateTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    static func state(of name: String) throws -> String {
        let url = samples.appendingPathComponent(name)
        let bytes = Array(try Data(contentsOf: url))
        var intake = Intake()
        var centers = everyPlatform.map { Center(profile: $0) }
        let path = "Samples/" + name
        let outcomes = name.hasSuffix(".jsonl") ? intake.lines(bytes, source: path) : intake.document(bytes, source: path)
        for outcome in outcomes { for i in centers.indices { centers[i].apply(outcome) } }
        return digest(centers)
    }

    @Test(arguments: [
        ("demo.jsonl", #"""
android received=22 shown=5 silent=1 calls=0 rejected=1 elsewhere=7 badge=0
Conversations
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"},{"sender":"@ali","senderId":"user_ali","text":"I can pick it up tonight"},{"sender":"@ali","senderId":"user_ali","text":"Does 7 work for you?"},{"sender":"@ali","senderId":"user_ali","text":"See you then 👍"}],"total":4,"at":"2026-11-30T10:15:55.000Z"}
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4,"at":"2026-11-30T10:15:45.000Z"}
  {"kind":"conversation","key":"dm_ali_fa","app":"app","title":"علی","isGroup":false,"avatar":{"initials":"ع","color":7},"lines":[{"sender":"علی","senderId":"user_ali_fa","text":"سلام! دوچرخه هنوز هست؟"}],"total":1,"at":"2026-11-30T10:15:37.000Z"}
  {"kind":"conversation","key":"dm_wang","app":"app","title":"王小明","isGroup":false,"avatar":{"initials":"王","color":0},"lines":[{"sender":"王小明","senderId":"user_wang","text":"你好！周末有空吗？"}],"total":1,"at":"2026-11-30T10:15:20.000Z"}
Notifications
  {"kind":"plain","key":"order_1042","app":"app","title":"Order shipped","lines":[{"text":"Delivered to your door"}],"total":3,"at":"2026-11-30T10:15:48.000Z"}
errors
  Samples/demo.jsonl:15 unknown payload shape (top-level keys "notification_title"): tried D1 envelope ("payload"), D2 FCM v1 ("message"), D3 send-to-user ("userId"), D4 APNs ("aps"), D5 Expo ("to": "ExponentPushToken[…]"), D6 web push ("web_push": 8030 or "title" + "options"), D7 FCM legacy ("to", "notification", …), D8 data-only ("data" object)

ios received=22 shown=12 silent=1 calls=1 rejected=1 elsewhere=5 badge=2
Notification Center
  {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"Full time: 2 – 1"}],"total":3,"level":"time-sensitive","at":"2026-11-30T10:15:58.000Z"}
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"},{"sender":"@ali","senderId":"user_ali","text":"I can pick it up tonight"},{"sender":"@ali","senderId":"user_ali","text":"Does 7 work for you?"},{"sender":"@ali","senderId":"user_ali","text":"See you then 👍"}],"total":4,"at":"2026-11-30T10:15:55.000Z"}
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","subtitle":"Maman","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4,"at":"2026-11-30T10:15:45.000Z"}
  {"kind":"conversation","key":"dm_ali_fa","app":"app","title":"علی","isGroup":false,"avatar":{"initials":"ع","color":7},"lines":[{"sender":"علی","senderId":"user_ali_fa","text":"سلام! دوچرخه هنوز هست؟"}],"total":1,"at":"2026-11-30T10:15:37.000Z"}
  {"kind":"plain","key":"com.example.imkit","app":"com.example.imkit","lines":[{"text":"Alice sent a photo"}],"total":1,"at":"2026-11-30T10:15:23.000Z"}
  {"kind":"conversation","key":"dm_wang","app":"app","title":"王小明","isGroup":false,"avatar":{"initials":"王","color":0},"lines":[{"sender":"王小明","senderId":"user_wang","text":"你好！周末有空吗？"}],"total":1,"at":"2026-11-30T10:15:20.000Z"}
Calls
  {"kind":"call","key":"6a1f0c2e-call","app":"com.example.imkit","title":"Alice","avatar":{"initials":"A","color":7},"lines":[{"text":"Incoming call"}],"total":1,"at":"2026-11-30T10:15:31.000Z"}
errors
  Samples/demo.jsonl:15 unknown payload shape (top-level keys "notification_title"): tried D1 envelope ("payload"), D2 FCM v1 ("message"), D3 send-to-user ("userId"), D4 APNs ("aps"), D5 Expo ("to": "ExponentPushToken[…]"), D6 web push ("web_push": 8030 or "title" + "options"), D7 FCM legacy ("to", "notification", …), D8 data-only ("data" object)

web received=22 shown=5 silent=0 calls=0 rejected=1 elsewhere=10 badge=0
Notifications
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"},{"sender":"@ali","senderId":"user_ali","text":"I can pick it up tonight"},{"sender":"@ali","senderId":"user_ali","text":"Does 7 work for you?"},{"sender":"@ali","senderId":"user_ali","text":"See you then 👍"}],"total":4,"at":"2026-11-30T10:15:55.000Z"}
  {"kind":"plain","key":"comments","app":"app","title":"New comment","lines":[{"text":"Sara replied to your post"}],"total":1,"at":"2026-11-30T10:15:50.000Z"}
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4,"at":"2026-11-30T10:15:45.000Z"}
  {"kind":"conversation","key":"dm_ali_fa","app":"app","title":"علی","isGroup":false,"avatar":{"initials":"ع","color":7},"lines":[{"sender":"علی","senderId":"user_ali_fa","text":"سلام! دوچرخه هنوز هست؟"}],"total":1,"at":"2026-11-30T10:15:37.000Z"}
  {"kind":"conversation","key":"dm_wang","app":"app","title":"王小明","isGroup":false,"avatar":{"initials":"王","color":0},"lines":[{"sender":"王小明","senderId":"user_wang","text":"你好！周末有空吗？"}],"total":1,"at":"2026-11-30T10:15:20.000Z"}
errors
  Samples/demo.jsonl:15 unknown payload shape (top-level keys "notification_title"): tried D1 envelope ("payload"), D2 FCM v1 ("message"), D3 send-to-user ("userId"), D4 APNs ("aps"), D5 Expo ("to": "ExponentPushToken[…]"), D6 web push ("web_push": 8030 or "title" + "options"), D7 FCM legacy ("to", "notification", …), D8 data-only ("data" object)
"""#),
        ("replace-by-collapse-id.jsonl", #"""
android received=3 shown=0 silent=0 calls=0 rejected=0 elsewhere=3 badge=0

ios received=3 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"Full time: 2 – 1"}],"total":3,"at":"2026-11-30T10:40:00.000Z"}

web received=3 shown=0 silent=0 calls=0 rejected=0 elsewhere=3 badge=0
"""#),
        ("replace-by-tag.jsonl", #"""
android received=3 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"plain","key":"parcel_77","app":"app","title":"Delivery","lines":[{"text":"Delivered to your door"}],"total":3}

ios received=3 shown=0 silent=0 calls=0 rejected=0 elsewhere=3 badge=0

web received=3 shown=0 silent=0 calls=0 rejected=0 elsewhere=3 badge=0
"""#),
        ("seed000-group-conversation.jsonl", #"""
android received=4 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Conversations
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4}

ios received=4 shown=4 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","subtitle":"Maman","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4}

web received=4 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4}
"""#),
        ("seed000-plain-no-conversation.json", #"""
android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"plain","key":"n1","app":"app","title":"Order shipped","lines":[{"text":"Your order #1042 is on the way"}],"total":1}

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"app","app":"app","title":"Order shipped","lines":[{"text":"Your order #1042 is on the way"}],"total":1}

web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"plain","key":"n1","app":"app","title":"Order shipped","lines":[{"text":"Your order #1042 is on the way"}],"total":1}
"""#),
        ("seed000-same-name-two-senders.jsonl", #"""
android received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Conversations
  {"kind":"conversation","key":"room_alis","app":"app","title":"Two Alis","isGroup":true,"avatar":{"initials":"A","color":3},"lines":[{"sender":"Ali","senderId":"ali_tehran","text":"Hi from Ali in Tehran"},{"sender":"Ali","senderId":"ali_shiraz","text":"Hi from Ali in Shiraz"}],"total":2}

ios received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"conversation","key":"room_alis","app":"app","title":"Two Alis","subtitle":"Ali","isGroup":true,"avatar":{"initials":"A","color":3},"lines":[{"sender":"Ali","senderId":"ali_tehran","text":"Hi from Ali in Tehran"},{"sender":"Ali","senderId":"ali_shiraz","text":"Hi from Ali in Shiraz"}],"total":2}

web received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"conversation","key":"room_alis","app":"app","title":"Two Alis","isGroup":true,"avatar":{"initials":"A","color":3},"lines":[{"sender":"Ali","senderId":"ali_tehran","text":"Hi from Ali in Tehran"},{"sender":"Ali","senderId":"ali_shiraz","text":"Hi from Ali in Shiraz"}],"total":2}
"""#),
        ("seed000-send-to-user.json", #"""
android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Conversations
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1}

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1}

web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1}
"""#),
        ("seed001-im-apns-loc.apns", #"""
android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"com.example.imkit","app":"com.example.imkit","lines":[{"text":"Alice: How do you do?"}],"total":1}

web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
"""#),
        ("seed001-im-fcm-loc.json", #"""
android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
Notifications
  {"kind":"plain","key":"chatroom_9","app":"app","lines":[{"text":"Alice sent a photo"}],"total":1}

ios received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
"""#),
        ("seed001-silent-data-only.json", #"""
android received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0

ios received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
"""#),
        ("seed001-voip-call.jsonl", #"""
android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

ios received=1 shown=0 silent=0 calls=1 rejected=0 elsewhere=0 badge=0
Calls
  {"kind":"call","key":"6a1f0c2e-call","app":"com.example.imkit","title":"Alice","avatar":{"initials":"A","color":7},"lines":[{"text":"Incoming call"}],"total":1,"at":"2026-11-30T10:15:00.000Z"}

web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
"""#),
        // A recorded Web Push session (pywebpush → shade listen): decrypted, it replays without keys, on the web only.
        ("webpush-session.jsonl", #"""
android received=5 shown=0 silent=0 calls=0 rejected=0 elsewhere=5 badge=0

ios received=5 shown=0 silent=0 calls=0 rejected=0 elsewhere=5 badge=0

web received=5 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"plain","key":"order-1042","app":"app","title":"Order delivered","lines":[{"text":"Delivered to your door"}],"total":2,"at":"2026-12-01T09:20:06.363Z"}
  {"kind":"plain","key":"n4","app":"app","lines":[{"text":"Your verification code is 482913"}],"total":1,"at":"2026-12-01T09:20:04.860Z"}
  {"kind":"conversation","key":"room_42","app":"app","title":"Ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"Ali","senderId":"user_ali","text":"Is the bike still available?"},{"sender":"Ali","senderId":"user_ali","text":"I can pick it up tonight"}],"total":2,"at":"2026-12-01T09:20:01.852Z"}
"""#),
    ])
    func sampleGivesItsWholeState(name: String, expected: String) throws {
        #expect(try Self.state(of: name) == expected)
    }
}
