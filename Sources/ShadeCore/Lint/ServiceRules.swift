/// What the push services and browsers refuse. Written once: the Center rejects with these
/// (I9, W3), the loopback routes answer with them, and `shade lint` reports them (V1, V2, V7).
public enum ServiceRules {
    /// APNs refuses larger payloads with `PayloadTooLarge` (I9, V1).
    public static let apnsLimit = 4096
    public static let apnsVoIPLimit = 5120
    /// FCM refuses a message whose payload is over 4 KB (V1).
    public static let fcmLimit = 4096
    /// Push services for browsers take about 4 KB of encrypted payload (V1, a warning).
    public static let webPushLimit = 4096
    /// APNs refuses a longer `apns-collapse-id` with `BadCollapseId` (I4, V2).
    public static let collapseIDLimit = 64

    /// Is this an APNs VoIP push (I7)? A `voip` push type, or a topic ending in `.voip`.
    public static func isVoIP(headers: [String: String]) -> Bool {
        headers["apns-push-type"]?.lowercased() == "voip" || (headers["apns-topic"]?.hasSuffix(".voip") ?? false)
    }

    /// An APNs refusal: the HTTP status and `reason` APNs answers with, and a sentence for people.
    public struct APNsRefusal: Sendable, Equatable {
        public var status: Int
        public var reason: String
        public var rule: String
        public var message: String
    }

    /// I9/V1: the payload measured as the compact JSON APNs would receive.
    public static func apnsSizeRefusal(payload: JSON, headers: [String: String]) -> APNsRefusal? {
        let voip = isVoIP(headers: headers)
        let limit = voip ? apnsVoIPLimit : apnsLimit
        let size = JSONWriter.compactSize(payload)
        guard size > limit else { return nil }
        return APNsRefusal(status: 413, reason: "PayloadTooLarge", rule: "I9",
                           message: "PayloadTooLarge: the APNs payload is \(size) bytes as compact JSON, over the \(limit)-byte limit\(voip ? " for VoIP" : "") (I9); APNs refuses it")
    }

    /// I4/V2: `apns-collapse-id` longer than 64 bytes.
    public static func collapseIDRefusal(headers: [String: String]) -> APNsRefusal? {
        guard let id = headers["apns-collapse-id"], id.utf8.count > collapseIDLimit else { return nil }
        return APNsRefusal(status: 400, reason: "BadCollapseId", rule: "V2",
                           message: "BadCollapseId: apns-collapse-id is \(id.utf8.count) bytes, over the \(collapseIDLimit)-byte limit (I4)")
    }

    /// FCM's own size limit (V1), for the FCM shapes.
    public static func fcmSizeRefusal(payload: JSON) -> String? {
        let size = JSONWriter.compactSize(payload)
        guard size > fcmLimit else { return nil }
        return "message too big: the FCM payload is \(size) bytes as compact JSON, over the \(fcmLimit)-byte limit (V1); FCM refuses it"
    }

    /// W3/V7: the options a browser's `showNotification` throws a TypeError for.
    public static func webOptionErrors(_ options: JSONObject, path: String) -> [(path: String, message: String)] {
        var errors: [(String, String)] = []
        let tag = options["tag"]?.string ?? ""
        if options["renotify"]?.bool == true && tag.isEmpty {
            errors.append(("\(path).renotify", "TypeError: renotify needs a non-empty tag; the browser refuses to show it (W3)"))
        }
        if options["silent"]?.bool == true, let vibrate = options["vibrate"], !vibrate.isNull {
            errors.append(("\(path).vibrate", "TypeError: silent cannot be combined with vibrate; the browser refuses to show it (W3)"))
        }
        return errors
    }

    /// Chrome shows at most two action buttons (W4).
    public static let webMaxActions = 2
}
