@preconcurrency import Glibc
import ShadeCore
import ShadeUI

/// `shade snapshot FILE…`: the final screen as plain text, no terminal needed.
enum SnapshotCommand {
    static let command = Command(
        name: "snapshot",
        summary: "print the final screen as plain text (exactly ROWS lines of COLS columns)",
        usage: "shade snapshot FILE… [--size COLSxROWS] [profile options] [--offline FROM..UNTIL] [--color] [--strict] [--utc]",
        help: """
        Reads every push from the inputs, in order, and prints what the shade shows at the end:
        the header of each platform (profile and counters), then its sections (Conversations,
        Notifications, Notification Center, Calls) with nothing selected and every stack
        collapsed to its newest lines. The output is exactly ROWS lines, each exactly COLS
        display columns wide (padded with spaces), so it can be compared with diff. Exit 0 once
        the input is read; rejected pushes are counted on screen and named in one line on stderr.

        Options:
          --size COLSxROWS        the screen size, default 100x30 (at least 40x10 to show the
                                  shades; smaller sizes print the "too small" message)
          --color                 add ANSI colours and styles (for a terminal or a bug report)
          --strict                exit 1 when a push was rejected or an input held none
        \(Shade.utcHelp)
        \(ProfileOptions.help)
        \(Session.offlineHelp)

        Marks:
        \(ShadeView.legend.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

        Examples:
          shade snapshot Samples/demo.jsonl
          shade snapshot Samples/demo.jsonl --platform all --size 160x40
          shade snapshot Samples/seed000-group-conversation.jsonl --platform ios --color
          shade snapshot Samples/seed000-send-to-user.json --platform ios --ios-communication off
        """,
        valueOptions: ["--size"] + ProfileOptions.valueOptions + ["--offline"],
        flags: ["--color", "--strict", "--utc"],
        run: run,
        operands: .files)

    static let defaultSize = (columns: 100, rows: 30)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        var size = defaultSize
        if let text = parsed.value("--size") { size = try parseSize(text) }
        let inputs = try Shade.requireInputs(parsed, command: "snapshot")
        let options = try parsed.profileOptions()
        let read = try Session.read(inputs)
        let centers = try Session.centers(options: options, inputs: read, offline: try Session.offlineWindow(parsed),
                                          keepsTraces: false)   // a screen shows no trace
        let states = centers.map(\.state)
        let screen = ShadeView.compose(states, view: ViewState(platforms: options.platforms, localTime: Shade.localTime(parsed)),
                                       columns: size.columns, rows: size.rows)
        if parsed.has("--color") {
            print(screen.ansiText())
        } else {
            for line in screen.plainLines() { print(line) }
        }
        fflush(stdout)
        return Session.finish(states, inputs: read, strict: parsed.has("--strict"))
    }

    /// `100x30` (or `100X30`, `100×30`): columns and rows, each 1…1000 (a screen is a cell grid in memory).
    static func parseSize(_ text: String) throws(UsageError) -> (columns: Int, rows: Int) {
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "X" || $0 == "×" }
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              (1...1000).contains(columns), (1...1000).contains(rows) else {
            throw UsageError("--size \(text): expected COLSxROWS with whole numbers from 1 to 1000, e.g. --size 100x30")
        }
        return (columns, rows)
    }
}
