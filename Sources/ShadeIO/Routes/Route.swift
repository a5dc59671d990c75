// The loopback HTTP routes of DESIGN.md: which service each path mimics.
import ShadeCore

/// One route of DESIGN.md's table, matched from a request's method and path.
public enum Route: Equatable, Hashable, Sendable {
    /// `POST /push/send-to-user`: the push service of seed 000.
    case sendToUser
    /// `POST /3/device/{token}`: APNs. The token is as sent (empty when missing).
    case apns(token: String)
    /// `POST /v1/projects/{project}/messages:send`: FCM HTTP v1.
    case fcmV1(project: String)
    /// `POST /fcm/send`: the FCM legacy API.
    case fcmLegacy
    /// `POST /--/api/v2/push/send`: Expo.
    case expo
    /// `POST /push`: any shape.
    case push
    /// `POST /--/api/v2/push/getReceipts`: Expo's receipts for the tickets it handed out.
    case expoReceipts
    /// `GET /webpush/subscription`: the PushSubscription a page would get from the browser.
    case webPushSubscription
    /// `POST /webpush/{id}`: a push service's endpoint, taking encrypted Web Push messages.
    case webPush(id: String)
    case state
    case healthz
    /// `POST /token`: Google's OAuth token endpoint (FCM v1 clients call it first). Not a push route.
    case oauthToken

    public enum Match: Equatable, Sendable {
        case found(Route)
        /// The path is a route, the method is not its method.
        case wrongMethod(allowed: String)
        case notFound
    }

    /// Every route, as the 404 reply and `--help` list them.
    public static let table = [
        "POST /push/send-to-user", "POST /3/device/{token}", "POST /v1/projects/{project}/messages:send",
        "POST /fcm/send", "POST /--/api/v2/push/send", "POST /--/api/v2/push/getReceipts", "POST /push",
        "GET /webpush/subscription", "POST /webpush/{id}", "GET /state[?platform=android|ios|web|all]", "GET /healthz",
        "POST /token (OAuth, for FCM v1 clients)",
    ]

    public static func match(method: String, path: String) -> Match {
        guard let route = route(path: path) else { return .notFound }
        if method == route.method || (route.method == "GET" && method == "HEAD") { return .found(route) }
        return .wrongMethod(allowed: route.method == "GET" ? "GET, HEAD" : route.method)
    }

    static func route(path: String) -> Route? {
        switch path {
        case "/push/send-to-user": return .sendToUser
        case "/fcm/send": return .fcmLegacy
        case "/--/api/v2/push/send": return .expo
        case "/push": return .push
        case "/--/api/v2/push/getReceipts": return .expoReceipts
        case "/webpush/subscription": return .webPushSubscription
        case "/state": return .state
        case "/healthz": return .healthz
        case "/token": return .oauthToken
        default: break
        }
        if let token = ServiceRules.apnsDeviceToken(path: path) { return .apns(token: token) }
        if path.hasPrefix("/webpush/"), path.utf8.count > "/webpush/".utf8.count {
            let id = path.dropFirst("/webpush/".count)
            if !id.contains("/") { return .webPush(id: String(id)) }
        }
        let prefix = "/v1/projects/", suffix = "/messages:send"
        if path.hasPrefix(prefix), path.hasSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count {
            let project = path.dropFirst(prefix.count).dropLast(suffix.count)
            if !project.contains("/") { return .fcmV1(project: String(project)) }
        }
        return nil
    }

    public var method: String {
        switch self {
        case .state, .healthz, .webPushSubscription: "GET"
        default: "POST"
        }
    }

    /// Whether the route takes pushes (changes what Shade shows): with `--api-key` such a route needs
    /// the key (`Credentials`). The routes that only read or hand out a token are named here; any other,
    /// a route added later included, takes pushes unless it is added to this list.
    public var takesPushes: Bool {
        switch self {
        case .state, .healthz, .webPushSubscription, .expoReceipts, .oauthToken: false
        default: true
        }
    }

    /// The envelope's `via` for pushes that came this way.
    public var via: String {
        switch self {
        case .apns: "apns"
        case .fcmV1, .fcmLegacy: "fcm"
        case .expo, .expoReceipts: "expo"
        case .webPush: Push.webPushVia
        case .sendToUser, .push, .state, .healthz, .webPushSubscription, .oauthToken: "http"
        }
    }

    /// The service in sentences: "APNs would answer 403 …".
    var serviceName: String {
        switch self {
        case .apns: "APNs"
        case .fcmV1, .fcmLegacy: "FCM"
        case .expo, .expoReceipts: "Expo"
        case .sendToUser, .webPush, .webPushSubscription: "the push service"
        case .oauthToken: "Google's OAuth"
        case .push, .state, .healthz: "Shade"
        }
    }

    /// Whose checks and reply format this route uses.
    var service: PushService {
        switch self {
        case .sendToUser: .sendToUser
        case .apns: .apns
        case .fcmV1: .fcmV1
        case .fcmLegacy: .fcmLegacy
        case .expo, .expoReceipts: .expo
        case .webPush, .webPushSubscription: .webPush
        case .push, .state, .healthz, .oauthToken: .anyShape
        }
    }
}

/// The service a push goes through, which decides the checks (SPEC §9: "an error of the route's own
/// service") and, for a route, the shape of its replies.
enum PushService: Equatable, Sendable {
    case sendToUser, apns, fcmV1, fcmLegacy, expo
    /// A Web Push endpoint: the push service checked encryption and VAPID, and never sees the plaintext.
    case webPush
    /// `POST /push` and NDJSON: the checks of the service the payload's shape goes to.
    case anyShape

    /// The platforms whatever this service carries can reach, where that is fewer than all: what
    /// it could not read still counts only there (DESIGN: rejected on the platforms it reaches).
    var platforms: Set<Platform>? {
        switch self {
        case .apns: [.ios]
        case .webPush: [.web]
        case .sendToUser, .fcmV1, .fcmLegacy, .expo, .anyShape: nil
        }
    }
}
