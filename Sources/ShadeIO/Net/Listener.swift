// Listening sockets: a unix-domain socket file and a loopback TCP port.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A bound, listening, nonblocking socket. A value: ownership passes to the `PollLoop` it is added to,
/// which closes it on shutdown (and removes the socket file).
public struct Listener: Equatable, Hashable, Sendable {
    /// Where it listens; for TCP with port 0, the port the system picked.
    public let endpoint: Endpoint
    public let fd: Int32
    /// Device and inode of the socket file we created, so `close` removes only our own file.
    let socketFile: FileIdentity?

    struct FileIdentity: Equatable, Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Listens on a unix socket at `path` with mode 0600. A socket file that nobody answers on (left by a
    /// crashed Shade) is replaced; a live one is an error, as is a path that is not a socket.
    public static func unix(path: String) throws(SocketError) -> Listener {
        let endpoint = Endpoint.unix(path: path)
        _ = try SocketAddress.unix(path)   // length check before touching the file system
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw SocketError("\(path) exists and is not a socket — remove it or choose another --socket")
            }
            if try isAnswering(endpoint) {
                throw SocketError("another Shade is listening on \(path) — stop it, or choose another --socket")
            }
            if unlink(path) != 0 && errno != ENOENT { throw .system("cannot remove the stale socket", endpoint) }
        }

        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system("cannot create a socket for", endpoint) }
        do throws(SocketError) {
            let bound = try SocketAddress.with(endpoint) { bind(fd, $0, $1) }
            guard bound == 0 else { throw .system("cannot bind", endpoint) }
            // Before listen(), so no client can connect while the file is still world-accessible.
            guard chmod(path, 0o600) == 0 else { throw .system("cannot set mode 0600 on", endpoint) }
            guard listen(fd, 128) == 0 else { throw .system("cannot listen on", endpoint) }
            Descriptor.makeNonblocking(fd)
            var created = stat()
            let identity = lstat(path, &created) == 0
                ? FileIdentity(device: UInt64(created.st_dev), inode: UInt64(created.st_ino)) : nil
            Descriptor.ignoreSIGPIPE()
            return Listener(endpoint: endpoint, fd: fd, socketFile: identity)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Listens on TCP `host:port` (127.0.0.1 unless told otherwise); port 0 picks a free port,
    /// reported in `endpoint`.
    public static func tcp(port: UInt16, host: String = "127.0.0.1") throws(SocketError) -> Listener {
        let requested = Endpoint.tcp(host: host, port: port)
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system("cannot create a socket for", requested) }
        do throws(SocketError) {
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            let bound = try SocketAddress.with(requested) { bind(fd, $0, $1) }
            guard bound == 0 else {
                if errno == EADDRINUSE {
                    throw SocketError("port \(port) on \(host) is in use (another Shade or another program) — "
                        + "choose another --port, or --port 0 for a free one", code: EADDRINUSE)
                }
                throw .system("cannot bind", requested)
            }
            guard listen(fd, 128) == 0 else { throw .system("cannot listen on", requested) }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw .system("cannot read the port of", requested) }
            let actualPort: UInt16 = withUnsafePointer(to: &storage) { pointer in
                family == AF_INET6
                    ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                    : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
            Descriptor.makeNonblocking(fd)
            Descriptor.ignoreSIGPIPE()
            return Listener(endpoint: .tcp(host: host, port: actualPort), fd: fd, socketFile: nil)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Closes the socket and, for a unix socket, removes its file if it is still the one we created
    /// (another Shade may have replaced it meanwhile).
    public func close() {
        Glibc.close(fd)
        guard case .unix(let path) = endpoint, let socketFile else { return }
        var status = stat()
        if lstat(path, &status) == 0, UInt64(status.st_dev) == socketFile.device, UInt64(status.st_ino) == socketFile.inode {
            unlink(path)
        }
    }

    /// Whether something accepts connections at `endpoint` (a nonblocking connect, so a full backlog
    /// counts as "answering" instead of blocking).
    static func isAnswering(_ endpoint: Endpoint) throws(SocketError) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { throw .system("cannot create a socket for", endpoint) }
        defer { Glibc.close(probe) }
        Descriptor.makeNonblocking(probe)
        let result = try SocketAddress.with(endpoint) { connect(probe, $0, $1) }
        if result == 0 { return true }
        switch errno {
        case EAGAIN, EINPROGRESS: return true
        case ECONNREFUSED, ENOENT: return false
        default: throw .system("cannot check", endpoint)
        }
    }
}
