/// A parse failure with where it happened. `line` and `column` are 1-based; the column counts
/// characters (UTF-8 sequences), not bytes, so it matches what an editor shows.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var line: Int
    public var column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Shade's own JSON parser: strict RFC 8259 over a byte buffer, no copy of the input and no
/// Foundation. Strict means trailing commas, comments, NaN/Infinity, unescaped control
/// characters, lone surrogates and invalid UTF-8 are errors, each with line and column.
public enum JSONParser {
    /// Deep enough for any real payload, shallow enough that recursion cannot exhaust the stack.
    public static let maximumDepth = 512

    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
        try parseDocument(bytes).value
    }

    public static func parse(_ text: String) throws(JSONError) -> JSON {
        try parse(Array(text.utf8))
    }

    /// Parses one document. It also returns the byte offset where each element of a top-level array
    /// starts (a batch's pushes report their own lines), or where each member key of a top-level
    /// object starts (a string table's entries keep their lines).
    public static func parseDocument(_ bytes: [UInt8]) throws(JSONError) -> (value: JSON, elementOffsets: [Int]) {
        let result: Result<(JSON, [Int]), JSONError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) in try parseDocument(buffer) }
        }
        return try result.get()
    }

    /// The same over bytes the caller holds, such as one line of a larger buffer (no copy).
    public static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> (value: JSON, elementOffsets: [Int]) {
        var scanner = Scanner(buffer)
        return try scanner.parseTopLevel()
    }

    /// 1-based line and column of a byte offset.
    public static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        // Editors do not show a byte order mark: first-line columns start after it.
        var i = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        let limit = min(offset, bytes.count)
        while i < limit {
            let b = bytes[i]
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (line, column)
    }

    public static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { position(of: offset, in: $0).line }
    }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

private struct Scanner {
    let buffer: UnsafeBufferPointer<UInt8>
    let end: Int
    var pos = 0
    var depth = 0
    /// Offsets of the top-level array's elements or the top-level object's member keys.
    var topOffsets: [Int] = []

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.end = buffer.count
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

    mutating func skipWhitespace() {
        while pos < end {
            let b = buffer[pos]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { pos += 1 } else { return }
        }
    }

    mutating func parseTopLevel() throws(JSONError) -> (JSON, [Int]) {
        // A UTF-8 byte order mark is allowed before the document (editors write one into .apns files).
        if end >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { pos = 3 }
        skipWhitespace()
        guard pos < end else { throw fail("empty input: expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        if pos < end {
            throw unexpected(" after the JSON value (one value per document; use .jsonl for one per line)")
        }
        return (value, topOffsets)
    }

    mutating func parseValue() throws(JSONError) -> JSON {
        skipWhitespace()
        guard pos < end else { throw fail("unexpected end of input: expected a value") }
        switch buffer[pos] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case quote: return .string(try parseString())
        case UInt8(ascii: "t"): try expectKeyword("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectKeyword("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectKeyword("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
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

    mutating func parseObject() throws(JSONError) -> JSON {
        try enter()
        pos += 1  // {
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if pos < end && buffer[pos] == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return .object(JSONObject(members))
        }
        // Payload objects have a handful of members: room for them at once, not grown from one.
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard pos < end else { throw fail("unexpected end of input inside an object: expected a key") }
            guard buffer[pos] == quote else {
                throw unexpected(": expected a key in double quotes")
            }
            if depth == 1 { topOffsets.append(pos) }
            let key = try parseString()
            skipWhitespace()
            guard pos < end, buffer[pos] == UInt8(ascii: ":") else {
                throw fail("unexpected \(describeByte(at: pos)): expected ':' after the key \(JSONWriter.compact(.string(key)))")
            }
            pos += 1
            let value = try parseValue()
            members.append(JSONObject.Member(key: key, value: value))
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
                return .object(JSONObject(members))
            } else {
                throw unexpected(": expected ',' or '}' after a member")
            }
        }
    }

    mutating func parseArray() throws(JSONError) -> JSON {
        try enter()
        pos += 1  // [
        var elements: [JSON] = []
        skipWhitespace()
        if pos < end && buffer[pos] == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if depth == 1 { topOffsets.append(pos) }
            elements.append(try parseValue())
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
                return .array(elements)
            } else {
                throw unexpected(": expected ',' or ']' after an element")
            }
        }
    }

    mutating func parseNumber() throws(JSONError) -> String {
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
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<pos]), as: UTF8.self)
    }

    mutating func parseString() throws(JSONError) -> String {
        let open = pos
        pos += 1
        let start = pos
        while pos < end {
            let b = buffer[pos]
            if b == quote {
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<pos])
                pos += 1
                return try makeString(slice, openedAt: open)
            }
            if b == backslash { return try parseEscapedString(from: start, openedAt: open) }
            if b < 0x20 { throw fail("unescaped control character U+\(hex4(UInt32(b))) in a string (write it as \\u\(hex4(UInt32(b))))") }
            pos += 1
        }
        throw fail("unterminated string", at: open)
    }

    func makeString(_ bytes: UnsafeBufferPointer<UInt8>, openedAt open: Int) throws(JSONError) -> String {
        // ASCII is the common case and needs no validation.
        var ascii = true
        for b in bytes where b >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw fail("invalid UTF-8 in a string", at: open)
        }
        return s
    }

    mutating func parseEscapedString(from start: Int, openedAt open: Int) throws(JSONError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pos - start + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<pos]))
        while pos < end {
            let b = buffer[pos]
            if b == quote {
                pos += 1
                return try out.withUnsafeBufferPointer { (p) throws(JSONError) -> String in try makeString(p, openedAt: open) }
            }
            if b < 0x20 { throw fail("unescaped control character U+\(hex4(UInt32(b))) in a string (write it as \\u\(hex4(UInt32(b))))") }
            if b != backslash {
                out.append(b)
                pos += 1
                continue
            }
            let escapeAt = pos
            pos += 1
            guard pos < end else { break }
            let e = buffer[pos]
            pos += 1
            switch e {
            case quote: out.append(quote)
            case backslash: out.append(backslash)
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4(escapeAt: escapeAt)
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
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    throw fail("lone surrogate \\u\(hex4(scalar)): a low surrogate without a high one", at: escapeAt)
                }
                appendUTF8(scalar, to: &out)
            default:
                // The byte is shown as its number unless printable: a message never carries a raw control byte.
                let shown = e >= 0x21 && e < 0x7F ? "\\\(Character(Unicode.Scalar(e)))" : "\\ followed by byte 0x" + String(e, radix: 16, uppercase: true)
                throw fail("invalid escape \(shown) in a string", at: escapeAt)
            }
        }
        throw fail("unterminated string", at: open)
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
}

@inline(__always)
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
        out.append(UInt8(scalar))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | (scalar >> 6)))
        out.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | (scalar >> 12)))
        out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
        out.append(UInt8(0xF0 | (scalar >> 18)))
        out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
}

func hex4(_ value: UInt32) -> String {
    let s = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
