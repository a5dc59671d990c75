/// How a live push travelled to Shade: the framing, whether TLS carried it and for which host name,
/// and whether it came through the CONNECT proxy. Facts for the inspector and the log only: no rule
/// depends on them, and recordings do not hold them (a replayed push has none).
public struct Channel: Sendable, Hashable, CustomStringConvertible {
    public enum Framing: String, Sendable, Hashable {
        case ndjson = "NDJSON"
        case http1 = "HTTP/1.1"
        case http2 = "HTTP/2"
    }

    /// The facts, in one immutable box that every copy shares: a connection makes its channel once and
    /// each of its pushes carries it, so a copy is one retain, and the log, which compares each push's
    /// channel with the last one's, finds the same box without comparing strings. A change makes a new box.
    private final class Fields: Sendable {
        let framing: Framing
        let tls: String?
        let serverName: String?
        let proxiedTo: String?
        let isUnixSocket: Bool

        init(framing: Framing, tls: String?, serverName: String?, proxiedTo: String?, isUnixSocket: Bool) {
            self.framing = framing
            self.tls = tls
            self.serverName = serverName
            self.proxiedTo = proxiedTo
            self.isUnixSocket = isUnixSocket
        }
    }

    private var fields: Fields

    public var framing: Framing {
        get { fields.framing }
        set { self = Channel(framing: newValue, tls: tls, serverName: serverName, proxiedTo: proxiedTo, isUnixSocket: isUnixSocket) }
    }
    /// The TLS version (`TLSv1.3`), nil for cleartext.
    public var tls: String? {
        get { fields.tls }
        set { self = Channel(framing: framing, tls: newValue, serverName: serverName, proxiedTo: proxiedTo, isUnixSocket: isUnixSocket) }
    }
    /// The SNI name the client asked for, nil when it sent none (or for cleartext).
    public var serverName: String? {
        get { fields.serverName }
        set { self = Channel(framing: framing, tls: tls, serverName: newValue, proxiedTo: proxiedTo, isUnixSocket: isUnixSocket) }
    }
    /// The `host:port` of the CONNECT request that opened the tunnel, nil when the client came directly.
    public var proxiedTo: String? {
        get { fields.proxiedTo }
        set { self = Channel(framing: framing, tls: tls, serverName: serverName, proxiedTo: newValue, isUnixSocket: isUnixSocket) }
    }
    /// A unix-socket connection (always cleartext).
    public var isUnixSocket: Bool {
        get { fields.isUnixSocket }
        set { self = Channel(framing: framing, tls: tls, serverName: serverName, proxiedTo: proxiedTo, isUnixSocket: newValue) }
    }

    public init(framing: Framing, tls: String? = nil, serverName: String? = nil, proxiedTo: String? = nil, isUnixSocket: Bool = false) {
        fields = Fields(framing: framing, tls: tls, serverName: serverName, proxiedTo: proxiedTo, isUnixSocket: isUnixSocket)
    }

    /// Equal facts, the same box first.
    public static func == (a: Channel, b: Channel) -> Bool {
        a.fields === b.fields || (a.framing == b.framing && a.tls == b.tls && a.serverName == b.serverName
            && a.proxiedTo == b.proxiedTo && a.isUnixSocket == b.isUnixSocket)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(framing)
        hasher.combine(tls)
        hasher.combine(serverName)
        hasher.combine(proxiedTo)
        hasher.combine(isUnixSocket)
    }

    /// HTTP/1.1 or NDJSON in cleartext, straight to Shade: how curl and `shade send` come, not worth a word in the log.
    public var isPlain: Bool { tls == nil && proxiedTo == nil && framing != .http2 }

    /// `HTTP/2 over TLS`, `HTTP/1.1 cleartext`, `NDJSON on the unix socket`.
    public var protocolText: String {
        if isUnixSocket { return "\(framing.rawValue) on the unix socket" }
        return framing.rawValue + (tls.map { " over TLS (\($0))" } ?? " cleartext")
    }

    /// `HTTP/2 over TLS (TLSv1.3), SNI api.push.apple.com, through the proxy (CONNECT api.push.apple.com:443)`.
    public var description: String {
        var text = protocolText
        if tls != nil { text += serverName.map { ", SNI \($0)" } ?? ", no SNI" }
        if let proxiedTo { text += ", through the proxy (CONNECT \(proxiedTo))" }
        return text
    }
}
