/// The payload shapes of SPEC §1, in detection order (the first match wins): D9 is tried after D7.
public enum PayloadShape: String, CaseIterable, Sendable {
    case envelope, fcmV1, sendToUser, apns, expo, webPush, fcmLegacy, pusherBeams, dataOnly

    /// The SPEC rule id, for traces and messages.
    public var rule: String {
        switch self {
        case .envelope: return "D1"
        case .fcmV1: return "D2"
        case .sendToUser: return "D3"
        case .apns: return "D4"
        case .expo: return "D5"
        case .webPush: return "D6"
        case .fcmLegacy: return "D7"
        case .dataOnly: return "D8"
        case .pusherBeams: return "D9"
        }
    }

    public var displayName: String {
        switch self {
        case .envelope: return "envelope"
        case .fcmV1: return "FCM HTTP v1 request"
        case .sendToUser: return "push-service send-to-user request"
        case .apns: return "APNs payload"
        case .expo: return "Expo push message"
        case .webPush: return "web push notification"
        case .fcmLegacy: return "FCM legacy message"
        case .pusherBeams: return "Pusher Beams publish request"
        case .dataOnly: return "data-only message"
        }
    }

    /// The platforms a shape can reach; the others count it as `elsewhere` (SPEC §1). A payload may
    /// reach fewer: see `reaches(_:payload:)`.
    public var platforms: Set<Platform> { Set(Platform.allCases.filter(reaches)) }

    /// Whether the shape can reach a platform: what every center asks of every push, without building a set.
    public func reaches(_ platform: Platform) -> Bool {
        switch self {
        case .envelope, .fcmV1, .sendToUser, .dataOnly, .pusherBeams: return true
        case .apns: return platform == .ios
        case .expo: return platform != .web
        case .webPush: return platform == .web
        case .fcmLegacy: return platform != .web
        }
    }

    /// Whether this payload of the shape reaches a platform (SPEC §1): FCM legacy reaches iOS only
    /// with a `notification` block or `content_available`; a Pusher Beams request reaches the
    /// platforms it has a block for (`apns`, `fcm`, `web`).
    public func reaches(_ platform: Platform, payload: JSON) -> Bool { reaches(platform, in: payload) }

    func reaches<V: JSONReadable>(_ platform: Platform, in payload: V) -> Bool {
        guard reaches(platform) else { return false }
        switch (self, platform) {
        case (.fcmLegacy, .ios):
            return payload["notification"]?.isObject == true || (payload.isObject && ShapeReader.legacyContentAvailable(payload))
        case (.pusherBeams, .ios): return payload["apns"]?.isObject == true
        case (.pusherBeams, .android): return payload["fcm"]?.isObject == true
        case (.pusherBeams, .web): return payload["web"]?.isObject == true
        default: return true
        }
    }

    /// Detects the shape of a payload object (SPEC §1, D1–D8 in order), or explains why none fits.
    public static func detect(_ payload: JSONObject) -> Result<PayloadShape, ShapeMismatch> { detect(JSON.object(payload)) }

    static func detect<V: JSONReadable>(_ payload: V) -> Result<PayloadShape, ShapeMismatch> {
        shape(of: payload, LookedUpKeys(payload))
    }

    /// A payload on its tape has its members read in one pass (every push is detected, an envelope's
    /// payload twice: key by key that was ten lookups a push).
    static func detect(_ payload: PayloadValue) -> Result<PayloadShape, ShapeMismatch> {
        if case .view(let view) = payload, let keys = TapeShapeKeys(view) { return shape(of: view, keys) }
        return shape(of: payload, LookedUpKeys(payload))
    }

    /// SPEC §1's order, D1–D9, on the members it asks about.
    private static func shape<V: JSONReadable, K: ShapeKeys>(of payload: V, _ keys: K) -> Result<PayloadShape, ShapeMismatch> {
        if keys[.payload]?.isObject == true, !keys.has(.aps), !keys.has(.message), !keys.has(.notification), !keys.has(.data) {
            return .success(.envelope)
        }
        if keys[.message]?.isObject == true { return .success(.fcmV1) }
        if keys.has(.userId) || keys.has(.userIds) { return .success(.sendToUser) }
        if keys[.aps]?.isObject == true { return .success(.apns) }
        if isExpoAddress(keys[.to]) { return .success(.expo) }
        if isWebPush(keys) { return .success(.webPush) }
        if keys.has(.to) || keys.has(.registrationIDs) || keys.has(.condition) || keys.has(.notification)
            || keys.has(.collapse_key) || keys.has(.collapseKey) || keys.has(.time_to_live) || keys.has(.timeToLive) {
            return .success(.fcmLegacy)
        }
        if isPusherBeams(keys) { return .success(.pusherBeams) }
        if keys[.data]?.isObject == true { return .success(.dataOnly) }
        return .failure(ShapeMismatch(keys: payload.keys))
    }

    /// D9: `interests` or `users`, and at least one platform block.
    static func isPusherBeams<V: JSONReadable>(_ payload: V) -> Bool { isPusherBeams(LookedUpKeys(payload)) }

    private static func isPusherBeams<K: ShapeKeys>(_ keys: K) -> Bool {
        guard keys[.interests]?.isArray == true || keys[.users]?.isArray == true else { return false }
        return keys[.apns]?.isObject == true || keys[.fcm]?.isObject == true || keys[.web]?.isObject == true
    }

    /// D6: declarative web push (`web_push: 8030`) or the arguments of `showNotification(title, options)`.
    public static func isWebPush(_ payload: JSONObject) -> Bool { isWebPush(JSON.object(payload)) }

    static func isWebPush<V: JSONReadable>(_ payload: V) -> Bool { isWebPush(LookedUpKeys(payload)) }

    private static func isWebPush<K: ShapeKeys>(_ keys: K) -> Bool {
        if keys[.webPush]?.int == 8030 { return true }
        if keys[.title]?.isString == true, keys[.options]?.isObject == true { return true }
        return false
    }

    static func isExpoAddress<V: JSONReadable>(_ value: V?) -> Bool {
        func isToken(_ s: String) -> Bool { s.hasPrefix("ExponentPushToken[") || s.hasPrefix("ExpoPushToken[") }
        guard let value else { return false }
        switch value.kind {
        case .string: return value.string.map(isToken) ?? false
        case .array: return value.count > 0 && value.elements.allSatisfy { $0.string.map(isToken) ?? false }
        default: return false
        }
    }
}

/// The top-level keys shape detection asks about (SPEC §1).
enum ShapeKey: Int, CaseIterable {
    case payload, message, aps, notification, data, userId, userIds, to, webPush, title, options, registrationIDs,
         condition, collapse_key, collapseKey, time_to_live, timeToLive, interests, users, apns, fcm, web

    var name: String {
        switch self {
        case .payload: return "payload"
        case .message: return "message"
        case .aps: return "aps"
        case .notification: return "notification"
        case .data: return "data"
        case .userId: return "userId"
        case .userIds: return "userIds"
        case .to: return "to"
        case .webPush: return "web_push"
        case .title: return "title"
        case .options: return "options"
        case .registrationIDs: return "registration_ids"
        case .condition: return "condition"
        case .collapse_key: return "collapse_key"
        case .collapseKey: return "collapseKey"
        case .time_to_live: return "time_to_live"
        case .timeToLive: return "timeToLive"
        case .interests: return "interests"
        case .users: return "users"
        case .apns: return "apns"
        case .fcm: return "fcm"
        case .web: return "web"
        }
    }
}

/// A payload's members by the keys shape detection asks about: each the last member of its name, as a
/// lookup finds it.
protocol ShapeKeys {
    associatedtype Value: JSONReadable
    subscript(key: ShapeKey) -> Value? { get }
}

extension ShapeKeys {
    func has(_ key: ShapeKey) -> Bool { self[key] != nil }
}

/// Key by key, as it is asked (a tree; lint).
struct LookedUpKeys<Value: JSONReadable>: ShapeKeys {
    let payload: Value
    init(_ payload: Value) { self.payload = payload }
    subscript(key: ShapeKey) -> Value? { payload[key.name] }
}

/// An object on its tape, its members read in one pass: each name told apart by its length, then its
/// bytes; a later member of a name replaces an earlier one, as lookups take the last. Only token
/// indices are kept.
struct TapeShapeKeys: ShapeKeys {
    let object: JSONView
    /// The value token of each key's last member, or 0 (a member's value is never the object's own token).
    private var found = SIMD32<Int32>(repeating: 0)

    /// nil when a key holds an escape: its text must be decoded to be compared (then key by key).
    init?(_ object: JSONView) {
        guard object.isObject else { return nil }
        self.object = object
        let text = object.bytes.baseAddress!
        for (key, value) in object.members {
            let token = key.token
            guard token.count >= 0 else { return nil }
            let name = text + token.start
            @inline(__always) func named(_ literal: StaticString) -> Bool {
                JSONTape.bytesEqual(name, literal.utf8Start, literal.utf8CodeUnitCount)
            }
            let at = Int32(truncatingIfNeeded: value.index)
            @inline(__always) func note(_ key: ShapeKey) { found[key.rawValue] = at }
            switch token.count {
            case 2: if named("to") { note(.to) }
            case 3: if named("aps") { note(.aps) } else if named("fcm") { note(.fcm) } else if named("web") { note(.web) }
            case 4: if named("data") { note(.data) } else if named("apns") { note(.apns) }
            case 5: if named("title") { note(.title) } else if named("users") { note(.users) }
            case 6: if named("userId") { note(.userId) }
            case 7:
                if named("payload") { note(.payload) } else if named("message") { note(.message) }
                else if named("userIds") { note(.userIds) } else if named("options") { note(.options) }
            case 8: if named("web_push") { note(.webPush) }
            case 9: if named("condition") { note(.condition) } else if named("interests") { note(.interests) }
            case 10: if named("timeToLive") { note(.timeToLive) }
            case 11: if named("collapseKey") { note(.collapseKey) }
            case 12:
                if named("notification") { note(.notification) } else if named("collapse_key") { note(.collapse_key) }
                else if named("time_to_live") { note(.time_to_live) }
            case 16: if named("registration_ids") { note(.registrationIDs) }
            default: break
            }
        }
    }

    subscript(key: ShapeKey) -> JSONView? {
        let at = found[key.rawValue]
        return at == 0 ? nil : object.at(Int(at))
    }
}

/// Why a payload is of no known shape: names every shape tried, so the sender can see which key is missing.
public struct ShapeMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    public var keys: [String]

    public var description: String {
        let shown = keys.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
        let have = keys.isEmpty ? "an empty object" : "top-level keys \(shown)\(keys.count > 8 ? ", …" : "")"
        return "unknown payload shape (\(have)): tried D1 envelope (\"payload\"), D2 FCM v1 (\"message\"), "
            + "D3 send-to-user (\"userId\"), D4 APNs (\"aps\"), D5 Expo (\"to\": \"ExponentPushToken[…]\"), "
            + "D6 web push (\"web_push\": 8030 or \"title\" + \"options\"), D7 FCM legacy (\"to\", \"notification\", …), "
            + "D9 Pusher Beams (\"interests\" or \"users\" with \"apns\", \"fcm\" or \"web\"), D8 data-only (\"data\" object)"
    }
}
