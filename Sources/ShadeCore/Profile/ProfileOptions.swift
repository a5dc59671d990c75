/// A usage mistake: one line that names the problem and the fix (exit 2).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The profile options common to every command that shows or computes state (DESIGN.md).
public struct ProfileOptions: Sendable, Equatable {
    public var platforms: [Platform] = [.android]
    public var androidVersion: Version?
    public var iosVersion: Version?
    public var sdk: [Platform: Version] = [:]
    public var flavor: Flavor = .native
    public var app = "app"
    public var iosCommunication = true
    public var locale = "en"
    public var stringFiles: [String] = []
    public var groupBy: String?
    public var bundleAt = 4

    public init() {}

    /// Options that take a value, in the order `--help` lists them.
    public static let valueOptions = ["--platform", "--android-version", "--ios-version", "--sdk", "--flavor", "--app",
                                      "--ios-communication", "--locale", "--strings", "--group-by", "--bundle-at"]

    public static let help = """
      --platform P            android (default), ios, web, or all (the three side by side)
      --android-version N     Android version, default 14 (11+ has a Conversations section, A5)
      --ios-version N         iOS version, default 17 (12 or later; 15+ for the communication look, I2)
      --sdk V                 SDK version for every platform, or android=V,ios=V,web=V
                              (conversations need Android 0.1.22, iOS 0.1.21, web 0.1.15, C9)
      --flavor F              native (default), flutter (needs SDK 0.1.31) or react-native (0.1.22)
      --app NAME              the app a push belongs to when nothing names it, default "app"
      --ios-communication X   on (default) or off: the Communication Notifications capability
      --locale TAG            the device language: en (default), zh-Hans, zh-Hant, …
      --strings FILE          a string table (.strings, strings.xml, .json); repeatable
      --group-by PATH         a dotted path into the payload that names the conversation
                              (e.g. data.payload.room) instead of data.conversationId;
                              data.… also reads the app's data where the shape keeps it
                              (FCM v1's message.data)
      --bundle-at N           plain notifications of one app that make a bundle, default 4 (A8)
    """

    /// Applies one option. Returns false when the name is not a profile option.
    public mutating func set(_ name: String, _ value: String) throws(UsageError) -> Bool {
        switch name {
        case "--platform":
            switch value.lowercased() {
            case "all": platforms = Platform.allCases
            default:
                guard let platform = Platform(rawValue: value.lowercased()) else {
                    throw UsageError("--platform \(value): unknown platform; use android, ios, web or all")
                }
                platforms = [platform]
            }
        case "--android-version":
            guard let v = Version(value), v >= Version(5), v < Version(100) else {
                throw UsageError("--android-version \(value): expected an Android version such as 14 or 8.1 (5 or later)")
            }
            androidVersion = v
        case "--ios-version":
            guard let v = Version(value), v >= Version(12), v < Version(100) else {
                throw UsageError("--ios-version \(value): expected an iOS version of 12 or later, such as 17 or 15.4")
            }
            iosVersion = v
        case "--sdk":
            if value.contains("=") {
                for part in value.split(separator: ",") {
                    let pair = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingASCIIWhitespace() }
                    guard pair.count == 2, let platform = Platform(rawValue: pair[0].lowercased()) else {
                        throw UsageError("--sdk \(value): expected android=V,ios=V,web=V (e.g. --sdk android=0.1.21,ios=0.1.21)")
                    }
                    guard let v = Version(pair[1]) else { throw UsageError("--sdk \(value): \(pair[1]) is not a version such as 0.1.22") }
                    sdk[platform] = v
                }
            } else {
                guard let v = Version(value) else { throw UsageError("--sdk \(value): expected a version such as 0.1.22, or android=V,ios=V,web=V") }
                for platform in Platform.allCases { sdk[platform] = v }
            }
        case "--flavor":
            guard let f = Flavor(rawValue: value.lowercased()) ?? (value.lowercased() == "reactnative" || value.lowercased() == "rn" ? .reactNative : nil) else {
                throw UsageError("--flavor \(value): unknown flavor; use native, flutter or react-native")
            }
            flavor = f
        case "--app":
            guard !value.isEmpty else { throw UsageError("--app needs a name, such as com.example.chat") }
            app = value
        case "--ios-communication":
            switch value.lowercased() {
            case "on", "true", "yes", "1": iosCommunication = true
            case "off", "false", "no", "0": iosCommunication = false
            default: throw UsageError("--ios-communication \(value): use on or off")
            }
        case "--locale":
            do {
                locale = try LocaleTag.parse(value).identifier
            } catch {
                throw UsageError(error.message)
            }
        case "--strings":
            stringFiles.append(value)
        case "--group-by":
            guard !value.isEmpty, !value.hasPrefix("."), !value.hasSuffix("."), !value.contains("..") else {
                throw UsageError("--group-by \(value): expected a dotted path into the payload, such as data.payload.room")
            }
            groupBy = value
        case "--bundle-at":
            guard let n = Int(value), n >= 2 else { throw UsageError("--bundle-at \(value): expected a whole number of 2 or more (default 4)") }
            bundleAt = n
        default:
            return false
        }
        return true
    }

    public func profile(_ platform: Platform) -> Profile {
        let os: Version? = platform == .android ? androidVersion : (platform == .ios ? iosVersion : nil)
        return Profile(platform: platform, osVersion: os, sdk: sdk[platform], flavor: flavor, app: app,
                       iosCommunication: iosCommunication, locale: locale, groupBy: groupBy, bundleAt: bundleAt)
    }

    public var profiles: [Profile] { platforms.map(profile) }
}
