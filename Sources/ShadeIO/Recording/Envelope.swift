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
        if let millis = push.transport.atWrittenFromMillis {
            // Digits and separators: nothing in it to escape.
            writer.append("\"")
            Timestamp.appendISO8601(millis: millis, to: &writer.bytes)
            writer.append("\"")
        } else {
            text(push.transport.at)
        }
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
    public static func metadata(_ headers: HTTPHeaders) -> HeaderFields {
        // Counted first, so that the fields are made once at their size: grown field by field, an
        // APNs request's three cost three allocations, and room for every field left cost as much.
        var count = 0
        headers.forEachField { name, _ in if isMetadata(name) { count += 1 } }
        guard count > 0 else { return HeaderFields() }
        var kept = HeaderFields(minimumCapacity: count)
        headers.forEachField { name, value in
            guard isMetadata(name) else { return }
            // An ASCII name (every real one) is lower-cased byte by byte; `apns-` and anything after it
            // the way `String` lower-cases it.
            let lowered = name.allSatisfy { $0 < 0x80 }
                ? String(unsafeUninitializedCapacity: name.count) { out in
                    for index in 0..<name.count { out[index] = ASCII.lower(name[index]) }
                    return name.count
                }
                : String(decoding: name, as: UTF8.self).lowercased()
            kept[lowered] = String(decoding: value, as: UTF8.self)
        }
        return kept
    }

    /// APNs' `apns-*`, and RFC 8030's `ttl`, `urgency` and `topic`, which a Web Push message carries
    /// and offline delivery reads (SPEC O4, O5), and `content-type`, in any case. Never credentials
    /// (`authorization`, `x-api-key`, …: none has these names); never `content-encoding` (a
    /// recording holds the decrypted, decompressed payload). Read on the name's bytes: header names
    /// are ASCII, and no other text lowercases to these.
    static func isMetadata(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.count >= 5 && ASCII.equalIgnoringCase(UnsafeBufferPointer(rebasing: bytes[..<5]), "apns-") { return true }
        switch bytes.count {
        case 3: return ASCII.equalIgnoringCase(bytes, "ttl")
        case 5: return ASCII.equalIgnoringCase(bytes, "topic")
        case 7: return ASCII.equalIgnoringCase(bytes, "urgency")
        case 12: return ASCII.equalIgnoringCase(bytes, "content-type")
        default: return false
        }
    }

    /// What an envelope line brought, minus credentials (a hand-written envelope may hold them).
    public static func withoutCredentials(_ headers: HeaderFields) -> HeaderFields {
        guard hasCredentials(headers) else { return headers }
        return headers.filter { !isCredential($0.key) }
    }

    /// Whether any of `headers` is a credential (most requests' metadata holds none).
    public static func hasCredentials(_ headers: HeaderFields) -> Bool {
        headers.contains { isCredential($0.key) }
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
