/// Item slots in the order they were last updated, oldest first, for A9's "the oldest goes first".
/// An update appends again; entries whose stamp is no longer the slot's are skipped lazily, so
/// appending and taking the oldest are both amortised O(1).
struct AgeQueue: Sendable {
    private var slots: [(slot: Int32, updated: Int)] = []
    private var head = 0

    mutating func append(_ slot: Int, _ updated: Int) {
        slots.append((Int32(truncatingIfNeeded: slot), updated))
    }

    /// Removes and returns the oldest slot still current (`isCurrent(slot, stamp)`), if any.
    mutating func popOldest(where isCurrent: (Int, Int) -> Bool) -> Int? {
        defer { compact() }
        while head < slots.count {
            let (slot, updated) = slots[head]
            head += 1
            if isCurrent(Int(slot), updated) { return Int(slot) }
        }
        return nil
    }

    /// Drops the consumed prefix once it is most of the storage.
    private mutating func compact() {
        if head > 64 && head * 2 > slots.count {
            slots.removeFirst(head)
            head = 0
        }
    }
}

/// A9's bookkeeping (Android): how many items each app has in the center, and its items by age
/// (plain ones, and all). Apps are few and nearly every push names the one before's: that one is
/// found without hashing its name.
struct AppAges: Sendable {
    struct App: Sendable {
        var count = 0
        var plain = AgeQueue()
        var all = AgeQueue()
    }

    private var indices: [String: Int] = [:]
    private var apps: [App] = []
    private var last: (name: String, index: Int)?

    private mutating func index(of name: String) -> Int {
        if let last, last.name == name { return last.index }
        let index: Int
        if let known = indices[name] {
            index = known
        } else {
            index = apps.count
            indices[name] = index
            apps.append(App())
        }
        last = (name, index)
        return index
    }

    /// The item of `app` in `slot` was updated (`new`: it was not in the center before).
    mutating func updated(app: String, updated: Int, plain: Bool, slot: Int, new: Bool) {
        let i = index(of: app)
        if new { apps[i].count += 1 }
        apps[i].all.append(slot, updated)
        if plain { apps[i].plain.append(slot, updated) }
    }

    /// An item of `app` left the center.
    mutating func removed(_ app: String) {
        apps[index(of: app)].count -= 1
    }

    mutating func count(of app: String) -> Int { apps[index(of: app)].count }

    /// A9: the app's oldest plain item, else its oldest item; `updated` is each slot's stamp.
    mutating func popOldest(of app: String, updated: [Int]) -> Int? {
        let i = index(of: app)
        return apps[i].plain.popOldest { updated[$0] == $1 } ?? apps[i].all.popOldest { updated[$0] == $1 }
    }
}
