extension Push {
    /// What this push becomes on one platform: SPEC §1 (shapes, overrides, the app) and the
    /// per-platform reading of each shape. Localization and grouping happen later, in the Center.
    public func delivery(on platform: Platform, defaultApp: String) -> Delivery {
        guard reaches(platform), case .object(let root) = payload else { return .elsewhere }
        let app = appName(defaultApp: defaultApp, platform: platform)
        switch shape {
        case .envelope: return .elsewhere  // unwrapped by Intake; never stored
        case .apns: return ShapeReader.apns(root, headers: transport.headers, app: app)
        case .fcmV1: return ShapeReader.fcmV1(root, platform: platform, headers: transport.headers, app: app)
        case .sendToUser: return ShapeReader.sendToUser(root, platform: platform, headers: transport.headers, app: app)
        case .expo: return ShapeReader.expo(root, platform: platform, headers: transport.headers, app: app)
        case .webPush: return ShapeReader.webPush(root, app: app)
        case .fcmLegacy: return ShapeReader.fcmLegacy(root, app: app)
        case .dataOnly: return ShapeReader.dataOnly(root, platform: platform, headers: transport.headers, app: app)
        }
    }

    /// SPEC §1 "The app": `apns-topic` without its push-type suffix, else `Simulator Target Bundle`,
    /// else FCM `restricted_package_name`, else the profile's `--app`. FCM v1 keeps that name in
    /// `message.android`, a platform block, so it names the app on Android only (nil: any platform).
    public func appName(defaultApp: String, platform: Platform? = nil) -> String {
        if let topic = transport.headers["apns-topic"], !topic.isEmpty {
            for suffix in [".voip-ptt", ".voip", ".complication", ".pushkit.fileprovider", ".push-type.liveactivity", ".push-type.location"]
            where topic.hasSuffix(suffix) {
                return String(topic.dropLast(suffix.count))
            }
            return topic
        }
        if let bundle = payload["Simulator Target Bundle"]?.string, !bundle.isEmpty { return bundle }
        let v1Package = platform == nil || platform == .android ? payload["message"]?["android"]?["restricted_package_name"]?.string : nil
        if let package = payload["restricted_package_name"]?.string ?? v1Package,
           !package.isEmpty {
            return package
        }
        return defaultApp
    }
}

/// Reads each shape for each platform it reaches. One function per shape; the APNs reading is
/// shared by D4 and the FCM v1 `apns` block.
enum ShapeReader {
    static let simulatorBundleKey = "Simulator Target Bundle"

    // MARK: D4 APNs

    static func apns(_ payload: JSONObject, headers: [String: String], app: String, extraData: JSONObject = JSONObject(),
                     origin: String = "$") -> Delivery {
        // The simulator key is for `simctl` only; it never reaches the device (D4).
        let wire = payload.removing([simulatorBundleKey])
        if let refusal = ServiceRules.apnsSizeRefusal(payload: .object(wire), headers: headers) {
            return .rejected(refusal.message)
        }
        if let refusal = ServiceRules.collapseIDRefusal(headers: headers) {
            return .rejected(refusal.message)
        }
        let aps = wire["aps"]?.object ?? JSONObject()
        var content = Content(app: app, data: extraData.merging(wire.removing(["aps"])))
        content.trace.append(TraceStep("D4", .readAsAPNs(origin: origin)))
        switch aps["alert"] {
        case .string(let body)?:
            content.body = body
            content.trace.append(TraceStep("I3", "aps.alert is a string: it is the body"))
        case .object(let alert)?:
            content.title = alert["title"]?.scalarText
            content.subtitle = alert["subtitle"]?.scalarText
            content.body = alert["body"]?.scalarText
            content.titleLoc = locRef(alert, key: "title-loc-key", args: "title-loc-args", path: "\(origin).aps.alert")
            content.subtitleLoc = locRef(alert, key: "subtitle-loc-key", args: "subtitle-loc-args", path: "\(origin).aps.alert")
            content.bodyLoc = locRef(alert, key: "loc-key", args: "loc-args", path: "\(origin).aps.alert")
        default: break
        }
        content.badge = aps["badge"]?.int
        content.threadID = aps["thread-id"]?.scalarText.flatMap { $0.isEmpty ? nil : $0 }
        content.category = aps["category"]?.scalarText
        content.level = aps["interruption-level"]?.string.flatMap(InterruptionLevel.init(rawValue:))
        if let collapse = headers["apns-collapse-id"], !collapse.isEmpty { content.tag = collapse }

        if ServiceRules.isVoIP(headers: headers) {
            content.trace.append(TraceStep("I7", "VoIP push (apns-push-type voip or a .voip topic): PushKit delivers it as an incoming call, not a notification"))
            return .call(content)
        }
        if headers["apns-push-type"]?.lowercased() == "background" {
            return .silent(badge: content.badge, why: TraceStep("I5", "apns-push-type background: delivered to the app in the background, nothing shown"), content: content)
        }
        let hasSound = aps["sound"].map { !$0.isNull } ?? false
        if aps["content-available"]?.int == 1 && !content.hasVisibleText && !hasSound && content.badge == nil {
            return .silent(badge: nil, why: TraceStep("I5", "content-available: 1 with no alert, sound or badge: a background update, nothing shown"), content: content)
        }
        guard content.hasVisibleText else {
            let what = content.badge != nil ? "only a badge" : (hasSound ? "only a sound" : "no alert")
            return .silent(badge: content.badge, why: TraceStep("I5", .apnsShowsNothing(what: what)), content: content)
        }
        return .show(content)
    }

    // MARK: D2 FCM HTTP v1

    static func fcmV1(_ root: JSONObject, platform: Platform, headers: [String: String], app: String) -> Delivery {
        let message = root["message"]?.object ?? JSONObject()
        if let refusal = ServiceRules.fcmSizeRefusal(payload: .object(root)) { return .rejected(refusal) }
        let shared = message["notification"]?.object
        let data = message["data"]?.object ?? JSONObject()
        switch platform {
        case .android:
            let android = message["android"]?.object ?? JSONObject()
            let override = android["notification"]?.object
            var notification = shared ?? JSONObject()
            if let override { notification = notification.merging(override) }
            let appData = android["data"]?.object ?? data
            var content = Content(app: app, data: appData)
            content.trace.append(TraceStep("D2", override != nil ? "FCM v1 request: message.notification, overridden by message.android.notification"
                : "FCM v1 request: message.notification"))
            if android["data"] != nil { content.trace.append(TraceStep("D2", "message.android.data replaces message.data on Android")) }
            guard shared != nil || override != nil else {
                return .silent(badge: nil, why: TraceStep("A11", "no notification block: a data message for the app, nothing shown"), content: content)
            }
            readFCMNotification(notification, into: &content, path: override != nil ? "$.message.android.notification" : "$.message.notification")
            content.badge = notification["notification_count"]?.int ?? content.badge
            content.collapseKey = android["collapse_key"]?.scalarText
            return androidOutcome(content)
        case .ios:
            let apnsBlock = message["apns"]?.object ?? JSONObject()
            var apnsHeaders = headers
            for member in apnsBlock["headers"]?.object?.members ?? [] {
                if let text = member.value.scalarText { apnsHeaders[member.key.lowercased()] = text }
            }
            var apnsPayload = apnsBlock["payload"]?.object ?? JSONObject()
            var aps = apnsPayload["aps"]?.object ?? JSONObject()
            // FCM turns message.notification into aps.alert unless the apns block gives one.
            if aps["alert"] == nil, let shared, shared["title"] != nil || shared["body"] != nil {
                var alert = JSONObject()
                if let title = shared["title"] { alert["title"] = title }
                if let body = shared["body"] { alert["body"] = body }
                aps["alert"] = .object(alert)
            }
            if !aps.isEmpty { apnsPayload["aps"] = .object(aps) }
            var delivery = apns(apnsPayload, headers: apnsHeaders, app: app, extraData: data, origin: "$.message.apns.payload")
            prependTrace(TraceStep("D2", "FCM v1 request: message.apns overrides message.notification on iOS"), to: &delivery)
            return delivery
        case .web:
            let webpush = message["webpush"]?.object ?? JSONObject()
            let override = webpush["notification"]?.object
            var notification = shared ?? JSONObject()
            if let override { notification = notification.merging(override) }
            var appData = webpush["data"]?.object ?? data
            if let nested = override?["data"]?.object { appData = appData.merging(nested) }
            var content = Content(app: app, data: appData)
            content.trace.append(TraceStep("D2", override != nil ? "FCM v1 request: message.notification, overridden by message.webpush.notification"
                : "FCM v1 request: message.notification"))
            guard shared != nil || override != nil else {
                return .silent(badge: nil, why: TraceStep("D8", "no notification for the browser: the service worker gets the data, nothing shown"), content: content)
            }
            return webOutcome(notification, content: content, path: override != nil ? "$.message.webpush.notification" : "$.message.notification")
        }
    }

    // MARK: D3 push-service send-to-user (seed 000)

    static func sendToUser(_ root: JSONObject, platform: Platform, headers: [String: String], app: String) -> Delivery {
        var content = Content(app: app, data: root["data"]?.object ?? JSONObject())
        content.trace.append(TraceStep("D3", "the push service's send-to-user request: title, body and data"))
        content.title = root["title"]?.scalarText
        content.body = root["body"]?.scalarText
        content.badge = root["badge"]?.int
        content.image = root["image"]?.string
        content.tag = root["tag"]?.scalarText.flatMap { $0.isEmpty ? nil : $0 }
        switch platform {
        case .android: return androidOutcome(content)
        case .ios:
            if let collapse = headers["apns-collapse-id"], !collapse.isEmpty { content.tag = collapse }
            return iosOutcome(content)
        case .web: return content.hasVisibleText ? .show(content) : .silent(badge: nil, why: TraceStep("D3", "no title or body: nothing shown"), content: content)
        }
    }

    // MARK: D5 Expo

    static func expo(_ root: JSONObject, platform: Platform, headers: [String: String], app: String) -> Delivery {
        var content = Content(app: app, data: root["data"]?.object ?? JSONObject())
        content.trace.append(TraceStep("D5", "Expo push message: title, body, data"))
        content.title = root["title"]?.scalarText
        content.body = root["body"]?.scalarText
        content.badge = root["badge"]?.int
        content.category = root["categoryId"]?.string
        switch platform {
        case .ios:
            content.subtitle = root["subtitle"]?.scalarText
            content.level = root["interruptionLevel"]?.string.flatMap(InterruptionLevel.init(rawValue:))
            if let collapse = headers["apns-collapse-id"], !collapse.isEmpty { content.tag = collapse }
            if root["_contentAvailable"]?.bool == true && !content.hasVisibleText {
                return .silent(badge: content.badge, why: TraceStep("I5", "_contentAvailable with no title or body: a background update"), content: content)
            }
            return iosOutcome(content)
        default:
            return androidOutcome(content)
        }
    }

    // MARK: D6 web push

    static func webPush(_ root: JSONObject, app: String) -> Delivery {
        if root["web_push"]?.int == 8030 {
            let notification = root["notification"]?.object ?? JSONObject()
            var content = Content(app: app, data: notification["data"]?.object ?? JSONObject())
            content.trace.append(TraceStep("D6", "declarative web push (web_push: 8030)"))
            content.badge = root["app_badge"]?.int
            return webOutcome(notification, content: content, path: "$.notification")
        }
        var options = root["options"]?.object ?? JSONObject()
        options["title"] = root["title"]
        var content = Content(app: app, data: options["data"]?.object ?? JSONObject())
        content.trace.append(TraceStep("D6", "showNotification(title, options) arguments"))
        return webOutcome(options, content: content, path: "$.options")
    }

    // MARK: D7 FCM legacy / node-gcm

    static func fcmLegacy(_ root: JSONObject, app: String) -> Delivery {
        if let refusal = ServiceRules.fcmSizeRefusal(payload: .object(root)) { return .rejected(refusal) }
        var content = Content(app: app, data: root["data"]?.object ?? JSONObject())
        content.trace.append(TraceStep("D7", "FCM legacy message (as the IM SDK sends it)"))
        content.collapseKey = (root["collapse_key"] ?? root["collapseKey"])?.scalarText
        guard let notification = root["notification"]?.object else {
            return .silent(badge: nil, why: TraceStep("A11", "no notification block: a data message for the app, nothing shown (the IM SDK's silent push)"), content: content)
        }
        readFCMNotification(notification, into: &content, path: "$.notification")
        return androidOutcome(content)
    }

    // MARK: D8 data-only

    static func dataOnly(_ root: JSONObject, platform: Platform, headers: [String: String], app: String) -> Delivery {
        let content = Content(app: app, data: root["data"]?.object ?? JSONObject())
        let rule = platform == .ios ? "I5" : "A11"
        return .silent(badge: nil, why: TraceStep(rule, "data-only message: the app receives the data, nothing is shown"), content: content)
    }

    // MARK: shared readings

    static func readFCMNotification(_ notification: JSONObject, into content: inout Content, path: String) {
        content.title = notification["title"]?.scalarText
        content.body = notification["body"]?.scalarText
        content.titleLoc = locRef(notification, key: "title_loc_key", args: "title_loc_args", path: path)
        content.bodyLoc = locRef(notification, key: "body_loc_key", args: "body_loc_args", path: path)
        content.tag = notification["tag"]?.scalarText.flatMap { $0.isEmpty ? nil : $0 }
        content.badge = notification["badge"]?.int
        content.image = notification["image"]?.string
    }

    static func androidOutcome(_ content: Content) -> Delivery {
        guard content.hasVisibleText else {
            return .silent(badge: content.badge, why: TraceStep("A11", "the notification has neither title nor body: nothing shown"), content: content)
        }
        return .show(content)
    }

    static func iosOutcome(_ content: Content) -> Delivery {
        guard content.hasVisibleText else {
            return .silent(badge: content.badge, why: TraceStep("I5", "no alert text: nothing shown"), content: content)
        }
        return .show(content)
    }

    /// Web: refuse what the browser throws for (W3), keep at most what Chrome shows (W4).
    static func webOutcome(_ options: JSONObject, content base: Content, path: String) -> Delivery {
        if let error = ServiceRules.webOptionErrors(options, path: path).first {
            return .rejected("\(error.message) at \(error.path)")
        }
        var content = base
        content.title = options["title"]?.scalarText
        content.body = options["body"]?.scalarText
        content.tag = options["tag"]?.scalarText.flatMap { $0.isEmpty ? nil : $0 }
        content.renotify = options["renotify"]?.bool ?? false
        content.image = options["image"]?.string
        content.actions = (options["actions"]?.array ?? []).compactMap { $0["title"]?.scalarText ?? $0["action"]?.scalarText }
        guard content.hasVisibleText else {
            return .silent(badge: content.badge, why: TraceStep("D6", "no title or body: nothing shown"), content: content)
        }
        return .show(content)
    }


    static func locRef(_ object: JSONObject, key: String, args: String, path: String) -> LocRef? {
        guard let name = object[key]?.string, !name.isEmpty else { return nil }
        return LocRef(key: name, args: locArgs(object[args]), path: "\(path).\(key)")
    }

    /// `loc-args` as a JSON array, or (FCM legacy) a string holding one (L1).
    static func locArgs(_ value: JSON?) -> [String] {
        switch value {
        case .array(let items)?: return items.map { $0.scalarText ?? JSONWriter.compact($0) }
        case .string(let text)?:
            if case .array(let items)? = try? JSONParser.parse(text) { return items.map { $0.scalarText ?? JSONWriter.compact($0) } }
            return [text]
        default: return []
        }
    }

    static func prependTrace(_ step: TraceStep, to delivery: inout Delivery) {
        switch delivery {
        case .show(var c): c.trace.insert(step, at: 0); delivery = .show(c)
        case .call(var c): c.trace.insert(step, at: 0); delivery = .call(c)
        case .silent(let badge, let why, var c?): c.trace.insert(step, at: 0); delivery = .silent(badge: badge, why: why, content: c)
        default: break
        }
    }
}
