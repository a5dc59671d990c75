import Testing
@testable import ShadeCore

/// SPEC §5: the web profile (SDK 0.1.15).
struct WebTests {
    static let web = Profile(platform: .web)

    static func session(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    @Test func W1_oneNotificationPerConversationKeepingFiveLines() {
        let session = Self.session((1...6).map {
            sendToUser(title: "@ali", body: "m\($0)", data: #""conversationId":"room_42","senderName":"@ali","senderId":"user_ali","senderAvatarUrl":"https://cdn.example.com/ali.jpg""#)
        })
        #expect(digest(center(session, Self.web)) == #"""
            web received=6 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","imageUrl":"https://cdn.example.com/ali.jpg","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"m2"},{"sender":"@ali","senderId":"user_ali","text":"m3"},{"sender":"@ali","senderId":"user_ali","text":"m4"},{"sender":"@ali","senderId":"user_ali","text":"m5"},{"sender":"@ali","senderId":"user_ali","text":"m6"}],"total":6}
            """#)
    }

    @Test func W1_theConversationIdIsTheTagSoAPlainPushWithThatTagJoinsIt() {
        let session = Self.session([
            #"{"title":"Room 42","options":{"body":"Welcome","tag":"room_42"}}"#,
            sendToUser(title: "@ali", body: "hi", data: #""conversationId":"room_42","senderName":"@ali","senderId":"user_ali""#),
        ])
        let item = center(session, Self.web).state.items
        #expect(item.map { "\($0.kind.rawValue) \($0.key) \($0.lines.map(\.text)) \($0.total)" } == [#"conversation room_42 ["hi"] 2"#])
    }

    @Test func W2_oneToOneTitleIsTheSenderGroupTitleIsTheGroupName() {
        let session = Self.session([
            sendToUser(title: "@ali", body: "Is the bike still available?", data: #""conversationId":"room_42","senderName":"@ali","senderId":"user_ali""#),
            sendToUser(title: "Family", body: "Dinner at 8?", data: #""conversationId":"family_7","conversationIsGroup":"1","conversationTitle":"Family","senderName":"Maman","senderId":"user_maman""#),
            sendToUser(title: "Family", body: "Yes", data: #""conversationId":"family_7","conversationIsGroup":"1","conversationTitle":"Family","senderName":"Sara","senderId":"user_sara""#),
        ])
        #expect(digest(center(session, Self.web)) == #"""
            web received=3 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"conversation","key":"family_7","app":"app","title":"Family","isGroup":true,"avatar":{"initials":"S","color":2},"lines":[{"sender":"Maman","senderId":"user_maman","text":"Dinner at 8?"},{"sender":"Sara","senderId":"user_sara","text":"Yes"}],"total":2}
              {"kind":"conversation","key":"room_42","app":"app","title":"@ali","isGroup":false,"avatar":{"initials":"A","color":1},"lines":[{"sender":"@ali","senderId":"user_ali","text":"Is the bike still available?"}],"total":1}
            """#)
    }

    @Test func W3_aTagReplacesTheWebNotificationWithTheSameTag() {
        let session = Self.session([
            #"{"title":"Build","options":{"body":"running","tag":"ci"}}"#,
            #"{"web_push":8030,"notification":{"title":"Build","body":"passed","tag":"ci","renotify":true,"navigate":"https://ci.example.com"}}"#,
            #"{"title":"Build","options":{"body":"no tag"}}"#,
        ])
        #expect(digest(center(session, Self.web)) == #"""
            web received=3 shown=2 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n3","app":"app","title":"Build","lines":[{"text":"no tag"}],"total":1}
              {"kind":"plain","key":"ci","app":"app","title":"Build","lines":[{"text":"passed"}],"total":2}
            """#)
    }

    @Test func W3_optionsTheBrowserThrowsForAreRejectedOnTheWebOnly() {
        let session = Self.session([
            #"{"message":{"token":"t","notification":{"title":"Sale","body":"50% off"},"webpush":{"notification":{"renotify":true}}}}"#,
            #"{"title":"Sale","options":{"body":"50% off","renotify":true,"tag":""}}"#,
            #"{"title":"Sale","options":{"body":"50% off","silent":true,"vibrate":[200,100,200]}}"#,
            #"{"web_push":8030,"notification":{"title":"Sale","renotify":true}}"#,
            #"{"title":"Quiet","options":{"body":"no vibration","silent":true}}"#,
        ])
        #expect(digest(centers(session, everyPlatform)) == #"""
            android received=5 shown=1 silent=0 calls=0 rejected=0 elsewhere=4 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"Sale","lines":[{"text":"50% off"}],"total":1}

            ios received=5 shown=1 silent=0 calls=0 rejected=0 elsewhere=4 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Sale","lines":[{"text":"50% off"}],"total":1}

            web received=5 shown=1 silent=0 calls=0 rejected=4 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n5","app":"app","title":"Quiet","lines":[{"text":"no vibration"}],"total":1}
            errors
              t.jsonl:1 TypeError: renotify needs a non-empty tag; the browser refuses to show it (W3) at $.message.webpush.notification.renotify
              t.jsonl:2 TypeError: renotify needs a non-empty tag; the browser refuses to show it (W3) at $.options.renotify
              t.jsonl:3 TypeError: silent cannot be combined with vibrate; the browser refuses to show it (W3) at $.options.vibrate
              t.jsonl:4 TypeError: renotify needs a non-empty tag; the browser refuses to show it (W3) at $.notification.renotify
            """#)
    }

    @Test func W4_atMostTwoActionsAreShown() {
        let push = #"{"title":"Invite","options":{"body":"Join?","actions":[{"action":"yes","title":"Yes"},{"action":"no","title":"No"},{"action":"later","title":"Later"}]}}"#
        #expect(center(push, Self.web).state.items.map(\.actions) == [["Yes", "No"]])
    }
}
