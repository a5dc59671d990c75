// seeds: http2
// HTTP/2 framing (libnghttp2 behind HTTP2Framing) with the routes of a live session behind it, as an h2c
// connection with prior knowledge is served: the preface, then the input, fed in pieces the first byte
// picks, with replies taken as a socket with room for the second byte's amount takes them. No trap, no
// leak, no hang, and nothing written but well-formed HTTP/2 frames (HPACK that decodes, lower-case
// fields without control bytes, content-length right, no frame a server may not send).
//
// The second byte's bit 2 turns the rest into requests instead of raw frames: each is well framed and
// well encoded, but its fields and body are the fuzzer's (any method, path, header, content-length, a
// body over the limit); then one plain GET /healthz. There every stream must be answered — a response or
// RST_STREAM — the connection must never be told GOAWAY with an error (a stream's refusal is that
// stream's), and the last GET must get its 200.
import CNghttp2
import FuzzSupport
import ShadeCore
@testable import ShadeIO

final class FixedClock: Clock {
    func nowMillis() -> Int64 { 1_796_033_700_120 }
}

nonisolated let connection = ConnectionInfo(id: 1, transport: .tcp(peer: "127.0.0.1:1"), channel: Channel(framing: .http2))
nonisolated let limits = HTTPLimits(maxBodyBytes: 4096, maxHeaderBytes: 1024)
/// What the socket takes per round: all of it, a frame's worth, a little, less than a frame header.
nonisolated let outputLimits = [1 << 22, 16_384, 200, 7]

// MARK: Requests made from the input (bit 2)

/// HPACK (RFC 7541 §5.1): an integer with an `prefix`-bit prefix, `flags` in the bits above it.
func hpackInteger(_ value: Int, prefix: Int, flags: UInt8) -> [UInt8] {
    let limit = (1 << prefix) - 1
    if value < limit { return [flags | UInt8(value)] }
    var bytes = [flags | UInt8(limit)]
    var rest = value - limit
    while rest >= 128 {
        bytes.append(UInt8(rest % 128) | 0x80)
        rest /= 128
    }
    bytes.append(UInt8(rest))
    return bytes
}

/// A literal field without indexing, new name, no Huffman (§6.2.2): valid HPACK for any bytes.
func hpackLiteral(_ name: [UInt8], _ value: [UInt8]) -> [UInt8] {
    [0x00] + hpackInteger(name.count, prefix: 7, flags: 0) + name + hpackInteger(value.count, prefix: 7, flags: 0) + value
}

func frame(_ type: UInt8, _ flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
    [UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF), type, flags,
     UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
}

nonisolated let names = [":method", ":path", ":scheme", ":authority", "content-length", "content-type", "apns-id", "apns-topic",
                         "apns-push-type", "apns-collapse-id", "apns-expiration", "apns-priority", "authorization", "x-api-key",
                         "content-encoding", "te", "host", "ttl", "urgency", "topic", "encryption", "crypto-key", "accept"]
nonisolated let values = ["POST", "GET", "HEAD", "DELETE", "PUT", "OPTIONS", "CONNECT", "/push", "/3/device/" + String(repeating: "ab", count: 32),
                          "/fcm/send", "/v1/projects/demo/messages:send", "/--/api/v2/push/send", "/push/send-to-user", "/state",
                          "/healthz", "/token", "/webpush/subscription", "http", "https", "localhost", "api.push.apple.com",
                          "application/json", "gzip", "deflate", "trailers", "123e4567-e89b-12d3-a456-426614174000", "bearer x.y.z",
                          "{\"aps\":{\"alert\":\"hi\"}}", "{\"to\":\"ExponentPushToken[x]\",\"body\":\"b\"}", "0", "5000"]

/// Reads the input as requests: a control byte (bits 0–2: fields, bits 3–4: how the body is cut, bit 5: no
/// body, bit 6: a body of `x` past the limit), then per field a byte for its name (a known one, or the
/// next bytes) and one for its value (likewise), then the body's length and bytes.
struct RequestReader {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8? { bytes.popFirst() }

    mutating func text(_ table: [String], _ choice: UInt8) -> [UInt8] {
        if Int(choice) < table.count { return Array(table[Int(choice)].utf8) }
        let count = min(Int(choice) - table.count, bytes.count)
        defer { bytes.removeFirst(count) }
        return Array(bytes.prefix(count))
    }

    /// The frames of the next request on `stream`, and whether its (last) :method is HEAD; nil at the end of the input.
    mutating func request(stream: UInt32) -> (frames: [UInt8], isHead: Bool)? {
        guard let control = byte() else { return nil }
        var block: [UInt8] = []
        var isHead = false
        for _ in 0..<Int(control & 7) {
            guard let name = byte(), let value = byte() else { break }
            let (nameBytes, valueBytes) = (text(names, name), text(values, value))
            if nameBytes.elementsEqual(":method".utf8) { isHead = valueBytes.elementsEqual("HEAD".utf8) }
            block += hpackLiteral(nameBytes, valueBytes)
        }
        var body: [UInt8] = []
        if control & 0x40 != 0 {
            body = Array(repeating: UInt8(ascii: "x"), count: limits.maxBodyBytes + 1 + Int(control & 0x18) * 100)
        } else if control & 0x20 == 0, let count = byte() {
            body = text([], UInt8(min(255, Int(count))))
        }
        var frames = frame(1, body.isEmpty ? 0x05 : 0x04, stream: stream, block)   // END_HEADERS (and END_STREAM)
        let cut = [body.count, 1, 7, 1000][Int(control >> 3 & 3)]
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + max(1, cut))
            frames += frame(0, end == body.count ? 0x01 : 0, stream: stream, Array(body[offset..<end]))
            offset = end
        }
        return (frames, isHead)
    }
}

nonisolated let healthz = hpackLiteral(Array(":method".utf8), Array("GET".utf8)) + hpackLiteral(Array(":path".utf8), Array("/healthz".utf8))
    + hpackLiteral(Array(":scheme".utf8), Array("http".utf8)) + hpackLiteral(Array(":authority".utf8), Array("localhost".utf8))

// MARK: The target

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzHTTP2(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    guard bytes.count >= 2 else { return 0 }
    let cuts = bytes[0], flags = bytes[1]
    let requests = flags & 0x04 != 0
    var input = ProtocolDetector.preface
    var opened: [UInt32] = []
    var headStreams: Set<UInt32> = []
    if requests {
        input += frame(4, 0, stream: 0, [])   // the client's SETTINGS
        var reader = RequestReader(bytes: bytes.dropFirst(2))
        var stream: UInt32 = 1
        // At most 128 KB of requests: fed a byte at a time (each piece a receive and an answer, as a socket
        // delivering one byte per read), more would take over the 1 s an input has, Shade doing nothing wrong.
        while opened.count < 200, input.count < 1 << 17, let (frames, isHead) = reader.request(stream: stream) {
            input += frames
            if isHead { headStreams.insert(stream) }
            opened.append(stream)
            stream += 2
        }
        input += frame(1, 0x05, stream: stream, healthz)
        opened.append(stream)
    } else {
        input += bytes.dropFirst(2)
    }

    let session = LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: nil,
                              clock: FixedClock(), wallClock: FixedClock())
    let framing = HTTP2Framing(limits: limits) { session.respond(to: $0, from: connection) }
    framing.respondToRefusal = { session.respond(toRefused: $0, from: connection) }
    let output = HTTP2ServerOutput()
    if requests { output.headStreams = headStreams }
    let limit = outputLimits[Int(flags & 3)]
    var closed = false
    /// Answers as the poll loop does: until the framing waits for input, the socket taking `limit` a round.
    func drain() {
        for _ in 0..<100_000 {
            var written: [UInt8] = []
            let state = framing.answer(into: &written, limit: limit)
            output.read(written)
            switch state {
            case .full, .yielded: continue   // the loop calls again: once written, or next round
            case .close: closed = true; return
            case .open: return
            case .connect: Fuzz.fail("HTTP/2 framing asked for a CONNECT tunnel")
            }
        }
        Fuzz.fail("the framing kept saying .full without running out of output")
    }
    for piece in Pieces.slices(input[...], cutBy: cuts) where !closed {
        framing.receive(piece)
        drain()
    }
    if requests {
        // Every stream answered, the connection alive (no GOAWAY yet, let alone one with an error).
        Fuzz.require(output.goAways.isEmpty, "GOAWAY \(output.goAways) after requests that were each well framed")
        for stream in opened {
            let reply = output.replies[stream]
            Fuzz.require(reply?.reset != nil || (reply?.status != nil && reply?.ended == true), "stream \(stream) was not answered")
        }
        Fuzz.require(output.replies[opened.last!]?.status == 200, "the GET /healthz after the others got \(String(describing: output.replies[opened.last!]?.status))")
    }
    if flags & 0x10 != 0 { framing.endOfInput() }
    var last: [UInt8] = []
    if flags & 0x08 != 0 {
        framing.timedOut(afterMillis: 10_000, into: &last)
    } else {
        framing.goAway(into: &last)
    }
    output.read(last)
    output.finish()
    return 0
}

Fuzz.main(fuzzHTTP2)
