// Command-line inputs (files, directories, `-`) as byte documents for the decoder.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

public struct InputDocument: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// One payload, or one JSON array of payloads (a batch): `.json`, `.apns`, anything else.
        case whole
        /// One payload per line: `.jsonl`, `.ndjson`, or standard input that looks like it.
        case lines
    }

    /// The path as given (`dir/name` for a directory's files, `-` for standard input): error sources use it.
    public var name: String
    public var kind: Kind
    public var bytes: [UInt8]

    public init(name: String, kind: Kind, bytes: [UInt8]) {
        self.name = name
        self.kind = kind
        self.bytes = bytes
    }
}

public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

public enum InputFiles {
    /// The files a directory contributes (DECISIONS.md #11): payload files only, so a README beside the
    /// payloads is not reported as invalid JSON. Compared without case (`d.NDJSON` counts).
    public static let payloadExtensions: Set<String> = ["json", "jsonl", "ndjson", "apns"]

    /// Expands the inputs in order. A directory gives its regular payload files (`payloadExtensions`) in
    /// name order (byte order of the names), not recursing and skipping hidden files. A file named
    /// explicitly is read whatever its extension. The first input that cannot be read is the error.
    public static func expand(_ arguments: [String],
                              standardInput: () -> [UInt8] = { readAll(fd: STDIN_FILENO) ?? [] })
        throws(InputError) -> [InputDocument] {
        var documents: [InputDocument] = []
        for argument in arguments {
            if argument == "-" {
                let bytes = standardInput()
                documents.append(InputDocument(name: "-", kind: sniffKind(bytes), bytes: bytes))
                continue
            }
            var status = stat()
            guard stat(argument, &status) == 0 else { throw InputError(path: argument, reason: errnoText()) }
            if status.st_mode & S_IFMT == S_IFDIR {
                for name in try directoryEntries(argument) where isPayloadFile(name) {
                    let path = argument.hasSuffix("/") ? argument + name : argument + "/" + name
                    var entry = stat()
                    guard stat(path, &entry) == 0, entry.st_mode & S_IFMT == S_IFREG else { continue }
                    documents.append(try read(path))
                }
            } else {
                documents.append(try read(argument))
            }
        }
        return documents
    }

    static func isPayloadFile(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return payloadExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// `.jsonl` and `.ndjson` hold a payload per line; every other file is one document.
    public static func kind(ofPath path: String) -> InputDocument.Kind {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .whole }
        switch name[name.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson": return .lines
        default: return .whole
        }
    }

    /// Standard input has no name to go by. The rule: it is lines when its first JSON value ends on its
    /// first line and more non-blank text follows on a later line (`{…}\n{…}\n`); anything else — one
    /// value, a pretty-printed one over many lines, or text that is not JSON — is one document, so the
    /// decoder reports a parse error with its true line and column.
    public static func sniffKind(_ bytes: [UInt8]) -> InputDocument.Kind {
        var index = 0
        func skipWhitespace() {
            while index < bytes.count, ASCII.isWhitespace(bytes[index]) { index += 1 }
        }
        skipWhitespace()
        guard let end = endOfFirstValue(bytes, from: index) else { return .whole }
        if bytes[index..<end].contains(0x0A) { return .whole }
        var sawNewline = false
        index = end
        while index < bytes.count, ASCII.isWhitespace(bytes[index]) {
            if bytes[index] == 0x0A { sawNewline = true }
            index += 1
        }
        return index < bytes.count && sawNewline ? .lines : .whole
    }

    /// The index after an object or array that starts at `start` (strings and escapes respected), or nil.
    static func endOfFirstValue(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else {
            return nil
        }
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped { escaped = false }
                else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// One file as a document of the kind its name says.
    public static func read(_ path: String) throws(InputError) -> InputDocument {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(path: path, reason: errnoText()) }
        defer { close(fd) }
        guard let bytes = readAll(fd: fd) else { throw InputError(path: path, reason: errnoText()) }
        return InputDocument(name: path, kind: kind(ofPath: path), bytes: bytes)
    }

    /// All bytes up to end of file, or nil on a read error (errno says which).
    public static func readAll(fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var status = stat()
        if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG { bytes.reserveCapacity(Int(status.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                return nil
            }
        }
    }

    private static func directoryEntries(_ path: String) throws(InputError) -> [String] {
        guard let directory = opendir(path) else { throw InputError(path: path, reason: errnoText()) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name.first == UInt8(ascii: ".") { continue }   // hidden files, `.` and `..`
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func errnoText() -> String {
        switch errno {
        case ENOENT: "no such file or directory"
        case EACCES: "permission denied"
        case EISDIR: "is a directory"
        default: String(cString: strerror(errno))
        }
    }
}
