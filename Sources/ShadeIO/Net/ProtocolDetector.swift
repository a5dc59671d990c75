// Which protocol a connection speaks, told from its first bytes (DESIGN.md, "one port, every protocol").

enum DetectedProtocol: Equatable {
    case ndjson
    /// HTTP/2 with prior knowledge: the client began with the connection preface.
    case http2
    /// A TLS record (0x16, handshake) begins the stream.
    case tls
    case http1
}

enum ProtocolDetector {
    /// RFC 9113 §3.4: every HTTP/2 connection begins with these 24 bytes.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// Blank bytes before the first real one are allowed (an `echo` before a line); past this many a
    /// connection that says nothing is closed.
    static let maxLeadingWhitespace = 4096

    /// The protocol of a stream that began with `bytes`, or nil while they could still be more than one
    /// (a prefix of the preface, only whitespace so far). Partial reads, one byte at a time, give the
    /// same answer as one read. `allowTLS` is false inside TLS (TLS in TLS is not a thing clients do).
    static func detect(_ bytes: ArraySlice<UInt8>, allowTLS: Bool) -> DetectedProtocol? {
        guard let first = bytes.first else { return nil }
        if allowTLS && first == 0x16 { return .tls }
        if first == preface[0] {
            let compared = min(bytes.count, preface.count)
            guard bytes.prefix(compared).elementsEqual(preface.prefix(compared)) else { return .http1 }
            return compared == preface.count ? .http2 : nil
        }
        guard let byte = bytes.first(where: { !ASCII.isWhitespace($0) }) else { return nil }
        return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") ? .ndjson : .http1
    }
}
