// The system's time zone (`TZ`, else /etc/localtime) as a `LocalTime` table: the C library reads the
// zone files, so this lives with the other code that touches the system.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ShadeCore

public enum SystemTimeZone {
    /// The years whose offset changes are looked up; outside them the nearest known offset holds.
    /// Recordings and live pushes fall well inside.
    public static let years: ClosedRange<Int64> = 1990...2060

    /// The zone's offsets over `years`, found by asking the C library week by week and narrowing each
    /// change down to the second (about 4,000 lookups, a millisecond or two).
    public static func localTime() -> LocalTime {
        tzset()
        let start = (years.lowerBound - 1970) * 31_556_952   // seconds; the average Gregorian year
        let end = (years.upperBound + 1 - 1970) * 31_556_952
        let week: Int64 = 7 * 86_400
        var changes = [LocalTime.Change(from: .min, offsetSeconds: offset(at: start))]
        var previous = start
        var second = start + week
        while second <= end {
            let now = offset(at: second)
            if now != changes[changes.count - 1].offsetSeconds {
                // The change is in (previous, second]: halve the interval down to one second.
                var low = previous, high = second
                while high - low > 1 {
                    let mid = low + (high - low) / 2
                    if offset(at: mid) == now { high = mid } else { low = mid }
                }
                changes.append(LocalTime.Change(from: high * 1000, offsetSeconds: now))
            }
            previous = second
            second += week
        }
        return LocalTime(changes: changes)
    }

    /// Seconds east of UTC at a Unix time, as `localtime_r` gives it.
    static func offset(at seconds: Int64) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}
