import Testing
import ShadeCore

/// Local time as a phone shows it: an instant read on its zone's clock.
struct LocalTimeTests {
    /// 2026-11-30T06:53:07.120Z
    static let instant = Timestamp.millis(fromISO8601: "2026-11-30T06:53:07.120Z")!

    @Test(arguments: [(0, "06:53"), (9 * 3600, "15:53"), (-5 * 3600, "01:53"), (5 * 3600 + 1800, "12:23"), (-8 * 3600, "22:53")])
    func aFixedOffsetMovesTheClock(offset: Int, clock: String) {
        #expect(LocalTime(offsetSeconds: offset).clockTime(Self.instant) == clock)
    }

    @Test func theFullTimeNamesItsOffsetAndTheDayMayChange() {
        #expect(LocalTime(offsetSeconds: 9 * 3600).dateTime(Self.instant) == "2026-11-30 15:53:07 +09:00")
        #expect(LocalTime(offsetSeconds: -8 * 3600).dateTime(Self.instant) == "2026-11-29 22:53:07 -08:00")
        #expect(LocalTime.utc.timeOfDay(Self.instant) == "06:53:07")
    }

    @Test func daylightSavingIsReadAtTheInstantItself() {
        // New York: EST (-5) until 2026-03-08 07:00 UTC, EDT (-4) until 2026-11-01 06:00 UTC.
        let spring = Timestamp.millis(fromISO8601: "2026-03-08T07:00:00Z")!
        let autumn = Timestamp.millis(fromISO8601: "2026-11-01T06:00:00Z")!
        let newYork = LocalTime(changes: [.init(from: .min, offsetSeconds: -5 * 3600),
                                          .init(from: spring, offsetSeconds: -4 * 3600),
                                          .init(from: autumn, offsetSeconds: -5 * 3600)])
        #expect(newYork.clockTime(spring - 1) == "01:59")
        #expect(newYork.clockTime(spring) == "03:00")
        #expect(newYork.clockTime(Timestamp.millis(fromISO8601: "2026-07-01T10:15:00Z")!) == "06:15")
        #expect(newYork.clockTime(autumn) == "01:00")
        #expect(!newYork.isUTC && LocalTime.utc.isUTC)
    }
}
