import Testing
@testable import ShadeCore

/// `Push`, `Content`, `Item` and `Line` keep their fields in a box their copies share until one changes: each copy
/// must still behave as a value, whichever field changes and however (set, appended to, through an
/// optional, inside a nested item).
struct CopyOnWriteTests {
    static func sample() -> Content {
        var content = Content(app: "com.example.app", data: JSONObject(["conversationId": .string("room_42")]))
        content.title = "Ali"
        content.body = "Is the bike still available?"
        content.bodyLoc = LocRef(key: "im_loc_text", args: ["Ali"], path: "$.aps.alert.loc-key")
        content.tag = "t1"
        content.badge = 3
        content.actions = ["Reply"]
        content.trace = [TraceStep("D3", "read")]
        return content
    }

    @Test func aCopyThatChangesLeavesTheOriginalAsItWas() {
        let original = Self.sample()
        let before = Self.sample()
        var copy = original
        copy.title = "Sara"
        copy.actions.append("Mark as read")
        copy.trace.append(TraceStep("I1", "stacked"))
        copy.bodyLoc?.path = "$.notification.body_loc_key"
        copy.data = JSONObject(["conversationId": .string("room_7")])
        copy.badge = nil
        copy.mutableContent = true
        #expect(original == before)
        #expect(original.title == "Ali" && original.actions == ["Reply"] && original.trace.count == 1)
        #expect(original.bodyLoc?.path == "$.aps.alert.loc-key" && original.badge == 3 && !original.mutableContent)
        #expect(copy.title == "Sara" && copy.actions == ["Reply", "Mark as read"] && copy.trace.map(\.rule) == ["D3", "I1"])
        #expect(copy.bodyLoc?.path == "$.notification.body_loc_key" && copy.badge == nil && copy.mutableContent)
        #expect(copy.data["conversationId"] == .string("room_7") && original.data["conversationId"] == .string("room_42"))
        #expect(copy != original)
    }

    @Test func contentsAreEqualByTheirFieldsNotTheirBoxes() {
        var a = Self.sample(), b = Self.sample()
        #expect(a == b)
        a.category = "REPLY"
        #expect(a != b)
        b.category = "REPLY"
        #expect(a == b)
        b.titleLoc = LocRef(key: "k", args: [], path: "$")
        #expect(a != b)
        b.titleLoc = nil
        #expect(a == b)
    }

    static func item() -> Item {
        var item = Item(id: "c:room_42", kind: .conversation, key: "room_42", app: "com.example.app")
        item.title = "Ali"
        item.lines.append(Line(sender: "Ali", text: "hi", pushID: 1))
        item.total = 1
        item.children = [Item(id: "n1", kind: .plain, key: "n1", app: "com.example.app")]
        item.trace = [TraceStep("C1", "room_42")]
        return item
    }

    @Test func anItemCopyThatChangesLeavesTheOriginalAsItWas() {
        let original = Self.item()
        var copy = original
        copy.title = "Sara"
        copy.lines.append(Line(sender: "Sara", text: "yes", pushID: 2))
        copy.lines[0].text = "hello"
        copy.total += 1
        copy.children?[0].title = "child"
        copy.trace.append(TraceStep("A1", "joined"))
        #expect(original == Self.item())
        #expect(original.lines.map(\.text) == ["hi"] && original.children?[0].title == nil && original.trace.count == 1)
        #expect(copy.lines.map(\.text) == ["hello", "yes"] && copy.total == 2 && copy.children?[0].title == "child")
        #expect(copy != original)
    }

    @Test func theEmptyItemsShareNothingOnceChanged() {
        var moved = Item.empty
        moved.key = "k"
        moved.lines.append(Line(text: "x", pushID: 1))
        #expect(Item.empty.key == "" && Item.empty.lines.isEmpty)
        #expect(moved.key == "k" && moved.lines.count == 1)
    }

    @Test func aLineCopyThatChangesLeavesTheOriginalAsItWas() {
        let original = Line(sender: "Ali", senderID: "u1", text: "hi", title: "Ali", pushID: 3, collapseID: "c1")
        var copy = original
        copy.text = "hello"
        copy.senderAvatar = Avatar(name: "Ali", identity: "u1", imageURL: nil)
        copy.pushID = 4
        #expect(original.text == "hi" && original.senderAvatar == nil && original.pushID == 3)
        #expect(copy.text == "hello" && copy.senderAvatar?.initials == "A" && copy.pushID == 4)
        #expect(original == Line(sender: "Ali", senderID: "u1", text: "hi", title: "Ali", pushID: 3, collapseID: "c1"))
        #expect(copy != original)
        var samePush = original
        samePush.pushID = 4
        #expect(samePush != original)
    }
}

/// A push keeps its fields in one box its copies share (DECISIONS 135): a copy changed in any field, and
/// however (set, appended to, a transport stamped in place), leaves the original as it was; two pushes
/// are equal by their fields, the payload compared by what it holds.
@Test func aPushCopyThatChangesLeavesTheOriginalAsItWas() throws {
    func sample() throws -> Push {
        var push = Push(id: 7, payload: try JSONParser.parse(#"{"aps":{"alert":"hi"}}"#), shape: .apns,
                        transport: Transport(headers: ["apns-topic": "com.example"], path: "/3/device/ab12", via: "apns"),
                        source: SourcePosition(name: "tcp 127.0.0.1:5000#1 POST /3/device/ab12"))
        push.notes = ["the push service would answer 403"]
        return push
    }
    let original = try sample()
    let changes: [(inout Push) throws -> Void] = [
        { $0.id = 8 },
        { $0.shape = .fcmV1 },
        { $0.payload = try JSONParser.parse(#"{"aps":{"alert":"ho"}}"#) },
        { $0.transport.stamp(millis: 1_700_000_000_000) },
        { $0.transport.headers["apns-topic"] = "com.other" },
        { $0.source.line = 3 },
        { $0.notes.append("read as aes128gcm") },
        { $0.notes = [] },
    ]
    for (index, change) in changes.enumerated() {
        var copy = original
        try change(&copy)
        #expect(copy != original, "change \(index)")
        #expect(original == (try sample()), "change \(index)")
        #expect(original.id == 7 && original.shape == .apns && original.notes == ["the push service would answer 403"])
        #expect(original.transport.atMillis == nil && original.transport.headers["apns-topic"] == "com.example" && original.source.line == nil)
        #expect(original.payload == (try JSONParser.parse(#"{"aps":{"alert":"hi"}}"#)))
    }
    // Made apart from the same bytes: equal, though they share no box and no store.
    #expect(try sample() == (try sample()))
}

/// A `Channel` keeps its facts in one immutable box its copies share: it must still compare, hash and
/// change as the value it was (the log compares each push's channel with the last one's).
@Test func aChannelIsEqualByItsFactsAndAChangedCopyLeavesTheOriginal() {
    let direct = Channel(framing: .http2, tls: "TLSv1.3", serverName: "api.push.apple.com")
    let again = Channel(framing: .http2, tls: "TLSv1.3", serverName: "api.push.apple.com")
    #expect(direct == again && direct.hashValue == again.hashValue)
    var proxied = direct
    proxied.proxiedTo = "api.push.apple.com:443"
    #expect(proxied != direct && direct.proxiedTo == nil)
    #expect(proxied.description == "HTTP/2 over TLS (TLSv1.3), SNI api.push.apple.com, through the proxy (CONNECT api.push.apple.com:443)")
    for change in [{ (c: inout Channel) in c.framing = .http1 }, { $0.tls = nil }, { $0.serverName = "x" }, { $0.isUnixSocket = true }] {
        var changed = direct
        change(&changed)
        #expect(changed != direct && direct == again)
    }
    var transport = Transport(channel: direct)
    #expect(transport.hasChannel(again) && !transport.hasChannel(proxied) && !transport.hasChannel(nil))
    transport.channel = nil
    #expect(transport.hasChannel(nil) && !transport.hasChannel(direct))
}

/// `ConversationKeys` share one box among their copies: two readings of the same keys are equal by their
/// fields, and keys that differ in any one field are not.
@Test func conversationKeysAreEqualByTheirFields() {
    func keys(_ id: String = "room_42", name: String = "Ali", sender: String = "u1", title: String? = "Bikes",
              group: Bool = true, explicit: Bool = true) -> ConversationKeys {
        ConversationKeys(conversationID: id, sender: Sender(name: name, id: sender, avatar: Avatar(name: name, identity: sender, imageURL: nil)),
                         title: title, isGroup: group, explicitSenderID: explicit)
    }
    let read = keys()
    let copy = read
    #expect(read == keys() && copy == read && copy.sender.name == "Ali" && copy.title == "Bikes")
    for other in [keys("room_7"), keys(name: "Sara"), keys(sender: "u2"), keys(title: nil), keys(group: false), keys(explicit: false)] {
        #expect(other != read)
    }
}
