/// One behaviour rule of Shade: the id that traces, lint, help and logs print (`A5`, `V4`, …), the
/// group it belongs to, what it says in one sentence, and where that comes from. The catalogue
/// (`RuleCatalogue`) is the one place these are written; `shade explain` and docs/RULES.md read it.
public struct Rule: Sendable, Equatable {
    public let id: String
    public let group: RuleGroup
    public let sentence: String
    public let sources: [RuleSource]

    public init(_ id: String, _ group: RuleGroup, _ sentence: String, _ sources: [RuleSource]) {
        self.id = id
        self.group = group
        self.sentence = sentence
        self.sources = sources
    }

    /// `A5  Android 11 and later … (source: Android's “Conversations” guide)`: one rule, one paragraph.
    public var explanation: String {
        "\(id)  \(sentence)\n    Source: \(sources.map(\.title).joined(separator: "; "))."
    }
}

/// The groups rules come in, in the order the behaviour is described: how a payload is recognised,
/// what its conversation keys mean, each platform, localization, avatars, offline delivery, lint.
public enum RuleGroup: String, Sendable, CaseIterable {
    case recognising, conversation, android, ios, web, localization, initials, offline, checks

    /// The letter every id of the group starts with.
    public var prefix: Character {
        switch self {
        case .recognising: "D"
        case .conversation: "C"
        case .android: "A"
        case .ios: "I"
        case .web: "W"
        case .localization: "L"
        case .initials: "N"
        case .offline: "O"
        case .checks: "V"
        }
    }

    public var title: String {
        switch self {
        case .recognising: "Recognising payloads"
        case .conversation: "Conversation keys"
        case .android: "Android profile"
        case .ios: "iOS profile"
        case .web: "Web profile"
        case .localization: "Localization"
        case .initials: "Initials and colours"
        case .offline: "Offline delivery"
        case .checks: "Checking payloads (shade lint)"
        }
    }
}

/// Where a rule comes from, named by what it is, so a reader can find it: the two documents Shade
/// grew from (a push SDK's guide, an IM SDK's payload format), the platforms' own documents by
/// title, or Shade itself where no document says it.
public enum RuleSource: Sendable, Equatable {
    /// The push SDK's guide to conversation notifications (conversation keys, SDK versions,
    /// the send-to-user request).
    case pushSDKGuide
    /// The IM SDK's description of its APNs and FCM push payloads and localization keys.
    case imSDKPayloadFormat
    case apple(String)
    case android(String)
    case firebase(String)
    /// The WHATWG, W3C and IETF web standards.
    case webStandard(String)
    case chrome(String)
    case expo(String)
    case pusher(String)
    /// No document says it: Shade's own choice, made where the sources are silent.
    case shade(String)

    public var title: String {
        switch self {
        case .pushSDKGuide: "the push SDK's conversation-notifications guide"
        case .imSDKPayloadFormat: "the IM SDK's push payload format"
        case .apple(let title): "Apple's “\(title)”"
        case .android(let title): "Android Developers' “\(title)”"
        case .firebase(let title): "Firebase's “\(title)”"
        case .webStandard(let title): title
        case .chrome(let title): "Chrome's “\(title)”"
        case .expo(let title): "Expo's “\(title)”"
        case .pusher(let title): "Pusher Beams' “\(title)”"
        case .shade(let why): "Shade's own rule (\(why))"
        }
    }
}
