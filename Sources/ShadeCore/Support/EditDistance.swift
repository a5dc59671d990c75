// Did-you-mean, for the command line (an option or command mistyped) and for lint (V9, a key
// mistyped): one edit distance, so both suggest the same way.

/// Levenshtein distance between two strings, counted in characters (grapheme clusters): the
/// insertions, deletions and substitutions that turn `a` into `b`.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
        var previous = row[0]
        row[0] = i
        for j in 1...b.count {
            let old = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = old
        }
    }
    return row[b.count]
}

/// The candidate nearest to `word` when it is at most `limit` edits away (the first of equals),
/// else nil.
public func closest(to word: String, among candidates: some Sequence<String>, limit: Int) -> String? {
    var best: (name: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(candidate, word)
        if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
}
