/// Who wrote a message (C2, C3, C4).
public struct Sender: Sendable, Equatable {
    public var name: String
    /// C3: the identity; two senders with one name and different ids are two people.
    public var id: String
    public var avatar: Avatar
}

/// The conversation keys of seed 000 read from a push's data (SPEC §2).
///
/// Read once a push and handed to each live center (`SharedReadings`), so the keys sit in one
/// immutable box their copies share: a copy is one retain, where six strings were retained and
/// released for each center.
public struct ConversationKeys: Sendable, Equatable {
    private final class Fields: Sendable {
        let conversationID: String
        let sender: Sender
        let title: String?
        let isGroup: Bool
        let explicitSenderID: Bool

        init(conversationID: String, sender: Sender, title: String?, isGroup: Bool, explicitSenderID: Bool) {
            self.conversationID = conversationID
            self.sender = sender
            self.title = title
            self.isGroup = isGroup
            self.explicitSenderID = explicitSenderID
        }
    }

    private let fields: Fields

    public var conversationID: String { fields.conversationID }
    public var sender: Sender { fields.sender }
    public var title: String? { fields.title }
    public var isGroup: Bool { fields.isGroup }
    public var explicitSenderID: Bool { fields.explicitSenderID }

    public init(conversationID: String, sender: Sender, title: String?, isGroup: Bool, explicitSenderID: Bool) {
        fields = Fields(conversationID: conversationID, sender: sender, title: title, isGroup: isGroup, explicitSenderID: explicitSenderID)
    }

    public static func == (a: ConversationKeys, b: ConversationKeys) -> Bool {
        a.fields === b.fields || (a.conversationID == b.conversationID && a.sender == b.sender && a.title == b.title
            && a.isGroup == b.isGroup && a.explicitSenderID == b.explicitSenderID)
    }

    /// C1: `conversationId` (or the profile's `--group-by` path, followed from the payload's root), a
    /// non-empty string or a number. Returns nil for a plain notification (C8).
    static func read(data: AppData.Object, root: PayloadValue?, groupBy: String?, pushTitle: String?) -> ConversationKeys? {
        let raw: PayloadValue? = groupBy.map { groupKey(at: $0, root: root, data: data) } ?? data["conversationId"]
        guard let id = conversationID(raw) else { return nil }
        // C2: absent senderName → the push title.
        let name = nonEmpty(data["senderName"]?.scalarText) ?? pushTitle ?? ""
        // C3: absent senderId → the name is the identity.
        let explicitID = nonEmpty(data["senderId"]?.scalarText)
        let identity = explicitID ?? name
        // C4: only an https image is a photo.
        let url = nonEmpty(data["senderAvatarUrl"]?.string).flatMap { isHTTPSImageURL($0) ? $0 : nil }
        return ConversationKeys(
            conversationID: id,
            sender: Sender(name: name, id: identity, avatar: Avatar(name: name, identity: identity, imageURL: url)),
            title: nonEmpty(data["conversationTitle"]?.scalarText),
            isGroup: isGroupFlag(data["conversationIsGroup"]),
            explicitSenderID: explicitID != nil)
    }

    /// `--group-by PATH`, followed from the payload's root; a path that starts `data.` and is not
    /// there is also followed into the data the app receives, where its shape keeps it (FCM v1's
    /// `message.data`, a Pusher Beams block's `data`), so one path serves every shape.
    static func groupKey(at path: String, root: PayloadValue?, data: AppData.Object) -> PayloadValue? {
        if let found = root?.value(atPath: path) { return found }
        guard path.hasPrefix("data.") else { return nil }
        let rest = path.dropFirst(5)
        let first = rest.prefix { $0 != "." }
        guard let top = data[String(first)] else { return nil }
        return first.count == rest.count ? top : top.value(atPath: String(rest.dropFirst(first.count + 1)))
    }

    /// The keys C8 ignores without a conversation id (C2–C6).
    static let senderKeys = ["senderName", "senderId", "senderAvatarUrl", "conversationTitle", "conversationIsGroup"]

    static func conversationID<V: JSONReadable>(_ value: V?) -> String? {
        guard let value else { return nil }
        switch value.kind {
        case .string: return value.string.flatMap { $0.isEmpty ? nil : $0 }
        case .number: return value.numberLexeme  // C1: numbers are accepted and stringified
        default: return nil
        }
    }

    /// C6: `true`, `"true"`, `1` or `"1"` (FCM data values are strings).
    public static func isGroupFlag(_ value: JSON?) -> Bool { isGroupFlag(value.map(PayloadValue.tree)) }

    static func isGroupFlag<V: JSONReadable>(_ value: V?) -> Bool {
        guard let value else { return false }
        switch value.kind {
        case .true: return true
        case .string: return value.stringEquals("true") || value.stringEquals("1")
        case .number: return value.numberLexeme.flatMap(Double.init) == 1
        default: return false
        }
    }

    public static func isBooleanLike(_ value: JSON) -> Bool {
        switch value {
        case .bool: return true
        case .string(let s): return ["true", "false", "1", "0"].contains(s)
        case .number(let n): return Double(n) == 0 || Double(n) == 1
        default: return false
        }
    }

    /// C4: `https://host/…`.
    public static func isHTTPSImageURL(_ text: String) -> Bool {
        asciiIsHTTPSImageURL(text) ?? unicodeIsHTTPSImageURL(text)
    }

    /// The same answer on the bytes of an ASCII URL without `\r` (characters are bytes there), or nil.
    /// Character.isWhitespace over graphemes cost more than the rest of a conversation push.
    static func asciiIsHTTPSImageURL(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { utf8 -> Bool? in
            guard let base = utf8.baseAddress else { return false }
            let count = utf8.count
            // ASCII without `\r`, eight bytes at a time (a URL is some sixty).
            var i = 0
            while i + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let cr = word ^ 0x0D0D_0D0D_0D0D_0D0D   // a zero byte where a `\r` was
                if word & 0x8080_8080_8080_8080 != 0 || (cr &- 0x0101_0101_0101_0101) & ~cr & 0x8080_8080_8080_8080 != 0 { return nil }
                i += 8
            }
            while i < count {
                if base[i] >= 0x80 || base[i] == 0x0D { return nil }
                i += 1
            }
            guard count > 8 else { return false }
            // `https://`, its letters in either case: `b | 0x20` is a lowercase letter only for that
            // letter and its capital.
            let scheme = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)) | 0x0000_0020_2020_2020
            guard scheme == 0x2F2F_3A73_7074_7468 else { return false }   // "https://", little-endian
            i = 8
            while i < count, base[i] != UInt8(ascii: "/"), base[i] != UInt8(ascii: "?"), base[i] != UInt8(ascii: "#") {
                if base[i] == 0x20 || (0x09...0x0D).contains(base[i]) { return false }  // Unicode White_Space in ASCII
                i += 1
            }
            return i > 8
        }
    }

    static func unicodeIsHTTPSImageURL(_ text: String) -> Bool {
        guard text.count > 8, text.prefix(8).lowercased() == "https://" else { return false }
        let host = text.dropFirst(8).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains(where: \.isWhitespace)
    }

    static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}
