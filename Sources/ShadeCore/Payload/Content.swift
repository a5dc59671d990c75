/// A localizable field as the payload names it: `loc-key` + `loc-args` (APNs) or
/// `body_loc_key` + `body_loc_args` (FCM), with the JSON path it came from.
public struct LocRef: Sendable, Equatable {
    public var key: String
    public var args: [String]
    public var path: String

    public init(key: String, args: [String], path: String) {
        self.key = key
        self.args = args
        self.path = path
    }
}

/// iOS 15 interruption levels (I8).
public enum InterruptionLevel: String, Sendable, Equatable {
    case passive, active
    case timeSensitive = "time-sensitive"
    case critical
}

/// What one platform makes of a push before the center places it: the normalised fields.
///
/// The fields lie in one box that copies share until one of them changes (copy on write, as
/// `Array` does): a content is read, moved and copied several times a push and platform on its way
/// to the item it becomes, and held inline its twenty fields were some 230 bytes copied, retained
/// and released each time.
public struct Content: Sendable, Equatable {
    public var title: String? {
        get { fields.title }
        set { writable.title = newValue }
    }
    public var subtitle: String? {
        get { fields.subtitle }
        set { writable.subtitle = newValue }
    }
    public var body: String? {
        get { fields.body }
        set { writable.body = newValue }
    }
    /// The localizable title, subtitle and body (`loc-key`, `title_loc_key`, …).
    public var titleLoc: LocRef? {
        get { localized?.title }
        set { if newValue != nil || localized != nil { localize { $0.title = newValue } } }
    }
    public var subtitleLoc: LocRef? {
        get { localized?.subtitle }
        set { if newValue != nil || localized != nil { localize { $0.subtitle = newValue } } }
    }
    public var bodyLoc: LocRef? {
        get { localized?.body }
        set { if newValue != nil || localized != nil { localize { $0.body = newValue } } }
    }
    /// The three together, in their own box: nearly every push has none, and a change makes a new
    /// box; none when all three are nil.
    private var localized: Localized? {
        get { fields.localized }
        set { writable.localized = newValue }
    }

    private final class Localized: Sendable, Equatable {
        struct Fields: Equatable {
            var title, subtitle, body: LocRef?
        }
        let fields: Fields
        var title: LocRef? { fields.title }
        var subtitle: LocRef? { fields.subtitle }
        var body: LocRef? { fields.body }
        init(_ fields: Fields) { self.fields = fields }
        static func == (a: Localized, b: Localized) -> Bool { a === b || a.fields == b.fields }
    }

    /// Only when something changes: every reading sets all three, nearly always to nil where there is
    /// no box, and building and comparing a box's fields for that cost more than the rest of the setter.
    private mutating func localize(_ change: (inout Localized.Fields) -> Void) {
        var fields = localized?.fields ?? Localized.Fields()
        change(&fields)
        localized = fields == Localized.Fields() ? nil : Localized(fields)
    }
    /// What the app receives on tap (C10); the conversation keys live here. Kept where it lies in
    /// the push (`appData`); this builds the tree.
    public var data: JSONObject {
        get { appData.object }
        set { appData = AppData(newValue) }
    }
    var appData: AppData {
        get { fields.appData }
        set { writable.appData = newValue }
    }
    /// Android/web `tag`, or iOS `apns-collapse-id` (A7, W3, I4).
    public var tag: String? {
        get { fields.tag }
        set { writable.tag = newValue }
    }
    public var threadID: String? {
        get { fields.threadID }
        set { writable.threadID = newValue }
    }
    public var badge: Int? {
        get { fields.badge }
        set { writable.badge = newValue }
    }
    public var level: InterruptionLevel? {
        get { fields.level }
        set { writable.level = newValue }
    }
    public var actions: [String] {
        get { fields.actions }
        _modify {
            let own = writable
            yield &own.actions
        }
    }
    public var renotify: Bool {
        get { fields.renotify }
        set { writable.renotify = newValue }
    }
    /// I12: the picture the device would show (DESIGN "State JSON additions" lists where it is read).
    public var image: String? {
        get { fields.image }
        set { writable.image = newValue }
    }
    /// I12: APNs `category`, Android `click_action`: which action buttons the app registered.
    public var category: String? {
        get { fields.category }
        set { writable.category = newValue }
    }
    /// I11: `mutable-content: 1`: the app's Notification Service Extension may rewrite it.
    public var mutableContent: Bool {
        get { fields.mutableContent }
        set { writable.mutableContent = newValue }
    }
    /// I10: `sound` is a dictionary with `critical: 1`: a critical alert.
    public var criticalSound: Bool {
        get { fields.criticalSound }
        set { writable.criticalSound = newValue }
    }
    /// FCM's collapse key (A12, O1): legacy `collapse_key`, v1 `android.collapse_key`.
    public var collapseKey: String? {
        get { fields.collapseKey }
        set { writable.collapseKey = newValue }
    }
    /// The app the push belongs to (SPEC §1, "The app").
    public var app: String {
        get { fields.app }
        set { writable.app = newValue }
    }
    public var trace: [TraceStep] {
        get { fields.trace }
        _modify {
            let own = writable
            yield &own.trace
        }
    }

    private var box: CopyOnWrite<Fields>
    private var fields: Fields { box.read }
    private var writable: Fields { mutating get { box.writable } }

    // @unchecked: a box is changed only through `writable`, by the one content that holds it.
    private final class Fields: CopiedOnWrite, @unchecked Sendable {
        var title: String?
        var subtitle: String?
        var body: String?
        var localized: Localized?
        var appData: AppData
        var tag: String?
        var threadID: String?
        var badge: Int?
        var level: InterruptionLevel?
        var actions: [String] = []
        var renotify = false
        var image: String?
        var category: String?
        var mutableContent = false
        var criticalSound = false
        var collapseKey: String?
        var app: String
        var trace: [TraceStep] = []

        init(app: String, appData: AppData) {
            self.app = app
            self.appData = appData
        }

        func copy() -> Self { Self(copying: self) }

        required init(copying other: Fields) {
            title = other.title
            subtitle = other.subtitle
            body = other.body
            localized = other.localized
            appData = other.appData
            tag = other.tag
            threadID = other.threadID
            badge = other.badge
            level = other.level
            actions = other.actions
            renotify = other.renotify
            image = other.image
            category = other.category
            mutableContent = other.mutableContent
            criticalSound = other.criticalSound
            collapseKey = other.collapseKey
            app = other.app
            trace = other.trace
        }

        func same(as other: Fields) -> Bool {
            title == other.title && subtitle == other.subtitle && body == other.body && localized == other.localized
                && appData == other.appData && tag == other.tag && threadID == other.threadID && badge == other.badge
                && level == other.level && actions == other.actions && renotify == other.renotify && image == other.image
                && category == other.category && mutableContent == other.mutableContent
                && criticalSound == other.criticalSound && collapseKey == other.collapseKey && app == other.app
                && trace == other.trace
        }
    }

    public static func == (a: Content, b: Content) -> Bool {
        a.box.shares(with: b.box) || a.fields.same(as: b.fields)
    }

    public init(app: String, data: JSONObject = JSONObject()) {
        self.init(app: app, appData: AppData(data))
    }

    init(app: String, appData: AppData) {
        box = CopyOnWrite(Fields(app: app, appData: appData))
    }

    /// Something to show: a title, subtitle or body, literal or localizable (A11, I5).
    public var hasVisibleText: Bool {
        func present(_ s: String?) -> Bool { !(s ?? "").isEmpty }
        let f = fields
        return present(f.title) || present(f.subtitle) || present(f.body) || f.localized != nil
    }
}

/// What a push becomes on one platform.
public enum Delivery: Sendable, Equatable {
    /// The shape does not reach this platform (SPEC §1).
    case elsewhere
    /// Refused as the service or browser refuses it (I9, W3).
    case rejected(String)
    /// Delivered but not shown (A11, I5); the badge may still change (I6, A13).
    case silent(badge: Int?, why: TraceStep, content: Content?)
    /// A VoIP push: the Calls lane (I7).
    case call(Content)
    case show(Content)

    /// Whether a service holds it while the device is offline (SPEC §8): anything it would deliver.
    /// A push for another platform, or one the service refuses, never waits.
    public var waits: Bool {
        switch self {
        case .elsewhere, .rejected: return false
        case .silent, .call, .show: return true
        }
    }
}
