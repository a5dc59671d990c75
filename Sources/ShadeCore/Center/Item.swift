/// One message or notification text inside an item.
///
/// Its texts lie in a box its copies share until one changes (copy on write): a line is copied
/// into the log's placements and moved as a stack's kept lines slide, and inline it was 168 bytes.
public struct Line: Sendable, Equatable {
    /// The author, for conversation lines; nil where the platform shows no sender.
    public var sender: String? {
        get { fields.sender }
        _modify {
            let own = writable
            yield &own.sender
        }
    }
    public var senderID: String? {
        get { fields.senderID }
        _modify {
            let own = writable
            yield &own.senderID
        }
    }
    public var text: String {
        get { fields.text }
        _modify {
            let own = writable
            yield &own.text
        }
    }
    /// The notification's own title and subtitle (iOS stacks show each notification's).
    public var title: String? {
        get { fields.title }
        _modify {
            let own = writable
            yield &own.title
        }
    }
    public var subtitle: String? {
        get { fields.subtitle }
        _modify {
            let own = writable
            yield &own.subtitle
        }
    }
    /// Inline, not in the box: lines are found and dropped by it (I4's binary search, the log).
    public var pushID: Int
    public var at: Int64? {
        get { fields.at }
        _modify {
            let own = writable
            yield &own.at
        }
    }
    /// iOS `apns-collapse-id`, so a later push can replace this very notification (I4).
    public var collapseID: String? {
        get { fields.collapseID }
        _modify {
            let own = writable
            yield &own.collapseID
        }
    }
    public var level: InterruptionLevel? {
        get { fields.level }
        _modify {
            let own = writable
            yield &own.level
        }
    }
    public var senderAvatar: Avatar? {
        get { fields.senderAvatar }
        _modify {
            let own = writable
            yield &own.senderAvatar
        }
    }

    private var box: CopyOnWrite<Fields>
    private var fields: Fields { box.read }
    private var writable: Fields { mutating get { box.writable } }

    // @unchecked: a box is changed only through `writable`, by the one line that holds it.
    private final class Fields: CopiedOnWrite, @unchecked Sendable {
        var sender: String?
        var senderID: String?
        var text: String
        var title: String?
        var subtitle: String?
        var at: Int64?
        var collapseID: String?
        var level: InterruptionLevel?
        var senderAvatar: Avatar?

        init(sender: String?, senderID: String?, text: String, title: String?, subtitle: String?, at: Int64?, collapseID: String?, level: InterruptionLevel?, senderAvatar: Avatar?) {
            self.sender = sender
            self.senderID = senderID
            self.text = text
            self.title = title
            self.subtitle = subtitle
            self.at = at
            self.collapseID = collapseID
            self.level = level
            self.senderAvatar = senderAvatar
        }

        func copy() -> Self { Self(copying: self) }

        required init(copying other: Fields) {
            sender = other.sender
            senderID = other.senderID
            text = other.text
            title = other.title
            subtitle = other.subtitle
            at = other.at
            collapseID = other.collapseID
            level = other.level
            senderAvatar = other.senderAvatar
        }

        func same(as other: Fields) -> Bool {
            sender == other.sender && senderID == other.senderID && text == other.text && title == other.title && subtitle == other.subtitle && at == other.at && collapseID == other.collapseID && level == other.level && senderAvatar == other.senderAvatar
        }
    }

    public static func == (a: Line, b: Line) -> Bool {
        a.pushID == b.pushID && (a.box.shares(with: b.box) || a.fields.same(as: b.fields))
    }

    public init(sender: String? = nil, senderID: String? = nil, text: String, title: String? = nil, subtitle: String? = nil,
                pushID: Int, at: Int64? = nil, collapseID: String? = nil, level: InterruptionLevel? = nil, senderAvatar: Avatar? = nil) {
        self.pushID = pushID
        box = CopyOnWrite(Fields(sender: sender, senderID: senderID, text: text, title: title, subtitle: subtitle, at: at, collapseID: collapseID, level: level, senderAvatar: senderAvatar))
    }
}

/// An entry in the notification center: a conversation stack, a plain notification (or iOS
/// thread/app stack), an Android app bundle, or a ringing call.
public struct Item: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable {
        case conversation, plain, bundle, call
    }

    /// Internal identity, unique within a center (the JSON `key` may repeat across kinds).
    public var id: String {
        get { fields.id }
        _modify {
            let own = writable
            yield &own.id
        }
    }
    public var kind: Kind {
        get { fields.kind }
        _modify {
            let own = writable
            yield &own.kind
        }
    }
    /// The conversation id, thread id, tag, or a generated id.
    public var key: String {
        get { fields.key }
        _modify {
            let own = writable
            yield &own.key
        }
    }
    public var app: String {
        get { fields.app }
        _modify {
            let own = writable
            yield &own.app
        }
    }
    public var title: String? {
        get { fields.title }
        _modify {
            let own = writable
            yield &own.title
        }
    }
    public var subtitle: String? {
        get { fields.subtitle }
        _modify {
            let own = writable
            yield &own.subtitle
        }
    }
    public var isGroup: Bool? {
        get { fields.isGroup }
        _modify {
            let own = writable
            yield &own.isGroup
        }
    }
    /// The group name last given (C5): later pushes of the group may omit it.
    public var conversationTitle: String? {
        get { fields.conversationTitle }
        _modify {
            let own = writable
            yield &own.conversationTitle
        }
    }
    /// nil where the platform shows the app icon.
    public var avatar: Avatar? {
        get { fields.avatar }
        _modify {
            let own = writable
            yield &own.avatar
        }
    }
    /// Oldest first, as the pushes arrived; what the device keeps.
    public var lines: SlidingArray<Line> {
        get { fields.lines }
        _modify {
            let own = writable
            yield &own.lines
        }
    }
    /// Every push that went into the item, replaced ones included.
    public var total: Int {
        get { fields.total }
        _modify {
            let own = writable
            yield &own.total
        }
    }
    public var children: [Item]? {
        get { fields.children }
        _modify {
            let own = writable
            yield &own.children
        }
    }
    /// Arrival order of the last update (A6: most recently updated first).
    public var updated: Int {
        get { fields.updated }
        _modify {
            let own = writable
            yield &own.updated
        }
    }
    public var at: Int64? {
        get { fields.at }
        _modify {
            let own = writable
            yield &own.at
        }
    }
    public var level: InterruptionLevel? {
        get { fields.level }
        _modify {
            let own = writable
            yield &own.level
        }
    }
    /// I10: the level is critical because of a critical sound.
    public var criticalSound: Bool {
        get { fields.criticalSound }
        _modify {
            let own = writable
            yield &own.criticalSound
        }
    }
    /// I11: the app's service extension may rewrite what is shown (the newest notification's).
    public var mutableContent: Bool {
        get { fields.mutableContent }
        _modify {
            let own = writable
            yield &own.mutableContent
        }
    }
    /// I12: the category (action buttons) and picture of the newest notification.
    public var category: String? {
        get { fields.category }
        _modify {
            let own = writable
            yield &own.category
        }
    }
    public var image: String? {
        get { fields.image }
        _modify {
            let own = writable
            yield &own.image
        }
    }
    public var actions: [String] {
        get { fields.actions }
        _modify {
            let own = writable
            yield &own.actions
        }
    }
    public var tag: String? {
        get { fields.tag }
        _modify {
            let own = writable
            yield &own.tag
        }
    }
    public var renotify: Bool {
        get { fields.renotify }
        _modify {
            let own = writable
            yield &own.renotify
        }
    }
    /// The newest push, for the inspector: raw payload, headers, route.
    public var newest: Push? {
        get { fields.newest }
        _modify {
            let own = writable
            yield &own.newest
        }
    }
    /// What the app receives on tap (C10): kept where it lies in the newest push (`appData`); this
    /// builds the tree.
    public var data: JSONObject {
        get { appData.object }
        set { appData = AppData(newValue) }
    }
    var appData: AppData {
        get { fields.appData }
        _modify {
            let own = writable
            yield &own.appData
        }
    }
    /// Why the item is here, grouped, replaced: rule ids and sentences, oldest first.
    public var trace: [TraceStep] {
        get { traceLog.steps }
        set { traceLog = TraceLog(newValue) }
    }
    var traceLog: TraceLog {
        get { fields.traceLog }
        _modify {
            let own = writable
            yield &own.traceLog
        }
    }

    /// The fields, in one box copies share until one of them changes (copy on write, as `Array`
    /// does): a push takes its item out of the table, changes it and puts it back, and the state,
    /// the log and the UI copy items; inline, an item's fields were 384 bytes moved, retained and
    /// released each time.
    private var box: CopyOnWrite<Fields>
    private var fields: Fields { box.read }
    private var writable: Fields { mutating get { box.writable } }

    // @unchecked: a box is changed only through `writable`, by the one item that holds it.
    private final class Fields: CopiedOnWrite, @unchecked Sendable {
        var id: String
        var kind: Kind
        var key: String
        var app: String
        var title: String? = nil
        var subtitle: String? = nil
        var isGroup: Bool? = nil
        var conversationTitle: String? = nil
        var avatar: Avatar? = nil
        var lines: SlidingArray<Line> = []
        var total: Int = 0
        var children: [Item]? = nil
        var updated: Int = 0
        var at: Int64? = nil
        var level: InterruptionLevel? = nil
        var criticalSound: Bool = false
        var mutableContent: Bool = false
        var category: String? = nil
        var image: String? = nil
        var actions: [String] = []
        var tag: String? = nil
        var renotify: Bool = false
        var newest: Push? = nil
        var appData: AppData = AppData()
        var traceLog: TraceLog = TraceLog()

        init(id: String, kind: Kind, key: String, app: String) {
            self.id = id
            self.kind = kind
            self.key = key
            self.app = app
        }

        func copy() -> Self { Self(copying: self) }

        required init(copying other: Fields) {
            id = other.id
            kind = other.kind
            key = other.key
            app = other.app
            title = other.title
            subtitle = other.subtitle
            isGroup = other.isGroup
            conversationTitle = other.conversationTitle
            avatar = other.avatar
            lines = other.lines
            total = other.total
            children = other.children
            updated = other.updated
            at = other.at
            level = other.level
            criticalSound = other.criticalSound
            mutableContent = other.mutableContent
            category = other.category
            image = other.image
            actions = other.actions
            tag = other.tag
            renotify = other.renotify
            newest = other.newest
            appData = other.appData
            traceLog = other.traceLog
        }

        func same(as other: Fields) -> Bool {
            id == other.id && kind == other.kind && key == other.key && app == other.app
                && title == other.title && subtitle == other.subtitle && isGroup == other.isGroup && conversationTitle == other.conversationTitle
                && avatar == other.avatar && lines == other.lines && total == other.total && children == other.children
                && updated == other.updated && at == other.at && level == other.level && criticalSound == other.criticalSound
                && mutableContent == other.mutableContent && category == other.category && image == other.image && actions == other.actions
                && tag == other.tag && renotify == other.renotify && newest == other.newest && appData == other.appData
                && traceLog == other.traceLog
        }
    }

    public static func == (a: Item, b: Item) -> Bool {
        a.box.shares(with: b.box) || a.fields.same(as: b.fields)
    }

    public init(id: String, kind: Kind, key: String, app: String) {
        box = CopyOnWrite(Fields(id: id, kind: kind, key: key, app: app))
    }

    private init(fields: Fields) {
        box = CopyOnWrite(fields)
    }

    /// An item holding nothing, for a variable whose item was moved out (`Center.store(moving:)`):
    /// one box shared by them all, so moving an item out allocates nothing.
    static var empty: Item { Item(fields: emptyFields) }
    private static let emptyFields = Fields(id: "", kind: .plain, key: "", app: "")

    /// Notifications this item puts on screen (the `shown` counter): a conversation or plain item is
    /// one; on iOS every notification in a stack is one; a bundle counts its children.
    public func shownCount(platform: Platform) -> Int {
        switch kind {
        case .bundle: return children?.reduce(0) { $0 + $1.shownCount(platform: platform) } ?? 0
        case .call: return 0
        case .conversation, .plain: return platform == .ios ? lines.count : 1
        }
    }

    /// Keeps the trace bounded on long-lived items; the newest steps matter most. Each step is
    /// marked with the push it was taken for.
    mutating func note(_ steps: [TraceStep], push: Int?) {
        traceLog.append(steps, push: push)
    }

    /// The same, taking `steps` (left empty): a new item's trace is the push's steps, not a copy of them.
    mutating func note(taking steps: inout [TraceStep], push: Int?) {
        for i in steps.indices { steps[i].pushID = push }
        traceLog.append(taking: &steps)
    }
}

extension Item {
    /// I4: removes every line carrying `collapseID`. `pushIDs` are those lines' push ids (the
    /// center records them as it appends); lines arrive in push order, so each is found by binary
    /// search and a thread of thousands is not scanned. Should the lines not be where the ids say
    /// (pushes numbered out of order, or twice), every line is checked, as the rule reads.
    mutating func removeLines(collapseID: String, pushIDs: [Int]) {
        var found: [Int] = []
        for pushID in pushIDs {
            guard let index = lineIndex(pushID: pushID), lines[index].collapseID == collapseID, !found.contains(index) else {
                lines.removeAll { $0.collapseID == collapseID }
                return
            }
            found.append(index)
        }
        // Highest index first, so the others do not move; `remove(at:)` moves the tail without copying lines.
        for index in found.sorted(by: >) { lines.remove(at: index) }
    }

    /// Binary search over `lines` by push id, assuming arrival order.
    private func lineIndex(pushID: Int) -> Int? {
        var low = 0
        var high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].pushID < pushID { low = mid + 1 } else { high = mid }
        }
        return low < lines.count && lines[low].pushID == pushID ? low : nil
    }
}

/// An item's trace: what was set, then each push's steps, keeping the newest `limit` once it
/// grows. A ring, so that a busy item's next push overwrites its oldest steps instead of moving
/// all 64 down. `steps` reads it oldest first.
struct TraceLog: Sendable, Equatable {
    static let limit = 64
    private var ring: [TraceStep]
    /// Where the oldest step is, once the ring is full.
    private var oldest = 0

    init(_ steps: [TraceStep] = []) { ring = steps }

    var steps: [TraceStep] { oldest == 0 ? ring : Array(ring[oldest...] + ring[..<oldest]) }

    /// Appends steps already marked with their push, taking the array as the ring when it is empty.
    /// Otherwise each step is swapped into its place (no copy, no retain): `steps` is left holding what
    /// it displaced, and emptied.
    mutating func append(taking steps: inout [TraceStep]) {
        if ring.isEmpty && steps.count <= Self.limit {
            swap(&ring, &steps)
            return
        }
        if ring.count > Self.limit { ring = Array(ring.suffix(Self.limit)) }  // set longer than the limit
        for i in steps.indices {
            if ring.count < Self.limit {
                ring.append(TraceStep.placeholder)
                swap(&ring[ring.count - 1], &steps[i])
            } else {
                swap(&ring[oldest], &steps[i])
                oldest = (oldest + 1) % Self.limit
            }
        }
        steps.removeAll()
    }

    /// Appends `steps`, each marked as taken for `push`.
    mutating func append(_ steps: [TraceStep], push: Int?) { append(steps, push: push, marked: false) }

    private mutating func append(_ steps: [TraceStep], push: Int?, marked: Bool) {
        if ring.count > Self.limit { ring = Array(ring.suffix(Self.limit)) }  // set longer than the limit
        for var step in steps {
            if !marked { step.pushID = push }
            if ring.count < Self.limit {
                ring.append(step)
            } else {
                ring[oldest] = step
                oldest = (oldest + 1) % Self.limit
            }
        }
    }


    static func == (a: TraceLog, b: TraceLog) -> Bool { a.steps == b.steps }
}

/// A rejected push as `errors` lists it.
public struct ErrorEntry: Sendable, Equatable {
    public var source: String
    public var reason: String
    /// Which push of the stream it was (the center's `received` count then): every center is fed
    /// the same stream, so this orders the rejections of several centers into one list.
    public var position: Int

    public init(source: String, reason: String, position: Int) {
        self.source = source
        self.reason = reason
        self.position = position
    }
}

/// A named group of items: `Conversations`, `Notifications`, `Notification Center`, `Calls`.
public struct Section: Sendable, Equatable {
    public var name: String
    public var items: [Item]
}

/// The section names of the state JSON, exactly as DESIGN.md writes them.
public enum SectionName {
    public static let conversations = "Conversations"
    public static let notifications = "Notifications"
    public static let notificationCenter = "Notification Center"
    public static let calls = "Calls"
}

/// Everything a view or `shade state` needs: the derived, ordered picture of one center.
public struct CenterState: Sendable, Equatable {
    public var profile: Profile
    public var received: Int
    public var shown: Int
    public var silent: Int
    public var calls: Int
    public var rejected: Int
    public var elsewhere: Int
    /// SPEC §8: pushes the services discarded while the device was offline.
    public var dropped: Int
    public var badge: Int
    public var sections: [Section]
    /// The first `Center.errorLimit` rejections (`rejected` counts all).
    public var errors: [ErrorEntry]
    /// The newest rejection, whether `errors` lists it or not.
    public var lastError: ErrorEntry?
    /// What happened to the device beside its items (SPEC §8), newest last.
    public var events: [TraceStep]
    /// When the device went offline, while it is; and how many pushes wait for it.
    public var offlineSince: Int64?
    public var waiting: Int

    public init(profile: Profile, received: Int, shown: Int, silent: Int, calls: Int, rejected: Int, elsewhere: Int,
                dropped: Int = 0, badge: Int, sections: [Section], errors: [ErrorEntry], events: [TraceStep] = [],
                offlineSince: Int64? = nil, waiting: Int = 0, lastError: ErrorEntry? = nil) {
        self.profile = profile
        self.received = received
        self.shown = shown
        self.silent = silent
        self.calls = calls
        self.rejected = rejected
        self.elsewhere = elsewhere
        self.dropped = dropped
        self.badge = badge
        self.sections = sections
        self.errors = errors
        self.events = events
        self.offlineSince = offlineSince
        self.waiting = waiting
        self.lastError = lastError
    }

    public var platform: Platform { profile.platform }
    public var items: [Item] { sections.flatMap(\.items) }
}
