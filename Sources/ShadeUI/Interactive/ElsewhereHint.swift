import ShadeCore

/// The transient line that says a push went to a platform the screen does not show (an APNs payload
/// while Android is shown): `1 push for iOS — p shows it`. Without it the push changes nothing but a
/// counter, and looks as if it failed.
public enum ElsewhereHint {
    /// How many pushes each platform has read, and how many of those were for other platforms.
    public struct Count: Equatable, Sendable {
        public var received: Int
        public var elsewhere: Int

        public init(received: Int, elsewhere: Int) {
            self.received = received
            self.elsewhere = elsewhere
        }

        /// Pushes that reached the platform.
        var reached: Int { received - elsewhere }
    }

    /// The line for what changed from `before` to `after`, or nil when nothing went only elsewhere.
    public static func text(before: [Platform: Count], after: [Platform: Count], shown: [Platform]) -> String? {
        // Pushes the shown platforms counted as another platform's since the last look.
        let missed = shown.map { (after[$0]?.elsewhere ?? 0) - (before[$0]?.elsewhere ?? 0) }.max() ?? 0
        guard missed > 0 else { return nil }
        let hidden = Platform.allCases.filter { platform in
            !shown.contains(platform) && (after[platform]?.reached ?? 0) > (before[platform]?.reached ?? 0)
        }
        guard !hidden.isEmpty else { return nil }
        let names = hidden.map(\.displayName)
        let platforms = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return missed == 1 ? "1 push for \(platforms) — p shows it" : "\(missed) pushes for \(platforms) — p shows them"
    }
}
