import Testing
@testable import ShadeCore

/// SPEC §8, offline delivery: while a profile is offline its pushes wait as their services keep them
/// (O1–O5) and arrive when it comes back, oldest first, with `at` = UNTIL. Each row is a recording,
/// a window (`--offline FROM..UNTIL`) and the whole traced state of one platform afterwards, events
/// included: where each item waited and why it survived.
struct OfflineDeliveryTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var pushes: [String]
        var platform: Platform
        var window: String
        var expected: String
        init(_ name: String, _ pushes: [String], _ platform: Platform, _ window: String, _ expected: String) {
            self.name = name
            self.pushes = pushes
            self.platform = platform
            self.window = window
            self.expected = expected
        }
        var testDescription: String { name }
    }

    /// As `shade state --offline WINDOW` feeds its centers.
    static func offline(_ ndjson: String, _ profiles: [Profile], window: String) throws -> [Center] {
        var timeline = OfflineTimeline(try OfflineWindow.parse(window))
        var intake = Intake()
        var centers = profiles.map { Center(profile: $0) }
        for outcome in intake.lines(Array(ndjson.utf8), source: "t.jsonl") { timeline.apply(outcome, to: &centers) }
        timeline.finish(&centers)
        return centers
    }

    static func run(_ row: Row) throws -> String {
        tracedDigest(try offline(row.pushes.joined(separator: "\n"), [Profile(platform: row.platform)], window: row.window)[0].state)
    }

    /// An envelope at `second` seconds after 10:00 on 2026-11-30.
    static func at(_ second: Int, _ payload: String, headers: String? = nil) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let time = "2026-11-30T10:\(two(second / 60)):\(two(second % 60)).000Z"
        return #"{"at":"\#(time)""# + (headers.map { #","headers":\#($0)"# } ?? "") + #","payload":\#(payload)}"#
    }

    static func legacy(_ title: String, _ body: String, _ extra: String = "") -> String {
        #"{"to":"t",\#(extra)"notification":{"title":"\#(title)","body":"\#(body)"}}"#
    }

    static func data(_ n: Int, _ extra: String = "") -> String { #"{"to":"t",\#(extra)"data":{"sync":"\#(n)"}}"# }
    static func apns(_ title: String, _ body: String) -> String { #"{"aps":{"alert":{"title":"\#(title)","body":"\#(body)"}}}"# }
    static func web(_ title: String, _ body: String) -> String { #"{"title":"\#(title)","options":{"body":"\#(body)"}}"# }

    /// FCM keeps the newest push per collapse key for at most 4 keys (the 4 most recently used); a
    /// notification without a collapse key collapses under its app's package, a data message does not.
    static let o1: [Row] = [
        Row("the newest push per collapse key", [at(20, legacy("Match 12", "1 – 0", #""collapse_key":"score","#)), at(30, legacy("Match 12", "2 – 0", #""collapse_key":"score","#))], .android, "0s..5m", #"""
            android received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notifications
              {"kind":"plain","key":"score","app":"app","title":"Match 12","lines":[{"text":"2 – 0"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key score (at most 4 keys)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:30)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key score: a later push with this collapse key replaces this one"]}
            events
              [O1] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM kept only the newest push per collapse key (at most 4 keys): 1 dropped
            """#),
        Row("at most 4 keys: the least recently used goes", ["a", "b", "a", "c", "d", "e"].enumerated().map { at(20 + $0.offset, legacy("Key \($0.element)", "push \($0.offset + 1)", #""collapse_key":"\#($0.element)","#)) }, .android, "0s..5m", #"""
            android received=6 shown=4 silent=0 calls=0 rejected=0 elsewhere=0 dropped=2 badge=0
            Notifications
              {"kind":"bundle","key":"app","app":"app","title":"app","lines":[],"total":4,"children":[{"kind":"plain","key":"e","app":"app","title":"Key e","lines":[{"text":"push 6"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:25, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key e (at most 4 keys)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:25)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key e: a later push with this collapse key replaces this one"]},{"kind":"plain","key":"d","app":"app","title":"Key d","lines":[{"text":"push 5"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:24, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key d (at most 4 keys)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:24)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key d: a later push with this collapse key replaces this one"]},{"kind":"plain","key":"c","app":"app","title":"Key c","lines":[{"text":"push 4"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:23, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key c (at most 4 keys)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:23)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key c: a later push with this collapse key replaces this one"]},{"kind":"plain","key":"a","app":"app","title":"Key a","lines":[{"text":"push 3"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:22, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key a (at most 4 keys)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:22)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key a: a later push with this collapse key replaces this one"]}],"at":"2026-11-30T10:05:20.000Z","trace":["[A8] 4 notifications of app (bundled from 4): one app summary"]}
            events
              [O1] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM kept only the newest push per collapse key (at most 4 keys): 2 dropped
            """#),
        Row("notifications without a collapse key collapse under their app's package", [at(20, legacy("Cart", "2 items", #""restricted_package_name":"com.shop","#)), at(30, legacy("Cart", "3 items", #""restricted_package_name":"com.shop","#)), at(40, legacy("News", "Rates", #""restricted_package_name":"com.news","#))], .android, "0s..5m", #"""
            android received=3 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notifications
              {"kind":"plain","key":"n3","app":"com.news","title":"News","lines":[{"text":"Rates"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:40, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest notification of com.news (no collapse key: collapsible under the app's package name)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:40)","[C8] no conversationId: a plain notification, shown exactly as before","[A7] no tag: a new notification"]}
              {"kind":"plain","key":"n2","app":"com.shop","title":"Cart","lines":[{"text":"3 items"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest notification of com.shop (no collapse key: collapsible under the app's package name)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:30)","[C8] no conversationId: a plain notification, shown exactly as before","[A7] no tag: a new notification"]}
            events
              [O1] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM kept only the newest push per collapse key (at most 4 keys): 1 dropped
            """#),
        Row("FCM to iOS collapses by apns-collapse-id", [at(20, #"{"message":{"token":"t","notification":{"title":"Score","body":"1 – 0"},"apns":{"headers":{"apns-collapse-id":"score"}}}}"#), at(30, #"{"message":{"token":"t","notification":{"title":"Score","body":"2 – 0"},"apns":{"headers":{"apns-collapse-id":"score"}}}}"#)], .ios, "0s..5m", #"""
            ios received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Score","lines":[{"text":"2 – 0"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D2] FCM v1 request: message.apns overrides message.notification on iOS","[D4] read as an APNs payload at $.message.apns.payload","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key score (at most 4 keys)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:30)","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of app"]}
            events
              [O1] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM kept only the newest push per collapse key (at most 4 keys): 1 dropped
            """#),
        Row("FCM to the web collapses by webpush.headers.Topic", [at(20, #"{"message":{"token":"t","notification":{"title":"Score","body":"1 – 0"},"webpush":{"headers":{"Topic":"score"}}}}"#), at(30, #"{"message":{"token":"t","notification":{"title":"Score","body":"2 – 0"},"webpush":{"headers":{"Topic":"score"}}}}"#)], .web, "0s..5m", #"""
            web received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notifications
              {"kind":"plain","key":"n2","app":"app","title":"Score","lines":[{"text":"2 – 0"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D2] FCM v1 request: message.notification","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key score (at most 4 keys)","[O5] time to live 2419200 s (FCM's default, 4 weeks): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-28 10:00:30)","[C8] no conversationId: a plain notification, shown exactly as before","[W3] no tag: a new notification"]}
            events
              [O1] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM kept only the newest push per collapse key (at most 4 keys): 1 dropped
            """#),
    ]

    @Test(arguments: o1)
    func O1_fcmKeepsTheNewestPerCollapseKeyForFourKeys(_ row: Row) throws {
        #expect(try Self.run(row) == row.expected)
    }

    /// FCM keeps up to 100 non-collapsible pushes; the 101st discards them all, and the app hears once.
    static let o2: [Row] = [
        Row("up to 100 data messages wait", (1...100).map { at(20, data($0)) }, .android, "0s..5m", #"""
            android received=100 shown=0 silent=100 calls=0 rejected=0 elsewhere=0 badge=0
            """#),
        Row("the 101st discards them all, and the app is told once", (1...101).map { at(20, data($0)) }, .android, "0s..5m", #"""
            android received=101 shown=0 silent=0 calls=0 rejected=0 elsewhere=0 dropped=101 badge=0
            events
              [O2] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM had more than 100 non-collapsible messages and discarded 101; on reconnect the app's onDeletedMessages() is called once
            """#),
        Row("after the discard, new ones wait again", (1...103).map { at(20 + $0 / 102, data($0)) }, .android, "0s..5m", #"""
            android received=103 shown=0 silent=2 calls=0 rejected=0 elsewhere=0 dropped=101 badge=0
            events
              [O2] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM had more than 100 non-collapsible messages and discarded 101; on reconnect the app's onDeletedMessages() is called once
            """#),
        Row("a data message with a collapse key is collapsible (O1)", (1...101).map { at(20, data($0, #""collapse_key":"sync","#)) }, .android, "0s..5m", #"""
            android received=101 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 dropped=100 badge=0
            events
              [O1] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: FCM kept only the newest push per collapse key (at most 4 keys): 100 dropped
            """#),
    ]

    @Test(arguments: o2)
    func O2_fcmKeepsAHundredNonCollapsiblePushes(_ row: Row) throws {
        #expect(try Self.run(row) == row.expected)
    }

    static let o3: [Row] = [
        Row("APNs keeps the newest push per app", [at(20, apns("Build 41", "Passed"), headers: #"{"apns-topic":"com.ci"}"#), at(30, apns("Build 42", "Failed"), headers: #"{"apns-topic":"com.ci"}"#), at(40, apns("Parcel", "Out for delivery"), headers: #"{"apns-topic":"com.parcels"}"#)], .ios, "0s..5m", #"""
            ios received=3 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notification Center
              {"kind":"plain","key":"com.parcels","app":"com.parcels","title":"Parcel","lines":[{"text":"Out for delivery"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:40, delivered 2026-11-30 10:05:20 when it came back): APNs keeps only the newest push for com.parcels","[O5] no apns-expiration: APNs keeps it: it had not run out","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.parcels"]}
              {"kind":"plain","key":"com.ci","app":"com.ci","title":"Build 42","lines":[{"text":"Failed"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): APNs keeps only the newest push for com.ci","[O5] no apns-expiration: APNs keeps it: it had not run out","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.ci"]}
            events
              [O3] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: APNs kept only the newest push per app: 1 dropped
            """#),
    ]

    @Test(arguments: o3)
    func O3_apnsKeepsTheNewestPushPerApp(_ row: Row) throws {
        #expect(try Self.run(row) == row.expected)
    }

    static let o4: [Row] = [
        Row("a Topic replaces the push waiting with it", [at(20, web("Basket", "1 item"), headers: #"{"Topic":"basket","TTL":"3600"}"#), at(30, web("Basket", "2 items"), headers: #"{"topic":"basket","ttl":"3600"}"#), at(40, web("News", "Digest"), headers: #"{"TTL":"3600"}"#)], .web, "0s..5m", #"""
            web received=3 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notifications
              {"kind":"plain","key":"n3","app":"app","title":"News","lines":[{"text":"Digest"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D6] showNotification(title, options) arguments","[O4] waited at the web push service while the device was offline (received 2026-11-30 10:00:40, delivered 2026-11-30 10:05:20 when it came back): the web push service keeps each push until its TTL runs out","[O5] time to live 3600 s (TTL header): it had not run out at 2026-11-30 10:05:20 (it would at 2026-11-30 11:00:40)","[C8] no conversationId: a plain notification, shown exactly as before","[W3] no tag: a new notification"]}
              {"kind":"plain","key":"n2","app":"app","title":"Basket","lines":[{"text":"2 items"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D6] showNotification(title, options) arguments","[O4] waited at the web push service while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): the web push service keeps each push until its TTL runs out (Topic basket)","[O5] time to live 3600 s (TTL header): it had not run out at 2026-11-30 10:05:20 (it would at 2026-11-30 11:00:30)","[C8] no conversationId: a plain notification, shown exactly as before","[W3] no tag: a new notification"]}
            events
              [O4] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: 1 web push was replaced by a later one with the same Topic
            """#),
    ]

    @Test(arguments: o4)
    func O4_webPushKeepsEachUntilItsTTLAndATopicReplaces(_ row: Row) throws {
        #expect(try Self.run(row) == row.expected)
    }

    static let o5: [Row] = [
        Row("FCM time_to_live", [at(20, legacy("Flash sale", "1 min", #""collapse_key":"flash","time_to_live":60,"#)), at(30, legacy("Sale", "1 hour", #""collapse_key":"sale","timeToLive":3600,"#))], .android, "0s..5m", #"""
            android received=2 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notifications
              {"kind":"plain","key":"sale","app":"app","title":"Sale","lines":[{"text":"1 hour"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D7] FCM legacy message (as the IM SDK sends it)","[D7] $: node-gcm's spellings read as the wire sends them: timeToLive → time_to_live","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key sale (at most 4 keys)","[O5] time to live 3600 s (time_to_live): it had not run out at 2026-11-30 10:05:20 (it would at 2026-11-30 11:00:30)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key sale: a later push with this collapse key replaces this one"]}
            events
              [O5] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: 1 push expired before the device came back
            """#),
        Row("FCM v1 android.ttl, and the Admin SDK's milliseconds", [at(20, #"{"message":{"token":"t","notification":{"title":"A","body":"30 s"},"android":{"collapse_key":"a","ttl":"30s"}}}"#), at(30, #"{"message":{"token":"t","notification":{"title":"B","body":"1 hour"},"android":{"collapse_key":"b","ttl":"3600.5s"}}}"#), at(40, #"{"message":{"token":"t","notification":{"title":"C","body":"1 hour"},"android":{"collapseKey":"c","ttl":3600000}}}"#)], .android, "0s..5m", #"""
            android received=3 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notifications
              {"kind":"plain","key":"c","app":"app","title":"C","lines":[{"text":"1 hour"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D2] FCM v1 request: message.notification","[D2] $.message.android: the Firebase Admin SDK's spellings read as the wire sends them: collapseKey → collapse_key","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:40, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key c (at most 4 keys)","[O5] time to live 3600 s (android.ttl): it had not run out at 2026-11-30 10:05:20 (it would at 2026-11-30 11:00:40)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key c: a later push with this collapse key replaces this one"]}
              {"kind":"plain","key":"b","app":"app","title":"B","lines":[{"text":"1 hour"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D2] FCM v1 request: message.notification","[O1] waited at FCM while the device was offline (received 2026-11-30 10:00:30, delivered 2026-11-30 10:05:20 when it came back): FCM keeps the newest push for collapse key b (at most 4 keys)","[O5] time to live 3600 s (android.ttl): it had not run out at 2026-11-30 10:05:20 (it would at 2026-11-30 11:00:30)","[C8] no conversationId: a plain notification, shown exactly as before","[A12] collapse key b: a later push with this collapse key replaces this one"]}
            events
              [O5] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: 1 push expired before the device came back
            """#),
        Row("FCM keeps a push 4 weeks at most", [at(20, legacy("Old", "news"))], .android, "0s..700h", #"""
            android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            events
              [O5] offline 2026-11-30 10:00:20 → 2026-12-29 14:00:20: 1 push expired before the device came back
            """#),
        Row("APNs apns-expiration: 0 is now or never, a time passes", [at(20, apns("Doorbell", "Ring"), headers: #"{"apns-topic":"com.door","apns-expiration":"0"}"#), at(30, apns("Parcel", "Soon"), headers: #"{"apns-topic":"com.parcel","apns-expiration":"1796033000"}"#), at(40, apns("Game", "Your turn"), headers: #"{"apns-topic":"com.game","apns-expiration":"1796040000"}"#)], .ios, "0s..5m", #"""
            ios received=3 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 dropped=2 badge=0
            Notification Center
              {"kind":"plain","key":"com.game","app":"com.game","title":"Game","lines":[{"text":"Your turn"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:40, delivered 2026-11-30 10:05:20 when it came back): APNs keeps only the newest push for com.game","[O5] apns-expiration 1796040000: it had not run out at 2026-11-30 10:05:20 (it would at 2026-11-30 12:00:00)","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.game"]}
            events
              [O5] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: 2 pushes expired before the device came back
            """#),
        Row("web TTL", [at(20, web("Live", "now"), headers: #"{"TTL":"60"}"#), at(30, web("Zero", "now or never"), headers: #"{"TTL":"0"}"#), at(40, web("Digest", "weekly"), headers: #"{"TTL":"86400"}"#)], .web, "0s..5m", #"""
            web received=3 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 dropped=2 badge=0
            Notifications
              {"kind":"plain","key":"n3","app":"app","title":"Digest","lines":[{"text":"weekly"}],"total":1,"at":"2026-11-30T10:05:20.000Z","trace":["[D6] showNotification(title, options) arguments","[O4] waited at the web push service while the device was offline (received 2026-11-30 10:00:40, delivered 2026-11-30 10:05:20 when it came back): the web push service keeps each push until its TTL runs out","[O5] time to live 86400 s (TTL header): it had not run out at 2026-11-30 10:05:20 (it would at 2026-12-01 10:00:40)","[C8] no conversationId: a plain notification, shown exactly as before","[W3] no tag: a new notification"]}
            events
              [O5] offline 2026-11-30 10:00:20 → 2026-11-30 10:05:20: 2 pushes expired before the device came back
            """#),
    ]

    @Test(arguments: o5)
    func O5_aPushWhoseTimeToLivePassedIsDropped(_ row: Row) throws {
        #expect(try Self.run(row) == row.expected)
    }

    /// DESIGN "Offline delivery": the window is half-open; bounds are offsets from the first push or
    /// ISO 8601 times; a push without `at` takes its time by the replay rule.
    static let windows: [Row] = [
        Row("half-open: a push at FROM waits, one at UNTIL does not", [at(10, apns("A", "at FROM"), headers: #"{"apns-topic":"com.a"}"#), at(300, apns("B", "at UNTIL"), headers: #"{"apns-topic":"com.b"}"#)], .ios, "0s..4m50s", #"""
            ios received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.b","app":"com.b","title":"B","lines":[{"text":"at UNTIL"}],"total":1,"at":"2026-11-30T10:05:00.000Z","trace":["[D4] read as an APNs payload at $","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.b"]}
              {"kind":"plain","key":"com.a","app":"com.a","title":"A","lines":[{"text":"at FROM"}],"total":1,"at":"2026-11-30T10:05:00.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:10, delivered 2026-11-30 10:05:00 when it came back): APNs keeps only the newest push for com.a","[O5] no apns-expiration: APNs keeps it: it had not run out","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.a"]}
            """#),
        Row("ISO 8601 bounds", [at(20, apns("A", "waits"), headers: #"{"apns-topic":"com.a"}"#), at(40, apns("B", "after"), headers: #"{"apns-topic":"com.b"}"#)], .ios, "2026-11-30T10:00:10Z..2026-11-30T10:00:30Z", #"""
            ios received=2 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.b","app":"com.b","title":"B","lines":[{"text":"after"}],"total":1,"at":"2026-11-30T10:00:40.000Z","trace":["[D4] read as an APNs payload at $","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.b"]}
              {"kind":"plain","key":"com.a","app":"com.a","title":"A","lines":[{"text":"waits"}],"total":1,"at":"2026-11-30T10:00:30.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:20, delivered 2026-11-30 10:00:30 when it came back): APNs keeps only the newest push for com.a","[O5] no apns-expiration: APNs keeps it: it had not run out","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.a"]}
            """#),
        Row("a push without at is 250 ms after the one before", [at(0, apns("A", "online"), headers: #"{"apns-topic":"com.a"}"#), apns("B", "at 0.25 s"), apns("C", "at 0.5 s")], .ios, "0s..1s", #"""
            ios received=3 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 dropped=1 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"C","lines":[{"text":"at 0.5 s"}],"total":1,"at":"2026-11-30T10:00:01.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:00, delivered 2026-11-30 10:00:01 when it came back): APNs keeps only the newest push for app","[O5] no apns-expiration: APNs keeps it: it had not run out","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of app"]}
              {"kind":"plain","key":"com.a","app":"com.a","title":"A","lines":[{"text":"online"}],"total":1,"at":"2026-11-30T10:00:01.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:00, delivered 2026-11-30 10:00:01 when it came back): APNs keeps only the newest push for com.a","[O5] no apns-expiration: APNs keeps it: it had not run out","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of com.a"]}
            events
              [O3] offline 2026-11-30 10:00:00 → 2026-11-30 10:00:01: APNs kept only the newest push per app: 1 dropped
            """#),
        Row("a window that ends after the last push brings the device back at UNTIL", [at(20, apns("A", "waits"))], .ios, "0s..1h", #"""
            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"A","lines":[{"text":"waits"}],"total":1,"at":"2026-11-30T11:00:20.000Z","trace":["[D4] read as an APNs payload at $","[O3] waited at APNs while the device was offline (received 2026-11-30 10:00:20, delivered 2026-11-30 11:00:20 when it came back): APNs keeps only the newest push for app","[O5] no apns-expiration: APNs keeps it: it had not run out","[C8] no conversationId: a plain notification, shown exactly as before","[I1] no conversation or thread-id: stacked with the other notifications of app"]}
            """#),
    ]

    @Test(arguments: windows)
    func offlineWindowAndTheReplayRule(_ row: Row) throws {
        #expect(try Self.run(row) == row.expected)
    }
}
