import Testing
@testable import ShadeCore

/// V9 (a key a typo away), V10 (pushes that show nothing where they surely meant to), I10's
/// entitlement note, the other spellings of SPEC §1, and what VoIP and background pushes are not told.
@Suite struct LintKeyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var json: String
        var headers: [String: String]
        var expected: [String]
        var testDescription: String
        init(_ name: String, _ json: String, headers: [String: String] = [:], _ expected: [String]) {
            self.testDescription = name
            self.json = json
            self.headers = headers
            self.expected = expected
        }
    }

    /// Every finding of `rules` as `severity [rule] path: message`.
    static func findings(_ c: Case, rules: Set<String>) -> [String] {
        Lint.check(LintTests.push(c.json, headers: c.headers)).filter { rules.contains($0.rule) }
            .map { "\($0.severity) [\($0.rule)] \($0.path): \($0.message)" }
    }

    static let v9: [Case] = [
        Case("conversationID", #"{"userId": "u", "title": "@ali", "body": "hi", "data": {"conversationID": "room_42"}}"#, [
            #"warning [V9] $.data.conversationID: "conversationID": did you mean conversationId? As written, the push is a plain notification (C8)"#,
        ]),
        Case("senderAvatarURL", #"{"userId": "u", "title": "@ali", "body": "hi", "data": {"conversationId": "r", "senderAvatarURL": "https://a.example/p.jpg"}}"#, [
            #"warning [V9] $.data.senderAvatarURL: "senderAvatarURL": did you mean senderAvatarUrl? As written, initials are drawn instead of the photo (C4, N1)"#,
        ]),
        Case("aps.aler", #"{"aps": {"aler": "hi"}}"#, [
            #"warning [V9] $.aps.aler: "aler": did you mean alert? As written, iOS shows no alert (I3)"#,
        ]),
        Case("thread_id in aps", #"{"aps": {"alert": "hi", "thread_id": "t1"}}"#, [
            #"warning [V9] $.aps.thread_id: "thread_id": did you mean thread-id? As written, it is not grouped by thread (I1)"#,
        ]),
        Case("collapse-id as a header", #"{"aps": {"alert": "hi"}}"#, headers: ["collapse-id": "c1"], [
            #"warning [V9] header collapse-id: "collapse-id": did you mean apns-collapse-id? As written, nothing is replaced (I4)"#,
        ]),
        Case("FCM v1 notificaton", #"{"message": {"token": "t", "notificaton": {"title": "t"}}}"#, [
            #"warning [V9] $.message.notificaton: "notificaton": did you mean notification? As written, it is a data message: nothing is shown (A11)"#,
        ]),
        Case("FCM v1 android click-action", #"{"message": {"token": "t", "android": {"notification": {"title": "t", "click-action": "OPEN"}}}}"#, [
            #"warning [V9] $.message.android.notification.click-action: "click-action": did you mean click_action? As written, no category is carried (I12)"#,
        ]),
        Case("FCM legacy tittle", #"{"to": "t", "notification": {"tittle": "Hi", "body": "there"}}"#, [
            #"warning [V9] $.notification.tittle: "tittle": did you mean title? As written, no title is shown"#,
        ]),
        Case("web requireinteraction", #"{"title": "Hi", "options": {"body": "b", "requireinteraction": true}}"#, [
            #"warning [V9] $.options.requireinteraction: "requireinteraction": did you mean requireInteraction? As written, it is not read"#,
        ]),
        // Not near misses: the meant key is there too, a short key, app data of its own name.
        Case("the meant key is there too", #"{"userId": "u", "title": "t", "body": "b", "data": {"conversationId": "r", "conversationID": "r"}}"#, []),
        Case("short keys are not typos", #"{"aps": {"alert": "hi", "snd": "x"}}"#, []),
        Case("app data is not a typo", #"{"userId": "u", "title": "t", "body": "b", "data": {"orderId": "1042", "senderRole": "admin"}}"#, []),
    ]

    @Test(arguments: v9)
    func V9_aKeyATypoAwaySaysWhatItMeantAndWhatTheDeviceDoes(_ c: Case) {
        #expect(Self.findings(c, rules: ["V9"]) == c.expected)
    }

    @Test func V9_aNearMissIsNotAlsoACustomKeyInsideAps() {
        let findings = Lint.check(LintTests.push(#"{"aps": {"aler": "hi", "orderId": "1"}}"#)).map(\.rule)
        #expect(findings == ["V5", "V9"])
    }

    static let v10: [Case] = [
        Case("a sound without an alert", #"{"aps": {"sound": "default"}}"#, [
            "warning [V10] $.aps.sound: aps has a sound but no alert: iOS plays the sound and shows nothing, counted silent (I5) — add aps.alert with a title or body, or drop the sound",
        ]),
        Case("a sound and a badge without an alert", #"{"aps": {"sound": "default", "badge": 2}}"#, [
            "warning [V10] $.aps.sound: aps has a sound but no alert: iOS plays the sound and shows nothing, counted silent (I5) — add aps.alert with a title or body, or drop the sound",
        ]),
        Case("FCM v1's apns block too", #"{"message": {"token": "t", "apns": {"payload": {"aps": {"sound": "ping.caf"}}}}}"#, [
            "warning [V10] $.message.apns.payload.aps.sound: aps has a sound but no alert: iOS plays the sound and shows nothing, counted silent (I5) — add aps.alert with a title or body, or drop the sound",
        ]),
        Case("a badge alone is a badge update", #"{"aps": {"badge": 2}}"#, []),
        Case("a sound with an alert", #"{"aps": {"alert": "hi", "sound": "default"}}"#, []),
        Case("a VoIP push rings", #"{"aps": {"sound": "ring.caf"}, "callerName": "Alice"}"#, headers: ["apns-push-type": "voip"], []),
        Case("a notification block of unknown keys", #"{"to": "t", "notification": {"heading": "Hi", "message": "there"}}"#, [
            #"warning [V10] $.notification: none of this notification's keys ("heading", "message") is one FCM reads: Android and iOS show nothing, counted silent (A11) — use title and body"#,
        ]),
        Case("FCM v1 android.notification of unknown keys, with nothing shared", #"{"message": {"token": "t", "android": {"notification": {"heading": "Hi"}}}}"#, [
            #"warning [V10] $.message.android.notification: none of this notification's keys ("heading") is one FCM reads: Android shows nothing, counted silent (A11) — use title and body"#,
        ]),
        Case("…but the shared notification still shows", #"{"message": {"token": "t", "notification": {"title": "Hi"}, "android": {"notification": {"heading": "Hi"}}}}"#, []),
        Case("an empty notification block is on purpose", #"{"to": "t", "notification": {}}"#, []),
        Case("the Admin SDK's spellings are known keys", #"{"message": {"token": "t", "android": {"notification": {"channelId": "c"}}}}"#, []),
    ]

    @Test(arguments: v10)
    func V10_aPushThatShowsNothingWhereItSurelyMeantToSaysSo(_ c: Case) {
        #expect(Self.findings(c, rules: ["V10"]) == c.expected)
    }

    /// I5: the silent push's trace says the sound plays (what V10 warns about).
    @Test func V10_theTraceOfASoundWithoutAnAlertSaysTheSoundPlays() throws {
        let push = LintTests.push(#"{"aps": {"sound": "default"}}"#)
        guard case .silent(_, let why, _) = push.delivery(on: .ios, defaultApp: "app") else {
            Issue.record("not silent")
            return
        }
        #expect(why.description == "[I5] the payload has only a sound: the sound plays, but nothing is shown in the Notification Center")
    }

    static let aliases: [Case] = [
        Case("FCM v1 aps.mutableContent", #"{"message": {"token": "t", "apns": {"payload": {"aps": {"alert": "hi", "mutableContent": true}}}}}"#, [
            #"note [D2] $.message.apns.payload.aps.mutableContent: "mutableContent" is the Firebase Admin SDK's spelling of mutable-content: it sends mutable-content: 1 (for true), and Shade reads it so"#,
        ]),
        Case("FCM v1 android channelId and notificationCount", #"{"message": {"token": "t", "android": {"notification": {"title": "t", "channelId": "c", "notificationCount": 2}}}}"#, [
            #"note [D2] $.message.android.notification.channelId: "channelId" is the Firebase Admin SDK's spelling of channel_id: it sends channel_id, and Shade reads it so"#,
            #"note [D2] $.message.android.notification.notificationCount: "notificationCount" is the Firebase Admin SDK's spelling of notification_count: it sends notification_count, and Shade reads it so"#,
        ]),
        Case("an APNs payload sent straight", #"{"aps": {"alert": {"body": "hi", "locKey": "im_loc_text"}, "threadId": "t1"}}"#, [
            #"note [D4] $.aps.threadId: "threadId" is the Firebase Admin SDK's spelling of thread-id: it sends thread-id, and Shade reads it so — sent straight to APNs nothing renames it and iOS ignores it: write thread-id"#,
            #"note [D4] $.aps.alert.locKey: "locKey" is the Firebase Admin SDK's spelling of loc-key: it sends loc-key, and Shade reads it so — sent straight to APNs nothing renames it and iOS ignores it: write loc-key"#,
        ]),
        Case("a path through another spelling names it as written", #"{"message": {"token": "t", "notification": {"title": "t"}, "apns": {"fcmOptions": {"imageUrl": "https://a.example/i.png"}}}}"#, [
            #"note [D2] $.message.apns.fcmOptions: "fcmOptions" is the Firebase Admin SDK's spelling of fcm_options: it sends fcm_options, and Shade reads it so"#,
            #"note [D2] $.message.apns.fcmOptions.imageUrl: "imageUrl" is the Firebase Admin SDK's spelling of image: it sends image, and Shade reads it so"#,
        ]),
        Case("node-gcm's collapseKey", #"{"to": "t", "collapseKey": "score", "notification": {"title": "t"}}"#, [
            #"note [D7] $.collapseKey: "collapseKey" is node-gcm's spelling of collapse_key: it sends collapse_key, and Shade reads it so"#,
        ]),
    ]

    /// SPEC §1: lint says which form it saw instead of calling the key unknown.
    @Test(arguments: aliases)
    func spec1_anotherSpellingIsNamedNotCalledUnknown(_ c: Case) {
        #expect(Self.findings(c, rules: ["D2", "D4", "D7", "V5", "V9"]) == c.expected)
    }

    static let alertKeys: [Case] = [
        Case("an alert push is told", #"{"aps": {"alert": {"title": "t", "caller": "Alice"}}}"#, [
            #"warning [V5] $.aps.alert.caller: "caller" is not an alert key: iOS ignores it — use title, subtitle, body or the loc keys"#,
        ]),
        Case("a VoIP push is not (PushKit hands its payload to the app)", #"{"aps": {"alert": {"caller": "Alice", "hasVideo": true}, "callId": "c1"}}"#,
             headers: ["apns-push-type": "voip"], []),
        Case("a VoIP topic is not either", #"{"aps": {"alert": {"caller": "Alice"}}}"#, headers: ["apns-topic": "com.example.app.voip"], []),
        Case("a background push's alert is never shown", #"{"aps": {"content-available": 1, "alert": {"sync": "full"}}}"#,
             headers: ["apns-push-type": "background"], [
            "warning [V5] $.aps.content-available: content-available with an alert: iOS shows the alert and wakes the app only as it sees fit — send background updates as their own push (no alert, apns-push-type background, apns-priority 5)",
        ]),
    ]

    /// V10: keys that only VoIP or background pushes use are not reported as misplaced alert keys.
    @Test(arguments: alertKeys)
    func V10_VoIPAndBackgroundKeysAreNotMisplacedAlertKeys(_ c: Case) {
        #expect(Self.findings(c, rules: ["V5"]) == c.expected)
    }

    static let critical: [Case] = [
        Case("APNs critical: 1", #"{"aps": {"alert": "hi", "sound": {"critical": 1, "name": "siren.caf"}}}"#, ["$.aps.sound.critical"]),
        Case("the Admin SDK's critical: true", #"{"message": {"token": "t", "apns": {"payload": {"aps": {"alert": "hi", "sound": {"critical": true}}}}}}"#,
             ["$.message.apns.payload.aps.sound.critical"]),
        Case("Expo's critical: true", #"{"to": "ExponentPushToken[x]", "body": "hi", "sound": {"critical": true}}"#, ["$.sound.critical"]),
        Case("critical: 0", #"{"aps": {"alert": "hi", "sound": {"critical": 0, "name": "a.caf"}}}"#, []),
        Case("a sound by name", #"{"aps": {"alert": "hi", "sound": "siren.caf"}}"#, []),
    ]

    @Test(arguments: critical)
    func I10_aCriticalSoundNotesTheEntitlement(_ c: Case) {
        let notes = Lint.check(LintTests.push(c.json)).filter { $0.rule == "I10" }
        #expect(notes.map(\.path) == c.expected)
        #expect(notes.allSatisfy { $0.severity == .note && $0.message.contains("critical-alerts entitlement") })
    }

    @Test func W3_V7_actionsAsAnObjectIsTheBrowsersTypeError() {
        let push = LintTests.push(#"{"title": "Hi", "options": {"body": "b", "actions": {"action": "reply", "title": "Reply"}}}"#)
        #expect(Lint.check(push).map { "\($0.severity) [\($0.rule)] \($0.path)" } == ["error [V7] $.options.actions"])
        #expect(push.delivery(on: .web, defaultApp: "app")
            == .rejected("TypeError: actions must be an array of {action, title}, not an object; the browser refuses to show it (W3) at $.options.actions"))
    }
}
