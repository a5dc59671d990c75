/// Byte-wise questions about a String, answered from its contiguous UTF-8. A loop over
/// `String.UTF8View` cost several times as much, and these run on every header, path and name of
/// every push (callgrind: about a fifth of an APNs request's routing).
public enum UTF8Text {
    /// Whether every UTF-8 byte of `text` passes `test`.
    @inlinable
    public static func allBytes(of text: String, _ test: (UInt8) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where !test(byte) { return false }
            return true
        }
    }

    /// Whether any UTF-8 byte of `text` passes `test`.
    @inlinable
    public static func anyByte(of text: String, _ test: (UInt8) -> Bool) -> Bool {
        !allBytes(of: text) { !test($0) }
    }

    public static func isASCII(_ text: String) -> Bool {
        allBytes(of: text) { $0 < 0x80 }
    }

    /// ASCII with no upper-case letter: `lowercased()` would give the same string.
    public static func isLowercaseASCII(_ text: String) -> Bool {
        allBytes(of: text) { $0 < 0x80 && !(0x41...0x5A).contains($0) }
    }

    /// Appends the string's UTF-8 to `bytes`, copied whole: `bytes += text.utf8` goes through the
    /// generic path byte by byte (about 170 instructions a call), and replies and log lines are
    /// written a piece at a time.
    @inlinable
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// How many leading bytes of `bytes` are printable ASCII (0x20–0x7E), counted eight at a time and
    /// stopping at the first word that holds anything else: where a byte-by-byte check can start.
    /// No high bit; no byte below 0x20 (subtracting 0x20 borrows into its high bit); no DEL (adding 1
    /// carries into it).
    public static func printableASCIIWords(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & high != 0 { break }
            let control = (word &- 0x2020_2020_2020_2020) & ~word & high
            let delete = (word &+ 0x0101_0101_0101_0101) & high
            if control | delete != 0 { break }
            index += 8
        }
        return index
    }

    /// `value` in decimal, as `String(value)` writes it, without making the string:
    /// reply headers, and the push numbers of the headless log, a line each.
    public static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value != 0 else { return bytes.append(0x30) }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[19 - count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            }
            // As a typed buffer: a slice of the raw one was appended byte by byte, through generics.
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + (20 - count),
                                                         count: count))
        }
    }

    /// `name.lowercased()`, without the copy when it is lowercase ASCII already (what HTTP/2 sends,
    /// what envelopes and routes keep). Other names take Unicode's case mapping.
    public static func lowercased(_ name: String) -> String {
        isLowercaseASCII(name) ? name : name.lowercased()
    }
}
