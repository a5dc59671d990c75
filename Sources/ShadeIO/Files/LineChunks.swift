// Reading a file of lines in fixed-size chunks: a recording of any length in bounded memory.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Hands out the lines of a file descriptor, each where it lies in one reused buffer. The buffer is
/// one chunk, grown only to hold a line longer than that, so memory depends on the longest line and
/// not on the file's size (a 10-million-push recording replays in the memory of one line).
public enum LineChunks {
    /// 256 KiB: large enough that a read() is rare per line, small next to the RSS goals.
    public static let chunkSize = 1 << 18

    /// Calls `body` with each line without its `\n`, its 1-based number, and whether a `\n` ended it
    /// (only the last line may lack one). `prefix` holds bytes already read from `fd` (a sniffed start).
    /// Returns false on a read error (errno says which); the lines before it were handed out.
    public static func forEach(fd: Int32, after prefix: [UInt8] = [], chunkSize: Int = chunkSize,
                               _ body: (_ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ terminated: Bool) -> Void) -> Bool {
        var capacity = max(chunkSize, prefix.count, 1)
        // One buffer we own for the whole read, freed on return; lines are handed out as views into it.
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = prefix.count
        prefix.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.initialize(from: base, count: $0.count) } }
        var number = 0
        var atEnd = false
        var scanned = 0  // buffer[0..<scanned] holds no newline after the current line's start
        while true {
            // Every complete line in buffer[0..<filled].
            var start = 0
            while scanned < filled, let newline = memchr(buffer + scanned, 0x0A, filled - scanned) {
                let end = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                number += 1
                body(UnsafeBufferPointer(start: buffer + start, count: end - start), number, true)
                start = end + 1
                scanned = start
            }
            if atEnd {
                if start < filled {
                    number += 1
                    body(UnsafeBufferPointer(start: buffer + start, count: filled - start), number, false)
                }
                return true
            }
            // Keep the partial line at the front; grow only when it fills the whole buffer.
            let rest = filled - start
            if start > 0 && rest > 0 { memmove(buffer, buffer + start, rest) }
            filled = rest
            scanned = rest
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
                return false
            }
        }
    }
}
