// Replay on the run loop: a `ReplaySchedule` (pure timing) plus a timer that hands due entries to the session.

import ShadeCore

/// Plays recorded pushes into a `LiveSession` with their original gaps. An entry is one line of a
/// recording or one document (a batch arrives at once); an envelope's `at` gives its time, an entry
/// without one comes `ReplaySchedule.untimedInterval` after the one before. Every control takes
/// effect at once; seeking back rebuilds the centers from the start.
///
/// Bounded: the pushes are not held. A first pass over the inputs takes each entry's time (the
/// schedule keeps them in a temporary file, `OffsetTable`, and two pages of them in memory); entries
/// are then read again from the inputs as they come due, and seeking back reads them again from the
/// start (`ReplayFeed`).
public final class ReplayDriver {
    /// Entries applied per loop round at most (see `advance`).
    static let entriesPerRound = 1024
    /// How long a looping replay (`shade demo`) holds its final state before it starts over: long
    /// enough to look at the end of the session; Space holds it as long as wanted.
    public static let loopPauseMillis: Int64 = 15_000

    public let loops: Bool
    private let feed: ReplayFeed
    /// Entries read from the feed this pass: the index of the next one it gives.
    private var cursor = 0
    private var schedule: ReplaySchedule
    private weak var session: LiveSession?
    private let loop: PollLoop
    private let clock: any Clock
    private var timer: PollLoop.TimerToken?
    /// Times the replay has started over.
    public private(set) var restarts = 0
    /// Pushes (and unreadable lines) in the replay, and those handed out so far in this pass.
    public let pushCount: Int
    public private(set) var playedCount = 0
    /// The number after the replay's last push (live pushes are numbered from it).
    let nextFreeID: Int
    /// The first entry's time, if it has one.
    private let firstTime: Int64?
    /// When a looping replay starts over (clock ms), while it is waiting to.
    public private(set) var restartAt: Int64?

    init(feed: ReplayFeed, speed: Double, instant: Bool, paused: Bool, loops: Bool, session: LiveSession) {
        self.feed = feed
        self.loops = loops
        self.session = session
        loop = session.loop
        clock = session.clock
        var pushes = 0
        var first: Int64?? = nil
        // The first pass: each entry's time, nothing else kept.
        let times = AnyIterator { () -> Int64?? in
            guard let entry = feed.nextEntry() else { return nil }
            pushes += entry.count
            let time = Self.time(of: entry)
            if first == nil { first = .some(time) }
            return .some(time)
        }
        schedule = ReplaySchedule(times: IteratorSequence(times), speed: speed, instant: instant)
        pushCount = pushes
        firstTime = first ?? nil
        nextFreeID = feed.nextID
        feed.rewind()
        if paused { schedule.pause(at: clock.nowMillis()) }
    }

    static func source(of outcome: Intake.Outcome) -> SourcePosition { ReplayFeed.source(of: outcome) }

    static func time(of entry: [Intake.Outcome]) -> Int64? {
        for case .push(let push) in entry { return push.transport.atMillis }
        return nil
    }

    // MARK: state

    /// Entries handed out so far.
    public var position: Int { cursor }
    /// Entries in the replay.
    public var count: Int { schedule.count }
    public var isPaused: Bool { schedule.isPaused }
    /// Everything handed out (a looping replay is finished for the 3 s before it starts over).
    public var isFinished: Bool { schedule.isFinished && cursor == schedule.count }
    public var speed: Double { schedule.speed }
    /// Recording time played so far, and the whole length, at speed 1.
    public var elapsedMillis: Int64 { schedule.elapsed(at: clock.nowMillis()) }
    public var totalMillis: Int64 { schedule.total }
    /// Where the replay is in the recording's own time (its first entry's `at` plus the time played),
    /// for what happens "now" in it (the TUI's `o`); nil when the first entry has no `at`.
    public var recordingTime: Int64? {
        firstTime.map { Checked.add($0, elapsedMillis) }
    }
    /// 0…1, for a progress bar.
    public var progress: Double { schedule.progress(at: clock.nowMillis()) }

    // MARK: controls

    public func pause() {
        schedule.pause(at: clock.nowMillis())
        advance()
    }

    public func resume() {
        schedule.resume(at: clock.nowMillis())
        advance()
    }

    public func togglePause() {
        isPaused ? resume() : pause()
    }

    /// The next entry now, paused or not.
    public func step() {
        schedule.step()
        advance()
    }

    public func faster() {
        schedule.setSpeed(schedule.speed * 2, at: clock.nowMillis())
        advance()
    }

    public func slower() {
        schedule.setSpeed(schedule.speed / 2, at: clock.nowMillis())
        advance()
    }

    /// Moves by `seconds` of recording time: forward hands out what is passed over, backward rebuilds
    /// the centers from the entries before the new position.
    public func seek(by seconds: Double) {
        schedule.seek(by: Int64((seconds * 1000).rounded()), at: clock.nowMillis())
        if schedule.position < cursor {
            // Back: empty centers fed every entry before the new position, read again from the start.
            feed.rewind()
            cursor = 0
            playedCount = 0
            let target = schedule.position
            session?.rebuild { cursor < target ? readEntry() : nil }
        }
        advance()
    }

    /// The next entry from the feed, counted.
    private func readEntry() -> [Intake.Outcome]? {
        guard let entry = feed.nextEntry() else { return nil }
        cursor += 1
        playedCount += entry.count
        return entry
    }

    // MARK: running

    func begin() {
        if !schedule.isPaused { schedule.start(at: clock.nowMillis()) }
        advance()
    }

    /// Hands everything due to the session at once, then sets the timer for what comes next.
    func advance() {
        guard let session else { return }
        let now = clock.nowMillis()
        let owed = schedule.due(at: now).upperBound   // entries due: those before it
        // At most `entriesPerRound` per loop round, so a flood (`--instant`, a seek forward) is applied
        // and logged in rounds instead of gathered whole: nothing grows with the recording.
        var handed = 0
        while cursor < owed, handed < Self.entriesPerRound, let entry = readEntry() {
            session.ingest(entry)
            handed += 1
        }
        if handed > 0 && isFinished { session.replayEnded() }
        if let timer { loop.cancel(timer) }
        timer = nil
        if cursor < schedule.position {
            timer = loop.schedule(after: 0) { [weak self] in self?.advance() }   // the rest of what is due, next round
        } else if let next = schedule.nextDueTime {
            restartAt = nil
            timer = loop.schedule(after: max(0, next - now)) { [weak self] in self?.advance() }
        } else if schedule.isFinished && loops && schedule.count > 0 && !schedule.isPaused {
            // A pause at the end holds the final state; resuming starts the wait again.
            let at = restartAt ?? now + Self.loopPauseMillis
            restartAt = at
            timer = loop.schedule(after: max(0, at - now)) { [weak self] in self?.restart() }
        } else {
            restartAt = nil
        }
    }

    /// The demo loop: empty centers, then the recording from its start.
    private func restart() {
        restarts += 1
        feed.rewind()
        cursor = 0
        playedCount = 0
        restartAt = nil
        session?.resetCenters()
        schedule.restart(at: clock.nowMillis())
        advance()
    }

    func stop() {
        if let timer { loop.cancel(timer) }
        timer = nil
    }
}
