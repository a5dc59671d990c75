/// How a device's clock reads an instant: UTC moved by its time zone's offset at that instant, as a
/// phone in Tokyo shows 15:53 for 06:53 UTC. A value: the zone is a table of the instants its offset
/// changes (daylight saving), which ShadeIO reads from the system (`TZ` honoured); `.utc` gives output
/// that is the same on every machine (`--utc`). Machine formats (the state JSON's `at`) stay UTC.
public struct LocalTime: Sendable, Equatable {
    /// From `from` (ms since the epoch) on, the zone is `offsetSeconds` ahead of UTC.
    public struct Change: Sendable, Equatable {
        public var from: Int64
        public var offsetSeconds: Int

        public init(from: Int64, offsetSeconds: Int) {
            self.from = from
            self.offsetSeconds = offsetSeconds
        }
    }

    /// Sorted by `from`; the first offset also holds before the first change.
    public let changes: [Change]

    public static let utc = LocalTime(offsetSeconds: 0)

    public init(offsetSeconds: Int) {
        changes = [Change(from: .min, offsetSeconds: offsetSeconds)]
    }

    public init(changes: [Change]) {
        self.changes = changes.isEmpty ? [Change(from: .min, offsetSeconds: 0)] : changes.sorted { $0.from < $1.from }
    }

    public var isUTC: Bool { changes.allSatisfy { $0.offsetSeconds == 0 } }

    public func offsetSeconds(at millis: Int64) -> Int {
        var low = 0, high = changes.count   // the last change at or before `millis`
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].from <= millis { low = mid + 1 } else { high = mid }
        }
        return changes[max(0, low - 1)].offsetSeconds
    }

    /// The instant moved to the zone's wall clock: read as UTC, it shows the local date and time.
    public func wallMillis(_ millis: Int64) -> Int64 {
        Checked.add(millis, Checked.multiply(Int64(offsetSeconds(at: millis)), 1000))   // `at` is payload text
    }

    /// `15:53`: hours and minutes, as a notification shows its time.
    public func clockTime(_ millis: Int64) -> String {
        Timestamp.clockTime(millis: wallMillis(millis))
    }

    /// `2026-11-30 15:53:07 +09:00`: the full local time, for the inspector and logs.
    public func dateTime(_ millis: Int64) -> String {
        let iso = Timestamp.iso8601(millis: wallMillis(millis))   // 2026-11-30T15:53:07.120Z
        let offset = offsetSeconds(at: millis)
        let sign = offset < 0 ? "-" : "+"
        let minutes = Checked.magnitude(offset) / 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return iso.prefix(10) + " " + iso.dropFirst(11).prefix(8) + " \(sign)\(two(minutes / 60)):\(two(minutes % 60))"
    }

    /// `15:53:07`: the time of day, for a log line.
    public func timeOfDay(_ millis: Int64) -> String {
        String(Timestamp.iso8601(millis: wallMillis(millis)).dropFirst(11).prefix(8))
    }
}
