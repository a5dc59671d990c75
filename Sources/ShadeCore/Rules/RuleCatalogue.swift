/// Every rule id Shade prints, one sentence each with its source. `shade explain` prints from here
/// and docs/RULES.md is generated from here (`shade explain --markdown`); tests check that every id the
/// code can print is listed and that the document agrees.
public enum RuleCatalogue {
    // The documents most rules come from, named once.
    static let apnsPayload = RuleSource.apple("Generating a remote notification")
    static let apnsRequests = RuleSource.apple("Sending notification requests to APNs")
    static let communication = RuleSource.apple("Implementing communication notifications")
    static let fcmV1 = RuleSource.firebase("FCM HTTP v1 API reference: projects.messages")
    static let fcmLegacy = RuleSource.firebase("FCM legacy HTTP protocol reference")
    static let fcmMessages = RuleSource.firebase("About FCM messages")
    static let fcmLifespan = RuleSource.firebase("Setting the lifespan of a message")
    static let notificationsStandard = RuleSource.webStandard("the WHATWG Notifications API Standard")
    static let httpPush = RuleSource.webStandard("IETF RFC 8030, Generic Event Delivery Using HTTP Push")

    public static let rules: [Rule] = recognising + conversation + android + ios + web + localization + initials + offline + checks

    static let recognising: [Rule] = [
        Rule("D1", .recognising, "A line with a top-level `payload` object (and no `aps`, `message`, `notification` or `data`) is an envelope: its `headers`, `at`, `via` and `path` travel with the payload inside, as `shade listen --record` writes them.",
             [.shade("the recording format")]),
        Rule("D2", .recognising, "A top-level `message` object is an FCM HTTP v1 request: it reaches Android, iOS and the web, with `message.data` as the data and the `android`, `apns` and `webpush` blocks overriding it on their own platform.",
             [fcmV1]),
        Rule("D3", .recognising, "A top-level `userId` or `userIds` is the push service's send-to-user request: title, body and a `data` object whose values may be any JSON, for all three platforms.",
             [.pushSDKGuide]),
        Rule("D4", .recognising, "A top-level `aps` object is an APNs payload (an `.apns` file as made for `xcrun simctl push`, its `Simulator Target Bundle` dropped): it reaches iOS only, custom keys beside `aps` are the app's data.",
             [apnsPayload]),
        Rule("D5", .recognising, "A `to` that starts with `ExponentPushToken[` or `ExpoPushToken[` (or an array of them) is an Expo push message for Android and iOS, with `badge`, `sound` and `subtitle` applying to iOS only.",
             [.expo("Sending notifications with Expo's push API")]),
        Rule("D6", .recognising, "`web_push: 8030` (declarative web push) or `{title, options}` (the arguments of showNotification) is a web notification, for the web only.",
             [notificationsStandard, .webStandard("WebKit's “Meet Declarative Web Push”")]),
        Rule("D7", .recognising, "Any of `to`, `registration_ids`, `condition`, `notification`, `collapse_key`/`collapseKey` or `time_to_live`/`timeToLive` is an FCM legacy (node-gcm) message: it reaches Android, and iOS only when it has a `notification` block or `content_available`.",
             [.imSDKPayloadFormat, fcmLegacy]),
        Rule("D8", .recognising, "A `data` object without any of the keys above is a data-only message: the app receives the data and nothing is shown, on every platform.",
             [fcmMessages, .imSDKPayloadFormat]),
        Rule("D9", .recognising, "A Pusher Beams publish body (`interests` or `users` with `apns`, `fcm` and `web` blocks) gives each platform its own block: `apns` as an APNs payload on iOS, `fcm` as an FCM legacy message on Android, `web.notification` as a web notification.",
             [.pusher("Publish API")]),
    ]

    static let conversation: [Rule] = [
        Rule("C1", .conversation, "`conversationId` (a number is taken as its text) makes a push part of a conversation: messages with the same id join the same item; `--group-by PATH` names another key for it.",
             [.pushSDKGuide]),
        Rule("C2", .conversation, "`senderName` is the message's author; without it the push's title stands in.",
             [.pushSDKGuide]),
        Rule("C3", .conversation, "`senderId` tells two senders of the same name apart: separate message blocks and separate avatar colours; without it the name is the identity.",
             [.pushSDKGuide]),
        Rule("C4", .conversation, "`senderAvatarUrl` is the sender's photo when it is an https URL; otherwise the device draws the sender's initials.",
             [.pushSDKGuide]),
        Rule("C5", .conversation, "`conversationTitle` is the group's name, shown for groups.",
             [.pushSDKGuide]),
        Rule("C6", .conversation, "`conversationIsGroup` makes a group when it is `true`, `\"true\"`, `1` or `\"1\"` (FCM data values are strings).",
             [.pushSDKGuide]),
        Rule("C7", .conversation, "A conversation message's text is the push's body after localization.",
             [.pushSDKGuide]),
        Rule("C8", .conversation, "A push without `conversationId` is a plain notification shown exactly as before, its sender keys ignored.",
             [.pushSDKGuide]),
        Rule("C9", .conversation, "Conversations need SDK 0.1.22 on Android, 0.1.21 on iOS, 0.1.31 for Flutter, 0.1.22 for React Native and 0.1.15 on the web; an older SDK ignores the keys and shows a plain notification.",
             [.pushSDKGuide]),
        Rule("C10", .conversation, "Every other data key is kept: it is what the app receives when the notification is tapped, shown in the inspector.",
             [.pushSDKGuide]),
    ]

    static let android: [Rule] = [
        Rule("A1", .android, "A conversation keeps its newest 25 messages; the screen shows the newest that fit, oldest first, and counts the rest.",
             [.android("NotificationCompat.MessagingStyle reference"), .pushSDKGuide]),
        Rule("A2", .android, "A conversation's icon is the round photo of the latest sender, or their initials where no https photo is given, in place of the app icon.",
             [.pushSDKGuide, .android("Conversations")]),
        Rule("A3", .android, "A one-to-one conversation is titled with the sender's name, a group with its `conversationTitle` (or the push's title).",
             [.pushSDKGuide]),
        Rule("A4", .android, "A one-to-one conversation lists the texts, a group `sender: text`, and consecutive messages of one sender form one block.",
             [.android("NotificationCompat.MessagingStyle reference")]),
        Rule("A5", .android, "On Android 11 (API 30) and later, conversations stand in a Conversations section above the Notifications section; earlier versions show one list with conversations styled as messaging.",
             [.android("Conversations"), .pushSDKGuide]),
        Rule("A6", .android, "Within a section the most recently updated item comes first.",
             [.android("About notifications")]),
        Rule("A7", .android, "A plain notification shows its app, title and body; a non-empty `tag` replaces the notification shown with the same tag, and without one every push is a new entry.",
             [.android("NotificationManager.notify(tag, id, notification) reference")]),
        Rule("A8", .android, "Four or more ungrouped plain notifications of one app are bundled under one app summary (`--bundle-at N` changes the count).",
             [.android("Create a group of notifications")]),
        Rule("A9", .android, "An app has at most 50 active notifications: beyond that the oldest plain one is removed.",
             [.shade("the limit Android's notification service enforces per app")]),
        Rule("A10", .android, "A non-empty literal title or body wins over its `*_loc_key`, and a string resource the app lacks leaves the field empty.",
             [.imSDKPayloadFormat, fcmLegacy]),
        Rule("A11", .android, "A push with no `notification` block, or one with neither title nor body (nor a loc key for them), shows nothing and is counted silent.",
             [.imSDKPayloadFormat, fcmMessages]),
        Rule("A12", .android, "A `collapse_key` (without a `tag`) replaces the shown notification with the same key, as the IM SDK describes same-type messages merging; FCM itself uses it to keep one waiting push while the device is offline.",
             [.imSDKPayloadFormat, fcmMessages]),
        Rule("A13", .android, "FCM `notification.badge` or `android.notification.notification_count` sets the app's badge, which starts at 0.",
             [.imSDKPayloadFormat, fcmV1]),
    ]

    static let ios: [Rule] = [
        Rule("I1", .ios, "Notifications stack by thread — the conversation where the SDK supports it, else `aps.thread-id`, else one stack per app — titled with the newest notification's title, newest first with \"N more\".",
             [apnsPayload, .pushSDKGuide]),
        Rule("I2", .ios, "The communication look (sender photo or initials, sender name as title, group name for groups) needs iOS 15, SDK 0.1.21 and the Communication Notifications capability; without it messages still group but show the app icon and the push's own title.",
             [communication, .pushSDKGuide]),
        Rule("I3", .ios, "`aps.alert` as a string is the body; as a dictionary it gives title, subtitle, body and their `*-loc-key`/`*-loc-args`, and a non-empty literal body wins over `loc-key`.",
             [apnsPayload, .imSDKPayloadFormat]),
        Rule("I4", .ios, "The `apns-collapse-id` header (at most \(ServiceRules.collapseIDLimit) bytes) replaces the shown notification with the same id.",
             [apnsRequests]),
        Rule("I5", .ios, "`content-available: 1` with no alert, sound or badge, or `apns-push-type: background`, is a background push: nothing is shown (a badge still applies), and an `aps` with only a sound or badge shows nothing either.",
             [.apple("Pushing background updates to your App"), apnsPayload]),
        Rule("I6", .ios, "`badge` sets the app's badge, `0` clears it, and without it the badge stays; it starts at 0.",
             [apnsPayload]),
        Rule("I7", .ios, "`apns-push-type: voip`, or an `apns-topic` ending in `.voip`, is an incoming call in the Calls lane (PushKit), not a notification; the IM SDK sends calls to tokens registered as `ios-voip`.",
             [.apple("Responding to VoIP notifications from PushKit"), .imSDKPayloadFormat]),
        Rule("I8", .ios, "`interruption-level` is shown: `passive` arrives without a banner, `time-sensitive` and `critical` are marked.",
             [apnsPayload]),
        Rule("I9", .ios, "A payload over \(ServiceRules.apnsLimit) bytes (\(ServiceRules.apnsVoIPLimit) for VoIP), measured as the compact JSON APNs receives, is refused with `PayloadTooLarge`.",
             [apnsRequests]),
        Rule("I10", .ios, "A `sound` dictionary with `critical: 1` is a critical alert (iOS 12 and later), marked like `interruption-level: critical`; it needs Apple's critical-alerts entitlement.",
             [apnsPayload]),
        Rule("I11", .ios, "`mutable-content: 1` hands the push to the app's notification service extension, which may rewrite it before it is shown: the item is marked and the text may differ on the device.",
             [.apple("Modifying content in newly delivered notifications")]),
        Rule("I12", .ios, "`category` picks the action buttons the app registered (their titles are the app's, so Shade shows the category), and an image the push names is shown as its URL.",
             [.apple("Declaring your actionable notification types"), apnsPayload]),
        Rule("I13", .ios, "`interruption-level` exists from iOS 15: an older profile ignores it.",
             [apnsPayload]),
    ]

    static let web: [Rule] = [
        Rule("W1", .web, "A conversation is one browser notification tagged with its id: a new message replaces it and keeps the earlier lines, at most 5, newest last, with the sender's photo or initials as icon.",
             [.pushSDKGuide, notificationsStandard]),
        Rule("W2", .web, "A one-to-one conversation is titled with the sender and lists the texts; a group is titled with its name and lists `sender: text`.",
             [.pushSDKGuide]),
        Rule("W3", .web, "A non-empty `tag` replaces the notification with the same tag and `renotify` alerts again; `renotify` without a tag, or `silent` with `vibrate`, makes the browser throw a TypeError, so the push is rejected.",
             [notificationsStandard]),
        Rule("W4", .web, "At most \(ServiceRules.webMaxActions) actions are shown, as Chrome shows them.",
             [.chrome("Notification.maxActions")]),
    ]

    static let localization: [Rule] = [
        Rule("L1", .localization, "Loc keys are read from APNs `loc-key`/`loc-args`, `title-loc-key`, `subtitle-loc-key` and from FCM `body_loc_key`/`title_loc_key` with their args (an array, or a string holding one); `data.loc-key` is the app's own, previewed in the inspector.",
             [.imSDKPayloadFormat, apnsPayload]),
        Rule("L2", .localization, "Shade knows the IM SDK's 13 `im_loc_*` keys in English (the default), Simplified and Traditional Chinese, with `$1` the sender's nickname and `$2` the message.",
             [.imSDKPayloadFormat]),
        Rule("L3", .localization, "Formats take `$1`/`$2`, `%@` in order, positional `%1$@`, `%1$s`, `%2$d`, sequential `%s` and `%d`, and `%%` for a percent sign.",
             [.imSDKPayloadFormat, .apple("String Format Specifiers")]),
        Rule("L4", .localization, "String tables the app ships — iOS `Localizable.strings`, Android `strings.xml`, or JSON — are read with `--strings` and override the built-in table; `--locale` picks the language.",
             [.apple("Localizing and varying text with a string catalog"), .android("String resources")]),
        Rule("L5", .localization, "A key no table has shows as the key itself on iOS and leaves the field empty on Android; the IM SDK advises falling back to the literal body.",
             [.imSDKPayloadFormat, apnsPayload]),
        Rule("L6", .localization, "Too few args show `(null)` for each missing one on iOS and leave the field empty on Android; extra args are ignored.",
             [.apple("String Format Specifiers"), .android("String resources")]),
    ]

    static let initials: [Rule] = [
        Rule("N1", .initials, "Initials are the name's first character that is a letter or digit, upper-cased where the script has case (`@ali` → A, `王小明` → 王); an empty name shows `?`.",
             [.pushSDKGuide, .shade("which character of a name counts as its initial")]),
        Rule("N2", .initials, "The avatar colour comes from a stable hash of the sender's identity, so a sender has the same colour on every run and machine.",
             [.shade("no source says how colours are chosen")]),
    ]

    static let offline: [Rule] = [
        Rule("O1", .offline, "While the device is offline FCM keeps the newest push per collapse key, for at most 4 keys (Shade keeps the 4 most recently used); a notification message without one collapses under the app's package name.",
             [fcmMessages]),
        Rule("O2", .offline, "FCM keeps up to 100 non-collapsible pushes per device; the 101st discards them all, and the app is told `onDeletedMessages` when it reconnects.",
             [fcmLifespan]),
        Rule("O3", .offline, "APNs keeps only the newest push per app while the device is offline; the others are dropped.",
             [apnsRequests]),
        Rule("O4", .offline, "A web push service keeps each push until its `TTL` runs out, and a push with the same `Topic` replaces the waiting one.",
             [httpPush]),
        Rule("O5", .offline, "A push whose time to live has passed when the device comes back is dropped: FCM `time_to_live`/`android.ttl`, APNs `apns-expiration` (0: now or never), web `TTL`.",
             [fcmLifespan, apnsRequests, httpPush]),
    ]

    static let checks: [Rule] = [
        Rule("V1", .checks, "Size: over \(ServiceRules.apnsLimit) bytes for APNs (\(ServiceRules.apnsVoIPLimit) for VoIP) or \(ServiceRules.fcmLimit) for FCM is an error the service refuses; a web push over \(ServiceRules.webPushLimit) bytes is a warning.",
             [apnsRequests, fcmMessages]),
        Rule("V2", .checks, "An `apns-collapse-id` over \(ServiceRules.collapseIDLimit) bytes, a background push at priority 10, or an empty or non-hex device token is an error APNs refuses.",
             [apnsRequests]),
        Rule("V3", .checks, "FCM v1 `data` values must be strings and `from`, `message_type`, `google.*` and `gcm.*` are reserved (errors); other FCM shapes stringify non-string values (a warning).",
             [fcmV1, fcmMessages]),
        Rule("V4", .checks, "`senderAvatarUrl` that is not a URL is an error; one that is not https, a `conversationIsGroup` that is not boolean-like, or sender keys without `conversationId` are warnings.",
             [.pushSDKGuide]),
        Rule("V5", .checks, "Keys Apple ignores — custom keys inside `aps`, `sound` inside `alert`, `content-available` together with an alert — are warnings.",
             [apnsPayload]),
        Rule("V6", .checks, "A loc key missing from the loaded tables, an argument count that does not fit its format, or an argument the format cannot take as written (a word for `%d`) is a warning (see L3, L5, L6).",
             [.imSDKPayloadFormat]),
        Rule("V7", .checks, "On the web, `renotify` without a `tag` and `silent` with `vibrate` are errors (the browser throws); more than \(ServiceRules.webMaxActions) actions is a warning.",
             [notificationsStandard, .chrome("Notification.maxActions")]),
        Rule("V8", .checks, "Invalid JSON is an error, reported with its line and column (a trailing comma is invalid); a duplicate key is a warning.",
             [.webStandard("IETF RFC 8259, The JSON Data Interchange Format")]),
        Rule("V9", .checks, "A key one edit or a case change away from one Shade knows where it stands (`conversationID`, `aps.aler`, `collapse-id` as a header) gets \"did you mean …\" and what the device does with it as written.",
             [.shade("a typo in a key is silently ignored by every device")]),
        Rule("V10", .checks, "A push that shows nothing where its author surely meant it to — an `aps` with a sound but no alert, a `notification` block of unknown keys only — is a warning.",
             [apnsPayload, fcmMessages]),
    ]

    // MARK: looking up

    /// The rule with this id (any case: `a5` is A5), or nil.
    public static func rule(_ id: String) -> Rule? {
        let wanted = id.uppercased()
        return rules.first { $0.id == wanted }
    }

    /// The ids a token names: one id (`A5`), or a range as help and lint write them (`D1-D8`,
    /// `V1–V8`). Empty when it names none of the catalogue's ids.
    public static func ids(in token: String) -> [String] {
        let text = token.uppercased()
        if let single = rule(text) { return [single.id] }
        guard let dash = text.firstIndex(where: { $0 == "-" || $0 == "–" }) else { return [] }
        let first = String(text[..<dash]), last = String(text[text.index(after: dash)...])
        guard let from = rule(first), let to = rule(last), from.group == to.group,
              let start = rules.firstIndex(of: from), let end = rules.firstIndex(of: to), start <= end else { return [] }
        return rules[start...end].map(\.id)
    }

    /// Rules of a group, in catalogue order.
    public static func rules(in group: RuleGroup) -> [Rule] {
        rules.filter { $0.group == group }
    }

    // MARK: writing

    /// Every rule, grouped: what `shade explain` prints with no id.
    public static var text: String {
        RuleGroup.allCases.map { group in
            "\(group.title)\n\n" + rules(in: group).map(\.explanation).joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
    }

    /// docs/RULES.md: the same rules as a reference document.
    public static var markdown: String {
        var out = """
        # Shade's rules

        Every rule id Shade prints — in the inspector's "Why" trace, in `shade lint`, in `shade state --trace`,
        in help and in logs — is listed here with what it says and where it comes from. `shade explain ID`
        prints the same from the command line.

        This file is generated from the rule catalogue in the code (`Sources/ShadeCore/Rules/RuleCatalogue.swift`):
        do not edit it by hand; after changing the catalogue run `scripts/make-rules.sh` (a test checks that the two agree).

        The sources named below are the two documents Shade grew from — the push SDK's conversation-notifications
        guide and the IM SDK's push payload format — and the platforms' own documents, by title. Where none of
        them says how a device behaves, the rule says it is Shade's own.

        """
        for group in RuleGroup.allCases {
            out += "\n## \(group.title)\n\n| id | rule | source |\n|---|---|---|\n"
            for rule in rules(in: group) {
                let cell = { (text: String) in text.replacingPipes() }
                out += "| \(rule.id) | \(cell(rule.sentence)) | \(cell(rule.sources.map(\.title).joined(separator: "; "))) |\n"
            }
        }
        return out
    }
}

extension String {
    /// A Markdown table cell: a `|` in the text would end the cell.
    fileprivate func replacingPipes() -> String {
        var out = ""
        for character in self { out += character == "|" ? "\\|" : String(character) }
        return out
    }
}
