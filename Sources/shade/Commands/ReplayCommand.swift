@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// `shade replay`: play recorded pushes with their original timing.
enum ReplayCommand {
    static let command = Command(
        name: "replay",
        summary: "play recorded pushes with their original timing",
        usage: "shade replay FILE… [--speed X] [--instant] [--paused] [--headless] [--no-color] [--strict] [--utc] [--offline FROM..UNTIL] [profile options]",
        help: """
        Plays the inputs in order: envelope lines (a `shade listen --record` file) keep the gaps between
        their "at" times, scaled by --speed; bare payloads come \(ReplaySchedule.untimedInterval) ms apart. A batch
        arrives at once. A last line cut off without a newline is reported and skipped. Without a
        terminal, or with --headless, it prints a line per push as it plays, then a summary.

        In the terminal UI: space pauses and resumes, . steps one push, + and - double and halve the
        speed, [ and ] seek 10 s back and on (what you dismissed stays dismissed), ? shows every key.
        Exit 0 once the input is read; rejected pushes are named in one line on stderr.

        Options:
          --speed X               2 plays twice as fast, 0.5 half as fast (default 1, at most \(Int(Shade.maximumSpeed)))
          --instant               everything at once, no waiting
          --paused                start paused (in the terminal UI: space plays, . steps one push)
          --headless              no terminal UI
          --no-color              a monochrome terminal UI (NO_COLOR is honoured too)
          --strict                exit 1 when a push was rejected or an input held none
        \(Shade.utcHelp)
        \(Session.offlineHelp)
        \(ProfileOptions.help)

        Examples:
          shade replay session.jsonl
          shade replay session.jsonl --speed 10 --platform all
          shade replay Samples/demo.jsonl --instant --headless | grep conversation
        """,
        valueOptions: ["--speed", "--offline"] + ProfileOptions.valueOptions,
        flags: ["--instant", "--paused", "--headless", "--no-color", "--strict", "--utc"],
        run: run,
        operands: .files)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        let inputs = try Shade.requireInputs(parsed, command: "replay")
        let options = try parsed.profileOptions()
        let speed = try Shade.speed(parsed.value("--speed"))
        let offline = try Session.offlineWindow(parsed)
        let read = try Session.read(inputs)
        let sources: ReplayInputs
        do { sources = try InputFiles.openForReplay(read.sources) } catch { throw UsageError(error.usageMessage) }
        let texts = try Session.resolver(options: options)
        let session = LiveSession(options: options, texts: texts, journal: nil, apiKey: nil, clock: SystemClock())
        let title = "Shade — replaying " + inputs.joined(separator: " ")

        let headless = Headless.isChosen(parsed)
        if !headless {
            let start = { session.startReplay(sources, speed: speed, instant: parsed.has("--instant"), paused: parsed.has("--paused"), loops: false,
                                             offline: offline) }
            if let status = runInteractive(session: session, title: String(title.dropFirst(8)), options: options, texts: texts,
                                           localTime: Shade.localTime(parsed), noColor: parsed.has("--no-color"), onStart: start) {
                let finished = Session.finish(session.states(options.platforms), inputs: read, strict: parsed.has("--strict"))
                return status != 0 ? status : finished
            }
        }
        if parsed.has("--paused") {
            throw UsageError("--paused needs the terminal UI to resume from; without a terminal, leave it out")
        }
        session.keepsTraces = false   // headless: no inspector, and neither the log nor GET /state carries a trace
        let log = Headless.log(session, platforms: options.platforms, localTime: Shade.localTime(parsed))
        session.startReplay(sources, speed: speed, instant: parsed.has("--instant"), paused: false, loops: false, offline: offline)
        let interrupted: Bool
        do {
            interrupted = try Headless.run(session, log: log) { session.replay?.isFinished ?? true }
        } catch {
            session.shutdown()
            throw UsageError(error.message)
        }
        let played = session.replay?.playedCount ?? 0
        session.shutdown()
        Console.line("shade: \(interrupted ? "stopped after" : "replayed") \(played) pushes from \(sources.count) "
            + "\(sources.count == 1 ? "file" : "files"); " + log.summary(session))
        fflush(stdout)
        return Session.finish(session.states(options.platforms), inputs: read, strict: parsed.has("--strict"))
    }
}
