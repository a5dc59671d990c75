// Incremental HTTP/1.1 request parser: bytes arrive in any chunking, requests come out whole.
import ShadeCore
#if canImport(Glibc)
import Glibc
#endif

public struct HTTPLimits: Equatable, Sendable {
    /// Largest accepted body; larger ones get 413 before the body is read.
    public var maxBodyBytes: Int
    /// Largest request line plus headers (and, separately, trailers); larger get 431.
    public var maxHeaderBytes: Int

    public init(maxBodyBytes: Int = 1 << 20, maxHeaderBytes: Int = 16 << 10) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
    }
}

/// Why a request could not be taken. The server answers with `response` and closes the connection,
/// because after a framing error it cannot tell where the next request would start.
public enum HTTPRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case bodyTooLarge(length: Int?, limit: Int)
    case headersTooLarge(limit: Int)
    case unsupportedTransferEncoding(String)
    case expectationFailed(String)
    case versionNotSupported(String)
    /// Produced by the loop, not the parser: a request was begun and not finished in time.
    case timedOut(afterMillis: Int64)

    public var status: Int {
        switch self {
        case .malformed: 400
        case .timedOut: 408
        case .bodyTooLarge: 413
        case .expectationFailed: 417
        case .headersTooLarge: 431
        case .unsupportedTransferEncoding: 501
        case .versionNotSupported: 505
        }
    }

    public var description: String {
        switch self {
        case .malformed(let detail):
            "malformed request: \(detail)"
        case .bodyTooLarge(let length?, let limit):
            "request body is \(length) bytes; the limit is \(ByteCount.describe(limit))"
        case .bodyTooLarge(nil, let limit):
            "request body is over the limit of \(ByteCount.describe(limit))"
        case .headersTooLarge(let limit):
            "request line and headers are over the limit of \(ByteCount.describe(limit))"
        case .unsupportedTransferEncoding(let coding):
            "unsupported Transfer-Encoding \"\(coding)\": only chunked is accepted"
        case .expectationFailed(let expectation):
            "unsupported Expect \"\(expectation)\": only 100-continue is accepted"
        case .versionNotSupported(let version):
            "unsupported protocol version \"\(version)\": use HTTP/1.1 or HTTP/1.0"
        case .timedOut(let millis):
            "request not completed within \(Self.seconds(millis)): a whole request must arrive within that time"
        }
    }

    /// The reply: the status, and `{"error": "…"}` saying what was wrong and the limit.
    public var response: HTTPResponse {
        .error(status: status, description)
    }

    private static func seconds(_ millis: Int64) -> String {
        millis % 1000 == 0 ? "\(millis / 1000) s" : "\(millis) ms"
    }
}

public enum HTTPParseEvent: Equatable, Sendable {
    /// The client sent `Expect: 100-continue` and waits for `100 Continue` before sending the body.
    case continueRequested
    case request(HTTPRequest)
}

public struct HTTPRequestParser {
    public let limits: HTTPLimits

    private var buffer: [UInt8] = []
    /// Bytes before `start` are consumed; the buffer is compacted now and then, not on every request.
    private var start = 0
    private var state: State = .head(scanned: 0)
    /// The request being read. Kept outside `state` so appending to its body never copies it.
    private var pending: HTTPRequest?
    private var failure: HTTPRequestError?
    /// The last request's target, as bytes and text: a client posts to one path again and again.
    private var lastTarget = RepeatedText()

    /// Offsets are relative to `start`, so compacting the buffer never invalidates them.
    private enum State {
        /// Looking for the blank line that ends the head; `scanned` bytes of it hold complete lines.
        case head(scanned: Int)
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(scanned: Int)
    }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet part of a returned request.
    public var bufferedByteCount: Int { buffer.count - start }

    /// The bytes after the last request, handed on when the connection stops being HTTP/1.1 (a
    /// CONNECT tunnel begins with them).
    public mutating func takeBuffered() -> [UInt8] {
        defer {
            buffer = []
            start = 0
        }
        return Array(buffer[start...])
    }

    /// True when a request has begun (anything but blank lines) and is not complete: an idle
    /// connection in this state gets 408, an idle one between requests is just closed.
    public var hasPartialRequest: Bool {
        if case .head = state {
            return buffer[start...].contains { !ASCII.isWhitespace($0) }
        }
        return true
    }

    /// The next event, or nil when more bytes are needed. After an error every call throws it again.
    public mutating func next() throws(HTTPRequestError) -> HTTPParseEvent? {
        if let failure { throw failure }
        do {
            return try step()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func step() throws(HTTPRequestError) -> HTTPParseEvent? {
        while true {
            switch state {
            case .head(let scanned):
                guard let wantsContinue = try parseHead(scanned: scanned) else { return nil }
                if case .head = state { return .request(finish()) }
                if wantsContinue { return .continueRequested }

            case .body(let remaining):
                let available = min(remaining, buffer.count - start)
                pending!.body.append(contentsOf: buffer[start..<start + available])
                consume(available)
                if available < remaining {
                    state = .body(remaining: remaining - available)
                    return nil
                }
                state = .head(scanned: 0)
                return .request(finish())

            case .chunkSize:
                guard let line = try takeLine(limit: 4096, tooLong: .malformed("chunk size line over 4096 bytes")) else {
                    return nil
                }
                let size = try Self.chunkSize(line)
                if size == 0 {
                    state = .trailers(scanned: 0)
                    continue
                }
                if size > limits.maxBodyBytes - pending!.body.count {
                    throw .bodyTooLarge(length: nil, limit: limits.maxBodyBytes)
                }
                pending!.body.reserveCapacity(pending!.body.count + size)
                state = .chunkData(remaining: size)

            case .chunkData(let remaining):
                let available = min(remaining, buffer.count - start)
                pending!.body.append(contentsOf: buffer[start..<start + available])
                consume(available)
                if available < remaining {
                    state = .chunkData(remaining: remaining - available)
                    return nil
                }
                state = .chunkDataEnd

            case .chunkDataEnd:
                guard let line = try takeLine(limit: 2, tooLong: .malformed("chunk data longer than its size")) else {
                    return nil
                }
                guard line.isEmpty else { throw .malformed("chunk data longer than its size") }
                state = .chunkSize

            case .trailers(let scanned):
                guard let (fields, _) = try takeFieldBlock(scanned: scanned, resume: { .trailers(scanned: $0) }) else {
                    return nil
                }
                pending!.trailers = fields
                state = .head(scanned: 0)
                return .request(finish())
            }
        }
    }

    /// The request read, moved out (a copy retained each of its strings and buffers).
    private mutating func finish() -> HTTPRequest {
        pending.take()!
    }

    // MARK: Head

    /// Parses the head once complete; returns whether to answer `100 Continue`, or nil for "need more".
    private mutating func parseHead(scanned: Int) throws(HTTPRequestError) -> Bool? {
        // RFC 9112 §2.2: ignore blank lines before a request line (some clients send CRLF after a body).
        if scanned == 0 {
            while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A {
                if buffer[start] == 0x0D {
                    guard start + 1 < buffer.count else { return nil }
                    guard buffer[start + 1] == 0x0A else { throw .malformed("bare CR before the request line") }
                }
                consume(buffer[start] == 0x0D ? 2 : 1)
            }
        }
        guard let (fields, requestLine) = try takeFieldBlock(scanned: scanned, resume: { .head(scanned: $0) },
                                                             wantsFirstLine: true) else {
            return nil
        }
        guard let requestLine else { throw .malformed("empty request line") }
        // Made where it is kept: a local request stored into `pending` was copied, each field retained.
        pending = try Self.parseRequestLine(requestLine, target: &lastTarget)
        pending!.headers = fields
        return try frameBody()
    }

    /// Reads field lines up to the blank line and consumes them. Returns nil (and stores
    /// `resume(scanned)`) when the block is incomplete.
    private mutating func takeFieldBlock(scanned: Int, resume: (Int) -> State,
                                         wantsFirstLine: Bool = false) throws(HTTPRequestError)
        -> (HTTPHeaders, ArraySlice<UInt8>?)? {
        var lineStart = start + scanned
        while let newline = firstNewline(from: lineStart) {
            if newline - start > limits.maxHeaderBytes { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
            var lineEnd = newline
            if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd == lineStart && !(wantsFirstLine && lineStart == start) {
                let block = buffer[start..<lineStart]
                let parsed = try Self.parseFields(block, firstLineIsRequestLine: wantsFirstLine)
                consume(newline + 1 - start)
                return parsed
            }
            lineStart = newline + 1
        }
        if buffer.count - start > limits.maxHeaderBytes { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
        state = resume(lineStart - start)
        return nil
    }

    private static func parseFields(_ block: ArraySlice<UInt8>, firstLineIsRequestLine: Bool) throws(HTTPRequestError)
        -> (HTTPHeaders, ArraySlice<UInt8>?) {
        // Read in place through one pointer (slicing the array for each line and byte retained it and
        // checked its bounds every time), each field written straight into the headers' storage:
        // room for the block's bytes and two lengths a line, made once. This runs for every request.
        let read = block.withUnsafeBufferPointer { bytes -> Result<(HTTPHeaders, Range<Int>?), HTTPRequestError> in
            var lines = 0, from = 0
            while let newline = firstNewline(in: bytes, from: from) {
                lines += 1
                from = newline + 1
            }
            var requestLine: Range<Int>?
            var failure: HTTPRequestError?
            var fields = 0
            let storage = [UInt8](unsafeUninitializedCapacity: bytes.count + HTTPHeaders.lengthBytes * lines) { out, written in
                var lineStart = 0
                var isFirst = firstLineIsRequestLine
                while lineStart < bytes.count {
                    let newline = firstNewline(in: bytes, from: lineStart) ?? bytes.count
                    var lineEnd = newline
                    if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                    let range = lineStart..<lineEnd
                    lineStart = newline + 1
                    if isFirst {
                        requestLine = range
                        isFirst = false
                        continue
                    }
                    let line = UnsafeBufferPointer(rebasing: bytes[range])
                    do throws(HTTPRequestError) {
                        let (name, value) = try fieldParts(line)
                        written = HTTPHeaders.write(name: UnsafeBufferPointer(rebasing: line[name]),
                                                    value: UnsafeBufferPointer(rebasing: line[value]), into: out, at: written)
                        fields += 1
                    } catch {
                        failure = error
                        return
                    }
                }
            }
            if let failure { return .failure(failure) }
            return .success((HTTPHeaders(storage: storage, count: fields), requestLine))
        }
        let (fields, requestLine) = try read.get()
        let base = block.startIndex
        return (fields, requestLine.map { block[(base + $0.lowerBound)..<(base + $0.upperBound)] })
    }

    /// Where the next line feed is at or after `index`, if there is one.
    private static func firstNewline(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        guard index < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + index, 0x0A, bytes.count - index) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// One `name: value` line, checked: where its name and (trimmed) value are. A well-formed line is
    /// read in one pass: token bytes up to the colon, then no control byte but HT. Anything else is
    /// read again by `checkedFieldParts`, which finds the first fault and says what it is.
    private static func fieldParts(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPRequestError) -> (name: Range<Int>, value: Range<Int>) {
        let count = line.count
        var colon = 0
        while colon < count && ASCII.isTokenByte(line[colon]) { colon += 1 }
        guard colon > 0, colon < count, line[colon] == UInt8(ascii: ":") else { return try checkedFieldParts(line) }
        var low = colon + 1, high = count
        if !ASCII.isFieldValue(UnsafeBufferPointer(rebasing: line[low..<high])) { return try checkedFieldParts(line) }
        while low < high && ASCII.isSpace(line[low]) { low += 1 }
        while high > low && ASCII.isSpace(line[high - 1]) { high -= 1 }
        return (0..<colon, low..<high)
    }

    /// The field reading that names a malformed line's first fault (and reads a line that has none).
    private static func checkedFieldParts(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPRequestError) -> (name: Range<Int>, value: Range<Int>) {
        guard let first = line.first else { throw .malformed("empty header line") }
        if ASCII.isSpace(first) { throw .malformed("header line folded onto the next line (obsolete)") }
        var colon = 0
        while colon < line.count && line[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < line.count else {
            throw .malformed("header line without a colon: \(printable(ArraySlice(line)))")
        }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        guard !name.isEmpty, name.allSatisfy(ASCII.isTokenChar) else {
            throw .malformed("invalid header name \(printable(ArraySlice(name)))")
        }
        var low = colon + 1, high = line.count
        while low < high && ASCII.isSpace(line[low]) { low += 1 }
        while high > low && ASCII.isSpace(line[high - 1]) { high -= 1 }
        let value = UnsafeBufferPointer(rebasing: line[low..<high])
        if value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw .malformed("control character in header \(printable(ArraySlice(name)))")
        }
        return (0..<colon, low..<high)
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>, target lastTarget: inout RepeatedText) throws(HTTPRequestError) -> HTTPRequest {
        // What nearly every request line is: `METHOD SP TARGET SP HTTP/1.1`, read through one pointer
        // (the general reading below sliced the array for each part and compared through generics).
        let plain = line.withUnsafeBufferPointer { bytes -> HTTPRequest? in
            let count = bytes.count
            var first = 0
            while first < count && ASCII.isTokenByte(bytes[first]) { first += 1 }
            guard first > 0, first < count, bytes[first] == 0x20 else { return nil }
            var second = first + 1
            while second < count && bytes[second] > 0x20 && bytes[second] != 0x7F { second += 1 }
            guard second > first + 1, second + 9 == count, bytes[second] == 0x20 else { return nil }
            let v = second + 1
            guard bytes[v] == UInt8(ascii: "H"), bytes[v + 1] == UInt8(ascii: "T"), bytes[v + 2] == UInt8(ascii: "T"),
                  bytes[v + 3] == UInt8(ascii: "P"), bytes[v + 4] == UInt8(ascii: "/"), bytes[v + 5] == UInt8(ascii: "1"),
                  bytes[v + 6] == UInt8(ascii: "."), (0x30...0x39).contains(bytes[v + 7]) else { return nil }
            // The target as the last one's text when it is the same.
            return HTTPRequest(method: HTTPRequest.method(UnsafeBufferPointer(rebasing: bytes[..<first])),
                               target: lastTarget.text(of: UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])),
                               version: HTTPVersion(major: 1, minor: Int(bytes[v + 7] - 0x30)))
        }
        if let plain { return plain }
        // Exactly two spaces: METHOD SP TARGET SP VERSION; each fault named.
        let space = UInt8(ascii: " ")
        guard let first = line.firstIndex(of: space), let second = line[(first + 1)...].firstIndex(of: space),
              !line[(second + 1)...].contains(space) else {
            throw .malformed("request line is not \"METHOD TARGET HTTP/1.1\": \(printable(line))")
        }
        let method = line[..<first], target = line[(first + 1)..<second], version = line[(second + 1)...]
        guard !method.isEmpty, method.allSatisfy(ASCII.isTokenChar) else {
            throw .malformed("invalid method \(printable(method))")
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .malformed("invalid request target \(printable(target))")
        }
        let v = version.startIndex
        guard version.count == 8, version.starts(with: "HTTP/".utf8), version[v + 6] == UInt8(ascii: "."),
              (0x30...0x39).contains(version[v + 5]), (0x30...0x39).contains(version[v + 7]) else {
            throw .malformed("invalid protocol version \(printable(version))")
        }
        let parsed = HTTPVersion(major: Int(version[v + 5] - 0x30), minor: Int(version[v + 7] - 0x30))
        guard parsed.major == 1 else { throw .versionNotSupported(parsed.description) }
        return HTTPRequest(method: String(decoding: method, as: UTF8.self),
                           target: String(decoding: target, as: UTF8.self), version: parsed)
    }

    /// Chooses how the body of the `pending` request is delimited (RFC 9112 §6.3), enters that state,
    /// and says whether the client waits for `100 Continue`.
    private mutating func frameBody() throws(HTTPRequestError) -> Bool {
        let headers = pending!.headers
        var wantsContinue = false
        if let expectation = headers["Expect"] {
            guard ASCII.equalIgnoringCase(Substring(expectation), "100-continue") else {
                throw .expectationFailed(expectation)
            }
            // Only worth answering when the client is still holding the body back.
            wantsContinue = pending!.version == .http1_1 && start == buffer.count
        }

        // What nearly every request holds: one Content-Length of digits alone and no Transfer-Encoding,
        // read in one pass over the fields; anything else takes the general reading below.
        if let length = Self.plainContentLength(headers) {
            return try expectBody(length: length, wantsContinue: wantsContinue)
        }

        let codings = headers.values(for: "Transfer-Encoding")
            .flatMap { $0.split(separator: ",") }.map(ASCII.trimmed).filter { !$0.isEmpty }
        if !codings.isEmpty {
            if headers.contains("Content-Length") {
                // Both framings at once is the classic request-smuggling setup: refuse it.
                throw .malformed("both Content-Length and Transfer-Encoding")
            }
            guard codings.count == 1, ASCII.equalIgnoringCase(codings[0], "chunked") else {
                throw .unsupportedTransferEncoding(codings.joined(separator: ", "))
            }
            state = .chunkSize
            return wantsContinue
        }

        let lengths = headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }.map(ASCII.trimmed)
        guard let first = lengths.first else {
            state = .head(scanned: 0)
            return false
        }
        guard lengths.allSatisfy({ $0 == first }) else { throw .malformed("conflicting Content-Length values") }
        guard !first.isEmpty, first.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .malformed("invalid Content-Length \"\(first)\"")
        }
        guard first.utf8.count <= 15, let length = Int(first) else {
            throw .bodyTooLarge(length: nil, limit: limits.maxBodyBytes)
        }
        return try expectBody(length: length, wantsContinue: wantsContinue)
    }

    /// A body of `length` bytes follows (none for 0: the next request may start); over the limit is 413.
    private mutating func expectBody(length: Int, wantsContinue: Bool) throws(HTTPRequestError) -> Bool {
        if length > limits.maxBodyBytes { throw .bodyTooLarge(length: length, limit: limits.maxBodyBytes) }
        if length == 0 {
            state = .head(scanned: 0)
            return false
        }
        pending!.body.reserveCapacity(length)
        state = .body(remaining: length)
        return wantsContinue
    }

    /// The length of the one `Content-Length` of 1–15 digits, when there is no `Transfer-Encoding`;
    /// nil for every other framing (none, several, a list, spaces, chunked), which `frameBody` reads in full.
    static func plainContentLength(_ headers: HTTPHeaders) -> Int? {
        var length: Int?
        // nil goes on to the next field; .some(nil) stops: a framing this does not read.
        let stopped: Int?? = headers.first { name, value in
            if ASCII.equalIgnoringCase(name, "transfer-encoding") { return .some(nil) }
            guard ASCII.equalIgnoringCase(name, "content-length") else { return nil }
            guard length == nil, (1...15).contains(value.count), value.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return .some(nil)
            }
            length = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            return nil
        }
        return stopped == nil ? length : nil
    }

    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
        // `1a;name=value` — extensions after `;` are allowed and ignored.
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.reversed().drop(while: ASCII.isSpace).reversed()
        guard !digits.isEmpty else { throw .malformed("empty chunk size") }
        var size = 0
        for byte in digits {
            guard let value = ASCII.hexValue(byte) else { throw .malformed("invalid chunk size \(printable(line))") }
            guard size < 1 << 40 else { throw .malformed("chunk size out of range") }
            size = size << 4 | Int(value)
        }
        return size
    }

    // MARK: Buffer

    private func firstNewline(from index: Int) -> Int? {
        buffer.withUnsafeBufferPointer { Self.firstNewline(in: $0, from: index) }
    }

    /// One CRLF- (or LF-) terminated line, without its terminator.
    private mutating func takeLine(limit: Int, tooLong: HTTPRequestError) throws(HTTPRequestError) -> ArraySlice<UInt8>? {
        guard let newline = firstNewline(from: start) else {
            if buffer.count - start > limit + 1 { throw tooLong }
            return nil
        }
        var lineEnd = newline
        if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        if lineEnd - start > limit { throw tooLong }
        let line = buffer[start..<lineEnd]
        consume(newline + 1 - start)
        return line
    }

    private mutating func consume(_ count: Int) {
        start += count
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        } else if start >= 1 << 16 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        let shown = bytes.prefix(80).map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "?" }
        return "\"" + String(shown) + (bytes.count > 80 ? "…" : "") + "\""
    }
}
