// Reading a file of lines in fixed-size chunks: a recording of any length in bounded memory.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Hands out the lines of a file descriptor one at a time, each where it lies in one reused buffer.
/// The buffer is one chunk, grown only to hold a line longer than that, so memory depends on the
/// longest line and not on the file's size (a 10-million-push recording reads in the memory of one line).
public final class LineReader {
    public let fd: Int32
    // One buffer we own, freed in deinit; lines are handed out as views into it, valid until `next()`.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var filled = 0
    private var start = 0      // where the next line begins
    private var scanned = 0    // buffer[start..<scanned] holds no newline
    private var number = 0
    private var atEnd = false
    /// Set when a read failed (errno says why); `next()` then returns nil.
    public private(set) var failed = false

    /// `prefix` holds bytes already read from `fd` (a sniffed start of standard input).
    public init(fd: Int32, after prefix: [UInt8] = [], chunkSize: Int = LineChunks.chunkSize) {
        self.fd = fd
        capacity = max(chunkSize, prefix.count, 1)
        buffer = .allocate(capacity: capacity)
        prefix.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.initialize(from: base, count: $0.count) } }
        filled = prefix.count
    }

    deinit { buffer.deallocate() }

    /// Forgets what was read and starts over at the file's beginning (seeking back in a replay).
    public func rewind() -> Bool {
        filled = 0; start = 0; scanned = 0; number = 0; atEnd = false; failed = false
        return lseek(fd, 0, SEEK_SET) == 0
    }

    /// The next line without its `\n`, its 1-based number, and whether a `\n` ended it (only the
    /// last line may lack one); nil at the end of the file or after a read error (`failed`).
    public func next() -> (line: UnsafeBufferPointer<UInt8>, number: Int, terminated: Bool)? {
        while true {
            if scanned < filled, let newline = memchr(buffer + scanned, 0x0A, filled - scanned) {
                let end = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                let line = UnsafeBufferPointer(start: buffer + start, count: end - start)
                start = end + 1
                scanned = start
                number += 1
                return (line, number, true)
            }
            scanned = filled
            if atEnd {
                guard start < filled else { return nil }
                let line = UnsafeBufferPointer(start: buffer + start, count: filled - start)
                start = filled
                number += 1
                return (line, number, false)
            }
            // Keep the partial line at the front; grow only when it fills the whole buffer.
            let rest = filled - start
            if start > 0 && rest > 0 { memmove(buffer, buffer + start, rest) }
            filled = rest
            scanned = rest
            start = 0
            if filled == capacity {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                grown.initialize(from: buffer, count: filled)
                buffer.deallocate()
                buffer = grown
                capacity *= 2
            }
            let count = Glibc.read(fd, buffer + filled, capacity - filled)
            if count > 0 {
                filled += count
            } else if count == 0 {
                atEnd = true
            } else if errno != EINTR {
                failed = true
                return nil
            }
        }
    }
}

public enum LineChunks {
    /// 256 KiB: large enough that a read() is rare per line, small next to the RSS goals.
    public static let chunkSize = 1 << 18

    /// Calls `body` with each line of `fd` as `LineReader.next()` gives it. Returns false on a read
    /// error (errno says which); the lines before it were handed out.
    public static func forEach(fd: Int32, after prefix: [UInt8] = [], chunkSize: Int = chunkSize,
                               _ body: (_ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ terminated: Bool) -> Void) -> Bool {
        let reader = LineReader(fd: fd, after: prefix, chunkSize: chunkSize)
        while let (line, number, terminated) = reader.next() { body(line, number, terminated) }
        return !reader.failed
    }
}
