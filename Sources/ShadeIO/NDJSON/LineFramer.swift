// Incremental NDJSON line splitter for sockets, standard input and replayed files.
#if canImport(Glibc)
import Glibc
#endif

/// What happens to a last line that has no newline when the stream ends.
public enum UnterminatedLastLine: Equatable, Sendable {
    /// Reported as `.truncated`: a recording cut off mid-write must not replay a half line as if whole.
    case truncated
    /// Taken as a normal line: a socket client may close right after its last line.
    case accepted
}

public enum FramedLine: Equatable, Sendable {
    /// A complete line without its terminator (`\n` or `\r\n`); `number` is 1-based and counts every
    /// physical line, blank ones included, so it matches what an editor shows.
    case line(bytes: [UInt8], number: Int)
    /// A line over the limit. Its bytes were dropped as they came; the stream goes on at the next newline.
    case tooLong(number: Int, byteCount: Int, limit: Int)
    /// The stream ended inside this line (policy `.truncated`).
    case truncated(bytes: [UInt8], number: Int)

    public var number: Int {
        switch self {
        case .line(_, let number), .tooLong(let number, _, _), .truncated(_, let number): number
        }
    }

    /// What went wrong with this line, for the error list; nil for a good line.
    public var problem: String? {
        switch self {
        case .line: nil
        case .tooLong(_, let byteCount, let limit):
            "line is \(byteCount) bytes; the limit is \(ByteCount.describe(limit))"
        case .truncated(let bytes, _):
            "line is cut off: the input ended after \(bytes.count) bytes without a newline"
        }
    }
}

public struct LineFramer {
    public let maxLineBytes: Int
    public let unterminatedLastLine: UnterminatedLastLine

    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes of `buffer[start...]` already known to hold no newline (so a slow stream is scanned once).
    private var scanned = 0
    private var lineNumber = 0
    /// Inside an over-long line: its bytes are counted and dropped until the newline.
    private var skipping: Int?
    /// Whether the last byte dropped of it was a CR: if the newline comes next, that CR ends the line
    /// and is not counted (as `lines(of:)` counts).
    private var skippedCR = false
    private var ended = false

    public init(maxLineBytes: Int = 1 << 20, unterminatedLastLine: UnterminatedLastLine) {
        self.maxLineBytes = maxLineBytes
        self.unterminatedLastLine = unterminatedLastLine
    }

    /// Every line of a whole input at once (files, standard input): the same lines as feeding `bytes` to
    /// a framer and finishing it, in one pass over the buffer without the incremental bookkeeping.
    public static func lines(of bytes: [UInt8], maxLineBytes: Int = 1 << 20,
                             unterminatedLastLine: UnterminatedLastLine) -> [FramedLine] {
        var lines: [FramedLine] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            var number = 0
            while start < buffer.count {
                number += 1
                let newline = memchr(base + start, 0x0A, buffer.count - start)
                    .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
                let lineEnd = newline ?? buffer.count
                var contentEnd = lineEnd
                if contentEnd > start && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                defer { start = lineEnd + 1 }
                if contentEnd - start > maxLineBytes {
                    lines.append(.tooLong(number: number, byteCount: contentEnd - start, limit: maxLineBytes))
                    continue
                }
                let content = UnsafeBufferPointer(rebasing: buffer[start..<contentEnd])
                if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                if newline == nil && unterminatedLastLine == .truncated {
                    lines.append(.truncated(bytes: Array(buffer[start..<lineEnd]), number: number))
                } else {
                    lines.append(.line(bytes: Array(content), number: number))
                }
            }
        }
        return lines
    }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        precondition(!ended, "LineFramer.append after finish()")
        buffer.append(contentsOf: bytes)
    }

    /// Marks the end of the stream; `next()` then also yields the unterminated last line.
    public mutating func finish() {
        ended = true
    }

    /// Bytes of a line begun and not yet complete.
    public var hasPartialLine: Bool { buffer.count > start || skipping != nil }

    /// The next line, or nil when more bytes are needed (or, after `finish()`, when all are out).
    public mutating func next() -> FramedLine? {
        while true {
            let available = buffer.count - start
            guard let newline = firstNewline() else {
                if let skipped = skipping {
                    // Drop what came of the over-long line so memory stays bounded.
                    if available > 0 { skippedCR = buffer[buffer.count - 1] == 0x0D }
                    skipping = skipped + available
                    consume(available)
                    if ended {
                        skipping = nil
                        return .tooLong(number: lineNumber, byteCount: skipped + available - (skippedCR ? 1 : 0), limit: maxLineBytes)
                    }
                    return nil
                }
                // A CR last may be the line's end, not its content: wait for what follows it.
                if available - (buffer.last == 0x0D ? 1 : 0) > maxLineBytes {
                    lineNumber += 1
                    skippedCR = buffer[buffer.count - 1] == 0x0D
                    skipping = available
                    consume(available)
                    continue
                }
                scanned = available
                guard ended, available > 0 else { return nil }
                lineNumber += 1
                let bytes = Array(buffer[start...])
                consume(available)
                if isBlank(bytes[...]) { continue }
                switch unterminatedLastLine {
                case .accepted: return .line(bytes: Self.droppingCR(bytes), number: lineNumber)
                case .truncated: return .truncated(bytes: bytes, number: lineNumber)
                }
            }
            var lineEnd = newline
            if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if let skipped = skipping {
                skipping = nil
                // A CR dropped just before this newline ended the line.
                let length = skipped + (lineEnd - start) - (newline == start && skippedCR ? 1 : 0)
                consume(newline + 1 - start)
                return .tooLong(number: lineNumber, byteCount: length, limit: maxLineBytes)
            }
            lineNumber += 1
            let length = lineEnd - start
            if length > maxLineBytes {
                consume(newline + 1 - start)
                return .tooLong(number: lineNumber, byteCount: length, limit: maxLineBytes)
            }
            let line = buffer[start..<lineEnd]
            if isBlank(line) {
                consume(newline + 1 - start)
                continue
            }
            let bytes = Array(line)
            consume(newline + 1 - start)
            return .line(bytes: bytes, number: lineNumber)
        }
    }

    /// Blank (only spaces, tabs or CR) lines are skipped: editors and `echo` leave them.
    private func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    private static func droppingCR(_ bytes: [UInt8]) -> [UInt8] {
        bytes.last == 0x0D ? Array(bytes.dropLast()) : bytes
    }

    private mutating func firstNewline() -> Int? {
        let from = start + scanned
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { raw -> Int? in
            guard let base = raw.baseAddress,
                  let found = memchr(base + from, 0x0A, raw.count - from) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func consume(_ count: Int) {
        start += count
        scanned = 0
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 4 << 20)
            start = 0
        } else if start >= 1 << 16 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
