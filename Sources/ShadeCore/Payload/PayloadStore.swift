/// One push's payload as it was received: its bytes and their token tape in one block, nothing
/// else. Every reading of the push (shape, platform, conversation keys, sizes) is done on it in place;
/// a `JSON` tree is built only for someone who asks for one (the inspector, lint, a recording, a test).
/// Immutable and shared: a push, its items and their app data point at the same store.
public final class PayloadStore: @unchecked Sendable {
    // @unchecked: the block is written once, in `make`, before the store is shared, and never again.

    /// The bytes, then the tokens (8-byte aligned), rebased: the root is token 0 and offsets count
    /// from the first byte.
    private let block: UnsafeMutableRawPointer
    /// How many bytes the payload took as received.
    public let byteCount: Int
    private let tokenCount: Int

    private init(byteCount: Int, tokenCount: Int) {
        self.byteCount = byteCount
        self.tokenCount = tokenCount
        block = .allocate(byteCount: Self.tokenOffset(byteCount) + tokenCount * MemoryLayout<JSONTape.Token>.stride,
                          alignment: MemoryLayout<JSONTape.Token>.alignment)
    }

    deinit { block.deallocate() }

    private static func tokenOffset(_ byteCount: Int) -> Int {
        let alignment = MemoryLayout<JSONTape.Token>.alignment
        return (byteCount + alignment - 1) / alignment * alignment
    }

    private var bytes: UnsafeMutablePointer<UInt8> { block.assumingMemoryBound(to: UInt8.self) }
    private var tokens: UnsafeMutablePointer<JSONTape.Token> {
        (block + Self.tokenOffset(byteCount)).assumingMemoryBound(to: JSONTape.Token.self)
    }

    /// The value `view` stands for, copied out of the document it was parsed in (an envelope's
    /// `payload`, a batch element, a whole document).
    static func make(_ view: JSONView) -> PayloadStore {
        let root = view.tokens[view.index]
        let first = view.index
        let store = PayloadStore(byteCount: root.end - root.start, tokenCount: Int(root.next) - first)
        store.block.bindMemory(to: UInt8.self, capacity: store.byteCount)
            .initialize(from: view.bytes.baseAddress! + root.start, count: store.byteCount)
        let tokens = (store.block + tokenOffset(store.byteCount)).bindMemory(to: JSONTape.Token.self, capacity: store.tokenCount)
        // A whole document that starts at its first byte (an HTTP body, mostly) keeps its offsets: copied at once.
        if first == 0 && root.start == 0 {
            tokens.initialize(from: view.tokens.baseAddress!, count: store.tokenCount)
            return store
        }
        for i in 0..<store.tokenCount {
            var t = view.tokens[first + i]
            t.start -= root.start
            t.end -= root.start
            t.next -= Int32(first)
            (tokens + i).initialize(to: t)
        }
        return store
    }

    /// A tree made elsewhere (a Web Push plaintext, a test), stored as its compact text.
    public static func make(_ json: JSON) -> PayloadStore {
        make(compact: JSONWriter.compactBytes(json))
    }

    /// Compact text Shade wrote itself (from a tree, or a payload FCM would make of another).
    static func make(compact: [UInt8]) -> PayloadStore {
        var text = compact
        var tape = JSONTape()
        // Compact text written from a tree parses (a number lexeme made up in code might not: null then).
        if text.withUnsafeBufferPointer({ (try? tape.parse($0)) == nil }) {
            text = Array("null".utf8)
            text.withUnsafeBufferPointer { _ = try? tape.parse($0) }
        }
        return text.withUnsafeBufferPointer { buffer in tape.withRoot(buffer) { make($0) } }
    }

    /// The payload's root, valid inside `body` only (a view holds pointers into this store).
    @inline(__always)
    public func withRoot<R>(_ body: (JSONView) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) {
            try body(JSONView(tokens: UnsafeBufferPointer(start: tokens, count: tokenCount),
                              bytes: UnsafeBufferPointer(start: bytes, count: byteCount), index: 0))
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
    public var text: [UInt8] { withRoot { Array($0.raw) } }
}
