/// The simulated receivers. Order is the order of `--platform all` columns and profiles.
public enum Platform: String, CaseIterable, Sendable, Hashable, Comparable {
    case android, ios, web

    public var displayName: String {
        switch self {
        case .android: return "Android"
        case .ios: return "iOS"
        case .web: return "Web"
        }
    }

    /// Its place in `allCases`: what orders, compares and hashes platforms, and the slot of anything
    /// kept per platform in an array. A String raw value would otherwise be hashed as its text
    /// (SipHash over "android") in every Platform-keyed dictionary, several times a push.
    public var index: Int {
        switch self {
        case .android: 0
        case .ios: 1
        case .web: 2
        }
    }

    public static func < (a: Platform, b: Platform) -> Bool {
        a.index < b.index
    }

    public static func == (a: Platform, b: Platform) -> Bool {
        a.index == b.index
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
    }
}

/// Where a push came from: `file.jsonl:7`, `-:3`, or a connection such as `tcp 127.0.0.1:5000#4`.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var line: Int?

    public init(name: String, line: Int? = nil) {
        self.name = name
        self.line = line
    }

    public var description: String { line.map { "\(name):\($0)" } ?? name }
}

/// Transport metadata: what arrived beside the payload (HTTP headers, route) or what an envelope
/// recorded of it (D1).
public struct Transport: Sendable, Equatable {
    /// The fields but the time, in one immutable box that every copy shares: a push's transport is
    /// copied into its content, its item and its delivery, and a copy is one reference, not a list of
    /// fields and three strings. A change puts the fields into a new box. The time is not in the box:
    /// it differs push by push where the rest mostly does not, so a recording's pushes share a few
    /// boxes (`Intake`) and a live push is stamped without making one.
    private final class Fields: Sendable {
        struct Values: Sendable {
            var headers: HeaderFields
            var path: String?
            var via: String?
            var channel: Channel?
        }
        let values: Values

        init(_ values: Values) { self.values = values }

        /// A transport with nothing in it (what a push read from a plain file has), shared.
        static let none = Fields(Values(headers: HeaderFields(), path: nil, via: nil, channel: nil))
    }

    private var fields: Fields

    /// The envelope's `at` as milliseconds since the epoch, when it parses.
    public var atMillis: Int64? {
        get { time.millis }
        set {
            // Text read off the old milliseconds is kept as it was.
            if case .ofMillis = time.text { time.text = .written(time.at!) }
            time.millis = newValue
        }
    }

    /// `at` as written beside its milliseconds. Nearly every `at` is what `Timestamp.iso8601` writes
    /// of its milliseconds (every live stamp and every recorded one is): that text is not kept but
    /// written again when asked for, which only a recording and the inspector do.
    private struct Time: Sendable, Equatable {
        enum Text: Sendable, Equatable {
            case none
            case ofMillis
            case written(String)
        }
        var millis: Int64?
        var text: Text = .none

        var at: String? {
            switch text {
            case .none: nil
            case .ofMillis: millis.map(Timestamp.iso8601(millis:))
            case .written(let at): at
            }
        }
    }
    private var time: Time

    /// A change to one field: the others go into the new box as they are.
    private mutating func update(_ change: (inout Fields.Values) -> Void) {
        var values = fields.values
        change(&values)
        fields = Fields(values)
    }

    /// Header names are lower-cased (HTTP/2, which APNs uses, has only lower-case names).
    public var headers: HeaderFields {
        get { fields.values.headers }
        set { update { $0.headers = newValue } }
    }
    public var path: String? {
        get { fields.values.path }
        set { update { $0.path = newValue } }
    }
    public var via: String? {
        get { fields.values.via }
        set { update { $0.via = newValue } }
    }
    /// The envelope's `at` as written, and as milliseconds since the epoch when it parses.
    public var at: String? {
        get { time.at }
        set { time.text = newValue.map { .written($0) } ?? .none }
    }
    /// The milliseconds `at` is written from when it keeps no text of its own (it is what
    /// `Timestamp.iso8601` writes of them): a writer can then write it with no string made.
    public var atWrittenFromMillis: Int64? {
        if case .ofMillis = time.text { return time.millis }
        return nil
    }

    /// The time a live push was received, in milliseconds, its text what `Timestamp.iso8601` writes.
    public mutating func stamp(millis: Int64) {
        time = Time(millis: millis, text: .ofMillis)
    }

    /// How a live push reached Shade (protocol, TLS, proxy); nil for pushes read from files.
    public var channel: Channel? {
        get { fields.values.channel }
        set { update { $0.channel = newValue } }
    }
    /// Whether it came in cleartext HTTP/1.1 or NDJSON straight to Shade, or from a file
    /// (`Channel.isPlain`): asked of every push the log writes, without copying the channel out.
    public var hasPlainChannel: Bool { fields.values.channel?.isPlain ?? true }
    /// Whether it came by `channel`, compared where the transport keeps it: the log asks it of every
    /// push, and a connection's pushes share one channel box, so the answer is mostly one comparison.
    public func hasChannel(_ channel: Channel?) -> Bool { fields.values.channel == channel }

    public init(headers: HeaderFields = HeaderFields(), path: String? = nil, via: String? = nil, at: String? = nil, atMillis: Int64? = nil,
                channel: Channel? = nil) {
        time = Time(millis: atMillis ?? at.flatMap(Timestamp.millis(fromISO8601:)), text: at.map { .written($0) } ?? .none)
        if headers.isEmpty && path == nil && via == nil && channel == nil {
            fields = .none
            return
        }
        // Names are lower-case already nearly always (an envelope's are, HTTP/2's are): then the
        // fields are kept as they are rather than rebuilt per push.
        var lowered = headers
        if !headers.allSatisfy({ UTF8Text.isLowercaseASCII($0.key) }) {
            lowered = HeaderFields(minimumCapacity: headers.count)
            for (name, value) in headers { lowered[name.lowercased()] = value }
        }
        fields = Fields(Fields.Values(headers: lowered, path: path, via: via, channel: channel))
    }

    /// This transport's fields with the time of an `at` written as `text`: its milliseconds when it
    /// parses (else `fallback`'s), and no text kept when it is what `Timestamp.iso8601` writes of
    /// them. The fields' box is shared, not copied.
    public func at(_ text: UnsafeBufferPointer<UInt8>, orMillis fallback: Int64?) -> Transport {
        var copy = self
        let millis = Timestamp.millis(fromISO8601: text)
        copy.time = Time(millis: millis ?? fallback,
                         text: millis != nil && Timestamp.isWrittenForm(text) ? .ofMillis : .written(String(decoding: text, as: UTF8.self)))
        return copy
    }

    /// Whether this transport's fields but the time are these, header order included: then its box
    /// can stand for a new one's.
    public func hasFields(headers: HeaderFields, path: String?, via: String?, channel: Channel?) -> Bool {
        hasFields(path: path, via: via, channel: channel) && fields.values.headers.isIdentical(to: headers)
    }

    /// Whether this transport's fields but the headers and the time are these.
    public func hasFields(path: String?, via: String?, channel: Channel?) -> Bool {
        let values = fields.values
        return values.path == path && values.via == via && values.channel == channel
    }

    /// This transport's fields with `other`'s time.
    public func withTime(of other: Transport) -> Transport {
        var copy = self
        copy.time = other.time
        return copy
    }

    public static func == (a: Transport, b: Transport) -> Bool {
        (a.fields === b.fields || (a.headers == b.headers && a.path == b.path && a.via == b.via && a.channel == b.channel))
            && a.atMillis == b.atMillis && a.at == b.at
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Headers an envelope may carry: push metadata, never credentials (DESIGN: recording).
    public static let credentialHeaders: Set<String> = ["authorization", "x-api-key", "x-server-secret", "cookie", "proxy-authorization"]
}

/// One received payload with its transport metadata: the unit every counter counts.
///
/// Its fields lie in a box its copies share until one changes (copy on write): a push is copied into
/// its outcome, its admission, its arrival and each center's newest item, and inline each copy
/// retained its store, transport, source and notes one by one (DECISIONS 135).
public struct Push: Sendable, Equatable {
    /// 1-based arrival number: stable ids for replies, traces and generated item keys.
    public var id: Int {
        get { fields.id }
        _modify {
            let own = writable
            yield &own.id
        }
    }
    /// The payload as received: its bytes and tape, which every reading reads in place.
    public var store: PayloadStore {
        get { fields.store }
        _modify {
            let own = writable
            yield &own.store
        }
    }
    public var shape: PayloadShape {
        get { fields.shape }
        _modify {
            let own = writable
            yield &own.shape
        }
    }
    public var transport: Transport {
        get { fields.transport }
        _modify {
            let own = writable
            yield &own.transport
        }
    }
    public var source: SourcePosition {
        get { fields.source }
        _modify {
            let own = writable
            yield &own.source
        }
    }
    /// What the route that took the push noticed beside its payload: how a Web Push body was read,
    /// what a real service would have answered where Shade let it through. Shown by the inspector and
    /// the headless log; not recorded (a recording holds what the device got).
    public var notes: [String] {
        get { fields.notes }
        _modify {
            let own = writable
            yield &own.notes
        }
    }

    private var box: CopyOnWrite<Fields>
    private var fields: Fields { box.read }
    private var writable: Fields { mutating get { box.writable } }

    // @unchecked: a box is changed only through `writable`, by the one push that holds it.
    private final class Fields: CopiedOnWrite, @unchecked Sendable {
        var id: Int
        var store: PayloadStore
        var shape: PayloadShape
        var transport: Transport
        var source: SourcePosition
        var notes: [String] = []

        init(id: Int, store: PayloadStore, shape: PayloadShape, transport: Transport, source: SourcePosition) {
            self.id = id
            self.store = store
            self.shape = shape
            self.transport = transport
            self.source = source
        }

        func copy() -> Self { Self(copying: self) }

        required init(copying other: Fields) {
            id = other.id
            store = other.store
            shape = other.shape
            transport = other.transport
            source = other.source
            notes = other.notes
        }
    }

    public init(id: Int, payload: JSON, shape: PayloadShape, transport: Transport = Transport(), source: SourcePosition) {
        self.init(id: id, store: PayloadStore.make(payload), shape: shape, transport: transport, source: source)
    }

    public init(id: Int, store: PayloadStore, shape: PayloadShape, transport: Transport = Transport(), source: SourcePosition) {
        box = CopyOnWrite(Fields(id: id, store: store, shape: shape, transport: transport, source: source))
    }

    /// The payload as a tree, built from the bytes each time it is read (the inspector, lint, a
    /// recording): the readings that decide what a device shows never build one.
    public var payload: JSON {
        get { store.json }
        set { store = PayloadStore.make(newValue) }
    }

    /// The payload's root, read in place, valid inside `body` only.
    public func withPayload<R>(_ body: (PayloadValue) throws -> R) rethrows -> R {
        try store.withRoot { try body(.view($0)) }
    }

    /// Two pushes are equal when they hold the same payload, however it was written.
    public static func == (a: Push, b: Push) -> Bool {
        if a.box.shares(with: b.box) { return true }
        return a.id == b.id && a.shape == b.shape && a.transport == b.transport && a.source == b.source && a.notes == b.notes
            && (a.store === b.store || a.payload == b.payload)
    }

    /// The envelope's `via` of pushes a browser's service worker received through a Web Push subscription.
    public static let webPushVia = "webpush"

    /// Whether the push reaches `platform` (SPEC §1): its shape's platforms, narrowed by what the
    /// payload holds (FCM legacy on iOS, D9's blocks). A Web Push message went to one browser, so
    /// whatever its plaintext's shape it reaches the web profile only.
    public func reaches(_ platform: Platform) -> Bool {
        if transport.via == Self.webPushVia { return platform == .web }
        return withPayload { shape.reaches(platform, in: $0) }
    }

    /// The platforms it reaches; the others count it as `elsewhere`.
    public var platforms: Set<Platform> { Set(Platform.allCases.filter(reaches)) }

    /// The one platform it reaches, when it reaches one only (asked of every live push, without a set).
    public var onlyPlatform: Platform? {
        var found: Platform?
        for platform in Platform.allCases where reaches(platform) {
            guard found == nil else { return nil }
            found = platform
        }
        return found
    }
}

/// A push that never reached any profile: invalid JSON or an unknown shape (SPEC §1).
public struct Rejection: Sendable, Equatable {
    public var source: SourcePosition
    public var reason: String
    /// The platforms it was on its way to, when the way told (a request to APNs reaches iOS only);
    /// nil: every platform. The others count it `elsewhere`.
    public var reaches: Set<Platform>?

    public init(source: SourcePosition, reason: String, reaches: Set<Platform>? = nil) {
        self.source = source
        self.reason = reason
        self.reaches = reaches
    }
}
