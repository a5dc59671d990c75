import Testing
@testable import ShadeCore

@Suite struct LintTests {
    static func push(_ json: String, headers: [String: String] = [:], path: String? = nil, via: String? = nil) -> Push {
        var intake = Intake()
        let outcomes = intake.document(Array(json.utf8), source: "test.json", transport: Transport(headers: HeaderFields(headers), path: path, via: via))
        guard case .push(let push)? = outcomes.first else { fatalError("not a push: \(outcomes)") }
        return push
    }

    /// `Lint.check` on a bare push: payload paths from `$`, headers and the request path named as such.
    @Test func V2_checkOfABarePushNamesHeadersAndPath() {
        let push = Self.push(#"{"aps": {"alert": "hi"}}"#,
                             headers: ["apns-collapse-id": String(repeating: "x", count: 70), "apns-priority": "7"], path: "/3/device/nothex")
        #expect(Lint.check(push).map { "\($0.severity) [\($0.rule)] \($0.path) \($0.line ?? 0)" } == [
            "error [V2] header apns-collapse-id 1",
            "error [V2] header apns-priority 1",
            "error [V2] :path 1",
        ])
    }

    @Test func V3_fcmV1NumberMessageSaysWhatToSend() {
        let push = Self.push(#"{"message": {"token": "t", "data": {"count": 3}}}"#)
        #expect(Lint.check(push) == [
            Diagnostic(.error, "V3", path: "$.message.data.count",
                       #"FCM v1 requires string values; got number 3 — send "3"; FCM refuses the whole message"#, line: 1),
        ])
    }

    @Test func V3_sendToUserDataMayHoldAnyJSON() {
        let push = Self.push(#"{"userId": "u", "title": "t", "body": "b", "data": {"count": 3, "nested": {"a": [1]}}}"#)
        #expect(Lint.check(push) == [])
    }

    /// `--platform` keeps the checks of one target; a push that does not reach it says so.
    @Test func V_platformLimitsTheChecks() {
        let file = "Samples/lint/V5-sound-in-alert.apns"
        #expect(LintFiles.summary(LintFiles.lint(file, platforms: [.ios])) == ["6: warning [V5] $.aps.alert.sound (ios)"])
        let elsewhere = LintFiles.lint(file, platforms: [.android])
        #expect(elsewhere.first?.diagnostics == [
            Diagnostic(.note, "D4", path: "$", "this APNs payload reaches iOS only: nothing to check for Android", platform: .ios, line: 1),
        ])
        // A send-to-user request over every limit: an error per service, a warning for web push.
        let big = #"{"userId": "u", "title": "t", "body": ""# + String(repeating: "x", count: 4200) + #""}"#
        let pushes = Lint.document(Array(big.utf8), source: "big.json")
        #expect(LintFiles.summary(pushes) == ["1: error [V1] $ (ios)", "1: error [V1] $ (android)", "1: warning [V1] $ (web)"])
        #expect(LintFiles.summary(Lint.document(Array(big.utf8), source: "big.json", platforms: [.web])) == ["1: warning [V1] $ (web)"])
    }

    /// A batch: each element is one push, reported at its own line, with `$[i]` paths.
    @Test func V_batchElementsHaveTheirOwnLinesAndPaths() {
        let batch = """
        [
          {"aps": {"alert": "fine"}},
          {"message": {"token": "t",
                       "data": {"n": 1}}},
          "not an object"
        ]
        """
        let pushes = Lint.document(Array(batch.utf8), source: "batch.json")
        #expect(pushes.map(\.source.description) == ["batch.json:2", "batch.json:3", "batch.json:5"])
        #expect(pushes.map(\.shape) == [.apns, .fcmV1, nil])
        #expect(LintFiles.summary(pushes) == ["4: error [V3] $[1].message.data.n", "5: error [D1-D8] $[2]"])
    }

    @Test func V8_invalidLineOfAnNDJSONFileReportsItsLine() {
        let text = "{\"aps\": {\"alert\": \"one\"}}\n\n{\"aps\": {\"alert\": \"two\",}}\n"
        let pushes = Lint.lines(Array(text.utf8), source: "s.jsonl")
        #expect(pushes.map(\.source.description) == ["s.jsonl:1", "s.jsonl:3"])
        #expect(pushes.last?.diagnostics.map(\.message) == [
            "invalid JSON at line 3, column 24: trailing comma before '}' — the service refuses the payload and nothing is shown; fix the JSON",
        ])
    }

    @Test func V6_userTablesDecideWhatIsUnknown() throws {
        let table = try StringTable.parse(Array(#"{"order_shipped": "Order %1$@ shipped"}"#.utf8), name: "strings.json")
        let tables = StringTables(locale: .default, user: [table])
        let known = Self.push(##"{"aps": {"alert": {"loc-key": "order_shipped", "loc-args": ["#1042"]}}}"##)
        #expect(Lint.check(known, tables: tables) == [])
        #expect(Lint.check(known).map(\.message) == [
            #"no string `order_shipped` in the loaded tables (built-in en); iOS shows the key itself; consider sending a literal body, as the IM SDK advises — the device shows "order_shipped" (L5)"#,
        ])
        // A literal body wins over the key (I3): nothing to look up.
        let literal = Self.push(#"{"aps": {"alert": {"loc-key": "nope", "body": "Order shipped"}}}"#)
        #expect(Lint.check(literal) == [])
        // FCM legacy reaches iOS too (SPEC §1), where the missing argument reads (null).
        let legacy = Self.push(#"{"to": "t", "notification": {"body_loc_key": "order_shipped", "body_loc_args": "[]"}}"#)
        #expect(Lint.check(legacy, tables: tables).map { "\($0.platform!) \($0.path) \($0.message)" } == [
            "android $.notification.body_loc_key `order_shipped` uses argument 1 but none were given; Android's String.format fails (MissingFormatArgumentException) and the field stays empty (L6)",
            #"ios $.notification.body_loc_key `order_shipped` uses argument 1 but none were given; iOS shows (null) in its place — the device shows "Order (null) shipped" (L6)"#,
        ])
    }

    @Test func V6_L3_aStringWhereTheFormatWantsANumberIsAWarning() throws {
        // L3: `%d` given a word inserts it as text, "with a warning": lint gives the one the trace gives.
        let table = try StringTable.parse(Array(#"{"k2": "%s-%d-%%", "ok": "%s has %d"}"#.utf8), name: "strings.json")
        let tables = StringTables(locale: .default, user: [table])
        let word = Self.push(#"{"notification": {"body_loc_key": "k2", "body_loc_args": ["A", "notnum"]}}"#)
        #expect(Lint.check(word, tables: tables).map { "\($0.rule) \($0.severity) \($0.platform!) \($0.path) \($0.message)" } == [
            #"V6 warning android $.notification.body_loc_key `%d` expects an integer but argument 2 is `notnum`; inserted as text — the device shows "A-notnum-%" (L3)"#,
            #"V6 warning ios $.notification.body_loc_key `%d` expects an integer but argument 2 is `notnum`; inserted as text — the device shows "A-notnum-%" (L3)"#,
        ])
        let number = Self.push(#"{"notification": {"body_loc_key": "ok", "body_loc_args": ["Ali", "3"]}}"#)
        #expect(Lint.check(number, tables: tables) == [])
    }

    @Test func C9_gateNamesTheVersionsOfTheTargetsAskedFor() {
        let push = Self.push(#"{"userId": "u", "title": "t", "body": "b", "data": {"conversationId": 42}}"#)
        #expect(Lint.check(push, platforms: [.android]).map(\.message) == [
            "conversation display needs Android SDK 0.1.22, Flutter 0.1.31, React Native 0.1.22 or later; an older SDK ignores the keys and shows a plain notification (C9)",
        ])
        #expect(Lint.check(push, platforms: [.web]).map(\.message) == [
            "conversation display needs Web SDK 0.1.15 or later; an older SDK ignores the keys and shows a plain notification (C9)",
        ])
    }

    @Test func I2_noteSaysWhenMutableContentIsThere() {
        let push = Self.push(#"{"aps": {"alert": "hi", "mutable-content": 1}, "conversationId": "c", "senderAvatarUrl": "https://a.example/p.jpg"}"#)
        let note = Lint.check(push).first { $0.rule == "I2" }
        #expect(note?.message == #"iOS 15+ shows the sender photo only through the Notification Service Extension: the push needs "mutable-content": 1 and the app the Communication Notifications capability (with INSendMessageIntent in NSUserActivityTypes); without them iOS shows the app icon (I2)"#)
    }

    @Test(arguments: [("https://cdn.example.com/a.jpg", true), ("http://x", true), ("data:image/png;base64,AAAA", true),
                      ("cdn.example.com/a.jpg", false), ("/avatars/a.jpg", false), ("https://a b", false), ("1:2", false)])
    func V4_whatCountsAsAURL(_ text: String, _ isURL: Bool) {
        #expect(PushChecker.isURL(text) == isURL)
    }

    /// Payload text never reaches the terminal as a control character.
    @Test func V_controlCharactersInPayloadsAreEscapedInTheReport() {
        let push = Self.push("{\"aps\": {\"alert\": \"hi\", \"x\\u001b[2J\": 1, \"y\\u009b\": 2}}")
        let report = LintReport(pushes: [LintedPush(source: push.source, shape: .apns, diagnostics: Lint.check(push))])
        let text = report.text()
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) })
        #expect(text.contains(#"$.aps["x\u001b[2J"]"#))
        #expect(text.contains(#"$.aps["y\u009b"]"#))
    }

    @Test func V_pathsQuoteKeysThatAreNotPlain() {
        #expect(JSONPath.member("$", "aps") == "$.aps")
        #expect(JSONPath.member("$.aps", "content-available") == "$.aps.content-available")
        #expect(JSONPath.member("$", "Simulator Target Bundle") == #"$["Simulator Target Bundle"]"#)
        #expect(JSONPath.member("$.data", "google.c.a.e") == #"$.data["google.c.a.e"]"#)
        #expect(JSONPath.steps(#"$.data["a.b[c\"]"][2]"#) == [.key("data"), .key("a.b[c\"]"), .index(2)])
        #expect(JSONPath.steps("$[3].aps") == [.index(3), .key("aps")])
        #expect(JSONPath.steps("$") == [])
        #expect(JSONPath.steps("header apns-topic") == nil)
        let steps: [JSONPathStep] = [.key("aps"), .key("x\u{1B}y"), .index(0), .key("content-available")]
        #expect(JSONPath.steps(JSONPath.path("$", steps)) == steps)
    }
}
