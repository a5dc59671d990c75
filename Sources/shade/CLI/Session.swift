import ShadeCore

/// Wiring shared by the commands that compute state from files.
enum Session {
    /// The string tables of `--locale` and `--strings`; a malformed table is a usage error naming file:line.
    static func resolver(options: ProfileOptions) throws(UsageError) -> TextResolver {
        let locale: LocaleTag
        do { locale = try LocaleTag.parse(options.locale) } catch { throw UsageError(error.message) }
        var tables: [StringTable] = []
        for path in options.stringFiles {
            let bytes = try InputLoading.file(path).bytes
            do { tables.append(try StringTable.parse(bytes, name: path)) } catch {
                throw UsageError("--strings \(error.message)")
            }
        }
        return TextResolver(tables: StringTables(locale: locale, user: tables))
    }

    /// One center per profile, fed every push of the inputs in order.
    static func centers(options: ProfileOptions, inputs: [String]) throws(UsageError) -> [Center] {
        let documents = try InputLoading.load(inputs)
        let texts = try resolver(options: options)
        var centers = options.profiles.map { Center(profile: $0, texts: texts) }
        var intake = Intake()
        for outcome in InputLoading.outcomes(documents, intake: &intake) {
            for i in centers.indices { centers[i].apply(outcome) }
        }
        return centers
    }
}
