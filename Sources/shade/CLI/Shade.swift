@preconcurrency import Glibc
import ShadeCore

/// One subcommand: its name, a one-line summary, its help text and how to run it.
struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var help: String
    var valueOptions: [String]
    var flags: [String]
    var run: @Sendable (ParsedArguments) throws(UsageError) -> Int32
}

enum Shade {
    static var commands: [Command] {
        [ListenCommand.command, ReplayCommand.command, DemoCommand.command, SendCommand.command,
         StateCommand.command, SnapshotCommand.command, LintCommand.command]
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
            print("shade \(version)")
            return 0
        }
        if first.hasPrefix("-") {
            // `shade --port 0` is `shade listen --port 0`.
            return dispatch(ListenCommand.command, arguments[...])
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let names = commands.map(\.name)
            let guess = names.min { editDistance($0, first) < editDistance($1, first) }.flatMap { editDistance($0, first) <= 2 ? " (did you mean \($0)?)" : nil } ?? ""
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
            let parsed = try ParsedArguments(words, command: command.name, valueOptions: command.valueOptions, flags: command.flags)
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
        for command in commands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

        Run `shade <command> --help` for its options. Start with `shade demo`.

        Inputs: .json (one payload or an array), .jsonl/.ndjson (one per line), .apns, a directory
        (its files in name order), or - for standard input.
        Exit codes: 0 success, 1 rejected input or lint errors, 2 usage errors.
        """
        return text
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
    /// `--speed X`: a positive number, default 1.
    static func speed(_ text: String?) throws(UsageError) -> Double {
        guard let text else { return 1 }
        guard let value = Double(text), value > 0, value.isFinite, value <= 1000 else {
            throw UsageError("--speed \(text): expected a positive number such as 2 (twice as fast) or 0.5")
        }
        return value
    }
}
