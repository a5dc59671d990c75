import ShadeCore

/// Wiring shared by the commands that compute state from files.
enum Session {
    static func resolver(options: ProfileOptions) throws(UsageError) -> TextResolver {
        TextResolver()
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
