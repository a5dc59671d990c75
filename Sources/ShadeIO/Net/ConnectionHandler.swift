// The application's side of a connection: requests and lines in, replies out.
import ShadeCore

/// Names a client connection in error sources and logs: `unix#3`, `tcp 127.0.0.1:51234#4`.
public struct ConnectionInfo: Hashable, Sendable, CustomStringConvertible {
    public enum Transport: Hashable, Sendable {
        case unix
        case tcp(peer: String)
    }

    /// Unique within one `PollLoop`, counting up from 1.
    public let id: Int
    public let transport: Transport
    /// How the connection carries requests (framing, TLS, proxy), once its first bytes told.
    public var channel: Channel?

    public init(id: Int, transport: Transport, channel: Channel? = nil) {
        self.id = id
        self.transport = transport
        self.channel = channel
        // Made once: every request and line of the connection names its source with it.
        switch transport {
        case .unix: description = "unix#\(id)"
        case .tcp(let peer): description = "tcp \(peer)#\(id)"
        }
    }

    /// `unix#3`, `tcp 127.0.0.1:5000#4`.
    public let description: String
}

/// What the application does with traffic. Called on the loop's thread, one call at a time; every reply
/// is written back in the order the requests or lines arrived.
public protocol ConnectionHandler: AnyObject {
    /// One complete HTTP request.
    func respond(to request: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse

    /// One NDJSON line (without its newline); returns ONE reply line (a newline is added if missing).
    func respond(toLine line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8]

    /// An HTTP request refused by the transport (400, 408, 413, 431, …); the connection closes after it.
    func respond(toRefused error: HTTPRequestError, from connection: ConnectionInfo) -> HTTPResponse

    /// An NDJSON line refused by the transport (too long, or cut off by the end of the stream).
    func respond(toRefusedLine line: FramedLine, from connection: ConnectionInfo) -> [UInt8]

    /// Asked after each NDJSON reply: true closes the connection once that reply is written, and the
    /// rest of its input is not read (a stream over TCP that did not present `--api-key`).
    func closesAfterReply(on connection: ConnectionInfo) -> Bool

    /// The connection is gone: what was kept about it can go.
    func closed(_ connection: ConnectionInfo)

    /// The NDJSON lines of one round are about to be answered. A handler may put their replies off
    /// (returning empty ones from `respond(toLine:)`) and append them, in order, in `endLines`: a
    /// recording writes a batch's envelopes in one write before any of them is acknowledged.
    func beginLines(from connection: ConnectionInfo)

    /// The end of the batch `beginLines` began: the replies put off, each a line, go to `output`.
    func endLines(from connection: ConnectionInfo, into output: inout [UInt8])
}

extension ConnectionHandler {
    public func closesAfterReply(on connection: ConnectionInfo) -> Bool { false }

    public func closed(_ connection: ConnectionInfo) {}

    public func beginLines(from connection: ConnectionInfo) {}

    public func endLines(from connection: ConnectionInfo, into output: inout [UInt8]) {}

    public func respond(toRefused error: HTTPRequestError, from connection: ConnectionInfo) -> HTTPResponse {
        error.response
    }

    /// `{"ok": false, "error": "line 3: line is … bytes; the limit is …"}`, the NDJSON refusal shape.
    public func respond(toRefusedLine line: FramedLine, from connection: ConnectionInfo) -> [UInt8] {
        let reason = "line \(line.number): \(line.problem ?? "refused")"
        return Array("{\"ok\": false, \"error\": \(JSONWriter.compact(.string(reason)))}".utf8)
    }
}
