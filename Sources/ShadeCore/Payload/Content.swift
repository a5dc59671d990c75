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
public struct Content: Sendable, Equatable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
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
    /// The three together, in one box shared by copies: nearly every push has none, and held inline
    /// they were 144 of a content's bytes, copied and checked each time a content is (several times a
    /// push and platform). A change makes a new box; none when all three are nil.
    private var localized: Localized?

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
    var appData: AppData
    /// Android/web `tag`, or iOS `apns-collapse-id` (A7, W3, I4).
    public var tag: String?
    public var threadID: String?
    public var badge: Int?
    public var level: InterruptionLevel?
    public var actions: [String]
    public var renotify: Bool
    /// I12: the picture the device would show (DESIGN "State JSON additions" lists where it is read).
    public var image: String?
    /// I12: APNs `category`, Android `click_action`: which action buttons the app registered.
    public var category: String?
    /// I11: `mutable-content: 1`: the app's Notification Service Extension may rewrite it.
    public var mutableContent: Bool
    /// I10: `sound` is a dictionary with `critical: 1`: a critical alert.
    public var criticalSound: Bool
    /// FCM's collapse key (A12, O1): legacy `collapse_key`, v1 `android.collapse_key`.
    public var collapseKey: String?
    /// The app the push belongs to (SPEC §1, "The app").
    public var app: String
    public var trace: [TraceStep]

    public init(app: String, data: JSONObject = JSONObject()) {
        self.init(app: app, appData: AppData(data))
    }

    init(app: String, appData: AppData) {
        self.app = app
        self.appData = appData
        self.actions = []
        self.renotify = false
        self.mutableContent = false
        self.criticalSound = false
        self.trace = []
    }

    /// Something to show: a title, subtitle or body, literal or localizable (A11, I5).
    public var hasVisibleText: Bool {
        func present(_ s: String?) -> Bool { !(s ?? "").isEmpty }
        return present(title) || present(subtitle) || present(body) || localized != nil
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
