/// JSON paths as diagnostics write them: `$.message.data.count`, `$.aps.content-available`,
/// `$["Simulator Target Bundle"]`, `$.data["google.sent_time"]`, `$[2].to`.
public enum JSONPath {
    /// A key that reads unambiguously after a dot: a letter or `_` first, then letters, digits, `_`, `-`.
    static func isPlain(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCIILetter || ($0.value >= 0x30 && $0.value <= 0x39) || $0 == "_" || $0 == "-" }
    }

    public static func member(_ path: String, _ key: String) -> String {
        isPlain(key) ? "\(path).\(key)" : "\(path)[\(JSONWriter.compact(.string(key)))]"
    }

    public static func element(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }

    /// Replaces the leading `$` of a path read relative to a payload with where that payload
    /// stands in the file (`$.payload` in an envelope, `$[3]` in a batch).
    static func rebased(_ path: String, onto root: String) -> String {
        guard root != "$", path.hasPrefix("$") else { return path }
        return root + path.dropFirst()
    }

    /// The path one level up (`$.a.b` → `$.a`, `$.a["x.y"]` → `$.a`, `$[2]` → `$`), nil at `$`.
    static func parent(_ path: String) -> String? {
        guard path != "$", let last = path.last else { return nil }
        if last == "]" {
            // Skip back over a quoted key (which may itself hold `[`) or an index.
            var index = path.index(before: path.endIndex)
            var inString = false
            while index > path.startIndex {
                index = path.index(before: index)
                let c = path[index]
                if c == "\"" {
                    var backslashes = 0
                    var j = index
                    while j > path.startIndex, path[path.index(before: j)] == "\\" { backslashes += 1; j = path.index(before: j) }
                    if backslashes % 2 == 0 { inString.toggle() }
                } else if c == "[" && !inString {
                    return String(path[..<index])
                }
            }
            return nil
        }
        guard let dot = path.lastIndex(of: ".") else { return nil }
        return String(path[..<dot])
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) }
}

/// The line of each value of a document that parsed: where its key (or, in an array, the value)
/// starts. Lets a diagnostic point at `file:12` rather than at the push's first line. Duplicate
/// keys keep every line, in document order.
struct LineIndex {
    private(set) var lines: [String: [Int]] = [:]

    init(_ bytes: [UInt8], root: String = "$", firstLine: Int = 1) {
        var walker = Walker(bytes: bytes, line: firstLine)
        walker.skipBOM()
        walker.value(path: root, line: &lines)
    }

    /// The line of a path, or of its nearest ancestor the document names.
    func line(of path: String) -> Int? {
        var current: String? = path
        while let p = current {
            if let found = lines[p] { return found.last }
            current = JSONPath.parent(p)
        }
        return nil
    }

    /// The line of the `n`th occurrence of a (duplicate) key.
    func line(of path: String, occurrence: Int) -> Int? {
        guard let found = lines[path], found.indices.contains(occurrence) else { return line(of: path) }
        return found[occurrence]
    }

    /// A forgiving walk: it only runs over bytes `JSONParser` accepted, so it need not report errors.
    private struct Walker {
        let bytes: [UInt8]
        var pos = 0
        var line: Int

        init(bytes: [UInt8], line: Int) {
            self.bytes = bytes
            self.line = line
        }

        mutating func skipBOM() {
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { pos = 3 }
        }

        mutating func skipWhitespace() {
            while pos < bytes.count {
                switch bytes[pos] {
                case 0x0A: line += 1; pos += 1
                case 0x20, 0x09, 0x0D: pos += 1
                default: return
                }
            }
        }

        mutating func value(path: String, line index: inout [String: [Int]]) {
            skipWhitespace()
            guard pos < bytes.count else { return }
            switch bytes[pos] {
            case UInt8(ascii: "{"):
                pos += 1
                while true {
                    skipWhitespace()
                    guard pos < bytes.count else { return }
                    if bytes[pos] == UInt8(ascii: "}") { pos += 1; return }
                    if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                    let keyLine = line
                    let key = string()
                    skipWhitespace()
                    if pos < bytes.count && bytes[pos] == UInt8(ascii: ":") { pos += 1 }
                    let memberPath = JSONPath.member(path, key)
                    index[memberPath, default: []].append(keyLine)
                    value(path: memberPath, line: &index)
                }
            case UInt8(ascii: "["):
                pos += 1
                var i = 0
                while true {
                    skipWhitespace()
                    guard pos < bytes.count else { return }
                    if bytes[pos] == UInt8(ascii: "]") { pos += 1; return }
                    if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                    let elementPath = JSONPath.element(path, i)
                    index[elementPath, default: []].append(line)
                    value(path: elementPath, line: &index)
                    i += 1
                }
            case UInt8(ascii: "\""):
                _ = string()
            default:
                // A number or a literal: no newline can be inside.
                while pos < bytes.count {
                    let b = bytes[pos]
                    if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || b <= 0x20 { return }
                    pos += 1
                }
            }
        }

        /// A string's text, decoded the way the parser decodes it (keys must match its paths).
        mutating func string() -> String {
            let start = pos
            pos += 1
            var escaped = false
            while pos < bytes.count {
                let b = bytes[pos]
                pos += 1
                if b == UInt8(ascii: "\\") { escaped = true; pos += 1; continue }
                if b == UInt8(ascii: "\"") { break }
            }
            let raw = Array(bytes[start..<pos])
            if !escaped { return String(decoding: raw.dropFirst().dropLast(), as: UTF8.self) }
            return (try? JSONParser.parse(raw))?.string ?? ""
        }
    }
}
