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

    /// One center per profile, fed every push of the inputs in order.
    static func centers(options: ProfileOptions, inputs: [String]) throws(UsageError) -> [Center] {
        let documents = try documents(inputs)
        let texts = try resolver(options: options)
        var centers = options.profiles.map { Center(profile: $0, texts: texts) }
        var intake = Intake()
        for document in documents {
            if document.kind == .lines {
                intake.forEachLine(document.bytes, source: document.name) { outcome in
                    for i in centers.indices { centers[i].apply(outcome) }
                }
            } else {
                for outcome in intake.document(document.bytes, source: document.name) {
                    for i in centers.indices { centers[i].apply(outcome) }
                }
            }
        }
        return centers
    }
}
