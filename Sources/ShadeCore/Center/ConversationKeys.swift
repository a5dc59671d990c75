/// Who wrote a message (C2, C3, C4).
public struct Sender: Sendable, Equatable {
    public var name: String
    /// C3: the identity; two senders with one name and different ids are two people.
    public var id: String
    public var avatar: Avatar
}

/// The conversation keys of seed 000 read from a push's data (SPEC §2).
public struct ConversationKeys: Sendable, Equatable {
    public var conversationID: String
    public var sender: Sender
    public var title: String?
    public var isGroup: Bool
    public var explicitSenderID: Bool

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
            for b in utf8 where b >= 0x80 || b == 0x0D { return nil }
            guard utf8.count > 8 else { return false }
            for i in 0..<8 {
                let b = utf8[i]
                if ((0x41...0x5A).contains(b) ? b | 0x20 : b) != httpsScheme[i] { return false }
            }
            var i = 8
            while i < utf8.count, utf8[i] != UInt8(ascii: "/"), utf8[i] != UInt8(ascii: "?"), utf8[i] != UInt8(ascii: "#") {
                if utf8[i] == 0x20 || (0x09...0x0D).contains(utf8[i]) { return false }  // Unicode White_Space in ASCII
                i += 1
            }
            return i > 8
        }
    }

    private static let httpsScheme: [UInt8] = Array("https://".utf8)

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
