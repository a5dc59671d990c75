// Time as a plain millisecond count, injected so replay timing is tested without waiting.
#if canImport(Glibc)
import Glibc
#endif

/// A source of "now" in milliseconds. Only differences matter; the origin is the clock's own.
public protocol Clock {
    func nowMillis() -> Int64
}

/// CLOCK_MONOTONIC: never jumps when the wall clock is set, so replay gaps stay true.
public struct SystemClock: Clock, Sendable {
    public init() {}

    public func nowMillis() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}

/// A clock that moves only when told to (tests).
public final class ManualClock: Clock {
    public private(set) var now: Int64

    public init(now: Int64 = 0) {
        self.now = now
    }

    public func nowMillis() -> Int64 { now }

    public func advance(by millis: Int64) {
        now += millis
    }

    public func set(_ millis: Int64) {
        now = millis
    }
}

/// CLOCK_REALTIME: the wall clock, for the `at` of received pushes (timing uses a monotonic clock).
public struct WallClock: Clock, Sendable {
    public init() {}

    public func nowMillis() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
