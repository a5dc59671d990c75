import Foundation
import Testing
@testable import ShadeCore

/// Whole-state tests over every top-level file of Samples/: what `shade state --platform all` holds
/// for each seed scenario (the digest drops nulls; StateJSONTests checks they are written).
struct SamplesStateTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// Every top-level sample file that holds pushes, sorted.
    static let pushFiles = try! FileManager.default.contentsOfDirectory(atPath: samples.path)
        .filter { [".json", ".jsonl", ".apns"].contains(where: $0.hasSuffix) }.sorted()

    /// A sample's outcomes, read as `shade state` reads the file (`source` names them).
    static func outcomes(of name: String, source: String? = nil) throws -> [Intake.Outcome] {
        let bytes = Array(try Data(contentsOf: samples.appendingPathComponent(name)))
        var intake = Intake()
        let source = source ?? name
        return name.hasSuffix(".jsonl") ? intake.lines(bytes, source: source) : intake.document(bytes, source: source)
    }

    static func state(of name: String) throws -> String {
        var centers = everyPlatform.map { Center(profile: $0) }
        let outcomes = try outcomes(of: name, source: "Samples/" + name)
        for outcome in outcomes { for i in centers.indices { centers[i].apply(outcome) } }
        return digest(centers)
    }

    static let wholeStates: [(String, String)] = [
        ("category-and-image.apns", #"""
android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"com.example.listings","app":"com.example.listings","title":"Price drop","subtitle":"Vintage road bike","lines":[{"text":"Now 180 € (was 240 €)"}],"total":1,"image":"https://cdn.example.com/listings/4821/cover.jpg","category":"LISTING_OFFER","mutableContent":true}

web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
"""#),
        ("critical-sound.apns", #"""
android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"com.example.alarms","app":"com.example.alarms","title":"Water leak","lines":[{"text":"Basement sensor: water detected"}],"total":1,"level":"critical"}

web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
"""#),
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
  Samples/demo.jsonl:15 unknown payload shape (top-level keys "notification_title"): tried D1 envelope ("payload"), D2 FCM v1 ("message"), D3 send-to-user ("userId"), D4 APNs ("aps"), D5 Expo ("to": "ExponentPushToken[…]"), D6 web push ("web_push": 8030 or "title" + "options"), D7 FCM legacy ("to", "notification", …), D9 Pusher Beams ("interests" or "users" with "apns", "fcm" or "web"), D8 data-only ("data" object)

ios received=22 shown=15 silent=1 calls=1 rejected=1 elsewhere=2 badge=2
Notification Center
  {"kind":"plain","key":"com.example.scores","app":"com.example.scores","title":"Match 12","lines":[{"text":"Full time: 2 – 1"}],"total":3,"level":"time-sensitive","at":"2026-11-30T10:15:58.000Z"}
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"},{"sender":"@ali","senderId":"user_ali","text":"I can pick it up tonight"},{"sender":"@ali","senderId":"user_ali","text":"Does 7 work for you?"},{"sender":"@ali","senderId":"user_ali","text":"See you then 👍"}],"total":4,"at":"2026-11-30T10:15:55.000Z"}
  {"kind":"plain","key":"app","app":"app","title":"Order shipped","lines":[{"text":"Your order #1042 is on the way"},{"text":"Out for delivery: arriving by 6 pm"},{"text":"Delivered to your door"}],"total":3,"at":"2026-11-30T10:15:48.000Z"}
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","subtitle":"Maman","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4,"at":"2026-11-30T10:15:45.000Z"}
  {"kind":"conversation","key":"dm_ali_fa","app":"app","title":"علی","isGroup":false,"avatar":{"initials":"ع","color":7},"lines":[{"sender":"علی","senderId":"user_ali_fa","text":"سلام! دوچرخه هنوز هست؟"}],"total":1,"at":"2026-11-30T10:15:37.000Z"}
  {"kind":"plain","key":"com.example.imkit","app":"com.example.imkit","lines":[{"text":"Alice sent a photo"}],"total":1,"at":"2026-11-30T10:15:23.000Z"}
  {"kind":"conversation","key":"dm_wang","app":"app","title":"王小明","isGroup":false,"avatar":{"initials":"王","color":0},"lines":[{"sender":"王小明","senderId":"user_wang","text":"你好！周末有空吗？"}],"total":1,"at":"2026-11-30T10:15:20.000Z"}
Calls
  {"kind":"call","key":"6a1f0c2e-call","app":"com.example.imkit","title":"Alice","avatar":{"initials":"A","color":7},"lines":[{"text":"Incoming call"}],"total":1,"at":"2026-11-30T10:15:31.000Z"}
errors
  Samples/demo.jsonl:15 unknown payload shape (top-level keys "notification_title"): tried D1 envelope ("payload"), D2 FCM v1 ("message"), D3 send-to-user ("userId"), D4 APNs ("aps"), D5 Expo ("to": "ExponentPushToken[…]"), D6 web push ("web_push": 8030 or "title" + "options"), D7 FCM legacy ("to", "notification", …), D9 Pusher Beams ("interests" or "users" with "apns", "fcm" or "web"), D8 data-only ("data" object)

web received=22 shown=5 silent=0 calls=0 rejected=1 elsewhere=10 badge=0
Notifications
  {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/avatars/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"},{"sender":"@ali","senderId":"user_ali","text":"I can pick it up tonight"},{"sender":"@ali","senderId":"user_ali","text":"Does 7 work for you?"},{"sender":"@ali","senderId":"user_ali","text":"See you then 👍"}],"total":4,"at":"2026-11-30T10:15:55.000Z"}
  {"kind":"plain","key":"comments","app":"app","title":"New comment","lines":[{"text":"Sara replied to your post"}],"total":1,"at":"2026-11-30T10:15:50.000Z"}
  {"kind":"conversation","key":"family_7","app":"app","title":"Family","isGroup":true,"avatar":{"initials":"M","color":7},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"I'll bring dessert 🍰"},{"sender":"Sara","senderId":"user_sara","text":"And the kids?"},{"sender":"Maman","senderId":"user_maman","text":"Yes, everyone"}],"total":4,"at":"2026-11-30T10:15:45.000Z"}
  {"kind":"conversation","key":"dm_ali_fa","app":"app","title":"علی","isGroup":false,"avatar":{"initials":"ع","color":7},"lines":[{"sender":"علی","senderId":"user_ali_fa","text":"سلام! دوچرخه هنوز هست؟"}],"total":1,"at":"2026-11-30T10:15:37.000Z"}
  {"kind":"conversation","key":"dm_wang","app":"app","title":"王小明","isGroup":false,"avatar":{"initials":"王","color":0},"lines":[{"sender":"王小明","senderId":"user_wang","text":"你好！周末有空吗？"}],"total":1,"at":"2026-11-30T10:15:20.000Z"}
errors
  Samples/demo.jsonl:15 unknown payload shape (top-level keys "notification_title"): tried D1 envelope ("payload"), D2 FCM v1 ("message"), D3 send-to-user ("userId"), D4 APNs ("aps"), D5 Expo ("to": "ExponentPushToken[…]"), D6 web push ("web_push": 8030 or "title" + "options"), D7 FCM legacy ("to", "notification", …), D9 Pusher Beams ("interests" or "users" with "apns", "fcm" or "web"), D8 data-only ("data" object)
"""#),
        ("fcm-v1-admin-sdk-spellings.json", #"""
android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
Notifications
  {"kind":"plain","key":"ride_4821","app":"app","title":"Your ride is here","lines":[{"text":"Grey Škoda Octavia · 4 min away"}],"total":1,"image":"https://cdn.example.com/rides/car-4821.png","category":"OPEN_RIDE"}

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"ride_4821","app":"app","title":"Your ride is here","lines":[{"text":"Grey Škoda Octavia · 4 min away"}],"total":1,"image":"https://cdn.example.com/rides/car-4821@3x.png","category":"RIDE_ARRIVING","mutableContent":true}

web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"plain","key":"n1","app":"app","title":"Your ride is here","lines":[{"text":"Grey Škoda Octavia · 4 min away"}],"total":1,"image":"https://cdn.example.com/rides/car-4821.png"}
"""#),
        ("mutable-content-placeholder.apns", #"""
android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"chat-7f3a","app":"org.example.securechat","title":"New message","lines":[{"text":"APN_Message"}],"total":1,"category":"SECURE_MESSAGE","mutableContent":true}

web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
"""#),
        ("offline-session.jsonl", #"""
android received=118 shown=8 silent=101 calls=0 rejected=0 elsewhere=8 badge=0
Notifications
  {"kind":"bundle","key":"app","app":"app","title":"app","lines":[],"total":6,"children":[{"kind":"plain","key":"n118","app":"app","title":"Back online","lines":[{"text":"The pushes above arrived at 10:05"}],"total":1,"at":"2026-11-30T10:06:00.000Z"},{"kind":"plain","key":"flash","app":"app","title":"Flash sale","lines":[{"text":"Ends in one minute"}],"total":1,"at":"2026-11-30T10:01:00.000Z"},{"kind":"plain","key":"weather","app":"app","title":"Weather","lines":[{"text":"Rain from 14:00"}],"total":1,"at":"2026-11-30T10:00:35.000Z"},{"kind":"plain","key":"score","app":"app","title":"Match 12","lines":[{"text":"2 – 0"}],"total":2,"at":"2026-11-30T10:00:30.000Z"},{"kind":"plain","key":"news","app":"app","title":"Headlines","lines":[{"text":"Rates unchanged"}],"total":1,"at":"2026-11-30T10:00:25.000Z"},{"kind":"plain","key":"n1","app":"app","title":"Good morning","lines":[{"text":"Your daily summary is ready"}],"total":1,"at":"2026-11-30T10:00:00.000Z"}],"at":"2026-11-30T10:06:00.000Z"}
  {"kind":"plain","key":"n7","app":"com.example.shop","title":"Cart","lines":[{"text":"You left 3 items"}],"total":1,"at":"2026-11-30T10:00:55.000Z"}
  {"kind":"plain","key":"n6","app":"com.example.shop","title":"Cart","lines":[{"text":"You left 2 items"}],"total":1,"at":"2026-11-30T10:00:50.000Z"}

ios received=118 shown=13 silent=0 calls=0 rejected=0 elsewhere=105 badge=0
Notification Center
  {"kind":"plain","key":"app","app":"app","title":"Back online","lines":[{"text":"Your daily summary is ready"},{"text":"1 – 0"},{"text":"Rates unchanged"},{"text":"2 – 0"},{"text":"Rain from 14:00"},{"text":"Ends in one minute"},{"text":"The pushes above arrived at 10:05"}],"total":7,"at":"2026-11-30T10:06:00.000Z"}
  {"kind":"plain","key":"com.example.doorbell","app":"com.example.doorbell","title":"Doorbell","lines":[{"text":"Someone is at the door"}],"total":1,"at":"2026-11-30T10:02:30.000Z"}
  {"kind":"plain","key":"com.example.parcels","app":"com.example.parcels","title":"Parcel","lines":[{"text":"Out for delivery"}],"total":1,"at":"2026-11-30T10:02:20.000Z"}
  {"kind":"plain","key":"com.example.ci","app":"com.example.ci","title":"Build 42","lines":[{"text":"Passed"},{"text":"Failed: 3 tests"}],"total":2,"at":"2026-11-30T10:02:10.000Z"}
  {"kind":"plain","key":"com.example.shop","app":"com.example.shop","title":"Cart","lines":[{"text":"You left 2 items"},{"text":"You left 3 items"}],"total":2,"at":"2026-11-30T10:00:55.000Z"}

web received=118 shown=4 silent=0 calls=0 rejected=0 elsewhere=114 badge=0
Notifications
  {"kind":"plain","key":"n117","app":"app","title":"Newsletter","lines":[{"text":"The week in review"}],"total":1,"at":"2026-11-30T10:03:30.000Z"}
  {"kind":"plain","key":"n116","app":"app","title":"Live","lines":[{"text":"Stream starts now"}],"total":1,"at":"2026-11-30T10:03:20.000Z"}
  {"kind":"plain","key":"n115","app":"app","title":"Basket","lines":[{"text":"2 items waiting"}],"total":1,"at":"2026-11-30T10:03:10.000Z"}
  {"kind":"plain","key":"n114","app":"app","title":"Basket","lines":[{"text":"1 item waiting"}],"total":1,"at":"2026-11-30T10:03:00.000Z"}
"""#),
        ("pusher-beams.json", #"""
android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"plain","key":"n1","app":"app","title":"Donuts are back","lines":[{"text":"Glazed, sprinkled and filled — fresh out of the oven"}],"total":1}

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
Notification Center
  {"kind":"plain","key":"app","app":"app","title":"Donuts are back","lines":[{"text":"Glazed, sprinkled and filled — fresh out of the oven"}],"total":1}

web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notifications
  {"kind":"plain","key":"n1","app":"app","title":"Donuts are back","lines":[{"text":"Glazed, sprinkled and filled — fresh out of the oven"}],"total":1}
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

ios received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
Notification Center
  {"kind":"plain","key":"app","app":"app","title":"Delivery","lines":[{"text":"Courier picked up your parcel"},{"text":"Courier is 5 stops away"},{"text":"Delivered to your door"}],"total":3}

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
  {"kind":"plain","key":"chatroom_9","app":"app","lines":[{"text":"Alice sent a photo"}],"total":1,"category":"push_chatroom"}

ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
Notification Center
  {"kind":"plain","key":"app","app":"app","lines":[{"text":"Alice sent a photo"}],"total":1,"category":"push_chatroom"}

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
    ]
    static var names: [String] { wholeStates.map(\.0) }

    @Test(arguments: wholeStates)
    func sampleGivesItsWholeState(name: String, expected: String) throws {
        #expect(try Self.state(of: name) == expected)
    }

    /// A new top-level sample needs its row above.
    @Test func everyTopLevelSampleHasItsWholeState() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.samples.path)
            .filter { [".json", ".jsonl", ".apns"].contains(where: $0.hasSuffix) }.sorted()
        #expect(files == Self.names)
    }
}
