// HTTP/2 framing with libnghttp2: frames, HPACK, stream states and flow control are the library's;
// this layer turns each finished stream into an `HTTPRequest` and each `HTTPResponse` into frames.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CNghttp2
import ShadeCore

/// The server side of one HTTP/2 connection (cleartext with prior knowledge, or `h2` inside TLS).
/// Requests are answered in the order their streams finish; a refused stream (400, 413, 431, …) is
/// answered on that stream and the connection goes on.
final class HTTP2Framing: Framing {
    /// How many streams a client may have open at once (APNs advertises about this many).
    static let maxConcurrentStreams: UInt32 = 1000
    /// Per-stream receive window: a whole APNs or FCM body fits, so a client never waits for a WINDOW_UPDATE.
    static let initialWindowSize: UInt32 = 1 << 20

    private var session: OpaquePointer?
    private let limits: HTTPLimits
    private let respond: (HTTPRequest) -> HTTPResponse
    private var streams: [Int32: Stream] = [:]
    /// What `submit` builds a response's fields in, kept from response to response.
    private var replyScratch: (storage: [UInt8], lengths: [(name: Int, value: Int)], nva: [nghttp2_nv]) = ([], [], [])
    /// The stream last looked up: a request's header fields, its data and its end come one after
    /// another, each a callback that would look the stream up again.
    private var recent: (id: Int32, stream: Stream)?

    private func stream(_ id: Int32) -> Stream? {
        if let recent, recent.id == id { return recent.stream }
        guard let found = streams[id] else { return nil }
        recent = (id, found)
        return found
    }
    /// Streams whose request is complete, in the order they completed.
    private var finished: [Int32] = []
    /// A protocol error of the client's: the connection closes once GOAWAY is out.
    private var failed = false

    private final class Stream {
        var method = ""
        var path = ""
        var authority: String?
        var headers: HTTPHeaders = {
            var headers = HTTPHeaders()
            headers.reserveCapacity(8)   // a push library's request: content-type, apns-*, authorization, …
            return headers
        }()
        /// A `host` field came beside `:authority` (HTTP/2's names are lower-case: nghttp2 refuses others).
        var hasHost = false
        var headerBytes = 0
        var body: [UInt8] = []
        /// Set when the request cannot be taken; answered when the stream ends, without reading more body.
        var refusal: HTTPRequestError?
        /// The request came in whole (END_STREAM).
        var isComplete = false
        /// The response body being sent, and how much of it is out.
        var reply: [UInt8] = []
        var replySent = 0
    }

    /// `respond` answers one complete request (the routes, behind the connection layer).
    init(limits: HTTPLimits, respond: @escaping (HTTPRequest) -> HTTPResponse) {
        self.limits = limits
        self.respond = respond
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            guard let frame, let user, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
                  frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
            let framing = HTTP2Framing.framing(user), stream = Stream()
            framing.streams[frame.pointee.hd.stream_id] = stream
            framing.recent = (frame.pointee.hd.stream_id, stream)
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let user, let name, let value else { return 0 }
            HTTP2Framing.framing(user).header(stream: frame.pointee.hd.stream_id,
                                      name: UnsafeBufferPointer(start: name, count: nameLength),
                                      value: UnsafeBufferPointer(start: value, count: valueLength))
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            guard let user, let data else { return 0 }
            HTTP2Framing.framing(user).data(stream: streamID, UnsafeBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            let type = frame.pointee.hd.type
            let endsStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
            if endsStream && (type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue)) {
                let framing = HTTP2Framing.framing(user)
                if let stream = framing.stream(frame.pointee.hd.stream_id) {
                    stream.isComplete = true
                    framing.finished.append(frame.pointee.hd.stream_id)
                }
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, user in
            guard let user else { return 0 }
            let framing = HTTP2Framing.framing(user)
            framing.streams[streamID] = nil
            if framing.recent?.id == streamID { framing.recent = nil }
            return 0
        }
        nghttp2_session_server_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: Self.maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: Self.initialWindowSize),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: UInt32(limits.maxHeaderBytes)),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        // The connection window too: many concurrent streams each send their body at once.
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(Self.initialWindowSize) * 16)
    }

    deinit { nghttp2_session_del(session) }

    private static func framing(_ user: UnsafeMutableRawPointer) -> HTTP2Framing {
        Unmanaged<HTTP2Framing>.fromOpaque(user).takeUnretainedValue()
    }

    // MARK: Framing

    func receive(_ bytes: ArraySlice<UInt8>) {
        guard !failed else { return }
        let result = bytes.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
        if result < 0 {
            // nghttp2 has queued a GOAWAY with the reason (a bad preface, a broken frame, HPACK trouble).
            failed = true
        }
    }

    func answer(into output: inout [UInt8], limit: Int) -> FramingState {
        while !finished.isEmpty {
            let id = finished.removeFirst()
            guard let stream = streams[id] else { continue }
            submit(respond(to: stream), for: stream, id: id)
        }
        while output.count < limit {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data else { break }
            output.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
        if output.count >= limit { return .full }
        if failed || (nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0) { return .close }
        return .open
    }

    /// Open streams whose request has not come in whole.
    var hasPartialInput: Bool { streams.values.contains { !$0.isComplete } }

    func endOfInput() {}

    func goAway(into output: inout [UInt8]) {
        nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
                              UInt32(NGHTTP2_NO_ERROR.rawValue), nil, 0)
        _ = answer(into: &output, limit: Int.max)
    }

    func timedOut(afterMillis millis: Int64, into output: inout [UInt8]) {
        // A stream begun and never finished: nothing else on the connection can be trusted to end either.
        goAway(into: &output)
    }

    // MARK: Requests

    private func header(stream id: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard let stream = stream(id), stream.refusal == nil else { return }
        stream.headerBytes += name.count + value.count + 32   // RFC 9113 §6.5.2 counts 32 bytes per field
        if stream.headerBytes > limits.maxHeaderBytes {
            stream.refusal = .headersTooLarge(limit: limits.maxHeaderBytes)
            stream.headers = HTTPHeaders()
            return
        }
        // Told apart on the name's bytes (a String switch compared every case, a request's fields each time):
        // pseudo-headers by their colon and length; the other fields stay bytes in `headers` until a
        // route asks for one.
        if name.first == UInt8(ascii: ":") {
            switch name.count {
            case 7 where name.sameBytes(as: Self.methodName):
                stream.method = HTTPRequest.method(value)
                return
            case 5 where name.sameBytes(as: Self.pathName): stream.path = lastPath.text(of: value); return
            case 10 where name.sameBytes(as: Self.authorityName): stream.authority = lastAuthority.text(of: value); return
            case 7 where name.sameBytes(as: Self.schemeName): return
            default: break
            }
        }
        stream.headers.add(name: name, value: value)
        if name.sameBytes(as: Self.hostName) { stream.hasHost = true }
        if name.sameBytes(as: Self.contentLengthName), let length = Int(String(decoding: value, as: UTF8.self)), length > limits.maxBodyBytes {
            stream.refusal = .bodyTooLarge(length: length, limit: limits.maxBodyBytes)
        }
    }

    /// A connection's last `:path` and `:authority`: a client sends its pushes to one path (a device's)
    /// at one host stream after stream, and each made the same strings again.
    private var lastPath = RepeatedText(), lastAuthority = RepeatedText()

    private static let hostName = Array("host".utf8)
    private static let methodName = Array(":method".utf8), pathName = Array(":path".utf8)
    private static let authorityName = Array(":authority".utf8), schemeName = Array(":scheme".utf8)
    private static let contentLengthName = Array("content-length".utf8)
    private static let apnsIDName = Array("apns-id".utf8)

    private func data(stream id: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard let stream = stream(id), stream.refusal == nil else { return }
        if stream.body.count + bytes.count > limits.maxBodyBytes {
            stream.refusal = .bodyTooLarge(length: nil, limit: limits.maxBodyBytes)
            stream.body = []
            return
        }
        stream.body.append(contentsOf: bytes)
    }

    private func respond(to stream: Stream) -> HTTPResponse {
        if let refusal = stream.refusal { return respondToRefusal(refusal) }
        guard !stream.method.isEmpty, stream.path.utf8.first == UInt8(ascii: "/") || stream.path == "*" else {
            return HTTPRequestError.malformed("a request needs :method and a :path starting with /").response
        }
        // Taken out of the stream, so that adding Host changes the fields in place instead of copying them.
        var headers = stream.headers
        stream.headers = HTTPHeaders()
        // Routes read Host as HTTP/1.1 sends it; HTTP/2 carries it as :authority.
        if let authority = stream.authority, !stream.hasHost { headers.add("host", authority) }
        let request = HTTPRequest(method: stream.method, target: stream.path, version: .http2, headers: headers, body: stream.body)
        stream.body = []
        return respond(request)
    }

    /// Refusals go through the same answer as HTTP/1.1's (which also counts an over-large body).
    var respondToRefusal: (HTTPRequestError) -> HTTPResponse = { $0.response }

    private func submit(_ response: HTTPResponse, for stream: Stream, id: Int32) {
        // All names and values in one buffer, each field its two lengths; nghttp2 copies them during the
        // call. The buffers are the framing's, taken out and put back: a response allocates none of them.
        var storage: [UInt8] = [], lengths: [(name: Int, value: Int)] = [], nva: [nghttp2_nv] = []
        swap(&storage, &replyScratch.storage)
        swap(&lengths, &replyScratch.lengths)
        swap(&nva, &replyScratch.nva)
        defer {
            storage.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
            nva.removeAll(keepingCapacity: true)
            swap(&storage, &replyScratch.storage)
            swap(&lengths, &replyScratch.lengths)
            swap(&nva, &replyScratch.nva)
        }
        // Each string copied whole and each number written as digits: appending a String's
        // UTF8View, and making a String of a number, cost more than nghttp2's own work on the field.
        func append(_ text: String) -> Int {
            HTTPResponse.append(text, to: &storage)
            return text.utf8.count
        }
        func add(_ name: String, _ value: String) {
            lengths.append((append(name), append(value)))
        }
        func add(_ name: String, number: Int) {
            let nameCount = append(name)
            let start = storage.count
            UTF8Text.appendDecimal(number, to: &storage)
            lengths.append((nameCount, storage.count - start))
        }
        add(":status", number: response.status)
        // The reply's fields copied from their bytes, names lower-cased (HTTP/2 has only lower-case names).
        response.headers.forEachField { name, value in
            guard !HTTP2Framing.isConnectionSpecific(name) else { return }
            for byte in name { storage.append(ASCII.lower(byte)) }
            storage.append(contentsOf: value)
            lengths.append((name.count, value.count))
        }
        let hasBody = !response.body.isEmpty && stream.method != "HEAD"
        if !(100..<200).contains(response.status) && response.status != 204 {
            add("content-length", number: response.body.count)
        }
        stream.reply = hasBody ? response.body : []
        stream.replySent = 0
        storage.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            for field in lengths {
                let name = buffer.baseAddress! + offset
                let value = name + field.name
                offset += field.name + field.value
                // An `apns-id` is new on every reply: kept out of HPACK's dynamic table, where each one
                // would only push out entries that do repeat and cost a table search to insert.
                let unique = UnsafeBufferPointer(start: name, count: field.name).sameBytes(as: Self.apnsIDName)
                nva.append(nghttp2_nv(name: name, value: value, namelen: field.name, valuelen: field.value,
                                      flags: UInt8(unique ? NGHTTP2_NV_FLAG_NO_INDEX.rawValue : NGHTTP2_NV_FLAG_NONE.rawValue)))
            }
            if hasBody {
                var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil)) { _, streamID, buffer, length, flags, _, user in
                    guard let user, let buffer, let flags else { return ssize_t(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
                    return HTTP2Framing.framing(user).readReply(stream: streamID, into: buffer, length: length, flags: flags)
                }
                nghttp2_submit_response(session, id, nva, nva.count, &provider)
            } else {
                nghttp2_submit_response(session, id, nva, nva.count, nil)
            }
        }
    }

    private func readReply(stream id: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int,
                           flags: UnsafeMutablePointer<UInt32>) -> ssize_t {
        guard let stream = streams[id] else { return ssize_t(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        let count = min(length, stream.reply.count - stream.replySent)
        stream.reply.withUnsafeBufferPointer { reply in
            buffer.update(from: reply.baseAddress! + stream.replySent, count: count)
        }
        stream.replySent += count
        if stream.replySent == stream.reply.count {
            flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue)
            stream.reply = []
        }
        return count
    }

    /// Fields HTTP/2 forbids (RFC 9113 §8.2.2); Content-Length is set from the body.
    static func isConnectionSpecific(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 7: ASCII.equalIgnoringCase(name, "upgrade")
        case 10: ASCII.equalIgnoringCase(name, "connection") || ASCII.equalIgnoringCase(name, "keep-alive")
        case 14: ASCII.equalIgnoringCase(name, "content-length")
        case 16: ASCII.equalIgnoringCase(name, "proxy-connection")
        case 17: ASCII.equalIgnoringCase(name, "transfer-encoding")
        default: false
        }
    }
}
