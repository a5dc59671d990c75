/// One push's payload as it was received: its bytes and their token tape, nothing else. Every reading
/// of the push (shape, platform, conversation keys, sizes) is done on it in place; a `JSON` tree is
/// built only for someone who asks for one (the inspector, lint, a recording, a test).
/// Immutable and shared: a push, its items and their app data point at the same store.
public final class PayloadStore: Sendable {
    let bytes: [UInt8]
    /// The payload's tokens, rebased: the root is token 0 and offsets count from `bytes[0]`.
    let tokens: [JSONTape.Token]

    /// The value `view` stands for, copied out of the document it was parsed in (an envelope's
    /// `payload`, a batch element, a whole document).
    init(_ view: JSONView) {
        let root = view.tokens[view.index]
        let base = root.start
        let first = view.index
        let end = Int(root.next)
        bytes = Array(UnsafeBufferPointer(rebasing: view.bytes[root.start..<root.end]))
        var tokens: [JSONTape.Token] = []
        tokens.reserveCapacity(end - first)
        for i in first..<end {
            var t = view.tokens[i]
            t.start -= base
            t.end -= base
            t.next -= Int32(first)
            tokens.append(t)
        }
        self.tokens = tokens
    }

    /// A tree made elsewhere (a Web Push plaintext, a test), stored as its compact text.
    public convenience init(_ json: JSON) {
        let text = JSONWriter.compactBytes(json)
        var tape = JSONTape()
        // Compact text written from a tree parses (a number lexeme made up in code might not: null then).
        let parsed = text.withUnsafeBufferPointer { buffer in (try? tape.parse(buffer)) != nil }
        self.init(bytes: parsed ? text : Array("null".utf8), tokens: parsed ? tape.tokens : [Self.null])
    }

    private init(bytes: [UInt8], tokens: [JSONTape.Token]) {
        self.bytes = bytes
        self.tokens = tokens
    }

    private static let null = JSONTape.Token(kind: .null, start: 0, end: 4, next: 1)

    /// The payload's root, valid inside `body` only (a view holds pointers into this store).
    @inline(__always)
    public func withRoot<R>(_ body: (JSONView) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { bytes in
            try tokens.withUnsafeBufferPointer { tokens in
                try body(JSONView(tokens: tokens, bytes: bytes, index: 0))
            }
        }
    }

    /// The value at token `index` (a `tapeIndex` taken from this store), valid inside `body` only.
    @inline(__always)
    func withValue<R>(at index: Int, _ body: (JSONView) throws -> R) rethrows -> R {
        try withRoot { try body($0.at(index)) }
    }

    /// The payload as a tree.
    public var json: JSON { withRoot { $0.json } }

    /// The payload's bytes as received (a recording can copy them without re-serialising).
    public var text: [UInt8] { bytes }
}
