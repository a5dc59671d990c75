// Where Shade listens and where `shade send` connects: a unix socket path or a loopback TCP port.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

public enum Endpoint: Equatable, Hashable, Sendable, CustomStringConvertible {
    case unix(path: String)
    case tcp(host: String, port: UInt16)

    /// TCP on 127.0.0.1: the only place Shade listens unless told otherwise (it takes unauthenticated pushes).
    public static func loopback(port: UInt16) -> Endpoint {
        .tcp(host: "127.0.0.1", port: port)
    }

    public var description: String {
        switch self {
        case .unix(let path): path
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// The default socket's directory: `$XDG_RUNTIME_DIR/shade` (the runtime directory is the user's,
    /// cleaned at logout), else `/tmp/shade-UID`. `listen` makes it private (0700) and refuses it when
    /// another user owns it: a socket straight in /tmp could be made first by anyone.
    public static func defaultSocketDirectory(environment: [String: String], uid: UInt32 = getuid()) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {   // the XDG spec ignores relative ones
            return DataDirectory.join(runtime, "shade")
        }
        return "/tmp/shade-\(uid)"
    }

    public static func defaultSocketPath(environment: [String: String], uid: UInt32 = getuid()) -> String {
        DataDirectory.join(defaultSocketDirectory(environment: environment, uid: uid), "shade.sock")
    }

    /// The same from the process environment.
    public static func defaultSocketDirectory() -> String {
        defaultSocketDirectory(environment: ProcessEnvironment.current)
    }

    public static func defaultSocketPath() -> String {
        defaultSocketPath(environment: ProcessEnvironment.current)
    }
}

/// A failed socket operation, worded for the person who has to fix it.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// errno when a system call failed.
    public var code: Int32?

    public init(_ message: String, code: Int32? = nil) {
        self.message = message
        self.code = code
    }

    public var description: String { message }

    static func system(_ what: String, _ endpoint: Endpoint, code: Int32 = errno) -> SocketError {
        SocketError("\(what) \(endpoint): \(String(cString: strerror(code)))", code: code)
    }
}

/// sockaddr plumbing shared by listeners and the client.
enum SocketAddress {
    /// `sun_path` holds 108 bytes, one of them the terminating NUL.
    static let maxUnixPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    static func unix(_ path: String) throws(SocketError) -> sockaddr_un {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw SocketError("the socket path is empty") }
        guard bytes.count <= maxUnixPathBytes else {
            throw SocketError("socket path is \(bytes.count) bytes, longer than the \(maxUnixPathBytes) a unix socket "
                + "path can hold: \(path) — choose a shorter path with --socket")
        }
        guard !bytes.contains(0) else { throw SocketError("the socket path contains a NUL byte") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return address
    }

    /// Calls `body` with the address of `endpoint` as a `sockaddr` and its length.
    static func with<R>(_ endpoint: Endpoint, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(SocketError) -> R {
        switch endpoint {
        case .unix(let path):
            var address = try unix(path)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        case .tcp(let host, let port):
            if host.contains(":") {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                    throw SocketError("\(host) is not an IPv6 address")
                }
                return withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                    }
                }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                throw SocketError("\(host) is not an IPv4 address (give an address such as 127.0.0.1, not a host name)")
            }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    private static func cText(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "127.0.0.1:51234" for an accepted TCP peer.
    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var addr = address.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                    return "\(cText(text)):\(UInt16(bigEndian: address.pointee.sin_port))"
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var addr = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
                    return "[\(cText(text))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
                }
            }
        default:
            return "unknown"
        }
    }
}

/// File-descriptor flags that Glibc's missing accept4/SOCK_NONBLOCK would otherwise set.
enum Descriptor {
    static func makeNonblocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    static func makeBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
    }

    /// A write to a peer that has gone must fail with EPIPE, not kill the process.
    static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }
}
