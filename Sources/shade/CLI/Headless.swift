@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// Running a `LiveSession` without a terminal: the push log on standard output, SIGINT, SIGTERM and SIGHUP end it.
enum Headless {
    /// Whether to run without the TUI: asked for, or standard input or output is not a terminal (then
    /// it says so on stderr).
    static func isChosen(_ parsed: ParsedArguments) -> Bool {
        if parsed.has("--headless") { return true }
        guard isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 else {
            Console.error("shade: no terminal: running headless")
            return true
        }
        return false
    }

    /// Logs each push as it is applied (printed after each loop round by `run`).
    static func log(_ session: LiveSession, platforms: [Platform], localTime: LocalTime) -> PushLog {
        let log = PushLog(platforms: platforms, localTime: localTime)
        session.onArrival = { arrival in log.record(arrival) }
        return log
    }

    /// Runs the loop until SIGINT, SIGTERM or SIGHUP (returns true) or `finished()` (false), printing the log
    /// after every round: one state per round, and one write, not one per push.
    /// `signals` can be made earlier by the caller, so a signal that comes before the loop starts
    /// still ends it in order (rather than killing Shade with the socket file left behind).
    @discardableResult
    /// With `stats` (`--stats`), the pushes of each round are counted on the loop's clock, and the summary
    /// goes to standard error every 10 s while pushes come.
    static func run(_ session: LiveSession, log: PushLog, signals early: SignalPipe? = nil, stats: SessionStats? = nil,
                    until finished: () -> Bool = { false }) throws(SocketError) -> Bool {
        let signals: SignalPipe
        if let early { signals = early } else { signals = try SignalPipe() }
        defer { signals.restore() }
        let stop = Flag()
        let token = session.loop.watch(signals.readFD) { _ in
            if !signals.drain().isEmpty { stop.isSet = true }
        }
        defer { session.loop.unwatch(token) }
        var toldTLSProblem = false
        var counted = 0
        var statsPrinted = (at: stats?.startMicros ?? 0, pushes: 0)
        session.loop.run(until: {
            log.flush(session)
            if let stats {
                let taken = session.acceptedCount + session.refusedCount
                stats.pushesTaken(taken - counted, at: session.loop.pollReturnedMicros)
                counted = taken
                let now = session.loop.pollReturnedMicros
                if now - statsPrinted.at >= 10_000_000 && stats.pushes > statsPrinted.pushes {
                    Console.error(stats.summary(at: now, drawsFrames: false))
                    statsPrinted = (now, stats.pushes)
                }
            }
            if !toldTLSProblem, let problem = session.loop.tlsProblem {
                // Once: every TLS client is closed until it is fixed, and this says why.
                Console.error("shade: warning: \(problem); TLS connections are closed")
                toldTLSProblem = true
            }
            fflush(stdout)
            return stop.isSet || finished()
        })
        log.flush(session)
        fflush(stdout)
        return stop.isSet
    }

    final class Flag {
        var isSet = false
    }
}
