/// One step of the decision trace: which rule did what, in words a developer can act on.
public struct TraceStep: Sendable, Equatable, CustomStringConvertible {
    public var rule: String
    /// The push whose placement took the step (set when an item notes it), so a stack's trace can
    /// be read push by push.
    public var pushID: Int?
    /// What the step says. Kept as the facts it is made of and put into words when read: every
    /// push makes several steps, a busy item keeps only its newest 64, and few are ever shown.
    var fact: TraceFact

    public init(_ rule: String, _ text: String) {
        self.rule = rule
        self.fact = .said(text)
    }

    init(_ rule: String, _ fact: TraceFact) {
        self.rule = rule
        self.fact = fact
    }

    /// A step that says nothing, to hold a place a step is swapped out of (`TraceLog`).
    static var placeholder: TraceStep { TraceStep("", .said("")) }

    public var text: String {
        get { fact.text }
        set { fact = .said(newValue) }
    }

    public var description: String { "[\(rule)] \(text)" }

    /// Two steps are equal when they read the same, however their words were kept.
    public static func == (a: TraceStep, b: TraceStep) -> Bool { a.rule == b.rule && a.text == b.text }
}

/// The steps one placement takes, for its item's trace (`Item.note`). When the center keeps no
/// traces they are not gathered, and a step passed to `append` is not even made.
struct TraceSteps {
    var steps: [TraceStep]
    /// Whether steps are gathered (`Center.keepsTraces`).
    let kept: Bool

    init(kept: Bool, steps: [TraceStep] = []) {
        self.kept = kept
        self.steps = steps
    }

    @inline(__always)
    mutating func append(_ step: @autoclosure () -> TraceStep) {
        if kept { steps.append(step()) }
    }
}

/// The facts behind the trace sentences that name something from the push (an id, a tag, a
/// count); fixed sentences are `.said`. `text` is the one place these sentences are worded.
enum TraceFact: Sendable {
    case said(String)
    /// C8 (`groupBy` is the profile's `--group-by`; `senderKeys`: the data gave sender keys, which are ignored).
    case plain(groupBy: String?, senderKeys: Bool)
    /// C9
    case conversationsNeedNewerSDK(sdk: Version, needed: Version)
    /// C1
    case conversationID(String, groupBy: String?)
    /// C2: `fromTitle` when there is no senderName and the push title stands in.
    case sender(String, fromTitle: Bool)
    /// C4
    case senderPhoto(url: String)
    case senderInitials(String, color: Int)
    /// C6 (and C5, the group's name)
    case group(title: String?)
    /// A1
    case joinedConversation(String, kept: Int)
    /// A7, A12 (`collapseKey`: the key is FCM's collapse key, not a tag), W3
    case tagReplaced(String, collapseKey: Bool, pushes: Int)
    case tagged(String, collapseKey: Bool)
    /// A8
    case bundled(count: Int, app: String, bundleAt: Int)
    /// A9
    case appLimit(app: String, removed: String)
    /// W1
    case webConversation(String, replaced: Bool)
    /// W4
    case actionsCut(given: Int)
    /// I1
    case groupedByConversation(String)
    case groupedByThread(String)
    case stackedByApp(String)
    /// I2
    case communicationLook(group: Bool, photo: Bool)
    case iosTooOldForCommunicationLook(Version)
    /// I4
    case collapseReplaced(String)
    /// I8
    case interruptionLevelMarked(InterruptionLevel)
    /// I13
    case interruptionLevelTooOld(InterruptionLevel, Version)
    /// I12
    case category(String, android: Bool)
    case image(String)
    /// D4
    case readAsAPNs(origin: String)
    /// I5, V10: an `aps` without alert text, with or without a badge and a sound.
    case apnsShowsNothing(badge: Bool, sound: Bool)
    /// A10, I3
    indirect case literalWins(field: String, over: LocRef)
    /// L2–L6: a note from the localizer about one field.
    case localizerNote(field: String, note: String)
    /// L5, L6
    case leftEmpty(field: String)

    /// C8 for a push whose app data is `data`.
    static func plainNotification(groupBy: String?, data: JSONObject) -> TraceFact {
        .plain(groupBy: groupBy, senderKeys: ConversationKeys.senderKeys.contains(where: data.has))
    }

    var text: String {
        switch self {
        case .said(let text):
            return text
        case .plain(let groupBy, let senderKeys):
            return "no \(groupBy ?? "conversationId"): a plain notification, shown exactly as before" + (senderKeys ? "; the sender keys are ignored" : "")
        case .conversationsNeedNewerSDK(let sdk, let needed):
            return "SDK \(sdk) is older than \(needed), which conversations need: the keys are ignored and a plain notification is shown"
        case .conversationID(let id, let groupBy):
            return "conversationId \(id)" + (groupBy.map { " (from --group-by \($0))" } ?? "")
        case .sender(let name, let fromTitle):
            return fromTitle ? "no senderName: the push title \"\(name)\" is the sender" : "sender \(name)"
        case .senderPhoto(let url):
            return "sender photo \(url)"
        case .senderInitials(let initials, let color):
            return "no https senderAvatarUrl: initials \(initials) in colour \(color) (N1, N2)"
        case .group(let title):
            return "a group" + (title.map { " named \($0) (C5)" } ?? "")
        case .joinedConversation(let id, let kept):
            return "joined conversation \(id): \(kept) messages kept (newest 25)"
        case .tagReplaced(let tag, let collapseKey, let pushes):
            let kind = collapseKey ? "collapse key" : "tag"
            return "\(kind) \(tag) replaced the notification shown with the same \(kind) (\(pushes) pushes so far)"
                + (collapseKey ? "; the IM SDK's payload format: Android merges same-type messages by collapseKey" : "")
        case .tagged(let tag, let collapseKey):
            let kind = collapseKey ? "collapse key" : "tag"
            return "\(kind) \(tag): a later push with this \(kind) replaces this one"
        case .bundled(let count, let app, let bundleAt):
            return "\(count) notifications of \(app) (bundled from \(bundleAt)): one app summary"
        case .appLimit(let app, let removed):
            return "more than 50 notifications for \(app): the oldest (\(removed)) was removed"
        case .webConversation(let id, let replaced):
            return replaced ? "replaced the conversation's notification (tag \(id)), keeping the earlier lines (at most 5)"
                : "one notification for conversation \(id), tagged with its id"
        case .actionsCut(let given):
            return "\(given) actions given; Chrome shows the first \(ServiceRules.webMaxActions)"
        case .groupedByConversation(let id):
            return "grouped by conversation \(id)"
        case .groupedByThread(let thread):
            return "grouped by aps.thread-id \(thread)"
        case .stackedByApp(let app):
            return "no conversation or thread-id: stacked with the other notifications of \(app)"
        case .communicationLook(let group, let photo):
            return "communication notification: \(group ? "group name" : "sender name") as title, sender \(photo ? "photo" : "initials")"
        case .iosTooOldForCommunicationLook(let version):
            return "no communication look (iOS \(version) is older than 15): the app icon and the push's own title"
        case .collapseReplaced(let id):
            return "apns-collapse-id \(id) replaced the notification shown with the same id"
        case .interruptionLevelMarked(let level):
            return "interruption-level \(level.rawValue): marked"
        case .interruptionLevelTooOld(let level, let version):
            return "interruption-level \(level.rawValue) is ignored: iOS \(version) is older than 15, which brought interruption levels"
        case .category(let category, let android):
            return android ? "click_action \(category): the activity a tap opens, carried as the category"
                : "category \(category): the action buttons the app registered for it are offered (Shade cannot know their titles)"
        case .image(let url):
            return "image \(url): the picture the notification shows"
        case .readAsAPNs(let origin):
            return "read as an APNs payload at \(origin)"
        case .apnsShowsNothing(let badge, let sound):
            let what = badge && sound ? "a badge and a sound but no alert" : badge ? "only a badge" : sound ? "only a sound" : "no alert"
            return "the payload has \(what): \(sound ? "the sound plays, but " : "")nothing is shown in the Notification Center"
        case .literalWins(let field, let loc):
            return "the literal \(field) wins over \(loc.key) (\(loc.path))"
        case .localizerNote(let field, let note):
            return "\(field): " + TextResolver.text(of: note)
        case .leftEmpty(let field):
            return "the \(field) is left empty on Android"
        }
    }
}
