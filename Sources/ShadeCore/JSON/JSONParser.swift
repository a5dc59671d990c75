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
/// Foundation. The scanning is `JSONTape`'s (one grammar); these entry points build a `JSON` tree. Strict means trailing commas, comments, NaN/Infinity, unescaped control
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

    /// The same over bytes the caller holds, such as one line of a larger buffer (no copy). The grammar
    /// is `JSONTape`'s; the tree is built from the tape.
    public static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> (value: JSON, elementOffsets: [Int]) {
        var tape = JSONTape()
        return try parseDocument(buffer, on: &tape)
    }

    /// The same on a tape the caller reuses from document to document (its storage is kept).
    public static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>, on tape: inout JSONTape) throws(JSONError)
        -> (value: JSON, elementOffsets: [Int]) {
        try tape.parse(buffer)
        return (tape.withRoot(buffer) { $0.json }, tape.topOffsets)
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
