/// How the SDK is embedded: Flutter and React Native follow the OS they run on, but have their own
/// SDK versions (C9).
public enum Flavor: String, CaseIterable, Sendable {
    case native
    case flutter
    case reactNative = "react-native"

    public var displayName: String {
        switch self {
        case .native: return "native"
        case .flutter: return "Flutter"
        case .reactNative: return "React Native"
        }
    }
}

/// The simulated receiver of one platform (SPEC "Terms").
public struct Profile: Sendable, Equatable {
    public var platform: Platform
    public var osVersion: Version
    public var sdk: Version
    public var flavor: Flavor
    public var app: String
    /// The Communication Notifications capability (I2).
    public var iosCommunication: Bool
    public var locale: String
    /// A dotted path into the payload that stands in for `conversationId` (SPEC §2, beyond the seed).
    public var groupBy: String?
    /// How many ungrouped plain notifications of one app make a bundle (A8).
    public var bundleAt: Int

    public init(platform: Platform, osVersion: Version? = nil, sdk: Version? = nil, flavor: Flavor = .native,
                app: String = "app", iosCommunication: Bool = true, locale: String = "en",
                groupBy: String? = nil, bundleAt: Int = 4) {
        self.platform = platform
        self.osVersion = osVersion ?? Profile.defaultOSVersion(platform)
        self.flavor = flavor
        self.sdk = sdk ?? Profile.conversationSDK(platform: platform, flavor: flavor)
        self.app = app
        self.iosCommunication = iosCommunication
        self.locale = locale
        self.groupBy = groupBy
        self.bundleAt = bundleAt
    }

    public static func defaultOSVersion(_ platform: Platform) -> Version {
        switch platform {
        case .android: return Version(14)
        case .ios: return Version(17)
        case .web: return Version(0)
        }
    }

    /// C9: the first SDK version that shows conversations, per platform and flavor. It is also the
    /// default SDK of a profile, so the default profile shows conversations.
    public static func conversationSDK(platform: Platform, flavor: Flavor) -> Version {
        switch (platform, flavor) {
        case (.web, _): return Version(0, 1, 15)
        case (_, .flutter): return Version(0, 1, 31)
        case (_, .reactNative): return Version(0, 1, 22)
        case (.android, .native): return Version(0, 1, 22)
        case (.ios, .native): return Version(0, 1, 21)
        }
    }

    /// C9: does this profile's SDK display conversations?
    public var supportsConversations: Bool {
        sdk >= Profile.conversationSDK(platform: platform, flavor: platform == .web ? .native : flavor)
    }

    /// A5: Android 11 (API 30) and later has a Conversations section.
    public var hasConversationsSection: Bool { platform == .android && osVersion >= Version(11) }

    /// I2: the communication look needs iOS 15, the conversation SDK and the capability.
    public var showsCommunicationLook: Bool {
        platform == .ios && osVersion >= Version(15) && supportsConversations && iosCommunication
    }

    /// `Android 14 · SDK 0.1.22`, `iOS 17 · SDK 0.1.21 · Flutter`: the header of a view.
    public var summary: String {
        var parts: [String]
        switch platform {
        case .android: parts = ["Android \(osVersion)", "SDK \(sdk)"]
        case .ios: parts = ["iOS \(osVersion)", "SDK \(sdk)"]
        case .web: parts = ["Web", "SDK \(sdk)"]
        }
        if flavor != .native && platform != .web { parts.append(flavor.displayName) }
        if platform == .ios && !iosCommunication { parts.append("no comm. capability") }
        return parts.joined(separator: " · ")
    }
}
