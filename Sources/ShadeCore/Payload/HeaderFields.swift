/// A push's transport header fields (`apns-push-type`, `apns-topic`, `content-type`, `ttl`, …):
/// a handful of name–value pairs, found by comparing names.
///
/// Why not a `Dictionary`: a push carries two to five fields, and its readings look them up some
/// fifteen times across the three platforms (the VoIP check, the collapse id, the priority, the app
/// name, the payload size rules). A dictionary hashed the name with SipHash on every one of those
/// lookups and on every insert (about 400 instructions each, a tenth of an APNs request); comparing a
/// few short names is a fraction of that. Names are unique: setting one that is there replaces it.
/// Equality, like a dictionary's, ignores order; iteration is in the order the names were first set
/// (anything written out sorts them, as it did).
public struct HeaderFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (key: String, value: String)

    private var fields: [Element]

    public init() {
        fields = []
    }

    /// The fields of `dictionary` (its order, which no reader depends on).
    public init(_ dictionary: [String: String]) {
        fields = dictionary.map { (key: $0.key, value: $0.value) }
    }

    /// Later fields of a repeated name replace earlier ones, as a dictionary's subscript would.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = []
        fields.reserveCapacity(elements.count)
        for (name, value) in elements { self[name] = value }
    }

    /// Room for `count` fields, so filling them allocates once.
    public init(minimumCapacity count: Int) {
        fields = []
        fields.reserveCapacity(count)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public var keys: [String] { fields.map(\.key) }
    public var underestimatedCount: Int { fields.count }

    public subscript(name: String) -> String? {
        get {
            for field in fields where Self.same(field.key, name) { return field.value }
            return nil
        }
        set {
            if let index = fields.firstIndex(where: { Self.same($0.key, name) }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append((key: name, value: newValue))
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> HeaderFields {
        var kept = HeaderFields()
        kept.fields = try fields.filter(isIncluded)
        return kept
    }

    /// The same fields as a dictionary.
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Names told apart on their length first (the metadata names mostly differ in it), so few lookups
    /// reach `String ==`, which compares long names the slow way.
    @inline(__always)
    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    public static func == (a: HeaderFields, b: HeaderFields) -> Bool {
        a.count == b.count && a.fields.allSatisfy { b[$0.key] == $0.value }
    }

    /// The same fields in the same order (`==` ignores the order, as a dictionary's would).
    public func isIdentical(to other: HeaderFields) -> Bool {
        fields.count == other.fields.count
            && zip(fields, other.fields).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public var description: String { dictionary.description }
}
