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

/// Appends lines to a file with write(2) and nothing in between: when `append` (or `commit`, for
/// lines staged in a batch) returns, the line is in the kernel, so a crash of Shade right after the
/// acknowledgement cannot lose it. (Surviving a power
/// cut would need fsync per push, which a flood cannot afford; `synchronize()` is there for shutdown.)
///
/// The file never keeps a torn line (an attack showed it: a full disk left `{"a` and the next push was glued onto
/// it). A write that fails or stops short is cut back to the last whole line with ftruncate(2) and the
/// push refused; if even that fails, every later push is refused until the cut succeeds. A file that
/// already ends in a torn line (Shade was killed mid-write, the disk filled) is cut back when opened.
public final class Journal {
    public let path: String
    /// Bytes cut from the end of the file when it was opened: a torn last line, or 0.
    public let repairedBytes: Int
    private var fd: Int32
    /// The length of the file up to its last whole line: where a failed write is cut back to.
    private var wholeLength: Int
    /// Set when a failed write could not be cut back: the file may end in a torn line.
    private var uncut: JournalError?
    /// write(2) and ftruncate(2), replaceable in tests to force short writes and failures.
    private let write: (Int32, UnsafeRawPointer, Int) -> Int
    private let truncate: (Int32, Int) -> Int32

    public convenience init(appendingTo path: String) throws(JournalError) {
        try self.init(appendingTo: path, write: { Glibc.write($0, $1, $2) }, truncate: { ftruncate($0, off_t($1)) })
    }

    init(appendingTo path: String, write: @escaping (Int32, UnsafeRawPointer, Int) -> Int,
         truncate: @escaping (Int32, Int) -> Int32 = { ftruncate($0, off_t($1)) }) throws(JournalError) {
        self.path = path
        self.write = write
        self.truncate = truncate
        // Read and write: the tail is read to find the last whole line. 0600: a recording holds payloads.
        fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { throw JournalError(path: path, reason: Self.errnoText()) }
        do throws(JournalError) {
            let (length, whole) = try Self.lengths(fd, path: path)
            if whole < length {
                guard truncate(fd, whole) == 0 else {
                    throw JournalError(path: path, reason: "it ends in a torn line that cannot be cut off (\(Self.errnoText()))")
                }
            }
            wholeLength = whole
            repairedBytes = length - whole
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Lines staged by `stage` and not yet written, each with its newline, and where each ends.
    private var staged: [UInt8] = []
    private var stagedEnds: [Int] = []

    /// Lines staged and not yet written.
    public var stagedCount: Int { stagedEnds.count }

    /// Writes `line` and a newline, looping over short writes, before returning. On failure nothing of
    /// the line stays in the file (or, when it cannot be cut back, the journal refuses until it can).
    public func append(line: [UInt8]) throws(JournalError) {
        stage(line: line)
        if let error = commit().error { throw error }
    }

    /// Keeps `line` (and a newline) to be written by the next `commit`: a batch of pushes costs one
    /// write(2) instead of one each. Nothing staged is in the file, so nothing staged may be acknowledged yet.
    public func stage(line: [UInt8]) {
        staged.append(contentsOf: line)
        staged.append(0x0A)
        stagedEnds.append(staged.count)
    }

    /// Writes every staged line, looping over short writes. Returns how many of them are whole in the
    /// file (the first `written`, in order: those may be acknowledged) and, when not all are, why. A write
    /// that fails or stops short is cut back to the last whole line, so the file never keeps a torn
    /// line; if even that fails, every later commit is refused until the cut succeeds.
    public func commit() -> (written: Int, error: JournalError?) {
        defer {
            staged.removeAll(keepingCapacity: staged.capacity <= 4 << 20)
            stagedEnds.removeAll(keepingCapacity: true)
        }
        guard !stagedEnds.isEmpty else { return (0, nil) }
        guard fd >= 0 else { return (0, JournalError(path: path, reason: "the journal is closed")) }
        if let uncut {
            guard truncate(fd, wholeLength) == 0 else { return (0, uncut) }
            self.uncut = nil
        }
        var offset = 0
        let failure: Int32? = staged.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return ENOSPC }   // a regular file takes nothing only when it is full
                offset += written
            }
            return nil
        }
        guard let failure else {
            wholeLength += staged.count
            return (stagedEnds.count, nil)
        }
        let reason = String(cString: strerror(failure))
        // The lines that made it whole stay (they are in the kernel, as if written one by one); the
        // torn rest is cut off.
        let whole = stagedEnds.prefix { $0 <= offset }.count
        let wholeBytes = whole > 0 ? stagedEnds[whole - 1] : 0
        wholeLength += wholeBytes
        // Nothing past the whole lines reached the file: nothing to cut (and a device such as /dev/full has no length).
        if offset > wholeBytes && truncate(fd, wholeLength) != 0 {
            let error = JournalError(path: path, reason: "\(reason), and the part written cannot be cut off "
                + "(\(Self.errnoText())); refusing every push until it can")
            uncut = error
            return (whole, error)
        }
        return (whole, JournalError(path: path, reason: reason))
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

    /// The file's length, and its length up to the end of its last whole line (equal when it ends in
    /// a newline or is empty, or is not a regular file: a pipe or a terminal has no tail to cut).
    private static func lengths(_ fd: Int32, path: String) throws(JournalError) -> (length: Int, whole: Int) {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw JournalError(path: path, reason: errnoText()) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return (0, 0) }
        let length = Int(status.st_size)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var end = length
        while end > 0 {
            let start = max(0, end - chunk.count)
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, end - start, off_t(start)) }
            guard count == end - start else {
                throw JournalError(path: path, reason: "cannot read its end: \(count < 0 ? errnoText() : "short read")")
            }
            if let newline = chunk[0..<count].lastIndex(of: 0x0A) { return (length, start + newline + 1) }
            end = start
        }
        return (length, 0)
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
