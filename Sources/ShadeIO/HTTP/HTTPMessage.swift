// HTTP/1.1 message values shared by the server (parser, responses) and the send client.
import ShadeCore

/// One header line as it arrived: the name keeps its spelling, lookups ignore case.
public struct HTTPHeaderField: Equatable, Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Header fields in arrival order. Lookup is case-insensitive (RFC 9110 §5.1).
///
/// The fields lie in one byte buffer, each led by its name's and value's lengths: a request's
/// headers are one allocation, read in place, and a field becomes a `String` only when something
/// asks for it. Every request has several fields nothing reads (Host, User-Agent, Accept), and
/// making two strings of each cost more than the rest of its parsing.
public struct HTTPHeaders: Equatable, Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// `[name length][value length][name][value]` per field, the lengths 4 bytes each (little-endian).
    /// Built only by appending whole fields, so equal fields in equal order are equal bytes.
    private var storage: [UInt8] = []
    public private(set) var count = 0

    public init(_ fields: [HTTPHeaderField] = []) {
        for field in fields { add(field.name, field.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The fields as strings, in order.
    public var fields: [HTTPHeaderField] { Array(self) }

    public var underestimatedCount: Int { count }

    public struct Iterator: IteratorProtocol {
        fileprivate let headers: HTTPHeaders
        fileprivate var offset = 0

        public mutating func next() -> HTTPHeaderField? {
            guard offset < headers.storage.count else { return nil }
            let (field, next) = headers.storage.withUnsafeBufferPointer { bytes in
                let (name, value, next) = HTTPHeaders.field(in: bytes, at: offset)
                return (HTTPHeaderField(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)), next)
            }
            offset = next
            return field
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(headers: self)
    }

    /// The field at `offset`: its name and value, and where the next begins.
    private static func field(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int)
        -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, next: Int) {
        let raw = UnsafeRawBufferPointer(bytes)
        let nameCount = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        let valueCount = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
        let nameStart = offset + 8, valueStart = nameStart + nameCount
        return (UnsafeBufferPointer(rebasing: bytes[nameStart..<valueStart]),
                UnsafeBufferPointer(rebasing: bytes[valueStart..<(valueStart + valueCount)]), valueStart + valueCount)
    }

    /// The first non-nil answer of `body` over the fields' bytes, in order; valid inside `body` only.
    func first<R>(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> R?) rethrows -> R? {
        try storage.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let (name, value, next) = Self.field(in: bytes, at: offset)
                if let answer = try body(name, value) { return answer }
                offset = next
            }
            return nil
        }
    }

    /// The fields whose name `keep` picks, in order (the push metadata of a request, say).
    func fields(where keep: (_ name: UnsafeBufferPointer<UInt8>) -> Bool) -> HTTPHeaders {
        var kept = HTTPHeaders()
        forEachField { name, value in if keep(name) { kept.add(name: name, value: value) } }
        return kept
    }

    /// Whether the fields whose name `keep` picks are `kept`'s, in order and byte for byte: compared
    /// where both lie, without laying the picked ones out.
    func fields(where keep: (_ name: UnsafeBufferPointer<UInt8>) -> Bool, are kept: HTTPHeaders) -> Bool {
        kept.storage.withUnsafeBufferPointer { kept in
            var offset = 0
            // nil goes on to the next field; false stops at the first that differs.
            let differs: Bool? = first { name, value in
                guard keep(name) else { return nil }
                guard offset < kept.count else { return false }
                let (keptName, keptValue, next) = Self.field(in: kept, at: offset)
                guard keptName.sameBytes(as: name), keptValue.sameBytes(as: value) else { return false }
                offset = next
                return nil
            }
            return differs == nil && offset == kept.count
        }
    }

    /// Every field's bytes, in order.
    func forEachField(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        let _: Never? = try first { name, value in
            try body(name, value)
            return nil
        }
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        first { fieldName, value in Self.sameName(fieldName, name) ? String(decoding: value, as: UTF8.self) : nil }
    }

    /// Every value of `name`, in order (a header may repeat).
    public func values(for name: String) -> [String] {
        var values: [String] = []
        forEachField { fieldName, value in
            if Self.sameName(fieldName, name) { values.append(String(decoding: value, as: UTF8.self)) }
        }
        return values
    }

    public func contains(_ name: String) -> Bool {
        first { fieldName, _ in Self.sameName(fieldName, name) ? true : nil } ?? false
    }

    /// Room for `count` fields of a typical size, so a request's fields are appended without growing.
    public mutating func reserveCapacity(_ count: Int) {
        storage.reserveCapacity(count * 40)
    }

    public mutating func add(_ name: String, _ value: String) {
        var name = name, value = value
        name.withUTF8 { name in value.withUTF8 { value in add(name: name, value: value) } }
    }

    /// A field from the bytes it arrived as (HTTP/1.1's head, an HTTP/2 HEADERS frame).
    public mutating func add(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        // Room for the field first (a reply's one or two fields fit the first 128 bytes), so the three
        // copies below are copies, with no growth checked between them.
        let fieldBytes = Self.lengthBytes + name.count + value.count
        let needed = storage.count + fieldBytes
        if storage.capacity < needed { storage.reserveCapacity(Swift.max(needed, 2 * storage.capacity, 128)) }
        count += 1
        // Laid out on the stack and appended once: each append cost more than its bytes' copy, and an
        // HTTP/2 request's fields arrive one by one, six or more a request. A long field is appended
        // in its three parts.
        if fieldBytes <= 512 {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fieldBytes) { field in
                _ = Self.write(name: name, value: value, into: field, at: 0)
                storage.append(contentsOf: UnsafeBufferPointer(field))
            }
            return
        }
        var lengths = Self.lengths(name: name, value: value)
        withUnsafeBytes(of: &lengths) { storage.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        storage.append(contentsOf: name)
        storage.append(contentsOf: value)
    }

    /// Fields laid out by `write(name:value:into:at:)`, `count` of them (HTTP/1.1's parser writes a
    /// head's fields straight into their storage).
    init(storage: [UInt8], count: Int) {
        self.storage = storage
        self.count = count
    }

    /// The bytes a field's two lengths take before its name.
    static let lengthBytes = 8

    private static func lengths(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> UInt64 {
        (UInt64(UInt32(name.count)) | UInt64(UInt32(value.count)) << 32).littleEndian
    }

    /// Writes one field as `storage` lays it out into `out` at `offset` (room made by the caller) and
    /// returns where the next begins.
    static func write(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
                      into out: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let base = out.baseAddress! + offset
        UnsafeMutableRawPointer(base).storeBytes(of: lengths(name: name, value: value), as: UInt64.self)
        let nameStart = base + lengthBytes
        if let source = name.baseAddress { nameStart.initialize(from: source, count: name.count) }
        if let source = value.baseAddress { (nameStart + name.count).initialize(from: source, count: value.count) }
        return offset + lengthBytes + name.count + value.count
    }

    /// Replaces every field called `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) {
        guard contains(name) else { return }
        var kept = HTTPHeaders()
        forEachField { fieldName, value in
            if !Self.sameName(fieldName, name) { kept.add(name: fieldName, value: value) }
        }
        self = kept
    }

    /// Whether a comma-separated header such as `Connection` lists `token` (case-insensitive).
    public func lists(_ name: String, token: String) -> Bool {
        // Asked of every request (`Connection: close`, `Expect`): most have no such field, and
        // no string is made to find that out.
        first { fieldName, value in
            guard Self.sameName(fieldName, name) else { return nil }
            return String(decoding: value, as: UTF8.self).split(separator: ",")
                .contains { ASCII.equalIgnoringCase(ASCII.trimmed($0), token) } ? true : nil
        } ?? false
    }

    /// Read on the names' bytes in place: every lookup of every request compares names.
    static func sameName(_ a: UnsafeBufferPointer<UInt8>, _ b: String) -> Bool {
        guard a.count == b.utf8.count else { return false }
        var b = b
        return b.withUTF8 { y in
            for index in 0..<y.count where ASCII.lower(a[index]) != ASCII.lower(y[index]) { return false }
            return true
        }
    }
}

public struct HTTPVersion: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public static let http2 = HTTPVersion(major: 2, minor: 0)

    public var description: String { "HTTP/\(major).\(minor)" }
}

/// `name=value` from the query string, percent-decoded (`+` is a space, as forms send it).
public struct HTTPQueryItem: Equatable, Hashable, Sendable {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}

public struct HTTPRequest: Equatable, Sendable {
    public var method: String
    /// The request target as sent (`/state?platform=ios`).
    public var target: String
    /// The target's path, not percent-decoded, so `%2F` in a token stays distinct from `/`.
    public var path: String
    public var queryItems: [HTTPQueryItem]
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Fields sent after a chunked body; kept apart so they cannot override the real headers.
    public var trailers: HTTPHeaders

    public init(method: String, target: String, version: HTTPVersion = .http1_1,
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], trailers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
        (path, queryItems) = HTTPRequest.split(target: target)
    }

    /// The first query value called `name`.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value ?? nil
    }

    /// HTTP/1.1 keeps the connection unless `Connection: close`; HTTP/1.0 closes unless `keep-alive`.
    public var keepAlive: Bool {
        if headers.lists("Connection", token: "close") { return false }
        if version == .http1_0 || version.major < 1 { return headers.lists("Connection", token: "keep-alive") }
        return true
    }

    static func split(target: String) -> (path: String, query: [HTTPQueryItem]) {
        // Nearly every target is a bare path (`/3/device/…`): no scheme, query or fragment to take apart.
        if target.utf8.first == UInt8(ascii: "/") && !UTF8Text.anyByte(of: target, { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return (target, [])
        }
        var rest = Substring(target)
        // Absolute form (`http://host/path`): proxies send it and servers must accept it.
        if !rest.hasPrefix("/"), let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            rest = rest[rest.index(colon, offsetBy: 3)...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let mark = rest.firstIndex(of: "?") else { return (String(rest), []) }
        let path = String(rest[..<mark])
        return (path, formItems(rest[rest.index(after: mark)...]))
    }

    /// `a=1&b=two+words`: a query string, or a body sent as `application/x-www-form-urlencoded`.
    static func formItems(_ query: Substring) -> [HTTPQueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> HTTPQueryItem in
            if let eq = pair.firstIndex(of: "=") {
                return HTTPQueryItem(name: percentDecoded(pair[..<eq]),
                                     value: percentDecoded(pair[pair.index(after: eq)...]))
            }
            return HTTPQueryItem(name: percentDecoded(pair), value: nil)
        }
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                      let high = ASCII.hexValue(iterator[iterator.startIndex]),
                      let low = ASCII.hexValue(iterator[iterator.startIndex + 1]) {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    public var reason: String
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, reason: String? = nil, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.reason = reason ?? HTTPResponse.reasonPhrase(for: status)
        self.headers = headers
        self.body = body
    }

    /// A response whose body is already-encoded JSON.
    public static func json(status: Int = 200, _ json: [UInt8], headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.add("Content-Type", "application/json") }
        return HTTPResponse(status: status, headers: headers, body: json)
    }

    public static func json(status: Int = 200, _ json: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        Self.json(status: status, Array(json.utf8), headers: headers)
    }

    /// `{"error": "…"}`: the shape every transport-level refusal uses.
    public static func error(status: Int, _ message: String) -> HTTPResponse {
        json(status: status, "{\"error\": \(JSONWriter.compact(.string(message)))}")
    }

    /// The bytes on the wire. `Content-Length` is always set from the body (replacing any given),
    /// and `Connection: close` is added when the server will close after this response.
    /// A reply to `HEAD` carries the length but not the body.
    public func serialized(keepAlive: Bool = true, version: HTTPVersion = .http1_1, omitBody: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        serialize(into: &bytes, keepAlive: keepAlive, version: version, omitBody: omitBody)
        return bytes
    }

    /// `serialized`'s bytes appended to `bytes`: a connection's replies go straight into its output,
    /// with no array of their own to make, copy and free per request.
    public func serialize(into bytes: inout [UInt8], keepAlive: Bool = true, version: HTTPVersion = .http1_1, omitBody: Bool = false) {
        // Values may echo what a client sent (`apns-id`): they pass the one gate, so no control
        // character (a C1 CSI, a tab) goes back out and no CR LF can start a header of its own.
        // Written as bytes, each string copied whole: a flood answers every request with one of these.
        var headerBytes = 0
        headers.forEachField { name, value in headerBytes += name.count + value.count + 4 }
        // Grown geometrically, as appending would: a pipelining client's replies share one output.
        let needed = bytes.count + 96 + headerBytes + (omitBody ? 0 : body.count)
        if bytes.capacity < needed { bytes.reserveCapacity(max(needed, bytes.capacity * 2)) }
        func text(_ text: String) { Self.append(text, to: &bytes) }
        func safe(_ text: String) { Self.append(SafeText.line(text), to: &bytes) }   // clean text comes back as it is
        func number(_ value: Int) { UTF8Text.appendDecimal(value, to: &bytes) }
        func end() {
            bytes.append(0x0D)
            bytes.append(0x0A)
        }
        // Clean bytes (printable ASCII: every header and reason Shade sets) are copied as they lie;
        // anything else goes through the gate as text.
        func safe(_ field: UnsafeBufferPointer<UInt8>) {
            if field.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                bytes.append(contentsOf: field)
            } else {
                safe(String(decoding: field, as: UTF8.self))
            }
        }
        text("HTTP/1.1 ")
        number(status)
        bytes.append(0x20)
        var reason = reason
        reason.withUTF8 { safe($0) }
        end()
        headers.forEachField { name, value in
            guard !ASCII.equalIgnoringCase(name, "content-length") && !ASCII.equalIgnoringCase(name, "connection") else { return }
            safe(name)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(0x20)
            safe(value)
            end()
        }
        if !(100..<200).contains(status) && status != 204 {
            text("Content-Length: ")
            number(body.count)
            end()
        }
        if !keepAlive {
            text("Connection: close")
            end()
        } else if version == .http1_0 {
            text("Connection: keep-alive")
            end()
        }
        end()
        if !omitBody { bytes += body }
    }

    /// The string's UTF-8, copied whole (`UTF8Text.append`).
    static func append(_ text: String, to bytes: inout [UInt8]) {
        UTF8Text.append(text, to: &bytes)
    }

    /// RFC 9110's reason phrases, for every status Shade sends and those next to them.
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}

/// ASCII-only helpers: HTTP syntax is ASCII, and Foundation's Unicode-aware case folding is slower and wrong here.
enum ASCII {
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    static func equalIgnoringCase(_ a: Substring, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    /// The same on bytes, against lowercase ASCII written in the code (no string made).
    static func equalIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        for k in 0..<bytes.count where lower(bytes[k]) != lowercase.utf8Start[k] { return false }
        return true
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.utf8.first, isSpace(first) { text = text.dropFirst() }
        while let last = text.utf8.last, isSpace(last) { text = text.dropLast() }
        return text
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// `isTokenChar` as two bitmaps of the ASCII range, one test a byte: header names and methods
    /// are read with it for every request. ASCIITests holds it to `isTokenChar` for every byte.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        // Bits 0–63: ! # $ % & ' * + - . and 0–9; bits 64–127: A–Z ^ _ ` a–z | ~.
        let low: UInt64 = 0x03FF_6CFA_0000_0000, high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        return byte < 64 ? (low >> byte) & 1 == 1 : byte < 128 && (high >> (byte - 64)) & 1 == 1
    }

    /// Whether `bytes` hold no control character but HT (nor DEL): what a field value may hold.
    /// Printable ASCII words are passed eight bytes at a time; a test holds it to the bytewise rule.
    static func isFieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = UTF8Text.printableASCIIWords(bytes)
        while index < bytes.count {
            let byte = bytes[index]
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return false }
            index += 1
        }
        return true
    }

    /// RFC 9110 `tchar`: the characters of a method or header name.
    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }
}

/// Byte counts in messages: "1048576 bytes (1 MiB)" says both the exact limit and its everyday name.
enum ByteCount {
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes) bytes (\(bytes >> 20) MiB)" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes) bytes (\(bytes >> 10) KiB)" }
        return "\(bytes) bytes"
    }
}
