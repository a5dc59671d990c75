/// The notification center of one profile: receives pushes and rejections, groups, replaces and
/// caps them as the platform does (SPEC §2–§5), and derives the `CenterState` views draw.
/// A value: copy it to keep a snapshot, mutate it with one function per event kind.
public struct Center: Sendable {
    public let profile: Profile
    public let texts: TextResolver
    /// What every push asks of the profile (C9, I2), worked out once: each answer compares versions.
    let showsConversations: Bool
    let showsCommunicationLook: Bool

    public private(set) var received = 0
    public private(set) var silent = 0
    public private(set) var calls = 0
    public private(set) var rejected = 0
    public private(set) var elsewhere = 0
    /// SPEC §8: pushes a service discarded while the device was offline.
    public private(set) var dropped = 0
    public private(set) var badge = 0
    /// The first `errorLimit` rejections; `rejected` counts them all, so `rejected - errors.count` are not listed.
    public private(set) var errors: [ErrorEntry] = []
    /// The newest rejection, listed in `errors` or not (the live log and TUI show it).
    public private(set) var lastRejection: ErrorEntry?
    public static let errorLimit = 1000
    /// What happened to the device beside its items, newest last (O2's onDeletedMessages, what the
    /// services dropped while it was offline); at most `eventLimit`.
    public private(set) var events: [TraceStep] = []
    public static let eventLimit = 32
    /// While the device is offline: what the push services keep for it (SPEC §8).
    public private(set) var offline: OfflineStore?

    /// The items, each in a slot it keeps while it lives (found by `ItemKey`, what `Item.id` spells).
    var table = ItemTable()
    /// Android A9: each app's live items, and its items by age (plain ones, and all), by app name.
    var apps = AppAges()
    /// iOS I4: which thread holds the notification with a collapse id (app + id → the item's key).
    var collapsed: [StringPair: ItemKey] = [:]
    /// iOS I4: the push ids of an item's lines that carry a collapse id (item + id → push ids),
    /// so a replacement finds them by binary search instead of scanning a thread of thousands.
    var collapsedLines: [CollapseLines: [Int]] = [:]
    var callItems: [Item] = []
    var stamp = 0
    /// Shared with the other centers that take the same pushes, so what a push reads alike on every
    /// platform (its shape's content, its data's keys) is read once for them all (`SharedReadings`).
    public var sharedReadings: SharedReadings?
    /// Whether items keep their decision trace (what the inspector and `state --trace` show). Where
    /// nothing will read it (`state` without `--trace`, `snapshot`, a headless session) no step is made:
    /// every push took several, each worded from its facts, and a long-lived item let as many go.
    public var keepsTraces: Bool

    public init(profile: Profile, texts: TextResolver = TextResolver(), keepsTraces: Bool = true) {
        self.profile = profile
        self.texts = texts
        self.keepsTraces = keepsTraces
        self.showsConversations = profile.supportsConversations
        self.showsCommunicationLook = profile.showsCommunicationLook
    }

    // MARK: events

    /// A push arrives (from a file, a socket or a replay). `time` is when it arrived, where that is
    /// not its `at` (a push without one, timed by the replay rule): what an offline store goes by.
    public mutating func receive(_ push: Push, at time: Int64? = nil) {
        received += 1
        let delivery = push.delivery(on: profile.platform, defaultApp: profile.app, traced: keepsTraces, shared: sharedReadings)
        if offline != nil, delivery.waits {
            let arrived = time ?? push.transport.atMillis ?? offline!.since
            dropped += offline!.keep(push, delivery, at: arrived, defaultApp: profile.app)
            return
        }
        deliver(push, delivery)
    }

    /// What the device makes of a push it gets; `notes` say where it waited, when it did (SPEC §8).
    /// The delivery is taken apart, not copied: its content becomes the item's.
    mutating func deliver(_ push: Push, _ delivery: consuming Delivery, notes: [TraceStep] = []) {
        stamp += 1
        switch consume delivery {
        case .elsewhere:
            elsewhere += 1
        case .rejected(let reason):
            recordRejection(source: push.source.description, reason: reason)
        case .silent(let badge, _, _):
            silent += 1
            if let badge { setBadge(badge) }
        case .call(var content):
            calls += 1
            if let badge = content.badge { setBadge(badge) }
            if keepsTraces && !notes.isEmpty { content.trace += notes }
            placeCall(content, push: push)
        case .show(var content):
            if keepsTraces && !notes.isEmpty { content.trace += notes }
            if let badge = content.badge { setBadge(badge) }
            let resolved = texts.resolve(content, platform: profile.platform, traced: keepsTraces)
            switch profile.platform {
            case .android: placeAndroid(content, resolved, push: push)
            case .ios: placeIOS(content, resolved, push: push)
            case .web: placeWeb(content, resolved, push: push)
            }
        }
    }

    /// A push no profile could read: invalid JSON or an unknown shape (SPEC §1). It still counts.
    public mutating func reject(_ rejection: Rejection) {
        received += 1
        // A request only another platform's service carries (an unreadable body sent to APNs).
        if let reaches = rejection.reaches, !reaches.contains(profile.platform) {
            elsewhere += 1
            return
        }
        recordRejection(source: rejection.source.description, reason: rejection.reason)
    }

    /// What a center takes, in order: a push or a rejection (with its arrival time when a timeline
    /// runs), or the device going offline or coming back.
    public enum Input: Sendable {
        case outcome(Intake.Outcome, at: Int64?)
        case transition(OfflineTimeline.Transition)
    }

    public mutating func apply(_ input: Input) {
        switch input {
        case .outcome(let outcome, let time): apply(outcome, at: time)
        case .transition(let transition): apply(transition)
        }
    }

    /// Apply what `Intake` produced; `time` as `receive` takes it.
    public mutating func apply(_ outcome: Intake.Outcome, at time: Int64? = nil) {
        switch outcome {
        case .push(let push): receive(push, at: time)
        case .rejected(let rejection): reject(rejection)
        }
    }

    // MARK: offline (SPEC §8)

    /// The device goes offline at `time`: from now on pushes wait at their services.
    public mutating func goOffline(at time: Int64) {
        guard offline == nil else { return }
        offline = OfflineStore(platform: profile.platform, since: time)
    }

    /// The device is back at `time`: what the services kept arrives, oldest first, each with
    /// `at` = `time`; what expired is dropped (O5).
    public mutating func comeOnline(at time: Int64) {
        guard let store = offline else { return }
        offline = nil
        let release = store.release(at: time)
        dropped += release.expired
        note(events: release.events)
        for var waited in release.deliveries {
            waited.push.transport.stamp(millis: time)
            deliver(waited.push, waited.delivery, notes: waited.notes)
        }
    }

    public mutating func apply(_ transition: OfflineTimeline.Transition) {
        switch transition {
        case .goOffline(let time): goOffline(at: time)
        case .comeOnline(let time): comeOnline(at: time)
        }
    }

    mutating func note(events new: [TraceStep]) {
        events += new
        if events.count > Self.eventLimit { events.removeFirst(events.count - Self.eventLimit) }
    }

    /// The user swipes an item away (a bundle takes its children with it).
    public mutating func dismiss(itemID: String) {
        if let index = callItems.firstIndex(where: { $0.id == itemID }) {
            callItems.remove(at: index)
            return
        }
        if itemID.hasPrefix(Center.bundlePrefix) {
            // A8 bundles are Android's, and only Android counts each app's items (A9).
            guard profile.platform == .android else { return }
            let app = String(itemID.dropFirst(Center.bundlePrefix.count))
            for slot in table.slots where table[slot]?.app == app && table[slot]?.kind == .plain { remove(slot) }
            return
        }
        if let slot = table.slots.first(where: { table[$0]?.id == itemID }) { remove(slot) }
    }

    /// Clear all.
    public mutating func clearAll() {
        table.removeAll()
        apps = AppAges()
        collapsed = [:]
        collapsedLines = [:]
        callItems = []
    }

    mutating func recordRejection(source: String, reason: String) {
        rejected += 1
        let entry = ErrorEntry(source: source, reason: reason, position: received)
        lastRejection = entry
        if errors.count < Center.errorLimit { errors.append(entry) }
    }

    /// I6, A13: a badge sets the count; 0 clears it.
    mutating func setBadge(_ value: Int) { badge = max(0, value) }

    @discardableResult
    mutating func remove(_ slot: Int) -> Item? {
        guard let key = table.key(of: slot), let item = table.release(slot) else { return nil }
        if profile.platform == .android { apps.removed(item.app) }
        for line in item.lines {
            guard let c = line.collapseID else { continue }
            collapsed[StringPair(item.app, c)] = nil
            collapsedLines[CollapseLines(key, c)] = nil
        }
        return item
    }

    /// Puts an item (back) in the center: in `slot` when it was taken from there, else in a new one
    /// under `key`. Returns its slot.
    @discardableResult
    mutating func store(_ item: consuming Item, key: ItemKey, at slot: Int?) -> Int {
        let app = item.app
        let updated = item.updated
        let plain = item.kind == .plain
        let placed = table.put(consume item, key: key, at: slot)
        // A9's bookkeeping, which only Android needs: each app's items and when each was last updated.
        if profile.platform == .android { apps.updated(app: app, updated: updated, plain: plain, slot: placed, new: slot == nil) }
        return placed
    }

    /// The same for an item the caller built in a variable: it is moved into the table (the variable is
    /// left holding an empty item), not copied field by field.
    @discardableResult
    mutating func store(moving item: inout Item, key: ItemKey, at slot: Int?) -> Int {
        var moved = Item.empty
        swap(&moved, &item)
        return store(moved, key: key, at: slot)
    }

    /// The lines of an item that carry a collapse id (I4).
    struct CollapseLines: Hashable, Sendable {
        let item: ItemKey
        let id: String
        init(_ item: ItemKey, _ id: String) { self.item = item; self.id = id }
        func hash(into hasher: inout Hasher) { hasher.combine(item.hash ^ ItemKey.fnv(0x9E37_79B9_7F4A_7C15, id)) }
    }

    static let bundlePrefix = "bundle\u{1F}"

    // MARK: conversations

    /// A push's trace starts with the platform reading's and the text resolution's steps; the
    /// center adds a handful more, so room is made once. Nothing, when the center keeps no traces.
    func startTrace(_ content: Content, _ resolved: ResolvedText) -> TraceSteps {
        guard keepsTraces else { return TraceSteps(kept: false) }
        var trace = TraceSteps(kept: true)
        trace.steps.reserveCapacity(content.trace.count + resolved.trace.count + 8)
        trace.steps += content.trace
        trace.steps += resolved.trace
        return trace
    }

    /// The keys of a push's data, read where they lie in the push; `--group-by` follows its path from
    /// the payload's root. With them, whether the data named their sender.
    static func readKeys(_ appData: AppData, push: Push, groupBy: String?, pushTitle: String?) -> SharedReadings.KeysReading {
        appData.withObject { data -> SharedReadings.KeysReading in
            let keys = groupBy == nil ? ConversationKeys.read(data: data, root: nil, groupBy: nil, pushTitle: pushTitle)
                : push.withPayload { ConversationKeys.read(data: data, root: $0, groupBy: groupBy, pushTitle: pushTitle) }
            guard let keys else { return (nil, false) }
            return (keys, data.has("senderName"))
        }
    }

    /// C1–C9: the conversation a push joins, or nil for a plain notification; the trace says why.
    func conversation(for content: Content, _ resolved: ResolvedText, push: Push, trace: inout TraceSteps) -> ConversationKeys? {
        let groupBy = profile.groupBy
        // The title alone taken out: a closure reading `resolved.title` copied the whole resolved text
        // (its three strings and trace) and destroyed it again, twice a push.
        let pushTitle = resolved.title
        // Read by a function, not a closure kept in a constant: called from two places, the closure's
        // context was allocated on the heap for every push.
        let (found, named) = if let sharedReadings {
            sharedReadings.keys(content.appData, push: push, groupBy: groupBy, pushTitle: pushTitle) {
                Self.readKeys(content.appData, push: push, groupBy: groupBy, pushTitle: pushTitle)
            }
        } else {
            Self.readKeys(content.appData, push: push, groupBy: groupBy, pushTitle: pushTitle)
        }
        guard let keys = found else {
            // Whether sender keys stood without an id is asked only for the trace, which reads it.
            trace.append(TraceStep("C8", .plain(groupBy: groupBy,
                                                senderKeys: content.appData.withObject { ConversationKeys.senderKeys.contains(where: $0.has) })))
            return nil
        }
        guard showsConversations else {
            let needed = Profile.conversationSDK(platform: profile.platform, flavor: profile.flavor)
            trace.append(TraceStep("C9", .conversationsNeedNewerSDK(sdk: profile.sdk, needed: needed)))
            return nil
        }
        trace.append(TraceStep("C1", .conversationID(keys.conversationID, groupBy: profile.groupBy)))
        trace.append(TraceStep("C2", .sender(keys.sender.name, fromTitle: !named)))
        if !keys.explicitSenderID { trace.append(TraceStep("C3", "no senderId: the name is the sender's identity")) }
        if let url = keys.sender.avatar.imageURL {
            trace.append(TraceStep("C4", .senderPhoto(url: url)))
        } else {
            trace.append(TraceStep("C4", .senderInitials(keys.sender.avatar.initials, color: keys.sender.avatar.color)))
        }
        if keys.isGroup { trace.append(TraceStep("C6", .group(title: keys.title))) }
        return keys
    }

    // MARK: Android (SPEC §3)

    mutating func placeAndroid(_ content: Content, _ resolved: ResolvedText, push: Push) {
        var trace = startTrace(content, resolved)
        if let keys = conversation(for: content, resolved, push: push, trace: &trace) {
            let key = ItemKey.conversation(keys.conversationID)
            let slot = table.slot(of: key)
            var item = slot.map { table.take($0) } ?? Item(id: key.id, kind: .conversation, key: keys.conversationID, app: content.app)
            let joined = item.total > 0
            item.lines.append(Line(sender: keys.sender.name, senderID: keys.sender.id, text: resolved.body ?? "",
                                   title: resolved.title, pushID: push.id, at: push.transport.atMillis, senderAvatar: keys.sender.avatar))
            // A1: MessagingStyle keeps the newest 25 messages.
            if item.lines.count > 25 { item.lines.removeFirst(item.lines.count - 25) }
            if joined {
                trace.append(TraceStep("A1", .joinedConversation(keys.conversationID, kept: item.lines.count)))
            } else {
                trace.append(TraceStep("A5", profile.hasConversationsSection ? "a conversation: in the Conversations section (Android 11+)"
                    : "a conversation, styled as messaging (before Android 11 there is no Conversations section)"))
            }
            item.isGroup = keys.isGroup
            if let title = keys.title { item.conversationTitle = title }
            // A3: one-to-one → the sender; group → conversationTitle, else the push title.
            item.title = keys.isGroup ? (item.conversationTitle ?? resolved.title ?? keys.sender.name) : keys.sender.name
            item.avatar = keys.sender.avatar  // A2: the latest sender's photo or initials
            finishUpdate(&item, push: push, content: content, trace: &trace)
            let placed = store(moving: &item, key: key, at: slot)
            if !joined { enforceAppLimit(app: content.app, newest: placed) }
            return
        }
        let placed = placePlain(content, resolved, push: push, trace: &trace, tagRule: "A7")
        enforceAppLimit(app: content.app, newest: placed)
    }

    /// A plain notification: a non-empty tag replaces the one with the same tag (A7, W3); without
    /// one every push is a new entry. Returns its slot.
    @discardableResult
    mutating func placePlain(_ content: Content, _ resolved: ResolvedText, push: Push, trace: inout TraceSteps, tagRule: String) -> Int {
        var tagRule = tagRule
        let key: ItemKey
        let slot: Int?
        var item: Item
        // Seed 001 (which wins over SPEC A12 where they disagree): on Android the collapseKey merges
        // messages of the same type into one shown notification, as apns-collapse-id does on iOS.
        let collapseKey = profile.platform == .android ? content.collapseKey.flatMap { $0.isEmpty ? nil : $0 } : nil
        if let tag = content.tag ?? collapseKey {
            let byCollapseKey = content.tag == nil
            if byCollapseKey { tagRule = "A12" }
            key = byCollapseKey ? .collapseKey(content.app, tag) : .tag(content.app, tag)
            slot = table.slot(of: key)
            if let slot {
                item = table.take(slot)
                trace.append(TraceStep(tagRule, .tagReplaced(tag, collapseKey: byCollapseKey, pushes: item.total + 1)))
                if content.renotify { trace.append(TraceStep("W3", "renotify: the browser alerts again")) }
            } else {
                item = Item(id: key.id, kind: .plain, key: tag, app: content.app)
                trace.append(TraceStep(tagRule, .tagged(tag, collapseKey: byCollapseKey)))
            }
        } else {
            key = .untagged(push: push.id)
            // A push id met again (a test feeding one push twice) is the same entry, made anew.
            slot = table.slot(of: key)
            if let slot { _ = table.take(slot) }
            item = Item(id: key.id, kind: .plain, key: "n" + key.key!, app: content.app)
            trace.append(TraceStep(tagRule, "no tag: a new notification"))
        }
        item.kind = .plain
        item.title = resolved.title
        item.subtitle = resolved.subtitle
        item.avatar = nil
        item.isGroup = nil
        item.lines = [Line(text: resolved.body ?? "", title: resolved.title, subtitle: resolved.subtitle, pushID: push.id, at: push.transport.atMillis)]
        finishUpdate(&item, push: push, content: content, trace: &trace)
        return store(moving: &item, key: key, at: slot)
    }

    /// What every placement ends with. A `tag` given replaces the content's (W1 tags with the conversation id).
    func finishUpdate(_ item: inout Item, push: Push, content: Content, tag: String? = nil,
                      level: InterruptionLevel?? = nil, trace: inout TraceSteps) {
        item.total += 1
        item.updated = stamp
        item.at = push.transport.atMillis
        item.newest = push
        item.appData = content.appData
        item.tag = tag ?? content.tag
        item.level = level ?? content.level
        item.criticalSound = content.criticalSound
        item.renotify = content.renotify
        // I11, I12: the item carries its newest notification's.
        item.mutableContent = content.mutableContent
        item.category = content.category
        item.image = content.image
        if content.mutableContent { trace.append(TraceStep("I11", "mutable-content: 1: the app's Notification Service Extension may rewrite the title and body before they are shown; Shade shows them as the payload has them")) }
        if let category = content.category { trace.append(TraceStep("I12", .category(category, android: profile.platform == .android))) }
        if let image = content.image { trace.append(TraceStep("I12", .image(image))) }
        if profile.platform == .web && content.actions.count > ServiceRules.webMaxActions {
            item.actions = Array(content.actions.prefix(ServiceRules.webMaxActions))
            trace.append(TraceStep("W4", .actionsCut(given: content.actions.count)))
        } else {
            item.actions = content.actions
        }
        if trace.kept { item.note(taking: &trace.steps, push: push.id) }
    }

    /// A9: at most 50 active notifications per app; the oldest plain one goes first.
    mutating func enforceAppLimit(app: String, newest: Int) {
        guard profile.platform == .android, apps.count(of: app) > 50 else { return }
        guard let victimSlot = apps.popOldest(of: app, updated: table.updated), let victim = remove(victimSlot) else { return }
        // The newest may be the one that went (an app's only plain notification among 50 conversations).
        guard keepsTraces, table.updated[newest] >= 0 else { return }
        table.modify(newest) { item in
            item.note([TraceStep("A9", .appLimit(app: app, removed: victim.title ?? victim.key))], push: item.newest?.id)
        }
    }

    // MARK: iOS (SPEC §4)

    mutating func placeIOS(_ content: Content, _ resolved: ResolvedText, push: Push) {
        var trace = startTrace(content, resolved)
        // I8, I10, I13: the level shown, which may differ from the payload's (read beside the content,
        // not by copying it to change one field).
        let level = level(content, trace: &trace)
        // I4: apns-collapse-id replaces the shown notification with the same id. An emptied thread
        // goes, unless the replacement lands back in it (then its count carries on).
        var emptied: (key: ItemKey, item: Item)?
        if let collapseID = content.tag, let holder = collapsed[StringPair(content.app, collapseID)], let holderSlot = table.slot(of: holder) {
            var thread = table.take(holderSlot)
            let pushIDs = collapsedLines.removeValue(forKey: CollapseLines(holder, collapseID)) ?? []
            thread.removeLines(collapseID: collapseID, pushIDs: pushIDs)
            trace.append(TraceStep("I4", .collapseReplaced(collapseID)))
            if thread.lines.isEmpty {
                emptied = (holder, thread)
                table.release(holderSlot)
            } else {
                store(moving: &thread, key: holder, at: holderSlot)
            }
        }
        let keys = conversation(for: content, resolved, push: push, trace: &trace)
        let id: ItemKey
        let kind: Item.Kind
        let key: String
        if let keys {
            (id, kind, key) = (.conversation(keys.conversationID), .conversation, keys.conversationID)
            trace.append(TraceStep("I1", .groupedByConversation(keys.conversationID)))
        } else if let thread = content.threadID {
            (id, kind, key) = (.tag(content.app, thread), .plain, thread)
            trace.append(TraceStep("I1", .groupedByThread(thread)))
        } else {
            (id, kind, key) = (.appStack(content.app), .plain, content.app)
            trace.append(TraceStep("I1", .stackedByApp(content.app)))
        }
        let slot = table.slot(of: id)
        var item = slot.map { table.take($0) }
            ?? (emptied?.key == id ? emptied!.item : Item(id: id.id, kind: kind, key: key, app: content.app))
        var line = Line(text: resolved.body ?? "", title: resolved.title, subtitle: resolved.subtitle, pushID: push.id,
                        at: push.transport.atMillis, collapseID: content.tag, level: level)
        if let keys, showsCommunicationLook {
            // I2: the communication look: sender photo or initials, sender name, group name.
            line.sender = keys.sender.name
            line.senderID = keys.sender.id
            line.senderAvatar = keys.sender.avatar
            line.title = keys.isGroup ? (keys.title ?? resolved.title ?? keys.sender.name) : keys.sender.name
            if keys.isGroup { line.subtitle = keys.sender.name }
            item.avatar = keys.sender.avatar
            item.isGroup = keys.isGroup
            trace.append(TraceStep("I2", .communicationLook(group: keys.isGroup, photo: keys.sender.avatar.imageURL != nil)))
        } else {
            item.avatar = nil
            item.isGroup = keys?.isGroup
            if keys != nil {
                if profile.osVersion < Version(15) {
                    trace.append(TraceStep("I2", .iosTooOldForCommunicationLook(profile.osVersion)))
                } else if !profile.iosCommunication {
                    trace.append(TraceStep("I2", "no communication look (the app lacks the Communication Notifications capability): the app icon and the push's own title"))
                } else {
                    trace.append(TraceStep("I2", "no communication look (the SDK is too old): the app icon and the push's own title"))
                }
            }
        }
        item.title = line.title  // I1: the newest notification's title
        item.subtitle = line.subtitle
        item.lines.append(line)
        if let collapseID = content.tag {
            collapsed[StringPair(content.app, collapseID)] = id
            collapsedLines[CollapseLines(id, collapseID), default: []].append(push.id)
        }
        if item.lines.count > Center.iosStackLimit { dropOldestIOSLines(of: &item, key: id) }
        finishUpdate(&item, push: push, content: content, level: level, trace: &trace)
        store(moving: &item, key: id, at: slot)
    }

    /// How many notifications an iOS stack keeps (DECISIONS: Apple documents no cap for delivered
    /// notifications; 64 is the one it documents for what an app holds). The rest count in `total`.
    public static let iosStackLimit = 64

    /// Drops a stack's oldest notifications beyond `iosStackLimit`, and their I4 bookkeeping: a
    /// notification no longer kept cannot be replaced by its collapse id.
    mutating func dropOldestIOSLines(of item: inout Item, key: ItemKey) {
        let excess = item.lines.count - Center.iosStackLimit
        for line in item.lines[..<excess] {
            guard let c = line.collapseID else { continue }
            let slot = CollapseLines(key, c)
            // Lines arrive in push order, so a dropped line's push id is the first recorded for its id.
            if var ids = collapsedLines[slot], let first = ids.first, first == line.pushID {
                ids.removeFirst()
                collapsedLines[slot] = ids.isEmpty ? nil : ids
            }
            if !item.lines[excess...].contains(where: { $0.collapseID == c }) {
                collapsedLines[slot] = nil
                if collapsed[StringPair(item.app, c)] == key { collapsed[StringPair(item.app, c)] = nil }
            }
        }
        item.lines.removeFirst(excess)
    }

    /// How an iOS notification is marked: I10 a critical sound (iOS 12 and later) makes it critical;
    /// else I8 its `interruption-level`, which I13 ignores before iOS 15.
    func level(_ content: Content, trace: inout TraceSteps) -> InterruptionLevel? {
        if content.criticalSound {
            trace.append(TraceStep("I10", "sound with critical: 1: a critical alert, marked critical (it plays even when muted; the app needs Apple's critical-alerts entitlement)"))
            return .critical
        }
        guard let level = content.level else { return nil }
        guard profile.osVersion >= Version(15) else {
            trace.append(TraceStep("I13", .interruptionLevelTooOld(level, profile.osVersion)))
            return nil
        }
        switch level {
        case .passive: trace.append(TraceStep("I8", "interruption-level passive: delivered quietly, without a banner"))
        case .timeSensitive, .critical: trace.append(TraceStep("I8", .interruptionLevelMarked(level)))
        case .active: break
        }
        return level
    }

    mutating func placeCall(_ content: Content, push: Push) {
        let data = content.data
        let caller = ["callerName", "caller_name", "caller", "handle", "senderName", "displayName", "name"]
            .lazy.compactMap { data[$0]?.scalarText }.first { !$0.isEmpty }
            ?? content.title ?? content.body ?? "Unknown caller"
        let video = data["hasVideo"]?.bool == true || data["video"]?.bool == true || data["isVideo"]?.scalarText == "true"
        let callID = ["uuid", "callUUID", "callId", "call_id"].lazy.compactMap { data[$0]?.scalarText }.first ?? "call-\(push.id)"
        var item = Item(id: "call\u{1F}" + callID, kind: .call, key: callID, app: content.app)
        item.title = caller
        item.lines = [Line(text: video ? "Incoming video call" : "Incoming call", pushID: push.id, at: push.transport.atMillis)]
        item.avatar = Avatar(name: caller, identity: caller, imageURL: nil)
        var trace = TraceSteps(kept: keepsTraces, steps: keepsTraces ? content.trace : [])
        finishUpdate(&item, push: push, content: content, trace: &trace)
        callItems.removeAll { $0.id == item.id }
        callItems.append(item)
    }

    // MARK: web (SPEC §5)

    mutating func placeWeb(_ content: Content, _ resolved: ResolvedText, push: Push) {
        var trace = startTrace(content, resolved)
        guard let keys = conversation(for: content, resolved, push: push, trace: &trace) else {
            placePlain(content, resolved, push: push, trace: &trace, tagRule: "W3")
            return
        }
        // W1: one notification per conversation; its tag is the conversation id.
        let id = ItemKey.tag(content.app, keys.conversationID)
        let slot = table.slot(of: id)
        var item = slot.map { table.take($0) } ?? Item(id: id.id, kind: .conversation, key: keys.conversationID, app: content.app)
        if item.kind != .conversation { item.lines = []; item.kind = .conversation }
        trace.append(TraceStep("W1", .webConversation(keys.conversationID, replaced: item.total > 0)))
        item.lines.append(Line(sender: keys.sender.name, senderID: keys.sender.id, text: resolved.body ?? "", title: resolved.title,
                               pushID: push.id, at: push.transport.atMillis, senderAvatar: keys.sender.avatar))
        if item.lines.count > 5 { item.lines.removeFirst(item.lines.count - 5) }
        item.isGroup = keys.isGroup
        if let title = keys.title { item.conversationTitle = title }
        // W2: one-to-one → the sender; group → the group name.
        item.title = keys.isGroup ? (item.conversationTitle ?? resolved.title ?? keys.sender.name) : keys.sender.name
        item.avatar = keys.sender.avatar
        finishUpdate(&item, push: push, content: content, tag: keys.conversationID, trace: &trace)
        store(moving: &item, key: id, at: slot)
    }

    // MARK: state

    /// The derived picture: sections in display order, items most recently updated first (A6).
    public var state: CenterState {
        let all = table.all.sorted { $0.updated > $1.updated }
        var sections: [Section] = []
        switch profile.platform {
        case .android:
            let conversations = all.filter { $0.kind == .conversation }
            let plain = bundled(all.filter { $0.kind == .plain })
            if profile.hasConversationsSection {
                sections.append(Section(name: SectionName.conversations, items: conversations))
                sections.append(Section(name: SectionName.notifications, items: plain))
            } else {
                let merged = (conversations + plain).sorted { $0.updated > $1.updated }
                sections.append(Section(name: SectionName.notifications, items: merged))
            }
        case .ios:
            sections.append(Section(name: SectionName.notificationCenter, items: all))
            sections.append(Section(name: SectionName.calls, items: callItems.reversed()))
        case .web:
            sections.append(Section(name: SectionName.notifications, items: all))
        }
        sections.removeAll { $0.items.isEmpty }
        let shown = sections.reduce(0) { $0 + $1.items.reduce(0) { $0 + $1.shownCount(platform: profile.platform) } }
        return CenterState(profile: profile, received: received, shown: shown, silent: silent, calls: calls,
                           rejected: rejected, elsewhere: elsewhere, dropped: dropped, badge: badge, sections: sections,
                           errors: errors, events: events, offlineSince: offline?.since, waiting: offline?.waitingCount ?? 0,
                           lastError: lastRejection)
    }

    /// Where a push's text is now: its item's kind, key and title, and its line.
    public struct Placement: Sendable {
        public var kind: Item.Kind
        public var key: String
        public var title: String?
        public var line: Line
    }

    /// Where each push numbered `oldest` or later has its line now, by number.
    public struct Placements: Sendable {
        public let oldest: Int
        /// Indexed by push number less `oldest` (a round's pushes are numbered in a run): looked up
        /// without hashing, which a dictionary did for every push and platform the log wrote.
        fileprivate var slots: [Placement?] = []

        public subscript(pushID: Int) -> Placement? {
            let slot = pushID - oldest
            return slot >= 0 && slot < slots.count ? slots[slot] : nil
        }

        /// The numbers placed, in order.
        public var pushIDs: [Int] { slots.indices.filter { slots[$0] != nil }.map { $0 + oldest } }

        fileprivate mutating func set(_ placement: Placement, for pushID: Int) {
            let slot = pushID - oldest
            if slot >= slots.count { slots += repeatElement(nil, count: slot + 1 - slots.count) }
            slots[slot] = placement
        }
    }

    /// Push number → where its line is now, for pushes numbered `oldest` and later: what `state`'s
    /// items (a bundle's children included) hold, read in place without building the state. An
    /// item's lines are in arrival order, so each is read from its end and left at the first older
    /// line: a flood into long iOS stacks costs the new lines, not all of them. A push's line is in
    /// one item at most, so the order items are read in does not matter.
    /// `expecting`: how many pushes the caller asks about, to size the index once.
    public func placements(from oldest: Int, expecting: Int = 0) -> Placements {
        var index = Placements(oldest: oldest)
        index.slots.reserveCapacity(expecting)
        func add(_ item: borrowing Item) {
            for line in item.lines.reversed() {
                if line.pushID < oldest { break }
                index.set(Placement(kind: item.kind, key: item.key, title: item.title, line: line), for: line.pushID)
            }
        }
        table.forEachItem { add($0) }
        // Calls are shown only by iOS, in its Calls section (`state`).
        if profile.platform == .ios { for item in callItems { add(item) } }
        return index
    }

    /// A8: four or more ungrouped plain notifications of one app go under one app summary.
    func bundled(_ plain: [Item]) -> [Item] {
        var byApp: [String: [Item]] = [:]
        for item in plain { byApp[item.app, default: []].append(item) }
        var result: [Item] = []
        var emitted: Set<String> = []
        for item in plain {
            let group = byApp[item.app]!
            guard group.count >= profile.bundleAt else { result.append(item); continue }
            guard emitted.insert(item.app).inserted else { continue }
            var bundle = Item(id: Center.bundlePrefix + item.app, kind: .bundle, key: item.app, app: item.app)
            bundle.title = item.app
            bundle.children = group
            bundle.total = group.count
            bundle.updated = group.map(\.updated).max() ?? 0
            bundle.at = group.first?.at
            bundle.newest = group.first?.newest
            bundle.trace = [TraceStep("A8", .bundled(count: group.count, app: item.app, bundleAt: profile.bundleAt))]
            result.append(bundle)
        }
        return result
    }
}
