/// One parsed JSON document as a flat tape of tokens: byte offsets into the bytes parsed and no
/// per-value heap object. Parsing checks everything `JSONParser` promises (RFC 8259, strict, errors
/// with line:column); strings are decoded and numbers read only when someone asks, through `JSONView`.
/// A tape is reused document after document: `parse` keeps the storage of the one before.
///
/// Tokens are in document order. An object's token is followed by its members, each a key token
/// (kind `.string`) and then its value; an array's by its elements. Every token knows where the
/// value after it starts (`next`), so skipping a member never walks its insides.
public struct JSONTape: Sendable {
    public enum Kind: UInt8, Sendable {
        case null, `false`, `true`, number, string, array, object
    }

    public struct Token: Sendable, Equatable {
        public var kind: Kind
        /// Strings: the text holds an escape (`\n`, `\u00e9`), so it must be decoded, not copied.
        public var escaped: Bool
        /// Byte range: a string's text between its quotes, a number's lexeme, a literal's word, or a
        /// container from its bracket to past the closing one.
        public var start: Int
        public var end: Int
        /// Containers: their members or elements.
        public var count: Int32
        /// The index of the first token after this value (and all it holds).
        public var next: Int32
    }

    public private(set) var tokens: [Token] = []
    /// Offsets of the top-level array's elements or the top-level object's member keys (as
    /// `JSONParser.parseDocument` gives them).
    public private(set) var topOffsets: [Int] = []

    public init() {}

    /// Parses `bytes` into this tape (the previous document's tokens are dropped, their storage kept).
    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) {
        tokens.removeAll(keepingCapacity: true)
        topOffsets.removeAll(keepingCapacity: true)
        var builder = TapeBuilder(bytes, tokens: tokens, topOffsets: topOffsets)
        tokens = []  // the builder holds the storage: no copy on write
        topOffsets = []
        defer {
            tokens = builder.tokens
            topOffsets = builder.topOffsets
        }
        try builder.parseTopLevel()
    }

    /// The document's root, valid inside `body` only: views point into this tape and into `bytes`,
    /// which must be the bytes last parsed.
    public func withRoot<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONView) throws -> R) rethrows -> R {
        try tokens.withUnsafeBufferPointer { tokens in
            try body(JSONView(tokens: tokens, bytes: bytes, index: 0))
        }
    }
}

/// A value on a tape: lookups straight off the tokens, and text made into a `String` only when asked.
/// Valid only inside the `JSONTape.withRoot` call that gave it (it holds pointers, nothing retained).
public struct JSONView {
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

    public var isObject: Bool { kind == .object }
    public var isArray: Bool { kind == .array }

    /// The value of the last member named `key` (duplicates: the last wins, as `JSONObject`); nil when
    /// absent or when this is not an object.
    public subscript(key: String) -> JSONView? {
        guard kind == .object else { return nil }
        var key = key
        return key.withUTF8 { key in
            var found: Int?
            var i = index + 1
            let end = Int(token.next)
            while i < end {
                if at(i).textEquals(key) { found = i + 1 }
                i = Int(tokens[i + 1].next)
            }
            return found.map(at)
        }
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

    public var isNull: Bool { kind == .null }

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
            var k = 0
            while k < count {
                if bytes[t.start + k] != utf8[k] { return false }
                k += 1
            }
            return true
        }
        return decodeEscaped { $0.elementsEqual(utf8) }
    }

    /// As `JSON.int`: a number with no fraction, or a string holding one.
    public var int: Int? {
        switch kind {
        case .number, .string: return json.int
        default: return nil
        }
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

/// The scanner: the grammar and every error of `JSONParser`, emitting tokens instead of values.
private struct TapeBuilder {
    let buffer: UnsafeBufferPointer<UInt8>
    let end: Int
    var pos = 0
    var depth = 0
    var tokens: [JSONTape.Token]
    var topOffsets: [Int]

    init(_ buffer: UnsafeBufferPointer<UInt8>, tokens: [JSONTape.Token], topOffsets: [Int]) {
        self.buffer = buffer
        self.end = buffer.count
        self.tokens = tokens
        self.topOffsets = topOffsets
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONError {
        let at = min(offset ?? pos, end)
        let (line, column) = JSONParser.position(of: at, in: buffer)
        return JSONError(message: message, offset: at, line: line, column: column)
    }

    func describeByte(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let b = buffer[offset]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    /// A byte that cannot stand here. Comments and single quotes, what hand-written .apns files
    /// hold most, get the same words wherever they appear, not only where a value is expected.
    func unexpected(_ expectation: String) -> JSONError {
        if pos < end && buffer[pos] == UInt8(ascii: "/") { return fail("comments are not JSON") }
        if pos < end && buffer[pos] == UInt8(ascii: "'") { return fail("strings must use double quotes, not single quotes") }
        return fail("unexpected \(describeByte(at: pos))\(expectation)")
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < end {
            let b = buffer[pos]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { pos += 1 } else { return }
        }
    }

    mutating func parseTopLevel() throws(JSONError) {
        // A UTF-8 byte order mark is allowed before the document (editors write one into .apns files).
        if end >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { pos = 3 }
        skipWhitespace()
        guard pos < end else { throw fail("empty input: expected a JSON value") }
        try parseValue()
        skipWhitespace()
        if pos < end {
            throw unexpected(" after the JSON value (one value per document; use .jsonl for one per line)")
        }
    }

    @inline(__always)
    mutating func emit(_ kind: JSONTape.Kind, _ start: Int, _ end: Int, escaped: Bool = false) throws(JSONError) {
        let index = tokens.count
        guard index < Int(Int32.max) else { throw fail("document too large: more than \(Int32.max) values") }
        tokens.append(JSONTape.Token(kind: kind, escaped: escaped, start: start, end: end, count: 0, next: Int32(index + 1)))
    }

    mutating func parseValue() throws(JSONError) {
        skipWhitespace()
        guard pos < end else { throw fail("unexpected end of input: expected a value") }
        switch buffer[pos] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case quote:
            let (start, stop, escaped) = try parseString()
            try emit(.string, start, stop, escaped: escaped)
        case UInt8(ascii: "t"): let s = pos; try expectKeyword("true"); try emit(.true, s, pos)
        case UInt8(ascii: "f"): let s = pos; try expectKeyword("false"); try emit(.false, s, pos)
        case UInt8(ascii: "n"): let s = pos; try expectKeyword("null"); try emit(.null, s, pos)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let s = pos
            try parseNumber()
            try emit(.number, s, pos)
        case UInt8(ascii: "N") where startsWith("NaN"): throw fail("NaN is not JSON: send null or a number")
        case UInt8(ascii: "I") where startsWith("Infinity"): throw fail("Infinity is not JSON: send null or a number")
        case UInt8(ascii: "'"): throw fail("strings must use double quotes, not single quotes")
        case UInt8(ascii: "/"): throw fail("comments are not JSON")
        default: throw fail("unexpected \(describeByte(at: pos)): expected a value")
        }
    }

    func startsWith(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard pos + count <= end else { return false }
        for i in 0..<count where buffer[pos + i] != word.utf8Start[i] { return false }
        return true
    }

    mutating func expectKeyword(_ word: StaticString) throws(JSONError) {
        let start = pos
        let count = word.utf8CodeUnitCount
        let base = word.utf8Start
        guard pos + count <= end else { throw fail("invalid literal: expected \(word)", at: start) }
        for i in 0..<count where buffer[pos + i] != base[i] {
            throw fail("invalid literal: expected \(word)", at: start)
        }
        pos += count
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw fail("nesting deeper than \(JSONParser.maximumDepth) levels") }
    }

    /// Sets a container's member count and the index past its last descendant once it is closed.
    mutating func close(_ container: Int, count: Int) {
        tokens[container].end = pos
        tokens[container].count = Int32(clamping: count)
        tokens[container].next = Int32(tokens.count)
    }

    mutating func parseObject() throws(JSONError) {
        try enter()
        let container = tokens.count
        try emit(.object, pos, pos)
        pos += 1  // {
        skipWhitespace()
        if pos < end && buffer[pos] == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            close(container, count: 0)
            return
        }
        var count = 0
        while true {
            skipWhitespace()
            guard pos < end else { throw fail("unexpected end of input inside an object: expected a key") }
            guard buffer[pos] == quote else {
                throw unexpected(": expected a key in double quotes")
            }
            if depth == 1 { topOffsets.append(pos) }
            let (start, stop, escaped) = try parseString()
            try emit(.string, start, stop, escaped: escaped)
            skipWhitespace()
            guard pos < end, buffer[pos] == UInt8(ascii: ":") else {
                let key = tokens.withUnsafeBufferPointer { JSONView(tokens: $0, bytes: buffer, index: $0.count - 1).decodedText }
                throw fail("unexpected \(describeByte(at: pos)): expected ':' after the key \(JSONWriter.compact(.string(key)))")
            }
            pos += 1
            try parseValue()
            count += 1
            skipWhitespace()
            guard pos < end else { throw fail("unexpected end of input inside an object: expected ',' or '}'") }
            let b = buffer[pos]
            if b == UInt8(ascii: ",") {
                let comma = pos
                pos += 1
                skipWhitespace()
                if pos < end && buffer[pos] == UInt8(ascii: "}") {
                    throw fail("trailing comma before '}'", at: comma)
                }
            } else if b == UInt8(ascii: "}") {
                pos += 1
                depth -= 1
                close(container, count: count)
                return
            } else {
                throw unexpected(": expected ',' or '}' after a member")
            }
        }
    }

    mutating func parseArray() throws(JSONError) {
        try enter()
        let container = tokens.count
        try emit(.array, pos, pos)
        pos += 1  // [
        skipWhitespace()
        if pos < end && buffer[pos] == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            close(container, count: 0)
            return
        }
        var count = 0
        while true {
            skipWhitespace()
            if depth == 1 { topOffsets.append(pos) }
            try parseValue()
            count += 1
            skipWhitespace()
            guard pos < end else { throw fail("unexpected end of input inside an array: expected ',' or ']'") }
            let b = buffer[pos]
            if b == UInt8(ascii: ",") {
                let comma = pos
                pos += 1
                skipWhitespace()
                if pos < end && buffer[pos] == UInt8(ascii: "]") {
                    throw fail("trailing comma before ']'", at: comma)
                }
            } else if b == UInt8(ascii: "]") {
                pos += 1
                depth -= 1
                close(container, count: count)
                return
            } else {
                throw unexpected(": expected ',' or ']' after an element")
            }
        }
    }

    mutating func parseNumber() throws(JSONError) {
        let start = pos
        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if buffer[pos] == UInt8(ascii: "-") {
            pos += 1
            if pos < end && buffer[pos] == UInt8(ascii: "I") { throw fail("Infinity is not JSON: send null or a number", at: start) }
        }
        guard pos < end, isDigit(buffer[pos]) else { throw fail("invalid number: expected a digit", at: pos) }
        if buffer[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && isDigit(buffer[pos]) { throw fail("invalid number: leading zeros are not allowed", at: start) }
        } else {
            while pos < end && isDigit(buffer[pos]) { pos += 1 }
        }
        if pos < end && buffer[pos] == UInt8(ascii: ".") {
            pos += 1
            guard pos < end, isDigit(buffer[pos]) else { throw fail("invalid number: expected a digit after '.'") }
            while pos < end && isDigit(buffer[pos]) { pos += 1 }
        }
        if pos < end && (buffer[pos] == UInt8(ascii: "e") || buffer[pos] == UInt8(ascii: "E")) {
            pos += 1
            if pos < end && (buffer[pos] == UInt8(ascii: "+") || buffer[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard pos < end, isDigit(buffer[pos]) else { throw fail("invalid number: expected a digit in the exponent") }
            while pos < end && isDigit(buffer[pos]) { pos += 1 }
        }
    }

    /// A string's text range (between the quotes) and whether it holds escapes. Checked as the tree
    /// parser checked it: control characters and escapes in order as met, then UTF-8 once the string
    /// is closed (reported at its opening quote).
    mutating func parseString() throws(JSONError) -> (start: Int, end: Int, escaped: Bool) {
        let open = pos
        pos += 1
        let start = pos
        var high: UInt8 = 0    // any byte ≥ 0x80 seen
        var escaped = false
        while pos < end {
            // Eight bytes at a time: skip to the first quote, backslash or control character (most
            // of a string is none of these), noting only whether a byte ≥ 0x80 went by.
            while pos + 8 <= end {
                let word = UnsafeRawPointer(buffer.baseAddress! + pos).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { high = 0x80 }   // maybe past the stop: only checks more
                let look = Self.lookMask(word)
                if look != 0 {
                    pos += look.trailingZeroBitCount >> 3
                    break
                }
                pos += 8
            }
            guard pos < end else { break }
            let b = buffer[pos]
            if b == quote {
                let stop = pos
                pos += 1
                if high & 0x80 != 0 && !validUTF8(start, stop) { throw fail("invalid UTF-8 in a string", at: open) }
                return (start, stop, escaped)
            }
            if b == backslash {
                escaped = true
                try checkEscape()
                continue
            }
            if b < 0x20 { throw fail("unescaped control character U+\(hex4(UInt32(b))) in a string (write it as \\u\(hex4(UInt32(b))))") }
            high |= b
            pos += 1
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

    /// One escape at `pos` (the backslash), checked as the tree parser decoded it; `pos` moves past it.
    mutating func checkEscape() throws(JSONError) {
        let escapeAt = pos
        pos += 1
        guard pos < end else { return }  // the string is unterminated: reported by the caller
        let e = buffer[pos]
        pos += 1
        switch e {
        case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let scalar = try readHex4(escapeAt: escapeAt)
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard pos + 1 < end, buffer[pos] == backslash, buffer[pos + 1] == UInt8(ascii: "u") else {
                    throw fail("lone surrogate \\u\(hex4(scalar)): a high surrogate must be followed by a low one", at: escapeAt)
                }
                let lowAt = pos
                pos += 2
                let low = try readHex4(escapeAt: lowAt)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw fail("lone surrogate \\u\(hex4(scalar)): followed by \\u\(hex4(low)), not a low surrogate", at: escapeAt)
                }
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw fail("lone surrogate \\u\(hex4(scalar)): a low surrogate without a high one", at: escapeAt)
            }
        default:
            // The byte is shown as its number unless printable: a message never carries a raw control byte.
            let shown = e >= 0x21 && e < 0x7F ? "\\\(Character(Unicode.Scalar(e)))" : "\\ followed by byte 0x" + String(e, radix: 16, uppercase: true)
            throw fail("invalid escape \(shown) in a string", at: escapeAt)
        }
    }

    mutating func readHex4(escapeAt: Int) throws(JSONError) -> UInt32 {
        guard pos + 4 <= end else { throw fail("invalid \\u escape: expected 4 hex digits", at: escapeAt) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = buffer[pos]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape: expected 4 hex digits", at: escapeAt)
            }
            value = value << 4 | digit
            pos += 1
        }
        return value
    }

    /// Well-formed UTF-8 (Unicode Table 3-7, what `String(validating:)` accepts) in buffer[from..<to].
    /// Escapes are ASCII and decode to whole sequences, so checking the raw bytes between them is the
    /// same as checking the decoded text.
    func validUTF8(_ from: Int, _ to: Int) -> Bool {
        var i = from
        while i < to {
            let b = buffer[i]
            if b < 0x80 { i += 1; continue }
            @inline(__always) func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
                k < to && buffer[k] >= low && buffer[k] <= high
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
