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

    /// A path built from `root` and steps below it: what `member` and `element` make one at a time.
    /// Lint walks documents with steps and writes a path only for a finding, so a long key deep
    /// in a document costs its length once, not once per level below it.
    static func path(_ root: String, _ steps: [JSONPathStep]) -> String {
        var path = root
        for step in steps {
            switch step {
            case .key(let key): path = member(path, key)
            case .index(let index): path = element(path, index)
            }
        }
        return path
    }

    /// The steps of a path `member` and `element` wrote (`$.a["x.y"][2]` → key a, key x.y, index 2);
    /// nil for what is not such a path (`header apns-topic`, `:path`).
    static func steps(_ path: String) -> [JSONPathStep]? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "$") else { return nil }
        var steps: [JSONPathStep] = []
        var i = 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "."):
                var end = i + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: ".") && bytes[end] != UInt8(ascii: "[") { end += 1 }
                steps.append(.key(String(decoding: bytes[(i + 1)..<end], as: UTF8.self)))
                i = end
            case UInt8(ascii: "[") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\""):
                // A key as a JSON string: find its closing quote (not an escaped one), then decode it.
                var end = i + 2
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "]"),
                      case .string(let key)? = try? JSONParser.parse(Array(bytes[(i + 1)...end])) else { return nil }
                steps.append(.key(key))
                i = end + 2
            case UInt8(ascii: "["):
                var end = i + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "]") { end += 1 }
                guard end < bytes.count, let index = Checked.integer(digits: bytes[(i + 1)..<end]) else { return nil }
                steps.append(.index(index))
                i = end + 1
            default:
                return nil
            }
        }
        return steps
    }
}

/// One step down a JSON document: into an object's member or an array's element. Keys compare and
/// hash by their bytes, as `JSONObject` matches them (canonical equivalence would normalise every
/// key each time it is hashed).
enum JSONPathStep: Hashable {
    case key(String)
    case index(Int)

    static func == (a: JSONPathStep, b: JSONPathStep) -> Bool {
        switch (a, b) {
        case (.key(let x), .key(let y)): JSONObject.sameKey(x, y)
        case (.index(let x), .index(let y)): x == y
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .key(var key):
            hasher.combine(0 as UInt8)
            key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .index(let index):
            hasher.combine(1 as UInt8)
            hasher.combine(index)
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) }
}

/// The line of each value of a document that parsed: where its key (or, in an array, the value)
/// starts. Lets a diagnostic point at `file:12` rather than at the push's first line. Duplicate
/// keys keep every line, in document order.
///
/// The document is a tree of nodes, each found from its parent by one step, so building the index
/// hashes each key once: a path string per value would cost the length of every key above it
/// (an attack showed it: a 200 KB key above a value nested 511 deep made `lint` take 20 s).
struct LineIndex {
    private struct Edge: Hashable {
        var parent: Int
        var step: JSONPathStep
    }

    /// Node 0 is the document itself (it has no line of its own).
    private var lines: [[Int]] = [[]]
    private var children: [Edge: Int] = [:]

    init(_ bytes: [UInt8], firstLine: Int = 1) {
        var walker = Walker(bytes: bytes, line: firstLine)
        walker.skipBOM()
        walker.value(node: 0, into: &self)
    }

    /// The node one step below `parent`, made on first use; `line` is where this occurrence starts.
    fileprivate mutating func child(of parent: Int, _ step: JSONPathStep, line: Int) -> Int {
        let edge = Edge(parent: parent, step: step)
        if let node = children[edge] {
            lines[node].append(line)
            return node
        }
        lines.append([line])
        children[edge] = lines.count - 1
        return lines.count - 1
    }

    /// The nodes along `path` from the top, as far as the document has them.
    private func nodes(along path: String) -> [Int] {
        var found: [Int] = []
        var node = 0
        for step in JSONPath.steps(path) ?? [] {
            guard let next = children[Edge(parent: node, step: step)] else { break }
            found.append(next)
            node = next
        }
        return found
    }

    /// The line of a path, or of its nearest ancestor the document names.
    func line(of path: String) -> Int? {
        nodes(along: path).last.flatMap { lines[$0].last }
    }

    /// The line of the `n`th occurrence of a (duplicate) key.
    func line(of path: String, occurrence: Int) -> Int? {
        let along = nodes(along: path)
        guard let node = along.last, along.count == (JSONPath.steps(path)?.count ?? -1),
              lines[node].indices.contains(occurrence) else { return line(of: path) }
        return lines[node][occurrence]
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

        mutating func value(node: Int, into index: inout LineIndex) {
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
                    value(node: index.child(of: node, .key(key), line: keyLine), into: &index)
                }
            case UInt8(ascii: "["):
                pos += 1
                var i = 0
                while true {
                    skipWhitespace()
                    guard pos < bytes.count else { return }
                    if bytes[pos] == UInt8(ascii: "]") { pos += 1; return }
                    if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                    value(node: index.child(of: node, .index(i), line: line), into: &index)
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
