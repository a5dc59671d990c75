// `Content-Encoding: gzip` and `deflate` request bodies (Expo's SDK gzips bodies over 1 KiB), undone
// with zlib between framing and routes, so every route over every framing gets plain bytes.
import CZlib

enum BodyEncoding {
    /// Codings that say how a Web Push body is encrypted: the Web Push route reads them itself.
    static let encryptions: Set<String> = ["aes128gcm", "aesgcm"]

    enum Failure: Error, Equatable {
        /// Inflating went past the body limit: refused whole (a zip bomb is never inflated further).
        case tooLarge(coding: String, limit: Int)
        case corrupt(coding: String, reason: String)
        case unsupported(coding: String)

        var status: Int {
            switch self {
            case .tooLarge: 413
            case .corrupt: 400
            case .unsupported: 415
            }
        }

        var message: String {
            switch self {
            case .tooLarge(let coding, let limit):
                "the \(coding) body inflates past the limit of \(ByteCount.describe(limit)); it was not read further"
            case .corrupt(let coding, let reason):
                "the body is not \(coding) data as Content-Encoding says (zlib: \(reason))"
            case .unsupported(let coding):
                "Content-Encoding \(coding) is not supported: send the body as it is, or gzip or deflate it"
            }
        }
    }

    /// `request` with its body decoded and `Content-Encoding` removed; nil when there is nothing to
    /// undo (no coding, `identity`, or a Web Push encryption), so the request is read as it came
    /// rather than copied.
    static func decoded(_ request: HTTPRequest, limit: Int) -> Result<HTTPRequest?, Failure> {
        let codings = request.headers.values(for: "content-encoding")
            .flatMap { $0.split(separator: ",") }
            .map { ASCII.trimmed($0).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !codings.isEmpty, !codings.contains(where: encryptions.contains) else { return .success(nil) }
        var body = request.body
        // Codings are listed in the order they were applied: undo the last first.
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip":
                switch inflate(body, windowBits: 16 + MAX_WBITS, coding: coding, limit: limit) {
                case .success(let plain): body = plain
                case .failure(let failure): return .failure(failure)
                }
            case "deflate":
                // RFC 9110 says zlib-wrapped; some clients send raw deflate. Try the right one first.
                switch inflate(body, windowBits: MAX_WBITS, coding: coding, limit: limit) {
                case .success(let plain): body = plain
                case .failure(.corrupt):
                    switch inflate(body, windowBits: -MAX_WBITS, coding: coding, limit: limit) {
                    case .success(let plain): body = plain
                    case .failure(let failure): return .failure(failure)
                    }
                case .failure(let failure): return .failure(failure)
                }
            default:
                return .failure(.unsupported(coding: coding))
            }
        }
        var decoded = request
        decoded.body = body
        decoded.headers.remove("content-encoding")
        return .success(decoded)
    }

    /// zlib's inflate, writing at most `limit` bytes: one byte more and it stops.
    static func inflate(_ input: [UInt8], windowBits: Int32, coding: String, limit: Int) -> Result<[UInt8], Failure> {
        var stream = z_stream()
        guard shade_inflateInit2(&stream, windowBits) == Z_OK else { return .failure(.corrupt(coding: coding, reason: "cannot start inflating")) }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = input
        let count = input.count
        return input.withUnsafeMutableBufferPointer { source -> Result<[UInt8], Failure> in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return .failure(.tooLarge(coding: coding, limit: limit)) }
                output += chunk[0..<produced]
                switch status {
                case Z_STREAM_END:
                    return .success(output)
                case Z_OK:
                    continue
                case Z_BUF_ERROR where produced == 0:
                    return .failure(.corrupt(coding: coding, reason: "the data ends before the stream does"))
                case Z_BUF_ERROR:
                    continue
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    return .failure(.corrupt(coding: coding, reason: reason))
                }
            }
        }
    }
}
