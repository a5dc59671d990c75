// The single-threaded poll() loop: listeners, client connections (and the upstream sockets of relayed
// tunnels), and the application's own descriptors (the terminal) and timers (frames, replay), all on
// one thread with no locks.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ShadeCore

public final class PollLoop {
    public struct Configuration: Sendable {
        /// Connections served at once. One more first evicts the connection idle longest; when every
        /// one is busy, it is answered 503 and closed.
        public var maxConnections = 1024
        /// A connection with nothing in progress and no progress this long is closed (HTTP/2 says GOAWAY first).
        public var idleTimeoutMillis: Int64 = 30_000
        /// A request, NDJSON line or TLS handshake must come in whole within this time from its first
        /// byte, however the bytes trickle in; then 408 (HTTP/1.1), an error line (NDJSON), GOAWAY
        /// (HTTP/2), or a plain close (a handshake), and the connection closes.
        public var requestTimeoutMillis: Int64 = 10_000
        /// For NDJSON connections between lines; nil: never, since a push stream may be quiet for minutes.
        public var ndjsonIdleTimeoutMillis: Int64?
        /// For HTTP/2: push clients keep one connection open and reuse it, as they do with APNs, so a
        /// quiet one is told GOAWAY only after this long.
        public var http2IdleTimeoutMillis: Int64 = 300_000
        /// A relayed tunnel with no bytes either way this long is closed.
        public var tunnelIdleTimeoutMillis: Int64 = 300_000
        /// Which CONNECT hosts Shade serves itself, and whether it relays the others.
        public var proxy = ProxyPolicy()
        /// Where the local CA lives (made on the first TLS connection); nil: TLS connections are closed.
        public var certificateDirectory: String?
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
    /// Counts rounds, so work put off in one is resumed in the next and not twice in one.
    private var round = 0
    private var isShutDown = false
    private var tls: TLSServerContext?
    /// Made on the first relay to a host name.
    private var resolver: HostResolver?

    /// What went wrong with TLS (the CA could not be made or read), for the log and the header.
    public private(set) var tlsProblem: String?

    /// Counts of what the transport did, for the TUI header.
    public struct Stats: Equatable, Sendable {
        public var tlsHandshakes = 0
        public var failedHandshakes = 0
        public var interceptedTunnels = 0
        public var relayedTunnels = 0
        public var refusedTunnels = 0
    }

    public private(set) var stats = Stats()

    /// The loop's own timestamps of its rounds (CLOCK_MONOTONIC, microseconds; not the injectable
    /// `clock`, which counts milliseconds): when the last poll(2) was entered and returned, and when
    /// the one before returned. `--stats` measures key latency from them.
    public private(set) var pollEnteredMicros: Int64 = 0
    public private(set) var pollReturnedMicros: Int64 = 0
    public private(set) var previousPollReturnedMicros: Int64 = 0

    /// The earliest an event this round reports can have come: a poll that waited (a millisecond or
    /// more) was woken by it, so it came as poll returned; one that returned at once found it
    /// already there, so it came during the previous round's work, after that round's poll returned.
    public var readySinceMicros: Int64 {
        pollReturnedMicros - pollEnteredMicros >= 1_000 ? pollReturnedMicros : previousPollReturnedMicros
    }

    /// CLOCK_MONOTONIC in microseconds: the clock of the loop's timestamps.
    public static func monotonicMicros() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }

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
        /// The upstream socket of a relayed tunnel.
        case upstream(Int)
        /// Host-name lookups for relays have finished.
        case resolver
        case watch(Int)
    }

    /// The loop keeps a strong reference to `handler`.
    public init(handler: any ConnectionHandler, configuration: Configuration = Configuration(),
                clock: any Clock = SystemClock()) {
        self.handler = handler
        self.configuration = configuration
        self.clock = clock
        pollReturnedMicros = Self.monotonicMicros()
        (pollEnteredMicros, previousPollReturnedMicros) = (pollReturnedMicros, pollReturnedMicros)
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
        round += 1
        let now = clock.nowMillis()
        var wait = timeout.map { max(0, $0) } ?? -1
        for deadline in deadlines() {
            let untilDeadline = max(0, deadline - now)
            wait = wait < 0 ? untilDeadline : min(wait, untilDeadline)
        }
        // Answers put off in the last round go on in this one, after whatever else is ready now.
        let resumed = connections.values.filter(\.hasBufferedWork).map(\.info.id)
        if !resumed.isEmpty { wait = 0 }

        var fds: [pollfd] = []
        var targets: [Target] = []
        for listener in listeners {
            fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
            targets.append(.listener(listener))
        }
        let limit = configuration.maxQueuedOutputBytes
        for (id, connection) in connections {
            var events: Int16 = 0
            if !connection.inputEnded && !connection.hasBufferedWork && connection.pendingOutput < limit
                && (connection.relay?.pendingToUpstream ?? 0) < limit {
                events |= Int16(POLLIN)
            }
            if connection.pendingOutput > 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
            targets.append(.connection(id))
            if let relay = connection.relay, relay.phase != .resolving {
                var upstream: Int16 = 0
                if relay.phase == .connecting || relay.pendingToUpstream > 0 { upstream |= Int16(POLLOUT) }
                if relay.phase == .open && !relay.upstreamEnded && connection.pendingOutput < limit { upstream |= Int16(POLLIN) }
                fds.append(pollfd(fd: relay.fd, events: upstream, revents: 0))
                targets.append(.upstream(id))
            }
        }
        if let resolver {
            fds.append(pollfd(fd: resolver.readFD, events: Int16(POLLIN), revents: 0))
            targets.append(.resolver)
        }
        for (id, watch) in watches {
            fds.append(pollfd(fd: watch.fd, events: watch.events, revents: 0))
            targets.append(.watch(id))
        }

        pollEnteredMicros = Self.monotonicMicros()
        let ready = poll(&fds, nfds_t(fds.count), Int32(clamping: wait))
        previousPollReturnedMicros = pollReturnedMicros
        pollReturnedMicros = Self.monotonicMicros()
        var handled = 0
        if ready > 0 {
            // The round's replies are written once every ready connection has been read and answered:
            // a client with many connections (a pool, wrk's 16) is woken once a round, not once a
            // reply; each wake-up is an interrupt to the other core, a third of HTTP/1.1's CPU time.
            holdingReplies = true
            defer { writeHeldReplies() }
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                handled += 1
                switch targets[index] {
                case .listener(let listener):
                    acceptAll(on: listener)
                case .connection(let id):
                    // An earlier callback in this round may have closed it.
                    guard let connection = connections[id] else { continue }
                    service(connection, revents: entry.revents)
                case .upstream(let id):
                    guard let connection = connections[id] else { continue }
                    serviceUpstream(connection, revents: entry.revents)
                case .resolver:
                    for (id, result) in resolver?.takeFinished() ?? [] {
                        // The client may have gone meanwhile.
                        guard let connection = connections[id], let relay = connection.relay, relay.phase == .resolving else { continue }
                        connect(relay, result, for: connection)
                        pump(connection)
                    }
                case .watch(let id):
                    guard let watch = watches[id] else { continue }
                    watch.callback(entry.revents)
                }
            }
        }
        for id in resumed {
            guard let connection = connections[id], connection.hasBufferedWork, connection.pumpedRound < round else { continue }
            handled += 1
            pump(connection)
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
    /// HTTP/2 clients are told GOAWAY and TLS clients close_notify first, so they know it was on purpose.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        for connection in connections.values {
            sayGoodbye(connection)
            // What the client sent and Shade has not read would turn the close into a reset, which can
            // discard the GOAWAY or reply just written: read it (bounded) and drop it first.
            for _ in 0..<16 {
                let count = readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
                if count <= 0 { break }
            }
            Glibc.close(connection.fd)
            connection.relay = nil
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
                guard let oldest = evictionCandidate() else {
                    refuse(fd)
                    continue
                }
                sayGoodbye(oldest)
                close(oldest)
            }
            let id = nextConnectionID
            nextConnectionID += 1
            let transport: ConnectionInfo.Transport
            switch listener.endpoint {
            case .unix:
                transport = .unix
            case .tcp:
                transport = .tcp(peer: SocketAddress.describe(storage))
                // A reply often follows a TLS record or an HTTP/2 SETTINGS frame in another write: without
                // this, Nagle holds it until the client's delayed ACK, 40 ms later.
                var yes: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            }
            connections[id] = Connection(fd: fd, info: ConnectionInfo(id: id, transport: transport), now: clock.nowMillis())
        }
    }

    /// The connection to close so a new one can be served: the one idle longest (nothing half-received,
    /// nothing to send), else the one whose half-received request has been stalled longest (at least a
    /// second: it is only waiting for its deadline). nil: every connection is busy.
    private func evictionCandidate() -> Connection? {
        let now = clock.nowMillis()
        var idle: Connection?
        var stalled: Connection?
        for connection in connections.values where connection.pendingOutput == 0 && connection.lingerDeadline == nil {
            if connection.partialSince == nil && connection.relay == nil {
                if idle.map({ connection.lastActivity < $0.lastActivity }) ?? true { idle = connection }
            } else if now - connection.lastInput >= 1_000 {
                if stalled.map({ connection.lastInput < $0.lastInput }) ?? true { stalled = connection }
            }
        }
        return idle ?? stalled
    }

    /// Before Shade closes a connection on its own: GOAWAY for HTTP/2, close_notify for TLS, and what
    /// was already answered, written as far as the socket takes it now.
    private func sayGoodbye(_ connection: Connection) {
        if let framing = connection.framing, !connection.closeWhenFlushed {
            var goAway: [UInt8] = []
            framing.goAway(into: &goAway)
            connection.send(goAway)
            connection.beginClosing()
        }
        _ = connection.flush(now: clock.nowMillis())
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
                connection.lastInput = clock.nowMillis()
                if connection.lingerDeadline != nil { continue }   // closing: input is dropped
                receive(readBuffer[0..<count], on: connection)
                if connections[connection.info.id] == nil { return false }
                if connection.closeWhenFlushed || connection.pendingOutput >= configuration.maxQueuedOutputBytes { break }
                if let relay = connection.relay, relay.pendingToUpstream >= configuration.maxQueuedOutputBytes { break }
                // A short read took all the socket held: asking again would only say EAGAIN (a system
                // call per request on a keep-alive connection). More, or the end, wakes the next poll.
                if count < readBuffer.count { break }
                continue
            }
            if count == 0 {
                endOfInput(connection)
                if connection.lingerDeadline != nil || (connection.framing == nil && connection.relay == nil) {
                    close(connection)
                    return false
                }
                break
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { break }
            close(connection)   // ECONNRESET and the like: the client is gone
            return false
        }
        return true
    }

    private func endOfInput(_ connection: Connection) {
        connection.inputEnded = true
        connection.framing?.endOfInput()
    }

    /// Bytes from the socket: to the relay, or through TLS (when on) to the framing.
    private func receive(_ bytes: ArraySlice<UInt8>, on connection: Connection) {
        if let relay = connection.relay {
            relay.toUpstream += bytes
            return
        }
        guard let tls = connection.tls else {
            deliver(bytes, to: connection)
            return
        }
        tls.feed(bytes)
        if !tls.isEstablished {
            switch tls.handshake() {
            case .inProgress:
                tls.takeCiphertext(into: &connection.output)
                return
            case .failed:
                // The alert (if OpenSSL wrote one) goes out, then the connection closes.
                tls.takeCiphertext(into: &connection.output)
                connection.closeWhenFlushed = true
                stats.failedHandshakes += 1
                return
            case .established:
                tls.takeCiphertext(into: &connection.output)
                stats.tlsHandshakes += 1
                connection.partialSince = nil
                connection.lastActivity = clock.nowMillis()
                switch tls.negotiatedProtocol {
                case "h2": choose(.http2, for: connection)
                case "http/1.1": choose(.http1, for: connection)
                default: break   // no ALPN: what the client sends first tells (aioapns sends the preface)
                }
            }
        }
        var plaintext: [UInt8] = []
        let end = tls.read(into: &plaintext)
        tls.takeCiphertext(into: &connection.output)   // key updates, session tickets
        if !plaintext.isEmpty { deliver(plaintext[...], to: connection) }
        switch end {
        case .wouldBlock: break
        case .closed: endOfInput(connection)
        case .failed: connection.closeWhenFlushed = true
        }
    }

    /// Plaintext: to the framing, or gathered until the first bytes tell the protocol.
    private func deliver(_ bytes: ArraySlice<UInt8>, to connection: Connection) {
        if let framing = connection.framing {
            framing.receive(bytes)
            return
        }
        if connection.partialSince == nil { connection.partialSince = clock.nowMillis() }
        connection.undecided += bytes
        guard let detected = ProtocolDetector.detect(connection.undecided[...], allowTLS: connection.tls == nil) else {
            if connection.undecided.count > ProtocolDetector.maxLeadingWhitespace { connection.closeWhenFlushed = true }
            return
        }
        let buffered = connection.undecided
        connection.undecided = []
        if detected == .tls {
            guard startTLS(on: connection) else { return }
            receive(buffered[...], on: connection)
            return
        }
        choose(detected, for: connection)
        connection.framing?.receive(buffered[...])
    }

    private func startTLS(on connection: Connection) -> Bool {
        do {
            connection.tls = try tlsContext().session(defaultName: connection.tunnel?.host)
            return true
        } catch {
            tlsProblem = error.message
            connection.closeWhenFlushed = true
            return false
        }
    }

    /// The TLS context, made on the first TLS connection (so a Shade that never sees TLS never makes a CA).
    private func tlsContext() throws(CertificateError) -> TLSServerContext {
        if let tls { return tls }
        guard let directory = configuration.certificateDirectory else {
            throw CertificateError("TLS is off: this Shade was started without a CA directory")
        }
        let context = try TLSServerContext(authority: try CertificateAuthority.loadOrCreate(directory: directory))
        tls = context
        return context
    }

    /// The framing for `detected`, with the facts of the connection for the handler.
    private func choose(_ detected: DetectedProtocol, for connection: Connection) {
        let framing: Channel.Framing = switch detected {
        case .ndjson: .ndjson
        case .http2: .http2
        case .http1, .tls: .http1
        }
        connection.info.channel = Channel(framing: framing, tls: connection.tls.map(\.version),
                                          serverName: connection.tls?.serverName, proxiedTo: connection.tunnel?.description,
                                          isUnixSocket: connection.info.transport == .unix)
        let info = connection.info
        switch framing {
        case .ndjson:
            connection.framing = NDJSONFraming(lines: LineFramer(maxLineBytes: configuration.maxLineBytes,
                                                                 unterminatedLastLine: configuration.unterminatedLastLine),
                                               handler: handler, info: info)
        case .http1:
            connection.framing = HTTP1Framing(limits: configuration.httpLimits, handler: handler, info: info)
        case .http2:
            let handler = handler
            let http2 = HTTP2Framing(limits: configuration.httpLimits) { handler.respond(to: $0, from: info) }
            http2.respondToRefusal = { handler.respond(toRefused: $0, from: info) }
            connection.framing = http2
        }
    }

    /// While a round's ready connections are served, replies wait in `held` (see `runOnce`).
    private var holdingReplies = false
    private var held: [Connection] = []

    /// Writes what the round's connections hold, in the order they were answered, and goes on as
    /// `pump` would have (closing, or answering more once a full output drained).
    private func writeHeldReplies() {
        holdingReplies = false
        let connections = held
        held.removeAll(keepingCapacity: true)
        for connection in connections {
            connection.isHeld = false
            guard self.connections[connection.info.id] === connection else { continue }   // closed meanwhile
            pump(connection, writingHeld: true)
        }
    }

    /// Turns buffered input into replies and writes them, until input, the socket or the output limit
    /// stops it; while a round is held, the writing waits for `writeHeldReplies`. `writingHeld`: the
    /// answering was done earlier in the round, so this only writes (and answers more only if a full
    /// output drained and nothing yielded, as the first pass would have).
    private func pump(_ connection: Connection, writingHeld: Bool = false) {
        var yielded = writingHeld && connection.hasBufferedWork
        if !writingHeld {
            connection.pumpedRound = round
            connection.hasBufferedWork = false
        }
        var answering = !writingHeld
        while true {
            if answering, !connection.closeWhenFlushed && connection.lingerDeadline == nil, let framing = connection.framing {
                switch answer(connection, framing) {
                case .open:
                    if connection.inputEnded { connection.beginClosing() }
                case .full:
                    break
                case .yielded:
                    connection.hasBufferedWork = true
                    yielded = true
                case .close:
                    connection.beginClosing()
                case .connect(let target, let buffered):
                    openTunnel(to: target, buffered: buffered, on: connection)
                    continue
                }
            }
            if let relay = connection.relay, relay.phase == .open {
                guard relay.flushToUpstream() else {
                    close(connection)
                    return
                }
                if connection.inputEnded && relay.pendingToUpstream == 0 && !connection.relayWriteShut {
                    Glibc.shutdown(relay.fd, Int32(SHUT_WR))
                    connection.relayWriteShut = true
                }
            }
            answering = true
            if connection.pendingOutput > 0 {
                if holdingReplies {
                    if !connection.isHeld {
                        connection.isHeld = true
                        held.append(connection)
                    }
                    return
                }
                switch connection.flush(now: clock.nowMillis()) {
                case .failed:
                    close(connection)
                    return
                case .wouldBlock:
                    return
                case .drained:
                    // Room again: more to answer (what yielded waits for the next round).
                    if connection.framing != nil && !connection.closeWhenFlushed && !yielded { continue }
                }
            }
            break
        }
        guard connection.closeWhenFlushed, connection.pendingOutput == 0 else { return }
        if connection.inputEnded {
            close(connection)
        } else if connection.lingerDeadline == nil {
            Glibc.shutdown(connection.fd, Int32(SHUT_WR))
            connection.lingerDeadline = clock.nowMillis() + configuration.lingerMillis
        }
    }

    /// One round of the framing: replies go out through TLS when there is TLS. Answering something is
    /// progress (the idle clock restarts, and a request still coming in starts its own deadline).
    private func answer(_ connection: Connection, _ framing: any Framing) -> FramingState {
        let room = max(0, configuration.maxQueuedOutputBytes - connection.pendingOutput)
        let state: FramingState
        let produced: Bool
        if let tls = connection.tls {
            var plaintext: [UInt8] = []
            state = framing.answer(into: &plaintext, limit: room)
            produced = !plaintext.isEmpty
            plaintext.withUnsafeBytes { tls.write($0) }
            tls.takeCiphertext(into: &connection.output)
        } else {
            if connection.outputStart == connection.output.count {
                connection.output.removeAll(keepingCapacity: true)
                connection.outputStart = 0
            }
            let before = connection.output.count
            state = framing.answer(into: &connection.output, limit: before + room)
            produced = connection.output.count > before
        }
        let now = clock.nowMillis()
        if produced {
            connection.lastActivity = now
            connection.partialSince = framing.hasPartialInput ? now : nil
        } else if !framing.hasPartialInput {
            connection.partialSince = nil
        } else if connection.partialSince == nil {
            connection.partialSince = now
        }
        return state
    }

    // MARK: The CONNECT proxy

    /// `CONNECT host:port`: Shade's own routes inside the tunnel for an intercepted host, a relay to
    /// any other (or 403 with `--no-relay`).
    private func openTunnel(to authority: String, buffered: [UInt8], on connection: Connection) {
        connection.framing = nil
        func refuse(_ status: Int, _ message: String) {
            connection.send(HTTPResponse.error(status: status, message).serialized(keepAlive: false))
            connection.beginClosing()
        }
        guard connection.tls == nil, connection.tunnel == nil else {
            return refuse(400, "CONNECT inside TLS or inside a tunnel is not supported: send it on Shade's cleartext port")
        }
        guard let target = ConnectTarget(authority) else {
            connection.send(ConnectTarget.refusal(of: authority).serialized(keepAlive: false))
            return connection.beginClosing()
        }
        connection.partialSince = nil
        connection.lastActivity = clock.nowMillis()
        if configuration.proxy.intercepts(target.host) {
            stats.interceptedTunnels += 1
            connection.tunnel = target
            connection.send(Self.connectionEstablished)
            if !buffered.isEmpty { deliver(buffered[...], to: connection) }
            return
        }
        guard configuration.proxy.relays else {
            stats.refusedTunnels += 1
            return refuse(403, "Shade intercepts only the push services' hosts (\(configuration.proxy.intercepted.sorted().joined(separator: ", "))) "
                + "and was started with --no-relay, so it does not relay \(target.description)")
        }
        stats.relayedTunnels += 1
        let relay = Relay(target: target)
        relay.toUpstream = buffered
        connection.relay = relay
        if HostName.isIPAddress(target.host) {
            connect(relay, HostResolver.lookUp(target), for: connection)   // nothing to look up: no wait
        } else if let resolver = resolver ?? HostResolver() {
            self.resolver = resolver
            resolver.resolve(target, for: connection.info.id)
        } else {
            connect(relay, .failure(RelayError("cannot look up \(target.host): no pipe for the lookup")), for: connection)
        }
    }

    /// The name is looked up: connect (the 200 goes out once connected), or 502 saying why not.
    private func connect(_ relay: Relay, _ addresses: Result<[ResolvedAddress], RelayError>, for connection: Connection) {
        let failure: RelayError?
        switch addresses {
        case .success(let addresses): failure = relay.connect(to: addresses)
        case .failure(let error): failure = error
        }
        if let failure {
            connection.relay = nil
            connection.send(HTTPResponse.error(status: 502, failure.message).serialized(keepAlive: false))
            connection.beginClosing()
        } else if relay.phase == .open {
            connection.send(Self.connectionEstablished)
        }
    }

    static let connectionEstablished = Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)

    private func serviceUpstream(_ connection: Connection, revents: Int16) {
        guard let relay = connection.relay else { return }
        if relay.phase == .connecting {
            guard revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 else { return }
            if let error = relay.finishConnecting() {
                connection.relay = nil
                connection.send(HTTPResponse.error(status: 502, error.message).serialized(keepAlive: false))
                connection.beginClosing()
                pump(connection)
                return
            }
            guard relay.phase == .open else { return }   // the next address is being tried
            connection.send(Self.connectionEstablished)
        } else if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 && !relay.upstreamEnded {
            for _ in 0..<16 {
                let count = readBuffer.withUnsafeMutableBytes { recv(relay.fd, $0.baseAddress!, $0.count, 0) }
                if count > 0 {
                    connection.output += readBuffer[0..<count]
                    connection.lastActivity = clock.nowMillis()
                    if connection.pendingOutput >= configuration.maxQueuedOutputBytes { break }
                    continue
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                relay.upstreamEnded = true   // closed or reset: what came is passed on, then the client is closed
                connection.beginClosing()
                break
            }
        }
        pump(connection)
    }

    private func close(_ connection: Connection) {
        Glibc.close(connection.fd)
        connection.relay = nil   // closes the upstream socket
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
            // A request (or handshake) under way has its own deadline, and the idle one does not apply:
            // a connection that sent its first bytes just after it was accepted was otherwise closed
            // without its 408 when both timeouts were equal and a round fell between the two deadlines.
            if let since = connection.partialSince {
                guard now - since >= configuration.requestTimeoutMillis else { continue }
                if let framing = connection.framing, !connection.closeWhenFlushed {
                    var reply: [UInt8] = []
                    framing.timedOut(afterMillis: configuration.requestTimeoutMillis, into: &reply)
                    connection.send(reply)
                    connection.beginClosing()
                    connection.partialSince = nil
                    connection.lastActivity = now
                    pump(connection)
                } else {
                    close(connection)   // a handshake or first bytes that never came whole
                }
                continue
            }
            guard let timeout = idleTimeout(of: connection), now - connection.lastActivity >= timeout else { continue }
            if let framing = connection.framing, !connection.closeWhenFlushed {
                var goAway: [UInt8] = []
                framing.goAway(into: &goAway)
                connection.send(goAway)
                connection.beginClosing()
                connection.lastActivity = now
                pump(connection)
            } else {
                close(connection)
            }
        }
    }

    private func idleTimeout(of connection: Connection) -> Int64? {
        if connection.relay != nil { return configuration.tunnelIdleTimeoutMillis }
        // A client that stops reading its replies is dropped whatever the protocol.
        if connection.framing is NDJSONFraming && connection.pendingOutput == 0 { return configuration.ndjsonIdleTimeoutMillis }
        if connection.framing is HTTP2Framing && connection.pendingOutput == 0 { return configuration.http2IdleTimeoutMillis }
        return configuration.idleTimeoutMillis
    }

    private func deadlines() -> [Int64] {
        var result = timers.values.map(\.deadline)
        for connection in connections.values {
            if let linger = connection.lingerDeadline {
                result.append(linger)
                continue
            }
            if let since = connection.partialSince {
                result.append(since + configuration.requestTimeoutMillis)
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
