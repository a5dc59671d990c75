@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// One subcommand: its name, a one-line summary, its help text and how to run it. The table of
/// these (`Shade.commands`) is the one description of the command line: help, parsing and the shell
/// completions are all made from it.
struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var help: String
    var valueOptions: [String]
    var flags: [String]
    var run: @Sendable (ParsedArguments) throws(UsageError) -> Int32
    /// What the words that are not options are, for completions.
    var operands: Operands = .none
    /// The values an option of this command takes, beyond those every command shares
    /// (`OptionValues.shared`), for completions: `["--format": ["text", "json"]]`.
    var choices: [String: [String]] = [:]

    enum Operands: Sendable, Equatable {
        case none
        case files
        /// One of these words (`completions bash|zsh|fish`, rule ids).
        case words([String])
    }

    /// The values `option` takes, when they are a fixed set.
    func values(of option: String) -> [String]? {
        choices[option] ?? OptionValues.shared[option]
    }
}

/// Option values that mean the same in every command that takes the option.
enum OptionValues {
    static let shared: [String: [String]] = [
        "--platform": Platform.allCases.map(\.rawValue) + ["all"],
        "--flavor": Flavor.allCases.map(\.rawValue),
        "--ios-communication": ["on", "off"],
    ]
}

enum Shade {
    static var commands: [Command] {
        [ListenCommand.command, ReplayCommand.command, DemoCommand.command, SendCommand.command,
         StateCommand.command, SnapshotCommand.command, LintCommand.command, SubscriptionCommand.command,
         TrustCommand.command, EnvCommand.command, ExplainCommand.command, CompletionsCommand.command]
    }

    static let overview = """
    shade — a notification-center simulator for push developers

    Point your push code at it, or replay recorded payloads into it, and see what a phone or
    browser would show: conversations stacked per chat with sender initials, plain notifications,
    silent pushes and VoIP calls counted apart. Android, iOS and web, side by side.

    Usage: shade <command> [options] [FILE…]
    """

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else { return dispatch(ListenCommand.command, []) }
        if first == "--help" || first == "-h" || first == "help" {
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                print(helpText(command))
            } else {
                print(generalHelp())
            }
            return 0
        }
        if first == "--version" || first == "version" {
            print(versionText)
            return 0
        }
        if first.hasPrefix("-") {
            // `shade --port 0` is `shade listen --port 0`.
            return dispatch(ListenCommand.command, arguments[...])
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let names = commands.map(\.name)
            let guess = closest(to: first, among: names, limit: 2).map { " (did you mean \($0)?)" } ?? ""
            return usageFailure("unknown command \(first)\(guess); commands: \(names.joined(separator: ", ")); see `shade --help`")
        }
        return dispatch(command, arguments.dropFirst())
    }

    static func dispatch(_ command: Command, _ words: ArraySlice<String>) -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            print(helpText(command))
            return 0
        }
        do {
            let parsed = try ParsedArguments(words, command: command.name, valueOptions: command.valueOptions, flags: command.flags,
                                             choices: command.values(of:))
            return try command.run(parsed)
        } catch {
            return usageFailure(error.message)
        }
    }

    static func usageFailure(_ message: String) -> Int32 {
        Console.error("shade: \(message)")
        return 2
    }

    static func generalHelp() -> String {
        var text = overview + "\n\nCommands:\n"
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

        Run `shade <command> --help` for its options. Start with `shade demo`.

        Inputs: .json (one payload or an array), .jsonl/.ndjson (one per line), .apns, a directory
        (its payload files in name order), or - for standard input.

        \(exitCodes)

        Rule ids (A5, C9, V4, …) in traces, lint and logs: `shade explain ID` says what each means.
        Options: --help, --version.
        """
        return text
    }

    /// The exit-code contract, the same words in every help that needs it and in README.
    static let exitCodes = """
    Exit codes: 0 when the input could be read — state, snapshot and replay then print one line on
    stderr if pushes were rejected ("2 of 22 pushes rejected: demo.jsonl:15 unknown payload shape"),
    and --strict makes that exit 1; 1 when lint finds an error (a file or directory with no payload
    in it is one), when send had a push refused, or with --strict; 2 for usage errors (an unknown
    option or id, a missing file), with one line on stderr naming the problem and the fix.
    """

    /// `shade 0.1.0` and the C libraries it runs on, for bug reports.
    static var versionText: String {
        "shade \(version)\n" + SystemLibraries.versions.map { "  " + $0 }.joined(separator: "\n")
    }

    static func helpText(_ command: Command) -> String {
        "Usage: \(command.usage)\n\n\(command.summary)\n\n\(command.help)"
    }

    static let version = "0.1.0"

    /// Requires at least one input file.
    static func requireInputs(_ parsed: ParsedArguments, command: String) throws(UsageError) -> [String] {
        guard !parsed.operands.isEmpty else {
            throw UsageError("`shade \(command)` needs at least one FILE (or - for standard input); e.g. shade \(command) Samples/demo.jsonl")
        }
        return parsed.operands
    }
}

extension String {
    func padding(toLength length: Int, withPad pad: String, startingAt: Int) -> String {
        count >= length ? self : self + String(repeating: pad, count: length - count)
    }
}

extension Shade {
    /// `--utc`: how times read on screen and in logs. Local time as a phone shows it (`TZ` honoured),
    /// or UTC for output that is the same on every machine.
    static func localTime(_ parsed: ParsedArguments) -> LocalTime {
        parsed.has("--utc") ? .utc : SystemTimeZone.localTime()
    }

    /// The help line of `--utc`, the same in every command that shows times.
    static let utcHelp = """
      --utc                   times in UTC, not local time (TZ is honoured): the same output everywhere
    """

    /// The fastest `--speed`: a day of recording in under a minute and a half.
    static let maximumSpeed = 1000.0

    /// `--speed X`: a positive number up to `maximumSpeed`, default 1.
    static func speed(_ text: String?) throws(UsageError) -> Double {
        guard let text else { return 1 }
        guard let value = Double(text), value > 0, value.isFinite, value <= maximumSpeed else {
            throw UsageError("--speed \(text): expected a number above 0 and at most \(Int(maximumSpeed)), such as 2 (twice as fast) or 0.5 (use --instant for no waiting at all)")
        }
        return value
    }
}
