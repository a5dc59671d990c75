@preconcurrency import Glibc
import ShadeCore
import ShadeIO
import ShadeUI

/// `shade demo`: the first thing a newcomer runs. Replays the bundled recording in the live UI,
/// looping, so conversations stack up, a group, a plain notification, a silent push and a call.
enum DemoCommand {
    static let command = Command(
        name: "demo",
        summary: "replay the bundled Samples in the live terminal UI (start here)",
        usage: "shade demo [--speed X] [--no-color] [--utc] [profile options]",
        help: """
        Replays \(DemoRecording.name) (a one-minute recorded session, carried inside the
        executable) with its original timing, looping. The first conversation appears within a second.
        Press p to cycle Android → iOS → web → all three side by side, i to inspect an item and see
        why it is shown the way it is, ? for every key, q to quit.

        Options:
          --speed X               play X times faster (default 1, at most \(Int(Shade.maximumSpeed)))
          --no-color              monochrome (NO_COLOR is honoured too)
        \(Shade.utcHelp)
        \(ProfileOptions.help)

        Without a terminal it prints the final screen of the session instead.
        """,
        valueOptions: ["--speed"] + ProfileOptions.valueOptions,
        flags: ["--no-color", "--utc"],
        run: run)

    static var document: InputDocument {
        InputDocument(name: DemoRecording.name, kind: .lines, bytes: Array(DemoRecording.text.utf8))
    }

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        let options = try parsed.profileOptions()
        let speed = try Shade.speed(parsed.value("--speed"))
        let texts = try Session.resolver(options: options)
        if isatty(0) == 1 && isatty(1) == 1 {
            let session = LiveSession(options: options, texts: texts, journal: nil, apiKey: nil, clock: SystemClock())
            if let status = runInteractive(session: session, title: "demo · \(DemoRecording.name) · looping", options: options, texts: texts,
                                           localTime: Shade.localTime(parsed), noColor: parsed.has("--no-color"),
                                           onStart: { session.startReplay([document], speed: speed, instant: false, paused: false, loops: true) }) {
                return status
            }
        } else {
            Console.error("shade: no terminal: printing the final screen of the demo instead of animating it")
        }
        var intake = Intake()
        // A screen shows no trace.
        var centers = options.profiles.map { Center(profile: $0, texts: texts, keepsTraces: false) }
        for outcome in intake.lines(document.bytes, source: document.name) {
            for i in centers.indices { centers[i].apply(outcome) }
        }
        let view = ViewState(platforms: options.platforms, localTime: Shade.localTime(parsed))
        let screen = ShadeView.compose(centers.map(\.state), view: view, columns: 100, rows: 30)
        print(screen.plainLines().joined(separator: "\n"))
        return 0
    }
}
