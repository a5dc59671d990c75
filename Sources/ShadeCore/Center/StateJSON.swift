/// `shade state` and `GET /state`: the contract JSON of DESIGN.md. Key order is fixed; optional
/// fields are always written, as null where absent.
public enum StateJSON {
    public static func value(_ state: CenterState) -> JSON {
        .object(JSONObject([
            "platform": .string(state.platform.rawValue),
            "received": int(state.received),
            "shown": int(state.shown),
            "silent": int(state.silent),
            "calls": int(state.calls),
            "rejected": int(state.rejected),
            "elsewhere": int(state.elsewhere),
            "dropped": int(state.dropped),
            "badge": int(state.badge),
            "sections": .array(state.sections.map { section in
                .object(JSONObject(["name": .string(section.name), "items": .array(section.items.map(item))]))
            }),
            "errors": .array(state.errors.map { .object(JSONObject(["source": .string($0.source), "reason": .string($0.reason)])) }),
        ]))
    }

    /// One state, or `{"profiles": [...]}` for several (`--platform all`).
    public static func value(_ states: [CenterState]) -> JSON {
        states.count == 1 ? value(states[0]) : .object(JSONObject(["profiles": .array(states.map { value($0) })]))
    }

    public static func text(_ states: [CenterState]) -> String {
        JSONWriter.pretty(value(states)) + "\n"
    }

    public static func item(_ item: Item) -> JSON {
        .object(JSONObject([
            "kind": .string(item.kind.rawValue),
            "key": .string(item.key),
            "app": .string(item.app),
            "title": optional(item.title),
            "subtitle": optional(item.subtitle),
            "isGroup": item.isGroup.map(JSON.bool) ?? .null,
            "avatar": item.avatar.map(avatar) ?? .null,
            "lines": .array(item.lines.map(line)),
            "total": int(item.total),
            "children": item.children.map { .array($0.map(self.item)) } ?? .null,
            "level": optional(item.level?.rawValue),
            "at": optional(item.at.map(Timestamp.iso8601(millis:))),
            "image": optional(item.image),
            "category": optional(item.category),
            "mutableContent": .bool(item.mutableContent),
        ]))
    }

    static func line(_ line: Line) -> JSON {
        .object(JSONObject([
            "sender": optional(line.sender),
            "senderId": optional(line.senderID),
            "text": .string(line.text),
        ]))
    }

    static func avatar(_ avatar: Avatar) -> JSON {
        .object(JSONObject([
            "initials": .string(avatar.initials),
            "imageUrl": optional(avatar.imageURL),
            "color": int(avatar.color),
        ]))
    }

    static func int(_ n: Int) -> JSON { .number(String(n)) }
    static func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
}

extension StateJSON {
    /// `--trace`: each item gains `"trace": ["[A1] …", …]`, and each profile `"events"`: what
    /// happened to the device beside its items (SPEC §8: onDeletedMessages, what the services dropped).
    public static func addingTraces(_ json: JSON, _ states: [CenterState]) -> JSON {
        func withTrace(_ items: [Item]) -> JSON {
            .array(items.map { item in
                guard case .object(var o) = self.item(item) else { return .null }
                if let children = item.children { o["children"] = withTrace(children) }
                o["trace"] = .array(item.trace.map { .string($0.description) })
                return .object(o)
            })
        }
        func one(_ state: CenterState) -> JSON {
            guard case .object(var o) = value(state) else { return value(state) }
            o["sections"] = .array(state.sections.map { .object(JSONObject(["name": .string($0.name), "items": withTrace($0.items)])) })
            o["events"] = .array(state.events.map { .string($0.description) })
            return .object(o)
        }
        return states.count == 1 ? one(states[0]) : .object(JSONObject(["profiles": .array(states.map(one))]))
    }
}
