// The envelope of DESIGN.md, one line per accepted push: what a recording holds and replay reads (D1).
import ShadeCore

public enum Envelope {
    /// `{"at":…,"via":…,"path":…,"headers":{…},"payload":…}` in compact JSON, without a newline. Every
    /// key is written (null where absent); headers are sorted by name and never carry credentials.
    /// The payload is written from its tape as it lies in the push's store (the same bytes a tree of
    /// it would write, without building one: DECISIONS 107).
    public static func line(for push: Push) -> [UInt8] {
        let headers = PushHeaders.withoutCredentials(push.transport.headers)
            .sorted { $0.key < $1.key }
            .map { JSONObject.Member(key: $0.key, value: .string($0.value)) }
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(128)
        func text(_ value: String?) {
            if let value { writer.writeString(value) } else { writer.append("null") }
        }
        writer.append(#"{"at":"#)
        text(push.transport.at)
        writer.append(#","via":"#)
        text(push.transport.via)
        writer.append(#","path":"#)
        text(push.transport.path)
        writer.append(#","headers":"#)
        writer.write(.object(JSONObject(headers)))
        writer.append(#","payload":"#)
        push.store.withRoot { writer.write($0) }
        writer.append("}")
        return writer.bytes
    }
}

/// Which request headers belong to a push. DESIGN.md: push metadata (`apns-*`, the content type) is
/// kept; credentials (`authorization`, `x-api-key`, `x-server-secret`, …) never are.
public enum PushHeaders {
    /// The push metadata of a request, names lower-cased (as HTTP/2, which APNs speaks, has them).
    public static func metadata(_ headers: HTTPHeaders) -> [String: String] {
        var kept: [String: String] = [:]
        for (index, field) in headers.fields.enumerated() {
            // Most of a request's headers (host, user-agent, content-length, …) cannot be metadata:
            // turned down on their first letter before a lowercase copy is made.
            guard let first = field.name.utf8.first, metadataInitials.contains(first | 0x20) else { continue }
            let name = UTF8Text.lowercased(field.name)
            guard isMetadata(name) else { continue }
            // Made once, at its first member, for every field left: grown member by member, an APNs
            // request's three cost three allocations.
            if kept.isEmpty { kept.reserveCapacity(headers.count - index) }
            kept[name] = field.value
        }
        return kept
    }

    /// APNs' `apns-*`, and RFC 8030's `ttl`, `urgency` and `topic`, which a Web Push message carries
    /// and offline delivery reads (SPEC O4, O5). Never credentials; never `content-encoding` (a
    /// recording holds the decrypted, decompressed payload).
    static func isMetadata(_ name: String) -> Bool {
        (name.utf8.starts(with: apnsPrefix) || webPushMetadata.contains(name) || name == "content-type") && !isCredential(name)
    }

    private static let apnsPrefix: [UInt8] = Array("apns-".utf8)

    /// Three names: compared in turn, which costs less than hashing the name.
    static let webPushMetadata: [String] = ["ttl", "urgency", "topic"]
    /// The first letters, lowercase, of every name `isMetadata` keeps: apns-*, content-type, ttl, topic, urgency.
    private static let metadataInitials: [UInt8] = Array("actu".utf8)

    /// What an envelope line brought, minus credentials (a hand-written envelope may hold them).
    public static func withoutCredentials(_ headers: [String: String]) -> [String: String] {
        guard hasCredentials(headers) else { return headers }
        return headers.filter { !isCredential($0.key) }
    }

    /// Whether any of `headers` is a credential (most requests' metadata holds none).
    public static func hasCredentials(_ headers: [String: String]) -> Bool {
        headers.keys.contains(where: isCredential)
    }

    /// A name already lowercase ASCII (what routes keep) is looked up as it is; any other is
    /// lowercased first, as Unicode lowercases it.
    private static func isCredential(_ name: String) -> Bool {
        // ASCII keeps its length when lowercased, so an ASCII name of no credential's length is none
        // (apns-topic, content-type, …); any other is looked up.
        if !credentialLengths.contains(name.utf8.count) && UTF8Text.isASCII(name) { return false }
        return Transport.credentialHeaders.contains(UTF8Text.lowercased(name))
    }

    private static let credentialLengths: [Int] = Transport.credentialHeaders.map(\.utf8.count)
}
