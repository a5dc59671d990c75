// The recording: one envelope line per accepted push, written before the push is acknowledged.
#if canImport(Glibc)
import Glibc
#endif

public struct JournalError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write the recording \(path): \(reason)" }
}

/// Appends lines to a file with write(2) and nothing in between: when `append` returns, the line is
/// in the kernel, so a crash of Shade right after the acknowledgement cannot lose it. (Surviving a power
/// cut would need fsync per push, which a flood cannot afford; `synchronize()` is there for shutdown.)
public final class Journal {
    public let path: String
    private var fd: Int32
    /// write(2), replaceable in tests to force short writes and errors.
    private let write: (Int32, UnsafeRawPointer, Int) -> Int

    public convenience init(appendingTo path: String) throws(JournalError) {
        try self.init(appendingTo: path, write: { Glibc.write($0, $1, $2) })
    }

    init(appendingTo path: String, write: @escaping (Int32, UnsafeRawPointer, Int) -> Int) throws(JournalError) {
        self.path = path
        self.write = write
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw JournalError(path: path, reason: Self.errnoText()) }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Writes `line` and a newline, looping over short writes, before returning.
    public func append(line: [UInt8]) throws(JournalError) {
        guard fd >= 0 else { throw JournalError(path: path, reason: "the journal is closed") }
        var record = line
        record.append(0x0A)
        let failure: Int32? = record.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return nil
        }
        if let failure { throw JournalError(path: path, reason: String(cString: strerror(failure))) }
    }

    /// fsync(2): for a clean shutdown, so the recording survives the machine too.
    public func synchronize() throws(JournalError) {
        guard fd >= 0 else { return }
        if fsync(fd) != 0 { throw JournalError(path: path, reason: Self.errnoText()) }
    }

    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
