/// What the push services and browsers refuse. Written once: the Center rejects with these
/// (I9, W3), the loopback routes answer with them, and `shade lint` reports them (V1, V2, V3, V7).
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
    /// The most pushes one request or NDJSON line may carry: FCM legacy's 1000 `registration_ids`, the
    /// largest fan-out one request takes at any service Shade mimics. Past it the batch is refused
    /// whole (413), before any push is taken.
    public static let batchLimit = 1000
    /// Expo takes at most 100 messages a request (`PUSH_TOO_MANY_NOTIFICATIONS`).
    public static let expoBatchLimit = 100

    /// Is this an APNs VoIP push (I7)? A `voip` push type, or a topic ending in `.voip`.
    public static func isVoIP(headers: HeaderFields) -> Bool {
        // Compared as bytes, without a lowercase copy: only ASCII letters lowercase to "voip", and no
        // character joins the "." of ".voip" to what comes before it. Every push's reading asks.
        if var type = headers["apns-push-type"], type.utf8.count == 4,
           type.withUTF8({ bytes in (0..<4).allSatisfy { bytes[$0] | 0x20 == voipBytes[$0 + 1] } }) {
            return true
        }
        guard var topic = headers["apns-topic"], topic.utf8.count >= 5 else { return false }
        return topic.withUTF8 { bytes in (0..<5).allSatisfy { bytes[bytes.count - 5 + $0] == voipBytes[$0] } }
    }

    /// `.voip`, as bytes (iterating a String's UTF8View, reversed, cost more than the lookups).
    private static let voipBytes: [UInt8] = Array(".voip".utf8)

    /// Which service answers a refusal: the loopback routes reply in that service's format.
    public enum Service: String, Sendable, Equatable {
        /// `{"reason": …}` with the HTTP status.
        case apns
        /// FCM HTTP v1: `{"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": …}}`.
        case fcmV1
        /// FCM legacy: `{"failure": 1, "results": [{"error": …}]}`.
        case fcmLegacy
        /// A web push service (RFC 8030): a bare HTTP status.
        case webPush
        /// The browser's `showNotification`, which throws a `TypeError`.
        case browser
    }

    /// A refusal: the HTTP status and reason the real service answers with, the Shade rule, where
    /// in the payload the problem is (nil for a header or the URL path), and a sentence for people.
    public struct Refusal: Sendable, Equatable {
        public var service: Service
        public var status: Int
        /// APNs `reason`, FCM v1 `status` (`INVALID_ARGUMENT`), FCM legacy error, or `TypeError`.
        public var reason: String
        public var rule: String
        public var path: String?
        public var message: String
        /// The service's own error text where it writes one (FCM v1 `error.message`).
        public var serviceMessage: String?

        public init(service: Service, status: Int, reason: String, rule: String, path: String? = nil, message: String,
                    serviceMessage: String? = nil) {
            self.service = service
            self.status = status
            self.reason = reason
            self.rule = rule
            self.path = path
            self.message = message
            self.serviceMessage = serviceMessage
        }
    }

    /// An APNs refusal (kept under its first name for the callers that use it).
    public typealias APNsRefusal = Refusal

    // MARK: APNs

    /// I9/V1: the payload measured as the compact JSON APNs would receive.
    public static func apnsSizeRefusal(payload: JSON, headers: HeaderFields) -> APNsRefusal? {
        apnsSizeRefusal(measuring: payload, headers: headers)
    }

    /// The same on any value, measured without its members named in `removed` (the simulator key, D4).
    public static func apnsSizeRefusal<V: JSONReadable>(measuring payload: V, removing removed: [String] = [],
                                                 headers: HeaderFields) -> APNsRefusal? {
        let voip = isVoIP(headers: headers)
        let limit = voip ? apnsVoIPLimit : apnsLimit
        let size = removed.isEmpty ? payload.compactSize : payload.compactSize(removing: removed)
        guard size > limit else { return nil }
        return Refusal(service: .apns, status: 413, reason: "PayloadTooLarge", rule: "I9", path: "$",
                       message: "PayloadTooLarge: the APNs payload is \(size) bytes as compact JSON, over the \(limit)-byte limit\(voip ? " for VoIP" : "") (I9); APNs refuses it")
    }

    /// I4/V2: `apns-collapse-id` longer than 64 bytes.
    public static func collapseIDRefusal(headers: HeaderFields) -> APNsRefusal? {
        guard let id = headers["apns-collapse-id"], id.utf8.count > collapseIDLimit else { return nil }
        return Refusal(service: .apns, status: 400, reason: "BadCollapseId", rule: "V2",
                       message: "BadCollapseId: apns-collapse-id is \(id.utf8.count) bytes, over the \(collapseIDLimit)-byte limit (I4)")
    }

    /// The `apns-priority` values APNs takes: 10 immediately, 5 power-considerate, 1 opportunistic.
    public static let apnsPriorities: Set<String> = ["1", "5", "10"]

    /// V2: a priority APNs does not know, or priority 10 for a background push (Apple: background
    /// pushes must be sent with priority 5).
    public static func priorityRefusal(headers: HeaderFields) -> APNsRefusal? {
        guard let priority = headers["apns-priority"]?.trimmingASCIIWhitespace() else { return nil }
        guard apnsPriorities.contains(priority) else {
            return Refusal(service: .apns, status: 400, reason: "BadPriority", rule: "V2",
                           message: "BadPriority: apns-priority \"\(priority)\" is not 10, 5 or 1; APNs refuses the push — send 10 (now) or 5 (when the device is awake)")
        }
        if priority == "10", headers["apns-push-type"].map(UTF8Text.lowercased) == "background" {
            return Refusal(service: .apns, status: 400, reason: "BadPriority", rule: "V2",
                           message: "BadPriority: apns-push-type background with apns-priority 10; APNs refuses it and the app is never woken — send apns-priority: 5")
        }
        return nil
    }

    /// The device token of an APNs request path `/3/device/{token}` (nil for any other path).
    public static func apnsDeviceToken(path: String) -> String? {
        let prefix = "/3/device/"
        // Request paths are ASCII in practice, and in ASCII no character joins a "?" or "/" to its
        // neighbour: read as bytes, the same token comes out without breaking graphemes (which cost
        // more than the rest of an HTTP/2 request's routing, and routing asks twice).
        var path = path
        let ascii: String?? = path.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .none }   // not ASCII: the general reading below
            // Compared with the bytes of a literal: iterating a String's UTF8View cost more than the rest.
            let device: StaticString = "/3/device"
            let count = device.utf8CodeUnitCount
            guard bytes.count >= count, JSONTape.bytesEqual(bytes.baseAddress!, device.utf8Start, count) else { return .some(nil) }
            if bytes.count == count { return .some("") }   // `/3/device`: an empty token
            guard bytes[count] == UInt8(ascii: "/") else { return .some(nil) }
            var end = count + 1
            while end < bytes.count && bytes[end] != UInt8(ascii: "?") && bytes[end] != UInt8(ascii: "/") { end += 1 }
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[(count + 1)..<end]), as: UTF8.self))
        }
        if let ascii { return ascii }
        guard path.hasPrefix(prefix) else { return path == "/3/device" ? "" : nil }
        return String(path.dropFirst(prefix.count).prefix { $0 != "?" && $0 != "/" })
    }

    /// V2: APNs device tokens are hex digits; an empty one is `MissingDeviceToken`, anything else
    /// that is not hex (an FCM token, a placeholder) is `BadDeviceToken`.
    public static func deviceTokenRefusal(_ token: String) -> APNsRefusal? {
        if token.isEmpty {
            return Refusal(service: .apns, status: 400, reason: "MissingDeviceToken", rule: "V2",
                           message: "MissingDeviceToken: the device token is empty; APNs refuses the push — put the token the app registered after /3/device/")
        }
        guard UTF8Text.allBytes(of: token, isHexDigit) else {
            let shown = token.count > 24 ? String(token.prefix(24)) + "…" : token
            return Refusal(service: .apns, status: 400, reason: "BadDeviceToken", rule: "V2",
                           message: "BadDeviceToken: \"\(shown)\" is not a hex APNs device token; APNs refuses the push — send the hex token from didRegisterForRemoteNotificationsWithDeviceToken (an FCM or Expo token goes to its own service)")
        }
        return nil
    }

    /// APNs answers an empty request body with `PayloadEmpty`.
    public static func emptyPayloadRefusal(body: [UInt8]) -> APNsRefusal? {
        guard body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return nil }
        return Refusal(service: .apns, status: 400, reason: "PayloadEmpty", rule: "V8",
                       message: "PayloadEmpty: the request has no payload; APNs refuses it — send a JSON object with an aps dictionary")
    }

    // MARK: FCM

    /// FCM's own size limit (V1), for the FCM shapes.
    public static func fcmSizeRefusal(payload: JSON) -> String? {
        fcmSizeRefusal(payload: payload, service: .fcmV1)?.message
    }

    /// V1 with the answer of the service the shape goes to: FCM v1 `INVALID_ARGUMENT` ("Android
    /// message is too big"), or the legacy API's `MessageTooBig`.
    public static func fcmSizeRefusal(payload: JSON, service: Service) -> Refusal? {
        fcmSizeRefusal(measuring: payload, service: service)
    }

    public static func fcmSizeRefusal<V: JSONReadable>(measuring payload: V, service: Service = .fcmV1) -> Refusal? {
        let size = payload.compactSize
        guard size > fcmLimit else { return nil }
        let legacy = service == .fcmLegacy
        return Refusal(service: legacy ? .fcmLegacy : .fcmV1, status: legacy ? 200 : 400,
                       reason: legacy ? "MessageTooBig" : "INVALID_ARGUMENT", rule: "V1", path: "$",
                       message: "message too big: the FCM payload is \(size) bytes as compact JSON, over the \(fcmLimit)-byte limit (V1); FCM refuses it",
                       serviceMessage: legacy ? nil : "Android message is too big")
    }

    /// Data keys FCM keeps for itself: `from`, `message_type`, and any key starting with `google`
    /// or `gcm` (FCM docs, "reserved words"); a message using one is refused whole (V3).
    public static func isReservedDataKey(_ key: String) -> Bool {
        let lower = key.lowercased()
        return lower == "from" || lower == "message_type" || lower.hasPrefix("google") || lower.hasPrefix("gcm")
    }

    /// V3: FCM v1's `data` maps (`message.data`, `message.android.data`, `message.webpush.data`)
    /// hold strings only, and reserved keys are refused. `root` is the JSON path of `message`.
    /// The messages quote FCM's own (`Invalid value at 'message.data[0].value' (TYPE_STRING), 3`).
    public static func fcmV1DataRefusals(message: JSONObject, at root: String = "$.message") -> [Refusal] {
        fcmV1DataRefusals(in: JSON.object(message), at: root)
    }

    /// The same on any value of `message`.
    public static func fcmV1DataRefusals<V: JSONReadable>(in message: V, at root: String = "$.message") -> [Refusal] {
        var refusals: [Refusal] = []
        let maps: [(field: String, data: V?, path: String)] = [
            ("message.data", message["data"], JSONPath.member(root, "data")),
            ("message.android.data", message["android"]?["data"], JSONPath.member(JSONPath.member(root, "android"), "data")),
            ("message.webpush.data", message["webpush"]?["data"], JSONPath.member(JSONPath.member(root, "webpush"), "data")),
        ]
        for map in maps {
            guard let data = map.data, data.isObject else { continue }
            for (index, member) in data.members.enumerated() {
                let key = member.key.string ?? ""
                let path = JSONPath.member(map.path, key)
                if isReservedDataKey(key) {
                    refusals.append(Refusal(service: .fcmV1, status: 400, reason: "INVALID_ARGUMENT", rule: "V3", path: path,
                                            message: "\"\(key)\" is a key FCM reserves (\"from\", \"message_type\", keys starting with \"google\" or \"gcm\"); FCM refuses the whole message — rename the key",
                                            serviceMessage: "Invalid data payload key: \(key)"))
                }
                if member.value.isString { continue }
                let value = member.value.json
                let shown = JSONWriter.compact(value)
                refusals.append(Refusal(service: .fcmV1, status: 400, reason: "INVALID_ARGUMENT", rule: "V3", path: path,
                                        message: "FCM v1 requires string values; got \(value.typeName) \(abbreviated(shown)) — send \(abbreviated(stringified(value))); FCM refuses the whole message",
                                        serviceMessage: "Invalid value at '\(map.field)[\(index)].value' (TYPE_STRING), \(shown)"))
            }
        }
        return refusals
    }

    /// V3: the legacy API (and data-only messages sent through it) refuses reserved data keys with
    /// `InvalidDataKey`. `root` is the JSON path of the object holding `data`.
    public static func fcmLegacyDataRefusals(_ payload: JSONObject, at root: String = "$") -> [Refusal] {
        fcmLegacyDataRefusals(in: JSON.object(payload), at: root)
    }

    /// The same on any value of the payload.
    public static func fcmLegacyDataRefusals<V: JSONReadable>(in payload: V, at root: String = "$") -> [Refusal] {
        guard let data = payload["data"], data.isObject else { return [] }
        return data.members.compactMap { $0.key.string }.filter(isReservedDataKey).map { key in
            Refusal(service: .fcmLegacy, status: 200, reason: "InvalidDataKey", rule: "V3",
                    path: JSONPath.member(JSONPath.member(root, "data"), key),
                    message: "InvalidDataKey: \"\(key)\" is reserved by FCM (\"from\", \"message_type\", keys starting with \"google\" or \"gcm\"); FCM refuses the message: rename the key")
        }
    }

    /// A data value as FCM hands it to the app: the text of a scalar, the JSON of a container.
    public static func stringified(_ value: JSON) -> String {
        let text = value.scalarText ?? JSONWriter.compact(value)
        return JSONWriter.compact(.string(text))
    }

    // MARK: web

    /// V1: a web push service answers an oversized payload with 413 (RFC 8030). The encrypted
    /// size differs a little from the JSON's, so lint reports it as a warning.
    public static func webPushSizeRefusal(payload: JSON) -> Refusal? {
        let size = JSONWriter.compactSize(payload)
        guard size > webPushLimit else { return nil }
        return Refusal(service: .webPush, status: 413, reason: "Payload Too Large", rule: "V1", path: "$",
                       message: "the web push payload is \(size) bytes as compact JSON, over the \(webPushLimit)-byte limit of push services (V1); after encryption it is larger still, and the push service refuses it with 413")
    }

    /// W3/V7: the options a browser's `showNotification` throws a TypeError for.
    public static func webOptionErrors(_ options: JSONObject, path: String) -> [(path: String, message: String)] {
        webOptionErrors(in: JSON.object(options), path: path)
    }

    static func webOptionErrors<V: JSONReadable>(in options: V, path: String) -> [(path: String, message: String)] {
        var errors: [(String, String)] = []
        if options["renotify"]?.bool == true && (options["tag"]?.string ?? "").isEmpty {
            errors.append(("\(path).renotify", "TypeError: renotify needs a non-empty tag; the browser refuses to show it (W3)"))
        }
        if options["silent"]?.bool == true, let vibrate = options["vibrate"], !vibrate.isNull {
            errors.append(("\(path).vibrate", "TypeError: silent cannot be combined with vibrate; the browser refuses to show it (W3)"))
        }
        // The Notification API takes actions as a sequence: an object cannot be read as one.
        if options["actions"]?.isObject == true {
            errors.append(("\(path).actions", "TypeError: actions must be an array of {action, title}, not an object; the browser refuses to show it (W3)"))
        }
        return errors
    }

    /// The same errors as refusals, for the routes.
    public static func webOptionRefusals(_ options: JSONObject, path: String) -> [Refusal] {
        webOptionErrors(options, path: path).map {
            Refusal(service: .browser, status: 400, reason: "TypeError", rule: "V7", path: $0.path, message: $0.message)
        }
    }

    /// Chrome shows at most two action buttons (W4).
    public static let webMaxActions = 2

    // MARK: helpers

    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    static func abbreviated(_ text: String, limit: Int = 40) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
