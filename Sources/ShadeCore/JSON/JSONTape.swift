/// One parsed JSON document as a flat tape of tokens: byte offsets into the bytes parsed and no
/// per-value heap object. Parsing checks everything `JSONParser` promises (RFC 8259, strict, errors
/// with line:column); strings are decoded and numbers read only when someone asks, through `JSONView`.
/// A tape is reused document after document: `parse` keeps the storage of the one before.
///
/// Tokens are in document order. An object's token is followed by its members, each a key token
/// (kind `.string`) and then its value; an array's by its elements. Every token knows where the
/// value after it starts (`next`), so skipping a member never walks its insides.
public struct JSONTape: Sendable {
    /// The fix named when a document holds more than one value; a line reader names its own
    /// (`oneValuePerLine`), since a line of NDJSON is already one value per line.
    public static let oneValuePerDocument = " (one value per document; use .jsonl for one per line)"
    public static let oneValuePerLine = " (one value per line: put each payload on its own line)"

    public enum Kind: UInt8, Sendable {
        case null, `false`, `true`, number, string, array, object
    }

    public struct Token: Sendable, Equatable {
        /// Byte range: a string's text between its quotes, a number's lexeme, a literal's word, or a
        /// container from its bracket to past the closing one.
        public var start: Int
        public var end: Int
        /// Containers: their members or elements. Object keys: their length in bytes, or -1 when they
        /// hold an escape (a lookup compares this first).
        public var count: Int32
        /// The index of the first token after this value (and all it holds).
        public var next: Int32
        /// Unescaped keys: their first four bytes (little-endian, zero past the end), so that a key
        /// lookup turns most members down on their length and this one word. Objects: a bit for
        /// each member key (`keyBit`), so that a lookup of a key that is not there stops at once.
        public var head: UInt32
        public var kind: Kind
        /// Strings: the text holds an escape (`\n`, `\u00e9`), so it must be decoded, not copied.
        public var escaped: Bool

        init(kind: Kind, escaped: Bool = false, start: Int, end: Int, count: Int32 = 0, next: Int32, head: UInt32 = 0) {
            self.start = start
            self.end = end
            self.count = count
            self.next = next
            self.head = head
            self.kind = kind
            self.escaped = escaped
        }
    }

    /// Whether `count` bytes at `a` and `b` are the same, a word at a time (keys are short: a libc
    /// call would cost more than the compare).
    @inline(__always)
    static func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var k = 0
        while k + 8 <= count {
            if UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) { return false }
            k += 8
        }
        while k < count {
            if a[k] != b[k] { return false }
            k += 1
        }
        return true
    }

    /// The bit a key of this length and head sets in its object's `head`; an escaped key sets them all.
    @inline(__always)
    static func keyBit(count: Int, head: UInt32) -> UInt32 {
        1 << ((head &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: count) &* 0x85EB_CA6B) >> 27)
    }

    /// The bit a lookup of `key` tests in an object's key bits.
    static func keyBit(of key: String) -> UInt32 {
        let bytes = Array(key.utf8)
        let head = bytes.isEmpty ? 0 : bytes.withUnsafeBytes { Self.head($0.baseAddress!, count: bytes.count) }
        return keyBit(count: bytes.count, head: head)
    }

    /// The first four bytes of `text`, as a token's `head` holds them.
    @inline(__always)
    static func head(_ text: UnsafeRawPointer, count: Int) -> UInt32 {
        if count >= 4 { return text.loadUnaligned(as: UInt32.self) }
        var head: UInt32 = 0
        for k in 0..<count { head |= UInt32(text.load(fromByteOffset: k, as: UInt8.self)) << (8 * UInt32(k)) }
        return head
    }

    /// The tokens of the document last parsed (a copy: views read them in place).
    public var tokens: [Token] { Array(UnsafeBufferPointer(start: storage.pointer, count: count)) }
    /// Offsets of the top-level array's elements or the top-level object's member keys (as
    /// `JSONParser.parseDocument` gives them), read off the tokens when asked: where a value starts is
    /// its token's start, one byte earlier for a string (its quote), so the parse records nothing more.
    public var topOffsets: [Int] {
        guard count > 0 else { return [] }
        let tokens = storage.pointer
        let root = tokens[0]
        guard root.kind == .array || root.kind == .object else { return [] }
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(root.count))
        var i = 1
        while i < Int(root.next) {
            let t = tokens[i]
            offsets.append(t.kind == .string ? t.start - 1 : t.start)
            // An object's member is its key and then its value: step past both.
            i = root.kind == .object ? Int(tokens[i + 1].next) : Int(t.next)
        }
        return offsets
    }

    /// The token storage, kept from document to document; `count` of its tokens are this document's.
    private var storage = TokenStorage(capacity: 64)
    private var count = 0

    public init() {}

    /// Parses `bytes` into this tape (the previous document's tokens are dropped, their storage kept).
    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
        // A copy of the tape shares the storage; parsing into one must not change the other.
        if !isKnownUniquelyReferenced(&storage) { storage = TokenStorage(capacity: storage.capacity) }
        var builder = TapeBuilder(bytes, storage: storage)
        defer { count = builder.count }
        try builder.parseTopLevel()
    }

    /// The document's root, valid inside `body` only: views point into this tape and into `bytes`,
    /// which must be the bytes last parsed.
    public func withRoot<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONView) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) {
            try body(JSONView(tokens: UnsafeBufferPointer(start: storage.pointer, count: count), bytes: bytes, index: 0))
        }
    }
}

/// A tape's token storage: raw memory, so that emitting a token is a store and a count, not an
/// array append with its uniqueness and capacity checks.
final class TokenStorage: @unchecked Sendable {  // written only by `JSONTape.parse`, on storage its tape holds alone
    private(set) var pointer: UnsafeMutablePointer<JSONTape.Token>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        pointer = .allocate(capacity: capacity)
    }

    /// Room for twice as many tokens (at most Int32.max, the most a token's `next` can count), the
    /// first `count` kept.
    func grow(keeping count: Int) {
        let room = min(capacity * 2, Int(Int32.max))
        let larger = UnsafeMutablePointer<JSONTape.Token>.allocate(capacity: room)
        larger.moveInitialize(from: pointer, count: count)
        pointer.deallocate()
        pointer = larger
        capacity = room
    }

    deinit { pointer.deallocate() }
}

/// A value on a tape: lookups straight off the tokens, and text made into a `String` only when asked.
/// Valid only inside the `JSONTape.withRoot` call that gave it (it holds pointers, nothing retained).
public struct JSONView: JSONReadable {
    // Pointers, not arrays: a view is copied per lookup and must cost no retain or release.
    let tokens: UnsafeBufferPointer<JSONTape.Token>
    let bytes: UnsafeBufferPointer<UInt8>
    public let index: Int

    var token: JSONTape.Token { tokens[index] }
    public var kind: JSONTape.Kind { tokens[index].kind }
    /// The value's bytes as written (a string without its quotes).
    public var raw: UnsafeBufferPointer<UInt8> {
        let t = tokens[index]
        return UnsafeBufferPointer(rebasing: bytes[t.start..<t.end])
    }

    func at(_ index: Int) -> JSONView { JSONView(tokens: tokens, bytes: bytes, index: index) }

    // MARK: containers

    /// Members of an object or elements of an array; 0 for a scalar.
    public var count: Int {
        let t = token
        return t.kind == .object || t.kind == .array ? Int(t.count) : 0
    }


    /// The value of the last member named `key` (duplicates: the last wins, as `JSONObject`); nil when
    /// absent or when this is not an object.
    /// Inlined, so that a key written as a literal (nearly every lookup) is read where it lies, with
    /// no retain or release of the string.
    @inline(__always)
    public subscript(key: String) -> JSONView? {
        guard kind == .object else { return nil }
        if let found = key.utf8.withContiguousStorageIfAvailable({ member(named: $0) }) { return found }
        return member(copying: key)
    }

    @inline(never)
    func member(copying key: String) -> JSONView? { Array(key.utf8).withUnsafeBufferPointer { member(named: $0) } }

    /// Whether this object may hold a key whose bit (`JSONTape.keyBit`) is among `bits`: false means
    /// it holds none of those keys.
    func mayHoldKey(bits: UInt32) -> Bool { tokens[index].head & bits != 0 }

    /// The last member named `key` (UTF-8): most members are turned down on their length and head.
    func member(named key: UnsafeBufferPointer<UInt8>) -> JSONView? {
        let count = key.count
        let head = count == 0 ? 0 : JSONTape.head(key.baseAddress!, count: count)
        guard tokens[index].head & JSONTape.keyBit(count: count, head: head) != 0 else { return nil }
        var found = -1
        var i = index + 1
        let end = Int(tokens[index].next)
        let length = Int32(truncatingIfNeeded: count)
        let t = tokens.baseAddress!
        while i < end {
            // A key's token holds its length (-1 when escaped): most members are turned down on it.
            let keyLength = t[i].count
            if keyLength == length {
                if t[i].head == head && (count <= 4 || JSONTape.bytesEqual(bytes.baseAddress! + t[i].start, key.baseAddress!, count)) {
                    found = i + 1
                }
            } else if keyLength < 0, at(i).textEquals(key) {
                found = i + 1
            }
            i = Int(t[i + 1].next)
        }
        return found < 0 ? nil : at(found)
    }

    /// `(key, value)` of each member, in document order.
    public var members: Members { Members(view: self) }
    /// Each element of an array, in order.
    public var elements: Elements { Elements(view: self) }

    public struct Members: Sequence {
        let view: JSONView
        public struct Iterator: IteratorProtocol {
            let view: JSONView
            var i: Int
            let end: Int
            public mutating func next() -> (key: JSONView, value: JSONView)? {
                guard i < end else { return nil }
                let member = (view.at(i), view.at(i + 1))
                i = Int(view.tokens[i + 1].next)
                return member
            }
        }
        public func makeIterator() -> Iterator {
            view.kind == .object ? Iterator(view: view, i: view.index + 1, end: Int(view.token.next))
                : Iterator(view: view, i: 0, end: 0)
        }
    }

    public struct Elements: Sequence {
        let view: JSONView
        public struct Iterator: IteratorProtocol {
            let view: JSONView
            var i: Int
            let end: Int
            public mutating func next() -> JSONView? {
                guard i < end else { return nil }
                let element = view.at(i)
                i = Int(view.tokens[i].next)
                return element
            }
        }
        public func makeIterator() -> Iterator {
            view.kind == .array ? Iterator(view: view, i: view.index + 1, end: Int(view.token.next))
                : Iterator(view: view, i: 0, end: 0)
        }
    }

    // MARK: scalars

    public var bool: Bool? {
        switch kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// A string's text, decoded.
    public var string: String? {
        guard kind == .string else { return nil }
        return decodedText
    }

    public var numberLexeme: String? {
        guard kind == .number else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }

    /// Whether this is a string whose text is exactly `text`, compared on the bytes (no `String` made).
    public func stringEquals(_ text: String) -> Bool {
        guard kind == .string else { return false }
        var text = text
        return text.withUTF8 { textEquals($0) }
    }

    /// A string's or key's decoded text equals `utf8`.
    func textEquals(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let t = token
        if !t.escaped {
            let count = t.end - t.start
            guard count == utf8.count else { return false }
            return count == 0 || JSONTape.bytesEqual(bytes.baseAddress! + t.start, utf8.baseAddress!, count)
        }
        return decodeEscaped { $0.elementsEqual(utf8) }
    }

    /// As `JSON.int`: a number with no fraction, or a string holding one. Plain digits (what nearly
    /// every badge and flag is) are read on the bytes; anything else takes `JSON.int`'s own path.
    public var int: Int? {
        switch kind {
        case .number, .string:
            if !token.escaped, let value = Self.plainInteger(raw) { return value }
            return json.int
        default: return nil
        }
    }

    /// `-?[0-9]{1,18}`, the integers `Int(_:)` reads without overflow, or nil for anything else.
    static func plainInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let negative = bytes.count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let digits = bytes.count - i
        guard digits > 0, digits <= 18 else { return nil }
        var value = 0
        while i < bytes.count {
            let d = bytes[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            value = value &* 10 &+ Int(d)
            i += 1
        }
        return negative ? -value : value
    }

    /// As `JSON.scalarText`: strings, numbers and booleans as text; nil for null and containers.
    public var scalarText: String? {
        switch kind {
        case .string: return decodedText
        case .number: return String(decoding: raw, as: UTF8.self)
        case .true: return "true"
        case .false: return "false"
        case .null, .array, .object: return nil
        }
    }

    /// A string's (or key's) decoded UTF-8 without making a `String`: its bytes where they lie when
    /// it has no escape.
    func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        token.escaped ? decodeEscaped(body) : body(raw)
    }

    var decodedText: String {
        if !token.escaped { return String(decoding: raw, as: UTF8.self) }
        return decodeEscaped { String(decoding: $0, as: UTF8.self) }
    }

    /// The text of an escaped string, decoded into a scratch buffer (the tape checked every escape).
    func decodeEscaped<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let text = raw
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            let b = text[i]
            guard b == UInt8(ascii: "\\") else { out.append(b); i += 1; continue }
            let e = text[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hexValue(text, i)
                i += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = hexValue(text, i + 2)
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(scalar, to: &out)
            default: out.append(e)  // " \ /
            }
        }
        return out.withUnsafeBufferPointer(body)
    }

    private func hexValue(_ text: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in at..<at + 4 {
            let b = text[k]
            let digit: UInt8 = b <= UInt8(ascii: "9") ? b - UInt8(ascii: "0") : (b | 0x20) - UInt8(ascii: "a") + 10
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    public var tapeIndex: Int? { index }

    // MARK: whole values

    /// The value's size as a push service receives it (`JSONWriter.compactSize` of `json`), computed on
    /// the tape: what APNs and FCM measure (I9, V1), without re-serialising. Unescaped strings are their
    /// own size; only strings with escapes are decoded to be measured.
    public var compactSize: Int {
        var size = 0
        for i in index..<Int(token.next) {
            let t = tokens[i]
            switch t.kind {
            case .null, .true: size += 4
            case .false: size += 5
            case .number: size += t.end - t.start
            case .string:
                // Raw text between quotes holds no C0 control, quote or lone backslash: it goes out as it
                // came. Only strings with escapes are decoded (a sender may have escaped more than it must).
                if t.escaped {
                    size += at(i).decodeEscaped { JSONWriter.wireSize(utf8: $0) }
                } else {
                    size += 2 + t.end - t.start
                }
            case .array: size += 2 + max(0, Int(t.count) - 1)
            case .object: size += 2 + max(0, Int(t.count) - 1) + Int(t.count)  // commas and colons
            }
        }
        return size
    }

    /// The value as a `JSON` tree (every string decoded, every container built).
    public var json: JSON {
        let t = token
        switch t.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(String(decoding: raw, as: UTF8.self))
        case .string: return .string(decodedText)
        case .array:
            var elements: [JSON] = []
            elements.reserveCapacity(Int(t.count))
            for element in self.elements { elements.append(element.json) }
            return .array(elements)
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(Int(t.count))
            for (key, value) in self.members { members.append(JSONObject.Member(key: key.decodedText, value: value.json)) }
            return .object(JSONObject(members))
        }
    }
}

// MARK: parsing

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

/// The bytes of a document and what reads them: whitespace, strings, numbers, and the errors with
/// their line and column. No reference in it, so passing it costs nothing.
private struct ByteScanner {
    let buffer: UnsafeBufferPointer<UInt8>
    /// `buffer`'s bytes. Every read below is at an offset checked against `end` first.
    let base: UnsafePointer<UInt8>
    let end: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        // An empty buffer may have no address: any valid pointer does, nothing is read from it.
        self.base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.end = buffer.count
    }

    func fail(_ message: String, at offset: Int) -> JSONError {
        let at = min(offset, end)
        let (line, column) = JSONParser.position(of: at, in: buffer)
        return JSONError(message: message, offset: at, line: line, column: column)
    }

    func describeByte(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let b = base[offset]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    /// A byte that cannot stand here. Comments and single quotes, what hand-written .apns files
    /// hold most, get the same words wherever they appear, not only where a value is expected.
    func unexpected(_ expectation: String, at p: Int) -> JSONError {
        if p < end && base[p] == UInt8(ascii: "/") { return fail("comments are not JSON", at: p) }
        if p < end && base[p] == UInt8(ascii: "'") { return fail("strings must use double quotes, not single quotes", at: p) }
        return fail("unexpected \(describeByte(at: p))\(expectation)", at: p)
    }

    /// The first position from `p` that is not JSON whitespace. Most bytes met here are significant
    /// (above 0x20): one compare tells.
    @inline(__always)
    func skipWhitespace(_ p: Int) -> Int {
        var p = p
        while p < end {
            let b = base[p]
            if b > 0x20 { return p }
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return p }
            p += 1
        }
        return p
    }

    func startsWith(_ word: StaticString, at p: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard p + count <= end else { return false }
        for i in 0..<count where base[p + i] != word.utf8Start[i] { return false }
        return true
    }

    /// A number from `start`; returns the position after it.
    func parseNumber(_ start: Int) throws(JSONError) -> Int {
        var p = start
        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if base[p] == UInt8(ascii: "-") {
            p += 1
            if p < end && base[p] == UInt8(ascii: "I") { throw fail("Infinity is not JSON: send null or a number", at: start) }
        }
        guard p < end, isDigit(base[p]) else { throw fail("invalid number: expected a digit", at: p) }
        if base[p] == UInt8(ascii: "0") {
            p += 1
            if p < end && isDigit(base[p]) { throw fail("invalid number: leading zeros are not allowed", at: start) }
        } else {
            while p < end && isDigit(base[p]) { p += 1 }
        }
        if p < end && base[p] == UInt8(ascii: ".") {
            p += 1
            guard p < end, isDigit(base[p]) else { throw fail("invalid number: expected a digit after '.'", at: p) }
            while p < end && isDigit(base[p]) { p += 1 }
        }
        if p < end && (base[p] == UInt8(ascii: "e") || base[p] == UInt8(ascii: "E")) {
            p += 1
            if p < end && (base[p] == UInt8(ascii: "+") || base[p] == UInt8(ascii: "-")) { p += 1 }
            guard p < end, isDigit(base[p]) else { throw fail("invalid number: expected a digit in the exponent", at: p) }
            while p < end && isDigit(base[p]) { p += 1 }
        }
        return p
    }

    /// A string at `open` (its quote): its text range (between the quotes), whether it holds escapes,
    /// and the position after its closing quote. Checked as the tree parser checked it: control
    /// characters and escapes in order as met, then UTF-8 once the string is closed (reported at its
    /// opening quote).
    @inline(__always)
    func parseString(_ open: Int) throws(JSONError) -> (start: Int, end: Int, escaped: Bool, next: Int) {
        let start = open + 1
        var p = start
        var high: UInt8 = 0    // any byte ≥ 0x80 seen
        var escaped = false
        while p < end {
            // Eight bytes at a time: skip to the first quote, backslash or control character (most
            // of a string is none of these), noting only whether a byte ≥ 0x80 went by. The load
            // reads bytes p..<p+8, all below `end`.
            while p + 8 <= end {
                let word = UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { high = 0x80 }   // maybe past the stop: only checks more
                let look = Self.lookMask(word)
                if look != 0 {
                    p += look.trailingZeroBitCount >> 3
                    break
                }
                p += 8
            }
            guard p < end else { break }
            let b = base[p]
            if b == quote {
                if high & 0x80 != 0 && !validUTF8(start, p) { throw fail("invalid UTF-8 in a string", at: open) }
                return (start, p, escaped, p + 1)
            }
            if b == backslash {
                escaped = true
                p = try checkEscape(p)
                continue
            }
            if b < 0x20 { throw fail("unescaped control character U+\(hex4(UInt32(b))) in a string (write it as \\u\(hex4(UInt32(b))))", at: p) }
            high |= b
            p += 1
        }
        throw fail("unterminated string", at: open)
    }

    /// A mask whose lowest set bit is in the first byte of `word` (little-endian) that is a quote, a
    /// backslash or below 0x20, or 0 when there is none. The has-zero-byte and has-less-than tricks
    /// (Hacker's Delight) may flag bytes after the first true one, never before it.
    @inline(__always)
    static func lookMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word
        let q = word ^ (ones &* UInt64(quote))
        let b = word ^ (ones &* UInt64(backslash))
        return (control | ((q &- ones) & ~q) | ((b &- ones) & ~b)) & highs
    }

    /// One escape at `escapeAt` (the backslash), checked as the tree parser decoded it; returns the
    /// position past it.
    func checkEscape(_ escapeAt: Int) throws(JSONError) -> Int {
        var p = escapeAt + 1
        guard p < end else { return p }  // the string is unterminated: reported by the caller
        let e = base[p]
        p += 1
        switch e {
        case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "r"), UInt8(ascii: "t"):
            return p
        case UInt8(ascii: "u"):
            let scalar = try readHex4(p, escapeAt: escapeAt)
            p += 4
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard p + 1 < end, base[p] == backslash, base[p + 1] == UInt8(ascii: "u") else {
                    throw fail("lone surrogate \\u\(hex4(scalar)): a high surrogate must be followed by a low one", at: escapeAt)
                }
                let lowAt = p
                p += 2
                let low = try readHex4(p, escapeAt: lowAt)
                p += 4
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw fail("lone surrogate \\u\(hex4(scalar)): followed by \\u\(hex4(low)), not a low surrogate", at: escapeAt)
                }
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw fail("lone surrogate \\u\(hex4(scalar)): a low surrogate without a high one", at: escapeAt)
            }
            return p
        default:
            // The byte is shown as its number unless printable: a message never carries a raw control byte.
            let shown = e >= 0x21 && e < 0x7F ? "\\\(Character(Unicode.Scalar(e)))" : "\\ followed by byte 0x" + String(e, radix: 16, uppercase: true)
            throw fail("invalid escape \(shown) in a string", at: escapeAt)
        }
    }

    /// Four hex digits at `p`.
    func readHex4(_ p: Int, escapeAt: Int) throws(JSONError) -> UInt32 {
        guard p + 4 <= end else { throw fail("invalid \\u escape: expected 4 hex digits", at: escapeAt) }
        var value: UInt32 = 0
        for k in p..<p + 4 {
            let b = base[k]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape: expected 4 hex digits", at: escapeAt)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// Well-formed UTF-8 (Unicode Table 3-7, what `String(validating:)` accepts) in bytes from..<to.
    /// Escapes are ASCII and decode to whole sequences, so checking the raw bytes between them is the
    /// same as checking the decoded text.
    func validUTF8(_ from: Int, _ to: Int) -> Bool {
        var i = from
        while i < to {
            let b = base[i]
            if b < 0x80 { i += 1; continue }
            @inline(__always) func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
                k < to && base[k] >= low && base[k] <= high
            }
            switch b {
            case 0xC2...0xDF: guard cont(i + 1) else { return false }; i += 2
            case 0xE0: guard cont(i + 1, 0xA0), cont(i + 2) else { return false }; i += 3
            case 0xE1...0xEC, 0xEE...0xEF: guard cont(i + 1), cont(i + 2) else { return false }; i += 3
            case 0xED: guard cont(i + 1, 0x80, 0x9F), cont(i + 2) else { return false }; i += 3
            case 0xF0: guard cont(i + 1, 0x90), cont(i + 2), cont(i + 3) else { return false }; i += 4
            case 0xF1...0xF3: guard cont(i + 1), cont(i + 2), cont(i + 3) else { return false }; i += 4
            case 0xF4: guard cont(i + 1, 0x80, 0x8F), cont(i + 2), cont(i + 3) else { return false }; i += 4
            default: return false
            }
        }
        return true
    }
}

/// The tape's builder: the grammar of `JSONParser`, emitting tokens into the tape's storage. Each
/// step takes the position it starts at and returns the one after what it read, so the cursor lives
/// in a register rather than in the builder.
private struct TapeBuilder {
    let scan: ByteScanner
    var depth = 0
    let storage: TokenStorage
    var count = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>, storage: TokenStorage) {
        self.scan = ByteScanner(buffer)
        self.storage = storage
    }

    mutating func parseTopLevel() throws(JSONError) {
        var p = 0
        // A UTF-8 byte order mark is allowed before the document (editors write one into .apns files).
        if scan.end >= 3 && scan.base[0] == 0xEF && scan.base[1] == 0xBB && scan.base[2] == 0xBF { p = 3 }
        p = scan.skipWhitespace(p)
        guard p < scan.end else { throw scan.fail("empty input: expected a JSON value", at: p) }
        p = scan.skipWhitespace(try parseValue(p))
        if p < scan.end {
            throw scan.unexpected(" after the JSON value" + JSONTape.oneValuePerDocument, at: p)
        }
    }

    /// Stores a token; `p` is where the scan stands, for the error of a document with too many values.
    @inline(__always)
    mutating func emit(_ kind: JSONTape.Kind, _ start: Int, _ stop: Int, escaped: Bool = false, at p: Int) throws(JSONError) {
        // The storage grows to at most Int32.max tokens (`grow`), so the limit is met where it fills.
        if count == storage.capacity {
            guard count < Int(Int32.max) else { throw scan.fail("document too large: more than \(Int32.max) values", at: p) }
            storage.grow(keeping: count)
        }
        (storage.pointer + count).initialize(to: JSONTape.Token(kind: kind, escaped: escaped, start: start, end: stop, next: Int32(count + 1)))
        count += 1
    }

    /// A value from `p` (whitespace before it skipped); returns the position after it.
    mutating func parseValue(_ start: Int) throws(JSONError) -> Int {
        let p = scan.skipWhitespace(start)
        guard p < scan.end else { throw scan.fail("unexpected end of input: expected a value", at: p) }
        switch scan.base[p] {
        case UInt8(ascii: "{"): return try parseObject(p)
        case UInt8(ascii: "["): return try parseArray(p)
        case quote: return try stringValue(p)
        case UInt8(ascii: "t"): return try keyword("true", .true, at: p)
        case UInt8(ascii: "f"): return try keyword("false", .false, at: p)
        case UInt8(ascii: "n"): return try keyword("null", .null, at: p)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let next = try scan.parseNumber(p)
            try emit(.number, p, next, at: next)
            return next
        case UInt8(ascii: "N") where scan.startsWith("NaN", at: p): throw scan.fail("NaN is not JSON: send null or a number", at: p)
        case UInt8(ascii: "I") where scan.startsWith("Infinity", at: p): throw scan.fail("Infinity is not JSON: send null or a number", at: p)
        case UInt8(ascii: "'"): throw scan.fail("strings must use double quotes, not single quotes", at: p)
        case UInt8(ascii: "/"): throw scan.fail("comments are not JSON", at: p)
        default: throw scan.fail("unexpected \(scan.describeByte(at: p)): expected a value", at: p)
        }
    }

    /// A string value at `p` (its quote); returns the position after it.
    @inline(__always)
    mutating func stringValue(_ p: Int) throws(JSONError) -> Int {
        let string = try scan.parseString(p)
        try emit(.string, string.start, string.end, escaped: string.escaped, at: string.next)
        return string.next
    }

    mutating func keyword(_ word: StaticString, _ kind: JSONTape.Kind, at p: Int) throws(JSONError) -> Int {
        let count = word.utf8CodeUnitCount
        guard p + count <= scan.end else { throw scan.fail("invalid literal: expected \(word)", at: p) }
        for i in 0..<count where scan.base[p + i] != word.utf8Start[i] {
            throw scan.fail("invalid literal: expected \(word)", at: p)
        }
        try emit(kind, p, p + count, at: p + count)
        return p + count
    }

    mutating func enter(at p: Int) throws(JSONError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw scan.fail("nesting deeper than \(JSONParser.maximumDepth) levels", at: p) }
    }

    /// Sets a container's end, member count and the index past its last descendant once it is closed.
    @inline(__always)
    mutating func close(_ container: Int, end stop: Int, count members: Int, keys: UInt32 = 0) {
        let token = storage.pointer + container
        token.pointee.end = stop
        token.pointee.count = Int32(clamping: members)
        token.pointee.next = Int32(count)
        token.pointee.head = keys
    }

    mutating func parseObject(_ open: Int) throws(JSONError) -> Int {
        try enter(at: open)
        let container = count
        try emit(.object, open, open, at: open)
        var p = scan.skipWhitespace(open + 1)
        if p < scan.end && scan.base[p] == UInt8(ascii: "}") {
            depth -= 1
            close(container, end: p + 1, count: 0)
            return p + 1
        }
        var members = 0
        var keys: UInt32 = 0
        while true {
            p = scan.skipWhitespace(p)
            guard p < scan.end else { throw scan.fail("unexpected end of input inside an object: expected a key", at: p) }
            guard scan.base[p] == quote else { throw scan.unexpected(": expected a key in double quotes", at: p) }
            let key = try scan.parseString(p)
            try emit(.string, key.start, key.end, escaped: key.escaped, at: key.next)
            if key.escaped {
                storage.pointer[count - 1].count = -1
                keys = ~0
            } else {
                // Four bytes from the key's start are in the buffer unless it ends right there (then
                // the document is cut short and fails below): one load, masked to the key.
                let length = key.end - key.start
                let head: UInt32
                if key.start + 4 <= scan.end {
                    let word = UnsafeRawPointer(scan.base + key.start).loadUnaligned(as: UInt32.self)
                    head = length >= 4 ? word : word & ((1 << (8 * UInt32(length))) &- 1)
                } else {
                    head = JSONTape.head(scan.base + key.start, count: length)
                }
                storage.pointer[count - 1].head = head
                storage.pointer[count - 1].count = Int32(clamping: length)
                keys |= JSONTape.keyBit(count: length, head: head)
            }
            p = scan.skipWhitespace(key.next)
            guard p < scan.end, scan.base[p] == UInt8(ascii: ":") else {
                let name = JSONView(tokens: UnsafeBufferPointer(start: storage.pointer, count: count), bytes: scan.buffer, index: count - 1).decodedText
                throw scan.fail("unexpected \(scan.describeByte(at: p)): expected ':' after the key \(JSONWriter.compact(.string(name)))", at: p)
            }
            // Most values are strings: read here, without the call and the dispatch of `parseValue`.
            p = scan.skipWhitespace(p + 1)
            p = scan.skipWhitespace(try p < scan.end && scan.base[p] == quote ? stringValue(p) : parseValue(p))
            members += 1
            guard p < scan.end else { throw scan.fail("unexpected end of input inside an object: expected ',' or '}'", at: p) }
            let b = scan.base[p]
            if b == UInt8(ascii: ",") {
                let comma = p
                p = scan.skipWhitespace(p + 1)
                if p < scan.end && scan.base[p] == UInt8(ascii: "}") { throw scan.fail("trailing comma before '}'", at: comma) }
            } else if b == UInt8(ascii: "}") {
                depth -= 1
                close(container, end: p + 1, count: members, keys: keys)
                return p + 1
            } else {
                throw scan.unexpected(": expected ',' or '}' after a member", at: p)
            }
        }
    }

    mutating func parseArray(_ open: Int) throws(JSONError) -> Int {
        try enter(at: open)
        let container = count
        try emit(.array, open, open, at: open)
        var p = scan.skipWhitespace(open + 1)
        if p < scan.end && scan.base[p] == UInt8(ascii: "]") {
            depth -= 1
            close(container, end: p + 1, count: 0)
            return p + 1
        }
        var elements = 0
        while true {
            p = scan.skipWhitespace(try parseValue(p))
            elements += 1
            guard p < scan.end else { throw scan.fail("unexpected end of input inside an array: expected ',' or ']'", at: p) }
            let b = scan.base[p]
            if b == UInt8(ascii: ",") {
                let comma = p
                p = scan.skipWhitespace(p + 1)
                if p < scan.end && scan.base[p] == UInt8(ascii: "]") { throw scan.fail("trailing comma before ']'", at: comma) }
            } else if b == UInt8(ascii: "]") {
                depth -= 1
                close(container, end: p + 1, count: elements)
                return p + 1
            } else {
                throw scan.unexpected(": expected ',' or ']' after an element", at: p)
            }
        }
    }
}
