// Directories and files only this user may read: the socket's directory, the local CA, the Web Push
// subscription keys. One place decides where they live, how they are created and what is refused.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

public struct PrivateFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

public enum PrivateFiles {
    /// Makes sure `path` is a directory that only this user can enter: created 0700 (with missing
    /// parents 0700) when absent; refused when it is a symbolic link, not a directory, or owned by
    /// another user; tightened to 0700 when it is ours but open to others.
    public static func directory(_ path: String, uid: uid_t = getuid()) throws(PrivateFileError) {
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw PrivateFileError(path: path, reason: errnoText()) }
            let parent = parentDirectory(of: path)
            if !parent.isEmpty && parent != path {
                var parentStatus = stat()
                if stat(parent, &parentStatus) != 0 { try directory(parent, uid: uid) }
            }
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw PrivateFileError(path: path, reason: errnoText()) }
            guard lstat(path, &status) == 0 else { throw PrivateFileError(path: path, reason: errnoText()) }
        }
        guard status.st_mode & S_IFMT != S_IFLNK else {
            throw PrivateFileError(path: path, reason: "is a symbolic link; Shade keeps private files only in a real directory — remove it")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw PrivateFileError(path: path, reason: "exists and is not a directory — remove it or choose another place")
        }
        guard status.st_uid == uid else {
            throw PrivateFileError(path: path, reason: "belongs to user \(status.st_uid), not to you (\(uid)): another user may have "
                + "made it to intercept Shade — remove it or choose another place")
        }
        if status.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 {
            throw PrivateFileError(path: path, reason: "cannot make it private (mode 0700): \(errnoText())")
        }
    }

    /// Writes `bytes` to `path` with mode 0600, atomically: a temporary file beside it, synced, then
    /// renamed over it, so a reader never sees half a key.
    public static func write(_ bytes: [UInt8], to path: String) throws(PrivateFileError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw PrivateFileError(path: path, reason: errnoText()) }
        var failure: Int32?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = errno }
        Glibc.close(fd)
        if failure == nil && rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw PrivateFileError(path: path, reason: String(cString: strerror(failure)))
        }
    }

    /// The bytes of `path`, or nil when it does not exist. A file that others can read is refused
    /// (a key that leaked is not a key), as is one owned by another user.
    public static func read(_ path: String, uid: uid_t = getuid()) throws(PrivateFileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw PrivateFileError(path: path, reason: errnoText())
        }
        defer { Glibc.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw PrivateFileError(path: path, reason: errnoText()) }
        guard status.st_uid == uid else {
            throw PrivateFileError(path: path, reason: "belongs to user \(status.st_uid), not to you (\(uid)) — remove it")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw PrivateFileError(path: path, reason: "is readable by other users (mode \(String(status.st_mode & 0o777, radix: 8))); "
                + "run chmod 600 on it, or remove it to have Shade make a new one")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PrivateFileError(path: path, reason: errnoText())
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Where Shade keeps what must outlive a run: `$XDG_DATA_HOME/shade/` (default `~/.local/share/shade/`),
/// with the local CA in `ca/` and the Web Push subscription in `webpush/`.
public enum DataDirectory {
    public static func root(environment: [String: String] = ProcessEnvironment.current) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return join(data, "shade") }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/shade-\(getuid())-home"
        return join(home, ".local/share/shade")
    }

    /// The local CA's directory (`--ca-dir` overrides it).
    public static func certificateAuthority(environment: [String: String] = ProcessEnvironment.current) -> String {
        join(root(environment: environment), "ca")
    }

    public static func webPush(environment: [String: String] = ProcessEnvironment.current) -> String {
        join(root(environment: environment), "webpush")
    }

    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// The process environment as a dictionary, read once where it is asked for.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
