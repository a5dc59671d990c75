/// A value type's fields kept in one class instance that the value's copies share until one of
/// them changes, then copied for it first, as `Array` does with its storage. A large value read,
/// moved and copied many times on the hot path (`Content`, `Item`, `Line`) is then a pointer to
/// move and one retain to copy, instead of every field's bytes and every string's retain.
protocol CopiedOnWrite: AnyObject {
    /// A new instance holding the same fields.
    func copy() -> Self
}

struct CopyOnWrite<Fields: CopiedOnWrite> {
    /// The fields, to read.
    private(set) var read: Fields

    init(_ fields: Fields) { read = fields }

    /// The fields, to change: this value's own instance, copied first when a copy shares it.
    var writable: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&read) { read = read.copy() }
            return read
        }
    }

    /// Whether two values share their fields (then they are equal without comparing them).
    func shares(with other: CopyOnWrite) -> Bool { read === other.read }
}

extension CopyOnWrite: Sendable where Fields: Sendable {}
