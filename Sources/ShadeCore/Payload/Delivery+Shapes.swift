extension Push {
    /// What this push becomes on one platform: SPEC §1 (shapes, overrides, the app) and the
    /// per-platform reading of each shape, read in place on the push's bytes. Localization and
    /// grouping happen later, in the Center. `traced`: the content notes the reading's steps in its
    /// trace (a center that keeps no traces asks for none).
    /// `shared`: what the centers that take this push read alike, so what a shape reads alike for every
    /// platform is read once for them all.
    public func delivery(on platform: Platform, defaultApp: String, traced: Bool = true, shared: SharedReadings? = nil) -> Delivery {
        guard reaches(platform) else { return .elsewhere }
        return withPayload { root in
            guard root.isObject else { return .elsewhere }
            let reader = ShapeReader(store: store, app: appName(defaultApp: defaultApp, platform: platform, root: root), traced: traced)
            let headers = transport.headers
            switch shape {
            case .envelope: return .elsewhere  // unwrapped by Intake; never stored
            case .apns: return reader.apns(root, headers: headers)
            case .fcmV1: return reader.fcmV1(root, platform: platform, headers: headers)
            case .sendToUser:
                guard let shared else { return ShapeReader.sendToUser(reader.sendToUserContent(root), platform: platform, headers: headers) }
                let content = shared.content(store: store, app: reader.app, traced: traced) { reader.sendToUserContent(root) }
                return ShapeReader.sendToUser(content, platform: platform, headers: headers)
            case .expo: return reader.expo(root, platform: platform, headers: headers)
            case .webPush: return reader.webPush(root)
            case .fcmLegacy: return reader.fcmLegacy(root, platform: platform, headers: headers)
            case .pusherBeams: return reader.pusherBeams(root, platform: platform, headers: headers)
            case .dataOnly: return reader.dataOnly(root, platform: platform)
            }
        }
    }

    /// SPEC §1 "The app": `apns-topic` without its push-type suffix, else `Simulator Target Bundle`,
    /// else FCM `restricted_package_name`, else the profile's `--app`. FCM v1 keeps that name in
    /// `message.android`, a platform block, so it names the app on Android only (nil: any platform);
    /// its `message.apns.headers` `apns-topic` overrides the request's on iOS, as the reading does.
    public func appName(defaultApp: String, platform: Platform? = nil) -> String {
        withPayload { appName(defaultApp: defaultApp, platform: platform, root: $0) }
    }

    func appName(defaultApp: String, platform: Platform?, root payload: PayloadValue) -> String {
        let v1Topic = shape == .fcmV1 && (platform == nil || platform == .ios) ? Self.v1APNsTopic(payload) : nil
        if let topic = v1Topic ?? transport.headers["apns-topic"], !topic.isEmpty {
            return Self.bundleID(ofTopic: topic)
        }
        if let bundle = payload[ShapeReader.simulatorBundleKey]?.string, !bundle.isEmpty { return bundle }
        let v1Android = platform == nil || platform == .android ? ShapeReader.object(payload["message"]?["android"]) : nil
        let v1Package = v1Android.map { KnownKeys.wireForm($0, .androidConfig) }?["restricted_package_name"]?.string
        if let package = payload["restricted_package_name"]?.string ?? v1Package,
           !package.isEmpty {
            return package
        }
        return defaultApp
    }

    /// The suffixes APNs adds to an app's bundle id for its other push types.
    static let topicSuffixes = [".voip-ptt", ".voip", ".complication", ".pushkit.fileprovider", ".push-type.liveactivity",
                                ".push-type.location"]

    /// The app an `apns-topic` names: the topic without a push type's suffix.
    static func bundleID(ofTopic topic: String) -> String {
        // An ASCII topic (every real one) is compared on its bytes: in ASCII a suffix that starts
        // with "." ends on a character boundary, so the bytes answer as `hasSuffix` would, without
        // its character-wise reading (six of them a push cost more than the rest of its app name).
        var topic = topic
        let bytesSuffix: Int?? = topic.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .none }
            for suffix in topicSuffixes {
                let count = suffix.utf8.count
                guard bytes.count >= count else { continue }
                if UnsafeBufferPointer(rebasing: bytes[(bytes.count - count)...]).elementsEqual(suffix.utf8) { return count }
            }
            return .some(nil)
        }
        switch bytesSuffix {
        case .some(let count?): return String(topic.utf8.dropLast(count))!
        case .some(nil): return topic
        case nil:
            for suffix in topicSuffixes where topic.hasSuffix(suffix) { return String(topic.dropLast(suffix.count)) }
            return topic
        }
    }

    /// FCM v1's `message.apns.headers` `apns-topic` (header names in any case), when not empty.
    private static func v1APNsTopic(_ payload: PayloadValue) -> String? {
        guard let apns = ShapeReader.object(payload["message"]?["apns"]) else { return nil }
        let topic = ShapeReader.fcmV1APNsHeaders(KnownKeys.wireForm(apns, .apnsConfig), over: [:])["apns-topic"]
        return topic.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Reads each shape for each platform it reaches, on the push's payload where it lies. One function
/// per shape; the APNs reading is shared by D4, the FCM v1 `apns` block, FCM legacy on iOS and D9's
/// `apns` block. Where a shape's rule changes what the app gets (FCM's `aps` made from a legacy
/// notification, another spelling renamed) the reading makes a small tree and reads that instead.
struct ShapeReader {
    /// The push's payload: what the app's data (C10) points into.
    let store: PayloadStore
    let app: String
    /// Whether the contents it makes note the reading's steps (`Content.trace`).
    var traced = true

    static let simulatorBundleKey = "Simulator Target Bundle"
    static var empty: PayloadValue { .tree(.object(JSONObject())) }

    /// `value` when it is an object.
    static func object(_ value: PayloadValue?) -> PayloadValue? {
        guard let value, value.isObject else { return nil }
        return value
    }

    /// The app's data (C10): the object `value`, as it lies in the payload.
    func data(_ value: PayloadValue?, apnsCustom: Bool = false) -> AppData {
        AppData(Self.object(value), in: store, apnsCustom: apnsCustom)
    }

    // MARK: D4 APNs

    /// `fcmImage` is FCM v1's picture for iOS (`apns.fcm_options.image`), which FCM's extension helper shows.
    func apns(_ payload: PayloadValue, headers: HeaderFields, extraData: AppData = AppData(),
              origin: String = "$", fcmImage: String? = nil) -> Delivery {
        // The simulator key is for `simctl` only; it never reaches the device (D4).
        if let refusal = ServiceRules.apnsSizeRefusal(measuring: payload, removing: [Self.simulatorBundleKey], headers: headers) {
            return .rejected(refusal.message)
        }
        if let refusal = ServiceRules.collapseIDRefusal(headers: headers) {
            return .rejected(refusal.message)
        }
        let (aps, renamed) = KnownKeys.wire(Self.object(payload["aps"]) ?? Self.empty, .aps)
        var content = Content(app: app, appData: extraData.merging(data(payload, apnsCustom: true)))
        if traced { content.trace.append(TraceStep("D4", .readAsAPNs(origin: origin))) }
        Self.noteRenames(renamed, .aps, rule: "D4", path: "\(origin).aps", into: &content)
        if let alert = aps["alert"] {
            switch alert.kind {
            case .string:
                content.body = alert.string
                if traced { content.trace.append(TraceStep("I3", "aps.alert is a string: it is the body")) }
            case .object:
                let (alert, renamed) = KnownKeys.wire(alert, .alert)
                Self.noteRenames(renamed, .alert, rule: "D4", path: "\(origin).aps.alert", into: &content)
                content.title = alert["title"]?.scalarText
                content.subtitle = alert["subtitle"]?.scalarText
                content.body = alert["body"]?.scalarText
                content.titleLoc = Self.locRef(alert, key: "title-loc-key", args: "title-loc-args", path: "\(origin).aps.alert")
                content.subtitleLoc = Self.locRef(alert, key: "subtitle-loc-key", args: "subtitle-loc-args", path: "\(origin).aps.alert")
                content.bodyLoc = Self.locRef(alert, key: "loc-key", args: "loc-args", path: "\(origin).aps.alert")
            default: break
            }
        }
        content.badge = aps["badge"]?.int
        content.threadID = Self.nonEmpty(aps["thread-id"]?.scalarText)
        content.category = Self.nonEmpty(aps["category"]?.scalarText)
        content.level = aps["interruption-level"]?.string.flatMap(InterruptionLevel.init(rawValue:))
        content.criticalSound = Self.isCriticalSound(aps["sound"])
        content.mutableContent = aps["mutable-content"]?.int == 1
        // I12: an extension fetches what the payload names; without mutable-content no extension runs.
        content.image = fcmImage ?? (content.mutableContent ? Self.attachmentURL(payload) : nil)
        if let collapse = headers["apns-collapse-id"], !collapse.isEmpty { content.tag = collapse }

        if ServiceRules.isVoIP(headers: headers) {
            if traced { content.trace.append(TraceStep("I7", "VoIP push (apns-push-type voip or a .voip topic): PushKit delivers it as an incoming call, not a notification")) }
            return .call(content)
        }
        if headers["apns-push-type"].map(UTF8Text.lowercased) == "background" {
            return .silent(badge: content.badge, why: TraceStep("I5", "apns-push-type background: delivered to the app in the background, nothing shown"), content: content)
        }
        let hasSound = aps["sound"].map { !$0.isNull } ?? false
        if aps["content-available"]?.int == 1 && !content.hasVisibleText && !hasSound && content.badge == nil {
            return .silent(badge: nil, why: TraceStep("I5", "content-available: 1 with no alert, sound or badge: a background update, nothing shown"), content: content)
        }
        guard content.hasVisibleText else {
            return .silent(badge: content.badge, why: TraceStep("I5", .apnsShowsNothing(badge: content.badge != nil, sound: hasSound)), content: content)
        }
        return .show(content)
    }

    /// I10: `sound` as a dictionary with `critical: 1` (the Admin SDK writes `critical: true`).
    static func isCriticalSound<V: JSONReadable>(_ sound: V?) -> Bool {
        guard let sound, sound.isObject, let critical = sound["critical"] else { return false }
        return critical.int == 1 || critical.bool == true
    }

    /// I12: the picture an APNs payload names for its extension (DESIGN "State JSON additions").
    static func attachmentURL(_ payload: PayloadValue) -> String? {
        for key in ["image", "imageUrl", "image_url", "attachment-url"] {
            if let url = payload[key]?.string, !url.isEmpty { return url }
        }
        if let url = payload["attachment"]?["url"]?.string, !url.isEmpty { return url }
        return nil
    }

    /// SPEC §1: a trace step naming the other spellings read as their wire names, when there are any.
    /// `path` is made only when something was renamed (nearly never): a path string per push costs.
    static func noteRenames(_ renamed: [String], _ place: KeyPlace, rule: String, path: @autoclosure () -> String, into content: inout Content) {
        guard !renamed.isEmpty else { return }
        content.trace.append(TraceStep(rule, "\(path()): \(place.aliasAuthor)'s spellings read as the wire sends them: \(renamed.joined(separator: ", "))"))
    }

    // MARK: D2 FCM HTTP v1

    func fcmV1(_ root: PayloadValue, platform: Platform, headers: HeaderFields) -> Delivery {
        let message = Self.object(root["message"])
        if let refusal = ServiceRules.fcmSizeRefusal(measuring: root)?.message { return .rejected(refusal) }
        let sharedWire = Self.object(message?["notification"]).map { KnownKeys.wire($0, .fcmNotification) }
        let shared = sharedWire?.object
        let data = self.data(message?["data"])
        switch platform {
        case .android:
            let (android, androidRenamed) = KnownKeys.wire(Self.object(message?["android"]) ?? Self.empty, .androidConfig)
            let overrideWire = Self.object(android["notification"]).map { KnownKeys.wire($0, .androidNotification) }
            let override = overrideWire?.object
            let notification = Self.merged(shared, override)
            let appData = Self.object(android["data"]) != nil ? self.data(android["data"]) : data
            var content = Content(app: app, appData: appData)
            if traced { content.trace.append(TraceStep("D2", override != nil ? "FCM v1 request: message.notification, overridden by message.android.notification"
                : "FCM v1 request: message.notification")) }
            Self.noteRenames(sharedWire?.renamed ?? [], .fcmNotification, rule: "D2", path: "$.message.notification", into: &content)
            Self.noteRenames(androidRenamed, .androidConfig, rule: "D2", path: "$.message.android", into: &content)
            Self.noteRenames(overrideWire?.renamed ?? [], .androidNotification, rule: "D2", path: "$.message.android.notification", into: &content)
            if traced && android["data"] != nil { content.trace.append(TraceStep("D2", "message.android.data replaces message.data on Android")) }
            content.collapseKey = android["collapse_key"]?.scalarText
            guard shared != nil || override != nil else {
                return .silent(badge: nil, why: TraceStep("A11", "no notification block: a data message for the app, nothing shown"), content: content)
            }
            Self.readFCMNotification(notification, into: &content, path: override != nil ? "$.message.android.notification" : "$.message.notification")
            content.badge = notification["notification_count"]?.int ?? content.badge
            return Self.androidOutcome(content)
        case .ios:
            let apnsBlock = KnownKeys.wireForm(Self.object(message?["apns"]) ?? Self.empty, .apnsConfig)
            let apnsHeaders = Self.fcmV1APNsHeaders(apnsBlock, over: headers)
            let given = Self.object(apnsBlock["payload"])
            var apnsPayload = given ?? Self.empty
            // FCM turns message.notification into aps.alert unless the apns block gives one.
            let givenAPS = Self.object(given?["aps"])
            if givenAPS?["alert"] == nil, let shared, shared["title"] != nil || shared["body"] != nil {
                var aps = givenAPS?.json.object ?? JSONObject()
                var alert = JSONObject()
                if let title = shared["title"] { alert["title"] = title.json }
                if let body = shared["body"] { alert["body"] = body.json }
                aps["alert"] = .object(alert)
                var payload = given?.json.object ?? JSONObject()
                payload["aps"] = .object(aps)
                apnsPayload = .tree(.object(payload))
            }
            let options = Self.object(apnsBlock["fcm_options"]).map { KnownKeys.wireForm($0, .apnsFCMOptions) }
            let image = Self.nonEmpty(options?["image"]?.string) ?? Self.nonEmpty(shared?["image"]?.string)
            var delivery = apns(apnsPayload, headers: apnsHeaders, extraData: data, origin: "$.message.apns.payload", fcmImage: image)
            Self.prependTrace(TraceStep("D2", "FCM v1 request: message.apns overrides message.notification on iOS"), to: &delivery)
            return delivery
        case .web:
            let webpush = KnownKeys.wireForm(Self.object(message?["webpush"]) ?? Self.empty, .webpushConfig)
            let override = Self.object(webpush["notification"])
            let notification = Self.merged(shared, override)
            var appData = Self.object(webpush["data"]) != nil ? self.data(webpush["data"]) : data
            if let nested = Self.object(override?["data"]) { appData = appData.merging(self.data(nested)) }
            var content = Content(app: app, appData: appData)
            if traced { content.trace.append(TraceStep("D2", override != nil ? "FCM v1 request: message.notification, overridden by message.webpush.notification"
                : "FCM v1 request: message.notification")) }
            guard shared != nil || override != nil else {
                return .silent(badge: nil, why: TraceStep("D8", "no notification for the browser: the service worker gets the data, nothing shown"), content: content)
            }
            return Self.webOutcome(notification, content: content, path: override != nil ? "$.message.webpush.notification" : "$.message.notification")
        }
    }

    /// FCM v1: the shared notification with a platform block's fields over it (a tree only when
    /// there is a block to merge).
    static func merged(_ shared: PayloadValue?, _ override: PayloadValue?) -> PayloadValue {
        guard let override else { return shared ?? empty }
        guard let shared else { return override }
        return .tree(.object((shared.json.object ?? JSONObject()).merging(override.json.object ?? JSONObject())))
    }

    /// FCM v1's `message.apns.headers` (an APNs config block in wire form) laid over `headers`: what
    /// APNs is sent for the iOS delivery, names lowercased, the last of a name winning. The reading
    /// and the app's name (SPEC §1) both take the iOS headers from here.
    static func fcmV1APNsHeaders(_ apnsBlock: PayloadValue, over headers: HeaderFields) -> HeaderFields {
        var merged = headers
        for (name, value) in (object(apnsBlock["headers"]) ?? empty).members {
            if let text = value.scalarText, let name = name.string { merged[name.lowercased()] = text }
        }
        return merged
    }

    // MARK: D3 push-service send-to-user (seed 000)

    /// What a send-to-user request says alike to every platform: read once a push (`SharedReadings`).
    func sendToUserContent(_ root: PayloadValue) -> Content {
        var content = Content(app: app, appData: data(root["data"]))
        if traced { content.trace.append(TraceStep("D3", "the push service's send-to-user request: title, body and data")) }
        content.title = root["title"]?.scalarText
        content.body = root["body"]?.scalarText
        content.badge = root["badge"]?.int
        content.image = root["image"]?.string
        content.tag = Self.nonEmpty(root["tag"]?.scalarText)
        return content
    }

    /// What each platform makes of it.
    static func sendToUser(_ base: consuming Content, platform: Platform, headers: HeaderFields) -> Delivery {
        var content = consume base
        switch platform {
        case .android: return Self.androidOutcome(content)
        case .ios:
            if let collapse = headers["apns-collapse-id"], !collapse.isEmpty { content.tag = collapse }
            return Self.iosOutcome(content)
        case .web:
            guard content.hasVisibleText else {
                return .silent(badge: nil, why: TraceStep("D3", "no title or body: nothing shown"), content: content)
            }
            return .show(content)
        }
    }

    // MARK: D5 Expo

    func expo(_ root: PayloadValue, platform: Platform, headers: HeaderFields) -> Delivery {
        var content = Content(app: app, appData: data(root["data"]))
        if traced { content.trace.append(TraceStep("D5", "Expo push message: title, body, data")) }
        content.title = root["title"]?.scalarText
        content.body = root["body"]?.scalarText
        content.category = Self.nonEmpty(root["categoryId"]?.string)
        content.image = Self.nonEmpty(root["richContent"]?["image"]?.string)
        switch platform {
        case .ios:
            content.badge = root["badge"]?.int
            content.subtitle = root["subtitle"]?.scalarText
            content.level = root["interruptionLevel"]?.string.flatMap(InterruptionLevel.init(rawValue:))
            content.criticalSound = Self.isCriticalSound(root["sound"])
            content.mutableContent = root["mutableContent"]?.bool == true
            if let collapse = headers["apns-collapse-id"], !collapse.isEmpty { content.tag = collapse }
            if root["_contentAvailable"]?.bool == true && !content.hasVisibleText {
                return .silent(badge: content.badge, why: TraceStep("I5", "_contentAvailable with no title or body: a background update"), content: content)
            }
            return Self.iosOutcome(content)
        default:
            // SPEC §1, Expo's docs: badge, sound and subtitle are iOS-only.
            let iosOnly = ["badge", "sound", "subtitle"].filter(root.has)
            if !iosOnly.isEmpty {
                if traced { content.trace.append(TraceStep("D5", "\(iosOnly.joined(separator: ", ")) \(iosOnly.count == 1 ? "is" : "are") iOS-only in Expo: Android ignores \(iosOnly.count == 1 ? "it" : "them") (the badge stays as it was)")) }
            }
            return Self.androidOutcome(content)
        }
    }

    // MARK: D6 web push

    func webPush(_ root: PayloadValue) -> Delivery {
        if root["web_push"]?.int == 8030 {
            let notification = Self.object(root["notification"]) ?? Self.empty
            var content = Content(app: app, appData: data(notification["data"]))
            if traced { content.trace.append(TraceStep("D6", "declarative web push (web_push: 8030)")) }
            content.badge = root["app_badge"]?.int
            return Self.webOutcome(notification, content: content, path: "$.notification")
        }
        // The options with the title argument in them: a small tree (the data stays where it lies).
        let given = Self.object(root["options"])
        var options = given?.json.object ?? JSONObject()
        options["title"] = root["title"]?.json
        var content = Content(app: app, appData: data(given?["data"]))
        if traced { content.trace.append(TraceStep("D6", "showNotification(title, options) arguments")) }
        return Self.webOutcome(.tree(.object(options)), content: content, path: "$.options")
    }

    // MARK: D7 FCM legacy / node-gcm

    /// `origin` is where the message stands: `$`, or D9's `$.fcm`.
    func fcmLegacy(_ root: PayloadValue, platform: Platform, headers: HeaderFields, origin: String = "$") -> Delivery {
        if let refusal = ServiceRules.fcmSizeRefusal(measuring: root)?.message { return .rejected(refusal) }
        // node-gcm's camelCase options mean their wire names (SPEC §1).
        let (message, renamed) = KnownKeys.wire(root, .legacyMessage)
        if platform == .ios {
            var delivery = fcmLegacyOnIOS(message, headers: headers, origin: origin)
            Self.amend(&delivery) { Self.noteRenames(renamed, .legacyMessage, rule: "D7", path: origin, into: &$0) }
            return delivery
        }
        var content = Content(app: app, appData: data(message["data"]))
        if traced { content.trace.append(TraceStep("D7", "FCM legacy message (as the IM SDK sends it)")) }
        Self.noteRenames(renamed, .legacyMessage, rule: "D7", path: origin, into: &content)
        content.collapseKey = message["collapse_key"]?.scalarText
        guard let notification = Self.object(message["notification"]) else {
            return .silent(badge: nil, why: TraceStep("A11", "no notification block: a data message for the app, nothing shown (the IM SDK's silent push)"), content: content)
        }
        Self.readFCMNotification(notification, into: &content, path: "\(origin).notification")
        return Self.androidOutcome(content)
    }

    /// SPEC §1: FCM sends a legacy message to an iOS token through APNs: `notification` becomes
    /// `aps.alert` (title, subtitle, body, loc keys), badge and sound, `click_action` the category,
    /// `content_available`/`mutable_content` their APNs flags, `data` the custom keys beside `aps`.
    /// Without a notification block or content_available it does not reach iOS.
    func fcmLegacyOnIOS(_ message: PayloadValue, headers: HeaderFields, origin: String) -> Delivery {
        let notification = Self.object(message["notification"])
        let contentAvailable = Self.legacyContentAvailable(message)
        guard notification != nil || contentAvailable else { return .elsewhere }
        let mutable = message["mutable_content"]?.bool == true || message["mutable_content"]?.int == 1
        // The payload FCM hands APNs, written as the compact text APNs receives and read on its tape by
        // the APNs reading itself (sizes, I3–I12). Built as a tree and read there, it cost an FCM
        // legacy push on iOS about three times its Android reading.
        let aps = PayloadStore.make(compact: Self.legacyAPNsPayload(notification, contentAvailable: contentAvailable, mutable: mutable))
        // The app's data is the message's `data`: beside `aps` the payload FCM makes holds nothing more.
        let appData = data(message["data"])
        var delivery = aps.withRoot { ShapeReader(store: aps, app: app, traced: traced).apns(.view($0), headers: headers, origin: origin) }
        Self.amend(&delivery) { content in
            content.appData = appData
            if traced { content.trace.insert(TraceStep("D7", "FCM legacy message to an iOS token: FCM sends it through APNs (notification → aps.alert, badge, sound; click_action → category; content_available, mutable_content → their APNs flags; data beside aps)"), at: 0) }
            content.collapseKey = message["collapse_key"]?.scalarText  // what FCM collapses while the device is offline (O1)
            // The loc keys are the payload's own, not the aps FCM makes of them (L1, V6 point there).
            content.titleLoc?.path = "\(origin).notification.title_loc_key"
            content.bodyLoc?.path = "\(origin).notification.body_loc_key"
        }
        return delivery
    }

    /// `{"aps":{…}}` as FCM makes it of a legacy message, compact: `notification`'s texts and loc keys
    /// in `alert`, then badge, sound, category, and the two flags.
    static func legacyAPNsPayload(_ notification: PayloadValue?, contentAvailable: Bool, mutable: Bool) -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(256)
        writer.append("{\"aps\":{")
        var members = 0
        func member(_ key: StaticString) {
            if members > 0 { writer.append(",") }
            members += 1
            writer.append("\"")
            writer.append(key)
            writer.append("\":")
        }
        if let notification {
            var alert = 0
            for key in legacyAlertKeys {
                guard let value = notification[key.legacy] else { continue }
                if alert == 0 {
                    member("alert")
                    writer.append("{")
                } else {
                    writer.append(",")
                }
                alert += 1
                writer.append("\"")
                writer.append(key.apns)
                writer.append("\":")
                // loc args may come as a string holding a JSON array (L1): APNs takes the array.
                if key.isArgs, value.isString {
                    writer.write(JSON.array(locArgs(value).map(JSON.string)))
                } else {
                    writer.write(value)
                }
            }
            if alert > 0 { writer.append("}") }
            if let badge = notification["badge"]?.int {
                member("badge")
                UTF8Text.appendDecimal(badge, to: &writer.bytes)
            }
            if let sound = notification["sound"] {
                member("sound")
                writer.write(sound)
            }
            if let action = notification["click_action"] {
                member("category")
                writer.write(action)
            }
        }
        if contentAvailable {
            member("content-available")
            writer.append("1")
        }
        if mutable {
            member("mutable-content")
            writer.append("1")
        }
        writer.append("}}")
        return writer.bytes
    }

    /// The legacy `notification` keys that become `aps.alert`'s, in the order FCM writes them.
    static let legacyAlertKeys: [(legacy: String, apns: StaticString, isArgs: Bool)] = [
        ("title", "title", false), ("subtitle", "subtitle", false), ("body", "body", false),
        ("title_loc_key", "title-loc-key", false), ("title_loc_args", "title-loc-args", true),
        ("body_loc_key", "loc-key", false), ("body_loc_args", "loc-args", true),
    ]

    /// FCM legacy `content_available` (node-gcm `contentAvailable`): `true` (or 1).
    static func legacyContentAvailable<V: JSONReadable>(_ message: V) -> Bool {
        let flag = message["content_available"] ?? message["contentAvailable"]
        return flag?.bool == true || flag?.int == 1
    }

    // MARK: D9 Pusher Beams

    /// Each platform block is that platform's payload: `apns` as D4, `fcm` as D7 (Android only),
    /// `web.notification` as D6 (with `web.data` for the service worker).
    func pusherBeams(_ root: PayloadValue, platform: Platform, headers: HeaderFields) -> Delivery {
        var delivery: Delivery
        let block: String
        switch platform {
        case .ios:
            guard let apnsBlock = Self.object(root["apns"]) else { return .elsewhere }
            block = "apns"
            delivery = apns(apnsBlock, headers: headers, origin: "$.apns")
        case .android:
            guard let fcm = Self.object(root["fcm"]) else { return .elsewhere }
            block = "fcm"
            delivery = fcmLegacy(fcm, platform: .android, headers: headers, origin: "$.fcm")
        case .web:
            guard let web = Self.object(root["web"]) else { return .elsewhere }
            block = "web"
            let content = Content(app: app, appData: data(web["data"]))
            if let notification = Self.object(web["notification"]) {
                delivery = Self.webOutcome(notification, content: content, path: "$.web.notification")
            } else {
                delivery = .silent(badge: nil, why: TraceStep("D9", "no web.notification: the service worker gets web.data, nothing shown"), content: content)
            }
        }
        Self.prependTrace(TraceStep("D9", "Pusher Beams publish request: the \(block) block is the \(platform.displayName) payload"), to: &delivery)
        return delivery
    }

    // MARK: D8 data-only

    func dataOnly(_ root: PayloadValue, platform: Platform) -> Delivery {
        let content = Content(app: app, appData: data(root["data"]))
        let rule = platform == .ios ? "I5" : "A11"
        return .silent(badge: nil, why: TraceStep(rule, "data-only message: the app receives the data, nothing is shown"), content: content)
    }

    // MARK: shared readings

    /// An FCM `notification` block (legacy, or v1 after its platform override) as Android reads it.
    static func readFCMNotification(_ notification: PayloadValue, into content: inout Content, path: String) {
        content.title = notification["title"]?.scalarText
        content.body = notification["body"]?.scalarText
        content.titleLoc = locRef(notification, key: "title_loc_key", args: "title_loc_args", path: path)
        content.bodyLoc = locRef(notification, key: "body_loc_key", args: "body_loc_args", path: path)
        content.tag = nonEmpty(notification["tag"]?.scalarText)
        content.badge = notification["badge"]?.int
        content.image = nonEmpty(notification["image"]?.string)
        content.category = nonEmpty(notification["click_action"]?.scalarText)
    }

    // The outcomes take the content (`consuming`): the caller's last use of it, so it is moved into
    // the delivery rather than copied, a retain and a release for each of its strings.
    static func androidOutcome(_ content: consuming Content) -> Delivery {
        guard content.hasVisibleText else {
            return .silent(badge: content.badge, why: TraceStep("A11", "the notification has neither title nor body: nothing shown"), content: content)
        }
        return .show(content)
    }

    static func iosOutcome(_ content: consuming Content) -> Delivery {
        guard content.hasVisibleText else {
            return .silent(badge: content.badge, why: TraceStep("I5", "no alert text: nothing shown"), content: content)
        }
        return .show(content)
    }

    /// Web: refuse what the browser throws for (W3), keep at most what Chrome shows (W4).
    static func webOutcome(_ options: PayloadValue, content base: consuming Content, path: String) -> Delivery {
        if let error = ServiceRules.webOptionErrors(in: options, path: path).first {
            return .rejected("\(error.message) at \(error.path)")
        }
        var content = consume base
        content.title = options["title"]?.scalarText
        content.body = options["body"]?.scalarText
        content.tag = nonEmpty(options["tag"]?.scalarText)
        content.renotify = options["renotify"]?.bool ?? false
        content.image = nonEmpty(options["image"]?.string)
        if let actions = options["actions"], actions.isArray {
            content.actions = actions.elements.compactMap { $0["title"]?.scalarText ?? $0["action"]?.scalarText }
        }
        guard content.hasVisibleText else {
            return .silent(badge: content.badge, why: TraceStep("D6", "no title or body: nothing shown"), content: content)
        }
        return .show(content)
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// `path` is made only for a key that is there.
    static func locRef(_ object: PayloadValue, key: String, args: String, path: @autoclosure () -> String) -> LocRef? {
        guard let name = object[key]?.string, !name.isEmpty else { return nil }
        return LocRef(key: name, args: locArgs(object[args]), path: "\(path()).\(key)")
    }

    /// `loc-args` as a JSON array, or (FCM legacy) a string holding one (L1).
    static func locArgs<V: JSONReadable>(_ value: V?) -> [String] {
        guard let value else { return [] }
        switch value.kind {
        case .array: return value.elements.map { $0.scalarText ?? JSONWriter.compact($0.json) }
        case .string:
            let text = value.string ?? ""
            if case .array(let items)? = try? JSONParser.parse(text) { return items.map { $0.scalarText ?? JSONWriter.compact($0) } }
            return [text]
        default: return []
        }
    }

    static func prependTrace(_ step: TraceStep, to delivery: inout Delivery) {
        amend(&delivery) { $0.trace.insert(step, at: 0) }
    }

    /// Changes the content a delivery carries, whatever its kind.
    static func amend(_ delivery: inout Delivery, _ change: (inout Content) -> Void) {
        switch delivery {
        case .show(var c): change(&c); delivery = .show(c)
        case .call(var c): change(&c); delivery = .call(c)
        case .silent(let badge, let why, var c?): change(&c); delivery = .silent(badge: badge, why: why, content: c)
        default: break
        }
    }
}
