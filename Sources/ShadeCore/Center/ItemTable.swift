/// What identifies an item in a center: the parts `Item.id` is spelled from (`c␟room_42`,
/// `t␟app␟tag`, …), kept apart so that no id string is built per push, and hashed once. Two keys
/// are equal exactly when the ids they spell are, so the center keeps the identities it always had.
struct ItemKey: Hashable, Sendable {
    /// The id's first part: `c` conversation (Android, iOS), `t` tag, thread or web conversation, `k`
    /// FCM collapse key, `a` an iOS app stack, `n` an untagged notification (its key the push id).
    let prefix: Unicode.Scalar
    /// The app, for the prefixes whose ids hold one (`t`, `k`, `a`).
    let app: String?
    let key: String?
    /// FNV-1a of the id's bytes: computed once, used by every table the key goes into.
    let hash: UInt64

    private init(_ prefix: Unicode.Scalar, app: String?, key: String?) {
        self.prefix = prefix
        self.app = app
        self.key = key
        var h = Self.fnv(0xCBF2_9CE4_8422_2325, UInt8(prefix.value))
        if let app { h = Self.fnv(Self.fnv(h, 0x1F), app) }
        if let key { h = Self.fnv(Self.fnv(h, 0x1F), key) }
        hash = h
    }

    static func conversation(_ id: String) -> ItemKey { ItemKey("c", app: nil, key: id) }
    /// Android and web tags (A7, W3), iOS threads (I1), web conversations (W1: tagged with their id).
    static func tag(_ app: String, _ tag: String) -> ItemKey { ItemKey("t", app: app, key: tag) }
    static func collapseKey(_ app: String, _ key: String) -> ItemKey { ItemKey("k", app: app, key: key) }
    static func appStack(_ app: String) -> ItemKey { ItemKey("a", app: app, key: nil) }
    static func untagged(push: Int) -> ItemKey { ItemKey("n", app: nil, key: String(push)) }

    /// The id these parts spell (`Item.id`): the prefix, then the app and the key, each after a ␟.
    /// Written into one string of its size (interpolation cost a new item about 1,000 instructions).
    var id: String {
        var app = app
        var key = key
        let count = 1 + (app.map { $0.utf8.count + 1 } ?? 0) + (key.map { $0.utf8.count + 1 } ?? 0)
        return String(unsafeUninitializedCapacity: count) { out in
            var n = 0
            out[n] = UInt8(truncatingIfNeeded: prefix.value)   // the prefixes are ASCII letters
            n += 1
            func put(_ part: inout String?) {
                guard part != nil else { return }
                out[n] = 0x1F
                n += 1
                part!.withUTF8 { bytes in
                    if let base = bytes.baseAddress { (out.baseAddress! + n).initialize(from: base, count: bytes.count) }
                    n += bytes.count
                }
            }
            put(&app)
            put(&key)
            return n
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    /// The table's hash is the FNV hash computed once, mixed with the dictionary's seed: no SipHash
    /// round per lookup (the key's bytes were hashed already). Only lookups use it; nothing iterates
    /// the index, so no order depends on it.
    func _rawHashValue(seed: Int) -> Int {
        var h = hash ^ UInt64(UInt(bitPattern: seed))
        h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }

    static func == (a: ItemKey, b: ItemKey) -> Bool {
        guard a.hash == b.hash else { return false }
        if a.prefix == b.prefix && a.app == b.app && a.key == b.key { return true }
        return a.id == b.id  // other parts that spell the same id (an app holding ␟) are the same item
    }

    @inline(__always)
    static func fnv(_ h: UInt64, _ byte: UInt8) -> UInt64 { (h ^ UInt64(byte)) &* 0x100_0000_01B3 }

    static func fnv(_ h: UInt64, _ text: String) -> UInt64 {
        // Over the contiguous bytes: iterating a String's UTF8View costs several times as much a byte.
        var text = text
        return text.withUTF8 { bytes in
            var h = h
            for byte in bytes { h = fnv(h, byte) }
            return h
        }
    }
}

/// A pair of strings as one key (I4's collapse ids within an app or an item), hashed once.
struct StringPair: Hashable, Sendable {
    let first: String
    let second: String
    let hash: UInt64

    init(_ first: String, _ second: String) {
        self.first = first
        self.second = second
        // The first part's length keeps ("ab", "c") and ("a", "bc") apart.
        hash = ItemKey.fnv(ItemKey.fnv(ItemKey.fnv(0xCBF2_9CE4_8422_2325, first), UInt8(truncatingIfNeeded: first.utf8.count)), second)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    static func == (a: StringPair, b: StringPair) -> Bool { a.hash == b.hash && a.first == b.first && a.second == b.second }
}

/// The center's items, each in a slot it keeps while it lives: A9's queues name slots, and a push
/// finds its item by key with one hash. A slot's item is taken out to be changed (so that it is
/// changed in place, not copied) and put back.
struct ItemTable: Sendable {
    private var items: [Item?] = []
    private var keys: [ItemKey?] = []
    /// When each slot's item was last updated; -1 for a free slot (what A9's queues compare).
    private(set) var updated: [Int] = []
    private var free: [Int] = []
    private var index: [ItemKey: Int] = [:]

    func slot(of key: ItemKey) -> Int? { index[key] }

    func key(of slot: Int) -> ItemKey? { keys[slot] }

    subscript(slot: Int) -> Item? { items[slot] }

    /// Takes the item out of its slot to change it; the slot stays reserved for `put` or `release`.
    mutating func take(_ slot: Int) -> Item {
        var out: Item?
        swap(&out, &items[slot])
        return out!
    }

    /// Puts an item (back) in `slot`, or in a new slot under `key`; returns its slot.
    @discardableResult
    mutating func put(_ item: consuming Item, key: ItemKey, at slot: Int?) -> Int {
        let stamp = item.updated  // read before the item is moved in
        if let slot {
            updated[slot] = stamp
            items[slot] = consume item
            return slot
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            keys[slot] = key
            updated[slot] = stamp
            items[slot] = consume item
        } else {
            slot = items.count
            keys.append(key)
            updated.append(stamp)
            items.append(consume item)
        }
        index[key] = slot
        return slot
    }

    /// Changes the item in `slot` where it lies.
    mutating func modify<R>(_ slot: Int, _ change: (inout Item) -> R) -> R { change(&items[slot]!) }

    /// Frees a slot (its item, when not taken out, goes with it).
    @discardableResult
    mutating func release(_ slot: Int) -> Item? {
        var item: Item?
        swap(&item, &items[slot])
        if let key = keys[slot] { index[key] = nil }
        keys[slot] = nil
        updated[slot] = -1
        free.append(slot)
        return item
    }

    /// Each item in the center, in no particular order, read where it lies.
    func forEachItem(_ body: (borrowing Item) -> Void) {
        for i in items.indices { if let item = items[i] { body(item) } }
    }

    /// The slots of the items in the center, in no particular order.
    var slots: [Int] { items.indices.filter { items[$0] != nil } }

    var all: [Item] { items.compactMap { $0 } }

    mutating func removeAll() { self = ItemTable() }
}
