import Testing
@testable import ShadeIO

/// `--stats` arithmetic on made-up timestamps (microseconds).
@Suite struct SessionStatsTests {
    @Test func framesKeysAndPushesAreMeasuredFromTheTimestampsGiven() {
        let stats = SessionStats(startMicros: 0)
        // 31 frames 33 ms apart: 31 begin within one second.
        for n in 0..<31 { stats.frameDrawn(startedAt: Int64(n) * 33_000, endedAt: Int64(n) * 33_000 + 2_000) }
        #expect(stats.peakFramesPerSecond == 31)
        // A key that may have come at 1.000 s is answered by the frame ending at 1.030 s; one that quits is never counted.
        stats.keysRead(1, since: 1_000_000)
        stats.frameDrawn(startedAt: 1_028_000, endedAt: 1_030_000)
        stats.keysRead(1, since: 1_100_000)
        #expect(stats.keys == 1)
        #expect(stats.worstKeyMicros == 30_000)
        #expect(stats.medianKeyMicros() == 30_000)
        stats.pushesTaken(600, at: 2_000_000)
        stats.pushesTaken(400, at: 2_500_000)
        stats.pushesTaken(500, at: 3_000_000)
        #expect(stats.pushes == 1500)
        #expect(stats.peakPushesPerSecond == 1000)
        let line = stats.summary(at: 4_000_000, drawsFrames: true)
        #expect(line == "shade: stats: 4.0 s; 1500 pushes, 1500/s while they came (peak 1000 in one second); 32 frames, 8.0/s "
            + "(at most 31 in any second, the slowest 2.0 ms); 1 key, worst latency 30.0 ms (median 30.0 ms)")
        #expect(stats.summary(at: 4_000_000, drawsFrames: false).hasSuffix("; headless: no frames, no keys"))
    }

    @Test func theLoopBoundsAnArrivalByItsOwnPollTimes() {
        let loop = PollLoop(handler: NullHandler())
        _ = loop.runOnce(timeout: 0)   // nothing ready: returns at once
        #expect(loop.readySinceMicros == loop.previousPollReturnedMicros)
        _ = loop.runOnce(timeout: 5)   // waits 5 ms: whatever woke it came as it returned
        #expect(loop.pollReturnedMicros - loop.pollEnteredMicros >= 1_000)
        #expect(loop.readySinceMicros == loop.pollReturnedMicros)
    }
}

private final class NullHandler: ConnectionHandler {
    func respond(to request: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse { .error(status: 500, "") }
    func respond(toLine line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8] { [] }
}
