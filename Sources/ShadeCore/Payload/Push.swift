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

    public static func < (a: Platform, b: Platform) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
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
    /// Header names are lower-cased (HTTP/2, which APNs uses, has only lower-case names).
    public var headers: [String: String]
    public var path: String?
    public var via: String?
    /// The envelope's `at` as written, and as milliseconds since the epoch when it parses.
    public var at: String?
    public var atMillis: Int64?
    /// How a live push reached Shade (protocol, TLS, proxy); nil for pushes read from files.
    public var channel: Channel?

    public init(headers: [String: String] = [:], path: String? = nil, via: String? = nil, at: String? = nil, atMillis: Int64? = nil,
                channel: Channel? = nil) {
        // Names are lower-case already nearly always (an envelope's are, HTTP/2's are): then the
        // dictionary is kept as it is rather than rebuilt per push.
        if headers.keys.allSatisfy(Transport.isLowercased) {
            self.headers = headers
        } else {
            self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        }
        self.path = path
        self.via = via
        self.at = at
        self.atMillis = atMillis ?? at.flatMap(Timestamp.millis(fromISO8601:))
        self.channel = channel
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// A header name as stored: lower-cased, without making a new string when it is already.
    static func lowercasedName(_ name: String) -> String { isLowercased(name) ? name : name.lowercased() }

    /// ASCII with no upper-case letter: `lowercased()` would give the same string. (Non-ASCII names
    /// take the general path, whose case mapping is Unicode's.)
    static func isLowercased(_ name: String) -> Bool {
        name.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
    }

    /// Headers an envelope may carry: push metadata, never credentials (DESIGN: recording).
    public static let credentialHeaders: Set<String> = ["authorization", "x-api-key", "x-server-secret", "cookie", "proxy-authorization"]
}

/// One received payload with its transport metadata: the unit every counter counts.
public struct Push: Sendable, Equatable {
    /// 1-based arrival number: stable ids for replies, traces and generated item keys.
    public var id: Int
    public var payload: JSON
    public var shape: PayloadShape
    public var transport: Transport
    public var source: SourcePosition
    /// What the route that took the push noticed beside its payload: how a Web Push body was read,
    /// what a real service would have answered where Shade let it through. Shown by the inspector and
    /// the headless log; not recorded (a recording holds what the device got).
    public var notes: [String] = []

    public init(id: Int, payload: JSON, shape: PayloadShape, transport: Transport = Transport(), source: SourcePosition) {
        self.id = id
        self.payload = payload
        self.shape = shape
        self.transport = transport
        self.source = source
    }

    /// The envelope's `via` of pushes a browser's service worker received through a Web Push subscription.
    public static let webPushVia = "webpush"

    /// Whether the push reaches `platform` (SPEC §1): its shape's platforms, narrowed by what the
    /// payload holds (FCM legacy on iOS, D9's blocks). A Web Push message went to one browser, so
    /// whatever its plaintext's shape it reaches the web profile only.
    public func reaches(_ platform: Platform) -> Bool {
        transport.via == Self.webPushVia ? platform == .web : shape.reaches(platform, payload: payload)
    }

    /// The platforms it reaches; the others count it as `elsewhere`.
    public var platforms: Set<Platform> { Set(Platform.allCases.filter(reaches)) }
}

/// A push that never reached any profile: invalid JSON or an unknown shape (SPEC §1).
public struct Rejection: Sendable, Equatable {
    public var source: SourcePosition
    public var reason: String

    public init(source: SourcePosition, reason: String) {
        self.source = source
        self.reason = reason
    }
}
