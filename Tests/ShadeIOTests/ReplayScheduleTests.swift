import Testing
import ShadeIO

@Test func timestampedEntriesKeepTheirGaps() {
    let clock = ManualClock(now: 10_000)
    var schedule = ReplaySchedule(times: [1_000, 1_500, 3_500])
    #expect(Array(schedule.offsets) == [0, 500, 2_500])
    #expect(schedule.due(at: clock.nowMillis()) == 0..<1)
    #expect(schedule.nextDueTime == 10_500)
    clock.advance(by: 499)
    #expect(schedule.due(at: clock.nowMillis()) == 1..<1)
    clock.advance(by: 1)
    #expect(schedule.due(at: clock.nowMillis()) == 1..<2)
    #expect(schedule.due(at: clock.nowMillis()) == 2..<2)   // each index once
    #expect(schedule.nextDueTime == 12_500)
    clock.advance(by: 5_000)
    #expect(schedule.due(at: clock.nowMillis()) == 2..<3)
    #expect(schedule.isFinished)
    #expect(schedule.nextDueTime == nil)
}

@Test func speedScalesTheGaps() {
    var schedule = ReplaySchedule(times: [1_000, 1_500, 3_500], speed: 2)
    #expect(schedule.due(at: 0) == 0..<1)
    #expect(schedule.nextDueTime == 250)
    #expect(schedule.due(at: 250) == 1..<2)
    #expect(schedule.nextDueTime == 1_250)
    #expect(schedule.due(at: 1_249) == 2..<2)
    #expect(schedule.due(at: 1_250) == 2..<3)
}

@Test func slowSpeedRoundsTheWakeUpTimeUp() {
    var schedule = ReplaySchedule(times: [0, 100], speed: 0.3)
    #expect(schedule.due(at: 0) == 0..<1)
    #expect(schedule.nextDueTime == 334)
    #expect(schedule.due(at: 333) == 1..<1)
    #expect(schedule.due(at: 334) == 1..<2)
}

@Test func entriesWithoutTimestampsComeAtTheFixedInterval() {
    #expect(Array(ReplaySchedule(times: [nil, nil, 5_000, 5_100, nil]).offsets) == [0, 250, 500, 600, 850])
    #expect(Array(ReplaySchedule(times: [nil, nil, nil], speed: 2).offsets) == [0, 250, 500])
    var schedule = ReplaySchedule(times: [nil, nil, nil], speed: 2)
    #expect(schedule.due(at: 0) == 0..<1)
    #expect(schedule.nextDueTime == 125)
}

@Test func timestampsThatGoBackComeRightAfterThePreviousEntry() {
    #expect(Array(ReplaySchedule(times: [1_000, 900, 2_000, 1_950]).offsets) == [0, 0, 1_000, 1_000])
}

@Test func instantMakesEverythingDueAtOnce() {
    var schedule = ReplaySchedule(times: [0, 60_000, nil, 3_600_000], instant: true)
    #expect(schedule.due(at: 5) == 0..<4)
    #expect(schedule.isFinished)
    #expect(schedule.progress(at: 5) == 1)
}

@Test func pauseStepAndResume() {
    var schedule = ReplaySchedule(times: [0, 1_000, 2_000, 3_000])
    #expect(schedule.due(at: 0) == 0..<1)
    schedule.pause(at: 500)
    #expect(schedule.isPaused)
    #expect(schedule.due(at: 5_000) == 1..<1)
    #expect(schedule.nextDueTime == nil)
    #expect(schedule.step() == 1)
    #expect(schedule.nextDueTime == 500)   // already due: a poll timeout of zero
    #expect(schedule.due(at: 5_000) == 1..<2)
    #expect(schedule.nextDueTime == nil)
    // Resuming goes on from the stepped entry: the next comes its original gap later.
    schedule.resume(at: 6_000)
    #expect(schedule.nextDueTime == 7_000)
    #expect(schedule.due(at: 6_999) == 2..<2)
    #expect(schedule.due(at: 7_000) == 2..<3)
}

@Test func twoStepsReleaseTwoEntriesEvenAtTheSameInstant() {
    var schedule = ReplaySchedule(times: [5, 5, 5, 5])
    schedule.pause(at: 0)
    #expect(schedule.due(at: 0) == 0..<0)
    #expect(schedule.step() == 0)
    #expect(schedule.step() == 1)
    #expect(schedule.due(at: 100) == 0..<2)
    #expect(schedule.step() == 2)
    #expect(schedule.step() == 3)
    #expect(schedule.step() == nil)
    #expect(schedule.due(at: 100) == 2..<4)
}

@Test func pausedFromTheStartWaitsForAStep() {
    var schedule = ReplaySchedule(times: [0, 1_000])
    schedule.pause(at: 0)
    #expect(schedule.due(at: 10_000) == 0..<0)
    #expect(schedule.step() == 0)
    #expect(schedule.due(at: 20_000) == 0..<1)
    schedule.resume(at: 30_000)
    #expect(schedule.nextDueTime == 31_000)
}

@Test func entriesAlreadyDueWhenPausedStillGoOut() {
    var schedule = ReplaySchedule(times: [0, 1_000, 2_000])
    #expect(schedule.due(at: 0) == 0..<1)
    schedule.pause(at: 1_500)   // the loop had not asked since entry 1 became due
    #expect(schedule.due(at: 9_000) == 1..<2)
    #expect(schedule.due(at: 9_000) == 2..<2)
}

@Test func seekWhilePausedDeliversWhatItPasses() {
    var schedule = ReplaySchedule(times: [0, 1_000, 2_000])
    #expect(schedule.due(at: 0) == 0..<1)
    schedule.pause(at: 100)
    schedule.seek(by: 1_000, at: 5_000)
    #expect(schedule.due(at: 5_000) == 1..<2)
    #expect(schedule.isPaused)
}

@Test func changingSpeedKeepsThePosition() {
    var schedule = ReplaySchedule(times: [0, 1_000, 2_000])
    #expect(schedule.due(at: 0) == 0..<1)
    schedule.setSpeed(4, at: 500)
    #expect(schedule.speed == 4)
    #expect(schedule.nextDueTime == 625)
    #expect(schedule.due(at: 625) == 1..<2)
    #expect(schedule.nextDueTime == 875)
    #expect(schedule.elapsed(at: 875) == 2_000)
}

@Test func seekForwardDeliversWhatItPasses() {
    var schedule = ReplaySchedule(times: [0, 1_000, 2_000, 3_000])
    #expect(schedule.due(at: 0) == 0..<1)
    schedule.seek(by: 2_000, at: 500)
    #expect(schedule.elapsed(at: 500) == 2_500)
    #expect(schedule.due(at: 500) == 1..<3)
    #expect(schedule.nextDueTime == 1_000)
    #expect(schedule.due(at: 1_000) == 3..<4)
}

@Test func seekBackRewindsThePosition() {
    var schedule = ReplaySchedule(times: [0, 1_000, 2_000, 3_000])
    schedule.start(at: 0)
    #expect(schedule.due(at: 2_100) == 0..<3)
    schedule.seek(by: -1_800, at: 2_100)
    #expect(schedule.position == 1)   // the caller rebuilds from entry 0 alone
    #expect(schedule.elapsed(at: 2_100) == 300)
    #expect(schedule.nextDueTime == 2_800)
    #expect(schedule.due(at: 2_800) == 1..<2)
    // Back to the start: entry 0 is due at time 0, so it counts as delivered; the rest come again.
    schedule.seek(by: -10_000, at: 3_000)
    #expect(schedule.position == 1)
    #expect(schedule.elapsed(at: 3_000) == 0)
    #expect(schedule.nextDueTime == 4_000)
}

@Test func seekToIndex() {
    var schedule = ReplaySchedule(times: [0, 1_000, 2_000, 3_000])
    #expect(schedule.due(at: 0) == 0..<1)
    schedule.seek(toIndex: 3, at: 100)
    #expect(schedule.due(at: 100) == 1..<3)
    #expect(schedule.nextDueTime == 1_100)   // entry 3 keeps its gap after entry 2
    schedule.seek(toIndex: 1, at: 200)
    #expect(schedule.position == 1)
    #expect(schedule.due(at: 1_199) == 1..<1)
    #expect(schedule.due(at: 1_200) == 1..<2)
}

@Test func restartLoopsTheReplay() {
    var schedule = ReplaySchedule(times: [0, 1_000], speed: 2)
    #expect(schedule.due(at: 0) == 0..<1)
    #expect(schedule.due(at: 500) == 1..<2)
    #expect(schedule.isFinished)
    schedule.restart(at: 9_000)
    #expect(!schedule.isFinished)
    #expect(schedule.due(at: 9_000) == 0..<1)
    #expect(schedule.nextDueTime == 9_500)
}

@Test func progressForAProgressBar() {
    var schedule = ReplaySchedule(times: [0, 1_000, 4_000])
    #expect(schedule.total == 4_000)
    #expect(schedule.due(at: 100) == 0..<1)
    #expect(schedule.elapsed(at: 1_100) == 1_000)
    #expect(schedule.progress(at: 1_100) == 0.25)
    #expect(schedule.progress(at: 100_000) == 1)
    #expect(schedule.elapsed(at: 100_000) == 4_000)
}

@Test func manualAndSystemClocks() {
    let clocks: [any Clock] = [ManualClock(now: 42), SystemClock()]
    #expect(clocks[0].nowMillis() == 42)
    let a = clocks[1].nowMillis()
    let b = clocks[1].nowMillis()
    #expect(b >= a)
}
