/// The checks of SPEC §9 for one push, V1 to V10, in that order. Each finding names the rule,
/// the path in the file (through `Scope`) and what the device or service will do.
struct PushChecker {
    let push: Push
    let scope: Scope
    /// The platforms asked for (`--platform`).
    let selected: Set<Platform>
    /// The platforms asked for that this push reaches (SPEC §1).
    let targets: Set<Platform>
    let root: JSONObject
    /// The string tables the app ships (`--strings`, `--locale`), for V6.
    let tables: StringTables
    var found: [Diagnostic] = []

    init(push: Push, scope: Scope, selected: Set<Platform>, tables: StringTables) {
        self.push = push
        self.scope = scope
        self.selected = selected
        self.tables = tables
        self.targets = selected.intersection(push.platforms)
        self.root = push.payload.object ?? JSONObject()
    }

    mutating func run() {
        guard !targets.isEmpty else {
            let reached = push.platforms.sorted().map(\.displayName).joined(separator: ", ")
            let asked = selected.sorted().map(\.displayName).joined(separator: ", ")
            note(push.shape.rule, "$", "this \(push.shape.displayName) reaches \(reached) only: nothing to check for \(asked)")
            return
        }
        sizes()
        apnsRequest()
        fcmData()
        conversationKeys()
        appleKeys()
        localization()
        webOptions()
        criticalSound()
        keys()
        showsNothing()
    }

    // MARK: recording

    /// The platform a finding concerns when the push reaches only one.
    var single: Platform? {
        let platforms = push.platforms
        return platforms.count == 1 ? platforms.first : nil
    }

    mutating func add(_ severity: Diagnostic.Severity, _ rule: String, _ relativePath: String, _ message: String, platform: Platform? = nil) {
        found.append(Diagnostic(severity, rule, path: scope.payload(relativePath), message, platform: platform ?? single))
    }

    mutating func error(_ rule: String, _ path: String, _ message: String, platform: Platform? = nil) { add(.error, rule, path, message, platform: platform) }
    mutating func warning(_ rule: String, _ path: String, _ message: String, platform: Platform? = nil) { add(.warning, rule, path, message, platform: platform) }
    mutating func note(_ rule: String, _ path: String, _ message: String, platform: Platform? = nil) { add(.note, rule, path, message, platform: platform) }

    /// A finding whose path is already absolute (a header, the request path).
    mutating func add(_ severity: Diagnostic.Severity, _ rule: String, absolute path: String, _ message: String, platform: Platform?) {
        found.append(Diagnostic(severity, rule, path: path, message, platform: platform))
    }

    /// Payload text quoted as JSON, so control characters stay escapes.
    static func quoted(_ text: String) -> String { ServiceRules.abbreviated(JSONWriter.compact(.string(text)), limit: 60) }

    // MARK: V1 sizes, per target

    mutating func sizes() {
        let payload = push.payload
        let nothing = "nothing reaches the device — send less (an id the app fetches the rest with)"
        switch push.shape {
        case .envelope:
            return
        case .apns:
            // The simulator's bundle key never reaches APNs (D4).
            let wire = JSON.object(root.removing([ShapeReader.simulatorBundleKey]))
            if let r = ServiceRules.apnsSizeRefusal(payload: wire, headers: push.transport.headers) {
                error("V1", "$", "\(r.message); \(nothing)", platform: .ios)
            }
        case .fcmV1:
            if let r = ServiceRules.fcmSizeRefusal(payload: payload, service: .fcmV1) { error("V1", "$", "\(r.message); \(nothing)") }
        case .fcmLegacy:
            if let r = ServiceRules.fcmSizeRefusal(payload: payload, service: .fcmLegacy) { error("V1", "$", "\(r.message); \(nothing)") }
        case .webPush:
            if let r = ServiceRules.webPushSizeRefusal(payload: payload) { warning("V1", "$", "\(r.message); nothing is shown — send less") }
        case .pusherBeams:
            // Each block goes through its platform's service (D9).
            if targets.contains(.ios), let block = root["apns"], let r = ServiceRules.apnsSizeRefusal(payload: block, headers: push.transport.headers) {
                error("V1", "$.apns", "\(r.message); \(nothing)", platform: .ios)
            }
            if targets.contains(.android), let block = root["fcm"], let r = ServiceRules.fcmSizeRefusal(payload: block, service: .fcmLegacy) {
                error("V1", "$.fcm", "\(r.message); \(nothing)", platform: .android)
            }
            if targets.contains(.web), let block = root["web"], let r = ServiceRules.webPushSizeRefusal(payload: block) {
                warning("V1", "$.web", "\(r.message); nothing is shown — send less", platform: .web)
            }
        case .sendToUser, .expo, .dataOnly:
            // Sent on through each platform's own service, each with its own limit.
            if targets.contains(.ios), let r = ServiceRules.apnsSizeRefusal(payload: payload, headers: push.transport.headers) {
                error("V1", "$", "\(r.message); \(nothing)", platform: .ios)
            }
            if targets.contains(.android), let r = ServiceRules.fcmSizeRefusal(payload: payload, service: .fcmV1) {
                error("V1", "$", "\(r.message); \(nothing)", platform: .android)
            }
            if targets.contains(.web), let r = ServiceRules.webPushSizeRefusal(payload: payload) {
                warning("V1", "$", "\(r.message); nothing is shown — send less", platform: .web)
            }
        }
    }

    // MARK: V2 the APNs request: headers and device token

    mutating func apnsRequest() {
        guard selected.contains(.ios) else { return }
        let headers = push.transport.headers
        if targets.contains(.ios) {
            // FCM v1 passes `message.apns.headers` on to APNs, over the request's own (SPEC §1).
            var merged = headers
            var fromBlock: Set<String> = []
            let blockPath = "$.message.apns.headers"
            if push.shape == .fcmV1, let block = root["message"]?["apns"]?["headers"]?.object {
                for member in block.members {
                    guard let text = member.value.scalarText else { continue }
                    merged[member.key.lowercased()] = text
                    fromBlock.insert(member.key.lowercased())
                }
            }
            func path(_ header: String) -> String {
                fromBlock.contains(header) ? scope.payload(JSONPath.member(blockPath, header)) : scope.header(header)
            }
            if let r = ServiceRules.collapseIDRefusal(headers: merged) {
                add(.error, "V2", absolute: path("apns-collapse-id"),
                    "\(r.message); APNs refuses the push and nothing is shown — use a shorter id (a hash of the long one)", platform: .ios)
            }
            if let r = ServiceRules.priorityRefusal(headers: merged) {
                add(.error, "V2", absolute: path("apns-priority"), r.message, platform: .ios)
            }
        }
        // The device token: the request path `/3/device/{token}`, or, for a push sent through
        // APNs, a `token`/`to` field beside the payload.
        if let requestPath = push.transport.path, let token = ServiceRules.apnsDeviceToken(path: requestPath),
           let r = ServiceRules.deviceTokenRefusal(token) {
            add(.error, "V2", absolute: scope.pathOfRequest, r.message, platform: .ios)
        }
        if push.transport.via?.lowercased() == "apns" {
            for key in ["token", "to"] {
                if case .string(let token)? = root[key], let r = ServiceRules.deviceTokenRefusal(token) {
                    error("V2", JSONPath.member("$", key), r.message, platform: .ios)
                }
            }
        }
    }

    // MARK: V3 FCM data

    mutating func fcmData() {
        switch push.shape {
        case .fcmV1:
            guard let message = root["message"]?.object else { return }
            for r in ServiceRules.fcmV1DataRefusals(message: message, at: "$.message") {
                error("V3", r.path ?? "$.message.data", r.message)
            }
        case .fcmLegacy, .dataOnly:
            guard targets.contains(.android) else { return }
            for r in ServiceRules.fcmLegacyDataRefusals(root, at: "$") {
                error("V3", r.path ?? "$.data", r.message, platform: .android)
            }
            // The legacy API stringifies other values; the app gets text, not the JSON type.
            for member in root["data"]?.object?.members ?? [] {
                if case .string = member.value { continue }
                let shown = ServiceRules.abbreviated(JSONWriter.compact(member.value))
                warning("V3", JSONPath.member("$.data", member.key),
                        "FCM delivers data values as strings; got \(member.value.typeName) \(shown) — the app receives the string \(ServiceRules.abbreviated(ServiceRules.stringified(member.value))); send it as a string",
                        platform: .android)
            }
        case .pusherBeams:
            guard targets.contains(.android), let fcm = root["fcm"]?.object else { return }
            for r in ServiceRules.fcmLegacyDataRefusals(fcm, at: "$.fcm") {
                error("V3", r.path ?? "$.fcm.data", r.message, platform: .android)
            }
        default:
            return
        }
    }

    // MARK: V4 conversation keys, C9 and I2 notes

    /// Where the conversation keys live (SPEC §1, the "where conversation keys live" column), with
    /// the platform each place is read on (nil: every platform the push reaches).
    func conversationPlaces() -> [(path: String, data: JSONObject, platform: Platform?)] {
        func object(_ path: String) -> JSONObject? {
            var current: JSON? = push.payload
            for key in path.dropFirst(2).split(separator: ".") { current = current?[String(key)] }
            return current?.object
        }
        switch push.shape {
        case .envelope: return []
        case .fcmV1:
            var places: [(String, JSONObject, Platform?)] = []
            if let data = object("$.message.data") { places.append(("$.message.data", data, nil)) }
            if targets.contains(.android), let data = object("$.message.android.data") { places.append(("$.message.android.data", data, .android)) }
            if targets.contains(.web), let data = object("$.message.webpush.data") { places.append(("$.message.webpush.data", data, .web)) }
            return places
        case .apns:
            // Custom keys beside `aps` (D4).
            return [("$", root.removing(["aps", ShapeReader.simulatorBundleKey]), .ios)]
        case .webPush:
            let path = root["web_push"]?.int == 8030 ? "$.notification.data" : "$.options.data"
            return object(path).map { [(path, $0, .web)] } ?? []
        case .sendToUser, .expo, .fcmLegacy, .dataOnly:
            return object("$.data").map { [("$.data", $0, nil)] } ?? []
        case .pusherBeams:
            var places: [(String, JSONObject, Platform?)] = []
            if targets.contains(.ios), let apns = object("$.apns") { places.append(("$.apns", apns.removing(["aps"]), .ios)) }
            if targets.contains(.android), let data = object("$.fcm.data") { places.append(("$.fcm.data", data, .android)) }
            if targets.contains(.web), let data = object("$.web.data") { places.append(("$.web.data", data, .web)) }
            return places
        }
    }

    static let senderKeys = ["senderName", "senderId", "senderAvatarUrl", "conversationTitle", "conversationIsGroup"]

    mutating func conversationKeys() {
        var gateNoted = false
        var photoNoted = false
        for place in conversationPlaces() {
            let data = place.data
            let platform = place.platform
            func at(_ key: String) -> String { JSONPath.member(place.path, key) }
            let id = data["conversationId"]
            let isConversation = id.flatMap { ConversationKeys.conversationID($0) } != nil
            if let id, !isConversation {
                let got = id.string != nil ? "an empty string" : "\(id.typeName) \(ServiceRules.abbreviated(JSONWriter.compact(id)))"
                warning("V4", at("conversationId"),
                        "conversationId must be a non-empty string or a number; got \(got) — the push shows as a plain notification (C1, C8)", platform: platform)
            } else if id == nil {
                let present = Self.senderKeys.filter(data.has)
                if let first = present.first {
                    warning("V4", at(first),
                            "\(present.joined(separator: ", ")) without conversationId \(present.count == 1 ? "is" : "are") ignored: the push shows as a plain notification (C8) — add conversationId to show a conversation",
                            platform: platform)
                }
            }
            if let avatar = data["senderAvatarUrl"] {
                avatarURL(avatar, path: at("senderAvatarUrl"), platform: platform)
            }
            if let flag = data["conversationIsGroup"], !ConversationKeys.isBooleanLike(flag) {
                warning("V4", at("conversationIsGroup"),
                        "conversationIsGroup \(ServiceRules.abbreviated(JSONWriter.compact(flag))) is not true, false, 1 or 0 (or those as strings): the device shows a one-to-one conversation (C6) — send true or \"true\"",
                        platform: platform)
            }
            guard isConversation else { continue }
            if !gateNoted {
                gateNoted = true
                note("C9", at("conversationId"), sdkGate(platform: platform))
            }
            if !photoNoted, targets.contains(.ios), platform == nil || platform == .ios,
               let url = data["senderAvatarUrl"]?.string, ConversationKeys.isHTTPSImageURL(url) {
                photoNoted = true
                note("I2", at("senderAvatarUrl"), communicationPrerequisites(), platform: .ios)
            }
        }
    }

    /// C4: an https image is the photo; anything else draws initials (N1).
    mutating func avatarURL(_ value: JSON, path: String, platform: Platform?) {
        guard case .string(let text) = value else {
            if !value.isNull {
                error("V4", path, "senderAvatarUrl must be a URL; got \(value.typeName) \(ServiceRules.abbreviated(JSONWriter.compact(value))) — the device draws initials instead (C4, N1); send an https image URL", platform: platform)
            }
            return
        }
        guard !text.isEmpty else { return }  // empty means "no photo" (C4)
        if !Self.isURL(text) {
            error("V4", path, "senderAvatarUrl \(Self.quoted(text)) is not a URL — the device draws initials instead (C4, N1); send an absolute https URL", platform: platform)
        } else if !ConversationKeys.isHTTPSImageURL(text) {
            warning("V4", path, "senderAvatarUrl \(Self.quoted(text)) is not https — the device draws initials instead of the photo (C4, N1); serve it over https", platform: platform)
        }
    }

    /// An absolute URL: a scheme (`https:`, `data:`, …), then something, no spaces.
    static func isURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }) else { return false }
        return !text.contains(where: \.isWhitespace)
    }

    /// C9, with the versions of the platforms asked for (from `Profile`, the one place they live).
    func sdkGate(platform: Platform?) -> String {
        let platforms = platform.map { [$0] } ?? targets.sorted()
        var parts: [String] = []
        for p in platforms {
            parts.append("\(p.displayName) SDK \(Profile.conversationSDK(platform: p, flavor: .native))")
        }
        if platforms.contains(where: { $0 != .web }) {
            for flavor in [Flavor.flutter, .reactNative] {
                let native = platforms.first { $0 != .web }!
                parts.append("\(flavor.displayName) \(Profile.conversationSDK(platform: native, flavor: flavor))")
            }
        }
        return "conversation display needs \(parts.joined(separator: ", ")) or later; an older SDK ignores the keys and shows a plain notification (C9)"
    }

    /// I2: what iOS needs to draw the sender's photo.
    func communicationPrerequisites() -> String {
        let capability = "the Communication Notifications capability (with INSendMessageIntent in NSUserActivityTypes)"
        if let aps = apsPlace()?.aps ?? (push.shape == .fcmV1 ? JSONObject() : nil) {
            let missing = aps["mutable-content"]?.int == 1 ? "" : " (missing here)"
            return "iOS 15+ shows the sender photo only through the Notification Service Extension: the push needs \"mutable-content\": 1\(missing) and the app \(capability); without them iOS shows the app icon (I2)"
        }
        return "iOS 15+ shows the sender photo only when the app has \(capability) and its Notification Service Extension hands the push to the SDK; without them iOS shows the app icon (I2)"
    }

    // MARK: V5 keys Apple ignores

    /// The `aps` dictionary APNs receives: D4's own, FCM v1's `message.apns.payload.aps`, or D9's `apns.aps`.
    func apsPlace() -> (path: String, aps: JSONObject)? {
        switch push.shape {
        case .apns: return root["aps"]?.object.map { ("$.aps", $0) }
        case .fcmV1: return root["message"]?["apns"]?["payload"]?["aps"]?.object.map { ("$.message.apns.payload.aps", $0) }
        case .pusherBeams: return root["apns"]?["aps"]?.object.map { ("$.apns.aps", $0) }
        default: return nil
        }
    }

    /// V5, with V9 and the other spellings (SPEC §1) in `keys()`. A VoIP push's alert is never
    /// displayed (PushKit hands the payload to the app), and neither is a background push's: their
    /// keys are not reported as misplaced alert keys (V10).
    mutating func appleKeys() {
        guard targets.contains(.ios), let (path, aps) = apsPlace() else { return }
        let headers = apnsHeaders()
        if ServiceRules.isVoIP(headers: headers) { return }
        for member in aps.members where unknown(member.key, in: .aps, of: aps) {
            warning("V5", JSONPath.member(path, member.key),
                    "\(Self.quoted(member.key)) is not an Apple key: iOS ignores custom keys inside aps — move it to the top level, beside aps", platform: .ios)
        }
        let alertPath = JSONPath.member(path, "alert")
        if case .object(let alert)? = aps["alert"], headers["apns-push-type"]?.lowercased() != "background" {
            for member in alert.members where unknown(member.key, in: .alert, of: alert) {
                if member.key == "sound" {
                    warning("V5", JSONPath.member(alertPath, "sound"),
                            "sound inside alert is ignored by Apple: the notification arrives without that sound — move it to aps.sound", platform: .ios)
                } else {
                    warning("V5", JSONPath.member(alertPath, member.key),
                            "\(Self.quoted(member.key)) is not an alert key: iOS ignores it — use title, subtitle, body or the loc keys", platform: .ios)
                }
            }
        }
        let wire = KnownKeys.wireForm(aps, .aps)
        if wire["content-available"]?.int == 1, Self.hasAlert(wire["alert"]) {
            warning("V5", JSONPath.member(path, "content-available"),
                    "content-available with an alert: iOS shows the alert and wakes the app only as it sees fit — send background updates as their own push (no alert, apns-push-type background, apns-priority 5)",
                    platform: .ios)
        }
    }

    /// The headers APNs gets with this push: the request's, and FCM v1's `message.apns.headers`.
    func apnsHeaders() -> HeaderFields {
        var headers = push.transport.headers
        if push.shape == .fcmV1 {
            for member in root["message"]?["apns"]?["headers"]?.object?.members ?? [] {
                if let text = member.value.scalarText { headers[member.key.lowercased()] = text }
            }
        }
        return headers
    }

    /// A key that is neither known in its place, another spelling of one, nor a near miss (those
    /// `keys()` reports).
    func unknown(_ key: String, in place: KeyPlace, of object: JSONObject) -> Bool {
        !KnownKeys.isKnown(key, in: place) && KnownKeys.aliased(key, in: place) == nil && nearMiss(key, in: place, of: object) == nil
    }

    /// V9's near miss, unless the key it would mean is there too (then the other is on purpose).
    func nearMiss(_ key: String, in place: KeyPlace, of object: JSONObject) -> KnownKey? {
        nearMiss(key, in: place) { object.has($0) }
    }

    func nearMiss(_ key: String, in place: KeyPlace, given: (String) -> Bool) -> KnownKey? {
        guard let known = KnownKeys.nearMiss(key, in: place), !given(known.name) else { return nil }
        return known
    }

    static func hasAlert(_ alert: JSON?) -> Bool {
        switch alert {
        case .string(let s)?: return !s.isEmpty
        case .object(let o)?: return !o.isEmpty
        default: return false
        }
    }

    // MARK: V6 localization

    /// L5/L6 through the same reading and resolution the Center uses: each platform's own loc
    /// keys (`aps.alert.loc-key`, `notification.body_loc_key`, …), where no literal text wins.
    mutating func localization() {
        for platform in [Platform.android, .ios] where targets.contains(platform) {
            let content: Content
            switch push.delivery(on: platform, defaultApp: "app") {
            case .show(let c), .call(let c), .silent(_, _, let c?): content = c
            default: continue
            }
            // A10, I3: a non-empty literal wins, and the key is never looked up.
            let fields: [(literal: String?, loc: LocRef?)] = [
                (content.title, content.titleLoc), (content.subtitle, content.subtitleLoc), (content.body, content.bodyLoc),
            ]
            for field in fields {
                guard let loc = field.loc, (field.literal ?? "").isEmpty else { continue }
                let resolution = platform == .ios
                    ? resolveIOS(key: loc.key, args: loc.args, tables: tables)
                    : resolveAndroid(key: loc.key, args: loc.args, tables: tables)
                let problems = resolution.missingKey
                    ? Array(resolution.notes.prefix(1))
                    : resolution.notes.filter { $0.hasPrefix("L6") }
                let shown = resolution.text.map { " — the device shows \(Self.quoted($0))" }
                if resolution.missingKey || resolution.argumentMismatch, !problems.isEmpty {
                    let said = problems.map(Self.withoutRulePrefix).joined(separator: "; ")
                    warning("V6", loc.path, "\(said)\(shown ?? (said.contains("empty") ? "" : " — the field stays empty")) (\(resolution.missingKey ? "L5" : "L6"))",
                            platform: platform)
                }
                // L3: what the format made of its arguments (a string where `%d` wants a number, a
                // specifier Shade does not know), as the inspector's trace says it.
                guard !resolution.missingKey else { continue }
                for note in resolution.notes where note.hasPrefix("L3") {
                    warning("V6", loc.path, "\(Self.withoutRulePrefix(note))\(shown ?? "") (L3)", platform: platform)
                }
            }
        }
    }

    /// The resolution notes start with their rule (`L5: …`); the diagnostic names it at the end.
    static func withoutRulePrefix(_ note: String) -> String {
        guard note.count > 4, note.hasPrefix("L"), let colon = note.firstIndex(of: ":"),
              note.distance(from: note.startIndex, to: colon) <= 3 else { return note }
        return String(note[note.index(colon, offsetBy: 2)...])
    }

    // MARK: V7 web options

    /// The options `showNotification` gets, as the web reading builds them (D6, D2).
    func webOptionsPlace() -> (path: String, options: JSONObject)? {
        switch push.shape {
        case .webPush:
            if root["web_push"]?.int == 8030 { return ("$.notification", root["notification"]?.object ?? JSONObject()) }
            var options = root["options"]?.object ?? JSONObject()
            options["title"] = root["title"]
            return ("$.options", options)
        case .fcmV1:
            let message = root["message"]?.object ?? JSONObject()
            let shared = message["notification"]?.object
            let override = message["webpush"]?["notification"]?.object
            guard shared != nil || override != nil else { return nil }
            let options = (shared ?? JSONObject()).merging(override ?? JSONObject())
            return (override != nil ? "$.message.webpush.notification" : "$.message.notification", options)
        case .pusherBeams:
            return root["web"]?["notification"]?.object.map { ("$.web.notification", $0) }
        default:
            return nil
        }
    }

    mutating func webOptions() {
        guard targets.contains(.web), let (path, options) = webOptionsPlace() else { return }
        for e in ServiceRules.webOptionErrors(options, path: path) {
            error("V7", e.path, "\(e.message) — nothing is shown", platform: .web)
        }
        if let actions = options["actions"]?.array, actions.count > ServiceRules.webMaxActions {
            let hidden = actions.dropFirst(ServiceRules.webMaxActions).map { action in
                (action["title"]?.scalarText ?? action["action"]?.scalarText).map(Self.quoted) ?? "an action"
            }
            warning("V7", JSONPath.member(path, "actions"),
                    "\(actions.count) actions: Chrome shows the first \(ServiceRules.webMaxActions) (W4); \(hidden.joined(separator: ", ")) \(hidden.count == 1 ? "is" : "are") never offered — put the ones that matter first",
                    platform: .web)
        }
    }

    // MARK: I10 critical alerts

    /// I10: a critical sound needs Apple's entitlement, or iOS plays an ordinary sound.
    mutating func criticalSound() {
        guard targets.contains(.ios) else { return }
        let places: [(String, JSON?)] = [(apsPlace().map { JSONPath.member($0.path, "sound") } ?? "", apsPlace()?.aps["sound"]),
                                         ("$.sound", push.shape == .expo ? root["sound"] : nil)]
        for (path, sound) in places where ShapeReader.isCriticalSound(sound) {
            note("I10", JSONPath.member(path, "critical"),
                 "a critical alert: iOS plays it even when muted or in Do Not Disturb and marks it critical (I10); the app needs Apple's critical-alerts entitlement (com.apple.developer.usernotifications.critical-alerts), without which iOS plays an ordinary sound",
                 platform: .ios)
        }
    }

    // MARK: V9 keys a typo away, and other spellings

    /// Every object Shade reads keys from in this push, with its place and the platform it is read for.
    func keyedObjects() -> [(path: String, object: JSONObject, place: KeyPlace, platform: Platform?)] {
        var found: [(String, JSONObject, KeyPlace, Platform?)] = []
        func add(_ path: String, _ value: JSON?, _ place: KeyPlace, _ platform: Platform? = nil) {
            if let object = value?.object { found.append((path, object, place, platform)) }
        }
        let ios = targets.contains(.ios)
        func apnsPayload(_ path: String, _ payload: JSON?) {
            guard ios, let payload = payload?.object else { return }
            add(path, .object(payload), .apnsPayload, .ios)
            let aps = payload["aps"]
            let isVoIP = ServiceRules.isVoIP(headers: apnsHeaders())
            guard !isVoIP else { return }   // PushKit hands the payload to the app as it is (V10)
            add(JSONPath.member(path, "aps"), aps, .aps, .ios)
            add(JSONPath.member(JSONPath.member(path, "aps"), "alert"), aps?["alert"], .alert, .ios)
            add(JSONPath.member(JSONPath.member(path, "aps"), "sound"), aps?["sound"], .sound, .ios)
        }
        switch push.shape {
        case .envelope: break
        case .apns: apnsPayload("$", push.payload)
        case .fcmV1:
            let message = root["message"]
            add("$", push.payload, .fcmRequest)
            add("$.message", message, .fcmMessage)
            add("$.message.notification", message?["notification"], .fcmNotification)
            if targets.contains(.android) {
                add("$.message.android", message?["android"], .androidConfig, .android)
                let android = message?["android"]?.object.map { KnownKeys.wireForm($0, .androidConfig) }
                add("$.message.android.notification", android?["notification"], .androidNotification, .android)
            }
            if ios {
                add("$.message.apns", message?["apns"], .apnsConfig, .ios)
                let apns = message?["apns"]?.object ?? JSONObject()
                let options = KnownKeys.spelling(of: "fcm_options", in: apns, .apnsConfig)
                add(JSONPath.member("$.message.apns", options), apns[options], .apnsFCMOptions, .ios)
                add("$.message.apns.headers", apns["headers"], .headers, .ios)
                apnsPayload("$.message.apns.payload", apns["payload"])
            }
            if targets.contains(.web) {
                add("$.message.webpush", message?["webpush"], .webpushConfig, .web)
                add("$.message.webpush.notification", message?["webpush"]?["notification"], .webOptions, .web)
                add("$.message.webpush.headers", message?["webpush"]?["headers"], .headers, .web)
            }
        case .sendToUser: add("$", push.payload, .sendToUser)
        case .expo: add("$", push.payload, .expo)
        case .webPush:
            if root["web_push"]?.int == 8030 { add("$.notification", root["notification"], .webOptions, .web) } else { add("$.options", root["options"], .webOptions, .web) }
        case .fcmLegacy:
            add("$", push.payload, .legacyMessage)
            add("$.notification", root["notification"], .legacyNotification)
        case .pusherBeams:
            add("$", push.payload, .pusherBeams)
            if targets.contains(.android) {
                add("$.fcm", root["fcm"], .legacyMessage, .android)
                add("$.fcm.notification", root["fcm"]?["notification"], .legacyNotification, .android)
            }
            apnsPayload("$.apns", root["apns"])
            if targets.contains(.web) { add("$.web.notification", root["web"]?["notification"], .webOptions, .web) }
        case .dataOnly: break
        }
        for place in conversationPlaces() { found.append((place.path, place.data, .conversationData, place.platform)) }
        return found
    }

    /// V9: a key a typo away from one Shade knows in its place says which, and what the device does
    /// with the key as written. A key in another spelling (the Admin SDK's `mutableContent`, SPEC §1)
    /// says which form it is and that it is read so. Headers are checked as the service gets them.
    mutating func keys() {
        for (path, object, place, platform) in keyedObjects() {
            for member in object.members {
                let at = JSONPath.member(path, member.key)
                if let known = KnownKeys.aliased(member.key, in: place) {
                    aliasNote(member.key, known, place: place, path: at, platform: platform)
                } else if let known = nearMiss(member.key, in: place, of: object) {
                    warning("V9", at, Self.didYouMean(member.key, known, place: place), platform: platform)
                }
            }
        }
        let headers = push.transport.headers
        for name in headers.keys.sorted() {
            guard let known = nearMiss(name, in: .headers, given: { headers[$0] != nil }) else { continue }
            add(.warning, "V9", absolute: scope.header(name), Self.didYouMean(name, known, place: .headers), platform: single)
        }
    }

    /// `"conversationID": did you mean conversationId? As written, the push is a plain notification (C8)`.
    static func didYouMean(_ written: String, _ known: KnownKey, place: KeyPlace) -> String {
        let consequence = known.withoutIt ?? (place == .headers ? "the service ignores it" : "it is not read")
        return "\(quoted(written)): did you mean \(known.name)? As written, \(consequence)"
    }

    mutating func aliasNote(_ written: String, _ known: KnownKey, place: KeyPlace, path: String, platform: Platform?) {
        let rule = place == .legacyMessage ? "D7" : [.aps, .alert, .sound].contains(place) && push.shape != .fcmV1 ? "D4" : push.shape.rule
        let sent = known.aliasIsFlag ? "\(known.name): 1 (for true)" : known.name
        var message = "\(Self.quoted(written)) is \(place.aliasAuthor)'s spelling of \(known.name): it sends \(sent), and Shade reads it so"
        if push.shape == .apns && [.aps, .alert].contains(place) {
            message += " — sent straight to APNs nothing renames it and iOS ignores it: write \(known.name)"
        }
        note(rule, path, message, platform: platform)
    }

    // MARK: V10 pushes that show nothing where they surely meant to

    mutating func showsNothing() {
        // An aps with a sound but no alert: iOS plays the sound and shows nothing (I5).
        if targets.contains(.ios), let (path, aps) = apsPlace(), let sound = aps["sound"], !sound.isNull,
           !ServiceRules.isVoIP(headers: apnsHeaders()), case .silent = push.delivery(on: .ios, defaultApp: "app") {
            warning("V10", JSONPath.member(path, "sound"),
                    "aps has a sound but no alert: iOS plays the sound and shows nothing, counted silent (I5) — add aps.alert with a title or body, or drop the sound",
                    platform: .ios)
        }
        // A notification block none of whose keys FCM reads.
        // Each with the platforms it is read for.
        let blocks: [(String, JSON?, KeyPlace, [Platform])] = [
            ("$.notification", push.shape == .fcmLegacy ? root["notification"] : nil, .legacyNotification, [.android, .ios]),
            ("$.message.notification", push.shape == .fcmV1 ? root["message"]?["notification"] : nil, .fcmNotification, [.android, .ios]),
            ("$.message.android.notification", push.shape == .fcmV1 ? root["message"]?["android"]?["notification"] : nil, .androidNotification, [.android]),
            ("$.fcm.notification", push.shape == .pusherBeams ? root["fcm"]?["notification"] : nil, .legacyNotification, [.android]),
        ]
        for (path, value, place, platforms) in blocks {
            guard let block = value?.object, !block.isEmpty,
                  block.keys.allSatisfy({ !KnownKeys.isKnown($0, in: place) && KnownKeys.aliased($0, in: place) == nil }) else { continue }
            let silentOn = platforms.filter { targets.contains($0) }.filter { platform in
                if case .silent = push.delivery(on: platform, defaultApp: "app") { return true }
                return false
            }
            guard !silentOn.isEmpty else { continue }
            let keys = block.keys.prefix(4).map(Self.quoted).joined(separator: ", ")
            warning("V10", path,
                    "none of this notification's keys (\(keys)) is one FCM reads: \(silentOn.map(\.displayName).joined(separator: " and ")) \(silentOn.count == 1 ? "shows" : "show") nothing, counted silent (A11) — use title and body",
                    platform: silentOn.count == 1 ? silentOn[0] : nil)
        }
    }
}
