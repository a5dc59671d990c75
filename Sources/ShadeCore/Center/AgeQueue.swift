/// Item ids in the order they were last updated, oldest first, for A9's "the oldest goes first".
/// An update appends again; entries whose stamp is no longer the item's are skipped lazily, so
/// appending and taking the oldest are both amortised O(1).
struct AgeQueue: Sendable {
    private var ids: [(id: String, updated: Int)] = []
    private var head = 0

    mutating func append(_ id: String, _ updated: Int) {
        ids.append((id, updated))
    }

    /// Removes and returns the oldest id still current (`isCurrent(id, stamp)`), if any.
    mutating func popOldest(where isCurrent: (String, Int) -> Bool) -> String? {
        defer { compact() }
        while head < ids.count {
            let (id, updated) = ids[head]
            head += 1
            if isCurrent(id, updated) { return id }
        }
        return nil
    }

    /// Drops the consumed prefix once it is most of the storage.
    private mutating func compact() {
        if head > 64 && head * 2 > ids.count {
            ids.removeFirst(head)
            head = 0
        }
    }
}
