import ShadeCore

/// `shade lint FILE…`: what the services, browsers and devices will make of each payload (SPEC §9).
enum LintCommand {
    static let command = Command(
        name: "lint",
        summary: "check payloads before sending them: errors a service refuses, warnings, notes",
        usage: "shade lint FILE… [--format text|json] [--platform P] [--locale TAG] [--strings FILE]…",
        help: """
        Checks every push in the inputs against what APNs, FCM, browsers and the SDK do with it
        (SPEC §9, V1–V8): sizes, APNs headers and device tokens, FCM data values and reserved keys,
        conversation keys, keys Apple ignores, localization keys and arguments, web options,
        invalid JSON (with line and column) and duplicate keys. Each line names the file and line,
        the rule, the JSON path and what the device will do:

          push.json:5: error [V3] $.message.data.count: FCM v1 requires string values; got number 3 — send "3"; …

        Errors are what a service or browser refuses (nothing is shown); warnings arrive, but not
        as meant; notes are worth knowing (a note repeated over a file is said once). A file with
        several pushes gets a header line before each push with findings; a summary line ends
        the report. Exit 1 when any finding is an error, else 0 (2 for usage errors).

        Rules:
          V1  size: APNs \(ServiceRules.apnsLimit) bytes (VoIP \(ServiceRules.apnsVoIPLimit)) and FCM \(ServiceRules.fcmLimit) are errors; web push \(ServiceRules.webPushLimit) a warning
          V2  apns-collapse-id over \(ServiceRules.collapseIDLimit) bytes, background push at priority 10, bad device token
          V3  FCM v1 data values that are not strings, reserved data keys (from, message_type,
              google…, gcm…); other FCM shapes: non-string values are stringified (warning)
          V4  senderAvatarUrl not a URL / not https, conversationIsGroup not boolean-like,
              sender keys without conversationId
          V5  keys Apple ignores: custom keys in aps, sound inside alert, content-available
              with an alert
          V6  loc keys missing from the tables, argument counts that do not fit the format
          V7  web: renotify without tag, silent with vibrate (errors); more than \(ServiceRules.webMaxActions) actions
          V8  invalid JSON, with line and column; duplicate keys (warning)
          C9  note: the SDK versions that show conversations
          I2  note: what iOS needs to show the sender photo

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
        run: run)

    enum Format: String { case text, json }

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
        let documents = try Session.documents(inputs)
        var pushes: [LintedPush] = []
        for document in documents {
            switch document.kind {
            case .lines: pushes += Lint.lines(document.bytes, source: document.name, platforms: platforms, tables: tables)
            case .whole: pushes += Lint.document(document.bytes, source: document.name, platforms: platforms, tables: tables)
            }
        }
        let report = LintReport(pushes: pushes).collapsingRepeatedNotes()
        Console.text(format == .json ? report.json() : report.text())
        return report.hasErrors ? 1 : 0
    }
}
