import ShadeCore

/// The transports of the last few live requests (and NDJSON lines), each beside the push metadata it
/// was made from as the request carried it: the bytes of its `PushHeaders.isMetadata` fields, in
/// order, compared where the request's fields lie. A backend sends the same metadata to the same path
/// over and over, and a pool of connections takes turns, so a request whose metadata, path, `via`
/// and channel match one of these shares its box instead of making the fields' strings and a box
/// again (DECISIONS 134, 138). What the box holds is exactly what `PushHeaders.metadata` makes of
/// those bytes, so sharing it changes nothing a push shows or records.
struct RecentTransports {
    private struct Entry {
        /// `[name length][value length][name][value]` per metadata field, as `HTTPHeaders` lays them.
        var metadata: [UInt8]
        var transport: Transport
    }

    private var entries: [Entry] = []
    /// The metadata bytes of a request that matched none, kept from miss to miss.
    private var scratch: [UInt8] = []
    /// As many as `Intake` keeps for a recording's routes.
    static let count = 4

    mutating func transport(headers: HTTPHeaders, path: String?, via: String?, channel: Channel?) -> Transport {
        for index in entries.indices
        where entries[index].transport.hasFields(path: path, via: via, channel: channel) && Self.holds(entries[index].metadata, metadataOf: headers) {
            entries.swapAt(0, index)   // the most recent first: most requests repeat the one before
            return entries[0].transport
        }
        scratch.removeAll(keepingCapacity: true)
        headers.forEachField { name, value in
            guard PushHeaders.isMetadata(name) else { return }
            withUnsafeBytes(of: HTTPHeaders.lengths(name: name, value: value)) { scratch.append(contentsOf: $0) }
            scratch.append(contentsOf: name)
            scratch.append(contentsOf: value)
        }
        let made = Transport(headers: PushHeaders.metadata(headers), path: path, via: via, channel: channel)
        if entries.count == Self.count { entries.removeLast() }
        entries.insert(Entry(metadata: scratch, transport: made), at: 0)
        return made
    }

    /// Whether `metadata` is the metadata fields of `headers`, compared where both lie (a match, the
    /// usual case, builds nothing).
    private static func holds(_ metadata: [UInt8], metadataOf headers: HTTPHeaders) -> Bool {
        metadata.withUnsafeBufferPointer { kept in
            var offset = 0
            // nil goes on to the next field; false stops at the first that differs.
            let differs: Bool? = headers.first { name, value in
                guard PushHeaders.isMetadata(name) else { return nil }
                let next = offset + HTTPHeaders.lengthBytes + name.count + value.count
                guard next <= kept.count,
                      UnsafeRawPointer(kept.baseAddress! + offset).loadUnaligned(as: UInt64.self) == HTTPHeaders.lengths(name: name, value: value),
                      UnsafeBufferPointer(start: kept.baseAddress! + offset + HTTPHeaders.lengthBytes, count: name.count).sameBytes(as: name),
                      UnsafeBufferPointer(start: kept.baseAddress! + offset + HTTPHeaders.lengthBytes + name.count, count: value.count)
                          .sameBytes(as: value) else { return false }
                offset = next
                return nil
            }
            return differs == nil && offset == kept.count
        }
    }
}
