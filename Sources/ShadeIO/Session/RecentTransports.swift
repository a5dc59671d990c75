import Glibc
import ShadeCore

/// The transports of the last few live requests (and NDJSON lines), each beside the push metadata it was made from as
/// the request carried it: the bytes of its `PushHeaders.isMetadata` fields, in order. A backend
/// sends the same metadata to the same path over and over, and a pool of connections takes turns,
/// so a request whose metadata, path, `via` and channel match one of these shares its box instead of
/// making the fields' strings and a box again (DECISIONS 134). What the box holds is exactly what
/// `PushHeaders.metadata` makes of those bytes, so sharing it changes nothing a push shows or records.
struct RecentTransports {
    private struct Entry {
        /// `[name length][value length][name][value]` per metadata field, as `HTTPHeaders` lays them.
        var metadata: [UInt8]
        var transport: Transport
    }

    private var entries: [Entry] = []
    /// The request at hand's metadata bytes, kept from request to request so none allocates them.
    private var scratch: [UInt8] = []
    /// As many as `Intake` keeps for a recording's routes.
    static let count = 4

    mutating func transport(headers: HTTPHeaders, path: String?, via: String?, channel: Channel?) -> Transport {
        scratch.removeAll(keepingCapacity: true)
        headers.forEachField { name, value in
            guard PushHeaders.isMetadata(name) else { return }
            withUnsafeBytes(of: HTTPHeaders.lengths(name: name, value: value)) { scratch.append(contentsOf: $0) }
            scratch.append(contentsOf: name)
            scratch.append(contentsOf: value)
        }
        for index in entries.indices
        where Self.same(entries[index].metadata, scratch) && entries[index].transport.hasFields(path: path, via: via, channel: channel) {
            entries.swapAt(0, index)   // the most recent first: most requests repeat the one before
            return entries[0].transport
        }
        let made = Transport(headers: PushHeaders.metadata(headers), path: path, via: via, channel: channel)
        if entries.count == Self.count { entries.removeLast() }
        entries.insert(Entry(metadata: scratch, transport: made), at: 0)
        return made
    }

    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }
}
