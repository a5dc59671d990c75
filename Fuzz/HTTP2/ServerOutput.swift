// What a server may write on an HTTP/2 connection (RFC 9113), checked frame by frame: FuzzHTTP2
// fails on anything else. Header blocks are decoded with libnghttp2's own HPACK inflater, as a client would.
import CNghttp2
import FuzzSupport

/// One response as the client saw it.
public struct HTTP2Reply {
    public var status: Int?
    public var headers: [(name: String, value: [UInt8])] = []
    public var body: [UInt8] = []
    public var ended = false
    /// RST_STREAM's error code, when the server reset the stream.
    public var reset: UInt32?
}

/// Reads a server's output: every frame well formed, header blocks valid HPACK holding only a lower-case,
/// control-free response, DATA only after a response's headers and matching its content-length.
public final class HTTP2ServerOutput {
    public private(set) var replies: [UInt32: HTTP2Reply] = [:]
    /// GOAWAY frames: their error codes, in order.
    public private(set) var goAways: [UInt32] = []
    public private(set) var frameCount = 0
    private var inflater: OpaquePointer?
    /// The stream whose header block CONTINUATION frames carry on, and the block so far.
    private var continuing: (stream: UInt32, block: [UInt8], endsStream: Bool)?
    private var buffered: [UInt8] = []
    private var sawSettings = false
    /// The streams whose request was HEAD: their replies carry the length of a body they do not send.
    /// nil when the caller cannot tell (raw frames): then any reply may come without its body.
    public var headStreams: Set<UInt32>?

    public init() {
        nghttp2_hd_inflate_new(&inflater)
    }

    deinit { nghttp2_hd_inflate_del(inflater) }

    /// More of the server's output (frames may be cut anywhere).
    public func read(_ bytes: [UInt8]) {
        buffered += bytes
        var offset = 0
        while buffered.count - offset >= 9 {
            let length = Int(buffered[offset]) << 16 | Int(buffered[offset + 1]) << 8 | Int(buffered[offset + 2])
            guard buffered.count - offset - 9 >= length else { break }
            let type = buffered[offset + 3]
            let flags = buffered[offset + 4]
            let rawStream = UInt32(buffered[offset + 5]) << 24 | UInt32(buffered[offset + 6]) << 16
                | UInt32(buffered[offset + 7]) << 8 | UInt32(buffered[offset + 8])
            Fuzz.require(rawStream & 0x8000_0000 == 0, "frame \(frameCount): the reserved bit of the stream id is set")
            frame(type: type, flags: flags, stream: rawStream, payload: Array(buffered[(offset + 9)..<(offset + 9 + length)]))
            offset += 9 + length
        }
        buffered.removeFirst(offset)
    }

    /// The output is over: it must end at a frame boundary, outside a header block.
    public func finish() {
        Fuzz.require(buffered.isEmpty, "the output ends inside a frame (\(buffered.count) bytes of one)")
        Fuzz.require(continuing == nil, "the output ends inside a header block")
    }

    private func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) {
        let what = "frame \(frameCount) (type \(type), stream \(stream), \(payload.count) bytes)"
        frameCount += 1
        Fuzz.require(payload.count <= 16_384, "\(what): longer than the default SETTINGS_MAX_FRAME_SIZE")
        Fuzz.require(frameCount > 1 || (type == 4 && flags & 1 == 0), "\(what): the server's preface is not a SETTINGS frame")
        if let continuing {
            Fuzz.require(type == 9 && stream == continuing.stream, "\(what): a header block of stream \(continuing.stream) is interrupted")
        }
        switch type {
        case 0:   // DATA
            Fuzz.require(stream != 0 && stream & 1 == 1, "\(what): DATA on a stream a client cannot open")
            Fuzz.require(flags & 0x08 == 0, "\(what): padded DATA")
            var reply = replies[stream] ?? HTTP2Reply()
            Fuzz.require(reply.status != nil, "\(what): DATA before the response's headers")
            Fuzz.require(!reply.ended && reply.reset == nil, "\(what): DATA after the stream ended")
            reply.body += payload
            if flags & 1 != 0 { reply.ended = true }
            replies[stream] = reply
            if reply.ended { checkEnded(stream) }
        case 1:   // HEADERS
            Fuzz.require(stream != 0 && stream & 1 == 1, "\(what): HEADERS on a stream a client cannot open")
            Fuzz.require(flags & 0x28 == 0, "\(what): padded or prioritised HEADERS")
            if flags & 4 != 0 {
                headerBlock(payload, stream: stream, endsStream: flags & 1 != 0, what)
            } else {
                continuing = (stream, payload, flags & 1 != 0)
            }
        case 3:   // RST_STREAM
            Fuzz.require(stream != 0 && payload.count == 4, "\(what): a malformed RST_STREAM")
            replies[stream, default: HTTP2Reply()].reset = UInt32(payload[0]) << 24 | UInt32(payload[1]) << 16 | UInt32(payload[2]) << 8 | UInt32(payload[3])
        case 4:   // SETTINGS
            Fuzz.require(stream == 0, "\(what): SETTINGS on a stream")
            Fuzz.require(flags & 1 == 0 ? payload.count % 6 == 0 : payload.isEmpty, "\(what): a malformed SETTINGS")
            sawSettings = true
        case 6:   // PING
            Fuzz.require(stream == 0 && payload.count == 8, "\(what): a malformed PING")
        case 7:   // GOAWAY
            Fuzz.require(stream == 0 && payload.count >= 8, "\(what): a malformed GOAWAY")
            goAways.append(UInt32(payload[4]) << 24 | UInt32(payload[5]) << 16 | UInt32(payload[6]) << 8 | UInt32(payload[7]))
            Fuzz.expectNoControlBytes(Array(payload.dropFirst(8)), "\(what): GOAWAY's debug data")
        case 8:   // WINDOW_UPDATE
            Fuzz.require(payload.count == 4, "\(what): a malformed WINDOW_UPDATE")
            let increment = (UInt32(payload[0]) << 24 | UInt32(payload[1]) << 16 | UInt32(payload[2]) << 8 | UInt32(payload[3])) & 0x7FFF_FFFF
            Fuzz.require(increment > 0, "\(what): a WINDOW_UPDATE of 0")
        case 9:   // CONTINUATION
            guard var block = continuing else { Fuzz.fail("\(what): CONTINUATION without HEADERS") }
            block.block += payload
            continuing = block
            if flags & 4 != 0 {
                continuing = nil
                headerBlock(block.block, stream: stream, endsStream: block.endsStream, what)
            }
        default:
            Fuzz.fail("\(what): a frame type a server does not send (PRIORITY, PUSH_PROMISE or unknown)")
        }
    }

    private func headerBlock(_ block: [UInt8], stream: UInt32, endsStream: Bool, _ what: String) {
        let fields = inflate(block, what)
        var reply = replies[stream] ?? HTTP2Reply()
        Fuzz.require(reply.status == nil && reply.reset == nil, "\(what): a second header block on stream \(stream)")
        for (index, field) in fields.enumerated() {
            Fuzz.expectNoControlBytes(field.value, "\(what): the value of \(field.name)")
            Fuzz.require(!field.value.contains(0x0A), "\(what): a line break in the value of \(field.name)")
            if index == 0 {
                Fuzz.require(field.name == ":status", "\(what): the first field is \(field.name), not :status")
                let text = String(decoding: field.value, as: UTF8.self)
                Fuzz.require(field.value.count == 3 && Int(text).map { (200...599).contains($0) } == true, "\(what): :status \(text)")
                reply.status = Int(text)
                continue
            }
            Fuzz.require(!field.name.hasPrefix(":"), "\(what): a pseudo-header \(field.name) after :status")
            Fuzz.require(!field.name.isEmpty && field.name.utf8.allSatisfy { (0x21...0x7E).contains($0) && !(0x41...0x5A).contains($0) },
                         "\(what): the field name \(field.name.debugDescription)")
            Fuzz.require(!["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"].contains(field.name),
                         "\(what): the connection-specific field \(field.name)")
            reply.headers.append(field)
        }
        Fuzz.require(reply.status != nil, "\(what): a response without :status")
        reply.ended = endsStream
        replies[stream] = reply
        if endsStream { checkEnded(stream) }
    }

    private func checkEnded(_ stream: UInt32) {
        guard let reply = replies[stream] else { return }
        Fuzz.expectNoControlBytes(reply.body, "the body on stream \(stream)")
        if let length = reply.headers.first(where: { $0.name == "content-length" }) {
            let bodiless = reply.body.isEmpty && headStreams?.contains(stream) != false
            Fuzz.require(String(decoding: length.value, as: UTF8.self) == String(reply.body.count) || reply.status == 304 || bodiless,
                         "stream \(stream): content-length \(String(decoding: length.value, as: UTF8.self)) for a body of \(reply.body.count) bytes")
        }
    }

    private func inflate(_ block: [UInt8], _ what: String) -> [(name: String, value: [UInt8])] {
        var fields: [(name: String, value: [UInt8])] = []
        var input = block
        input.append(0)   // a base address even for an empty block; not passed on
        input.withUnsafeBufferPointer { buffer in
            var at = buffer.baseAddress!
            var left = block.count
            while true {
                var field = nghttp2_nv()
                var flags: Int32 = 0
                let used = nghttp2_hd_inflate_hd2(inflater, &field, &flags, at, left, 1)
                Fuzz.require(used >= 0, "\(what): the header block is not valid HPACK (\(used))")
                at += used
                left -= used
                if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) != 0 {
                    fields.append((String(decoding: UnsafeBufferPointer(start: field.name, count: field.namelen), as: UTF8.self),
                                   Array(UnsafeBufferPointer(start: field.value, count: field.valuelen))))
                }
                if flags & Int32(NGHTTP2_HD_INFLATE_FINAL.rawValue) != 0 {
                    nghttp2_hd_inflate_end_headers(inflater)
                    break
                }
                if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) == 0 && left == 0 { break }
            }
        }
        return fields
    }
}
