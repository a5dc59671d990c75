import Synchronization

/// What several centers read alike from one push, read by the first of them and kept for the rest:
/// the platform-independent content of its shape's reading (a send-to-user request's title, body and
/// data read the same for every platform) and the conversation keys of its data (most shapes hand
/// every platform the same data object, whose keys cost more to read than the rest of a conversation
/// push's placing). Each is one entry, the last one read, named by what it was read from.
///
/// Who shares one: a live session's three centers, which take each push in turn on one thread, share
/// one for the session; `state` and `snapshot` with several profiles, whose centers take the pushes on
/// threads of their own (`Fanout`), give each push one of its own. A reading is made outside the lock,
/// and a center that finds another's entry in its place reads its own: sharing changes what is read
/// again, never what a center holds.
public final class SharedReadings: Sendable {
    /// What `Center.conversation(for:…)` reads: the keys, and whether the data named their sender.
    typealias KeysReading = (keys: ConversationKeys?, named: Bool)

    private struct ContentEntry {
        // Held, not just compared: a freed store's address could be a new push's.
        let store: PayloadStore
        let app: String
        let traced: Bool
        let content: Content
    }

    private struct KeysEntry {
        let dataStore: PayloadStore
        let pushStore: PayloadStore
        let places: AppData.TapePlaces
        let groupBy: String?
        let pushTitle: String?
        let reading: KeysReading
    }

    private struct Entries {
        var content: ContentEntry?
        var keys: KeysEntry?
    }

    /// Taken under a lock: `state`'s centers, on threads of their own, share a push's. A live session's
    /// centers take theirs on one thread, where the lock costs about 800 instructions a send-to-user
    /// push; kept as they lie in a class they cost more (each access checked for exclusivity at run
    /// time), and a second memo for one thread would be the same rule twice (DECISIONS 127).
    private let entries = Mutex(Entries())

    public init() {}

    /// `read()`'s content, read once for the same payload, app and tracing. A push's store holds its
    /// payload alone (its root is the push), so the store names what was read.
    func content(store: PayloadStore, app: String, traced: Bool, _ read: () -> Content) -> Content {
        // Each field read where it lies: binding the entry copied it whole (its store, app and content
        // retained and released) on every look.
        let kept = entries.withLock { entries -> Content? in
            guard entries.content?.store === store, entries.content?.traced == traced, entries.content?.app == app else { return nil }
            return entries.content?.content
        }
        if let kept { return kept }
        let content = read()
        entries.withLock { $0.content = ContentEntry(store: store, app: app, traced: traced, content: content) }
        return content
    }

    /// `read()`'s keys, read once for the same data, push, `--group-by` and title.
    func keys(_ data: AppData, push: Push, groupBy: String?, pushTitle: String?, _ read: () -> KeysReading) -> KeysReading {
        guard let store = data.store, let places = data.tapePlaces else { return read() }
        let kept = entries.withLock { entries -> KeysReading? in
            guard entries.keys?.dataStore === store, entries.keys?.pushStore === push.store, entries.keys?.places == places,
                  entries.keys?.groupBy == groupBy, entries.keys?.pushTitle == pushTitle else { return nil }
            return entries.keys?.reading
        }
        if let kept { return kept }
        let reading = read()
        entries.withLock {
            $0.keys = KeysEntry(dataStore: store, pushStore: push.store, places: places, groupBy: groupBy, pushTitle: pushTitle, reading: reading)
        }
        return reading
    }
}
