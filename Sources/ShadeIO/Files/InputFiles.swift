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
    /// What to do about it, where there is something to say (a path that is not there).
    public var fix: String?

    public init(path: String, reason: String, fix: String? = nil) {
        self.path = path
        self.reason = reason
        self.fix = fix
    }

    /// The error the last system call left in `errno`, for `path`.
    static func system(_ path: String, doing action: String? = nil) -> InputError {
        let code = errno
        let reason = switch code {
        case ENOENT: "no such file or directory"
        case EACCES: "permission denied"
        case EISDIR: "is a directory"
        default: String(cString: strerror(code))
        }
        let fix: String? = switch code {
        case ENOENT: "check the path (a directory reads its payload files, - reads standard input)"
        case EACCES: "check the file's permissions"
        default: nil
        }
        return InputError(path: path, reason: action.map { "\($0): \(reason)" } ?? reason, fix: fix)
    }

    public var description: String { "cannot read \(path): \(reason)" }

    /// The one line a command prints: the problem, then the fix (DESIGN: usage errors name both).
    public var usageMessage: String { "\(path): \(reason)" + (fix.map { " — \($0)" } ?? "") }
}

/// An input before it is read: a file (its kind from its name) or standard input (its kind sniffed
/// from its first bytes). `state`, `snapshot` and `replay` stream these; see `InputFiles.read(_:…)`.
public struct InputSource: Equatable, Sendable {
    public enum Origin: Equatable, Sendable {
        case path(String)
        case standardInput
    }

    /// As `InputDocument.name`: the path as given, `dir/name` for a directory's files, `-`.
    public var name: String
    public var origin: Origin

    public init(name: String, origin: Origin) {
        self.name = name
        self.origin = origin
    }
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
            for source in try sources([argument]) {
                switch source.origin {
                case .standardInput:
                    let bytes = standardInput()
                    documents.append(InputDocument(name: "-", kind: sniffKind(bytes), bytes: bytes))
                case .path(let path):
                    documents.append(try read(path))
                }
            }
        }
        return documents
    }

    /// The inputs as sources, in order, without reading them: directories expanded as `expand` says.
    public static func sources(_ arguments: [String]) throws(InputError) -> [InputSource] {
        var sources: [InputSource] = []
        for argument in arguments {
            if argument == "-" {
                sources.append(InputSource(name: "-", origin: .standardInput))
                continue
            }
            var status = stat()
            guard stat(argument, &status) == 0 else { throw InputError.system(argument) }
            if status.st_mode & S_IFMT == S_IFDIR {
                for name in try directoryEntries(argument) where isPayloadFile(name) {
                    let path = argument.hasSuffix("/") ? argument + name : argument + "/" + name
                    var entry = stat()
                    guard stat(path, &entry) == 0, entry.st_mode & S_IFMT == S_IFREG else { continue }
                    sources.append(InputSource(name: path, origin: .path(path)))
                }
            } else {
                sources.append(InputSource(name: argument, origin: .path(argument)))
            }
        }
        return sources
    }

    /// Reads one source: a one-document input is read whole and handed to `whole`; a `.jsonl`/`.ndjson`
    /// file, or standard input that sniffs as lines, is read in `LineChunks.chunkSize` chunks and each
    /// line handed to `line` where it lies (without its `\n`; `terminated` says whether one followed),
    /// so memory holds one chunk and the longest line, whatever the input's size.
    public static func read(_ source: InputSource, standardInput: Int32 = STDIN_FILENO,
                            whole: ([UInt8]) -> Void,
                            line: (_ bytes: UnsafeBufferPointer<UInt8>, _ number: Int, _ terminated: Bool) -> Void)
        throws(InputError) {
        switch source.origin {
        case .path(let path):
            guard kind(ofPath: path) == .lines else { return whole(try read(path).bytes) }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError.system(path) }
            defer { close(fd) }
            guard LineChunks.forEach(fd: fd, line) else { throw InputError.system(path) }
        case .standardInput:
            // Read until the first bytes tell lines from one document (`sniffKind`).
            var prefix: [UInt8] = []
            var atEnd = false
            var decided: InputDocument.Kind?
            while true {
                decided = sniffKind(prefix, atEnd: atEnd)
                if decided != nil { break }
                guard let more = readChunk(fd: standardInput) else { throw InputError.system("-") }
                if more.isEmpty { atEnd = true } else { prefix += more }
            }
            if decided == .lines {
                guard LineChunks.forEach(fd: standardInput, after: prefix, line) else { throw InputError.system("-") }
            } else {
                if !atEnd {
                    guard let rest = readAll(fd: standardInput) else { throw InputError.system("-") }
                    prefix += rest
                }
                whole(prefix)
            }
        }
    }

    /// Whether a file holds only blanks (spaces, tabs, line ends) or nothing: read in chunks, and only
    /// up to its first other byte.
    public static func isBlank(_ path: String) throws(InputError) -> Bool {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError.system(path) }
        defer { close(fd) }
        while true {
            guard let chunk = readChunk(fd: fd) else { throw InputError.system(path) }
            if chunk.isEmpty { return true }
            if !chunk.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return false }
        }
    }

    /// Opens every source for a replay (`LiveSession.startReplay`); the first that cannot be is the error.
    public static func openForReplay(_ sources: [InputSource]) throws(InputError) -> ReplayInputs {
        var inputs: [ReplayFeed.Input] = []
        do {
            for source in sources { inputs.append(try openRereadable(source)) }
        } catch {
            for case .file(_, let fd, _) in inputs { close(fd) }
            throw error
        }
        return ReplayInputs(inputs: inputs)
    }

    /// A source opened for a replay, which reads it again when seeking back: a file as it is; standard
    /// input copied first to an unlinked temporary file (so it can be read again, and not held in memory).
    static func openRereadable(_ source: InputSource) throws(InputError) -> ReplayFeed.Input {
        switch source.origin {
        case .path(let path):
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError.system(path) }
            return .file(name: source.name, fd: fd, kind: kind(ofPath: path))
        case .standardInput:
            guard let fd = TemporaryFile.unlinked(prefix: "shade-stdin") else {
                throw InputError.system("-", doing: "cannot make a temporary file")
            }
            var prefix: [UInt8] = []   // the first bytes, until they tell lines from one document
            var kind: InputDocument.Kind?
            while true {
                guard let chunk = readChunk(fd: STDIN_FILENO) else {
                    let error = InputError.system("-")   // before `close` can change errno
                    close(fd)
                    throw error
                }
                if kind == nil {
                    prefix += chunk
                    kind = sniffKind(prefix, atEnd: chunk.isEmpty)
                    if kind != nil { prefix = [] }
                }
                if chunk.isEmpty { break }
                let written = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
                guard written == chunk.count else {
                    let error = InputError.system("-", doing: "cannot copy standard input to a temporary file")
                    close(fd)
                    throw error
                }
            }
            return .file(name: "-", fd: fd, kind: kind ?? .whole)
        }
    }

    /// Up to one chunk from `fd`: empty at end of file, nil on a read error.
    static func readChunk(fd: Int32) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: LineChunks.chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count >= 0 { chunk.removeSubrange(count...); return chunk }
            if errno != EINTR { return nil }
        }
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
        sniffKind(bytes, atEnd: true) ?? .whole
    }

    /// The same rule over the first bytes of a stream: nil while more bytes could change the answer
    /// (`atEnd` false and the first value, or the blank run after it, not yet complete).
    public static func sniffKind(_ bytes: [UInt8], atEnd: Bool) -> InputDocument.Kind? {
        var index = 0
        func skipWhitespace() {
            while index < bytes.count, ASCII.isWhitespace(bytes[index]) { index += 1 }
        }
        skipWhitespace()
        if index == bytes.count && !atEnd { return nil }
        guard let end = endOfFirstValue(bytes, from: index) else {
            // Not an object or array, or (while more may come) one not closed yet.
            let opens = index < bytes.count && (bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "["))
            if !opens || atEnd || bytes[index...].contains(0x0A) { return .whole }
            return nil
        }
        if bytes[index..<end].contains(0x0A) { return .whole }
        var sawNewline = false
        index = end
        while index < bytes.count, ASCII.isWhitespace(bytes[index]) {
            if bytes[index] == 0x0A { sawNewline = true }
            index += 1
        }
        if index == bytes.count && !atEnd { return nil }
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
        guard fd >= 0 else { throw InputError.system(path) }
        defer { close(fd) }
        guard let bytes = readAll(fd: fd) else { throw InputError.system(path) }
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
        guard let directory = opendir(path) else { throw InputError.system(path) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name.first == UInt8(ascii: ".") { continue }   // hidden files, `.` and `..`
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
