/// A parsed JSON value. Numbers keep the lexeme they were written with, so a payload
/// re-serialises byte for byte (APNs size limits are measured on the compact text, I9) and
/// no floating-point conversion happens unless someone asks for a number.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// A JSON object with its members in document order. Duplicate keys are kept (lint can see
/// them); lookups answer the last one, as JavaScript's `JSON.parse` does.
public struct JSONObject: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSON
        public init(key: String, value: JSON) { self.key = key; self.value = value }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public init(_ pairs: KeyValuePairs<String, JSON>) {
        self.members = pairs.map { Member(key: $0.key, value: $0.value) }
    }

    public subscript(key: String) -> JSON? {
        get {
            // Most keys differ in length: comparing the stored lengths first skips String's slow path.
            let length = key.utf8.count
            var i = members.count - 1
            while i >= 0 {
                let candidate = members[i].key
                if candidate.utf8.count == length && Self.sameKey(candidate, key) { return members[i].value }
                i -= 1
            }
            return nil
        }
        set {
            if let index = members.lastIndex(where: { Self.sameKey($0.key, key) }) {
                if let newValue { members[index].value = newValue } else { members.removeAll { Self.sameKey($0.key, key) } }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Keys match as JavaScript matches them, code unit for code unit. Swift's `==` compares
    /// canonical equivalence, which normalises both sides: a key of 100,000 combining marks cost
    /// its whole length on every lookup of `aps` (an attack showed it), and U+212A KELVIN SIGN
    /// would have answered for `K`.
    @inline(__always)
    static func sameKey(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    public var keys: [String] { members.map(\.key) }
    public var isEmpty: Bool { members.isEmpty }
    public func has(_ key: String) -> Bool { self[key] != nil }

    /// Members of `other` replace or extend ours (FCM platform overrides).
    public func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        for member in other.members { result[member.key] = member.value }
        return result
    }

    public func removing(_ keys: Set<String>) -> JSONObject {
        JSONObject(members.filter { member in !keys.contains { Self.sameKey($0, member.key) } })
    }
}

extension JSON {
    public var object: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var array: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var numberLexeme: String? { if case .number(let n) = self { return n } else { return nil } }

    public subscript(key: String) -> JSON? { object?[key] }

    /// The value as an integer: a JSON number with no fraction, or a string holding one
    /// (FCM data values and node-gcm fields are often strings). Digits beyond Int's range saturate
    /// (`Checked`): a payload's `"badge": 99999999999999999999` is a huge badge, not a trap.
    public var int: Int? {
        switch self {
        case .number(let n):
            return Checked.integer(n) ?? Double(n).flatMap { $0 == $0.rounded() && Swift.abs($0) < 1e15 ? Int($0) : nil }
        case .string(let s): return Checked.integer(s.trimmingASCIIWhitespace())
        default: return nil
        }
    }

    public var double: Double? {
        switch self {
        case .number(let n): return Double(n)
        case .string(let s): return Double(s.trimmingASCIIWhitespace())
        default: return nil
        }
    }

    /// Scalars as the text an app would receive (FCM stringifies data values); nil for containers.
    public var scalarText: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return nil
        case .array, .object: return nil
        }
    }

    /// Follows a dotted path (`data.payload.room`). A string met on the way that holds a JSON
    /// object is descended into: FCM data values are strings, so apps nest JSON inside them.
    public func value(atPath path: String) -> JSON? { PayloadValue.tree(self).value(atPath: path)?.json }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> String {
        var sub = Substring(self)
        while let c = sub.first, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { sub.removeFirst() }
        while let c = sub.last, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { sub.removeLast() }
        return String(sub)
    }
}
