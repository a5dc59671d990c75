// What a route (or an NDJSON line) refuses. Every limit and key rule is ShadeCore's `ServiceRules`;
// this file only says which service's rules apply to which push.
import ShadeCore

/// Why one push was refused, in the terms of the service that refused it.
public struct PushRefusal: Equatable, Sendable {
    /// The HTTP status the service answers with (FCM legacy answers 200 with an error in `results`).
    public var status: Int
    /// The service's error code: APNs `reason`, FCM v1 `status`, FCM legacy or Expo `error`.
    /// nil for what Shade itself refuses (invalid JSON, an unknown shape): each route names it its way.
    public var code: String?
    /// A sentence for people: the state's `errors`, NDJSON replies, the headless log.
    public var message: String
    /// The service's own wording where it has one (FCM v1 `error.message`).
    public var serviceMessage: String?
    /// APNs' `timestamp` of a 410: when the token stopped being valid (milliseconds since 1970).
    public var timestamp: Int64?

    public init(status: Int, code: String?, message: String, serviceMessage: String? = nil, timestamp: Int64? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.serviceMessage = serviceMessage
        self.timestamp = timestamp
    }

    init(_ refusal: ServiceRules.Refusal) {
        self.init(status: refusal.status, code: refusal.reason, message: refusal.message, serviceMessage: refusal.serviceMessage)
    }

    /// An HTTP status for replies that are not the service's own (`/push`, NDJSON): a refusal the
    /// service answers with 200 (FCM legacy) is still a 400 there.
    var errorStatus: Int { (400..<600).contains(status) ? status : 400 }
}

enum ServiceChecks {
    /// The key `xcrun simctl push` reads; it never reaches APNs, so it does not count toward the size (D4).
    static let simulatorBundleKey = "Simulator Target Bundle"

    /// A request or NDJSON line of more pushes than its service takes at once, refused whole (413)
    /// before any is taken: the reply to a batch grows with it (an attack showed it: 349,524 `{}` in 1 MiB got a
    /// 124 MB reply and held the loop for 17 s).
    /// The most pushes one request or NDJSON line to `service` may hold.
    static func batchLimit(_ service: PushService) -> Int {
        service == .expo ? ServiceRules.expoBatchLimit : ServiceRules.batchLimit
    }

    static func batchRefusal(pushes count: Int, service: PushService, counting what: String = "pushes") -> PushRefusal? {
        if service == .expo {
            guard count > ServiceRules.expoBatchLimit else { return nil }
            return PushRefusal(status: 413, code: "PUSH_TOO_MANY_NOTIFICATIONS",
                               message: "You can send a maximum of \(ServiceRules.expoBatchLimit) notifications per request "
                                   + "(received \(count)); divide your requests.")
        }
        guard count > ServiceRules.batchLimit else { return nil }
        return PushRefusal(status: 413, code: service == .apns ? "PayloadTooLarge" : nil,
                           message: "a batch of \(count) \(what): Shade takes at most \(ServiceRules.batchLimit) in one request or "
                               + "NDJSON line (as FCM takes 1000 registration_ids at most) — send them in several")
    }

    /// The first refusal `service` gives `push`, or nil when the push goes through.
    static func refusal(for push: Push, service: PushService) -> PushRefusal? {
        // The push service cannot read what it carries: what the browser makes of it is the Center's.
        if service == .webPush { return nil }
        if let wrongShape = shapeRefusal(push, service: service) { return wrongShape }
        let rules: PushService = service == .anyShape || service == .sendToUser || service == .expo
            ? shapeService(push.shape) : service
        switch rules {
        case .apns: return apns(push)
        case .fcmV1: return fcmV1(push)
        case .fcmLegacy: return fcmLegacy(push)
        // The services' own checks above cover everything their platform's reading refuses.
        case .sendToUser, .expo, .anyShape, .webPush: return onlyPlatformRefuses(push)
        }
    }

    /// The service a shape is sent through; the shapes that fan out to several (send-to-user, Expo,
    /// data-only) have no single one.
    static func shapeService(_ shape: PayloadShape) -> PushService {
        switch shape {
        case .apns: .apns
        case .fcmV1: .fcmV1
        case .fcmLegacy: .fcmLegacy
        case .envelope, .sendToUser, .expo, .webPush, .dataOnly, .pusherBeams: .anyShape
        }
    }

    /// Routes that take one request format refuse the others, as the real service does.
    static func shapeRefusal(_ push: Push, service: PushService) -> PushRefusal? {
        switch service {
        case .sendToUser where push.shape != .sendToUser:
            return PushRefusal(status: 400, code: nil, message: "send-to-user takes {\"userId\": …, \"title\": …, \"body\": …, \"data\": {…}} (D3); "
                + "got \(article(push.shape.displayName)) — POST it to /push, or add userId")
        case .fcmV1 where push.shape != .fcmV1:
            let message = "the FCM v1 API takes {\"message\": {…}} (D2); got \(article(push.shape.displayName)) — wrap it in \"message\", or POST it to /push"
            return PushRefusal(status: 400, code: "INVALID_ARGUMENT", message: message,
                               serviceMessage: "Invalid JSON payload received. \(message)")
        case .apns where push.shape != .apns:
            // APNs delivers to Apple devices only: another service's request sent to it is misrouted,
            // and must not show on Android or the web as if its own service had carried it.
            return PushRefusal(status: 400, code: nil, message: "APNs takes {\"aps\": {…}} (D4); got \(article(push.shape.displayName))"
                                + " — put what it shows in \"aps\", or POST it to /push")
        case .fcmLegacy where push.shape != .fcmLegacy && push.shape != .dataOnly:
            // FCM delivers to Android, iOS and the web alike, but reads only its own format: an APNs
            // payload sent to it must not show on iOS as if FCM had carried it.
            return PushRefusal(status: 400, code: nil,
                               message: "FCM legacy takes {\"to\": …, \"notification\": {…}, \"data\": {…}} (D7); "
                                + "got \(article(push.shape.displayName)) — POST it to /push, or address it with \"to\"")
        case .expo where push.shape != .expo:
            return PushRefusal(status: 400, code: "DeviceNotRegistered",
                               message: "Expo takes messages whose \"to\" is an Expo push token, ExponentPushToken[…] (D5); "
                                + "got \(article(push.shape.displayName)) — POST it to /push, or send it to an Expo token")
        default:
            return nil
        }
    }

    /// V1, V2 for an APNs request: the device token of its path, the size as APNs measures it,
    /// `apns-collapse-id` and `apns-priority`.
    static func apns(_ push: Push) -> PushRefusal? {
        let headers = push.transport.headers
        if let path = push.transport.path, let token = ServiceRules.apnsDeviceToken(path: path),
           let refusal = ServiceRules.deviceTokenRefusal(token) {
            return PushRefusal(refusal)
        }
        // Measured on the payload as received, without the simulator key.
        if let refusal = push.withPayload({ ServiceRules.apnsSizeRefusal(measuring: $0, removing: [simulatorBundleKey], headers: headers) }) {
            return PushRefusal(refusal)
        }
        if let refusal = ServiceRules.collapseIDRefusal(headers: headers) { return PushRefusal(refusal) }
        if let refusal = ServiceRules.priorityRefusal(headers: headers) { return PushRefusal(refusal) }
        return nil
    }

    /// V1, V3 for FCM v1: the size, and `data` maps of strings without reserved keys.
    static func fcmV1(_ push: Push) -> PushRefusal? {
        push.withPayload { payload in
            if let refusal = ServiceRules.fcmSizeRefusal(measuring: payload, service: .fcmV1) { return PushRefusal(refusal) }
            guard let message = payload["message"], message.isObject else { return nil }
            return ServiceRules.fcmV1DataRefusals(in: message).first.map(PushRefusal.init)
        }
    }

    /// V1, V3 for the legacy API: the size and reserved data keys.
    static func fcmLegacy(_ push: Push) -> PushRefusal? {
        push.withPayload { payload in
            if let refusal = ServiceRules.fcmSizeRefusal(measuring: payload, service: .fcmLegacy) { return PushRefusal(refusal) }
            guard payload.isObject else { return nil }
            return ServiceRules.fcmLegacyDataRefusals(in: payload).first.map(PushRefusal.init)
        }
    }

    /// A shape that reaches one platform is refused when that platform's reading refuses it (the
    /// browser's TypeErrors, W3): the reading is the Center's own, so route and state agree.
    static func onlyPlatformRefuses(_ push: Push) -> PushRefusal? {
        guard let platform = push.onlyPlatform,
              case .rejected(let reason) = push.delivery(on: platform, defaultApp: "app") else { return nil }
        let code = reason.hasPrefix("TypeError") ? "TypeError" : nil
        return PushRefusal(status: 400, code: code, message: reason)
    }

    private static func article(_ name: String) -> String {
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "A", "E", "I", "O", "U"]
        // "an FCM …", "an APNs …": initialisms read by letter names starting with a vowel sound.
        if name.hasPrefix("FCM") || name.hasPrefix("APNs") { return "an " + name }
        return (name.first.map(vowels.contains) ?? false ? "an " : "a ") + name
    }
}
