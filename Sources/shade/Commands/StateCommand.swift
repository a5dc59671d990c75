@preconcurrency import Glibc
import ShadeCore

/// `shade state FILE…`: the final center state as JSON, no terminal needed.
enum StateCommand {
    static let command = Command(
        name: "state",
        summary: "print the final notification-center state as JSON",
        usage: "shade state FILE… [profile options] [--offline FROM..UNTIL] [--trace] [--strict]",
        help: """
        Reads every push from the inputs, in order, and prints what each profile's notification
        center holds at the end: counters (received, shown, silent, calls, rejected, elsewhere,
        badge), sections (Conversations and Notifications on Android 11+, Notification Center and
        Calls on iOS, Notifications on the web) and their items, and errors with the file:line and
        reason of every rejected push. Every field is always written (null where absent), so a
        script never meets a missing key. With --platform all it prints {"profiles": [android, ios, web]}.

        Exit 0 once the input is read, even when pushes were rejected: then one line on stderr says
        how many and where ("2 of 22 pushes rejected: demo.jsonl:15 unknown payload shape, …").

        Options:
        \(ProfileOptions.help)
        \(Session.offlineHelp)
          --trace                 add each item's decision trace (rule ids; `shade explain ID`) to the JSON,
                                  and each profile's events (what the services did while it was offline)
          --strict                exit 1 when a push was rejected or an input held none

        Examples:
          shade state Samples/demo.jsonl --platform all
          shade state Samples/seed000-send-to-user.json --platform ios --ios-communication off
          shade state Samples/offline-session.jsonl --offline 10s..2m --platform all --trace
          cat pushes.jsonl | shade state - | jq '.sections[].items[].title'
        """,
        valueOptions: ProfileOptions.valueOptions + ["--offline"],
        flags: ["--trace", "--strict"],
        run: run,
        operands: .files)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        let inputs = try Shade.requireInputs(parsed, command: "state")
        let options = try parsed.profileOptions()
        let read = try Session.read(inputs)
        let centers = try Session.centers(options: options, inputs: read, offline: try Session.offlineWindow(parsed),
                                          keepsTraces: parsed.has("--trace"))
        let states = centers.map(\.state)
        var json = StateJSON.value(states)
        if parsed.has("--trace") { json = StateJSON.addingTraces(json, states) }
        // Written in pieces as it is made: the text of a large state is never held whole (nor copied
        // into a String), the same bytes `print` wrote.
        JSONWriter.pretty(json) { piece in _ = fwrite(piece.baseAddress, 1, piece.count, stdout) }
        fflush(stdout)
        return Session.finish(states, inputs: read, strict: parsed.has("--strict"))
    }
}
