// The framing layer of a connection: plaintext in, requests or lines to the handler, replies out.
// Below it is the socket (and TLS, when there is one); the framing never knows which.
import ShadeCore

/// What a framing says after answering what it could.
enum FramingState: Equatable {
    /// Waiting for more input.
    case open
    /// Stopped because the output holds `limit` bytes: call again once some is written.
    case full
    /// Stopped after a round's share of work with more input buffered, so the loop goes round (keys,
    /// frames, other clients) before the rest: call again in the next round, before reading more.
    case yielded
    /// Close once the output is written (an error reply, `Connection: close`, GOAWAY, end of input).
    case close
    /// An HTTP/1.1 `CONNECT`: the connection becomes a tunnel (or refuses it); `buffered` is what the
    /// client sent after the request.
    case connect(target: String, buffered: [UInt8])
}

protocol Framing: AnyObject {
    /// Plaintext from the client. Kept until `answer` is called.
    func receive(_ bytes: ArraySlice<UInt8>)
    /// Answers complete requests or lines, appending the replies to `output` while it holds less than `limit` bytes.
    func answer(into output: inout [UInt8], limit: Int) -> FramingState
    /// A request or line has begun and not come in whole.
    var hasPartialInput: Bool { get }
    /// The client finished sending.
    func endOfInput()
    /// Shade is closing the connection: the framing's last words (HTTP/2's GOAWAY), if it has any.
    func goAway(into output: inout [UInt8])
    /// The begun request or line did not arrive in time: the reply that says so (the connection then closes).
    func timedOut(afterMillis millis: Int64, into output: inout [UInt8])
}

extension Framing {
    func goAway(into output: inout [UInt8]) {}
}

/// HTTP/1.1 over `HTTPRequestParser`: keep-alive, pipelining, `100 Continue`, and CONNECT handed back.
final class HTTP1Framing: Framing {
    private var parser: HTTPRequestParser
    private let handler: any ConnectionHandler
    private let info: ConnectionInfo
    private var closing = false

    init(limits: HTTPLimits, handler: any ConnectionHandler, info: ConnectionInfo) {
        parser = HTTPRequestParser(limits: limits)
        self.handler = handler
        self.info = info
    }

    func receive(_ bytes: ArraySlice<UInt8>) {
        if !closing { parser.append(bytes) }
    }

    func answer(into output: inout [UInt8], limit: Int) -> FramingState {
        while !closing {
            if output.count >= limit { return .full }
            do {
                guard let event = try parser.next() else { return .open }
                // Consumed: the request is moved out of the event, not copied (a copy retained each field).
                switch consume event {
                case .continueRequested:
                    output += Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                case .request(let request):
                    if request.method == "CONNECT" {
                        closing = true
                        return .connect(target: request.target, buffered: parser.takeBuffered())
                    }
                    let response = handler.respond(to: request, from: info)
                    let keepAlive = request.keepAlive && !response.headers.lists("Connection", token: "close")
                    response.serialize(into: &output, keepAlive: keepAlive, version: request.version, omitBody: request.method == "HEAD")
                    if !keepAlive { closing = true }
                }
            } catch {
                handler.respond(toRefused: error, from: info).serialize(into: &output, keepAlive: false)
                closing = true
            }
        }
        return .close
    }

    var hasPartialInput: Bool { !closing && parser.hasPartialRequest }

    func endOfInput() {}

    func timedOut(afterMillis millis: Int64, into output: inout [UInt8]) {
        guard !closing else { return }
        closing = true
        handler.respond(toRefused: .timedOut(afterMillis: millis), from: info).serialize(into: &output, keepAlive: false)
    }
}

/// NDJSON: one reply line per payload line, in order.
final class NDJSONFraming: Framing {
    private var lines: LineFramer
    private let handler: any ConnectionHandler
    private let info: ConnectionInfo
    private var ended = false
    private var closing = false

    init(lines: LineFramer, handler: any ConnectionHandler, info: ConnectionInfo) {
        self.lines = lines
        self.handler = handler
        self.info = info
    }

    func receive(_ bytes: ArraySlice<UInt8>) {
        if !ended && !closing { lines.append(bytes) }
    }

    /// Lines answered in one batch at most (a recording's write, the replies put off until it).
    static let batchLines = 1024
    /// Lines answered in one round at most: a burst (a client that stalled, then sent a megabyte) is
    /// answered over several rounds, so a key or a frame waits for at most this many lines.
    static let roundLines = 512

    func answer(into output: inout [UInt8], limit: Int) -> FramingState {
        guard !closing else { return .close }
        handler.beginLines(from: info)
        defer { handler.endLines(from: info, into: &output) }
        var inBatch = 0
        var inRound = 0
        while output.count < limit {
            if inRound == Self.roundLines { return lines.hasPartialLine ? .yielded : (ended ? .close : .open) }
            if inBatch == Self.batchLines {
                handler.endLines(from: info, into: &output)
                handler.beginLines(from: info)
                inBatch = 0
                continue
            }
            guard let line = lines.next() else { return ended ? .close : .open }
            let reply: [UInt8]
            switch line {
            case .line(let bytes, let number):
                reply = handler.respond(toLine: bytes, lineNumber: number, from: info)
            case .tooLong, .truncated:
                reply = handler.respond(toRefusedLine: line, from: info)
            }
            // Empty: put off until `endLines`.
            if !reply.isEmpty {
                output += reply
                if reply.last != 0x0A { output.append(0x0A) }
            }
            inBatch += 1
            inRound += 1
            if handler.closesAfterReply(on: info) {   // a stream over TCP that did not present --api-key
                closing = true
                return .close
            }
        }
        return .full
    }

    var hasPartialInput: Bool { !closing && lines.hasPartialLine }

    func endOfInput() {
        guard !ended else { return }
        ended = true
        lines.finish()
    }

    func timedOut(afterMillis millis: Int64, into output: inout [UInt8]) {
        guard !closing else { return }
        closing = true
        let time = millis % 1000 == 0 ? "\(millis / 1000) s" : "\(millis) ms"
        let reason = "line not completed within \(time): a whole line must arrive within that time; closing the connection"
        output += Array("{\"ok\": false, \"error\": \(JSONWriter.compact(.string(reason)))}\n".utf8)
    }
}
