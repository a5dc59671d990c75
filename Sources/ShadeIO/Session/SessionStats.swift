// `shade listen --stats`: frames, pushes and key latency, from the run loop's own timestamps.

/// What a live session did, measured on the loop's monotonic microsecond clock
/// (`PollLoop.monotonicMicros`): frames drawn, pushes taken, and how long each key took from the
/// earliest it can have arrived (`PollLoop.readySinceMicros`) to the end of the frame that showed
/// its effect. Each number is what the loop saw, not a guess from the outside.
public final class SessionStats {
    public let startMicros: Int64
    public private(set) var frames = 0
    /// The most frames drawn within any one second.
    public private(set) var peakFramesPerSecond = 0
    public private(set) var keys = 0
    /// The longest a frame took to compose and write.
    public private(set) var worstFrameMicros: Int64 = 0
    public private(set) var worstKeyMicros: Int64 = 0
    private var keyLatencies: [Int64] = []
    /// The newest frame times, for the busiest second (30 a second at most: a second needs 31 to go over).
    private var recentFrames: [Int64] = []
    /// Keys read and not yet shown: how many, and the earliest of their arrival bounds.
    private var pendingKeys = 0
    private var pendingKeySince: Int64?
    /// Pushes per whole second of the run, for the busiest second and the seconds with traffic.
    private var pushSeconds: [Int64: Int] = [:]
    public private(set) var pushes = 0
    private var firstPushMicros: Int64?
    private var lastPushMicros: Int64?

    public init(startMicros: Int64 = PollLoop.monotonicMicros()) {
        self.startMicros = startMicros
    }

    /// Keys were read; the earliest can have come at `since`.
    public func keysRead(_ count: Int, since: Int64) {
        guard count > 0 else { return }
        pendingKeys += count
        pendingKeySince = min(pendingKeySince ?? since, since)
    }

    /// A frame was composed from `start` and written by `end`: it answers every key read before it
    /// (a key that quits is answered by no frame, and is not counted). Frames per second count starts.
    public func frameDrawn(startedAt now: Int64, endedAt end: Int64) {
        frames += 1
        worstFrameMicros = max(worstFrameMicros, end - now)
        recentFrames.append(now)
        if recentFrames.count > 64 { recentFrames.removeFirst(recentFrames.count - 64) }
        let inLastSecond = recentFrames.reversed().prefix { now - $0 < 1_000_000 }.count
        peakFramesPerSecond = max(peakFramesPerSecond, inLastSecond)
        if let since = pendingKeySince {
            let latency = max(0, end - since)
            worstKeyMicros = max(worstKeyMicros, latency)
            if keyLatencies.count < 100_000 { keyLatencies.append(latency) }
            pendingKeySince = nil
            keys += pendingKeys
            pendingKeys = 0
        }
    }

    /// `count` pushes (accepted or refused) were taken in the round at `now`.
    public func pushesTaken(_ count: Int, at now: Int64) {
        guard count > 0 else { return }
        pushes += count
        if firstPushMicros == nil { firstPushMicros = now }
        lastPushMicros = now
        pushSeconds[(now - startMicros) / 1_000_000, default: 0] += count
    }

    public var peakPushesPerSecond: Int { pushSeconds.values.max() ?? 0 }

    public func medianKeyMicros() -> Int64? {
        guard !keyLatencies.isEmpty else { return nil }
        return keyLatencies.sorted()[keyLatencies.count / 2]
    }

    /// `shade: stats: 10.2 s; 102400 pushes, 10039/s while they came (peak 10240 in one second); 306 frames,
    /// 30.0/s (at most 30 in any second, the slowest 9.1 ms); 12 keys, worst latency 34.1 ms (median 18.0 ms)`
    public func summary(at now: Int64 = PollLoop.monotonicMicros(), drawsFrames: Bool) -> String {
        let elapsed = Double(max(1, now - startMicros)) / 1e6
        var text = "shade: stats: \(Self.decimal(elapsed)) s; \(pushes) push\(pushes == 1 ? "" : "es")"
        if let first = firstPushMicros, let last = lastPushMicros {
            // Over the seconds the pushes came in, so an idle start or end does not dilute the rate.
            let span = max(1.0, Double(last - first) / 1e6)
            text += ", \(Int((Double(pushes) / span).rounded()))/s while they came (peak \(peakPushesPerSecond) in one second)"
        }
        guard drawsFrames else { return text + "; headless: no frames, no keys" }
        text += "; \(frames) frame\(frames == 1 ? "" : "s"), \(Self.decimal(Double(frames) / elapsed))/s "
            + "(at most \(peakFramesPerSecond) in any second, the slowest \(Self.decimal(Double(worstFrameMicros) / 1000)) ms)"
        text += "; \(keys) key\(keys == 1 ? "" : "s")"
        if let median = medianKeyMicros() {
            text += ", worst latency \(Self.decimal(Double(worstKeyMicros) / 1000)) ms (median \(Self.decimal(Double(median) / 1000)) ms)"
        }
        return text
    }

    /// One decimal place.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
