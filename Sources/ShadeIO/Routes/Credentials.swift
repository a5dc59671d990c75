// `--api-key` and `--server-secret` (DESIGN.md, "Keys and private files"): one rule for every route
// that takes pushes and for NDJSON over TCP. The unix socket is private to its user and needs no key.
import ShadeCore

public struct Credentials: Equatable, Sendable {
    /// With a key, every route that takes pushes requires `x-api-key: KEY`, and an NDJSON connection
    /// over TCP its first line `{"apiKey": "KEY"}`.
    public var apiKey: String?
    /// With a secret, send-to-user (seed 000's service) also requires `x-server-secret: SECRET`.
    public var serverSecret: String?

    public init(apiKey: String? = nil, serverSecret: String? = nil) {
        self.apiKey = apiKey
        self.serverSecret = serverSecret
    }

    /// Why `request` may not use `route`, or nil when it may.
    func refusal(_ request: HTTPRequest, route: Route, from connection: ConnectionInfo) -> Unauthorized? {
        guard route.takesPushes, connection.transport != .unix else { return nil }
        if let apiKey {
            guard let given = request.headers["x-api-key"] else { return .missing(header: "x-api-key", option: "--api-key") }
            guard Self.same(given, apiKey) else { return .wrong(header: "x-api-key", option: "--api-key") }
        }
        if route == .sendToUser, let serverSecret {
            guard let given = request.headers["x-server-secret"] else { return .missing(header: "x-server-secret", option: "--server-secret") }
            guard Self.same(given, serverSecret) else { return .wrong(header: "x-server-secret", option: "--server-secret") }
        }
        return nil
    }

    /// What an NDJSON connection's first line is: the key it presents, or a push.
    enum FirstLine: Equatable {
        case key(String)
        case push
    }

    /// `{"apiKey": "KEY"}`, an object with that one member, is how a stream presents the key.
    static func firstLine(_ value: JSON?) -> FirstLine {
        guard case .object(let object)? = value, object.members.count == 1, case .string(let key)? = object["apiKey"] else { return .push }
        return .key(key)
    }

    func acceptsStreamKey(_ key: String) -> Bool {
        apiKey.map { Self.same(key, $0) } ?? true
    }

    /// Whether a stream from `connection` must present the key before its first push.
    func streamNeedsKey(_ connection: ConnectionInfo) -> Bool {
        apiKey != nil && connection.transport != .unix
    }

    /// Compares in time that depends on the length only, so the answer's timing does not tell how
    /// much of a guess was right.
    static func same(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    enum Unauthorized: Equatable {
        case missing(header: String, option: String)
        case wrong(header: String, option: String)

        var message: String {
            switch self {
            case .missing(let header, let option):
                "unauthorized: this Shade was started with \(option); send it in the \(header) header"
            case .wrong(let header, let option):
                "unauthorized: \(header) is not the value this Shade was started with (\(option))"
            }
        }
    }
}
