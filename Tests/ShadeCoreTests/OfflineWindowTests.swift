import Foundation
import Testing
@testable import ShadeCore

/// DESIGN "Offline delivery (wave 2)": the `--offline FROM..UNTIL` window, the replay rule's times, the
/// transitions a stream takes a center through, and a whole recording with each of O1–O5 in it.
struct OfflineWindowTests {
    @Test(arguments: [
        ("5m..10m", OfflineWindow(from: .offset(300_000), until: .offset(600_000))),
        ("90s..1h30m", OfflineWindow(from: .offset(90_000), until: .offset(5_400_000))),
        ("0s..2h", OfflineWindow(from: .offset(0), until: .offset(7_200_000))),
        ("1h0m5s..1h1m", OfflineWindow(from: .offset(3_605_000), until: .offset(3_660_000))),
        ("2026-11-30T10:15:00Z..2026-11-30T10:20:00.500Z",
         OfflineWindow(from: .time(1_796_033_700_000), until: .time(1_796_034_000_500))),
        ("5m..2026-11-30T10:20:00Z", OfflineWindow(from: .offset(300_000), until: .time(1_796_034_000_000))),
    ])
    func offlineWindow_boundsAreOffsetsOrISOTimes(text: String, window: OfflineWindow) throws {
        #expect(try OfflineWindow.parse(text) == window)
    }

    static let example = "e.g. --offline 5m..10m (offsets from the first push: 90s, 5m, 1h30m) or ISO 8601 times"

    @Test(arguments: [
        ("5m", "--offline 5m: expected FROM..UNTIL, " + example),
        ("..5m", "--offline ..5m: a bound is missing, " + example),
        ("5m..", "--offline 5m..: a bound is missing, " + example),
        ("5x..10m", #"--offline 5x..10m: "5x" is neither an offset nor an ISO 8601 time, "# + example),
        ("10s5m..1h", #"--offline 10s5m..1h: "10s5m" is neither an offset nor an ISO 8601 time, "# + example),
        ("m..5m", #"--offline m..5m: "m" is neither an offset nor an ISO 8601 time, "# + example),
        ("5m1..10m", #"--offline 5m1..10m: "5m1" is neither an offset nor an ISO 8601 time, "# + example),
        ("10m..5m", "--offline 10m..5m: FROM must come before UNTIL, " + example),
        ("5m..5m", "--offline 5m..5m: FROM must come before UNTIL, " + example),
        // Digits past Int64 saturate (Checked) rather than trap: 1s..(huge) is a window, (huge)..1s is not.
        ("99999999999999999999999h..1s", "--offline 99999999999999999999999h..1s: FROM must come before UNTIL, " + example),
    ])
    func offlineWindow_aBadWindowSaysTheFix(text: String, message: String) {
        #expect(throws: UsageError(message)) { try OfflineWindow.parse(text) }
    }

    /// The replay rule: `at` (never before the one before), a batch line at once, 250 ms after the one before without `at`.
    @Test func arrivalClock_timesEachPushByTheReplayRule() {
        var intake = Intake()
        let ndjson = [
            #"{"aps":{"alert":"no at: first, time 0"}}"#,
            #"{"aps":{"alert":"250 ms later"}}"#,
            #"{"at":"1970-01-01T00:00:10.000Z","payload":{"aps":{"alert":"at 10 s"}}}"#,
            #"[{"aps":{"alert":"a batch"}},{"aps":{"alert":"at once"}}]"#,
            #"{"at":"1970-01-01T00:00:05.000Z","payload":{"aps":{"alert":"never before the one before"}}}"#,
            #"{"nope":1}"#,
        ].joined(separator: "\n")
        var clock = ArrivalClock()
        let times = intake.lines(Array(ndjson.utf8), source: "t.jsonl").map { clock.time(of: $0) }
        #expect(times == [0, 250, 10_000, 10_250, 10_250, 10_250, 10_500])
        #expect(clock.origin == 0)
    }

    /// Seconds of each push, the window, and what happens before each push and at the end.
    @Test(arguments: [
        ([60, 70, 80, 120, 130], "10s..60s", ["60: -", "70: offline at 70", "80: -", "120: online at 120", "130: -", "end: -"]),
        ([60, 70, 80], "10s..60s", ["60: -", "70: offline at 70", "80: -", "end: online at 120"]),
        ([60, 65, 200], "0s..30s", ["60: offline at 60", "65: -", "200: online at 90", "end: -"]),
        // The window passed between two pushes with none in it: nothing to wait for.
        ([60, 200], "10s..30s", ["60: -", "200: -", "end: -"]),
        // A window of ISO times before the first push.
        ([60, 70], "1970-01-01T00:00:10Z..1970-01-01T00:00:20Z", ["60: -", "70: -", "end: -"]),
    ])
    func offlineTimeline_goesOfflineAtFromAndComesBackAtUntil(seconds: [Int], window: String, expected: [String]) throws {
        func words(_ transitions: [OfflineTimeline.Transition]) -> String {
            transitions.isEmpty ? "-" : transitions.map {
                switch $0 {
                case .goOffline(let at): "offline at \(at / 1000)"
                case .comeOnline(let at): "online at \(at / 1000)"
                }
            }.joined(separator: ", ")
        }
        let ndjson = seconds.map { #"{"at":"\#(Timestamp.iso8601(millis: Int64($0) * 1000))","payload":{"aps":{"alert":"x"}}}"# }
        var timeline = OfflineTimeline(try OfflineWindow.parse(window))
        var intake = Intake()
        var steps: [String] = []
        for outcome in intake.lines(Array(ndjson.joined(separator: "\n").utf8), source: "t.jsonl") {
            let step = timeline.next(outcome)
            steps.append("\(step.time / 1000): \(words(step.transitions))")
        }
        steps.append("end: \(words(timeline.finish()))")
        #expect(steps == expected)
    }

    @Test func O2_theDeletedMessagesEventIsOnePerReconnectAndEventsStayBounded() {
        var android = Center(profile: Profile(platform: .android))
        var intake = Intake()
        let flood = (1...101).map { #"{"to":"t","data":{"sync":"\#($0)"}}"# }.joined(separator: "\n")
        let outcomes = intake.lines(Array(flood.utf8), source: "t.jsonl")
        for spell in 0..<40 {
            android.goOffline(at: Int64(spell) * 1000)
            android.goOffline(at: Int64(spell) * 1000 + 1)   // already offline: nothing changes
            for outcome in outcomes { android.apply(outcome) }
            android.comeOnline(at: Int64(spell) * 1000 + 500)
            android.comeOnline(at: Int64(spell) * 1000 + 600)   // already back: nothing happens
        }
        #expect(android.dropped == 40 * 101)
        #expect(android.silent == 0)
        #expect(android.events.count == Center.eventLimit)
        #expect(android.events.filter { $0.rule == "O2" }.count == Center.eventLimit)
        #expect(android.events.last?.text.hasSuffix("discarded 101; on reconnect the app's onDeletedMessages() is called once") == true)
    }

    /// Which service holds a push, by platform and how it was sent (DECISIONS: one store per Center).
    @Test(arguments: [
        (#"{"to":"t","notification":{"title":"t"}}"#, nil, "android FCM, ios FCM, web -"),
        (#"{"message":{"token":"t","notification":{"title":"t"}}}"#, nil, "android FCM, ios FCM, web FCM"),
        (#"{"aps":{"alert":"a"}}"#, nil, "android -, ios APNs, web -"),
        (#"{"userId":"u","title":"t"}"#, nil, "android FCM, ios APNs, web the web push service"),
        (#"{"to":"ExponentPushToken[x]","body":"b"}"#, nil, "android FCM, ios APNs, web -"),
        (#"{"title":"t","options":{}}"#, nil, "android -, ios -, web the web push service"),
        // A Web Push message: the browser's push service held it, whatever its plaintext.
        (#"{"message":{"token":"t","notification":{"title":"t"}}}"#, "webpush", "android -, ios -, web the web push service"),
    ] as [(String, String?, String)])
    func O1toO4_theServiceThatHoldsAPush(json: String, via: String?, expected: String) {
        var intake = Intake()
        guard case .push(let push)? = intake.document(Array(json.utf8), source: "t.json", transport: Transport(via: via)).first else {
            Issue.record("not a push")
            return
        }
        let services = Platform.allCases.map { platform in
            "\(platform.rawValue) " + (push.reaches(platform) ? OfflineStore.service(of: push, on: platform).rawValue : "-")
        }
        #expect(services.joined(separator: ", ") == expected)
    }

    /// A silent push's badge still applies (I6) — when it arrives.
    @Test func I6_aBadgeThatWaitedAppliesWhenItArrives() {
        var ios = Center(profile: Profile(platform: .ios))
        var intake = Intake()
        ios.goOffline(at: 0)
        for outcome in intake.lines(Array(#"{"aps":{"badge":7}}"#.utf8), source: "t.jsonl") { ios.apply(outcome, at: 10) }
        #expect(ios.badge == 0)
        #expect(ios.state.waiting == 1)
        #expect(ios.state.offlineSince == 0)
        ios.comeOnline(at: 20)
        #expect(ios.badge == 7)
        #expect(ios.silent == 1)
        #expect(ios.state.offlineSince == nil)
    }

    /// A whole recording (Samples/offline-session.jsonl) with each of O1–O5 in it, offline from 10 s to
    /// 5 min after its first push: what each platform holds at the end, and what the services did.
    @Test func offlineSession_eachOfO1toO5OnEveryPlatform() throws {
        let url = SamplesStateTests.samples.appendingPathComponent("offline-session.jsonl")
        let ndjson = try String(contentsOf: url, encoding: .utf8)
        let centers = try OfflineDeliveryTests.offline(ndjson, everyPlatform, window: "10s..5m")
        #expect(centers.map { Self.withEvents($0.state) } == [
            #"""
            android received=118 shown=5 silent=0 calls=0 rejected=0 elsewhere=8 dropped=105 badge=0
            Notifications
              {"kind":"bundle","key":"app","app":"app","title":"app","lines":[],"total":4,"children":[{"kind":"plain","key":"n118","app":"app","title":"Back online","lines":[{"text":"The pushes above arrived at 10:05"}],"total":1,"at":"2026-11-30T10:06:00.000Z"},{"kind":"plain","key":"weather","app":"app","title":"Weather","lines":[{"text":"Rain from 14:00"}],"total":1,"at":"2026-11-30T10:05:00.000Z"},{"kind":"plain","key":"score","app":"app","title":"Match 12","lines":[{"text":"2 – 0"}],"total":1,"at":"2026-11-30T10:05:00.000Z"},{"kind":"plain","key":"n1","app":"app","title":"Good morning","lines":[{"text":"Your daily summary is ready"}],"total":1,"at":"2026-11-30T10:00:00.000Z"}],"at":"2026-11-30T10:06:00.000Z"}
              {"kind":"plain","key":"n7","app":"com.example.shop","title":"Cart","lines":[{"text":"You left 3 items"}],"total":1,"at":"2026-11-30T10:05:00.000Z"}
            events
              [O2] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: FCM had more than 100 non-collapsible messages and discarded 101; on reconnect the app's onDeletedMessages() is called once
              [O1] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: FCM kept only the newest push per collapse key (at most 4 keys): 3 dropped
              [O5] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: 1 push expired before the device came back
            """#,
            #"""
            ios received=118 shown=7 silent=0 calls=0 rejected=0 elsewhere=105 dropped=6 badge=0
            Notification Center
              {"kind":"plain","key":"app","app":"app","title":"Back online","lines":[{"text":"Your daily summary is ready"},{"text":"2 – 0"},{"text":"Rain from 14:00"},{"text":"The pushes above arrived at 10:05"}],"total":4,"at":"2026-11-30T10:06:00.000Z"}
              {"kind":"plain","key":"com.example.parcels","app":"com.example.parcels","title":"Parcel","lines":[{"text":"Out for delivery"}],"total":1,"at":"2026-11-30T10:05:00.000Z"}
              {"kind":"plain","key":"com.example.ci","app":"com.example.ci","title":"Build 42","lines":[{"text":"Failed: 3 tests"}],"total":1,"at":"2026-11-30T10:05:00.000Z"}
              {"kind":"plain","key":"com.example.shop","app":"com.example.shop","title":"Cart","lines":[{"text":"You left 3 items"}],"total":1,"at":"2026-11-30T10:05:00.000Z"}
            events
              [O1] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: FCM kept only the newest push per collapse key (at most 4 keys): 3 dropped
              [O3] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: APNs kept only the newest push per app: 1 dropped
              [O5] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: 2 pushes expired before the device came back
            """#,
            #"""
            web received=118 shown=2 silent=0 calls=0 rejected=0 elsewhere=114 dropped=2 badge=0
            Notifications
              {"kind":"plain","key":"n117","app":"app","title":"Newsletter","lines":[{"text":"The week in review"}],"total":1,"at":"2026-11-30T10:05:00.000Z"}
              {"kind":"plain","key":"n115","app":"app","title":"Basket","lines":[{"text":"2 items waiting"}],"total":1,"at":"2026-11-30T10:05:00.000Z"}
            events
              [O4] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: 1 web push was replaced by a later one with the same Topic
              [O5] offline 2026-11-30 10:00:10 → 2026-11-30 10:05:00: 1 push expired before the device came back
            """#
        ])
    }

    static func withEvents(_ state: CenterState) -> String {
        guard case .object(var root) = StateJSON.value(state) else { return "" }
        root["events"] = .array(state.events.map { .string($0.description) })
        return digest(json: .object(root))
    }
}
