// The single-threaded poll() loop: listeners, client connections, and the application's own
// descriptors (the terminal) and timers (frames, replay), all on one thread with no locks.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

public final class PollLoop {
    public struct Configuration: Sendable {
        /// Connections served at once; one more is accepted, answered 503 and closed.
        public var maxConnections = 256
        /// An HTTP connection (or one that has not said which protocol yet) quiet this long is closed;
        /// one in the middle of a request gets 408 first.
        public var idleTimeoutMillis: Int64 = 30_000
        /// For NDJSON connections; nil: never, since a push stream may be quiet for minutes.
        public var ndjsonIdleTimeoutMillis: Int64?
        public var httpLimits = HTTPLimits()
        public var maxLineBytes = 1 << 20
        /// A socket client may close right after its last line without a newline: take that line.
        public var unterminatedLastLine = UnterminatedLastLine.accepted
        /// After the last reply on a closing connection, how long unread input is drained before closing.
        public var lingerMillis: Int64 = 2_000
        /// Replies queued for a client that does not read; past this, its input is left unread.
        public var maxQueuedOutputBytes = 4 << 20

        public init() {}
    }

    public struct WatchToken: Hashable, Sendable {
        let id: Int
    }

    public struct TimerToken: Hashable, Sendable {
        let id: Int
    }

    public let configuration: Configuration
    public private(set) var listeners: [Listener] = []
    private let handler: any ConnectionHandler
    private let clock: any Clock
    private var connections: [Int: Connection] = [:]
    private var watches: [Int: Watch] = [:]
    private var timers: [Int: Timer] = [:]
    private var nextToken = 1
    private var nextConnectionID = 1
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    private var isShutDown = false

    private struct Watch {
        let fd: Int32
        let events: Int16
        let callback: (Int16) -> Void
    }

    private struct Timer {
        var deadline: Int64
        let interval: Int64?
        let action: () -> Void
    }

    private enum Target {
        case listener(Listener)
        case connection(Int)
        case watch(Int)
    }

    /// The loop keeps a strong reference to `handler`.
    public init(handler: any ConnectionHandler, configuration: Configuration = Configuration(),
                clock: any Clock = SystemClock()) {
        self.handler = handler
        self.configuration = configuration
        self.clock = clock
        Descriptor.ignoreSIGPIPE()
    }

    deinit {
        shutdown()
    }

    /// Takes ownership of `listener`: it is closed (and its socket file removed) by `shutdown()`.
    public func add(_ listener: Listener) {
        listeners.append(listener)
    }

    public var connectionCount: Int { connections.count }

    /// Calls `callback` with the returned events whenever `fd` is ready for `events` (POLLIN by default).
    /// The descriptor stays the application's: the loop never reads, writes or closes it.
    public func watch(_ fd: Int32, events: Int16 = Int16(POLLIN), _ callback: @escaping (Int16) -> Void) -> WatchToken {
        let id = takeToken()
        watches[id] = Watch(fd: fd, events: events, callback: callback)
        return WatchToken(id: id)
    }

    public func unwatch(_ token: WatchToken) {
        watches[token.id] = nil
    }

    /// Runs `action` once after `delay` ms, or every `interval` ms from then on. A repeating timer that
    /// falls behind skips the missed runs instead of firing them in a burst.
    @discardableResult
    public func schedule(after delay: Int64, repeatingEvery interval: Int64? = nil,
                         _ action: @escaping () -> Void) -> TimerToken {
        let id = takeToken()
        timers[id] = Timer(deadline: clock.nowMillis() + max(0, delay), interval: interval.map { max(1, $0) },
                           action: action)
        return TimerToken(id: id)
    }

    public func cancel(_ token: TimerToken) {
        timers[token.id] = nil
    }

    /// Waits up to `timeout` ms (nil: until something happens) for traffic, watched descriptors and
    /// timers, handles everything ready, and returns how many events it handled. A signal cuts the wait short.
    @discardableResult
    public func runOnce(timeout: Int64?) -> Int {
        guard !isShutDown else { return 0 }
        let now = clock.nowMillis()
        var wait = timeout.map { max(0, $0) } ?? -1
        for deadline in deadlines() {
            let untilDeadline = max(0, deadline - now)
            wait = wait < 0 ? untilDeadline : min(wait, untilDeadline)
        }

        var fds: [pollfd] = []
        var targets: [Target] = []
        for listener in listeners {
            fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
            targets.append(.listener(listener))
        }
        for (id, connection) in connections {
            var events: Int16 = 0
            if !connection.inputEnded && connection.pendingOutput < configuration.maxQueuedOutputBytes {
                events |= Int16(POLLIN)
            }
            if connection.pendingOutput > 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
            targets.append(.connection(id))
        }
        for (id, watch) in watches {
            fds.append(pollfd(fd: watch.fd, events: watch.events, revents: 0))
            targets.append(.watch(id))
        }

        let ready = poll(&fds, nfds_t(fds.count), Int32(clamping: wait))
        var handled = 0
        if ready > 0 {
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                handled += 1
                switch targets[index] {
                case .listener(let listener):
                    acceptAll(on: listener)
                case .connection(let id):
                    // An earlier callback in this round may have closed it.
                    guard let connection = connections[id] else { continue }
                    service(connection, revents: entry.revents)
                case .watch(let id):
                    guard let watch = watches[id] else { continue }
                    watch.callback(entry.revents)
                }
            }
        }
        handled += fireTimers()
        expireIdleConnections()
        return handled
    }

    /// Runs until `done()` is true or `shutdown()` is called. `done` is checked after every round and at
    /// least every `checkEvery` ms, so a flag set by a signal handler or another thread is seen promptly.
    public func run(until done: () -> Bool, checkEvery: Int64 = 100) {
        while !isShutDown && !done() {
            runOnce(timeout: checkEvery)
        }
    }

    /// Closes every connection and listener (removing the socket file) and forgets watches and timers.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        let now = clock.nowMillis()
        for connection in connections.values {
            _ = connection.flush(now: now)   // best effort: a last reply already produced goes out
            Glibc.close(connection.fd)
        }
        connections = [:]
        for listener in listeners { listener.close() }
        listeners = []
        watches = [:]
        timers = [:]
    }

    // MARK: Connections

    private func acceptAll(on listener: Listener) {
        // Bounded, so a connection storm cannot starve the other descriptors.
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener.fd, $0, &length) }
            }
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            Descriptor.makeNonblocking(fd)
            if connections.count >= configuration.maxConnections {
                refuse(fd)
                continue
            }
            let id = nextConnectionID
            nextConnectionID += 1
            let transport: ConnectionInfo.Transport = switch listener.endpoint {
            case .unix: .unix
            case .tcp: .tcp(peer: SocketAddress.describe(storage))
            }
            let framer = LineFramer(maxLineBytes: configuration.maxLineBytes,
                                    unterminatedLastLine: configuration.unterminatedLastLine)
            connections[id] = Connection(fd: fd, info: ConnectionInfo(id: id, transport: transport), now: clock.nowMillis(),
                                         http: HTTPRequestParser(limits: configuration.httpLimits), lines: framer)
        }
    }

    /// Over the connection limit: answer 503 without reading the request (best effort) and close.
    private func refuse(_ fd: Int32) {
        let reply = HTTPResponse.error(status: 503, "too many connections: Shade serves at most "
            + "\(configuration.maxConnections) at once; retry when one has closed").serialized(keepAlive: false)
        _ = reply.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.shutdown(fd, Int32(SHUT_WR))
        // Drop what the client already sent, so the close does not turn into a reset that discards the reply.
        var scratch = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &scratch, scratch.count, 0) > 0 {}
        Glibc.close(fd)
    }

    private func service(_ connection: Connection, revents: Int16) {
        if revents & Int16(POLLNVAL) != 0 {
            close(connection)
            return
        }
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            guard readAvailable(connection) else { return }
        }
        pump(connection)
    }

    /// Reads what is there (bounded per round). Returns false if the connection was closed.
    private func readAvailable(_ connection: Connection) -> Bool {
        for _ in 0..<16 {
            let count = readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                connection.lastActivity = clock.nowMillis()
                if connection.lingerDeadline != nil { continue }   // closing: input is dropped
                receive(readBuffer[0..<count], on: connection)
                if connection.closeWhenFlushed || connection.pendingOutput >= configuration.maxQueuedOutputBytes { break }
                continue
            }
            if count == 0 {
                connection.inputEnded = true
                if connection.lingerDeadline != nil || connection.mode == .undecided {
                    close(connection)
                    return false
                }
                if connection.mode == .ndjson { connection.lines.finish() }
                break
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { break }
            close(connection)   // ECONNRESET and the like: the client is gone
            return false
        }
        return true
    }

    private func receive(_ bytes: ArraySlice<UInt8>, on connection: Connection) {
        switch connection.mode {
        case .http:
            connection.http.append(bytes)
        case .ndjson:
            connection.lines.append(bytes)
        case .undecided:
            connection.sniffed.append(contentsOf: bytes)
            // The first byte that is not whitespace decides: `{` or `[` starts NDJSON, anything else is HTTP.
            guard let first = connection.sniffed.first(where: { !ASCII.isWhitespace($0) }) else {
                if connection.sniffed.count > 4096 { connection.closeWhenFlushed = true }
                return
            }
            connection.mode = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .ndjson : .http
            let sniffed = connection.sniffed
            connection.sniffed = []
            receive(sniffed[...], on: connection)
        }
    }

    /// Turns buffered input into replies and writes them, until input, the socket or the output limit stops it.
    private func pump(_ connection: Connection) {
        while true {
            if !connection.closeWhenFlushed && connection.lingerDeadline == nil {
                let finished = process(connection)
                if finished && connection.inputEnded { connection.closeWhenFlushed = true }
            }
            if connection.pendingOutput > 0 {
                switch connection.flush(now: clock.nowMillis()) {
                case .failed:
                    close(connection)
                    return
                case .wouldBlock:
                    return
                case .drained:
                    continue   // room again: there may be more buffered input to answer
                }
            }
            break
        }
        guard connection.closeWhenFlushed else { return }
        if connection.inputEnded {
            close(connection)
        } else if connection.lingerDeadline == nil {
            Glibc.shutdown(connection.fd, Int32(SHUT_WR))
            connection.lingerDeadline = clock.nowMillis() + configuration.lingerMillis
        }
    }

    /// Answers complete requests or lines. Returns true when all buffered input is used up, false when
    /// it stopped at the output limit.
    private func process(_ connection: Connection) -> Bool {
        switch connection.mode {
        case .undecided:
            return true
        case .http:
            while !connection.closeWhenFlushed {
                if connection.pendingOutput >= configuration.maxQueuedOutputBytes { return false }
                do {
                    guard let event = try connection.http.next() else { return true }
                    switch event {
                    case .continueRequested:
                        connection.enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    case .request(let request):
                        let response = handler.respond(to: request, from: connection.info)
                        let keepAlive = request.keepAlive && !response.headers.lists("Connection", token: "close")
                        connection.enqueue(response.serialized(keepAlive: keepAlive, version: request.version,
                                                               omitBody: request.method == "HEAD"))
                        if !keepAlive { connection.closeWhenFlushed = true }
                    }
                } catch {
                    connection.enqueue(handler.respond(toRefused: error, from: connection.info).serialized(keepAlive: false))
                    connection.closeWhenFlushed = true
                }
            }
            return true
        case .ndjson:
            while connection.pendingOutput < configuration.maxQueuedOutputBytes {
                guard let line = connection.lines.next() else { return true }
                var reply = switch line {
                case .line(let bytes, let number):
                    handler.respond(toLine: bytes, lineNumber: number, from: connection.info)
                case .tooLong, .truncated:
                    handler.respond(toRefusedLine: line, from: connection.info)
                }
                if reply.last != 0x0A { reply.append(0x0A) }
                connection.enqueue(reply)
                if handler.closesAfterReply(on: connection.info) {
                    connection.closeWhenFlushed = true
                    return true
                }
            }
            return false
        }
    }

    private func close(_ connection: Connection) {
        Glibc.close(connection.fd)
        connections[connection.info.id] = nil
        handler.closed(connection.info)
    }

    private func expireIdleConnections() {
        let now = clock.nowMillis()
        for connection in Array(connections.values) {
            if let linger = connection.lingerDeadline {
                if now >= linger { close(connection) }
                continue
            }
            guard let timeout = idleTimeout(of: connection), now - connection.lastActivity >= timeout else { continue }
            if connection.mode == .http && connection.http.hasPartialRequest
                && !connection.closeWhenFlushed && connection.pendingOutput == 0 {
                let error = HTTPRequestError.timedOut(afterMillis: timeout)
                connection.enqueue(handler.respond(toRefused: error, from: connection.info).serialized(keepAlive: false))
                connection.closeWhenFlushed = true
                connection.lastActivity = now
                pump(connection)
            } else {
                close(connection)
            }
        }
    }

    private func idleTimeout(of connection: Connection) -> Int64? {
        // A client that stops reading its replies is dropped whatever the protocol.
        if connection.mode == .ndjson && connection.pendingOutput == 0 { return configuration.ndjsonIdleTimeoutMillis }
        return configuration.idleTimeoutMillis
    }

    private func deadlines() -> [Int64] {
        var result = timers.values.map(\.deadline)
        for connection in connections.values {
            if let linger = connection.lingerDeadline {
                result.append(linger)
            } else if let timeout = idleTimeout(of: connection) {
                result.append(connection.lastActivity + timeout)
            }
        }
        return result
    }

    private func fireTimers() -> Int {
        let now = clock.nowMillis()
        let due = timers.filter { $0.value.deadline <= now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
        for (id, _) in due {
            guard let timer = timers[id] else { continue }   // cancelled by an earlier action
            if let interval = timer.interval {
                var next = timer.deadline + interval
                if next <= now { next = now + interval }
                timers[id]?.deadline = next
            } else {
                timers[id] = nil
            }
            timer.action()
        }
        return due.count
    }

    private func takeToken() -> Int {
        defer { nextToken += 1 }
        return nextToken
    }
}
