// The CONNECT proxy's decisions: which hosts Shade answers itself and what happens to the others.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Dispatch
import Synchronization

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
        // Digits only: `UInt16` alone takes "+443", which no proxy or URL reads as a port.
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let port = UInt16(text), port > 0, HostName.isAcceptable(String(host)) else { return nil }
        self.host = host.lowercased()
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The answer to a CONNECT whose authority is not `host:port` (echoing it, through the one gate).
    static func refusal(of authority: String) -> HTTPResponse {
        HTTPResponse.error(status: 400, "CONNECT needs host:port, such as CONNECT api.push.apple.com:443; got \(authority)")
    }
}

/// A TCP tunnel to an upstream server: bytes in both directions, unchanged. The name is looked up off
/// the loop (`HostResolver`) and the connect is nonblocking, so a slow upstream never stalls other clients.
final class Relay {
    enum Phase: Equatable {
        case resolving
        case connecting
        case open
    }

    let target: ConnectTarget
    private(set) var fd: Int32 = -1
    private(set) var phase = Phase.resolving
    /// From the client, not yet written to the upstream server.
    var toUpstream: [UInt8] = []
    var toUpstreamStart = 0
    var upstreamEnded = false

    init(target: ConnectTarget) {
        self.target = target
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Addresses still to try when the one being connected to refuses (`localhost` is `::1` and `127.0.0.1`).
    private var untried: [ResolvedAddress] = []

    /// Starts the nonblocking connect to the first of `addresses` that does not fail at once; the others
    /// are tried in turn if it refuses later. An error when none is left.
    func connect(to addresses: [ResolvedAddress]) -> RelayError? {
        untried = addresses
        var failure = RelayError("cannot connect to \(target.description): no address")
        while !untried.isEmpty {
            guard let error = connect(to: untried.removeFirst()) else { return nil }
            failure = error
        }
        return failure
    }

    private func connect(to address: ResolvedAddress) -> RelayError? {
        if fd >= 0 { Glibc.close(fd) }
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return RelayError("cannot make a socket: \(String(cString: strerror(errno)))") }
        Descriptor.makeNonblocking(fd)
        let result = address.bytes.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if result == 0 {
            phase = .open
        } else if errno == EINPROGRESS {
            phase = .connecting
        } else {
            return RelayError("cannot connect to \(target.description): \(String(cString: strerror(errno)))")
        }
        return nil
    }

    /// After POLLOUT while connecting: nil when connected or trying the next address (`phase` says
    /// which), else why not.
    func finishConnecting() -> RelayError? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error != 0 else {
            phase = .open
            return nil
        }
        let failure = RelayError("cannot connect to \(target.description): \(String(cString: strerror(error)))")
        return untried.isEmpty ? failure : connect(to: untried)
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

/// A socket address as `getaddrinfo` gave it.
struct ResolvedAddress: Equatable, Sendable {
    var family: Int32
    var bytes: [UInt8]
}

/// Host-name lookups for relays. `getaddrinfo` blocks (for seconds, with a slow resolver), so each runs on
/// a background queue and its result comes back to the loop's thread through a pipe the loop polls.
final class HostResolver: Sendable {
    let readFD: Int32
    private let writeFD: Int32
    private let finished = Mutex<[(id: Int, result: Result<[ResolvedAddress], RelayError>)]>([])

    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        readFD = ends[0]
        writeFD = ends[1]
        Descriptor.makeNonblocking(readFD)
        Descriptor.makeNonblocking(writeFD)
    }

    deinit {
        Glibc.close(readFD)
        Glibc.close(writeFD)
    }

    /// Looks `target` up in the background for connection `id`; `takeFinished` hands the results over.
    func resolve(_ target: ConnectTarget, for id: Int) {
        DispatchQueue.global().async { [self] in
            let result = Self.lookUp(target)
            finished.withLock { $0.append((id, result)) }
            var byte: UInt8 = 1
            _ = write(writeFD, &byte, 1)   // a full pipe already means "look"
        }
    }

    func takeFinished() -> [(id: Int, result: Result<[ResolvedAddress], RelayError>)] {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(readFD, &scratch, scratch.count) > 0 {}
        return finished.withLock { results in
            defer { results = [] }
            return results
        }
    }

    /// The addresses of `target`, in the order to try them (blocking; immediate for an IP address).
    static func lookUp(_ target: ConnectTarget) -> Result<[ResolvedAddress], RelayError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard status == 0, let first = list, let address = first.pointee.ai_addr else {
            return .failure(RelayError("cannot resolve \(target.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses = [ResolvedAddress(family: first.pointee.ai_family,
                                         bytes: Array(UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen))))]
        var next = first.pointee.ai_next
        while let entry = next {
            if let address = entry.pointee.ai_addr {
                addresses.append(ResolvedAddress(family: entry.pointee.ai_family,
                                                 bytes: Array(UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))))
            }
            next = entry.pointee.ai_next
        }
        return .success(addresses)
    }
}

struct RelayError: Error, Equatable, Sendable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
