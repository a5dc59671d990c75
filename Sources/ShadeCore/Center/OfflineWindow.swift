/// `--offline FROM..UNTIL` (DESIGN "Offline delivery"): the profile is offline from FROM until UNTIL,
/// each an offset from the first push (`90s`, `5m`, `1h30m`) or an ISO 8601 time. Half-open: a push
/// at FROM waits, one at UNTIL does not.
public struct OfflineWindow: Sendable, Equatable {
    public enum Bound: Sendable, Equatable {
        /// Milliseconds after the first push.
        case offset(Int64)
        /// Milliseconds since the epoch.
        case time(Int64)

        func resolved(origin: Int64) -> Int64 {
            switch self {
            case .offset(let millis): return Checked.add(origin, millis)
            case .time(let millis): return millis
            }
        }
    }

    public var from: Bound
    public var until: Bound

    public init(from: Bound, until: Bound) {
        self.from = from
        self.until = until
    }

    /// `5m..10m`, `90s..1h30m`, `2026-11-30T10:15:00Z..2026-11-30T10:20:00Z`; a usage error that
    /// says the fix otherwise.
    public static func parse(_ text: String) throws(UsageError) -> OfflineWindow {
        let example = "e.g. --offline 5m..10m (offsets from the first push: 90s, 5m, 1h30m) or ISO 8601 times"
        guard let dots = text.firstRange(of: "..") else {
            throw UsageError("--offline \(text): expected FROM..UNTIL, \(example)")
        }
        let parts = [String(text[..<dots.lowerBound]), String(text[dots.upperBound...])]
        var bounds: [Bound] = []
        for part in parts {
            guard let bound = bound(part) else {
                throw UsageError("--offline \(text): \(part.isEmpty ? "a bound is missing" : "\"\(part)\" is neither an offset nor an ISO 8601 time"), \(example)")
            }
            bounds.append(bound)
        }
        switch (bounds[0], bounds[1]) {
        case (.offset(let a), .offset(let b)) where a >= b, (.time(let a), .time(let b)) where a >= b:
            throw UsageError("--offline \(text): FROM must come before UNTIL, \(example)")
        default:
            return OfflineWindow(from: bounds[0], until: bounds[1])
        }
    }

    static func bound(_ text: String) -> Bound? {
        if let offset = offset(text) { return .offset(offset) }
        return Timestamp.millis(fromISO8601: text).map(Bound.time)
    }

    /// `90s`, `5m`, `1h30m`, `2h`, `1h0m5s`: hours, minutes and seconds in that order, each once.
    static func offset(_ text: String) -> Int64? {
        var total: Int64 = 0
        var digits = ""
        var units: [Character] = []
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let scale: Int64
            switch character {
            case "h": scale = 3_600_000
            case "m": scale = 60_000
            case "s": scale = 1000
            default: return nil
            }
            // Each unit once, larger first, each after its digits.
            guard !digits.isEmpty, units.last.map({ "hms".firstIndex(of: $0)! < "hms".firstIndex(of: character)! }) ?? true,
                  let value = Checked.integer(digits) else { return nil }
            units.append(character)
            total = Checked.add(total, Checked.multiply(Int64(value), scale))
            digits = ""
        }
        return digits.isEmpty && !units.isEmpty ? total : nil
    }
}

/// Takes centers through an offline window over a stream of pushes: each push is timed by the
/// replay rule (`ArrivalClock`), and the transitions due before it say when to go offline (at FROM)
/// and come back (at UNTIL). After the last push, `finish` brings a device still offline back.
public struct OfflineTimeline: Sendable {
    public enum Transition: Sendable, Equatable {
        case goOffline(at: Int64)
        case comeOnline(at: Int64)
    }

    public let window: OfflineWindow
    private var clock = ArrivalClock()
    private var bounds: (from: Int64, until: Int64)?
    private enum Phase { case before, offline, after }
    private var phase = Phase.before

    public init(_ window: OfflineWindow) { self.window = window }

    /// The window in milliseconds since the epoch, once the first push has set the origin.
    public var resolved: (from: Int64, until: Int64)? { bounds }

    /// The arrival time of `outcome` and what to do before it is applied.
    public mutating func next(_ outcome: Intake.Outcome) -> (time: Int64, transitions: [Transition]) {
        let time = clock.time(of: outcome)
        let (from, until) = bounds ?? (window.from.resolved(origin: time), window.until.resolved(origin: time))
        bounds = (from, until)
        var transitions: [Transition] = []
        if phase == .before, time >= from {
            if time < until {
                transitions.append(.goOffline(at: from))
                phase = .offline
            } else {
                phase = .after   // the window passed with nothing in it
            }
        }
        if phase == .offline, time >= until {
            transitions.append(.comeOnline(at: until))
            phase = .after
        }
        return (time, transitions)
    }

    /// The end of the stream: a device still offline comes back at UNTIL.
    public mutating func finish() -> [Transition] {
        guard phase == .offline, let bounds else { return [] }
        phase = .after
        return [.comeOnline(at: bounds.until)]
    }

    /// What `outcome` asks of every center, in order: the transitions due before it, then the
    /// outcome at its time.
    public mutating func inputs(for outcome: Intake.Outcome) -> [Center.Input] {
        let step = next(outcome)
        return step.transitions.map { .transition($0) } + [.outcome(outcome, at: step.time)]
    }

    /// Feeds `outcome` to every center at its time, after the transitions due before it.
    public mutating func apply(_ outcome: Intake.Outcome, to centers: inout [Center]) {
        for input in inputs(for: outcome) { for i in centers.indices { centers[i].apply(input) } }
    }

    /// The end of the stream for every center.
    public mutating func finish(_ centers: inout [Center]) {
        for transition in finish() { for i in centers.indices { centers[i].apply(transition) } }
    }
}
