import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// Replay on the loop with a ManualClock: nothing waits, the loop is stepped with runOnce(timeout: 0).

/// Entries at 0, 1000, 1250 (a bare payload: 250 ms after the one before), 4000 (a batch of two) and
/// a last line cut off mid-write.
let timedRecording = """
    {"at":"2026-11-30T10:15:00.000Z","via":"apns","path":"/3/device/00ff","headers":{"apns-collapse-id":"c"},"payload":{"aps":{"alert":"one"}}}
    {"at":"2026-11-30T10:15:01.000Z","payload":{"aps":{"alert":"two"}}}
    {"aps":{"alert":"bare"}}
    [{"at":"2026-11-30T10:15:04.000Z","payload":{"aps":{"alert":"b1"}}},{"at":"2026-11-30T10:15:04.000Z","payload":{"aps":{"alert":"b2"}}}]
    {"at":"2026-11-30T10:15:05.000Z","payload":{"aps":{"alert":"cut
    """

func iosSession(clock: ManualClock) throws -> LiveSession {
    var options = ProfileOptions()
    _ = try options.set("--platform", "ios")
    return LiveSession(options: options, texts: TextResolver(), journal: nil, apiKey: nil, clock: clock, wallClock: clock)
}

func recording(_ text: String, name: String = "session.jsonl") -> [InputDocument] {
    [InputDocument(name: name, kind: .lines, bytes: Array(text.utf8))]
}

/// Moves the clock and lets the loop fire what is due; returns the pushes received so far on iOS.
func tick(_ session: LiveSession, _ clock: ManualClock, by millis: Int64) -> Int {
    clock.advance(by: millis)
    session.loop.runOnce(timeout: 0)
    return session.centers[.ios]!.received
}

@Test func replayKeepsTheRecordedGapsAndBareLinesComeAfterAFixedInterval() throws {
    let clock = ManualClock(now: 50_000)
    let session = try iosSession(clock: clock)
    var arrivals: [Arrival] = []
    session.onArrival = { arrivals.append($0) }
    session.startReplay(recording(timedRecording), speed: 1, instant: false, paused: false, loops: false)
    let driver = try #require(session.replay)
    #expect(driver.count == 5)
    #expect(driver.pushCount == 6)
    #expect(driver.totalMillis == 4250)
    #expect(session.centers[.ios]!.received == 1)   // the first entry is due at once
    let steps: [(Int64, Int)] = [(999, 1), (1, 2), (249, 2), (1, 3), (2749, 3), (1, 5), (250, 6)]
    #expect(steps.map { tick(session, clock, by: $0.0) } == steps.map(\.1))
    #expect(driver.isFinished)
    #expect(driver.progress == 1)
    // The cut-off last line is reported and skipped; the others keep their recorded headers.
    #expect(session.centers[.ios]!.errors.map(\.source) == ["session.jsonl:5"])
    #expect(session.centers[.ios]!.errors[0].reason.hasPrefix("truncated last line (no newline at the end and not complete JSON): invalid JSON (V8) at line 5"))
    let texts = session.states([.ios])[0].items.flatMap { $0.lines.map(\.text) }
    #expect(texts.sorted() == ["b1", "b2", "bare", "one", "two"])
    #expect(arrivals.first?.push?.transport == Transport(headers: ["apns-collapse-id": "c"], path: "/3/device/00ff", via: "apns",
                                                         at: "2026-11-30T10:15:00.000Z"))
    #expect(arrivals.map { $0.push?.id } == [1, 2, 3, 4, 5, nil])
}

@Test func driverSpeedScalesTheGaps() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    session.startReplay(recording(timedRecording), speed: 4, instant: false, paused: false, loops: false)
    #expect([249, 1, 62, 1].map { tick(session, clock, by: $0) } == [1, 2, 2, 3])
    session.replay?.slower()   // 2×: the batch is 2750 ms of recording away, 1375 ms of ours
    #expect([1373, 1].map { tick(session, clock, by: $0) } == [3, 5])
    #expect(session.replay?.speed == 2)
}

@Test func instantReplayHandsEverythingOutAtOnce() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    session.startReplay(recording(timedRecording), speed: 1, instant: true, paused: false, loops: false)
    #expect(session.centers[.ios]!.received == 6)
    #expect(session.replay?.isFinished == true)
    #expect(session.replay?.playedCount == 6)
}

@Test func pausedReplayWaitsForStepsAndSeekingBackRebuildsTheCenters() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    session.startReplay(recording(timedRecording), speed: 1, instant: false, paused: true, loops: false)
    let driver = try #require(session.replay)
    #expect(tick(session, clock, by: 10_000) == 0)
    driver.step()
    driver.step()
    #expect(session.centers[.ios]!.received == 2)
    #expect(tick(session, clock, by: 10_000) == 2)
    driver.resume()   // from the second entry's time: the bare line is 250 ms on
    #expect([249, 1].map { tick(session, clock, by: $0) } == [2, 3])
    driver.pause()
    #expect(driver.elapsedMillis == 1250)

    let before = session.changeCount
    driver.seek(by: -1.1)   // back to 150 ms: only the first entry is played
    #expect(driver.position == 1)
    #expect(session.changeCount > before)
    let fresh = try iosSession(clock: ManualClock())
    fresh.startReplay(recording(timedRecording), speed: 1, instant: false, paused: true, loops: false)
    fresh.replay?.step()
    #expect(session.states([.ios]) == fresh.states([.ios]))

    driver.seek(by: 3)   // forward past 1000 and 1250: both due at once, none skipped
    #expect(session.centers[.ios]!.received == 3)
    driver.faster()
    #expect(driver.speed == 2)
    #expect(driver.isPaused)
}

@Test func loopingReplayHoldsItsFinalStateBeforeStartingOver() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    let two = """
        {"at":"2026-11-30T10:15:00.000Z","payload":{"aps":{"alert":"one"}}}
        {"at":"2026-11-30T10:15:00.500Z","payload":{"aps":{"alert":"two"}}}

        """
    session.startReplay(recording(two), speed: 1, instant: false, paused: false, loops: true)
    #expect(tick(session, clock, by: 500) == 2)
    #expect(session.replay?.isFinished == true)
    #expect(session.replay?.restartAt == clock.nowMillis() + ReplayDriver.loopPauseMillis)
    #expect(tick(session, clock, by: ReplayDriver.loopPauseMillis - 1) == 2)   // the final state stays
    #expect(tick(session, clock, by: 1) == 1)   // the centers reset, the first entry again
    #expect(session.replay?.restarts == 1)
    #expect(tick(session, clock, by: 500) == 2)
}

@Test func pausingAtTheEndOfALoopHoldsTheFinalStateUntilResumed() throws {
    let clock = ManualClock()
    let session = try iosSession(clock: clock)
    let one = """
        {"at":"2026-11-30T10:15:00.000Z","payload":{"aps":{"alert":"one"}}}

        """
    session.startReplay(recording(one), speed: 1, instant: false, paused: false, loops: true)
    #expect(tick(session, clock, by: 0) == 1)
    session.replay?.pause()
    #expect(session.replay?.restartAt == nil)
    #expect(tick(session, clock, by: ReplayDriver.loopPauseMillis * 3) == 1)
    #expect(session.replay?.restarts == 0)
    session.replay?.resume()
    #expect(tick(session, clock, by: ReplayDriver.loopPauseMillis) == 1)
    #expect(session.replay?.restarts == 1)
}

// MARK: the session's own API

@Test func sessionReportsEachArrivalAndKeepsRecentRejections() throws {
    let clock = ManualClock(now: 1_796_033_700_120)
    var options = ProfileOptions()
    _ = try options.set("--platform", "all")
    let session = LiveSession(options: options, texts: TextResolver(), journal: nil, apiKey: nil, clock: clock, wallClock: clock)
    var arrivals: [Arrival] = []
    session.onArrival = { arrivals.append($0) }
    var intake = Intake()
    let outcomes = intake.document(Array(#"""
        [{"aps":{"alert":"hi"}},
         {"message":{"data":{"k":"v"}}},
         {"userId":"u","title":"@ali","body":"Is the bike still available?","data":{"conversationId":"room_42"}},
         {"nope":1}]
        """#.utf8), source: "batch.json")
    session.ingest(outcomes)
    #expect(session.changeCount == 1)
    let reason = try #require(session.centers[.android]!.errors.first?.reason)
    #expect(reason.hasPrefix("unknown payload shape (top-level keys \"nope\")"))
    #expect(arrivals.map { [$0.effects[.android], $0.effects[.ios], $0.effects[.web]] } == [
        [.elsewhere, .shown, .elsewhere],
        [.silent, .silent, .silent],
        [.shown, .shown, .shown],
        [.rejected(reason), .rejected(reason), .rejected(reason)],
    ])
    #expect(arrivals.map { $0.source.description } == ["batch.json:1", "batch.json:2", "batch.json:3", "batch.json:4"])
    // One rejection, however many centers counted it.
    #expect(session.recentRejections.map(\.source) == ["batch.json:4"])

    let key = try #require(session.states([.android])[0].items.first?.id)
    session.dismiss(itemID: key, on: .android)
    #expect(session.states([.android])[0].items.isEmpty)
    #expect(session.states([.web])[0].items.count == 1)
    session.clearAll()
    #expect(session.states(Platform.allCases).map(\.items.count) == [0, 0, 0])
    #expect(session.changeCount == 3)

    for n in 1...25 {
        session.ingest([.rejected(Rejection(source: SourcePosition(name: "x", line: n), reason: "r\(n)"))])
    }
    #expect(session.recentRejections.count == LiveSession.recentRejectionLimit)
    #expect(session.recentRejections.last?.source == "x:25")
    #expect(session.rejectionCount == 26)
}

@Test func listeningTwiceOnOneSocketIsRefusedAndNothingIsLeftOpen() throws {
    let path = temporarySocketPath()
    let first = try iosSession(clock: ManualClock())
    #expect(try first.listen(socketPath: path, port: nil, bind: nil) == ["unix \(path)"])
    let second = try iosSession(clock: ManualClock())
    #expect(throws: SocketError("another Shade is listening on \(path) — stop it, or choose another --socket")) {
        try second.listen(socketPath: path, port: 0, bind: nil)
    }
    #expect(second.loop.listeners.isEmpty)
    #expect(second.tcpPort == nil)
    first.shutdown()
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(throws: SocketError.self) { try second.listen(socketPath: nil, port: 70_000, bind: nil) }
}

/// Three one-to-one chats a second apart, on Android.
let threeChats = """
    {"at":"2026-11-30T10:15:00.000Z","payload":{"data":{"conversationId":"a","senderName":"A"},"notification":{"title":"A","body":"1"}}}
    {"at":"2026-11-30T10:15:01.000Z","payload":{"data":{"conversationId":"b","senderName":"B"},"notification":{"title":"B","body":"2"}}}
    {"at":"2026-11-30T10:15:02.000Z","payload":{"data":{"conversationId":"c","senderName":"C"},"notification":{"title":"C","body":"3"}}}

    """

@Test func seekingBackKeepsWhatTheViewerDismissed() throws {
    let clock = ManualClock()
    let session = LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: nil, clock: clock, wallClock: clock)
    session.startReplay(recording(threeChats), speed: 1, instant: false, paused: false, loops: false)
    _ = tick(session, clock, by: 1_000)
    func keys() -> [String] { session.states([.android])[0].items.map(\.key).sorted() }
    #expect(keys() == ["a", "b"])
    let a = try #require(session.states([.android])[0].items.first { $0.key == "a" })
    session.dismiss(itemID: a.id, on: .android)
    _ = tick(session, clock, by: 1_000)
    #expect(keys() == ["b", "c"])

    session.replay?.seek(by: -1)   // back before c: a stays dismissed
    #expect(keys() == ["b"])
    session.replay?.seek(by: -10)  // back before the dismissal: a is there until play reaches it again
    #expect(keys() == ["a"])
    _ = tick(session, clock, by: 1_000)
    #expect(keys() == ["b"])
    _ = tick(session, clock, by: 1_000)
    #expect(keys() == ["b", "c"])
}

@Test func clearingAllDuringAReplaySurvivesASeek() throws {
    let clock = ManualClock()
    let session = LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: nil, clock: clock, wallClock: clock)
    session.startReplay(recording(threeChats), speed: 1, instant: false, paused: false, loops: false)
    _ = tick(session, clock, by: 1_000)
    session.clearAll()
    _ = tick(session, clock, by: 1_000)
    session.replay?.seek(by: -1)
    #expect(session.states([.android])[0].items.isEmpty)
}
