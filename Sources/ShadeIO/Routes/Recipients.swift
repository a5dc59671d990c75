// The devices a push is addressed to, and `--unregistered TOKEN`: tokens (and Web Push subscription
// ids) the services answer as gone, so that a backend's clean-up path can be tested.
import ShadeCore

enum Recipients {
    static let legacyNotRegistered = "NotRegistered"
    static let expoNotRegistered = "DeviceNotRegistered"

    /// The addresses a push names, as its service reads them: the APNs token of the path, FCM v1
    /// `message.token` (or `message.fid`, the installation id firebase-admin 7 sends instead), FCM legacy `registration_ids` (else `to`), Expo `to` (a string or an array).
    static func of(_ push: Push, service: PushService) -> [String] {
        switch service {
        case .apns:
            return push.transport.path.flatMap(ServiceRules.apnsDeviceToken(path:)).map { [$0] } ?? []
        case .fcmV1:
            let message = push.payload["message"]
            return (message?["token"]?.string ?? message?["fid"]?.string).map { [$0] } ?? []
        case .fcmLegacy:
            if let tokens = push.payload["registration_ids"]?.array { return tokens.compactMap(\.string) }
            return push.payload["to"]?.string.map { [$0] } ?? []
        case .expo:
            switch push.payload["to"] {
            case .string(let token)?: return [token]
            case .array(let tokens)?: return tokens.compactMap(\.string)
            default: return []
            }
        case .sendToUser, .anyShape, .webPush:
            return []
        }
    }

    /// The refusal when every recipient of `push` is unregistered (the push then reaches nobody and is
    /// not recorded). A push with some registered recipients is taken; its reply marks the others.
    static func refusal(for push: Push, service: PushService, unregistered: Set<String>, now millis: Int64) -> PushRefusal? {
        let tokens = of(push, service: service)
        guard !unregistered.isEmpty, !tokens.isEmpty, tokens.allSatisfy(unregistered.contains) else { return nil }
        let listed = tokens.count == 1 ? "the token \(tokens[0]) is" : "all \(tokens.count) tokens are"
        let why = "\(listed) unregistered (--unregistered): the app was uninstalled or the token expired; stop sending to it"
        switch service {
        case .apns:
            return PushRefusal(status: 410, code: "Unregistered", message: why, timestamp: millis)
        case .fcmV1:
            return PushRefusal(status: 404, code: "NOT_FOUND", message: why, serviceMessage: "Requested entity was not found.")
        case .fcmLegacy:
            return PushRefusal(status: 200, code: legacyNotRegistered, message: why)
        case .expo:
            return PushRefusal(status: 200, code: expoNotRegistered, message: tokens.count == 1 ? expoNotRegisteredMessage(tokens[0]) : why)
        case .sendToUser, .anyShape, .webPush:
            return nil
        }
    }

    /// Expo's words for a token that is no longer registered.
    static func expoNotRegisteredMessage(_ token: String) -> String {
        "\"\(token)\" is not a registered push notification recipient"
    }
}
