@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// `shade replay`: play recorded pushes with their original timing.
enum ReplayCommand {
    static let command = Command(
        name: "replay",
        summary: "play recorded pushes with their original timing",
        usage: "shade replay FILE… [--speed X] [--instant] [--paused] [--headless] [profile options]",
        help: """
        Plays the inputs in order: envelope lines (a `shade listen --record` file) keep the gaps between
        their "at" times, scaled by --speed; bare payloads come \(ReplaySchedule.untimedInterval) ms apart. A batch
        arrives at once. A last line cut off without a newline is reported and skipped. Without a
        terminal, or with --headless, it prints a line per push as it plays, then a summary.

        Options:
          --speed X               2 plays twice as fast, 0.5 half as fast (default 1)
          --instant               everything at once, no waiting
          --paused                start paused (in the terminal UI: space plays, n steps)
          --headless              no terminal UI
        \(ProfileOptions.help)

        Examples:
          shade replay session.jsonl
          shade replay session.jsonl --speed 10 --platform all
          shade replay Samples/demo.jsonl --instant --headless | grep conversation
        """,
        valueOptions: ["--speed"] + ProfileOptions.valueOptions,
        flags: ["--instant", "--paused", "--headless", "--no-color"],
        run: run)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        let inputs = try Shade.requireInputs(parsed, command: "replay")
        let options = try parsed.profileOptions()
        let speed = try Shade.speed(parsed.value("--speed"))
        let documents = try Session.documents(inputs)
        let texts = try Session.resolver(options: options)
        let session = LiveSession(options: options, texts: texts, journal: nil, apiKey: nil, clock: SystemClock())
        let title = "Shade — replaying " + inputs.joined(separator: " ")

        let headless = Headless.isChosen(parsed)
        if !headless {
            let start = { session.startReplay(documents, speed: speed, instant: parsed.has("--instant"), paused: parsed.has("--paused"), loops: false) }
            if let status = runInteractive(session: session, title: String(title.dropFirst(8)), options: options, texts: texts,
                                           noColor: parsed.has("--no-color"), onStart: start) {
                return status
            }
        }
        if parsed.has("--paused") {
            throw UsageError("--paused needs the terminal UI to resume from; without a terminal, leave it out")
        }
        let log = Headless.log(session, platforms: options.platforms)
        session.startReplay(documents, speed: speed, instant: parsed.has("--instant"), paused: false, loops: false)
        let interrupted: Bool
        do {
            interrupted = try Headless.run(session, log: log) { session.replay?.isFinished ?? true }
        } catch {
            session.shutdown()
            throw UsageError(error.message)
        }
        let played = session.replay?.playedCount ?? 0
        session.shutdown()
        Console.line("shade: \(interrupted ? "stopped after" : "replayed") \(played) pushes from \(documents.count) "
            + "\(documents.count == 1 ? "file" : "files"); " + log.summary(session))
        return 0
    }
}
