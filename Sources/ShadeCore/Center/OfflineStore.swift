/// SPEC §8: what the push services keep for one device while it is offline, and what they hand over
/// when it comes back. One value per offline spell of a Center; pure: times come in as arguments.
///
/// Which service holds a push depends on how it was sent: on Android everything goes through FCM; on
/// iOS FCM requests (D2, D7) go through FCM and the rest straight to APNs; on the web FCM v1 requests
/// through FCM and the rest through the browser's web push service. Each keeps what its rule says,
/// so the store never holds more than the services would: 4 collapsed and 100 other FCM pushes, one
/// push per app at APNs, and what web TTLs keep.
public struct OfflineStore: Sendable {
    /// The service that holds a push for the device.
    public enum Service: String, Sendable {
        case fcm = "FCM"
        case apns = "APNs"
        case webPush = "the web push service"
    }

    /// O1: FCM keeps the newest push of at most 4 collapse keys; O2: at most 100 others.
    public static let collapseKeyLimit = 4
    public static let nonCollapsibleLimit = 100
    /// O5: FCM's default (and longest) time to live: 4 weeks.
    public static let fcmDefaultTTLSeconds = 2_419_200

    public let platform: Platform
    /// When the device went offline (ms since the epoch).
    public let since: Int64

    /// A push a service holds, with what it took to decide its fate.
    struct Waiting: Sendable {
        var push: Push
        var delivery: Delivery
        var receivedAt: Int64
        /// Arrival order: the services send what they kept oldest first.
        var order: Int
        var service: Service
        /// When it expires (O5), nil when it never does while waiting; and how that was decided.
        var expiresAt: Int64?
        var lifetime: String
        /// The rule that kept it and why it was kept, for the delivered item's trace.
        var rule: String
        var kept: String
    }

    /// O1: the newest push of each collapse key, least recently used first.
    var collapsed: [(key: String, waiting: Waiting)] = []
    /// O2
    var nonCollapsible: [Waiting] = []
    /// O2: pushes FCM discarded for going past its limit; the app is told once on reconnect.
    var deleted = 0
    /// O3: the newest push per app (per topic), by topic.
    var newestPerTopic: [String: Waiting] = [:]
    /// O4: web push: each until its TTL runs out; a `Topic` replaces the one waiting with it.
    var web: [Waiting] = []
    var nextOrder = 0
    /// What each rule discarded, for the event that sums it up on reconnect.
    var droppedBy: [String: Int] = [:]

    public init(platform: Platform, since: Int64) {
        self.platform = platform
        self.since = since
    }

    /// Pushes waiting now.
    public var waitingCount: Int { collapsed.count + nonCollapsible.count + newestPerTopic.count + web.count }

    /// The service that holds `push` for a device of `platform`.
    public static func service(of push: Push, on platform: Platform) -> Service {
        // A Web Push message came through the browser's push service, whatever its plaintext's shape.
        if push.transport.via == Push.webPushVia { return .webPush }
        switch (platform, push.shape) {
        case (.android, _), (.ios, .fcmV1), (.ios, .fcmLegacy), (.web, .fcmV1): return .fcm
        case (.ios, _): return .apns
        case (.web, _): return .webPush
        }
    }

    // MARK: keeping

    /// A push for the device arrives at `time` while it is offline. Returns how many pushes its
    /// service discarded to make room (the push itself included, when it is discarded).
    public mutating func keep(_ push: Push, _ delivery: Delivery, at time: Int64, defaultApp: String) -> Int {
        let service = Self.service(of: push, on: platform)
        let (expiresAt, lifetime) = Self.expiry(of: push, service: service, platform: platform, receivedAt: time)
        var waiting = Waiting(push: push, delivery: delivery, receivedAt: time, order: nextOrder, service: service,
                              expiresAt: expiresAt, lifetime: lifetime, rule: "", kept: "")
        nextOrder += 1
        let content = Self.content(of: delivery)
        switch service {
        case .fcm: return keepAtFCM(&waiting, content: content, app: content?.app ?? defaultApp)
        case .apns:
            // O3: one per app, per device and topic.
            let topic = push.transport.header("apns-topic").flatMap { $0.isEmpty ? nil : $0 } ?? content?.app ?? defaultApp
            waiting.rule = "O3"
            waiting.kept = "APNs keeps only the newest push for \(topic)"
            let replaced = newestPerTopic.updateValue(waiting, forKey: topic) != nil
            return replaced ? discard(1, by: "O3") : 0
        case .webPush:
            waiting.rule = "O4"
            let topic = webTopic(push)
            waiting.kept = "the web push service keeps each push until its TTL runs out" + (topic.map { " (Topic \($0))" } ?? "")
            if let topic, let index = web.firstIndex(where: { webTopic($0.push) == topic }) {
                web.remove(at: index)
                web.append(waiting)
                return discard(1, by: "O4")
            }
            web.append(waiting)
            return 0
        }
    }

    /// O1, O2.
    mutating func keepAtFCM(_ waiting: inout Waiting, content: Content?, app: String) -> Int {
        let notificationMessage: Bool
        switch waiting.delivery {
        case .show, .call: notificationMessage = true
        default: notificationMessage = false
        }
        let explicitKey = fcmCollapseKey(waiting.push, content: content)
        // O1: a notification message without a collapse key collapses under the app's package.
        guard let key = explicitKey ?? (notificationMessage ? "\u{1F}app " + app : nil) else {
            // O2: non-collapsible; the 101st makes FCM discard them all, that one included.
            waiting.rule = "O2"
            waiting.kept = "FCM keeps up to \(Self.nonCollapsibleLimit) non-collapsible messages (this was number \(nonCollapsible.count + 1))"
            nonCollapsible.append(waiting)
            guard nonCollapsible.count > Self.nonCollapsibleLimit else { return 0 }
            let count = nonCollapsible.count
            nonCollapsible = []
            deleted += count
            return discard(count, by: "O2")
        }
        waiting.rule = "O1"
        waiting.kept = explicitKey.map { "FCM keeps the newest push for collapse key \($0) (at most \(Self.collapseKeyLimit) keys)" }
            ?? "FCM keeps the newest notification of \(app) (no collapse key: collapsible under the app's package name)"
        if let index = collapsed.firstIndex(where: { $0.key == key }) {
            collapsed.remove(at: index)
            collapsed.append((key, waiting))
            return discard(1, by: "O1")
        }
        collapsed.append((key, waiting))
        guard collapsed.count > Self.collapseKeyLimit else { return 0 }
        // Which keys survive is not guaranteed (FCM); Shade keeps the most recently used.
        collapsed.removeFirst()
        return discard(1, by: "O1")
    }

    mutating func discard(_ count: Int, by rule: String) -> Int {
        droppedBy[rule, default: 0] += count
        return count
    }

    /// FCM's collapse key for this device: Android `collapse_key` (legacy, v1 `android.collapse_key`);
    /// on iOS the legacy `collapse_key` or v1 `apns-collapse-id`; on the web v1 `webpush.headers.Topic`.
    func fcmCollapseKey(_ push: Push, content: Content?) -> String? {
        let key: String?
        switch platform {
        case .android: key = content?.collapseKey
        case .ios: key = content?.collapseKey ?? content?.tag
        case .web: key = Self.header("topic", in: push.payload["message"]?["webpush"]?["headers"]?.object)
        }
        return key.flatMap { $0.isEmpty ? nil : $0 }
    }

    func webTopic(_ push: Push) -> String? {
        push.transport.header("topic").flatMap { $0.isEmpty ? nil : $0 }
    }

    static func content(of delivery: Delivery) -> Content? {
        switch delivery {
        case .show(let c), .call(let c), .silent(_, _, let c?): return c
        default: return nil
        }
    }

    // MARK: O5 time to live

    /// When a push expires and how that was decided: FCM `time_to_live` / `android.ttl` (4 weeks when
    /// absent), APNs `apns-expiration` (0: now or never; absent: no expiry), web `TTL` (absent: no expiry).
    static func expiry(of push: Push, service: Service, platform: Platform, receivedAt: Int64) -> (Int64?, String) {
        func after(seconds: Int, _ source: String) -> (Int64?, String) {
            (Checked.add(receivedAt, Checked.multiply(Int64(seconds), 1000)), "time to live \(seconds) s (\(source))")
        }
        func apnsExpiration(_ text: String) -> (Int64?, String)? {
            guard let seconds = Checked.integer(text.trimmingASCIIWhitespace()) else { return nil }
            if seconds <= 0 { return (receivedAt, "apns-expiration 0: delivered now or never") }
            return (Checked.multiply(Int64(seconds), 1000), "apns-expiration \(seconds)")
        }
        let payload = push.payload
        switch service {
        case .apns:
            return push.transport.header("apns-expiration").flatMap(apnsExpiration) ?? (nil, "no apns-expiration: APNs keeps it")
        case .webPush:
            if let ttl = push.transport.header("ttl").flatMap({ Checked.integer($0.trimmingASCIIWhitespace()) }) {
                return after(seconds: max(0, ttl), "TTL header")
            }
            return (nil, "no TTL header: kept")
        case .fcm:
            let message = payload["message"]?.object
            switch platform {
            case .ios:
                let headers = message?["apns"]?["headers"]?.object
                if let text = header("apns-expiration", in: headers), let found = apnsExpiration(text) { return found }
            case .web:
                if let ttl = header("ttl", in: message?["webpush"]?["headers"]?.object).flatMap({ Checked.integer($0.trimmingASCIIWhitespace()) }) {
                    return after(seconds: max(0, ttl), "webpush.headers.TTL")
                }
            case .android:
                let android = message?["android"]?.object.map { KnownKeys.wireForm($0, .androidConfig) }
                if let ttl = android?["ttl"], let seconds = durationSeconds(ttl) { return after(seconds: seconds, "android.ttl") }
            }
            // D7 (and D9's fcm block): time_to_live in seconds; node-gcm's timeToLive.
            let legacy = (payload["fcm"]?.object ?? payload.object).map { KnownKeys.wireForm($0, .legacyMessage) }
            if let seconds = legacy?["time_to_live"]?.int { return after(seconds: max(0, seconds), "time_to_live") }
            return after(seconds: fcmDefaultTTLSeconds, "FCM's default, 4 weeks")
        }
    }

    /// FCM v1 `ttl`: a protobuf Duration (`"3600s"`, `"3.5s"`); the Admin SDK's number is milliseconds.
    static func durationSeconds(_ value: JSON) -> Int? {
        switch value {
        case .string(let text):
            guard text.hasSuffix("s") else { return nil }
            let number = text.dropLast()
            let whole = number.prefix { $0 != "." }
            guard let seconds = Checked.integer(whole.isEmpty ? "0" : String(whole)) else { return nil }
            return max(0, seconds)
        case .number:
            return value.int.map { max(0, $0 / 1000) }
        default:
            return nil
        }
    }

    /// A header in an FCM `headers` object, by its name in any case.
    static func header(_ name: String, in headers: JSONObject?) -> String? {
        headers?.members.last { $0.key.lowercased() == name }?.value.scalarText
    }

    // MARK: coming back

    /// What the services hand over when the device comes back at `until`.
    public struct Release: Sendable {
        /// In the order they were received, each with the trace steps of where it waited.
        public var deliveries: [(push: Push, delivery: Delivery, notes: [TraceStep])]
        /// O5: pushes whose time to live ran out while the device was away.
        public var expired: Int
        /// What the services did while the device was away, for the profile (O2's onDeletedMessages among them).
        public var events: [TraceStep]
    }

    /// Everything waiting, oldest first; expired pushes are dropped (O5).
    public func release(at until: Int64) -> Release {
        var waiting = collapsed.map(\.waiting) + nonCollapsible + Array(newestPerTopic.values) + web
        waiting.sort { $0.order < $1.order }
        var deliveries: [(push: Push, delivery: Delivery, notes: [TraceStep])] = []
        var expired = 0
        let window = "\(Self.clock(since)) → \(Self.clock(until))"
        for item in waiting {
            if let expiresAt = item.expiresAt, expiresAt <= until {
                expired += 1
                continue
            }
            let notes = [
                TraceStep(item.rule, "waited at \(item.service.rawValue) while the device was offline (received \(Self.clock(item.receivedAt)), delivered \(Self.clock(until)) when it came back): \(item.kept)"),
                TraceStep("O5", item.expiresAt.map { "\(item.lifetime): it had not run out at \(Self.clock(until)) (it would at \(Self.clock($0)))" }
                    ?? "\(item.lifetime): it had not run out"),
            ]
            deliveries.append((item.push, item.delivery, notes))
        }
        var events: [TraceStep] = []
        let discarded = droppedBy
        if deleted > 0 {
            events.append(TraceStep("O2", "offline \(window): FCM had more than \(Self.nonCollapsibleLimit) non-collapsible messages and discarded \(deleted); on reconnect the app's onDeletedMessages() is called once"))
        }
        if let n = discarded["O1"] {
            events.append(TraceStep("O1", "offline \(window): FCM kept only the newest push per collapse key (at most \(Self.collapseKeyLimit) keys): \(n) dropped"))
        }
        if let n = discarded["O3"] {
            events.append(TraceStep("O3", "offline \(window): APNs kept only the newest push per app: \(n) dropped"))
        }
        if let n = discarded["O4"] {
            events.append(TraceStep("O4", "offline \(window): \(n) web \(n == 1 ? "push was" : "pushes were") replaced by a later one with the same Topic"))
        }
        if expired > 0 {
            events.append(TraceStep("O5", "offline \(window): \(expired) \(expired == 1 ? "push" : "pushes") expired before the device came back"))
        }
        return Release(deliveries: deliveries, expired: expired, events: events)
    }

    /// `10:15:02` (UTC), or the date too when it is not the epoch's first day (a recording's times).
    static func clock(_ millis: Int64) -> String {
        let iso = Timestamp.iso8601(millis: millis)
        let time = iso.dropFirst(11).prefix(8)
        return millis >= 0 && millis < 86_400_000 ? String(time) : String(iso.prefix(10)) + " " + time
    }
}
