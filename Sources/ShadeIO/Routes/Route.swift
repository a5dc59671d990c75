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
    case state
    case healthz

    public enum Match: Equatable, Sendable {
        case found(Route)
        /// The path is a route, the method is not its method.
        case wrongMethod(allowed: String)
        case notFound
    }

    /// Every route, as the 404 reply and `--help` list them.
    public static let table = [
        "POST /push/send-to-user", "POST /3/device/{token}", "POST /v1/projects/{project}/messages:send",
        "POST /fcm/send", "POST /--/api/v2/push/send", "POST /push", "GET /state[?platform=android|ios|web|all]",
        "GET /healthz",
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
        case "/state": return .state
        case "/healthz": return .healthz
        default: break
        }
        if let token = ServiceRules.apnsDeviceToken(path: path) { return .apns(token: token) }
        let prefix = "/v1/projects/", suffix = "/messages:send"
        if path.hasPrefix(prefix), path.hasSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count {
            let project = path.dropFirst(prefix.count).dropLast(suffix.count)
            if !project.contains("/") { return .fcmV1(project: String(project)) }
        }
        return nil
    }

    public var method: String {
        switch self {
        case .state, .healthz: "GET"
        default: "POST"
        }
    }

    /// Whether the route takes pushes (changes what Shade shows): with `--api-key` such a route needs
    /// the key (`Credentials`). Every route but the GET ones does, so a route added later falls under
    /// the rule unless it only reads.
    public var takesPushes: Bool { method != "GET" }

    /// The envelope's `via` for pushes that came this way.
    public var via: String {
        switch self {
        case .apns: "apns"
        case .fcmV1, .fcmLegacy: "fcm"
        case .expo: "expo"
        case .sendToUser, .push, .state, .healthz: "http"
        }
    }

    /// Whose checks and reply format this route uses.
    var service: PushService {
        switch self {
        case .sendToUser: .sendToUser
        case .apns: .apns
        case .fcmV1: .fcmV1
        case .fcmLegacy: .fcmLegacy
        case .expo: .expo
        case .push, .state, .healthz: .anyShape
        }
    }
}

/// The service a push goes through, which decides the checks (SPEC §9: "an error of the route's own
/// service") and, for a route, the shape of its replies.
enum PushService: Equatable, Sendable {
    case sendToUser, apns, fcmV1, fcmLegacy, expo
    /// `POST /push` and NDJSON: the checks of the service the payload's shape goes to.
    case anyShape
}
