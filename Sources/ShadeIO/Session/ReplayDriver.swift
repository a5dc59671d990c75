// Replay on the run loop: a `ReplaySchedule` (pure timing) plus a timer that hands due entries to the session.

import ShadeCore

/// Plays recorded pushes into a `LiveSession` with their original gaps. An entry is one line of a
/// recording or one document (a batch arrives at once); an envelope's `at` gives its time, an entry
/// without one comes `ReplaySchedule.untimedInterval` after the one before. Every control takes
/// effect at once; seeking back rebuilds the centers from the start.
public final class ReplayDriver {
    /// How long a looping replay (`shade demo`) holds its final state before it starts over: long
    /// enough to look at the end of the session; Space holds it as long as wanted.
    public static let loopPauseMillis: Int64 = 15_000

    public let loops: Bool
    /// Outcomes per entry, in order.
    let entries: [[Intake.Outcome]]
    private var schedule: ReplaySchedule
    private weak var session: LiveSession?
    private let loop: PollLoop
    private let clock: any Clock
    private var timer: PollLoop.TimerToken?
    /// Times the replay has started over.
    public private(set) var restarts = 0
    /// When a looping replay starts over (clock ms), while it is waiting to.
    public private(set) var restartAt: Int64?

    init(entries: [[Intake.Outcome]], speed: Double, instant: Bool, paused: Bool, loops: Bool,
         session: LiveSession) {
        self.entries = entries
        self.loops = loops
        self.session = session
        loop = session.loop
        clock = session.clock
        schedule = ReplaySchedule(times: entries.map(Self.time(of:)), speed: speed, instant: instant)
        if paused { schedule.pause(at: clock.nowMillis()) }
    }

    /// Consecutive outcomes from one source line (a line of NDJSON, a batch, a one-line document)
    /// make one entry.
    static func entries(from outcomes: [Intake.Outcome]) -> [[Intake.Outcome]] {
        var entries: [[Intake.Outcome]] = []
        var lastSource: SourcePosition?
        for outcome in outcomes {
            let source = Self.source(of: outcome)
            if let lastSource, lastSource == source, !entries.isEmpty {
                entries[entries.count - 1].append(outcome)
            } else {
                entries.append([outcome])
            }
            lastSource = source
        }
        return entries
    }

    static func source(of outcome: Intake.Outcome) -> SourcePosition {
        switch outcome {
        case .push(let push): push.source
        case .rejected(let rejection): rejection.source
        }
    }

    static func time(of entry: [Intake.Outcome]) -> Int64? {
        for case .push(let push) in entry { return push.transport.atMillis }
        return nil
    }

    // MARK: state

    /// Entries handed out so far.
    public var position: Int { schedule.position }
    /// Entries in the replay.
    public var count: Int { schedule.count }
    /// Pushes (and unreadable lines) in the replay.
    public var pushCount: Int { entries.reduce(0) { $0 + $1.count } }
    /// Pushes (and unreadable lines) handed out so far in this pass.
    public var playedCount: Int { entries[0..<position].reduce(0) { $0 + $1.count } }
    public var isPaused: Bool { schedule.isPaused }
    /// Everything handed out (a looping replay is finished for the 3 s before it starts over).
    public var isFinished: Bool { schedule.isFinished }
    public var speed: Double { schedule.speed }
    /// Recording time played so far, and the whole length, at speed 1.
    public var elapsedMillis: Int64 { schedule.elapsed(at: clock.nowMillis()) }
    public var totalMillis: Int64 { schedule.total }
    /// Where the replay is in the recording's own time (its first entry's `at` plus the time played),
    /// for what happens "now" in it (the TUI's `o`); nil when the first entry has no `at`.
    public var recordingTime: Int64? {
        entries.first.flatMap(Self.time(of:)).map { Checked.add($0, elapsedMillis) }
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
        let before = schedule.position
        schedule.seek(by: Int64((seconds * 1000).rounded()), at: clock.nowMillis())
        if schedule.position < before {
            session?.rebuild(from: entries[0..<schedule.position].flatMap { $0 })
        }
        advance()
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
        let due = schedule.due(at: now)
        if !due.isEmpty { session.ingest(entries[due].flatMap { $0 }) }
        if !due.isEmpty && schedule.isFinished { session.replayEnded() }
        if let timer { loop.cancel(timer) }
        timer = nil
        if let next = schedule.nextDueTime {
            restartAt = nil
            timer = loop.schedule(after: max(0, next - now)) { [weak self] in self?.advance() }
        } else if schedule.isFinished && loops && !entries.isEmpty && !schedule.isPaused {
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
