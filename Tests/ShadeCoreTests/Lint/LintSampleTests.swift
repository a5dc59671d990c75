import Testing
@testable import ShadeCore

/// Each file of Samples/lint triggers its check: the whole list of its diagnostics as
/// `line: severity [rule] path (platform)`, notes included.
struct LintSample: Sendable, CustomTestStringConvertible {
    var file: String
    var expected: [String]
    init(_ file: String, _ expected: [String]) {
        self.file = file
        self.expected = expected
    }
    var testDescription: String { file }
}

enum LintSamples {
    static let v1: [LintSample] = [
        .init("V1-apns-too-large.apns", ["1: error [V1] $ (ios)"]),
        .init("V1-apns-voip-too-large.jsonl", ["1: error [V1] $.payload (ios)"]),
        // FCM refuses it whichever platform it was for: legacy messages reach iOS too (SPEC §1).
        .init("V1-fcm-legacy-too-large.json", ["1: error [V1] $"]),
        .init("V1-fcm-v1-too-large.json", ["1: error [V1] $"]),
        .init("V1-web-push-too-large.json", ["1: warning [V1] $ (web)"]),
    ]
    static let v2: [LintSample] = [
        .init("V2-apns-token-field-not-hex.jsonl", ["1: error [V2] $.payload.token (ios)"]),
        .init("V2-background-priority-10.jsonl", ["1: error [V2] $.headers.apns-priority (ios)"]),
        .init("V2-collapse-id-too-long.jsonl", ["1: error [V2] $.headers.apns-collapse-id (ios)"]),
        .init("V2-empty-device-token.jsonl", ["1: error [V2] $.path (ios)"]),
        .init("V2-fcm-v1-apns-collapse-id-too-long.json", ["10: error [V2] $.message.apns.headers.apns-collapse-id (ios)"]),
        .init("V2-non-hex-device-token.jsonl", ["1: error [V2] $.path (ios)"]),
        .init("V2-unknown-priority.jsonl", ["1: error [V2] $.headers.apns-priority (ios)"]),
    ]
    static let v3: [LintSample] = [
        .init("V3-data-only-object-data.json", ["5: warning [V3] $.data.changes (android)"]),
        .init("V3-fcm-legacy-number-data.json", ["8: warning [V3] $.data.unread (android)"]),
        .init("V3-fcm-legacy-reserved-key.json", [#"8: error [V3] $.data["google.c.a.e"] (android)"#]),
        .init("V3-fcm-v1-android-data-boolean.json", ["10: error [V3] $.message.android.data.urgent"]),
        .init("V3-fcm-v1-number-data.json", ["10: error [V3] $.message.data.count"]),
        .init("V3-fcm-v1-reserved-key.json", ["9: error [V3] $.message.data.from"]),
    ]
    static let v4: [LintSample] = [
        .init("V4-avatar-not-a-url.json", ["6: note [C9] $.data.conversationId", "9: error [V4] $.data.senderAvatarUrl"]),
        .init("V4-avatar-not-https.json", ["6: note [C9] $.data.conversationId", "9: warning [V4] $.data.senderAvatarUrl"]),
        .init("V4-conversation-id-object.json", ["6: warning [V4] $.data.conversationId"]),
        .init("V4-is-group-not-boolean.json", ["6: note [C9] $.data.conversationId", "8: warning [V4] $.data.conversationIsGroup"]),
        .init("V4-sender-without-conversation.json", ["6: warning [V4] $.data.senderName"]),
    ]
    static let v5: [LintSample] = [
        .init("V5-content-available-with-alert.apns", ["7: warning [V5] $.aps.content-available (ios)"]),
        .init("V5-custom-key-in-aps.apns", ["7: warning [V5] $.aps.orderId (ios)"]),
        .init("V5-sound-in-alert.apns", ["6: warning [V5] $.aps.alert.sound (ios)"]),
        .init("V5-unknown-alert-key.apns", ["5: warning [V5] $.aps.alert.message (ios)"]),
    ]
    static let v6: [LintSample] = [
        .init("V6-extra-loc-args.apns", ["4: warning [V6] $.aps.alert.title-loc-key (ios)"]),
        // FCM legacy reaches iOS too (SPEC §1): iOS shows (null) for the missing argument.
        .init("V6-too-few-loc-args.json", ["4: warning [V6] $.notification.body_loc_key (android)", "4: warning [V6] $.notification.body_loc_key (ios)"]),
        .init("V6-unknown-loc-key.apns", ["4: warning [V6] $.aps.alert.loc-key (ios)"]),
    ]
    static let v7: [LintSample] = [
        .init("V7-actions-object.json", ["5: error [V7] $.options.actions (web)"]),
        .init("V7-fcm-v1-webpush-renotify.json", ["8: error [V7] $.message.webpush.notification.renotify (web)"]),
        .init("V7-renotify-without-tag.json", ["5: error [V7] $.options.renotify (web)"]),
        .init("V7-silent-with-vibrate.json", ["6: error [V7] $.options.vibrate (web)"]),
        .init("V7-three-actions.json", ["5: warning [V7] $.options.actions (web)"]),
    ]
    static let v8: [LintSample] = [
        .init("V8-duplicate-key.apns", ["5: warning [V8] $.aps.badge"]),
        .init("V8-trailing-comma.json", ["4: error [V8] $"]),
    ]
    static let v9: [LintSample] = [
        .init("V9-aps-aler.apns", ["3: warning [V9] $.aps.aler (ios)"]),
        .init("V9-collapse-id-header.jsonl", ["1: warning [V9] $.headers.collapse-id (ios)"]),
        .init("V9-conversation-id-case.json", ["6: warning [V9] $.data.conversationID"]),
        .init("V9-thread-id-underscore.apns", ["7: warning [V9] $.aps.thread_id (ios)"]),
    ]
    static let v10: [LintSample] = [
        .init("V10-notification-unknown-keys.json", ["3: warning [V10] $.notification"]),
        .init("V10-sound-without-alert.apns", ["3: warning [V10] $.aps.sound (ios)"]),
    ]
    static let notes: [LintSample] = [
        .init("C9-conversation-sdk-gate.json", ["6: note [C9] $.data.conversationId"]),
        .init("I2-avatar-needs-mutable-content.apns", ["8: note [C9] $.conversationId (ios)", "11: note [I2] $.senderAvatarUrl (ios)"]),
        .init("D1-D8-unknown-shape.json", ["1: error [D1-D8] $"]),
        .init("D2-admin-sdk-spellings.json", ["11: note [D2] $.message.apns.payload.aps.threadId (ios)", "12: note [D2] $.message.apns.payload.aps.mutableContent (ios)"]),
        .init("I10-critical-sound.apns", ["8: note [I10] $.aps.sound.critical (ios)"]),
    ]
    static let all = v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + notes

    static func check(_ sample: LintSample) {
        let pushes = LintFiles.lint("Samples/lint/" + sample.file)
        #expect(LintFiles.summary(pushes) == sample.expected)
        // The sample is named after the rule it shows: that rule is among its findings.
        let rule = sample.file.hasPrefix("D1-D8") ? "D1-D8" : String(sample.file.prefix { $0 != "-" })
        #expect(pushes.flatMap(\.diagnostics).contains { $0.rule == rule })
    }
}

@Suite struct LintSampleTests {
    @Test(arguments: LintSamples.v1) func V1_sizesPerTarget(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v2) func V2_apnsHeadersAndDeviceTokens(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v3) func V3_fcmDataValuesAndReservedKeys(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v4) func V4_conversationKeys(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v5) func V5_keysAppleIgnores(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v6) func V6_localizationKeysAndArguments(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v7) func V7_webOptions(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v8) func V8_invalidJSONAndDuplicateKeys(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v9) func V9_didYouMean(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.v10) func V10_pushesThatShowNothing(_ sample: LintSample) { LintSamples.check(sample) }
    @Test(arguments: LintSamples.notes) func C9_I2_I10_D_notesAndUnknownShape(_ sample: LintSample) { LintSamples.check(sample) }

    /// Every file in Samples/lint has its row above (a new sample needs its expectation).
    @Test func V_everySampleHasAnExpectation() {
        #expect(LintFiles.names(in: "Samples/lint") == LintSamples.all.map(\.file).sorted())
    }

    @Test(arguments: LintFiles.names(in: "Samples/lint/clean"))
    func V_cleanSamplesAreSilent(_ file: String) {
        let pushes = LintFiles.lint("Samples/lint/clean/" + file)
        #expect(!pushes.isEmpty)
        #expect(LintFiles.summary(pushes) == [])
    }

    /// The other samples show what Shade does; none is refused, except the demo's one push of
    /// no known shape, there on purpose to show the errors view.
    @Test func V_projectSamplesHaveNoErrors() {
        var errors: [String] = []
        for file in LintFiles.names(in: "Samples") {
            for push in LintFiles.lint("Samples/" + file) {
                for d in push.diagnostics where d.severity == .error {
                    errors.append("\(push.source.name):\(d.line ?? 0) [\(d.rule)]")
                }
            }
        }
        #expect(errors == ["Samples/demo.jsonl:15 [D1-D8]"])
    }
}
