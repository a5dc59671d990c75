import Testing
@testable import ShadeCore

/// Real payload files from public repositories (Fixtures/vectors, README.md there): each one's whole
/// outcome on Android, iOS and web, as `shade state FILE --platform all` computes it.
struct VectorTests {
    static func run(_ name: String) throws -> [Center] {
        let bytes = try fixtureBytes("vectors/" + name)
        var intake = Intake()
        var centers = everyPlatform.map { Center(profile: $0) }
        for outcome in intake.document(bytes, source: name) {
            for i in centers.indices { centers[i].apply(outcome) }
        }
        return centers
    }

    static let elsewhereOnAndroid = "android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0"
    static let elsewhereOnWeb = "web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0"
    static let elsewhereOnIOS = "ios received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0"

    /// Every platform rejects the same way, and counts it.
    static func rejectedEverywhere(_ source: String, _ reason: String) -> String {
        ["android", "ios", "web"].map { "\($0) received=1 shown=0 silent=0 calls=0 rejected=1 elsewhere=0 badge=0\nerrors\n  \(source) \(reason)" }
            .joined(separator: "\n\n")
    }

    static let expected: [String: String] = [
        "01-rocketchat-push.apns": """
            \(elsewhereOnAndroid)

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"chat.rocket.ios","app":"chat.rocket.ios","title":"Hey!","lines":[{"text":"You have a new push"}],"total":1}

            \(elsewhereOnWeb)
            """,
        "03-zulip-dm.json": rejectedEverywhere("03-zulip-dm.json:9", "invalid JSON (V8) at line 9, column 19: trailing comma before '}'"),
        "07-landmarks-thread-5280.apns": """
            \(elsewhereOnAndroid)

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"5280","app":"app","title":"Silver Salmon Creek","lines":[{"text":"You are within 5 miles of Silver Salmon Creek."}],"total":1,"category":"LandmarkNear"}

            \(elsewhereOnWeb)
            """,
        "08-liveactivities-string-alert.apns": """
            \(elsewhereOnAndroid)

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
            Notification Center
              {"kind":"plain","key":"com.ann.LiveActivities","app":"com.ann.LiveActivities","lines":[{"text":"Hello!"}],"total":1}

            \(elsewhereOnWeb)
            """,
        "10-republik-custom-keys-de.apns": """
            \(elsewhereOnAndroid)

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
            Notification Center
              {"kind":"plain","key":"app.republik","app":"app.republik","title":"Test Title","lines":[{"text":"Test"}],"total":1}

            \(elsewhereOnWeb)
            """,
        "11-carecall-emoji-sound-in-alert.apns": """
            \(elsewhereOnAndroid)

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=10
            Notification Center
              {"kind":"plain","key":"com.glowingsoft.carecall","app":"com.glowingsoft.carecall","title":"Test Push","lines":[{"text":"Success! Push notification in simulator! 🎉"}],"total":1}

            \(elsewhereOnWeb)
            """,
        "12-snapyr-mutable-category-actions.apns": """
            \(elsewhereOnAndroid)

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"com.snapyr.pushtest","app":"com.snapyr.pushtest","title":"Do you remember Katy's dog's name?","lines":[{"text":"Try pressing one of the buttons below to guess!"}],"total":1,"image":"https://assets.pethaven.in/images/Notifications/PN_3.jpg","category":"snapyr","mutableContent":true}

            \(elsewhereOnWeb)
            """,
        "15-pegelwatch-no-aps.apns": rejectedEverywhere("15-pegelwatch-no-aps.apns:1",
            #"unknown payload shape (top-level keys "Simulation Target Bundle"): "# + PayloadShapeTests.tried),
        "16-template-placeholders-trailing-commas.apns": rejectedEverywhere("16-template-placeholders-trailing-commas.apns:10",
            "invalid JSON (V8) at line 10, column 20: trailing comma before '}'"),
        "18-subtitle-emoji-trailing-comma.apns": rejectedEverywhere("18-subtitle-emoji-trailing-comma.apns:10",
            "invalid JSON (V8) at line 10, column 38: trailing comma before '}'"),
        // SPEC §1 (wave 2): FCM legacy requests reach iOS tokens too, through APNs, when they carry a
        // notification block or content_available. So 21 now shows on iOS as well (its click_action is
        // the category on both, I12), and 22, data-only but content_available, is a silent background
        // push on iOS; before, both were `elsewhere` there.
        "21-fcm-legacy-flutter-notification.json": """
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"this is a title","lines":[{"text":"this is a body"}],"total":1,"category":"FLUTTER_NOTIFICATION_CLICK"}

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"this is a title","lines":[{"text":"this is a body"}],"total":1,"category":"FLUTTER_NOTIFICATION_CLICK"}

            \(elsewhereOnWeb)
            """,
        "22-fcm-legacy-data-only-ko.json": """
            android received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0

            ios received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0

            \(elsewhereOnWeb)
            """,
        "24-fcm-v1-ios-apns-override.json": """
            android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"title generic","lines":[{"text":"body generic"}],"total":1}

            ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=4
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"title IOS","lines":[{"text":"Body IOS"}],"total":1}

            web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"title generic","lines":[{"text":"body generic"}],"total":1}
            """,
        "25-fcm-v1-webpush-fish-photos.json": """
            android received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0

            ios received=1 shown=0 silent=1 calls=0 rejected=0 elsewhere=0 badge=0

            web received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n1","app":"app","title":"Fish Photos 🐟","lines":[{"text":"Thanks for signing up for Fish Photos! You now will receive fun daily photos of fish!"}],"total":1,"image":"https://i0.wp.com/androidbash.com/wp-content/uploads/2016/08/FCM.png?resize=750%2C422"}
            """,
        "27-web-push-book-options-template.json": rejectedEverywhere("27-web-push-book-options-template.json:1",
            #"unknown payload shape (top-level keys "//", "body", "icon", "image", "badge", "vibrate", "sound", "dir", …): "# + PayloadShapeTests.tried),
        // SPEC §1 (wave 2): Expo's badge is iOS-only, so the second message no longer sets Android's.
        "29-expo-batch-array.json": """
            android received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
            Notifications
              {"kind":"plain","key":"n3","app":"app","lines":[{"text":"Breaking news!"}],"total":1}
              {"kind":"plain","key":"n2","app":"app","lines":[{"text":"You've got mail"}],"total":1}
              {"kind":"plain","key":"n1","app":"app","lines":[{"text":"Hello world!"}],"total":1}

            ios received=3 shown=3 silent=0 calls=0 rejected=0 elsewhere=0 badge=1
            Notification Center
              {"kind":"plain","key":"app","app":"app","lines":[{"text":"Hello world!"},{"text":"You've got mail"},{"text":"Breaking news!"}],"total":3}

            web received=3 shown=0 silent=0 calls=0 rejected=0 elsewhere=3 badge=0
            """,
    ]

    @Test func everyVectorHasAnExpectedOutcome() throws {
        let files = try fixtureNames("vectors").filter { $0 != "README.md" }
        #expect(files == VectorTests.expected.keys.sorted())
    }

    @Test(arguments: expected.keys.sorted())
    func vector_wholeOutcomeOnEveryPlatform(_ name: String) throws {
        #expect(digest(try VectorTests.run(name)) == VectorTests.expected[name])
    }

    @Test func vector01_jsonInsideAStringStaysCustomData() throws {
        let ios = try VectorTests.run("01-rocketchat-push.apns")[1].state
        let data = try #require(ios.items.first?.data)
        #expect(data.keys == ["ejson"])
        #expect(data["ejson"] == .string(#"{ "host": "https://open.rocket.chat/", "rid": "GENERAL", "type": "c", "name": "general" }"#))
    }

    @Test func vector10_topLevelTitleAndBodyAreAppDataNotTheAlert() throws {
        let ios = try VectorTests.run("10-republik-custom-keys-de.apns")[1].state
        let data = try #require(ios.items.first?.data)
        #expect(data.keys == ["tag", "url", "body", "type", "title"])
        #expect(data["title"] == .string("«Was diese Woche wichtig war» jetzt online"))
    }

    @Test func vector12_customKeysAreAppData() throws {
        let ios = try VectorTests.run("12-snapyr-mutable-category-actions.apns")[1].state
        #expect(ios.items.first?.data.keys == ["imageUrl", "pushCategories"])
    }

    @Test func vector21_clickActionAndDataGoToTheAppOnTap() throws {
        let android = try VectorTests.run("21-fcm-legacy-flutter-notification.json")[0].state
        #expect(android.items.first?.data == JSONObject(["id": .string("1"), "status": .string("done")]))
    }

    @Test func vector25_theWebShowsBothActions() throws {
        let web = try VectorTests.run("25-fcm-v1-webpush-fish-photos.json")[2].state
        #expect(web.items.first?.actions == ["Like", "Unlike"])
        #expect(web.items.first?.data == JSONObject(["notificationType": .string("fishPhoto"), "photoId": .string("123456")]))
    }
}
