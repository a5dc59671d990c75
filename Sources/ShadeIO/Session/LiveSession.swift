// The one object the run loop drives: listeners, routes, NDJSON, recording, replay, and a Center per
// platform. Everything happens on the loop's thread (DESIGN.md, run loop): no locks.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ShadeCore

/// What one push (or one unreadable document) did, for the headless log and tests.
public struct Arrival: Sendable, Equatable {
    public enum Effect: Sendable, Equatable {
        case shown
        case silent
        case call
        case rejected(String)
        /// The push's shape does not reach this platform (SPEC §1).
        case elsewhere
        /// The device is offline: the push waits at its service (SPEC §8).
        case waiting
    }

    /// nil when nothing could be read (invalid JSON, an unknown shape): `source` says where.
    public var push: Push?
    public var source: SourcePosition
    /// Set when a route or NDJSON refused the push as its service would: it was not recorded.
    public var refusal: PushRefusal?
    /// What each platform's center made of it.
    public var effects: Effects

    /// An effect per platform, held in place: a dictionary cost an allocation per push.
    public struct Effects: Sendable, Equatable {
        private var slots: (android: Effect?, ios: Effect?, web: Effect?) = (nil, nil, nil)

        public init() {}

        public subscript(platform: Platform) -> Effect? {
            get {
                switch platform {
                case .android: slots.android
                case .ios: slots.ios
                case .web: slots.web
                }
            }
            set {
                switch platform {
                case .android: slots.android = newValue
                case .ios: slots.ios = newValue
                case .web: slots.web = newValue
                }
            }
        }

        /// Whether `platform` showed the push or rang its call: what has a place in its center.
        public func isShown(on platform: Platform) -> Bool {
            switch self[platform] {
            case .shown, .call: true
            default: false
            }
        }

        /// Whether the push reached `platform`: its center took it (anything but `elsewhere`, SPEC §1).
        /// What the elsewhere tally counts and the log's `elsewhere (… for …)` names.
        public func reached(_ platform: Platform) -> Bool {
            guard let effect = self[platform] else { return false }
            return effect != .elsewhere
        }

        /// The effects set, in `Platform.allCases` order.
        public var values: [Effect] { Platform.allCases.compactMap { self[$0] } }

        public static func == (a: Effects, b: Effects) -> Bool {
            Platform.allCases.allSatisfy { a[$0] == b[$0] }
        }
    }
}

public final class LiveSession: ConnectionHandler {
    public let options: ProfileOptions
    public let texts: TextResolver
    public let journal: Journal?
    /// `--api-key` and `--server-secret`: what routes that take pushes and TCP streams must present.
    public let credentials: Credentials
    /// Monotonic time for timers and replay.
    public let clock: any Clock
    /// Wall time for the `at` of received pushes.
    public let wallClock: any Clock
    public let loop: PollLoop

    /// All three platforms, always fed, whatever `--platform` shows.
    public var centers: [Platform: Center] {
        Dictionary(uniqueKeysWithValues: zip(Platform.allCases, feeds))
    }

    /// One platform's center (without building the dictionary).
    public func center(_ platform: Platform) -> Center {
        feeds[platform.index]
    }

    /// The centers in `Platform.allCases` order. An array, so `feeds[i].receive(…)` mutates in place:
    /// through `Dictionary`'s subscript and `!` the Center was copied, and its items with it, per push.
    private var feeds: [Center]

    /// Where each push announced so far went (the TUI's "1 push for iOS — p shows it").
    public private(set) var elsewhereTally = ElsewhereTally()
    /// +1 whenever any center changed: the TUI redraws when it moves.
    public private(set) var changeCount = 0
    /// Rejections as they happen, newest last (at most `recentRejectionLimit`), for a transient message.
    public private(set) var recentRejections: [ErrorEntry] = []
    public static let recentRejectionLimit = 20
    /// Every rejection so far (distinct per push, however many centers counted it): grows while
    /// `recentRejections` stays at its limit, so a view can tell that a new one came.
    public private(set) var rejectionCount = 0
    public var replay: ReplayDriver?
    /// Live pushes taken (recorded, when recording) and refused since the start.
    public private(set) var acceptedCount = 0
    public private(set) var refusedCount = 0
    /// Where it listens, as `listen` described it.
    public private(set) var listening: [String] = []
    /// Called after every push or rejection is applied (live or replayed; not when seeking rebuilds).
    public var onArrival: ((Arrival) -> Void)?
    /// Unregistered tokens, `--strict-auth`, the Web Push subscription.
    public var services = ServiceOptions()
    /// The Expo tickets handed out, for `getReceipts`.
    var expoReceipts = ExpoReceipts()

    /// The number the next accepted or replayed push gets. Refused pushes take none, so a recording
    /// replays with the numbers (and generated item keys) the live session gave.
    private var nextNumber = 1
    /// TCP streams, by connection id, that have presented the key (or, without a key, sent a line).
    private var streamsAdmitted: Set<Int> = []
    /// Streams refused the key: closed once their reply is written.
    private var streamsRefused: Set<Int> = []
    /// Reads every live request and line (its tape is reused); the numbers it gives are replaced in `admit`.
    private var intake = Intake(firstID: 0)
    let replies: RouteReplies
    /// `--offline` over a replay (SPEC §8): the window, and where the replayed stream stands in it.
    private var offlineWindow: OfflineWindow?
    private var timeline: OfflineTimeline?
    /// OAuth tokens handed out (`POST /token`), numbering them.
    private var tokensIssued = 0
    /// The NDJSON lines of one framing round while recording (see `beginLines`): what they do to the
    /// centers and their replies wait until their envelopes are written, in one write.
    private var batch: LineBatch?

    struct LineBatch {
        enum Step {
            /// An `apply` put off, in its order among the others.
            case apply(Intake.Outcome, PushRefusal?)
            /// An accepted push whose envelope is staged: `admissions[reply][slot]`.
            case accept(reply: Int, slot: Int)
        }

        enum Reply {
            case bytes([UInt8])
            /// The reply made from `admissions[index]` once the accepted ones are numbered.
            case admissions(Int, isBatch: Bool)
        }

        var steps: [Step] = []
        var replies: [Reply] = []
        var admissions: [[Admission]] = []
    }

    public init(options: ProfileOptions, texts: TextResolver, journal: Journal?, apiKey: String?, serverSecret: String? = nil,
                clock: any Clock, wallClock: any Clock = WallClock(), configuration: PollLoop.Configuration = PollLoop.Configuration()) {
        self.options = options
        self.texts = texts
        self.journal = journal
        self.credentials = Credentials(apiKey: apiKey, serverSecret: serverSecret)
        self.clock = clock
        self.wallClock = wallClock
        var generator = SystemRandomNumberGenerator()
        replies = RouteReplies(uuidPrefix: generator.next())
        let forwarder = SessionHandler()
        loop = PollLoop(handler: forwarder, configuration: configuration, clock: clock)
        feeds = Self.freshCenters(options: options, texts: texts, keepsTraces: keepsTraces)
        forwarder.session = self
    }

    static func freshCenters(options: ProfileOptions, texts: TextResolver, keepsTraces: Bool) -> [Center] {
        // The centers take each push in turn, on the poll loop's thread: what they read alike is read once.
        let shared = SharedReadings()
        return Platform.allCases.map {
            var center = Center(profile: options.profile($0), texts: texts, keepsTraces: keepsTraces)
            center.sharedReadings = shared
            return center
        }
    }

    /// Whether items keep their decision trace: the terminal UI's inspector reads it; a headless
    /// session has no reader for it (its log and `GET /state` carry none), so it turns this off.
    public var keepsTraces = true {
        didSet { for i in feeds.indices { feeds[i].keepsTraces = keepsTraces } }
    }

    // MARK: listening

    /// Listens on a unix socket and/or TCP (`bind`, default 127.0.0.1; port 0 picks one). Returns what it
    /// listens on, e.g. `["unix /tmp/shade-0.sock", "http://127.0.0.1:4747"]`. On an error nothing is left open.
    @discardableResult
    public func listen(socketPath: String?, port: Int?, bind: String?) throws(SocketError) -> [String] {
        var opened: [Listener] = []
        do throws(SocketError) {
            if let socketPath { opened.append(try Listener.unix(path: socketPath)) }
            if let port {
                guard let tcpPort = UInt16(exactly: port) else {
                    throw SocketError("port \(port) is out of range: give 1–65535, or 0 for a free one")
                }
                opened.append(try Listener.tcp(port: tcpPort, host: bind ?? "127.0.0.1"))
            }
        } catch {
            for listener in opened { listener.close() }
            throw error
        }
        for listener in opened { loop.add(listener) }
        let described = opened.map { listener in
            switch listener.endpoint {
            case .unix(let path): "unix \(path)"
            case .tcp: "http://\(listener.endpoint)"
            }
        }
        listening += described
        return described
    }

    /// What the TCP port does besides plain HTTP, for the line `listen` prints after "listening on".
    public var transportSummary: String {
        let configuration = loop.configuration
        let tls = configuration.certificateDirectory.map { "TLS (HTTP/2 or HTTP/1.1) and HTTP/2 cleartext on the same port, certificates from the CA in \($0)" }
            ?? "no TLS (no CA directory)"
        let others = configuration.proxy.relays ? "relays other hosts unchanged" : "refuses other hosts (--no-relay)"
        return "\(tls); HTTPS proxy: answers CONNECT to \(configuration.proxy.intercepted.sorted().joined(separator: ", ")) itself, \(others)"
    }

    /// The TLS and proxy state for the TUI header: `TLS·h2 3 handshakes · proxy 2 intercepted, 1 relayed`.
    public var networkStatus: String {
        if let problem = loop.tlsProblem { return "TLS off: \(problem)" }
        let stats = loop.stats
        var text = "TLS·h2 \(stats.tlsHandshakes) handshake\(stats.tlsHandshakes == 1 ? "" : "s")"
        text += " · proxy \(stats.interceptedTunnels) intercepted, "
        text += loop.configuration.proxy.relays ? "\(stats.relayedTunnels) relayed" : "no relay (\(stats.refusedTunnels) refused)"
        return text
    }

    /// The TCP port listened on (the one chosen for port 0), if any.
    public var tcpPort: UInt16? {
        for listener in loop.listeners { if case .tcp(_, let port) = listener.endpoint { return port } }
        return nil
    }

    /// Flushes the recording to disk, stops replay, closes every connection and listener (removing the socket file).
    public func shutdown() {
        replay?.stop()
        if let journal {
            try? journal.synchronize()
            journal.close()
        }
        loop.shutdown()
    }

    // MARK: centers

    /// Applies pushes and rejections to every center (routes, NDJSON and replay all come here).
    public func ingest(_ outcomes: [Intake.Outcome]) {
        ingest(outcomes, announce: true)
    }

    public func states(_ platforms: [Platform]) -> [CenterState] {
        platforms.map { feeds[$0.index].state }
    }

    public func dismiss(itemID: String, on platform: Platform) {
        perform(.dismiss(itemID: itemID, platform: platform))
    }

    public func clearAll() {
        perform(.clearAll)
    }

    // MARK: what the viewer did

    /// Dismissing is the viewer's doing, not the recording's: during a replay each is kept at the point
    /// of the replay it was done (outcomes ingested by then), so that seeking back plays it again and
    /// a dismissed item stays dismissed.
    enum ViewerAction: Equatable {
        case dismiss(itemID: String, platform: Platform)
        case clearAll
    }

    /// The replay's viewer actions in the order of their marks, and how far the centers have come.
    private var actions: [(mark: Int, action: ViewerAction)] = []
    /// Outcomes applied since the centers were last made fresh.
    private var applied = 0
    /// The first action not yet applied to the current centers.
    private var nextAction = 0

    private func perform(_ action: ViewerAction) {
        apply(action)
        changeCount += 1
        guard replay != nil else { return }
        // Every action marked up to now is applied already: this one goes after them.
        actions.insert((applied, action), at: nextAction)
        nextAction += 1
    }

    private func apply(_ action: ViewerAction) {
        switch action {
        case .dismiss(let id, let platform): feeds[platform.index].dismiss(itemID: id)
        case .clearAll: for index in feeds.indices { feeds[index].clearAll() }
        }
    }

    /// The actions whose mark the centers have now reached.
    private func catchUpActions() {
        while nextAction < actions.count, actions[nextAction].mark <= applied {
            apply(actions[nextAction].action)
            nextAction += 1
        }
    }

    /// Takes `platforms` offline, or back online when they are offline (the TUI's `o`), at the
    /// replay's recording time when replaying, else now.
    public func toggleOffline(_ platforms: [Platform]) {
        let now = replay?.recordingTime ?? wallClock.nowMillis()
        for platform in platforms {
            let index = platform.index
            if feeds[index].offline != nil { feeds[index].comeOnline(at: now) } else { feeds[index].goOffline(at: now) }
        }
        changeCount += 1
    }

    /// The end of a replay: a window still open closes at its UNTIL (SPEC §8).
    func replayEnded() {
        guard timeline != nil else { return }
        let transitions = timeline!.finish()
        guard !transitions.isEmpty else { return }
        for transition in transitions { for index in feeds.indices { feeds[index].apply(transition) } }
        changeCount += 1
    }

    /// Plays `documents` into the centers with their timing (see `ReplayDriver`). Pushes are numbered
    /// after the ones received so far. With `offline`, the profiles are offline in that window of
    /// the recording's time (SPEC §8).
    public func startReplay(_ documents: [InputDocument], speed: Double, instant: Bool, paused: Bool, loops: Bool,
                            offline: OfflineWindow? = nil) {
        startReplay(ReplayFeed(documents.map { .document($0) }, firstID: nextNumber), speed: speed, instant: instant,
                    paused: paused, loops: loops, offline: offline)
    }

    /// The same from opened files and standard input, read as they play: a recording of any size
    /// replays in the memory of a line.
    public func startReplay(_ inputs: ReplayInputs, speed: Double, instant: Bool, paused: Bool, loops: Bool,
                            offline: OfflineWindow? = nil) {
        startReplay(ReplayFeed(inputs.inputs, firstID: nextNumber), speed: speed, instant: instant, paused: paused, loops: loops,
                    offline: offline)
    }

    private func startReplay(_ feed: ReplayFeed, speed: Double, instant: Bool, paused: Bool, loops: Bool, offline: OfflineWindow?) {
        offlineWindow = offline
        timeline = offline.map(OfflineTimeline.init)
        replay?.stop()
        let driver = ReplayDriver(feed: feed, speed: speed, instant: instant, paused: paused, loops: loops, session: self)
        nextNumber = driver.nextFreeID
        replay = driver
        driver.begin()
    }

    /// Empty centers (the demo starting over): a new pass, with nothing dismissed.
    func resetCenters() {
        feeds = Self.freshCenters(options: options, texts: texts, keepsTraces: keepsTraces)
        (actions, applied, nextAction) = ([], 0, 0)
        timeline = offlineWindow.map(OfflineTimeline.init)
        changeCount += 1
    }

    /// Empty centers fed each entry `next` gives, one at a time, without announcing them, and what the
    /// viewer did along the way (seeking back).
    func rebuild(from next: () -> [Intake.Outcome]?) {
        feeds = Self.freshCenters(options: options, texts: texts, keepsTraces: keepsTraces)
        timeline = offlineWindow.map(OfflineTimeline.init)
        (applied, nextAction) = (0, 0)
        catchUpActions()
        while let entry = next() { ingest(entry, announce: false) }
        changeCount += 1
    }

    private func ingest(_ outcomes: [Intake.Outcome], announce: Bool) {
        guard !outcomes.isEmpty else { return }
        for outcome in outcomes {
            apply(outcome, refusal: nil, announce: announce)
            applied += 1
            if nextAction < actions.count { catchUpActions() }
        }
        changeCount += 1
    }

    /// Counters that tell what a push did to a center, compared before and after.
    private struct Tally: Equatable {
        var silent, calls, rejected, elsewhere: Int
        var offline: Bool

        init(_ center: Center) {
            silent = center.silent
            calls = center.calls
            rejected = center.rejected
            elsewhere = center.elsewhere
            offline = center.offline != nil
        }
    }

    /// Feeds every center. A refused push is received and rejected on the platforms it reaches and
    /// `elsewhere` on the others (DESIGN.md); what changed is told to `onArrival`.
    private func apply(_ outcome: Intake.Outcome, refusal: PushRefusal?, announce: Bool) {
        if batch != nil {
            batch!.steps.append(.apply(outcome, refusal))
            return
        }
        var effects = Arrival.Effects()
        var fresh: [ErrorEntry] = []
        var time: Int64?
        if timeline != nil {
            let step = timeline!.next(outcome)
            time = step.time
            for transition in step.transitions { for index in feeds.indices { feeds[index].apply(transition) } }
        }
        for platform in Platform.allCases {
            let index = platform.index
            let before = Tally(feeds[index])
            // On the outcome alone: a tuple of it and the refusal copied the push, for each platform.
            switch outcome {
            case .push(let push):
                if let refusal, push.reaches(platform) {
                    feeds[index].reject(Rejection(source: push.source, reason: refusal.message))
                } else {
                    feeds[index].receive(push, at: time)
                }
            case .rejected(let rejection):
                feeds[index].reject(rejection)
            }
            let after = Tally(feeds[index])
            // One outcome is at most one rejection per center: the newest, listed in `errors` or not.
            let newest = after.rejected > before.rejected ? feeds[index].lastRejection : nil
            if let newest, !fresh.contains(newest) { fresh.append(newest) }
            effects[platform] = after.rejected > before.rejected ? .rejected(newest?.reason ?? "")
                : after.silent > before.silent ? .silent
                : after.calls > before.calls ? .call
                : after.elsewhere > before.elsewhere ? .elsewhere
                : after.offline ? .waiting
                : .shown
        }
        if announce {
            // Closures, not `effects.reached`: a method reference was made on the heap for every push.
            elsewhereTally.add(missed: { effects[$0] == .elsewhere }, reached: { effects.reached($0) })
        }
        // Seeking back rebuilds what was seen already: only news counts as a new rejection.
        if !fresh.isEmpty && announce {
            rejectionCount += fresh.count
            recentRejections += fresh
            if recentRejections.count > Self.recentRejectionLimit {
                recentRejections.removeFirst(recentRejections.count - Self.recentRejectionLimit)
            }
        }
        guard announce, let onArrival else { return }
        switch outcome {
        case .push(let push):
            onArrival(Arrival(push: push, source: push.source, refusal: refusal, effects: effects))
        case .rejected(let rejection):
            onArrival(Arrival(push: nil, source: rejection.source, refusal: nil, effects: effects))
        }
    }

    // MARK: live pushes

    /// Takes what a route or NDJSON line brought: stamps the time received, refuses what the service
    /// refuses, records the rest (written before the reply goes out) and applies everything.
    func admit(_ outcomes: consuming [Intake.Outcome], service: PushService) -> [Admission] {
        let now = wallClock.nowMillis()
        var admissions: [Admission] = []
        admissions.reserveCapacity(outcomes.count)
        for index in outcomes.indices {
            // Moved out of the array: the push is then its box's one holder, and numbering and
            // stamping it change that box instead of copying it (DECISIONS 135).
            switch Self.take(&outcomes[index]) {
            case .rejected(var rejection):
                refusedCount += 1
                rejection.reaches = service.platforms
                apply(.rejected(rejection), refusal: nil, announce: true)
                admissions.append(.refused(nil, PushRefusal(status: 400, code: nil, message: rejection.reason)))
            case .push(var push):
                push.id = 0   // numbered once accepted
                push.transport.stamp(millis: now)
                if PushHeaders.hasCredentials(push.transport.headers) {
                    push.transport.headers = PushHeaders.withoutCredentials(push.transport.headers)
                }
                // FCM's quota is spent before it reads a message, and counts the ones it then refuses.
                if let refusal = (service == .fcmV1 ? services.fcmQuota?.take(now: now) : nil)
                    ?? ServiceChecks.refusal(for: push, service: service)
                    ?? Recipients.refusal(for: push, service: service, unregistered: services.unregistered, now: now) {
                    refusedCount += 1
                    apply(.push(push), refusal: refusal, announce: true)
                    admissions.append(.refused(push, refusal))
                    continue
                }
                if let journal, batch != nil {
                    // Numbered, applied and acknowledged in `endLines`, once the envelope is written.
                    journal.stage(line: Envelope.line(for: push))
                    batch!.steps.append(.accept(reply: batch!.admissions.count, slot: admissions.count))
                    admissions.append(.accepted(push))
                    continue
                }
                if let journal {
                    do {
                        // The envelope holds no number: replay numbers pushes as they come.
                        try journal.append(line: Envelope.line(for: push))
                    } catch {
                        let refusal = PushRefusal(status: 500, code: "InternalServerError",
                                                  message: "\(error.description) — the push was not recorded, so it is not shown")
                        refusedCount += 1
                        apply(.push(push), refusal: refusal, announce: true)
                        admissions.append(.refused(push, refusal))
                        continue
                    }
                }
                push.id = nextNumber
                nextNumber += 1
                acceptedCount += 1
                apply(.push(push), refusal: nil, announce: true)
                admissions.append(.accepted(push))
            }
        }
        if !outcomes.isEmpty { changeCount += 1 }
        return admissions
    }

    /// A push refused before any service check could read it (a Web Push body Shade cannot
    /// decrypt): counted, rejected where it reaches, not recorded.
    func refuse(_ push: Push, _ refusal: PushRefusal) {
        refusedCount += 1
        apply(.push(push), refusal: refusal, announce: true)
        changeCount += 1
    }

    /// A request or line that did not parse as anything pushable still counts (SPEC §1).
    func rejectUnreadable(source: SourcePosition, reason: String, service: PushService = .anyShape) {
        refusedCount += 1
        apply(.rejected(Rejection(source: source, reason: reason, reaches: service.platforms)), refusal: nil, announce: true)
        changeCount += 1
    }

    // MARK: ConnectionHandler

    public func respond(to received: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse {
        var response = answer(received, from: connection)
        // APNs answers every request with an `apns-id`, its errors too (a 400, a 403, a 405).
        // Asked on the field's bytes: looking its value up made a string of it for every APNs reply.
        if !response.headers.contains("apns-id"), case .apns? = Route.route(path: received.path) {
            response.headers.set("apns-id", replies.apnsID(for: received, number: nil))
        }
        return response
    }

    private func answer(_ received: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse {
        // Compressed bodies are undone here, between framing and routes, whichever framing carried them.
        // A request with nothing to undo is routed as it came (a copy retained each of its fields).
        switch BodyEncoding.decoded(received, limit: loop.configuration.httpLimits.maxBodyBytes) {
        case .success(nil):
            return route(received, from: connection)
        case .success(let decoded?):
            return route(decoded, from: connection)
        case .failure(let failure):
            rejectUnreadable(source: SourcePosition(name: "\(connection) \(received.method) \(received.path)"), reason: failure.message)
            return .error(status: failure.status, failure.message)
        }
    }

    private func route(_ request: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse {
        switch Route.match(method: request.method, path: request.path) {
        case .notFound:
            let body = JSONObject([
                "error": .string("no route for \(request.method) \(request.path); Shade answers the routes listed here"),
                "routes": .array(Route.table.map(JSON.string)),
            ])
            return .json(status: 404, RouteReplies.text(.object(body)))
        case .wrongMethod(let allowed):
            var response: HTTPResponse
            if case .apns? = Route.route(path: request.path) {
                response = replies.apnsError(status: 405, reason: "MethodNotAllowed", message: nil)
            } else {
                response = .json(status: 405, RouteReplies.text(.object(JSONObject([
                    "error": .string("\(request.method) \(request.path): this route takes \(allowed)")]))))
            }
            response.headers.set("Allow", allowed)
            return response
        case .found(let route) where credentials.refusal(request, route: route, from: connection) != nil:
            // Not a push: nothing is counted.
            let unauthorized = credentials.refusal(request, route: route, from: connection)!
            return replies.requestError(route, PushRefusal(status: 401, code: Self.unauthorizedCode(route, unauthorized),
                                                           message: unauthorized.message))
        case .found(.healthz):
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("ok".utf8))
        case .found(.state):
            return state(request)
        case .found(.oauthToken):
            tokensIssued += 1
            return OAuthToken.respond(to: request, number: tokensIssued)
        case .found(.webPushSubscription):
            return webPushSubscription(request)
        case .found(.webPush(let id)):
            return webPush(request, id: id, from: connection)
        case .found(.expoReceipts):
            return expoReceipts(request)
        case .found(let route):
            return push(request, route: route, from: connection)
        }
    }

    /// The code each service gives a request without valid credentials, in its own words.
    static func unauthorizedCode(_ route: Route, _ unauthorized: Credentials.Unauthorized) -> String? {
        switch route {
        case .apns:
            if case .missing = unauthorized { return "MissingProviderToken" }
            return "InvalidProviderToken"
        case .fcmV1: return "UNAUTHENTICATED"
        case .expo: return "UNAUTHORIZED"
        default: return nil
        }
    }

    /// `GET /state`: the `--platform` profiles Shade was started with; `?platform=` picks another.
    func state(_ request: HTTPRequest) -> HTTPResponse {
        let platforms: [Platform]
        switch request.query("platform")?.lowercased() {
        case nil, "": platforms = options.platforms
        case "all": platforms = Platform.allCases
        case let name?:
            guard let platform = Platform(rawValue: name) else {
                return .error(status: 400, "platform \(name) is unknown: use android, ios, web or all")
            }
            platforms = [platform]
        }
        return .json(Array(StateJSON.text(states(platforms)).utf8))
    }

    /// The transports of the last few requests' metadata, shared by the pushes of requests that repeat it.
    private var recentTransports = RecentTransports()

    /// The note for the last credential refusal, as the one-note list a push takes: every push of a
    /// backend without credentials shares the list instead of making its own.
    private var lastCredentialNote: (refusal: CredentialRefusal, service: String, notes: [String])?

    /// Each connection's last request source, `tcp 127.0.0.1:5000#4 POST /3/device/ab12`: a client
    /// sends to one path over and over on its connection, and a pool of them takes turns. Bounded:
    /// emptied when it holds more connections than a pool has.
    private var sourceNames: [Int: (connection: String, method: String, path: String, name: String)] = [:]

    private func sourceName(_ request: HTTPRequest, from connection: ConnectionInfo) -> String {
        if let last = sourceNames[connection.id], last.connection == connection.description,
           last.method == request.method, last.path == request.path {
            return last.name
        }
        let name = "\(connection) \(request.method) \(request.path)"
        if sourceNames.count >= 256 { sourceNames.removeAll(keepingCapacity: true) }
        sourceNames[connection.id] = (connection.description, request.method, request.path, name)
        return name
    }

    func push(_ request: HTTPRequest, route: Route, from connection: ConnectionInfo) -> HTTPResponse {
        let name = sourceName(request, from: connection)
        if case .apns = route, let empty = ServiceRules.emptyPayloadRefusal(body: request.body) {
            rejectUnreadable(source: SourcePosition(name: name), reason: empty.message, service: route.service)
            return replies.apnsError(status: empty.status, reason: empty.reason, message: nil)
        }
        var notes: [String]?
        if let refusal = ServiceCredentials.refusal(for: route, headers: request.headers, now: services.credentialClock.nowMillis() / 1000) {
            guard !services.strictAuth else { return replies.credentialError(route, refusal) }
            // A backend without credentials sends them all without: the same note, written once.
            if lastCredentialNote?.refusal != refusal || lastCredentialNote?.service != route.serviceName {
                lastCredentialNote = (refusal, route.serviceName, [ServiceCredentials.note(refusal, service: route.serviceName)])
            }
            notes = lastCredentialNote!.notes
        }
        let transport = recentTransports.transport(headers: request.headers, path: request.path, via: route.via,
                                                   channel: connection.channel)
        if let count = intake.pushCount(request.body, ifOver: ServiceChecks.batchLimit(route.service)),
           let tooMany = ServiceChecks.batchRefusal(pushes: count, service: route.service) {
            rejectUnreadable(source: SourcePosition(name: name), reason: tooMany.message, service: route.service)
            return replies.requestError(route, tooMany)
        }
        var outcomes = intake.document(request.body, source: name, transport: transport)   // invalid JSON: said where
        // A one-line body needs no line number: the source is the request.
        // Changed in place: a request is one push nearly always, and a new array each time cost more.
        let oneLine = !request.body.contains(0x0A)
        if oneLine || notes != nil {
            for index in outcomes.indices { Self.amend(&outcomes[index], withoutLine: oneLine, notes: notes) }
        }
        // A push to a list of tokens (`registration_ids`, Expo's `to`) is a message per token at the
        // service, and a result or ticket each in the reply: they count toward the same limit.
        if let tooMany = ServiceChecks.batchRefusal(pushes: Self.messageCount(outcomes, service: route.service), service: route.service,
                                                    counting: "messages (a push to several tokens is one per token)") {
            rejectUnreadable(source: SourcePosition(name: name), reason: tooMany.message, service: route.service)
            return replies.requestError(route, tooMany)
        }
        let isBatch = Self.isBatch(request.body, outcomes)
        let admissions = admit(consume outcomes, service: route.service)
        if route == .expo {
            for case .accepted(let push) in admissions {
                for ticket in replies.expoTickets(for: push, unregistered: services.unregistered) {
                    if let id = ticket.id { expoReceipts.issue(id) }
                }
            }
        }
        return replies.http(route, admissions, isBatch: isBatch, request: request,
                            unregistered: services.unregistered)
    }

    /// The messages a service sends for `outcomes`: one per recipient token, at least one per push.
    static func messageCount(_ outcomes: [Intake.Outcome], service: PushService) -> Int {
        outcomes.reduce(0) { total, outcome in
            guard case .push(let push) = outcome else { return Checked.add(total, 1) }
            return Checked.add(total, max(1, Recipients.of(push, service: service).count))
        }
    }

    public func respond(toLine line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8] {
        deferred(answer(line: line, lineNumber: lineNumber, from: connection))
    }

    /// In a batch, a reply ready now still waits for the ones before it: it goes out with them (and
    /// nothing is returned). Empty: the reply is in the batch already.
    private func deferred(_ reply: [UInt8]) -> [UInt8] {
        guard batch != nil else { return reply }
        if !reply.isEmpty { batch!.replies.append(.bytes(reply)) }
        return []
    }

    /// The NDJSON reply from admissions; in a batch, put off until the accepted pushes are numbered.
    private func ndjsonReply(_ admissions: [Admission], isBatch: Bool) -> [UInt8] {
        guard batch != nil else { return replies.genericBytes(admissions, isBatch: isBatch) }
        batch!.replies.append(.admissions(batch!.admissions.count, isBatch: isBatch))
        batch!.admissions.append(admissions)
        return []
    }

    /// NDJSON lines come in batches (all a framing round answers) so that a recording takes their
    /// envelopes in one write: between `beginLines` and `endLines`, lines are read, checked and their
    /// envelopes staged, and everything they do waits. Without a recording a line is answered at once.
    public func beginLines(from connection: ConnectionInfo) {
        guard journal != nil, batch == nil else { return }
        batch = LineBatch()
    }

    /// Writes the staged envelopes (one write), then, in the lines' order, applies what they did and
    /// appends their replies to `output`: a push is numbered and acknowledged only once its envelope is
    /// whole in the file (DESIGN: the acknowledgement follows the journal). Those that did not fit are
    /// refused with 500 and not shown, as a push whose own write failed always was.
    public func endLines(from connection: ConnectionInfo, into output: inout [UInt8]) {
        guard var batch else { return }
        self.batch = nil
        let commit = journal?.commit() ?? (written: 0, error: nil)
        var written = commit.written
        for step in batch.steps {
            switch step {
            case .apply(let outcome, let refusal):
                apply(outcome, refusal: refusal, announce: true)
            case .accept(let reply, let slot):
                guard case .accepted(var push) = batch.admissions[reply][slot] else { continue }
                if written > 0 {
                    written -= 1
                    push.id = nextNumber
                    nextNumber += 1
                    acceptedCount += 1
                    apply(.push(push), refusal: nil, announce: true)
                    batch.admissions[reply][slot] = .accepted(push)
                } else {
                    let reason = commit.error?.description ?? "cannot write the recording"
                    let refusal = PushRefusal(status: 500, code: "InternalServerError",
                                              message: "\(reason) — the push was not recorded, so it is not shown")
                    refusedCount += 1
                    apply(.push(push), refusal: refusal, announce: true)
                    batch.admissions[reply][slot] = .refused(push, refusal)
                }
            }
        }
        for reply in batch.replies {
            let start = output.count
            switch reply {
            case .bytes(let bytes): output += bytes
            case .admissions(let index, let isBatch): output += replies.genericBytes(batch.admissions[index], isBatch: isBatch)
            }
            if output.count == start || output.last != 0x0A { output.append(0x0A) }
        }
        if !batch.steps.isEmpty { changeCount += 1 }
    }

    private func answer(line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8] {
        // A stream's first line may present the key (DESIGN: `{"apiKey": "KEY"}`); over TCP with a key set
        // it must, and a stream that does not is answered once and closed. Nothing of it is counted.
        if !streamsAdmitted.contains(connection.id) {
            switch Credentials.firstLine(try? JSONParser.parse(line)) {
            case .key(let key) where credentials.acceptsStreamKey(key):
                streamsAdmitted.insert(connection.id)
                return Array(#"{"ok": true}"#.utf8)
            case .key:
                streamsRefused.insert(connection.id)
                return replies.genericBytes([.refused(nil, PushRefusal(status: 401, code: nil,
                    message: "unauthorized: apiKey is not the key this Shade was started with (--api-key)"))], isBatch: false)
            case .push where credentials.streamNeedsKey(connection):
                streamsRefused.insert(connection.id)
                return replies.genericBytes([.refused(nil, PushRefusal(status: 401, code: nil,
                    message: "unauthorized: this Shade was started with --api-key; send {\"apiKey\": \"KEY\"} as the stream's first line"))],
                    isBatch: false)
            case .push:
                streamsAdmitted.insert(connection.id)
            }
        }
        if let count = intake.pushCount(line, ifOver: ServiceChecks.batchLimit(.anyShape)),
           let tooMany = ServiceChecks.batchRefusal(pushes: count, service: .anyShape) {
            rejectUnreadable(source: SourcePosition(name: connection.description, line: lineNumber), reason: tooMany.message)
            return replies.genericBytes([.refused(nil, tooMany)], isBatch: false)
        }
        let transport = recentTransports.transport(headers: HTTPHeaders(), path: nil, via: "ndjson", channel: connection.channel)
        let outcomes = intake.document(line, source: connection.description, firstLine: lineNumber, transport: transport,
                                       oneLine: true)
        let isBatch = Self.isBatch(line, outcomes)
        return ndjsonReply(admit(consume outcomes, service: .anyShape), isBatch: isBatch)
    }

    public func respond(toRefused error: HTTPRequestError, from connection: ConnectionInfo) -> HTTPResponse {
        // A body over the limit was a push, refused unread: it counts. Other framing errors are not pushes.
        if case .bodyTooLarge = error {
            rejectUnreadable(source: SourcePosition(name: connection.description), reason: error.description)
        }
        return error.response
    }

    public func closesAfterReply(on connection: ConnectionInfo) -> Bool {
        streamsRefused.contains(connection.id)
    }

    public func closed(_ connection: ConnectionInfo) {
        streamsAdmitted.remove(connection.id)
        streamsRefused.remove(connection.id)
    }

    public func respond(toRefusedLine line: FramedLine, from connection: ConnectionInfo) -> [UInt8] {
        deferred(answer(refusedLine: line, from: connection))
    }

    private func answer(refusedLine line: FramedLine, from connection: ConnectionInfo) -> [UInt8] {
        if credentials.streamNeedsKey(connection) && !streamsAdmitted.contains(connection.id) {
            streamsRefused.insert(connection.id)
            return Array(#"{"ok": false, "error": "unauthorized: this Shade was started with --api-key"}"#.utf8)
        }
        let reason = "line \(line.number): \(line.problem ?? "refused")"
        rejectUnreadable(source: SourcePosition(name: connection.description, line: line.number), reason: reason)
        return replies.genericBytes([.refused(nil, PushRefusal(status: 413, code: nil, message: reason))], isBatch: false)
    }

    /// A body or line holding a JSON array: a batch, answered with `ids`. One that does not parse is
    /// not a batch but a bad request, whatever its first byte.
    static func isBatch(_ bytes: [UInt8], _ outcomes: [Intake.Outcome]) -> Bool {
        guard bytes.first(where: { !ASCII.isWhitespace($0) }) == UInt8(ascii: "[") else { return false }
        if outcomes.count == 1, case .rejected = outcomes[0] {
            return (try? JSONParser.parse(bytes)) != nil   // parsed again only when it failed
        }
        return true
    }

    /// A request's outcome without its line number (a one-line body's source is the request) and with
    /// the route's notes. Changed where it lies: the push is taken out first (a placeholder stands in),
    /// so it is the only holder of its fields, and neither it nor its notes are copied.
    static func amend(_ outcome: inout Intake.Outcome, withoutLine: Bool, notes: [String]?) {
        switch take(&outcome) {
        case .push(var push):
            if withoutLine { push.source.line = nil }
            // A push with no notes (a request's, nearly always) takes the route's list as it is, shared.
            if let notes { if push.notes.isEmpty { push.notes = notes } else { push.notes += notes } }
            outcome = .push(push)
        case .rejected(var rejection):
            if withoutLine { rejection.source.line = nil }
            outcome = .rejected(rejection)
        }
    }

    private static let placeholder = Intake.Outcome.rejected(Rejection(source: SourcePosition(name: ""), reason: ""))

    /// The outcome, moved out with a placeholder left in its place.
    private static func take(_ outcome: inout Intake.Outcome) -> Intake.Outcome {
        var taken = placeholder
        swap(&taken, &outcome)
        return taken
    }
}

/// The loop's handler: forwards to the session without owning it (the session owns the loop, and the
/// loop its handler).
private final class SessionHandler: ConnectionHandler {
    weak var session: LiveSession?

    func respond(to request: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse {
        session?.respond(to: request, from: connection) ?? .error(status: 503, "Shade is shutting down")
    }

    func respond(toLine line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8] {
        session?.respond(toLine: line, lineNumber: lineNumber, from: connection)
            ?? Array("{\"ok\": false, \"error\": \"Shade is shutting down\"}".utf8)
    }

    func respond(toRefused error: HTTPRequestError, from connection: ConnectionInfo) -> HTTPResponse {
        session?.respond(toRefused: error, from: connection) ?? error.response
    }

    func respond(toRefusedLine line: FramedLine, from connection: ConnectionInfo) -> [UInt8] {
        session?.respond(toRefusedLine: line, from: connection) ?? []
    }

    func closesAfterReply(on connection: ConnectionInfo) -> Bool {
        session?.closesAfterReply(on: connection) ?? true
    }

    func beginLines(from connection: ConnectionInfo) {
        session?.beginLines(from: connection)
    }

    func endLines(from connection: ConnectionInfo, into output: inout [UInt8]) {
        session?.endLines(from: connection, into: &output)
    }

    func closed(_ connection: ConnectionInfo) {
        session?.closed(connection)
    }
}
