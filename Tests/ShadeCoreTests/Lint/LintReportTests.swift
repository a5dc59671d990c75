import Testing
@testable import ShadeCore

/// The two output formats of `shade lint`, whole (golden): scripts read them.
@Suite struct LintReportTests {
    static let batch = """
    {"via":"apns","path":"/3/device/5e1d3c8a","headers":{"apns-priority":"10","apns-push-type":"background"},"payload":{"aps":{"content-available":1}}}
    {"userId":"u","title":"Ali","body":"Hi","data":{"conversationId":"room_1","senderAvatarUrl":"http://a.example/ali.jpg"}}
    {"userId":"u","title":"Ali","body":"Again","data":{"conversationId":"room_1"}}
    {"aps":{"alert":"ok"}}
    """

    static func report() -> LintReport {
        LintReport(pushes: Lint.lines(Array(batch.utf8), source: "mixed.jsonl")
                   + LintFiles.lint("Samples/lint/V3-fcm-v1-number-data.json"))
    }

    @Test func V_jsonFormatIsStable() {
        #expect(Self.report().json() == #"""
        [
          {"file":"mixed.jsonl","line":1,"severity":"error","rule":"V2","path":"$.headers.apns-priority","message":"BadPriority: apns-push-type background with apns-priority 10; APNs refuses it and the app is never woken — send apns-priority: 5","platform":"ios"},
          {"file":"mixed.jsonl","line":2,"severity":"warning","rule":"V4","path":"$.data.senderAvatarUrl","message":"senderAvatarUrl \"http://a.example/ali.jpg\" is not https — the device draws initials instead of the photo (C4, N1); serve it over https","platform":null},
          {"file":"mixed.jsonl","line":2,"severity":"note","rule":"C9","path":"$.data.conversationId","message":"conversation display needs Android SDK 0.1.22, iOS SDK 0.1.21, Web SDK 0.1.15, Flutter 0.1.31, React Native 0.1.22 or later; an older SDK ignores the keys and shows a plain notification (C9)","platform":null},
          {"file":"mixed.jsonl","line":3,"severity":"note","rule":"C9","path":"$.data.conversationId","message":"conversation display needs Android SDK 0.1.22, iOS SDK 0.1.21, Web SDK 0.1.15, Flutter 0.1.31, React Native 0.1.22 or later; an older SDK ignores the keys and shows a plain notification (C9)","platform":null},
          {"file":"Samples/lint/V3-fcm-v1-number-data.json","line":10,"severity":"error","rule":"V3","path":"$.message.data.count","message":"FCM v1 requires string values; got number 3 — send \"3\"; FCM refuses the whole message","platform":null}
        ]

        """#)
        #expect(LintReport(pushes: []).json() == "[]\n")
    }

    /// Grouped per push (a header where a file holds several), repeated notes said once, a summary.
    @Test func V_textFormatIsStable() {
        let report = Self.report().collapsingRepeatedNotes()
        #expect(report.text() == """
        mixed.jsonl:1: push 1 of 4 (APNs payload, D4)
        mixed.jsonl:1: error [V2] $.headers.apns-priority (iOS): BadPriority: apns-push-type background with apns-priority 10; APNs refuses it and the app is never woken — send apns-priority: 5
        mixed.jsonl:2: push 2 of 4 (push-service send-to-user request, D3)
        mixed.jsonl:2: warning [V4] $.data.senderAvatarUrl: senderAvatarUrl "http://a.example/ali.jpg" is not https — the device draws initials instead of the photo (C4, N1); serve it over https
        mixed.jsonl:2: note [C9] $.data.conversationId: conversation display needs Android SDK 0.1.22, iOS SDK 0.1.21, Web SDK 0.1.15, Flutter 0.1.31, React Native 0.1.22 or later; an older SDK ignores the keys and shows a plain notification (C9); the same holds for 1 more push in this file
        Samples/lint/V3-fcm-v1-number-data.json:10: error [V3] $.message.data.count: FCM v1 requires string values; got number 3 — send "3"; FCM refuses the whole message
        2 errors, 1 warning, 1 note in 5 pushes

        """)
        #expect(report.hasErrors)
        #expect(LintReport(pushes: []).text() == "0 errors, 0 warnings, 0 notes in 0 pushes\n")
    }
}
