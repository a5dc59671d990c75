// The answers each route gives, in the format of the service it mimics (DESIGN.md's table).
import ShadeCore

/// What became of one payload of a request or NDJSON line.
enum Admission: Equatable {
    case accepted(Push)
    /// `push` is nil when Shade could not read a push at all (invalid JSON, an unknown shape).
    case refused(Push?, PushRefusal)

    /// The push number of an accepted push (what replies hand out as its id).
    var id: Int? {
        if case .accepted(let push) = self { return push.id }
        return nil
    }

    /// The push number, accepted or refused (nil when there was no push).
    var number: Int? {
        switch self {
        case .accepted(let push), .refused(let push?, _): push.id
        case .refused(nil, _): nil
        }
    }

    var refusal: PushRefusal? {
        if case .refused(_, let refusal) = self { return refusal }
        return nil
    }
}

/// Builds replies. The ids a service hands out are derived from the push number, so a reply can be
/// matched with the `#N` of the headless log and the TUI.
struct RouteReplies {
    /// The first group of the UUIDs handed out (`apns-id`, Expo ids): random per session.
    let uuidPrefix: UInt32

    /// `XXXXXXXX-RRRR-4000-8000-NNNNNNNNNNNN`: a version-4 UUID whose last group is the push number
    /// and whose second is the recipient's index (0 for a push to one device).
    func uuid(for id: Int, recipient: Int = 0) -> String {
        // Written into 36 bytes: every APNs reply carries one. (A number past 12 hex digits, which no
        // session reaches, widens the last group.)
        let number = UInt64(max(0, id))
        let last = max(12, (64 - number.leadingZeroBitCount + 3) / 4)
        // Written in place into the string's own storage: built in an array, indexed byte by byte
        // with its checks, it cost more than the rest of an APNs reply.
        return String(unsafeUninitializedCapacity: 24 + last) { text in
            func hex(_ value: UInt64, width: Int, at start: Int) {
                var value = value
                for i in stride(from: start + width - 1, through: start, by: -1) {
                    let digit = UInt8(truncatingIfNeeded: value & 0xF)
                    text[i] = digit < 10 ? 0x30 + digit : 0x37 + digit   // 0-9, then A-F
                    value >>= 4
                }
            }
            text[8] = 0x2D; text[13] = 0x2D; text[18] = 0x2D; text[23] = 0x2D   // the dashes
            hex(UInt64(uuidPrefix), width: 8, at: 0)
            hex(UInt64(Checked.clamp(recipient, to: 0...0xFFFF)), width: 4, at: 9)
            hex(0x4000, width: 4, at: 14)
            hex(0x8000, width: 4, at: 19)
            hex(number, width: last, at: 24)
            return 24 + last
        }
    }

    // MARK: HTTP

    func http(_ route: Route, _ admissions: [Admission], isBatch: Bool, request: HTTPRequest,
              unregistered: Set<String> = []) -> HTTPResponse {
        // A body that holds no push at all (invalid JSON, one object of no known shape) is a bad request.
        if !isBatch, admissions.count == 1, case .refused(nil, let refusal) = admissions[0] {
            return requestError(route, refusal)
        }
        switch route {
        case .apns: return apns(admissions, request: request)
        case .fcmV1(let project): return fcmV1(admissions, project: project)
        case .fcmLegacy: return fcmLegacy(admissions, unregistered: unregistered)
        case .expo: return expo(admissions, unregistered: unregistered)
        case .sendToUser, .push, .state, .healthz, .expoReceipts, .webPushSubscription, .webPush, .oauthToken:
            let status = admissions.lazy.compactMap(\.refusal).first?.errorStatus ?? 200
            return .json(status: status, genericBytes(admissions, isBatch: isBatch))
        }
    }

    /// The route's answer to a request it could not read (400), or would not (a batch too big, 413).
    func requestError(_ route: Route, _ refusal: PushRefusal) -> HTTPResponse {
        let status = refusal.errorStatus
        switch route {
        case .apns:
            return apnsError(status: status, reason: refusal.code ?? "BadPayload", message: refusal.message)
        case .fcmV1:
            return fcmV1Error(PushRefusal(status: status, code: refusal.code ?? "INVALID_ARGUMENT", message: refusal.message,
                                          serviceMessage: refusal.serviceMessage))
        case .fcmLegacy:
            return .json(status: status, Self.text(.object(JSONObject(["error": .string(refusal.message)]))))
        case .expo:
            let error = JSONObject(["code": .string(refusal.code ?? "VALIDATION_ERROR"), "message": .string(refusal.message)])
            return .json(status: status, Self.text(.object(JSONObject(["errors": .array([.object(error)])]))))
        case .sendToUser, .push, .state, .healthz, .expoReceipts, .webPushSubscription, .webPush, .oauthToken:
            return .json(status: refusal.errorStatus, Self.text(generic([.refused(nil, refusal)], isBatch: false)))
        }
    }

    /// A request `--strict-auth` refuses for its credentials, in the route's service's format.
    func credentialError(_ route: Route, _ refusal: CredentialRefusal) -> HTTPResponse {
        switch route {
        case .apns:
            return apnsError(status: refusal.status, reason: refusal.code ?? "InvalidProviderToken", message: nil)
        case .fcmV1:
            return fcmV1Error(PushRefusal(status: refusal.status, code: refusal.code, message: refusal.message))
        default:
            return .json(status: refusal.status, Self.text(.object(JSONObject(["ok": .bool(false), "error": .string(refusal.message)]))))
        }
    }

    /// APNs: 200 with an `apns-id` header and no body, or the status and `{"reason": …}`. APNs takes
    /// one push per request; for a batch the first refusal answers.
    func apns(_ admissions: [Admission], request: HTTPRequest) -> HTTPResponse {
        let apnsID = apnsID(for: request, number: admissions.first?.number)
        if let refusal = admissions.lazy.compactMap(\.refusal).first {
            var response = apnsError(status: refusal.errorStatus, reason: refusal.code ?? "BadPayload",
                                     message: refusal.code == nil ? refusal.message : nil, timestamp: refusal.timestamp)
            response.headers.set("apns-id", apnsID)
            return response
        }
        // One field added: the dictionary literal went through an array of pairs to build the same.
        var headers = HTTPHeaders()
        headers.add("apns-id", apnsID)
        return HTTPResponse(status: 200, headers: headers)
    }

    /// The `apns-id` APNs answers with: the request's own, or one it makes (from the push number, 0
    /// when the request held no push).
    func apnsID(for request: HTTPRequest, number: Int?) -> String {
        request.headers["apns-id"].flatMap { $0.isEmpty ? nil : $0 } ?? uuid(for: number ?? 0)
    }

    /// `{"reason": "…"}`, APNs' error body; Shade adds `message` only where APNs has no reason of its own.
    /// A 410 carries `timestamp`, when the token stopped being valid (milliseconds since 1970).
    func apnsError(status: Int, reason: String, message: String?, timestamp: Int64? = nil) -> HTTPResponse {
        var body = JSONObject(["reason": .string(reason)])
        if let message { body["message"] = .string(message) }
        if let timestamp { body["timestamp"] = .number(String(timestamp)) }
        return .json(status: status, Self.text(.object(body)))
    }

    func fcmV1(_ admissions: [Admission], project: String) -> HTTPResponse {
        if let refusal = admissions.lazy.compactMap(\.refusal).first { return fcmV1Error(refusal) }
        let id = admissions.first?.id ?? 0
        return .json(Self.text(.object(JSONObject(["name": .string("projects/\(project)/messages/\(id)")]))))
    }

    /// `{"error": {"code": 400, "message": …, "status": "INVALID_ARGUMENT", "details": [FcmError]}}`,
    /// FCM v1's error body. The `FcmError` detail's `errorCode` is what firebase-admin and the other
    /// Admin SDKs map to an exception class (`UnregisteredError`, `QuotaExceededError`, …).
    func fcmV1Error(_ refusal: PushRefusal) -> HTTPResponse {
        let status = refusal.errorStatus
        var error = JSONObject([
            "code": .number(String(status)),
            "message": .string(refusal.serviceMessage ?? refusal.message),
            "status": .string(refusal.code ?? "INVALID_ARGUMENT"),
        ])
        if let errorCode = Self.fcmErrorCode(status: status) {
            error["details"] = .array([.object(JSONObject([
                "@type": .string("type.googleapis.com/google.firebase.fcm.v1.FcmError"),
                "errorCode": .string(errorCode),
            ]))])
        }
        return .json(status: status, Self.text(.object(JSONObject(["error": .object(error)]))))
    }

    /// A batch reply names the reasons of its first refusals only; the rest are counted (every reason
    /// is in the state's `errors`). With `ServiceRules.batchLimit` this bounds a reply to a few
    /// bytes per push.
    static let refusalsExplained = 10

    /// FCM v1's `ErrorCode` for each HTTP status it answers with (Google's table of FCM error codes).
    /// 401 has none: FCM answers a missing OAuth token with Google's generic `UNAUTHENTICATED` error.
    static func fcmErrorCode(status: Int) -> String? {
        switch status {
        case 400: "INVALID_ARGUMENT"
        case 403: "SENDER_ID_MISMATCH"
        case 404: "UNREGISTERED"
        case 429: "QUOTA_EXCEEDED"
        case 500: "INTERNAL"
        case 503: "UNAVAILABLE"
        default: nil
        }
    }

    /// The legacy API answers 200 with a result per recipient (`to`, or each of `registration_ids`):
    /// `message_id`, or the `error` it refused with; `success` and `failure` count them.
    func fcmLegacy(_ admissions: [Admission], unregistered: Set<String>) -> HTTPResponse {
        var results: [JSON] = []
        var success = 0
        var explained = 0
        for admission in admissions {
            let push: Push?
            switch admission {
            case .accepted(let p), .refused(let p?, _): push = p
            case .refused(nil, _): push = nil
            }
            let tokens = push.map { Recipients.of($0, service: .fcmLegacy) } ?? []
            for (index, token) in (tokens.isEmpty ? [nil] : tokens.map(Optional.some)).enumerated() {
                switch admission {
                case .accepted(let push) where token.map(unregistered.contains) != true:
                    success += 1
                    let id = tokens.count > 1 ? "0:\(push.id)%\(index + 1)" : "0:\(push.id)"
                    results.append(.object(JSONObject(["message_id": .string(id)])))
                case .accepted:
                    results.append(.object(JSONObject(["error": .string(Recipients.legacyNotRegistered)])))
                case .refused(_, let refusal):
                    var result = JSONObject(["error": .string(refusal.code ?? "InvalidParameters")])
                    if refusal.code == nil && explained < Self.refusalsExplained {
                        result["message"] = .string(refusal.message)
                        explained += 1
                    }
                    results.append(.object(result))
                }
            }
        }
        let body = JSONObject([
            "multicast_id": .number(String(admissions.first.flatMap(\.number) ?? 0)),
            "success": .number(String(success)),
            "failure": .number(String(results.count - success)),
            "canonical_ids": .number("0"),
            "results": .array(results),
        ])
        return .json(Self.text(.object(body)))
    }

    /// Expo answers 200 with a ticket per recipient, in order: `{"data": [{"status": "ok", "id": …}, …]}`;
    /// a token given with `--unregistered` gets Expo's `DeviceNotRegistered` ticket.
    func expo(_ admissions: [Admission], unregistered: Set<String>) -> HTTPResponse {
        var tickets: [JSON] = []
        for admission in admissions {
            switch admission {
            case .accepted(let push):
                for (token, id) in expoTickets(for: push, unregistered: unregistered) {
                    if let id {
                        tickets.append(.object(JSONObject(["status": .string("ok"), "id": .string(id)])))
                    } else {
                        tickets.append(Self.expoError(Recipients.expoNotRegisteredMessage(token), error: Recipients.expoNotRegistered, token: token))
                    }
                }
            case .refused(let push, let refusal):
                let tokens = push.map { Recipients.of($0, service: .expo) } ?? []
                for token in tokens.isEmpty ? [nil] : tokens.map(Optional.some) {
                    tickets.append(Self.expoError(refusal.message, error: refusal.code ?? "ValidationError",
                                                  token: token.map(unregistered.contains) == true ? token : nil))
                }
            }
        }
        return .json(Self.text(.object(JSONObject(["data": .array(tickets)]))))
    }

    /// Each recipient of an accepted Expo push with its ticket id, or nil where it is not registered.
    /// The receipts route hands out receipts for exactly these ids.
    func expoTickets(for push: Push, unregistered: Set<String>) -> [(token: String, id: String?)] {
        Recipients.of(push, service: .expo).enumerated().map { index, token in
            (token, unregistered.contains(token) ? nil : uuid(for: push.id, recipient: index))
        }
    }

    static func expoError(_ message: String, error: String, token: String?) -> JSON {
        var details = JSONObject(["error": .string(error)])
        if let token { details["expoPushToken"] = .string(token) }
        return .object(JSONObject(["status": .string("error"), "message": .string(message), "details": .object(details)]))
    }

    // MARK: generic (`/push`, send-to-user, NDJSON)

    /// `{"ok": true, "id": N}`, `{"ok": true, "ids": [N, …]}`, `{"ok": false, "error": "…"}`; a batch
    /// with refusals gives `{"ok": false, "ids": [1, null, 3], "error": "element 2: …"}`.
    func generic(_ admissions: [Admission], isBatch: Bool) -> JSON {
        let refusals = admissions.enumerated().compactMap { index, admission in admission.refusal.map { (index, $0) } }
        if !isBatch && admissions.count == 1 {
            if let refusal = refusals.first?.1 {
                return .object(JSONObject(["ok": .bool(false), "error": .string(refusal.message)]))
            }
            return .object(JSONObject(["ok": .bool(true), "id": .number(String(admissions[0].id ?? 0))]))
        }
        let ids = JSON.array(admissions.map { $0.id.map { .number(String($0)) } ?? .null })
        guard !refusals.isEmpty else { return .object(JSONObject(["ok": .bool(true), "ids": ids])) }
        var error = refusals.prefix(Self.refusalsExplained).map { "element \($0.0 + 1): \($0.1.message)" }.joined(separator: "; ")
        if refusals.count > Self.refusalsExplained {
            error += "; and \(refusals.count - Self.refusalsExplained) more elements refused (every reason is in GET /state's errors)"
        }
        return .object(JSONObject(["ok": .bool(false), "ids": ids, "error": .string(error)]))
    }

    /// `generic` as the bytes a reply sends (an NDJSON line's, `/push`'s, send-to-user's).
    func genericBytes(_ admissions: [Admission], isBatch: Bool) -> [UInt8] {
        // The reply nearly every push gets is written straight, the bytes `generic` would space: the
        // tree of three values it builds cost more than parsing the push did.
        if !isBatch, admissions.count == 1, case .accepted(let push) = admissions[0] { return Self.accepted(id: push.id) }
        return Self.textBytes(generic(admissions, isBatch: isBatch))
    }

    /// `{"ok": true, "id": N}`.
    static func accepted(id: Int) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(40)
        text += #"{"ok": true, "id": "#.utf8
        text += String(id).utf8
        text.append(UInt8(ascii: "}"))
        return text
    }

    // MARK: text

    /// One-line JSON spaced as DESIGN.md writes its replies (`{"ok": true, "id": 3}`); strings are
    /// escaped by ShadeCore's writer, so control characters stay escapes.
    static func text(_ value: JSON) -> String {
        String(decoding: textBytes(value), as: UTF8.self)
    }

    /// The same as bytes, written into one buffer (an NDJSON reply per line: no strings joined).
    static func textBytes(_ value: JSON) -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(128)   // a reply's size: one buffer, not four as it grows
        spaced(value, into: &writer)
        return writer.bytes
    }

    private static func spaced(_ value: JSON, into writer: inout JSONWriter) {
        switch value {
        case .object(let object):
            writer.bytes.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { writer.bytes += [UInt8(ascii: ","), UInt8(ascii: " ")] }
                writer.writeString(member.key)
                writer.bytes += [UInt8(ascii: ":"), UInt8(ascii: " ")]
                spaced(member.value, into: &writer)
            }
            writer.bytes.append(UInt8(ascii: "}"))
        case .array(let elements):
            writer.bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { writer.bytes += [UInt8(ascii: ","), UInt8(ascii: " ")] }
                spaced(element, into: &writer)
            }
            writer.bytes.append(UInt8(ascii: "]"))
        default:
            writer.write(value)
        }
    }
}
