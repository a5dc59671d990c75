// When each replayed entry is due. Time comes in as arguments and nothing sleeps; the entries' own
// times are kept in an `OffsetTable`.
import ShadeCore

/// The timing of a replay. Entries are numbered `0..<count`; `due(at:)` hands each index out once,
/// in order, when its time has come. "Schedule time" is time in the recording (milliseconds at speed 1
/// from the first entry); "now" is the caller's clock (`Clock.nowMillis()`).
///
/// The clock starts at the first call that passes a time (`due`, `pause`, `start`, …): the first entry
/// is due at once, the others after their gaps.
public struct ReplaySchedule: Equatable {
    /// The gap before an entry without a timestamp (a bare payload line), at speed 1.
    public static let untimedInterval: Int64 = ArrivalClock.untimedInterval
    public static let speedRange: ClosedRange<Double> = 0.001...1_000_000

    /// Schedule time of each entry, never decreasing: on disk beyond a page (`OffsetTable`), so a
    /// schedule's memory does not grow with its recording.
    public let offsets: OffsetTable
    public private(set) var speed: Double
    /// How many entries have been handed out: the index of the next one.
    public private(set) var position = 0
    public private(set) var isPaused = false

    /// Entries below this are due whatever the time (`step()`).
    private var released = 0
    /// Schedule time at wall time `anchorWall`; the clock runs from there at `speed` unless paused.
    private var anchorSchedule: Double = 0
    private var anchorWall: Int64?

    /// - Parameters:
    ///   - times: each entry's timestamp in milliseconds (any epoch), or nil for an entry without one.
    ///     Timestamped entries keep their gaps measured from the first timestamped entry; an untimed
    ///     entry comes `untimedInterval` after the one before it. An entry never comes before the one
    ///     before it (a timestamp that goes back in time is due right after its predecessor).
    ///   - speed: 2 plays twice as fast. Clamped to `speedRange`.
    ///   - instant: everything due at once (`--instant`).
    ///   Any sequence, read once: a replay passes its entries' times as it reads them, holding none.
    public init<Times: Sequence>(times: Times, speed: Double = 1, instant: Bool = false) where Times.Element == Int64? {
        self.speed = Self.clamped(speed)
        guard !instant else {
            offsets = OffsetTable(zeros: times.reduce(0) { count, _ in count + 1 })
            return
        }
        let offsets = OffsetTable()
        var previous: Int64?
        var firstStamp: (time: Int64, offset: Int64)?
        for time in times {
            // Timestamps come from the recording: any two may be far apart, so the gaps saturate.
            let afterPrevious = previous.map { Checked.add($0, Self.untimedInterval) } ?? 0
            var offset: Int64
            if let time {
                if let first = firstStamp {
                    offset = Checked.add(first.offset, Checked.subtract(time, first.time))
                } else {
                    offset = afterPrevious
                    firstStamp = (time, offset)
                }
            } else {
                offset = afterPrevious
            }
            if let previous { offset = max(offset, previous) }
            offsets.append(offset)
            previous = offset
        }
        self.offsets = offsets
    }

    public var count: Int { offsets.count }
    public var isFinished: Bool { position == offsets.count }
    /// Schedule time of the last entry: the length of the replay at speed 1.
    public var total: Int64 { offsets.last ?? 0 }

    /// Starts (or restarts) the clock at `now` without handing anything out.
    public mutating func start(at now: Int64) {
        anchorWall = now
    }

    /// Where the replay is in recording time.
    public func scheduleTime(at now: Int64) -> Double {
        guard let anchorWall else { return anchorSchedule }
        if isPaused { return anchorSchedule }
        return anchorSchedule + Double(now - anchorWall) * speed
    }

    /// Indices that have become due since the last call (each index is returned once).
    public mutating func due(at now: Int64) -> Range<Int> {
        startIfNeeded(at: now)
        // A hair of tolerance: `nextDueTime` rounds up, and speed scaling is floating point.
        var end = max(position, released)
        if !isPaused {
            let time = scheduleTime(at: now) + 1e-6
            while end < offsets.count && Double(offsets[end]) <= time { end += 1 }
        }
        defer {
            position = end
            released = max(released, end)
        }
        return position..<end
    }

    /// The wall time (on the caller's clock) at which `due` will next return something, for a poll
    /// timeout; nil while paused with nothing released, when finished, or before the clock starts.
    public var nextDueTime: Int64? {
        guard position < offsets.count, let anchorWall else { return nil }
        if released > position { return anchorWall }
        if isPaused { return nil }
        let gap = Double(offsets[position]) - anchorSchedule
        if gap <= 0 { return anchorWall }
        return Checked.add(anchorWall, Checked.int64((gap / speed).rounded(.up)))
    }

    /// Stops the clock. While paused only `step()` and `seek` release entries; entries already due
    /// when the pause came still go out. Pausing before the clock started (`--paused`) releases nothing.
    public mutating func pause(at now: Int64) {
        let wasRunning = anchorWall != nil && !isPaused
        startIfNeeded(at: now)
        reanchor(at: now)
        isPaused = true
        if wasRunning { releaseThrough(anchorSchedule) }
    }

    public mutating func resume(at now: Int64) {
        startIfNeeded(at: now)
        reanchor(at: now)
        isPaused = false
    }

    /// Releases the next entry now (its index is returned, and `due` hands it out). While paused,
    /// the clock moves to that entry, so `resume` goes on from there.
    @discardableResult
    public mutating func step() -> Int? {
        let next = max(position, released)
        guard next < offsets.count else { return nil }
        released = next + 1
        if isPaused { anchorSchedule = max(anchorSchedule, Double(offsets[next])) }
        return next
    }

    /// Changes the speed from `now` on; the position in the recording stays where it is.
    public mutating func setSpeed(_ newSpeed: Double, at now: Int64) {
        startIfNeeded(at: now)
        reanchor(at: now)
        speed = Self.clamped(newSpeed)
    }

    /// Moves the clock by `deltaMs` of recording time (clamped to the replay). Forward: the entries
    /// passed over become due at once (none is skipped). Backward: `position` goes back to the first
    /// entry after the new time, and those entries will be handed out again: the caller rebuilds its
    /// state from entries `0..<position`.
    public mutating func seek(by deltaMs: Int64, at now: Int64) {
        startIfNeeded(at: now)
        let target = min(max(scheduleTime(at: now) + Double(deltaMs), 0), Double(total))
        anchorSchedule = target
        anchorWall = now
        if deltaMs < 0 {
            rewind(to: offsets.firstIndex(laterThan: target))
        } else {
            releaseThrough(target)
        }
    }

    /// Makes entry `index` the next one, due after its original gap from entry `index - 1`. Entries
    /// before it that were not handed out become due at once; a backward seek rewinds as `seek(by:at:)`.
    public mutating func seek(toIndex index: Int, at now: Int64) {
        startIfNeeded(at: now)
        let index = min(max(index, 0), offsets.count)
        anchorSchedule = index == 0 ? 0 : Double(offsets[index - 1])
        anchorWall = now
        if index < position { rewind(to: index) }
        released = max(released, index)
    }

    /// Back to the first entry, keeping speed and pause (the demo loops this way).
    public mutating func restart(at now: Int64) {
        position = 0
        released = 0
        anchorSchedule = 0
        anchorWall = now
    }

    /// Recording time played so far, within `0...total`, for a progress bar.
    public func elapsed(at now: Int64) -> Int64 {
        Checked.int64(min(max(scheduleTime(at: now), 0), Double(total)))
    }

    /// 0…1. By time when the entries span time; by entries when they are all at one instant.
    public func progress(at now: Int64) -> Double {
        if total > 0 { return Double(elapsed(at: now)) / Double(total) }
        return offsets.isEmpty ? 1 : Double(position) / Double(offsets.count)
    }

    /// Every entry at or before schedule time `time` becomes due, paused or not.
    private mutating func releaseThrough(_ time: Double) {
        while released < offsets.count && Double(offsets[released]) <= time + 1e-6 { released += 1 }
    }

    private mutating func rewind(to index: Int) {
        position = min(position, index)
        released = min(released, index)
    }

    private mutating func startIfNeeded(at now: Int64) {
        if anchorWall == nil { anchorWall = now }
    }

    private mutating func reanchor(at now: Int64) {
        anchorSchedule = scheduleTime(at: now)
        anchorWall = now
    }

    private static func clamped(_ speed: Double) -> Double {
        speed.isNaN ? 1 : min(max(speed, speedRange.lowerBound), speedRange.upperBound)
    }
}
