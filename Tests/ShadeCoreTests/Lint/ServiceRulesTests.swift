import Testing
@testable import ShadeCore

/// The refusals the loopback routes will answer with: each service's own status and reason.
@Suite struct ServiceRulesTests {
    static func object(_ text: String) -> JSONObject { (try! JSONParser.parse(text)).object! }

    @Test func V1_apnsPayloadTooLargeIs413AndVoIPHasMoreRoom() {
        let body = String(repeating: "x", count: 4500)
        let payload = JSON.object(JSONObject(["aps": .object(JSONObject(["alert": .string(body)]))]))
        let refusal = ServiceRules.apnsSizeRefusal(payload: payload, headers: [:])
        #expect(refusal?.service == .apns)
        #expect(refusal?.status == 413)
        #expect(refusal?.reason == "PayloadTooLarge")
        #expect(refusal?.message == "PayloadTooLarge: the APNs payload is 4520 bytes as compact JSON, over the 4096-byte limit (I9); APNs refuses it")
        #expect(ServiceRules.apnsSizeRefusal(payload: payload, headers: ["apns-push-type": "voip"]) == nil)
    }

    @Test func V1_fcmTooBigPerAPI() {
        let payload = JSON.object(JSONObject(["data": .object(JSONObject(["blob": .string(String(repeating: "x", count: 4100))]))]))
        let v1 = ServiceRules.fcmSizeRefusal(payload: payload, service: .fcmV1)
        #expect(v1.map { [$0.status == 400, $0.reason == "INVALID_ARGUMENT", $0.serviceMessage == "Android message is too big"] } == [true, true, true])
        let legacy = ServiceRules.fcmSizeRefusal(payload: payload, service: .fcmLegacy)
        #expect(legacy.map { "\($0.status) \($0.reason)" } == "200 MessageTooBig")
        // The first API keeps its message (the Center's rejection reason).
        #expect(ServiceRules.fcmSizeRefusal(payload: payload) == v1?.message)
    }

    @Test(arguments: [
        (["apns-collapse-id": String(repeating: "c", count: 65)], "BadCollapseId"),
        (["apns-collapse-id": String(repeating: "c", count: 64)], nil),
    ] as [([String: String], String?)])
    func V2_collapseIDOver64Bytes(_ headers: [String: String], _ reason: String?) {
        let refusal = ServiceRules.collapseIDRefusal(headers: HeaderFields(headers))
        #expect(refusal?.reason == reason)
        #expect(refusal.map { $0.status } == (reason == nil ? nil : 400))
    }

    @Test(arguments: [
        (["apns-push-type": "background", "apns-priority": "10"], "BadPriority"),
        (["apns-push-type": "background", "apns-priority": "5"], nil),
        (["apns-push-type": "alert", "apns-priority": "10"], nil),
        (["apns-priority": "high"], "BadPriority"),
        ([:], nil),
    ] as [([String: String], String?)])
    func V2_priority(_ headers: [String: String], _ reason: String?) {
        #expect(ServiceRules.priorityRefusal(headers: HeaderFields(headers))?.reason == reason)
    }

    @Test(arguments: [
        ("/3/device/5e1d3c8aABCDEF", "5e1d3c8aABCDEF", nil),
        ("/3/device/", "", "MissingDeviceToken"),
        ("/3/device/<740f4707 bebcf74f>", "<740f4707 bebcf74f>", "BadDeviceToken"),
        ("/3/device/fcm:APA91b?x=1", "fcm:APA91b", "BadDeviceToken"),
        ("/3/device/abc123/extra", "abc123", nil),
        ("/3/device", "", "MissingDeviceToken"),
        ("/3/devices/abc", nil, nil),
        ("/3/dev", nil, nil),
        ("/3/devicex/abc", nil, nil),
        ("/4/device/abc", nil, nil),
        ("/3/device?x", nil, nil),
        // Not ASCII: read character by character, where a combining mark joins the "?" before it.
        ("/3/device/ab\u{E9}cd?x", "ab\u{E9}cd", "BadDeviceToken"),
        ("/3/device/abc?\u{301}x", "abc?\u{301}x", "BadDeviceToken"),
        ("/push", nil, nil),
    ] as [(String, String?, String?)])
    func V2_deviceTokenFromThePath(_ path: String, _ token: String?, _ reason: String?) {
        let found = ServiceRules.apnsDeviceToken(path: path)
        #expect(found == token)
        #expect(found.flatMap(ServiceRules.deviceTokenRefusal)?.reason == reason)
    }

    @Test func V8_emptyBodyIsPayloadEmpty() {
        #expect(ServiceRules.emptyPayloadRefusal(body: Array(" \n".utf8))?.reason == "PayloadEmpty")
        #expect(ServiceRules.emptyPayloadRefusal(body: Array("{}".utf8)) == nil)
    }

    /// FCM v1 answers with its own words, quoted from real responses.
    @Test func V3_fcmV1DataRefusalsQuoteFCM() {
        let message = Self.object(#"{"data": {"screen": "inbox", "count": 3, "from": "ali"}, "android": {"data": {"urgent": true}}}"#)
        let refusals = ServiceRules.fcmV1DataRefusals(message: message)
        #expect(refusals.map(\.path) == ["$.message.data.count", "$.message.data.from", "$.message.android.data.urgent"])
        #expect(refusals.map(\.serviceMessage) == [
            "Invalid value at 'message.data[1].value' (TYPE_STRING), 3",
            "Invalid data payload key: from",
            "Invalid value at 'message.android.data[0].value' (TYPE_STRING), true",
        ])
        #expect(refusals.allSatisfy { $0.status == 400 && $0.reason == "INVALID_ARGUMENT" && $0.rule == "V3" && $0.service == .fcmV1 })
        #expect(refusals.first?.message == #"FCM v1 requires string values; got number 3 — send "3"; FCM refuses the whole message"#)
    }

    @Test(arguments: [("from", true), ("message_type", true), ("google.c.a.e", true), ("gcm.n.e", true),
                      ("googleId", true), ("fromUser", false), ("type", false)])
    func V3_reservedDataKeys(_ key: String, _ reserved: Bool) {
        #expect(ServiceRules.isReservedDataKey(key) == reserved)
    }

    @Test func V3_legacyRefusesReservedKeysWithInvalidDataKey() {
        let refusals = ServiceRules.fcmLegacyDataRefusals(Self.object(#"{"to": "t", "data": {"from": "x", "ok": "y"}}"#))
        #expect(refusals.map { "\($0.service) \($0.reason) \($0.path ?? "")" } == ["fcmLegacy InvalidDataKey $.data.from"])
    }

    @Test func V7_webOptionRefusalsAreTypeErrors() {
        let options = Self.object(#"{"renotify": true, "silent": true, "vibrate": [100]}"#)
        let refusals = ServiceRules.webOptionRefusals(options, path: "$.options")
        #expect(refusals.map { "\($0.reason) \($0.path ?? "")" } == ["TypeError $.options.renotify", "TypeError $.options.vibrate"])
    }
}
