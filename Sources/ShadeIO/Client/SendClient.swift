// `shade send`: a blocking client for a running Shade, over its unix socket or loopback port.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

public struct SendError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One connection to a Shade. Every call blocks for at most `timeoutMillis` without progress.
public final class SendClient {
    public let endpoint: Endpoint
    public let timeoutMillis: Int64
    private var fd: Int32
    /// Bytes received and not yet returned.
    private var received: [UInt8] = []
    private var receivedStart = 0
    private var peerClosed = false
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    public init(connectingTo endpoint: Endpoint, timeoutMillis: Int64 = 5_000) throws(SendError) {
        self.endpoint = endpoint
        self.timeoutMillis = timeoutMillis
        fd = -1
        Descriptor.ignoreSIGPIPE()
        let family: Int32 = switch endpoint {
        case .unix: AF_UNIX
        case .tcp(let host, _): host.contains(":") ? AF_INET6 : AF_INET
        }
        if case .unix(let path) = endpoint { try Self.checkSocketFile(path) }
        let socketFD = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw SendError("cannot create a socket: \(Self.errnoText())") }
        fd = socketFD
        Descriptor.makeNonblocking(fd)
        let limit = deadline()
        var result: Int32
        while true {
            do {
                result = try SocketAddress.with(endpoint) { connect(socketFD, $0, $1) }
            } catch {
                throw SendError(error.message)
            }
            // A unix socket answers EAGAIN while the server's accept backlog is full: try again shortly.
            guard result != 0, errno == EAGAIN, case .unix = endpoint else { break }
            guard SystemClock().nowMillis() < limit else {
                throw SendError("could not connect to \(endpoint) within \(Self.seconds(timeoutMillis)) — is Shade busy or stopped?")
            }
            usleep(5_000)
        }
        if result != 0 {
            if errno != EINPROGRESS { throw connectError(errno) }
            try wait(for: Int16(POLLOUT), deadline: limit, doing: "connect to")
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            if code != 0 { throw connectError(code) }
        }
        if case .unix(let path) = endpoint { try checkPeer(path) }
    }

    // MARK: Whose socket

    /// A unix socket owned by another user is not this user's Shade: another user could have made it
    /// first (an attack showed it: `shade send` delivered to such a squatter and reported success).
    static func checkSocketFile(_ path: String, uid: uid_t = getuid()) throws(SendError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }   // absent: connect says no Shade is listening
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SendError("\(path) is not a socket — give the --socket a Shade listens on")
        }
        guard status.st_uid == uid else {
            throw SendError("\(path) belongs to user \(status.st_uid), not to you (\(uid)): another user may be listening in "
                + "Shade's place, so nothing was sent — start your own with `shade listen`, or give another --socket")
        }
    }

    /// The process at the other end must run as this user too (the socket file could be ours while
    /// another user's process listens on it): SO_PEERCRED, the credentials it listened with.
    private func checkPeer(_ path: String, uid: uid_t = getuid()) throws(SendError) {
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)   // struct ucred
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SendError("cannot tell who listens on \(path): \(Self.errnoText()) — nothing was sent")
        }
        guard credentials.uid == uid else {
            throw SendError("the process listening on \(path) (pid \(credentials.pid)) runs as user \(credentials.uid), not as you "
                + "(\(uid)), so nothing was sent — start your own Shade with `shade listen`, or give another --socket")
        }
    }

    deinit {
        close()
    }

    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    // MARK: NDJSON

    /// Sends one line and returns the reply line (without its newline).
    public func send(line: [UInt8]) throws(SendError) -> [UInt8] {
        try send(lines: [line])[0]
    }

    /// Sends every line and returns one reply per line, in order. Writing and reading interleave, so a
    /// long stream never deadlocks on full socket buffers.
    public func send(lines: [[UInt8]]) throws(SendError) -> [[UInt8]] {
        var outgoing: [UInt8] = []
        for line in lines {
            outgoing += line
            if line.last != 0x0A { outgoing.append(0x0A) }
        }
        var replies: [[UInt8]] = []
        replies.reserveCapacity(lines.count)
        var sent = 0
        var limit = deadline()
        while replies.count < lines.count {
            while let reply = takeLine() {
                replies.append(reply)
                limit = deadline()
            }
            if replies.count == lines.count { break }
            if peerClosed {
                throw SendError("\(endpoint) closed the connection after \(replies.count) of \(lines.count) replies")
            }
            let events = Int16(POLLIN) | (sent < outgoing.count ? Int16(POLLOUT) : 0)
            let ready = try wait(for: events, deadline: limit, doing: "get a reply from")
            if ready & Int16(POLLOUT) != 0 && sent < outgoing.count {
                let count = outgoing.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                if count > 0 {
                    sent += count
                    limit = deadline()
                } else if count < 0 && errno != EAGAIN && errno != EINTR {
                    throw SendError("cannot send to \(endpoint): \(Self.errnoText())")
                }
            }
            if ready & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                if try receiveAvailable() { limit = deadline() }
            }
        }
        return replies
    }

    // MARK: HTTP

    /// One HTTP request on this connection (kept alive for the next); `Host` and `Content-Length` are
    /// added, and `Content-Type: application/json` when a body is sent without one.
    public func request(method: String = "POST", path: String, headers: HTTPHeaders = HTTPHeaders(),
                        body: [UInt8] = []) throws(SendError) -> HTTPResponse {
        var headers = headers
        if !headers.contains("Host") { headers.add("Host", "localhost") }
        if !body.isEmpty && !headers.contains("Content-Type") { headers.add("Content-Type", "application/json") }
        headers.set("Content-Length", String(body.count))
        var head = "\(method) \(path) HTTP/1.1\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        head += "\r\n"
        try write(Array(head.utf8) + body)
        return try readResponse(toHEAD: method == "HEAD")
    }

    public func post(path: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]) throws(SendError) -> HTTPResponse {
        try request(method: "POST", path: path, headers: headers, body: body)
    }

    // MARK: Raw bytes

    /// Writes all of `bytes` (blocking up to the timeout).
    public func write(_ bytes: [UInt8]) throws(SendError) {
        var sent = 0
        var limit = deadline()
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
                limit = deadline()
                continue
            }
            if count < 0 && errno == EINTR { continue }
            guard count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else {
                throw SendError("cannot send to \(endpoint): \(Self.errnoText())")
            }
            try wait(for: Int16(POLLOUT), deadline: limit, doing: "send to")
        }
    }

    /// Stops sending (the server sees the end of input) while replies can still be read.
    public func finishSending() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// The next line received (without its newline).
    public func readLine() throws(SendError) -> [UInt8] {
        let limit = deadline()
        while true {
            if let line = takeLine() { return line }
            if peerClosed { throw SendError("\(endpoint) closed the connection without a reply") }
            try wait(for: Int16(POLLIN), deadline: limit, doing: "get a reply from")
            _ = try receiveAvailable()
        }
    }

    /// Everything until the server closes the connection.
    public func readToEnd() throws(SendError) -> [UInt8] {
        var limit = deadline()
        while !peerClosed {
            try wait(for: Int16(POLLIN), deadline: limit, doing: "read from")
            if try receiveAvailable() { limit = deadline() }
        }
        defer { received = []; receivedStart = 0 }
        return Array(received[receivedStart...])
    }

    // MARK: Internals

    /// Reads one HTTP response (after `write` of a hand-made request); interim 1xx responses are skipped.
    public func readResponse(toHEAD: Bool = false) throws(SendError) -> HTTPResponse {
        while true {
            let head = try readHead()
            // Split on bytes: to Swift's String, "\r\n" is one Character and never equals "\n".
            var lines = head.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> Substring in
                Substring(line.last == 0x0D ? line.dropLast() : line)
            }
            let statusLine = lines.removeFirst()
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
                throw SendError("\(endpoint) did not answer in HTTP: \"\(statusLine.prefix(80))\"")
            }
            var headers = HTTPHeaders()
            for line in lines where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers.add(String(line[..<colon]), String(ASCII.trimmed(line[line.index(after: colon)...])))
            }
            if (100..<200).contains(status) { continue }   // `100 Continue` before the real answer
            let body: [UInt8]
            if toHEAD || status == 204 || status == 304 {
                body = []
            } else if let lengthText = headers["Content-Length"], let length = Int(lengthText) {
                body = try readBytes(length)
            } else {
                body = try readToEnd()
            }
            return HTTPResponse(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: body)
        }
    }

    private func readHead() throws(SendError) -> String {
        let limit = deadline()
        while true {
            let window = received[receivedStart...]
            if let end = Self.headEnd(window) {
                let head = String(decoding: window[receivedStart..<end.head], as: UTF8.self)
                receivedStart = end.body
                return head
            }
            if peerClosed { throw SendError("\(endpoint) closed the connection without an HTTP reply") }
            try wait(for: Int16(POLLIN), deadline: limit, doing: "get a reply from")
            _ = try receiveAvailable()
        }
    }

    private static func headEnd(_ bytes: ArraySlice<UInt8>) -> (head: Int, body: Int)? {
        var index = bytes.startIndex
        while let newline = bytes[index...].firstIndex(of: 0x0A) {
            let next = newline + 1
            if next < bytes.endIndex && bytes[next] == 0x0A { return (newline, next + 1) }
            if next + 1 < bytes.endIndex && bytes[next] == 0x0D && bytes[next + 1] == 0x0A {
                return (newline > bytes.startIndex && bytes[newline - 1] == 0x0D ? newline - 1 : newline, next + 2)
            }
            index = next
        }
        return nil
    }

    private func readBytes(_ count: Int) throws(SendError) -> [UInt8] {
        var limit = deadline()
        while received.count - receivedStart < count {
            if peerClosed { throw SendError("\(endpoint) closed the connection in the middle of a reply") }
            try wait(for: Int16(POLLIN), deadline: limit, doing: "read a reply from")
            if try receiveAvailable() { limit = deadline() }
        }
        let bytes = Array(received[receivedStart..<receivedStart + count])
        receivedStart += count
        return bytes
    }

    private func takeLine() -> [UInt8]? {
        guard let newline = received[receivedStart...].firstIndex(of: 0x0A) else { return nil }
        var end = newline
        if end > receivedStart && received[end - 1] == 0x0D { end -= 1 }
        let line = Array(received[receivedStart..<end])
        receivedStart = newline + 1
        if receivedStart == received.count {
            received.removeAll(keepingCapacity: true)
            receivedStart = 0
        }
        return line
    }

    /// Reads what is available now. Returns whether anything arrived.
    private func receiveAvailable() throws(SendError) -> Bool {
        var any = false
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
                any = true
                continue
            }
            if count == 0 {
                peerClosed = true
                return true
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return any }
            if errno == ECONNRESET {
                peerClosed = true
                return true
            }
            throw SendError("cannot read from \(endpoint): \(Self.errnoText())")
        }
    }

    @discardableResult
    private func wait(for events: Int16, deadline: Int64, doing what: String) throws(SendError) -> Int16 {
        while true {
            let remaining = deadline - SystemClock().nowMillis()
            guard remaining > 0 else {
                throw SendError("could not \(what) \(endpoint) within \(Self.seconds(timeoutMillis)) — is Shade busy or stopped?")
            }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: remaining))
            if ready > 0 { return entry.revents }
            if ready < 0 && errno != EINTR { throw SendError("poll failed: \(Self.errnoText())") }
        }
    }

    private func deadline() -> Int64 {
        SystemClock().nowMillis() + timeoutMillis
    }

    private func connectError(_ code: Int32) -> SendError {
        switch (endpoint, code) {
        case (.unix(let path), ENOENT), (.unix(let path), ECONNREFUSED):
            SendError("no Shade is listening on \(path) — start one with `shade listen`")
        case (.tcp(_, let port), ECONNREFUSED):
            SendError("no Shade is listening on \(endpoint) — start one with `shade listen --port \(port)`")
        default:
            SendError("cannot connect to \(endpoint): \(String(cString: strerror(code)))")
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }

    private static func seconds(_ millis: Int64) -> String {
        millis % 1000 == 0 ? "\(millis / 1000) s" : "\(millis) ms"
    }
}
