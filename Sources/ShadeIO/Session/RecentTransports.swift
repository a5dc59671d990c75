import ShadeCore

/// The transports of the last few live requests (and NDJSON lines), each beside the push metadata it
/// was made from as the request carried it: its `PushHeaders.isMetadata` fields, in order, compared
/// where the request's fields lie. A backend sends the same metadata to the same path over and over,
/// and a pool of connections takes turns, so a request whose metadata, path, `via` and channel match
/// one of these shares its box instead of making the fields' strings and a box again (DECISIONS 134,
/// 138). What the box holds is exactly what `PushHeaders.metadata` makes of those bytes, so sharing
/// it changes nothing a push shows or records.
struct RecentTransports {
    private struct Entry {
        /// The metadata fields as the request carried them.
        var metadata: HTTPHeaders
        var transport: Transport
    }

    private var entries: [Entry] = []
    /// As many as `Intake` keeps for a recording's routes.
    static let count = 4

    mutating func transport(headers: HTTPHeaders, path: String?, via: String?, channel: Channel?) -> Transport {
        for index in entries.indices
        where entries[index].transport.hasFields(path: path, via: via, channel: channel)
            && headers.fields(where: PushHeaders.isMetadata, are: entries[index].metadata) {
            entries.swapAt(0, index)   // the most recent first: most requests repeat the one before
            return entries[0].transport
        }
        let made = Transport(headers: PushHeaders.metadata(headers), path: path, via: via, channel: channel)
        if entries.count == Self.count { entries.removeLast() }
        entries.insert(Entry(metadata: headers.fields(where: PushHeaders.isMetadata), transport: made), at: 0)
        return made
    }
}
