// The CONNECT proxy's decisions: which hosts Shade answers itself and what happens to the others.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

public struct ProxyPolicy: Equatable, Sendable {
    /// The push services' hosts: APNs (production, development, the old sandbox name), FCM, Google's
    /// OAuth token endpoint (FCM v1 clients fetch a token there first) and Expo.
    public static let serviceHosts = [
        "api.push.apple.com", "api.development.push.apple.com", "api.sandbox.push.apple.com",
        "fcm.googleapis.com", "oauth2.googleapis.com", "exp.host",
    ]

    /// Hosts whose tunnels Shade serves with its own routes (lower-cased).
    public var intercepted: Set<String>
    /// Tunnels to any other host are relayed (false: refused with 403).
    public var relays: Bool

    public init(extraHosts: [String] = [], relays: Bool = true) {
        intercepted = Set((Self.serviceHosts + extraHosts).map { $0.lowercased() })
        self.relays = relays
    }

    /// Why `host` cannot be intercepted (`--intercept`), or nil.
    public static func problem(withHost host: String) -> String? {
        HostName.isAcceptable(host) ? nil
            : "\(host) is not a host name: give one such as api.example.com (letters, digits, - and .)"
    }

    public func intercepts(_ host: String) -> Bool {
        intercepted.contains(host.lowercased())
    }
}

/// `host:port` of a CONNECT request (`[::1]:443` for IPv6).
struct ConnectTarget: Equatable {
    var host: String
    var port: UInt16

    init?(_ authority: String) {
        var text = Substring(authority)
        let host: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            text = text[text.index(after: close)...]
            guard text.hasPrefix(":") else { return nil }
            text = text.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            text = text[text.index(after: colon)...]
        }
        guard let port = UInt16(text), port > 0, HostName.isAcceptable(String(host)) else { return nil }
        self.host = host.lowercased()
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A TCP tunnel to an upstream server: bytes in both directions, unchanged. The connect is nonblocking;
/// name resolution (`getaddrinfo`) is not, which only matters for a slow resolver.
final class Relay {
    let fd: Int32
    let target: ConnectTarget
    /// Nonblocking connect still in progress.
    var isConnecting = true
    /// From the client, not yet written to the upstream server.
    var toUpstream: [UInt8] = []
    var toUpstreamStart = 0
    var upstreamEnded = false

    private init(fd: Int32, target: ConnectTarget) {
        self.fd = fd
        self.target = target
    }

    deinit { Glibc.close(fd) }

    /// Starts connecting to `target`; nil with a reason when the name does not resolve or no socket can be made.
    static func open(_ target: ConnectTarget) -> Result<Relay, RelayError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(RelayError("cannot resolve \(target.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failure(RelayError("cannot make a socket: \(String(cString: strerror(errno)))")) }
        Descriptor.makeNonblocking(fd)
        let relay = Relay(fd: fd, target: target)
        if connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 {
            relay.isConnecting = false
        } else if errno != EINPROGRESS {
            return .failure(RelayError("cannot connect to \(target.description): \(String(cString: strerror(errno)))"))
        }
        return .success(relay)
    }

    /// After POLLOUT while connecting: nil when connected, else why not.
    func finishConnecting() -> RelayError? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        if error != 0 { return RelayError("cannot connect to \(target.description): \(String(cString: strerror(error)))") }
        isConnecting = false
        return nil
    }

    var pendingToUpstream: Int { toUpstream.count - toUpstreamStart }

    /// Writes what the upstream server takes now; false when it is gone.
    func flushToUpstream() -> Bool {
        while toUpstreamStart < toUpstream.count {
            let sent = toUpstream.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + toUpstreamStart, raw.count - toUpstreamStart, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { toUpstreamStart += sent; continue }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            return false
        }
        toUpstream.removeAll(keepingCapacity: true)
        toUpstreamStart = 0
        return true
    }
}

struct RelayError: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
