@preconcurrency import Glibc
import ShadeCore

/// Reads command-line inputs: files, directories (files in name order), `-` for standard input.
enum InputLoading {
    enum Kind { case whole, lines }

    struct Document {
        var name: String
        var kind: Kind
        var bytes: [UInt8]
    }

    static let payloadExtensions = [".json", ".jsonl", ".ndjson", ".apns"]

    static func load(_ paths: [String]) throws(UsageError) -> [Document] {
        var documents: [Document] = []
        for path in paths {
            if path == "-" {
                let bytes = readAll(fd: 0)
                documents.append(Document(name: "-", kind: sniffLines(bytes) ? .lines : .whole, bytes: bytes))
                continue
            }
            var info = stat()
            guard stat(path, &info) == 0 else { throw UsageError("\(path): no such file or directory") }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                guard let dir = opendir(path) else { throw UsageError("\(path): cannot read the directory") }
                var names: [String] = []
                while let entry = readdir(dir) {
                    let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
                    if name.hasPrefix(".") || !payloadExtensions.contains(where: name.lowercased().hasSuffix) { continue }
                    names.append(name)
                }
                closedir(dir)
                for name in names.sorted() {
                    let full = path.hasSuffix("/") ? path + name : path + "/" + name
                    var sub = stat()
                    if stat(full, &sub) == 0, (sub.st_mode & S_IFMT) == S_IFREG { documents.append(try file(full)) }
                }
            } else {
                documents.append(try file(path))
            }
        }
        return documents
    }

    static func file(_ path: String) throws(UsageError) -> Document {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw UsageError("\(path): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        let bytes = readAll(fd: fd)
        let lower = path.lowercased()
        let kind: Kind = lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") ? .lines : .whole
        return Document(name: path, kind: kind, bytes: bytes)
    }

    static func readAll(fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Standard input is NDJSON when its first line is a complete JSON document and more follow.
    static func sniffLines(_ bytes: [UInt8]) -> Bool {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return false }
        let rest = bytes[(newline + 1)...]
        guard rest.contains(where: { $0 > 0x20 }) else { return false }
        return (try? JSONParser.parse(Array(bytes[..<newline]))) != nil
    }

    static func outcomes(_ documents: [Document], intake: inout Intake) -> [Intake.Outcome] {
        documents.flatMap { document in
            document.kind == .lines ? intake.lines(document.bytes, source: document.name)
                : intake.document(document.bytes, source: document.name)
        }
    }
}
