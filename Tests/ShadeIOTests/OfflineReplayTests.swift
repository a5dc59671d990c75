import Testing
import ShadeCore
@testable import ShadeIO

// SPEC §8 on the run loop: `shade replay --offline FROM..UNTIL` and the TUI's `o`, with a ManualClock.

/// One app's pushes at 0, 1, 2 and 10 s: with `--offline 1s..5s` the second and third wait at APNs,
/// which keeps only the third (O3); it arrives at 5 s, before the fourth.
let offlineRecording = """
    {"at":"2026-11-30T10:15:00.000Z","headers":{"apns-topic":"com.a"},"payload":{"aps":{"alert":"online"}}}
    {"at":"2026-11-30T10:15:01.000Z","headers":{"apns-topic":"com.a"},"payload":{"aps":{"alert":"waits, then replaced"}}}
    {"at":"2026-11-30T10:15:02.000Z","headers":{"apns-topic":"com.a"},"payload":{"aps":{"alert":"waits"}}}
    {"at":"2026-11-30T10:15:10.000Z","headers":{"apns-topic":"com.a"},"payload":{"aps":{"alert":"after"}}}

    """

/// What the iOS center shows and counts, newest last: `text @ time` per line.
func iosLines(_ session: LiveSession) -> [String] {
    session.states([.ios])[0].items.flatMap { $0.lines }.map { "\($0.text) @ \(Timestamp.iso8601(millis: $0.at ?? 0).dropFirst(11).prefix(8))" }
}

@Test func O3_replayOfflineHoldsPushesUntilTheWindowEnds() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    var effects: [Arrival.Effect?] = []
    session.onArrival = { effects.append($0.effects[.ios]) }
    session.startReplay(recording(offlineRecording), speed: 1, instant: false, paused: false, loops: false,
                        offline: try OfflineWindow.parse("1s..5s"))
    #expect(iosLines(session) == ["online @ 10:15:00"])
    #expect(tick(session, clock, by: 1000) == 2)
    #expect(session.states([.ios])[0].offlineSince == 1_796_033_701_000)
    #expect(tick(session, clock, by: 1000) == 3)
    #expect(session.states([.ios])[0].waiting == 1)
    #expect(session.states([.ios])[0].dropped == 1)
    #expect(iosLines(session) == ["online @ 10:15:00"])
    #expect(tick(session, clock, by: 8000) == 4)
    #expect(iosLines(session) == ["online @ 10:15:00", "waits @ 10:15:05", "after @ 10:15:10"])
    #expect(session.states([.ios])[0].offlineSince == nil)
    #expect(effects == [.shown, .waiting, .waiting, .shown])
}

@Test func replayOffline_aWindowOpenAtTheEndClosesWhenTheReplayEnds() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    session.startReplay(recording(offlineRecording), speed: 1, instant: true, paused: false, loops: false,
                        offline: try OfflineWindow.parse("1s..1h"))
    #expect(session.replay?.isFinished == true)
    #expect(iosLines(session) == ["online @ 10:15:00", "after @ 11:15:00"])
    #expect(session.states([.ios])[0].dropped == 2)
    #expect(session.states([.ios])[0].events.map(\.rule) == ["O3"])
}

@Test func replayOffline_seekingBackReplaysTheWindowFromTheStart() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    session.startReplay(recording(offlineRecording), speed: 1, instant: false, paused: false, loops: false,
                        offline: try OfflineWindow.parse("1s..5s"))
    #expect(tick(session, clock, by: 10_000) == 4)
    let end = session.states([.ios])
    session.replay?.seek(by: -8.5)   // back to 1.5 s: the first two entries, one of them waiting
    #expect(session.states([.ios])[0].waiting == 1)
    #expect(iosLines(session) == ["online @ 10:15:00"])
    #expect(tick(session, clock, by: 10_000) == 4)
    #expect(session.states([.ios]) == end)
}

/// The TUI's `o`: offline now, back now. Live, "now" is the wall clock.
@Test func O3_keyOTakesTheShownProfileOfflineAndBack() throws {
    let clock = ManualClock(now: 1_796_033_700_000)
    let session = try iosSession(clock: clock)
    var intake = Intake()
    func send(_ json: String) {
        var outcomes = intake.document(Array(json.utf8), source: "live")
        // Live pushes are stamped when received.
        if case .push(var push) = outcomes[0] {
            push.transport.atMillis = clock.nowMillis()
            outcomes = [.push(push)]
        }
        session.ingest(outcomes)
    }
    send(#"{"aps":{"alert":"before"}}"#)
    session.toggleOffline([.ios])
    #expect(session.states([.ios])[0].offlineSince == 1_796_033_700_000)
    #expect(session.states([.android])[0].offlineSince == nil)   // only the profile shown
    clock.advance(by: 30_000)
    send(#"{"aps":{"alert":"while away"}}"#)
    send(#"{"aps":{"alert":"while away, newer"}}"#)
    #expect(iosLines(session) == ["before @ 10:15:00"])
    clock.advance(by: 30_000)
    session.toggleOffline([.ios])
    #expect(iosLines(session) == ["before @ 10:15:00", "while away, newer @ 10:16:00"])
    #expect(session.states([.ios])[0].dropped == 1)
    let item = try #require(session.states([.ios])[0].items.first)
    #expect(item.trace.contains { $0.rule == "O3" && $0.text.hasPrefix("waited at APNs while the device was offline (received 2026-11-30 10:15:30, delivered 2026-11-30 10:16:00") })
}

/// While replaying, `o` uses the recording's time, so the trace reads in the recording's clock.
@Test func keyOWhileReplayingUsesTheRecordingsTime() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    session.startReplay(recording(offlineRecording), speed: 1, instant: false, paused: false, loops: false)
    #expect(tick(session, clock, by: 500) == 1)
    session.toggleOffline([.ios])
    #expect(session.states([.ios])[0].offlineSince == 1_796_033_700_500)
    #expect(tick(session, clock, by: 9500) == 4)
    session.toggleOffline([.ios])
    #expect(iosLines(session) == ["online @ 10:15:00", "after @ 10:15:10"])
    #expect(session.states([.ios])[0].dropped == 2)
}
