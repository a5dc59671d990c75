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
        // The keys are tested one by one, not through an array of them: an array literal is built per
        // call, and a key passed through a closure is no longer a literal the lookup can read in place.
        if payload["payload"]?.isObject == true,
           !(payload.has("aps") || payload.has("message") || payload.has("notification") || payload.has("data")) {
            return .success(.envelope)
        }
        if payload["message"]?.isObject == true { return .success(.fcmV1) }
        if payload.has("userId") || payload.has("userIds") { return .success(.sendToUser) }
        if payload["aps"]?.isObject == true { return .success(.apns) }
        if isExpoAddress(payload["to"]) { return .success(.expo) }
        if isWebPush(payload) { return .success(.webPush) }
        if payload.has("to") || payload.has("registration_ids") || payload.has("condition") || payload.has("notification")
            || payload.has("collapse_key") || payload.has("collapseKey") || payload.has("time_to_live") || payload.has("timeToLive") {
            return .success(.fcmLegacy)
        }
        if isPusherBeams(payload) { return .success(.pusherBeams) }
        if payload["data"]?.isObject == true { return .success(.dataOnly) }
        return .failure(ShapeMismatch(keys: payload.keys))
    }

    /// D9: `interests` or `users`, and at least one platform block.
    static func isPusherBeams<V: JSONReadable>(_ payload: V) -> Bool {
        guard payload["interests"]?.isArray == true || payload["users"]?.isArray == true else { return false }
        return payload["apns"]?.isObject == true || payload["fcm"]?.isObject == true || payload["web"]?.isObject == true
    }

    /// D6: declarative web push (`web_push: 8030`) or the arguments of `showNotification(title, options)`.
    public static func isWebPush(_ payload: JSONObject) -> Bool { isWebPush(JSON.object(payload)) }

    static func isWebPush<V: JSONReadable>(_ payload: V) -> Bool {
        if payload["web_push"]?.int == 8030 { return true }
        if payload["title"]?.isString == true, payload["options"]?.isObject == true { return true }
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
