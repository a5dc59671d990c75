import ShadeCore
import ShadeIO

/// Wiring shared by the commands that compute state from files.
enum Session {
    /// The inputs as documents (files, directories' payload files in name order, `-`); a file that
    /// cannot be read is a usage error naming it (exit 2).
    static func documents(_ inputs: [String]) throws(UsageError) -> [InputDocument] {
        do {
            return try InputFiles.expand(inputs)
        } catch {
            throw UsageError("\(error.path): \(error.reason)")   // as `shade state` has always said it
        }
    }

    /// The inputs as sources, unread (directories expanded); a missing one is a usage error naming it.
    static func sources(_ inputs: [String]) throws(UsageError) -> [InputSource] {
        do { return try InputFiles.sources(inputs) } catch { throw UsageError("\(error.path): \(error.reason)") }
    }

    /// The string tables of `--locale` and `--strings`; a malformed table is a usage error naming file:line.
    static func resolver(options: ProfileOptions) throws(UsageError) -> TextResolver {
        let locale: LocaleTag
        do { locale = try LocaleTag.parse(options.locale) } catch { throw UsageError(error.message) }
        var tables: [StringTable] = []
        for path in options.stringFiles {
            let bytes: [UInt8]
            do { bytes = try InputFiles.read(path).bytes } catch { throw UsageError("--strings \(error.description)") }
            do { tables.append(try StringTable.parse(bytes, name: path)) } catch {
                throw UsageError("--strings \(error.message)")
            }
        }
        return TextResolver(tables: StringTables(locale: locale, user: tables))
    }

    /// One center per profile, fed every push of the inputs in order; with `offline`, the profiles
    /// are offline in that window of the pushes' time (SPEC §8). Recordings are streamed: each line is
    /// read, parsed and applied before the next is read, so memory does not grow with the file.
    static func centers(options: ProfileOptions, inputs: [String], offline: OfflineWindow? = nil) throws(UsageError) -> [Center] {
        let sources = try sources(inputs)
        let texts = try resolver(options: options)
        var centers = options.profiles.map { Center(profile: $0, texts: texts) }
        var intake = Intake()
        var timeline = offline.map(OfflineTimeline.init)
        func apply(_ outcome: Intake.Outcome) {
            guard timeline != nil else {
                for i in centers.indices { centers[i].apply(outcome) }
                return
            }
            timeline!.apply(outcome, to: &centers)
        }
        for source in sources {
            do {
                try InputFiles.read(source, whole: { bytes in
                    intake.document(bytes, source: source.name) { apply($0) }
                }, line: { bytes, number, terminated in
                    intake.line(bytes, number: number, terminated: terminated, source: source.name) { apply($0) }
                })
            } catch {
                throw UsageError("\(error.path): \(error.reason)")
            }
        }
        timeline?.finish(&centers)
        return centers
    }

    /// `--offline FROM..UNTIL`, when given.
    static func offlineWindow(_ parsed: ParsedArguments) throws(UsageError) -> OfflineWindow? {
        try parsed.value("--offline").map { (text) throws(UsageError) in try OfflineWindow.parse(text) }
    }

    static let offlineHelp = """
      --offline FROM..UNTIL   the device is offline from FROM until UNTIL: offsets from the first
                              push (90s, 5m, 1h30m) or ISO 8601 times; pushes in the window wait as
                              their services keep them and arrive at UNTIL (SPEC §8, O1–O5)
    """
}
