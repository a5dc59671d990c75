// `--fcm-quota N`: FCM v1's downstream quota, so that a backend's back-off path can be tested. FCM
// counts messages (not requests) per project per minute — a minute that starts with the first message,
// not on the clock — and counts client errors (400–499) too, but not the 429s it answers once the
// quota is spent; those last until the minute is over. Its default is 600,000 a minute; Shade applies
// none unless asked, since a test harness means to send fast. No Retry-After goes with the 429: FCM
// asks for exponential back-off from a minute instead, and a client library that honours Retry-After
// (urllib3 under firebase-admin does) would wait the minute out and retry rather than raise.
import ShadeCore

public struct FCMQuota: Sendable, Equatable {
    public static let windowMillis: Int64 = 60_000
    /// What FCM gives a project unless it asks for more.
    public static let fcmDefault = 600_000

    /// Messages a minute.
    public let limit: Int
    private var windowStart: Int64?
    private var used = 0

    public init(limit: Int) {
        self.limit = limit
    }

    /// Counts one FCM v1 message arriving at `now` (ms since 1970), or answers the 429 FCM answers
    /// once this minute's quota is spent (that answer is not counted).
    mutating func take(now: Int64) -> PushRefusal? {
        if let seconds = secondsUntilRefill(now: now) {
            return PushRefusal(
                status: 429, code: "RESOURCE_EXHAUSTED",
                message: "over the FCM quota (--fcm-quota \(limit) messages a minute): FCM answers 429 QUOTA_EXCEEDED until "
                    + "the minute that began with this minute's first message is over, in \(seconds) s; back off and retry",
                serviceMessage: "Quota exceeded for the project's downstream messages (\(limit) a minute).")
        }
        if let start = windowStart, Checked.subtract(now, start) < Self.windowMillis {
            used += 1
        } else {
            windowStart = now
            used = 1
        }
        return nil
    }

    /// While this minute's quota is spent: the whole seconds until it refills; nil when a message
    /// arriving at `now` is taken.
    func secondsUntilRefill(now: Int64) -> Int? {
        guard let start = windowStart, used >= limit else { return nil }
        let left = Checked.subtract(Checked.add(start, Self.windowMillis), now)
        return left > 0 ? Int(Checked.add(left, 999) / 1000) : nil
    }
}
