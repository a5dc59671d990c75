// One accepted client: sniffs HTTP or NDJSON, frames input, buffers output.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

final class Connection {
    enum Mode {
        /// Nothing but whitespace seen yet.
        case undecided
        case http
        case ndjson
    }

    let fd: Int32
    let info: ConnectionInfo
    var mode: Mode = .undecided
    // Both framers live here (not in `Mode`'s payloads) so they are mutated in place, never copied.
    var http: HTTPRequestParser
    var lines: LineFramer
    var lastActivity: Int64
    /// Leading whitespace read before the first real byte decides the protocol.
    var sniffed: [UInt8] = []

    var output: [UInt8] = []
    var outputStart = 0
    /// The peer finished sending (read returned 0).
    var inputEnded = false
    /// Close once `output` is written (an error reply, `Connection: close`, end of input).
    var closeWhenFlushed = false
    /// Set once our side is shut down: input is read and dropped until EOF or this deadline, so the
    /// peer reads our last reply instead of a reset (a close with unread input sends RST).
    var lingerDeadline: Int64?

    init(fd: Int32, info: ConnectionInfo, now: Int64, http: HTTPRequestParser, lines: LineFramer) {
        self.fd = fd
        self.info = info
        self.http = http
        self.lines = lines
        lastActivity = now
    }

    var pendingOutput: Int { output.count - outputStart }

    /// Whether a request or line has begun and not been completed.
    var hasPartialInput: Bool {
        switch mode {
        case .undecided: false
        case .http: http.hasPartialRequest
        case .ndjson: lines.hasPartialLine
        }
    }

    func enqueue(_ bytes: [UInt8]) {
        if outputStart == output.count {
            output = bytes
            outputStart = 0
        } else {
            output.append(contentsOf: bytes)
        }
    }

    enum WriteResult {
        case drained
        case wouldBlock
        case failed
    }

    /// Writes as much as the socket takes now.
    func flush(now: Int64) -> WriteResult {
        while outputStart < output.count {
            let sent = output.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + outputStart, raw.count - outputStart, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                outputStart += sent
                lastActivity = now
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .wouldBlock }
            return .failed
        }
        output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
        outputStart = 0
        return .drained
    }
}
