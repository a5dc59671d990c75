/// The pushes the centers rejected, each once however many centers counted it, in the order they
/// came: what the live UI's errors view lists and its status line counts, and the one stderr line
/// `state`, `snapshot` and `replay` print (`2 of 22 pushes rejected: demo.jsonl:15 unknown payload shape`).
public struct RejectionSummary: Sendable, Equatable {
    /// Pushes read (every center reads them all).
    public var received: Int
    public var errors: [ErrorEntry]

    public init(_ states: [CenterState]) {
        received = states.map(\.received).max() ?? 0
        // A push rejected on several platforms is one rejection; one rejected on one platform only
        // (a browser's TypeError) still counts. The stream position tells them apart.
        var seen: Set<Int> = []
        errors = states.flatMap(\.errors).filter { seen.insert($0.position).inserted }.sorted { $0.position < $1.position }
        unlisted = states.map { $0.rejected - $0.errors.count }.max().map { max(0, $0) } ?? 0
    }

    /// Rejections a center counted but did not list (a center lists a bounded number): counted, not named.
    public var unlisted: Int

    public var count: Int { errors.count + unlisted }

    /// Sources named in the stderr line before it says `…`.
    public static let namedInLine = 3

    /// The stderr line, or nil when nothing was rejected. Reasons are cut to their first clause:
    /// the whole reason is in the state JSON and `shade lint`.
    public var line: String? {
        guard count > 0 else { return nil }
        var named = errors.prefix(Self.namedInLine).map { "\($0.source) \(Self.brief($0.reason))" }
        if count > Self.namedInLine { named.append("…") }
        let noun = received == 1 ? "push" : "pushes"
        return "\(count) of \(received) \(noun) rejected: " + named.joined(separator: ", ")
    }

    /// `unknown payload shape (top-level keys …): tried …` → `unknown payload shape`.
    public static func brief(_ reason: String) -> String {
        let characters = Array(reason)
        for i in characters.indices.dropLast() {
            let pair = (characters[i], characters[i + 1])
            if pair == (" ", "(") || pair == (":", " ") || pair == (";", " ") { return String(characters[..<i]) }
        }
        return reason
    }
}
