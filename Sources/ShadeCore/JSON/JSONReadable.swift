/// What the payload rules ask of a JSON value. A tree (`JSON`) and a value read in place on a tape
/// (`JSONView`) answer alike, so each rule — a shape, a key, a size, a browser's TypeError — is
/// written once and serves a parsed push, the tree lint or a test holds, and a tree the reading made.
public protocol JSONReadable {
    associatedtype MemberSequence: Sequence where MemberSequence.Element == (key: Self, value: Self)
    associatedtype ElementSequence: Sequence where ElementSequence.Element == Self

    /// The JSON type (a boolean is `.true` or `.false`).
    var kind: JSONTape.Kind { get }
    /// The value of the last member named `key` (duplicates: the last wins); nil when absent or
    /// when this is not an object.
    subscript(key: String) -> Self? { get }
    /// `(key, value)` of each member of an object, in document order (a key is a string value);
    /// nothing for other values.
    var members: MemberSequence { get }
    /// Each element of an array, in order; nothing for other values.
    var elements: ElementSequence { get }
    /// Members of an object or elements of an array; 0 for a scalar.
    var count: Int { get }

    var string: String? { get }
    var numberLexeme: String? { get }
    /// Strings, numbers and booleans as text (FCM stringifies data values); nil for null and containers.
    var scalarText: String? { get }
    /// A number with no fraction, or a string holding one.
    var int: Int? { get }
    var bool: Bool? { get }
    /// A string whose text is exactly `text`.
    func stringEquals(_ text: String) -> Bool

    /// The length of the value's compact JSON text: what APNs and FCM measure (I9, V1).
    var compactSize: Int { get }
    /// The value as a tree.
    var json: JSON { get }
    /// Where the value lies on the tape it was read from (its token), nil for a tree: what lets a
    /// reading point at a value to be read again later instead of copying it (`AppData`).
    var tapeIndex: Int? { get }
}

extension JSONReadable {
    public var isNull: Bool { kind == .null }
    public var isObject: Bool { kind == .object }
    public var isArray: Bool { kind == .array }
    public var isString: Bool { kind == .string }
    @inline(__always)
    public func has(_ key: String) -> Bool { self[key] != nil }

    /// The JSON type's name, for messages ("got number 3").
    public var typeName: String {
        switch kind {
        case .null: return "null"
        case .true, .false: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The keys of an object, in document order (duplicates kept).
    public var keys: [String] { members.map { $0.key.string ?? "" } }

    /// The compact size of an object without its members named in `removed` (the simulator key
    /// never reaches APNs, D4). Measured on the members, so nothing is copied.
    public func compactSize(removing removed: [String]) -> Int {
        guard isObject, removed.contains(where: has) else { return compactSize }
        var size = 2
        var kept = 0
        for (key, value) in members {
            guard let text = key.string, !removed.contains(text) else { continue }
            size += key.compactSize + 1 + value.compactSize
            kept += 1
        }
        return size + max(0, kept - 1)
    }
}

// MARK: the tree

extension JSON: JSONReadable {
    public var kind: JSONTape.Kind {
        switch self {
        case .null: return .null
        case .bool(let b): return b ? .true : .false
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    public var members: [(key: JSON, value: JSON)] {
        object?.members.map { (JSON.string($0.key), $0.value) } ?? []
    }

    public var elements: [JSON] { array ?? [] }

    public var count: Int {
        switch self {
        case .array(let a): return a.count
        case .object(let o): return o.members.count
        default: return 0
        }
    }

    public func stringEquals(_ text: String) -> Bool { string == text }
    public var compactSize: Int { JSONWriter.compactSize(self) }
    public var json: JSON { self }
    public var tapeIndex: Int? { nil }
}

// MARK: either

/// A payload value as the reading meets it: in place on the push's tape, or a tree the reading made
/// (another spelling renamed to its wire name, the `aps` FCM makes of a legacy notification, a
/// string holding JSON followed by `--group-by`). The readers take this one type.
public enum PayloadValue: JSONReadable {
    case view(JSONView)
    case tree(JSON)

    @inline(__always)
    public var kind: JSONTape.Kind {
        switch self {
        case .view(let v): return v.kind
        case .tree(let t): return t.kind
        }
    }

    @inline(__always)
    public subscript(key: String) -> PayloadValue? {
        switch self {
        // Unwrapped by hand: `Optional.map` copied each result through the generic Optional witness.
        case .view(let v):
            guard let found = v[key] else { return nil }
            return .view(found)
        case .tree(let t):
            guard let found = t[key] else { return nil }
            return .tree(found)
        }
    }

    public var members: Members { Members(value: self) }
    public var elements: Elements { Elements(value: self) }

    public struct Members: Sequence {
        let value: PayloadValue
        public enum Iterator: IteratorProtocol {
            case view(JSONView.Members.Iterator)
            case tree(IndexingIterator<[JSONObject.Member]>)
            case none
            public mutating func next() -> (key: PayloadValue, value: PayloadValue)? {
                switch self {
                case .view(var i):
                    defer { self = .view(i) }
                    return i.next().map { (.view($0.key), .view($0.value)) }
                case .tree(var i):
                    defer { self = .tree(i) }
                    return i.next().map { (.tree(.string($0.key)), .tree($0.value)) }
                case .none: return nil
                }
            }
        }
        public func makeIterator() -> Iterator {
            switch value {
            case .view(let v): return .view(v.members.makeIterator())
            case .tree(.object(let o)): return .tree(o.members.makeIterator())
            case .tree: return .none
            }
        }
    }

    public struct Elements: Sequence {
        let value: PayloadValue
        public enum Iterator: IteratorProtocol {
            case view(JSONView.Elements.Iterator)
            case tree(IndexingIterator<[JSON]>)
            case none
            public mutating func next() -> PayloadValue? {
                switch self {
                case .view(var i):
                    defer { self = .view(i) }
                    return i.next().map(PayloadValue.view)
                case .tree(var i):
                    defer { self = .tree(i) }
                    return i.next().map(PayloadValue.tree)
                case .none: return nil
                }
            }
        }
        public func makeIterator() -> Iterator {
            switch value {
            case .view(let v): return .view(v.elements.makeIterator())
            case .tree(.array(let a)): return .tree(a.makeIterator())
            case .tree: return .none
            }
        }
    }

    public var count: Int {
        switch self {
        case .view(let v): return v.count
        case .tree(let t): return t.count
        }
    }

    public var string: String? {
        switch self {
        case .view(let v): return v.string
        case .tree(let t): return t.string
        }
    }

    public var numberLexeme: String? {
        switch self {
        case .view(let v): return v.numberLexeme
        case .tree(let t): return t.numberLexeme
        }
    }

    public var scalarText: String? {
        switch self {
        case .view(let v): return v.scalarText
        case .tree(let t): return t.scalarText
        }
    }

    public var int: Int? {
        switch self {
        case .view(let v): return v.int
        case .tree(let t): return t.int
        }
    }

    public var bool: Bool? {
        switch self {
        case .view(let v): return v.bool
        case .tree(let t): return t.bool
        }
    }

    public func stringEquals(_ text: String) -> Bool {
        switch self {
        case .view(let v): return v.stringEquals(text)
        case .tree(let t): return t.stringEquals(text)
        }
    }

    public var compactSize: Int {
        switch self {
        case .view(let v): return v.compactSize
        case .tree(let t): return t.compactSize
        }
    }

    public var json: JSON {
        switch self {
        case .view(let v): return v.json
        case .tree(let t): return t
        }
    }

    public var tapeIndex: Int? {
        switch self {
        case .view(let v): return v.index
        case .tree: return nil
        }
    }

    /// An object member's value as text, without the `String` when the caller only tests it.
    public var isEmptyString: Bool {
        switch self {
        case .view(let v): return v.kind == .string && v.raw.isEmpty
        case .tree(let t): return t.string?.isEmpty == true
        }
    }

    /// As `JSON.value(atPath:)`: a dotted path (`data.payload.room`); a string met on the way that
    /// holds a JSON object is descended into (FCM data values are strings, so apps nest JSON in them).
    public func value(atPath path: String) -> PayloadValue? {
        var current = self
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            if current.kind == .string, let s = current.string, let first = s.utf8.first(where: { $0 > 0x20 }),
               first == UInt8(ascii: "{") {
                guard let nested = try? JSONParser.parse(Array(s.utf8)) else { return nil }
                current = .tree(nested)
            }
            if let index = Int(component), current.isArray {
                guard index >= 0, index < current.count else { return nil }
                var i = 0
                var found: PayloadValue?
                for element in current.elements {
                    if i == index { found = element; break }
                    i += 1
                }
                current = found!
            } else {
                guard let next = current[String(component)] else { return nil }
                current = next
            }
        }
        return current
    }
}

extension JSONWriter {
    /// A payload's value as it lies, on its tape or in its tree: the same bytes either way.
    mutating func write(_ value: PayloadValue) {
        switch value {
        case .view(let view): write(view)
        case .tree(let tree): write(tree)
        }
    }
}
