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
    public func reaches(_ platform: Platform, payload: JSON) -> Bool {
        guard reaches(platform) else { return false }
        switch (self, platform) {
        case (.fcmLegacy, .ios):
            return payload["notification"]?.object != nil || ShapeReader.legacyContentAvailable(payload.object ?? JSONObject())
        case (.pusherBeams, .ios): return payload["apns"]?.object != nil
        case (.pusherBeams, .android): return payload["fcm"]?.object != nil
        case (.pusherBeams, .web): return payload["web"]?.object != nil
        default: return true
        }
    }

    /// Detects the shape of a payload object (SPEC §1, D1–D8 in order), or explains why none fits.
    public static func detect(_ payload: JSONObject) -> Result<PayloadShape, ShapeMismatch> {
        if case .object? = payload["payload"], !["aps", "message", "notification", "data"].contains(where: payload.has) {
            return .success(.envelope)
        }
        if case .object? = payload["message"] { return .success(.fcmV1) }
        if payload.has("userId") || payload.has("userIds") { return .success(.sendToUser) }
        if case .object? = payload["aps"] { return .success(.apns) }
        if isExpoAddress(payload["to"]) { return .success(.expo) }
        if isWebPush(payload) { return .success(.webPush) }
        let legacyKeys = ["to", "registration_ids", "condition", "notification", "collapse_key", "collapseKey", "time_to_live", "timeToLive"]
        if legacyKeys.contains(where: payload.has) { return .success(.fcmLegacy) }
        if isPusherBeams(payload) { return .success(.pusherBeams) }
        if case .object? = payload["data"] { return .success(.dataOnly) }
        return .failure(ShapeMismatch(keys: payload.keys))
    }

    /// D9: `interests` or `users`, and at least one platform block.
    static func isPusherBeams(_ payload: JSONObject) -> Bool {
        guard payload["interests"]?.array != nil || payload["users"]?.array != nil else { return false }
        return ["apns", "fcm", "web"].contains { payload[$0]?.object != nil }
    }

    /// D6: declarative web push (`web_push: 8030`) or the arguments of `showNotification(title, options)`.
    public static func isWebPush(_ payload: JSONObject) -> Bool {
        if payload["web_push"]?.int == 8030 { return true }
        if case .string? = payload["title"], case .object? = payload["options"] { return true }
        return false
    }

    static func isExpoAddress(_ value: JSON?) -> Bool {
        func isToken(_ s: String) -> Bool { s.hasPrefix("ExponentPushToken[") || s.hasPrefix("ExpoPushToken[") }
        switch value {
        case .string(let s)?: return isToken(s)
        case .array(let a)?: return !a.isEmpty && a.allSatisfy { $0.string.map(isToken) ?? false }
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
