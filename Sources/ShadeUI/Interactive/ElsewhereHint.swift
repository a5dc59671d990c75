import ShadeCore

/// The transient line that says a push went to a platform the screen does not show (an APNs payload
/// while Android is shown): `1 push for iOS — p shows it`. Without it the push changes nothing but a
/// counter, and looks as if it failed.
public enum ElsewhereHint {
    /// The line for the pushes since `before` that the shown platforms counted as another platform's,
    /// naming where those pushes went; nil when there were none.
    public static func text(before: ElsewhereTally, after: ElsewhereTally, shown: [Platform]) -> String? {
        let (missed, reached) = after.missed(by: shown, since: before)
        guard missed > 0, !reached.isEmpty else { return nil }
        let names = reached.map(\.displayName)
        let platforms = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return missed == 1 ? "1 push for \(platforms) — p shows it" : "\(missed) pushes for \(platforms) — p shows them"
    }
}
