@preconcurrency import Glibc
import ShadeCore
import ShadeUI  // sanitized (stderr), wrapped (help)

/// `shade lint FILE…`: what the services, browsers and devices will make of each payload (the V rules).
enum LintCommand {
    static let command = Command(
        name: "lint",
        summary: "check payloads before sending them: errors a service refuses, warnings, notes",
        usage: "shade lint FILE… [--format text|json] [--platform P] [--locale TAG] [--strings FILE]…",
        help: """
        Checks every push in the inputs against what APNs, FCM, browsers and the SDK do with it:
        sizes, APNs headers and device tokens, FCM data values and reserved keys, conversation keys,
        keys Apple ignores, localization keys and arguments, web options, invalid JSON (with line
        and column) and duplicate keys. Each line names the file and line, the rule, the JSON path
        and what the device will do:

          push.json:5: error [V3] $.message.data.count: FCM v1 requires string values; got number 3 — send "3"; …

        Errors are what a service or browser refuses (nothing is shown); warnings arrive, but not
        as meant; notes are worth knowing (a note repeated over a file is said once). A file with
        several pushes gets a header line before each push with findings; a summary line ends
        the report. Exit 1 when any finding is an error, or when a file or directory holds no
        payload at all (so a mistyped path in CI fails); else 0 (2 for usage errors).

        Rules (`shade explain ID` says more):
        \(checkRules)
          C9, I2 notes: the SDK versions that show conversations; what iOS needs for the sender photo

        Options:
          --format F         text (default) or json: [{"file", "line", "severity", "rule", "path",
                             "message", "platform"}, …]; platform is null when it concerns every
                             platform the push reaches
          --platform P       check for one target only: android, ios, web, or all (default)
          --locale TAG       the device language for localization checks: en (default), zh-Hans, …
          --strings FILE     a string table (.strings, strings.xml, .json) the app ships; repeatable

        Examples:
          shade lint Samples/lint
          shade lint push.apns --platform ios
          shade lint recording.jsonl --format json | jq '.[] | select(.severity == "error")'
          shade lint fcm.json --strings app/src/main/res/values/strings.xml --locale en
        """,
        valueOptions: ["--format", "--platform", "--locale", "--strings"],
        flags: [],
        run: run,
        operands: .files,
        choices: ["--format": Format.allCases.map(\.rawValue)])

    enum Format: String, CaseIterable { case text, json }

    /// The checks' rules as the catalogue says them, an id and its sentence wrapped under it.
    static var checkRules: String {
        RuleCatalogue.rules(in: .checks).map { rule in
            wrapped(rule.sentence, width: 88, maxLines: 20).enumerated().map { index, line in
                (index == 0 ? "  " + rule.id.padding(toLength: 5, withPad: " ", startingAt: 0) : "       ") + line
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        let inputs = try Shade.requireInputs(parsed, command: "lint")
        let format: Format
        switch parsed.value("--format") {
        case nil: format = .text
        case let value?:
            guard let f = Format(rawValue: value.lowercased()) else {
                throw UsageError("--format \(value): unknown format; use text or json")
            }
            format = f
        }
        // Profile options parse --platform, --locale and --strings; lint checks every platform by default.
        let options = try parsed.profileOptions()
        let platforms = parsed.value("--platform") == nil ? Set(Platform.allCases) : Set(options.platforms)
        let tables = try Session.resolver(options: options).tables
        let read = try Session.read(inputs)
        let documents = try read.documents()
        var pushes: [LintedPush] = []
        for document in documents {
            switch document.kind {
            case .lines: pushes += Lint.lines(document.bytes, source: document.name, platforms: platforms, tables: tables)
            case .whole: pushes += Lint.document(document.bytes, source: document.name, platforms: platforms, tables: tables)
            }
        }
        let report = LintReport(pushes: pushes).collapsingRepeatedNotes()
        Console.text(format == .json ? report.json() : report.text())
        fflush(stdout)
        // An input with nothing to check is an error too: `shade lint build/pushes/` of an empty
        // folder, or a glob that matched a stray file, must not pass in CI.
        for empty in read.empty { Console.error("shade: lint: \(empty)") }
        return report.hasErrors || !read.empty.isEmpty ? 1 : 0
    }
}
