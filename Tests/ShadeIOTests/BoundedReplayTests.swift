import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// Replay holds no pushes: entries are read from the inputs as they come due (ReplayFeed), a flood is
// applied in rounds, and seeking back reads the inputs again.

private func writeRecording(_ text: String, name: String = "rec.jsonl") throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shade-replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// N envelopes a second apart, each a new plain APNs alert (a thread of its own per 7).
private func manyPushes(_ n: Int) -> String {
    (0..<n).map { i in
        let t = 1_000 + i
        return #"{"at":"2026-11-30T10:\#(String(format: "%02d", (t / 60) % 60)):\#(String(format: "%02d", t % 60)).000Z","payload":{"aps":{"alert":"m\#(i)","thread-id":"th\#(i % 7)"}}}"#
    }.joined(separator: "\n") + "\n"
}

@Test func aFileReplaysAsTheSameBytesInMemoryDo() throws {
    let path = try writeRecording(timedRecording)
    let clock = ManualClock(now: 50_000)
    let fromFile = try iosSession(clock: clock)
    fromFile.startReplay(try InputFiles.openForReplay(InputFiles.sources([path])), speed: 1, instant: true, paused: false, loops: false)
    let inMemory = try iosSession(clock: clock)
    inMemory.startReplay([InputDocument(name: path, kind: .lines, bytes: Array(timedRecording.utf8))], speed: 1, instant: true,
                         paused: false, loops: false)
    #expect(fromFile.replay?.isFinished == true)
    #expect(fromFile.replay?.pushCount == 6)
    #expect(fromFile.states(Platform.allCases) == inMemory.states(Platform.allCases))
}

@Test func anInstantFloodIsAppliedInRoundsAndEndsWithTheStateOfTheWhole() throws {
    let n = ReplayDriver.entriesPerRound * 2 + 10
    let text = manyPushes(n)
    let path = try writeRecording(text)
    let clock = ManualClock(now: 50_000)
    let session = try iosSession(clock: clock)
    var rounds = 0
    session.startReplay(try InputFiles.openForReplay(InputFiles.sources([path])), speed: 1, instant: true, paused: false, loops: false)
    let driver = try #require(session.replay)
    #expect(driver.pushCount == n)
    while !driver.isFinished && rounds < 10 {
        #expect(session.center(.ios).received == min(n, ReplayDriver.entriesPerRound * (rounds + 1)))
        session.loop.runOnce(timeout: 0)
        rounds += 1
    }
    #expect(rounds == 2)
    #expect(driver.playedCount == n)
    var intake = Intake()
    var whole = Center(profile: session.options.profile(.ios))
    for outcome in intake.lines(Array(text.utf8), source: path) { whole.apply(outcome) }
    #expect(session.center(.ios).state == whole.state)
}

@Test func seekingBackReadsTheFileAgainAndRebuildsTheSameCenters() throws {
    let text = manyPushes(40)
    let path = try writeRecording(text)
    let clock = ManualClock(now: 50_000)
    let session = try iosSession(clock: clock)
    session.startReplay(try InputFiles.openForReplay(InputFiles.sources([path])), speed: 1, instant: false, paused: false, loops: false)
    let driver = try #require(session.replay)
    _ = tick(session, clock, by: 20_000)           // entries at 0…20 s
    #expect(driver.position == 21)
    let otherClock = ManualClock(now: 50_000)   // its own clock: ticking it leaves the first replay's time alone
    let at10 = try iosSession(clock: otherClock)
    at10.startReplay(try InputFiles.openForReplay(InputFiles.sources([path])), speed: 1, instant: false, paused: false, loops: false)
    _ = tick(at10, otherClock, by: 10_000)
    driver.seek(by: -10)                            // back to 10 s: entries 0…10 again, read from the start
    #expect(driver.position == 11)
    #expect(driver.playedCount == 11)
    #expect(session.states(Platform.allCases) == at10.states(Platform.allCases))
    driver.seek(by: 100)                            // forward past the end: everything, none skipped
    session.loop.runOnce(timeout: 0)
    #expect(driver.isFinished)
    #expect(session.center(.ios).received == 40)
}

@Test func aReplayedSessionHoldsNoPushes() throws {
    // The feed keeps the entry it gathers and the outcome read past it, whatever the recording's length.
    let path = try writeRecording(manyPushes(300))
    let inputs = try InputFiles.openForReplay(InputFiles.sources([path]))
    let feed = ReplayFeed(inputs.inputs, firstID: 1)
    var entries = 0
    while let entry = feed.nextEntry() {
        #expect(entry.count == 1)
        #expect(feed.pendingCount <= 1)
        entries += 1
    }
    #expect(entries == 300)
    feed.rewind()
    #expect(feed.nextEntry().map { ReplayFeed.source(of: $0[0]).line } == 1)
}

@Test func aLiveSessionPastTheErrorLimitStillTellsTheNewestRejection() throws {
    let clock = ManualClock(now: fixedReceivedMillis)
    let session = LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: nil, clock: clock, wallClock: clock)
    var last: Arrival?
    session.onArrival = { last = $0 }
    let connection = ConnectionInfo(id: 1, transport: .unix)
    for n in 1...(Center.errorLimit + 5) {
        _ = session.respond(toLine: Array("{\"bad\": \(n),".utf8), lineNumber: n, from: connection)
    }
    #expect(session.center(.android).rejected == Center.errorLimit + 5)
    #expect(session.center(.android).errors.count == Center.errorLimit)
    #expect(session.recentRejections.count == LiveSession.recentRejectionLimit)
    #expect(session.recentRejections.last?.source.hasSuffix(":\(Center.errorLimit + 5)") == true)
    #expect(session.rejectionCount == Center.errorLimit + 5)
    guard case .rejected(let reason)? = last?.effects[.android] else { Issue.record("not rejected"); return }
    #expect(reason.contains("line \(Center.errorLimit + 5)"))
}
