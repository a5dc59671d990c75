/// Writes JSON text. Compact output is what a push service receives (sizes in I9/V1 are
/// measured on it); pretty output is for people (the inspector, `shade state`).
public struct JSONWriter {
    public var bytes: [UInt8] = []
    let pretty: Bool
    var indent = 0
    /// When set, `bytes` is handed to it and emptied whenever it passes `sinkChunk`, so a large
    /// document (the whole state) is written in pieces instead of held whole.
    var sink: ((UnsafeBufferPointer<UInt8>) -> Void)?
    static let sinkChunk = 1 << 16

    public init(pretty: Bool = false) { self.pretty = pretty }

    /// The pretty text of `value` and a newline, handed to `sink` in pieces of about 64 KiB, in order.
    public static func pretty(_ value: JSON, lineTo sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var writer = JSONWriter(pretty: true)
        writer.sink = sink
        writer.write(value)
        writer.bytes.append(0x0A)
        writer.bytes.withUnsafeBufferPointer(sink)
    }

    @inline(__always)
    mutating func drainIfFull() {
        guard bytes.count >= Self.sinkChunk, let sink else { return }
        bytes.withUnsafeBufferPointer(sink)
        bytes.removeAll(keepingCapacity: true)
    }

    public static func compact(_ value: JSON) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    public static func compactBytes(_ value: JSON) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    public static func pretty(_ value: JSON) -> String {
        var writer = JSONWriter(pretty: true)
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The size of the payload as a push service receives it (I9, V1), without building it: compact
    /// text with the escapes every sender's serializer writes (a quote, a backslash, C0 controls).
    /// Shade's own output also escapes DEL and C1 (no terminal may act on them), but a sender sends
    /// those raw, and APNs counts the bytes it was sent — so they count as themselves here.
    public static func compactSize(_ value: JSON) -> Int {
        switch value {
        case .null: return 4
        case .bool(let b): return b ? 4 : 5
        case .number(let n): return n.utf8.count
        case .string(let s): return wireSize(s)
        case .array(let a): return 2 + max(0, a.count - 1) + a.reduce(0) { $0 + compactSize($1) }
        case .object(let o):
            return 2 + max(0, o.members.count - 1)
                + o.members.reduce(0) { $0 + wireSize($1.key) + 1 + compactSize($1.value) }
        }
    }

    static func wireSize(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { wireSize(utf8: $0) }
    }

    /// A string's size once quoted and escaped as a sender writes it (see `compactSize`).
    static func wireSize(utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var size = 2 + utf8.count
        for b in utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x0C, 0x0A, 0x0D, 0x09: size += 1  // two characters, such as \n
            default: size += 5  // six: \u00XX
            }
        }
        return size
    }

    /// The bytes written as an escape: a quote, a backslash, and every control character
    /// `SafeText.isControl` names (C0, DEL here; C1 through `isC1SecondByte`), so no terminal that
    /// shows the JSON acts on one.
    @inline(__always)
    static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x80 && (SafeText.isControl(UInt32(b)) || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\"))
    }

    /// A mask whose lowest set bit is in the first byte of `word` (little-endian) that may need an
    /// escape: below 0x20, or what `stringMask` flags (a quote, a backslash, DEL, a C1 lead), else 0.
    /// The has-less-than and has-zero-byte tricks may flag bytes after the first true one, never before.
    @inline(__always)
    static func attentionMask(_ word: UInt64) -> UInt64 {
        let control = (word &- Self.ones &* 0x20) & ~word & 0x8080_8080_8080_8080
        return control | stringMask(word)
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The high bit of each byte of `word` that is `c` (the has-zero-byte trick: exact for the first).
    @inline(__always)
    private static func flags(_ word: UInt64, equalTo c: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(c))
        return (x &- ones) & ~x & 0x8080_8080_8080_8080
    }

    /// C1 controls are U+0080–U+009F: in UTF-8, 0xC2 followed by one of these.
    @inline(__always)
    static func isC1SecondByte(_ b: UInt8) -> Bool { b >= 0x80 && b <= 0x9F }

    public mutating func write(_ value: JSON) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let n): bytes.append(contentsOf: n.utf8)
        case .string(let s): writeString(s)
        case .array(let a):
            if a.isEmpty { append("[]"); return }
            open(UInt8(ascii: "["))
            for (i, element) in a.enumerated() {
                startItem(first: i == 0)
                write(element)
            }
            close(UInt8(ascii: "]"))
        case .object(let o):
            if o.isEmpty { append("{}"); return }
            open(UInt8(ascii: "{"))
            for (i, member) in o.members.enumerated() {
                startItem(first: i == 0)
                writeString(member.key)
                afterKey()
                write(member.value)
            }
            close(UInt8(ascii: "}"))
        }
    }

    // How a container is laid out, for a tree and a tape alike: compact, or two spaces an indent.

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        indent += 1
    }

    private mutating func startItem(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        drainIfFull()
        newline()
    }

    private mutating func afterKey() {
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
    }

    private mutating func close(_ bracket: UInt8) {
        indent -= 1
        newline()
        bytes.append(bracket)
    }

    /// A value read on a tape, written byte for byte as `write(view.json)` writes it, without
    /// building the tree: a recording writes every push's payload (issue 13: the tree and its
    /// re-serialisation were most of what `--record` cost a push).
    public mutating func write(_ view: JSONView) {
        // Compact text of a container whose strings all go out as they came is its own bytes without
        // the whitespace between tokens: copied in runs. Anything else is written token by token.
        if !pretty && (view.kind == .object || view.kind == .array) && Self.appendCompacted(view.raw, to: &bytes) { return }
        writeTokens(view)
    }

    private mutating func writeTokens(_ view: JSONView) {
        switch view.kind {
        case .null: append("null")
        case .true: append("true")
        case .false: append("false")
        case .number: bytes.append(contentsOf: view.raw)
        case .string: view.withText { writeString(utf8: $0) }
        case .array:
            if view.count == 0 { append("[]"); return }
            open(UInt8(ascii: "["))
            var first = true
            for element in view.elements {
                startItem(first: first)
                first = false
                writeTokens(element)
            }
            close(UInt8(ascii: "]"))
        case .object:
            if view.count == 0 { append("{}"); return }
            open(UInt8(ascii: "{"))
            var first = true
            for (key, value) in view.members {
                startItem(first: first)
                first = false
                key.withText { writeString(utf8: $0) }
                afterKey()
                writeTokens(value)
            }
            close(UInt8(ascii: "}"))
        }
    }

    /// Appends `text`, one valid JSON container, without the whitespace outside its strings, when
    /// every string in it is written as it stands (no escape, no DEL, no C1 control: `writeString`
    /// would copy it whole): true. Otherwise leaves `bytes` as it was and returns false.
    /// The text is compacted straight into new storage sized once (what is written so far, then at
    /// most `text.count` bytes, and a little room): appending run by run cost more than the scan.
    static func appendCompacted(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        guard let base = text.baseAddress else { return false }
        let written = bytes.count
        var compacted = true
        // A little room past the text, for what the caller closes it with (an envelope's `}`).
        let result = [UInt8](unsafeUninitializedCapacity: written + text.count + 16) { out, count in
            let o = out.baseAddress!
            bytes.withUnsafeBufferPointer { if written > 0 { o.initialize(from: $0.baseAddress!, count: written) } }
            var n = written
            let end = text.count
            var i = 0
            while i < end {
                let b = base[i]
                if b == UInt8(ascii: "\"") {
                    // A string, to its closing quote (eight bytes at a time), copied whole.
                    let open = i
                    i += 1
                    while true {
                        i = firstFlagged(base, from: i, end: end, stringMask)
                        // Past the end: not a whole string (never so on a tape).
                        guard i < end else { compacted = false; count = written; return }
                        let c = base[i]
                        if c == UInt8(ascii: "\"") { break }
                        if c == UInt8(ascii: "\\") || c == 0x7F || (c == 0xC2 && i + 1 < end && isC1SecondByte(base[i + 1])) {
                            compacted = false
                            count = written
                            return
                        }
                        i += 1
                    }
                    i += 1
                    (o + n).initialize(from: base + open, count: i - open)
                    n += i - open
                } else {
                    // Outside a string every byte at or below 0x20 is whitespace.
                    if b > 0x20 {
                        (o + n).initialize(to: b)
                        n += 1
                    }
                    i += 1
                }
            }
            count = n
        }
        guard compacted else { return false }
        bytes = result
        return true
    }

    /// From `i`, the first byte that `mask` flags in a word read whole (eight bytes before `end`), or
    /// where the whole words end: the caller looks at the bytes left one by one. The masks flag
    /// their first byte exactly and may flag later ones wrongly, so the lowest flag is the one.
    @inline(__always)
    static func firstFlagged(_ base: UnsafePointer<UInt8>, from i: Int, end: Int, _ mask: (UInt64) -> UInt64) -> Int {
        var i = i
        while i + 8 <= end {
            let flags = mask(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if flags != 0 { return i + flags.trailingZeroBitCount >> 3 }
            i += 8
        }
        return i
    }

    /// The first byte of `word` inside a raw string that may end the copy: a quote, a backslash,
    /// DEL or a C1 lead (no control below 0x20 stands raw in a valid string). As `attentionMask`.
    @inline(__always)
    private static func stringMask(_ word: UInt64) -> UInt64 {
        flags(word, equalTo: UInt8(ascii: "\"")) | flags(word, equalTo: UInt8(ascii: "\\")) | flags(word, equalTo: 0x7F)
            | flags(word, equalTo: 0xC2)
    }

    mutating func newline() {
        guard pretty else { return }
        bytes.append(0x0A)
        // The indentation is copied from a run of spaces (a repeated element is appended byte by byte).
        var left = 2 * indent
        while left > 0 {
            let n = min(left, Self.spaces.count)
            Self.spaces.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<n])) }
            left -= n
        }
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    /// Bytes that are JSON text as they stand (punctuation, a key written out by hand), appended as
    /// they are.
    public mutating func append(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    public mutating func writeString(_ s: String) {
        var s = s
        s.withUTF8 { writeString(utf8: $0) }
    }

    /// A string given as its UTF-8 (a string read on a tape, decoded). Copies the runs that need no
    /// escape whole: most strings are one run, found eight bytes at a time.
    mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var run = 0
        var i = 0
        let count = utf8.count
        while i < count {
            // Skip the words that hold no byte `needsEscape` or a C1 lead could answer for.
            if count >= 8 { i = Self.firstFlagged(utf8.baseAddress!, from: i, end: count, Self.attentionMask) }
            guard i < count else { break }
            let b = utf8[i]
            if Self.needsEscape(b) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                writeEscape(b)
                i += 1
                run = i
            } else if b == 0xC2 && i + 1 < utf8.count && Self.isC1SecondByte(utf8[i + 1]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                writeEscape(utf8[i + 1])   // the scalar's value is its second byte
                i += 2
                run = i
            } else {
                i += 1
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func writeEscape(_ b: UInt8) {
        switch b {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            append("\\u")
            bytes.append(contentsOf: hex4(UInt32(b)).lowercased().utf8)
        }
    }
}
