// One accepted client, as a stack of layers: the socket's bytes → TLS (optional) → framing (NDJSON,
// HTTP/1.1, HTTP/2) or a relay tunnel. The loop moves bytes between them; each layer is its own type.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

final class Connection {
    /// Its replies wait for the end of the loop's round (`PollLoop.writeHeldReplies`).
    var isHeld = false
    let fd: Int32
    var info: ConnectionInfo
    /// Set once the first bytes were a TLS handshake.
    var tls: TLSSession?
    /// Set once the protocol is known.
    var framing: (any Framing)?
    /// Set when a CONNECT to a host Shade does not intercept made this connection a tunnel to it.
    var relay: Relay?
    /// The CONNECT target whose tunnel Shade itself serves on this connection.
    var tunnel: ConnectTarget?
    /// Plaintext read before the protocol was known.
    var undecided: [UInt8] = []

    /// Last progress: a request or line answered, a handshake finished, a reply written. Bytes alone
    /// do not count, so a trickle cannot keep an idle connection open.
    var lastActivity: Int64
    /// When the last byte came in (which idle connection to evict first).
    var lastInput: Int64
    /// When the request, line or handshake now coming in began; nil when nothing is half-received.
    /// Whatever the client does, it must finish within the request timeout from here.
    var partialSince: Int64?

    /// Bytes for the socket (ciphertext when TLS is on).
    var output: [UInt8] = []
    var outputStart = 0
    /// The peer finished sending (read returned 0, or TLS close_notify).
    var inputEnded = false
    /// Close once `output` is written (an error reply, `Connection: close`, end of input).
    var closeWhenFlushed = false
    /// Set once our side is shut down: input is read and dropped until EOF or this deadline, so the
    /// peer reads our last reply instead of a reset (a close with unread input sends RST).
    var lingerDeadline: Int64?
    /// The upstream side of a relay was shut for writing after the client finished.
    var relayWriteShut = false
    /// The framing stopped with input still to answer (`FramingState.yielded`): it is answered in the
    /// next round, and nothing more is read until it is.
    var hasBufferedWork = false
    /// The loop round in which the connection was last pumped.
    var pumpedRound = 0

    init(fd: Int32, info: ConnectionInfo, now: Int64) {
        self.fd = fd
        self.info = info
        lastActivity = now
        lastInput = now
    }

    var pendingOutput: Int { output.count - outputStart }

    /// Plaintext for the client, through TLS when there is TLS.
    func send(_ plaintext: [UInt8]) {
        guard !plaintext.isEmpty else { return }
        if let tls {
            plaintext.withUnsafeBytes { tls.write($0) }
            tls.takeCiphertext(into: &output)
        } else {
            output += plaintext
        }
    }

    /// From here on only the output left goes out; a TLS connection says close_notify after it.
    func beginClosing() {
        guard !closeWhenFlushed else { return }
        closeWhenFlushed = true
        if let tls {
            tls.close()
            tls.takeCiphertext(into: &output)
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
                Glibc.send(fd, raw.baseAddress! + outputStart, raw.count - outputStart, Int32(MSG_NOSIGNAL))
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
