@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// Wiring shared by the commands that compute state from files.
enum Session {
    /// The inputs as documents (files, directories' payload files in name order, `-`), each read whole
    /// (`send`, `lint`); a file that cannot be read is a usage error naming it (exit 2).
    static func documents(_ inputs: [String]) throws(UsageError) -> [InputDocument] {
        try read(inputs).documents()
    }

    /// The inputs as sources, not yet read (directories expanded), and the inputs that held no payload
    /// at all: a directory without payload files, an NDJSON file of blank lines. Those are said, because
    /// a mistyped glob or an empty export should not pass as "nothing to report".
    struct Inputs {
        var sources: [InputSource] = []
        /// `no payload files in DIR` / `no payload in FILE`, one per such input.
        var empty: [String] = []

        /// Every source read whole, for the commands that check documents as they are (`lint`, `send`).
        func documents() throws(UsageError) -> [InputDocument] {
            do { return try InputFiles.expand(sources.map(\.name)) } catch { throw UsageError(error.usageMessage) }
        }
    }

    /// Lists the inputs without reading them (`state`, `snapshot` and `replay` stream them); an NDJSON
    /// file is read only up to its first non-blank byte, to tell an empty one.
    static func read(_ arguments: [String]) throws(UsageError) -> Inputs {
        var inputs = Inputs()
        for argument in arguments {
            let sources: [InputSource]
            do {
                sources = try InputFiles.sources([argument])
                if sources.isEmpty {
                    inputs.empty.append("no payload files in \(argument) (it has no .json, .jsonl, .ndjson or .apns file)")
                }
                for source in sources {
                    guard case .path(let path) = source.origin, InputFiles.kind(ofPath: path) == .lines else { continue }
                    if try InputFiles.isBlank(path) { inputs.empty.append("no payload in \(source.name) (it has no line of JSON)") }
                }
            } catch {
                throw UsageError(error.usageMessage)
            }
            inputs.sources += sources
        }
        return inputs
    }

    /// The end of `state`, `snapshot` and `replay`, one contract for the three: the input was read, so
    /// the exit is 0, and one line on stderr says which pushes were rejected and which inputs held
    /// none; `--strict` makes either exit 1.
    static func finish(_ states: [CenterState], inputs: Inputs, strict: Bool) -> Int32 {
        for empty in inputs.empty { Console.error("shade: \(empty)") }
        let rejections = RejectionSummary(states)
        // The reasons quote payload keys and file names: user text, through the one sanitiser.
        if let line = rejections.line { Console.error("shade: \(line)") }
        return strict && (rejections.count > 0 || !inputs.empty.isEmpty) ? 1 : 0
    }

    /// The string tables of `--locale` and `--strings`; a malformed table is a usage error naming file:line.
    static func resolver(options: ProfileOptions) throws(UsageError) -> TextResolver {
        let locale: LocaleTag
        do { locale = try LocaleTag.parse(options.locale) } catch { throw UsageError(error.message) }
        var tables: [StringTable] = []
        for path in options.stringFiles {
            let bytes: [UInt8]
            do { bytes = try InputFiles.read(path).bytes } catch { throw UsageError(stringsFileMessage(error)) }
            do { tables.append(try StringTable.parse(bytes, name: path)) } catch {
                throw UsageError("--strings \(error.message)")
            }
        }
        return TextResolver(tables: StringTables(locale: locale, user: tables))
    }

    /// A `--strings` file that cannot be read: the problem and the fix in one line (DESIGN: usage
    /// errors name both). The payload inputs' fix speaks of directories and `-`; a table is one file.
    static func stringsFileMessage(_ error: InputError) -> String {
        let fix: String? = switch error.reason {
        case "no such file or directory": "check the path of the string table (.strings, strings.xml or .json)"
        case "is a directory": "give the string table's file (.strings, strings.xml or .json), not a directory"
        default: error.fix
        }
        return "--strings \(error.path): \(error.reason)" + (fix.map { " — \($0)" } ?? "")
    }

    /// One center per profile, fed every push of the inputs in order; with `offline`, the profiles
    /// are offline in that window of the pushes' time (SPEC §8). Recordings are streamed: each line is
    /// read, parsed and numbered here, and each center takes the pushes on a thread of its own
    /// (`Fanout`), so memory does not grow with the file and the cores share the work.
    /// `keepsTraces`: whether items keep their decision trace (`state --trace` prints it; nothing else
    /// these commands print reads it).
    static func centers(options: ProfileOptions, inputs: Inputs, offline: OfflineWindow? = nil,
                        keepsTraces: Bool) throws(UsageError) -> [Center] {
        let texts = try resolver(options: options)
        var intake = Intake()
        var timeline = offline.map(OfflineTimeline.init)
        let centers = options.profiles.map { Center(profile: $0, texts: texts, keepsTraces: keepsTraces) }
        func produce(_ emit: (Center.Input) -> Void) throws(UsageError) {
            func apply(_ outcome: Intake.Outcome) {
                guard timeline != nil else { return emit(.outcome(outcome, at: nil)) }
                for input in timeline!.inputs(for: outcome) { emit(input) }
            }
            for source in inputs.sources {
                do throws(InputError) {
                    try InputFiles.read(source, whole: { bytes in
                        intake.document(bytes, source: source.name) { apply($0) }
                    }, line: { bytes, number, terminated in
                        intake.line(bytes, number: number, terminated: terminated, source: source.name) { apply($0) }
                    })
                } catch {
                    throw UsageError(error.usageMessage)
                }
            }
            for transition in timeline?.finish() ?? [] { emit(.transition(transition)) }
        }
        guard centers.count > 1 else {
            return try Fanout.run(centers, produce: produce, consume: { center, input in center.apply(input) })
        }
        // Several centers take each push on threads of their own: each push comes with what they read
        // alike, for the first to read and the others to find.
        return try Fanout.run(centers, produce: { (send: (Shared) -> Void) throws(UsageError) in
            try produce { input in
                if case .outcome(.push, _) = input {
                    send(Shared(input: input, readings: SharedReadings()))
                } else {
                    send(Shared(input: input, readings: nil))
                }
            }
        }, consume: { center, shared in
            center.sharedReadings = shared.readings
            center.apply(shared.input)
        })
    }

    /// An input, and what the centers read alike from its push when several take it.
    struct Shared: Sendable {
        let input: Center.Input
        let readings: SharedReadings?
    }

    /// `--offline FROM..UNTIL`, when given.
    static func offlineWindow(_ parsed: ParsedArguments) throws(UsageError) -> OfflineWindow? {
        try parsed.value("--offline").map { (text) throws(UsageError) in try OfflineWindow.parse(text) }
    }

    static let offlineHelp = """
      --offline FROM..UNTIL   the device is offline from FROM until UNTIL: offsets from the first
                              push (90s, 5m, 1h30m) or ISO 8601 times; pushes in the window wait as
                              their services keep them and arrive at UNTIL (rules O1–O5)
    """
}
