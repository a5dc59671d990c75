// The keys Shade reads, one table per place in a payload. The shape readers take the other spellings
// of a key from here (the Firebase Admin SDK's camelCase, node-gcm's, SPEC §1), lint asks it which keys
// Apple ignores (V5) and which key a typo meant (V9), so a key is known in exactly one place.

/// Where a key stands: each place has its own table.
public enum KeyPlace: String, CaseIterable, Sendable {
    /// D4: beside `aps` (anything else there is the app's data).
    case apnsPayload
    case aps, alert
    /// `aps.sound` as a dictionary (a critical alert, I10).
    case sound
    /// D2: the request, `message`, and its blocks.
    case fcmRequest, fcmMessage, fcmNotification, androidConfig, androidNotification, apnsConfig, apnsFCMOptions, webpushConfig
    /// D7 (and D9's `fcm` block): the message and its `notification`.
    case legacyMessage, legacyNotification
    /// D3
    case sendToUser
    /// D5
    case expo
    /// D6 options, FCM's `webpush.notification`, D9's `web.notification`.
    case webOptions
    /// D9
    case pusherBeams
    /// Where the conversation keys live (SPEC §2).
    case conversationData
    /// Request or envelope headers (lower-cased, as HTTP/2 sends them).
    case headers

    /// Who writes the other spellings of this place's keys.
    public var aliasAuthor: String {
        switch self {
        case .legacyMessage: return "node-gcm"
        default: return "the Firebase Admin SDK"
        }
    }

    /// The place's position in `allCases`, for tables read per object (`KeyPlace` hashes as its raw
    /// string, which is more than a lookup in the shape readers should cost).
    var ordinal: Int {
        switch self {
        case .apnsPayload: return 0
        case .aps: return 1
        case .alert: return 2
        case .sound: return 3
        case .fcmRequest: return 4
        case .fcmMessage: return 5
        case .fcmNotification: return 6
        case .androidConfig: return 7
        case .androidNotification: return 8
        case .apnsConfig: return 9
        case .apnsFCMOptions: return 10
        case .webpushConfig: return 11
        case .legacyMessage: return 12
        case .legacyNotification: return 13
        case .sendToUser: return 14
        case .expo: return 15
        case .webOptions: return 16
        case .pusherBeams: return 17
        case .conversationData: return 18
        case .headers: return 19
        }
    }

    /// A place whose unknown keys are app data or free-form: only near misses are reported (V9).
    var holdsAppKeys: Bool { self == .apnsPayload || self == .conversationData || self == .headers }
}

/// One key of a place: its wire name, another spelling that means the same (SPEC §1), and what the
/// device does without it, for V9's "as written …".
public struct KnownKey: Sendable, Equatable {
    public var name: String
    /// The Admin SDK's (or node-gcm's) spelling, renamed to `name` on the wire.
    public var alias: String?
    /// The alias takes `true` where the wire takes 1 (`contentAvailable: true` → `content-available: 1`).
    public var aliasIsFlag: Bool
    /// What the device does when the key is missing, e.g. "the push is a plain notification (C8)".
    public var withoutIt: String?

    init(_ name: String, alias: String? = nil, flag: Bool = false, _ withoutIt: String? = nil) {
        self.name = name
        self.alias = alias
        self.aliasIsFlag = flag
        self.withoutIt = withoutIt
    }
}

public enum KnownKeys {
    /// The keys of a place, in the order the documents list them.
    public static func table(_ place: KeyPlace) -> [KnownKey] { tables[place] ?? [] }

    /// Whether `key` is a wire name of `place`.
    public static func isKnown(_ key: String, in place: KeyPlace) -> Bool { names[place]?.contains(key) ?? false }

    /// The known key `alias` spells another way (`mutableContent` → `mutable-content`), if any.
    public static func aliased(_ alias: String, in place: KeyPlace) -> KnownKey? { aliases[place]?[alias] }

    /// SPEC §1: `object` with every alias renamed to its wire name (`true` → 1 for flags, `false`
    /// dropped, as the Admin SDK sends them). A wire name given beside its alias wins. The object
    /// is returned as it is when it holds no alias (the common case: nothing is copied).
    public static func wireForm(_ object: JSONObject, _ place: KeyPlace) -> JSONObject { wire(object, place).object }

    /// The same, with the renames made (`mutableContent → mutable-content`) for the trace: empty when
    /// there were none.
    public static func wire(_ object: JSONObject, _ place: KeyPlace) -> (object: JSONObject, renamed: [String]) {
        guard let byAlias = aliases[place], object.members.contains(where: { byAlias[$0.key] != nil }) else { return (object, []) }
        var result = JSONObject()
        var renamed: [String] = []
        for member in object.members {
            guard let known = byAlias[member.key] else { result.members.append(member); continue }
            renamed.append("\(member.key) → \(known.name)")
            if object[known.name] != nil { continue }
            if known.aliasIsFlag {
                if member.value.bool == true || member.value.int == 1 { result[known.name] = .number("1") }
            } else {
                result[known.name] = member.value
            }
        }
        return (result, renamed)
    }

    /// The wire form of an object read in place: the object itself when it holds no other spelling
    /// (nothing is built), else the renamed tree `wire` makes of it, so the renaming rule is one.
    static func wire(_ object: PayloadValue, _ place: KeyPlace) -> (object: PayloadValue, renamed: [String]) {
        // An object on a tape whose key bits share none with the place's other spellings holds none
        // of them: one AND. Otherwise each is looked up.
        if case .view(let view) = object, view.isObject, !view.mayHoldKey(bits: aliasBits[place.ordinal]) { return (object, []) }
        guard aliasNames[place.ordinal].contains(where: object.has) else { return (object, []) }
        let (wire, renamed) = wire(object.json.object ?? JSONObject(), place)
        return (.tree(.object(wire)), renamed)
    }

    static func wireForm(_ object: PayloadValue, _ place: KeyPlace) -> PayloadValue { wire(object, place).object }

    /// The key `name` of `place` as `object` writes it: its wire name, or else its other spelling when
    /// that is what is there (lint's paths name what the file holds).
    public static func spelling(of name: String, in object: JSONObject, _ place: KeyPlace) -> String {
        guard !object.has(name), let alias = table(place).first(where: { $0.name == name })?.alias, object.has(alias) else { return name }
        return alias
    }

    /// V9: the known key `written` was most likely meant to be — the same letters in another case or
    /// with `_` for `-` (`conversationID`, `thread_id`), one edit away (`aler`), or a header without
    /// its `apns-` prefix (`collapse-id`) — or nil when it is known, an alias, or near nothing.
    public static func nearMiss(_ written: String, in place: KeyPlace) -> KnownKey? {
        guard !isKnown(written, in: place), aliased(written, in: place) == nil else { return nil }
        let folded = fold(written)
        let table = table(place)
        if let same = table.first(where: { fold($0.name) == folded || $0.alias.map(fold) == folded }) { return same }
        if place == .headers, let bare = table.first(where: { $0.name.hasPrefix("apns-") && fold(String($0.name.dropFirst(5))) == folded }) {
            return bare
        }
        // One edit, among keys long enough that one edit is a typo rather than another word.
        guard written.count >= 4 else { return nil }
        let lower = written.lowercased()
        return table.first { $0.name.count >= 4 && editDistance($0.name.lowercased(), lower) == 1 }
    }

    /// Lower case without `-` and `_`: the spellings that differ only there are the same key.
    static func fold(_ key: String) -> String {
        String(key.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
    }

    static let names: [KeyPlace: Set<String>] = tables.mapValues { Set($0.map(\.name)) }
    /// Each place's other spellings, by `KeyPlace.ordinal`.
    static let aliasNames: [[String]] = KeyPlace.allCases.map { place in (tables[place] ?? []).compactMap(\.alias) }
    /// The key bits (`JSONTape.keyBit`) of each place's other spellings, by `KeyPlace.ordinal`.
    static let aliasBits: [UInt32] = aliasNames.map { names in
        names.reduce(0) { bits, name in bits | JSONTape.keyBit(of: name) }
    }
    static let aliases: [KeyPlace: [String: KnownKey]] = tables.mapValues { keys in
        Dictionary(keys.compactMap { key in key.alias.map { ($0, key) } }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: the tables

    static let tables: [KeyPlace: [KnownKey]] = [
        .apnsPayload: [
            KnownKey("aps", "iOS finds no aps dictionary and shows nothing"),
            KnownKey("Simulator Target Bundle", "simctl does not know which app it is for; the key reaches the app as data"),
        ],
        // Apple, "Generating a remote notification"; the Admin SDK's Aps (SPEC §1).
        .aps: [
            KnownKey("alert", "iOS shows no alert (I3)"),
            KnownKey("badge", "the badge stays as it was (I6)"),
            KnownKey("sound", "it arrives without a sound"),
            KnownKey("thread-id", alias: "threadId", "it is not grouped by thread (I1)"),
            KnownKey("category", "the app's action buttons are not offered (I12)"),
            KnownKey("content-available", alias: "contentAvailable", flag: true, "the app is not woken in the background (I5)"),
            KnownKey("mutable-content", alias: "mutableContent", flag: true, "the app's Notification Service Extension does not run (I11)"),
            KnownKey("target-content-id"),
            KnownKey("interruption-level", "it arrives at the default level, active (I8)"),
            KnownKey("relevance-score"), KnownKey("filter-criteria"), KnownKey("url-args"),
            // Live Activities
            KnownKey("timestamp"), KnownKey("event"), KnownKey("content-state"), KnownKey("stale-date"), KnownKey("dismissal-date"),
            KnownKey("attributes-type"), KnownKey("attributes"), KnownKey("input-push-token"), KnownKey("input-push-channel"),
        ],
        .alert: [
            KnownKey("title", "no title is shown"),
            KnownKey("subtitle", "no subtitle is shown"),
            KnownKey("body", "no text is shown"),
            KnownKey("launch-image", alias: "launchImage"),
            KnownKey("title-loc-key", alias: "titleLocKey", "the title is not localized (L1)"),
            KnownKey("title-loc-args", alias: "titleLocArgs"),
            KnownKey("subtitle-loc-key", alias: "subtitleLocKey", "the subtitle is not localized (L1)"),
            KnownKey("subtitle-loc-args", alias: "subtitleLocArgs"),
            KnownKey("loc-key", alias: "locKey", "the body is not localized (L1)"),
            KnownKey("loc-args", alias: "locArgs"),
            KnownKey("action-loc-key", alias: "actionLocKey"),
            KnownKey("action"),
        ],
        .sound: [
            KnownKey("critical", alias: nil, "it is an ordinary sound, not a critical alert (I10)"),
            KnownKey("name", "the default sound plays"),
            KnownKey("volume"),
        ],
        .fcmRequest: [
            KnownKey("message", "there is no message to send"),
            KnownKey("validate_only", alias: "validateOnly"),
        ],
        // FCM HTTP v1 reference: Message, Notification, AndroidConfig, AndroidNotification, ApnsConfig, WebpushConfig.
        .fcmMessage: [
            KnownKey("name"), KnownKey("token"), KnownKey("topic"), KnownKey("condition"),
            KnownKey("data", "the app receives no data (C10)"),
            KnownKey("notification", "it is a data message: nothing is shown (A11)"),
            KnownKey("android", "Android gets the shared fields only"),
            KnownKey("apns", "iOS gets the shared fields only"),
            KnownKey("webpush", "the browser gets the shared fields only"),
            KnownKey("fcm_options", alias: "fcmOptions"),
        ],
        .fcmNotification: [
            KnownKey("title", "no title is shown"),
            KnownKey("body", "no text is shown"),
            KnownKey("image", alias: "imageUrl", "no picture is shown (I12)"),
        ],
        .androidConfig: [
            KnownKey("collapse_key", alias: "collapseKey", "nothing collapses into it (A12, O1)"),
            KnownKey("priority"),
            KnownKey("ttl", "FCM keeps it for its default of 4 weeks (O5)"),
            KnownKey("restricted_package_name", alias: "restrictedPackageName"),
            KnownKey("data", "Android gets message.data instead"),
            KnownKey("notification", "Android shows message.notification only"),
            KnownKey("fcm_options", alias: "fcmOptions"),
            KnownKey("direct_boot_ok", alias: "directBootOk"),
        ],
        .androidNotification: [
            KnownKey("title", "no title is shown"), KnownKey("body", "no text is shown"),
            KnownKey("icon"), KnownKey("color"), KnownKey("sound"),
            KnownKey("tag", "nothing is replaced by tag (A7)"),
            KnownKey("click_action", alias: "clickAction", "no category is carried (I12)"),
            KnownKey("body_loc_key", alias: "bodyLocKey", "the body is not localized (L1)"),
            KnownKey("body_loc_args", alias: "bodyLocArgs"),
            KnownKey("title_loc_key", alias: "titleLocKey", "the title is not localized (L1)"),
            KnownKey("title_loc_args", alias: "titleLocArgs"),
            KnownKey("channel_id", alias: "channelId"),
            KnownKey("ticker"), KnownKey("sticky"),
            KnownKey("event_time", alias: "eventTimestamp"),
            KnownKey("local_only", alias: "localOnly"),
            KnownKey("notification_priority", alias: "priority"),
            KnownKey("default_sound", alias: "defaultSound"),
            KnownKey("default_vibrate_timings", alias: "defaultVibrateTimings"),
            KnownKey("default_light_settings", alias: "defaultLightSettings"),
            KnownKey("vibrate_timings", alias: "vibrateTimingsMillis"),
            KnownKey("visibility"),
            KnownKey("notification_count", alias: "notificationCount", "the badge stays as it was (A13)"),
            KnownKey("light_settings", alias: "lightSettings"),
            KnownKey("image", alias: "imageUrl", "no picture is shown (I12)"),
            KnownKey("proxy"),
        ],
        .apnsConfig: [
            KnownKey("headers", "APNs gets no apns-* headers from the message"),
            KnownKey("payload", "iOS gets the shared fields only"),
            KnownKey("fcm_options", alias: "fcmOptions"),
            KnownKey("live_activity_token", alias: "liveActivityToken"),
        ],
        .apnsFCMOptions: [
            KnownKey("analytics_label", alias: "analyticsLabel"),
            KnownKey("image", alias: "imageUrl", "no picture is shown (I12)"),
        ],
        .webpushConfig: [
            KnownKey("headers"), KnownKey("data", "the service worker gets message.data instead"),
            KnownKey("notification", "the browser shows message.notification only"),
            KnownKey("fcm_options", alias: "fcmOptions"),
        ],
        // FCM legacy HTTP; node-gcm's camelCase options (SPEC §1).
        .legacyMessage: [
            KnownKey("to"), KnownKey("registration_ids"), KnownKey("condition"), KnownKey("notification_key"),
            KnownKey("collapse_key", alias: "collapseKey", "nothing collapses into it (A12, O1)"),
            KnownKey("priority"),
            KnownKey("content_available", alias: "contentAvailable", "iOS does not wake the app (I5)"),
            KnownKey("mutable_content", alias: "mutableContent", "the app's Notification Service Extension does not run on iOS (I11)"),
            KnownKey("time_to_live", alias: "timeToLive", "FCM keeps it for its default of 4 weeks (O5)"),
            KnownKey("restricted_package_name", alias: "restrictedPackageName"),
            KnownKey("dry_run", alias: "dryRun"),
            KnownKey("delay_while_idle", alias: "delayWhileIdle"),
            KnownKey("direct_boot_ok"),
            KnownKey("data", "the app receives no data (C10)"),
            KnownKey("notification", "it is a data message: nothing is shown (A11)"),
        ],
        .legacyNotification: [
            KnownKey("title", "no title is shown"), KnownKey("body", "no text is shown"),
            KnownKey("android_channel_id"), KnownKey("icon"), KnownKey("sound"),
            KnownKey("tag", "nothing is replaced by tag (A7)"), KnownKey("color"),
            KnownKey("click_action", "no category is carried (I12)"),
            KnownKey("body_loc_key", "the body is not localized (L1)"), KnownKey("body_loc_args"),
            KnownKey("title_loc_key", "the title is not localized (L1)"), KnownKey("title_loc_args"),
            KnownKey("badge", "the badge stays as it was (A13)"), KnownKey("subtitle"),
            KnownKey("image", "no picture is shown (I12)"),
        ],
        .sendToUser: [
            KnownKey("userId"), KnownKey("userIds"), KnownKey("title", "no title is shown"), KnownKey("body", "no text is shown"),
            KnownKey("data", "the app receives no data (C10)"), KnownKey("badge"), KnownKey("image"), KnownKey("tag"),
        ],
        // Expo's push message format.
        .expo: [
            KnownKey("to"), KnownKey("title", "no title is shown"), KnownKey("body", "no text is shown"),
            KnownKey("data", "the app receives no data (C10)"),
            KnownKey("ttl"), KnownKey("expiration"), KnownKey("priority"),
            KnownKey("subtitle"), KnownKey("sound"), KnownKey("badge"), KnownKey("interruptionLevel"),
            KnownKey("channelId"), KnownKey("icon"), KnownKey("richContent"), KnownKey("categoryId"),
            KnownKey("mutableContent", "the app's Notification Service Extension does not run (I11)"),
            KnownKey("_contentAvailable"),
        ],
        // The Notification API's options (plus declarative web push's `navigate`, and Pusher Beams' own).
        .webOptions: [
            KnownKey("title", "no title is shown"), KnownKey("body", "no text is shown"),
            KnownKey("icon"), KnownKey("image", "no picture is shown (I12)"), KnownKey("badge"),
            KnownKey("tag", "nothing is replaced by tag (W3)"), KnownKey("data", "the service worker gets no data"),
            KnownKey("actions", "no buttons are offered (W4)"), KnownKey("renotify"), KnownKey("requireInteraction"),
            KnownKey("silent"), KnownKey("vibrate"), KnownKey("timestamp"), KnownKey("dir"), KnownKey("lang"),
            KnownKey("navigate"), KnownKey("deep_link"), KnownKey("hide_notification_if_site_has_focus"),
        ],
        .pusherBeams: [
            KnownKey("interests"), KnownKey("users"),
            KnownKey("apns", "iOS devices get nothing"), KnownKey("fcm", "Android devices get nothing"),
            KnownKey("web", "browsers get nothing"), KnownKey("webhookUrl"), KnownKey("webhookLevel"),
        ],
        .conversationData: [
            KnownKey("conversationId", "the push is a plain notification (C8)"),
            KnownKey("senderName", "the push title stands for the sender (C2)"),
            KnownKey("senderId", "the name is the sender's identity (C3)"),
            KnownKey("senderAvatarUrl", "initials are drawn instead of the photo (C4, N1)"),
            KnownKey("conversationTitle", "the push title names the group (C5)"),
            KnownKey("conversationIsGroup", "it shows as a one-to-one conversation (C6)"),
        ],
        .headers: [
            KnownKey("apns-push-type"), KnownKey("apns-topic"),
            KnownKey("apns-collapse-id", "nothing is replaced (I4)"),
            KnownKey("apns-priority"), KnownKey("apns-expiration", "APNs keeps it as long as it likes (O5)"), KnownKey("apns-id"),
            KnownKey("content-type"), KnownKey("content-encoding"), KnownKey("authorization"),
            KnownKey("ttl", "the push service keeps it until it is delivered (O5)"),
            KnownKey("topic", "a later push does not replace it while the browser is offline (O4)"),
            KnownKey("urgency"),
        ],
    ]
}
