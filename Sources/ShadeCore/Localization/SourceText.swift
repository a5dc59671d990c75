/// Bytes of a string table → Unicode scalars. UTF-8 (with or without a BOM) and
/// UTF-16 with a BOM, which is what Xcode and Android Studio write (L4).
enum SourceDecoding {
    static func scalars(of bytes: [UInt8], file: String) throws(StringTableError) -> [Unicode.Scalar] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return try utf8(bytes.dropFirst(3), file: file)
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return try utf16(bytes.dropFirst(2), bigEndian: false, file: file)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return try utf16(bytes.dropFirst(2), bigEndian: true, file: file)
        }
        // A NUL in either of the first two bytes is UTF-16 that lost its BOM: say so
        // rather than report "invalid UTF-8" or a garbled first key.
        if bytes.count >= 2, (bytes[0] == 0) != (bytes[1] == 0) {
            throw StringTableError(file: file, line: nil,
                                   problem: "looks like UTF-16 without a byte-order mark; save it as UTF-8, or as UTF-16 with a BOM")
        }
        return try utf8(bytes[...], file: file)
    }

    private static func utf8(_ bytes: ArraySlice<UInt8>, file: String) throws(StringTableError) -> [Unicode.Scalar] {
        try decode(bytes, as: UTF8(), file: file,
                   problem: "not valid UTF-8; save the file as UTF-8, or as UTF-16 with a BOM")
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, file: String) throws(StringTableError) -> [Unicode.Scalar] {
        guard bytes.count % 2 == 0 else {
            throw StringTableError(file: file, line: nil,
                                   problem: "UTF-16 text with an odd number of bytes (\(bytes.count + 2)); the file is cut short")
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return try decode(units, as: UTF16(), file: file,
                          problem: "a lone UTF-16 surrogate; the file is damaged or not UTF-16 \(bigEndian ? "BE" : "LE")")
    }

    /// Decodes code units with `codec`, counting lines so a bad sequence is reported where it stands.
    private static func decode<Codec: UnicodeCodec>(_ units: some Collection<Codec.CodeUnit>, as codec: Codec, file: String,
                                                    problem: String) throws(StringTableError) -> [Unicode.Scalar] {
        var codec = codec
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(units.count)
        var iterator = units.makeIterator()
        var line = 1
        while true {
            switch codec.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                scalars.append(scalar)
            case .emptyInput:
                return scalars
            case .error:
                throw StringTableError(file: file, line: line, problem: problem)
            }
        }
    }
}

/// A cursor over decoded text that knows its 1-based line (`\n`, `\r\n` and a lone `\r` each end one).
struct ScalarReader {
    private let scalars: [Unicode.Scalar]
    private(set) var position = 0
    private(set) var line = 1

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var isAtEnd: Bool { position >= scalars.count }

    /// The scalar `offset` places ahead, or nil past the end.
    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let index = position + offset
        return index < scalars.count ? scalars[index] : nil
    }

    func starts(with text: String) -> Bool {
        var index = position
        for scalar in text.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    /// Consumes one scalar and returns it.
    @discardableResult
    mutating func next() -> Unicode.Scalar? {
        guard position < scalars.count else { return nil }
        let scalar = scalars[position]
        position += 1
        if scalar == "\n" || (scalar == "\r" && peek() != "\n") {
            line += 1
        }
        return scalar
    }

    mutating func skip(_ count: Int) {
        for _ in 0..<count { next() }
    }

    mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
        while let scalar = peek(), predicate(scalar) { next() }
    }
}

extension Unicode.Scalar {
    /// Hex digit value, or nil.
    var hexValue: UInt32? {
        switch self {
        case "0"..."9": return value - 0x30
        case "a"..."f": return value - 0x61 + 10
        case "A"..."F": return value - 0x41 + 10
        default: return nil
        }
    }

    /// How to name this scalar in an error message without writing it raw
    /// (it may be a control character from a hostile file).
    var quotedForMessage: String {
        codeQuoted(String(self))
    }
}

/// `text` in backticks for a diagnostic, with control characters written as
/// escapes: keys and values come from files and payloads, and a message must
/// never carry a terminal escape sequence.
func codeQuoted(_ text: String) -> String {
    var out = "`"
    for scalar in text.unicodeScalars {
        if SafeText.isControl(scalar.value) {
            out += scalar.escaped(asASCII: true)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out + "`"
}
