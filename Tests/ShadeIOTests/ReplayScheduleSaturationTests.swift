import Testing
import ShadeCore
@testable import ShadeIO

// Issue 10, finding 1: a recording's timestamps are payload numbers; gaps between any two saturate.
@Test func finding1_replayGapsBetweenAnyTimestampsSaturate() {
    var schedule = ReplaySchedule(times: [Int64.min, Int64.max, nil], speed: 0.001)
    #expect(Array(schedule.offsets) == [0, Int64.max, Int64.max])
    #expect(schedule.due(at: 0) == 0..<1)
    #expect(schedule.nextDueTime == Int64.max)
    #expect(schedule.elapsed(at: Int64.max) == 9_223_372_036_854_776)   // at speed 0.001
}
