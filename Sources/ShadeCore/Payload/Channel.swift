/// How a live push travelled to Shade: the framing, whether TLS carried it and for which host name,
/// and whether it came through the CONNECT proxy. Facts for the inspector and the log only: no rule
/// depends on them, and recordings do not hold them (a replayed push has none).
public struct Channel: Sendable, Hashable, CustomStringConvertible {
    public enum Framing: String, Sendable, Hashable {
        case ndjson = "NDJSON"
        case http1 = "HTTP/1.1"
        case http2 = "HTTP/2"
    }

    public var framing: Framing
    /// The TLS version (`TLSv1.3`), nil for cleartext.
    public var tls: String?
    /// The SNI name the client asked for, nil when it sent none (or for cleartext).
    public var serverName: String?
    /// The `host:port` of the CONNECT request that opened the tunnel, nil when the client came directly.
    public var proxiedTo: String?
    /// A unix-socket connection (always cleartext).
    public var isUnixSocket: Bool

    public init(framing: Framing, tls: String? = nil, serverName: String? = nil, proxiedTo: String? = nil, isUnixSocket: Bool = false) {
        self.framing = framing
        self.tls = tls
        self.serverName = serverName
        self.proxiedTo = proxiedTo
        self.isUnixSocket = isUnixSocket
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
