import Testing
@testable import ShadeCore

/// DESIGN.md profile options: every option's good and bad values. A bad value is a UsageError
/// whose one line names the problem and the fix (exit 2).
struct ProfileOptionsTests {
    struct Good: Sendable, CustomTestStringConvertible {
        var name: String
        var value: String
        var expected: ProfileOptions
        var testDescription: String { "\(name) \(value)" }

        init(_ name: String, _ value: String, _ change: (inout ProfileOptions) -> Void) {
            self.name = name
            self.value = value
            var options = ProfileOptions()
            change(&options)
            self.expected = options
        }
    }

    static let good: [Good] = [
        Good("--platform", "android") { $0.platforms = [.android] },
        Good("--platform", "ios") { $0.platforms = [.ios] },
        Good("--platform", "web") { $0.platforms = [.web] },
        Good("--platform", "all") { $0.platforms = [.android, .ios, .web] },
        Good("--platform", "iOS") { $0.platforms = [.ios] },
        Good("--android-version", "14") { $0.androidVersion = Version(14) },
        Good("--android-version", "8.1") { $0.androidVersion = Version(8, 1) },
        Good("--android-version", "5") { $0.androidVersion = Version(5) },
        Good("--ios-version", "12") { $0.iosVersion = Version(12) },
        Good("--ios-version", "15.4") { $0.iosVersion = Version(15, 4) },
        Good("--sdk", "0.1.21") { $0.sdk = [.android: Version(0, 1, 21), .ios: Version(0, 1, 21), .web: Version(0, 1, 21)] },
        Good("--sdk", "android=0.1.21,ios=0.1.20") { $0.sdk = [.android: Version(0, 1, 21), .ios: Version(0, 1, 20)] },
        Good("--sdk", "web=0.1.14, Android = 0.1.22") { $0.sdk = [.web: Version(0, 1, 14), .android: Version(0, 1, 22)] },
        Good("--flavor", "native") { $0.flavor = .native },
        Good("--flavor", "flutter") { $0.flavor = .flutter },
        Good("--flavor", "react-native") { $0.flavor = .reactNative },
        Good("--flavor", "React-Native") { $0.flavor = .reactNative },
        Good("--flavor", "rn") { $0.flavor = .reactNative },
        Good("--app", "com.example.chat") { $0.app = "com.example.chat" },
        Good("--ios-communication", "on") { $0.iosCommunication = true },
        Good("--ios-communication", "off") { $0.iosCommunication = false },
        Good("--ios-communication", "false") { $0.iosCommunication = false },
        Good("--ios-communication", "0") { $0.iosCommunication = false },
        Good("--locale", "en") { $0.locale = "en" },
        Good("--locale", "zh-Hans") { $0.locale = "zh-Hans" },
        // Canonicalised by LocaleTag: `_` becomes `-`, as users of $LANG expect.
        Good("--locale", "zh_TW") { $0.locale = "zh-TW" },
        Good("--strings", "Localizable.strings") { $0.stringFiles = ["Localizable.strings"] },
        Good("--group-by", "data.payload.room") { $0.groupBy = "data.payload.room" },
        Good("--group-by", "room") { $0.groupBy = "room" },
        Good("--bundle-at", "2") { $0.bundleAt = 2 },
        Good("--bundle-at", "10") { $0.bundleAt = 10 },
    ]

    @Test(arguments: good)
    func goodValuesSetTheOption(_ sample: Good) throws {
        var options = ProfileOptions()
        #expect(try options.set(sample.name, sample.value) == true)
        #expect(options == sample.expected)
    }

    @Test(arguments: [
        ("--platform", "mac", "--platform mac: unknown platform; use android, ios, web or all"),
        ("--platform", "", "--platform : unknown platform; use android, ios, web or all"),
        ("--android-version", "4.4", "--android-version 4.4: expected an Android version such as 14 or 8.1 (5 or later)"),
        ("--android-version", "fourteen", "--android-version fourteen: expected an Android version such as 14 or 8.1 (5 or later)"),
        ("--android-version", "14.", "--android-version 14.: expected an Android version such as 14 or 8.1 (5 or later)"),
        ("--android-version", "100", "--android-version 100: expected an Android version such as 14 or 8.1 (5 or later)"),
        ("--ios-version", "11", "--ios-version 11: expected an iOS version of 12 or later, such as 17 or 15.4"),
        ("--ios-version", "17a", "--ios-version 17a: expected an iOS version of 12 or later, such as 17 or 15.4"),
        ("--sdk", "latest", "--sdk latest: expected a version such as 0.1.22, or android=V,ios=V,web=V"),
        ("--sdk", "", "--sdk : expected a version such as 0.1.22, or android=V,ios=V,web=V"),
        ("--sdk", "v0.1.22", "--sdk v0.1.22: expected a version such as 0.1.22, or android=V,ios=V,web=V"),
        ("--sdk", "mac=0.1.22", "--sdk mac=0.1.22: expected android=V,ios=V,web=V (e.g. --sdk android=0.1.21,ios=0.1.21)"),
        ("--sdk", "android=", "--sdk android=: expected android=V,ios=V,web=V (e.g. --sdk android=0.1.21,ios=0.1.21)"),
        ("--sdk", "android=new", "--sdk android=new: new is not a version such as 0.1.22"),
        ("--flavor", "kotlin", "--flavor kotlin: unknown flavor; use native, flutter or react-native"),
        ("--app", "", "--app needs a name, such as com.example.chat"),
        ("--ios-communication", "maybe", "--ios-communication maybe: use on or off"),
        ("--locale", "zh Hans", "--locale \"zh Hans\": a space is not allowed in a language tag; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"),
        ("--locale", "", "--locale \"\": the tag is empty; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"),
        ("--locale", "中文", "--locale \"中文\": `中` is not allowed in a language tag; use a language tag such as en, en-GB, zh-Hans, zh-TW or fa"),
        ("--group-by", "", "--group-by : expected a dotted path into the payload, such as data.payload.room"),
        ("--group-by", ".data.room", "--group-by .data.room: expected a dotted path into the payload, such as data.payload.room"),
        ("--group-by", "data.", "--group-by data.: expected a dotted path into the payload, such as data.payload.room"),
        ("--group-by", "data..room", "--group-by data..room: expected a dotted path into the payload, such as data.payload.room"),
        ("--bundle-at", "1", "--bundle-at 1: expected a whole number of 2 or more (default 4)"),
        ("--bundle-at", "four", "--bundle-at four: expected a whole number of 2 or more (default 4)"),
        ("--bundle-at", "-4", "--bundle-at -4: expected a whole number of 2 or more (default 4)"),
    ])
    func badValuesNameTheProblemAndTheFix(name: String, value: String, message: String) {
        var options = ProfileOptions()
        #expect(throws: UsageError(message)) { try options.set(name, value) }
        #expect(options == ProfileOptions())
    }

    @Test func anOptionThatIsNotAProfileOptionIsLeftToTheCommand() throws {
        var options = ProfileOptions()
        #expect(try options.set("--trace", "x") == false)
        #expect(options == ProfileOptions())
    }

    @Test func stringsIsRepeatable() throws {
        var options = ProfileOptions()
        _ = try options.set("--strings", "a.strings")
        _ = try options.set("--strings", "strings.xml")
        #expect(options.stringFiles == ["a.strings", "strings.xml"])
    }

    @Test func theDefaultIsOneAndroid14ProfileWithSDK0_1_22() {
        #expect(ProfileOptions().profiles == [Profile(platform: .android, osVersion: Version(14), sdk: Version(0, 1, 22))])
        let profile = ProfileOptions().profiles[0]
        #expect("\(profile.app) \(profile.locale) \(profile.bundleAt) \(profile.flavor) \(profile.iosCommunication)" == "app en 4 native true")
    }

    @Test func optionsBecomeOneProfilePerPlatform() throws {
        var options = ProfileOptions()
        for (name, value) in [("--platform", "all"), ("--android-version", "10"), ("--ios-version", "14"), ("--sdk", "android=0.1.21"),
                              ("--flavor", "flutter"), ("--app", "com.example.chat"), ("--ios-communication", "off"),
                              ("--locale", "zh-Hans"), ("--group-by", "data.room"), ("--bundle-at", "3")] {
            _ = try options.set(name, value)
        }
        func profile(_ platform: Platform, os: Version?, sdk: Version?) -> Profile {
            Profile(platform: platform, osVersion: os, sdk: sdk, flavor: .flutter, app: "com.example.chat", iosCommunication: false,
                    locale: "zh-Hans", groupBy: "data.room", bundleAt: 3)
        }
        #expect(options.profiles == [profile(.android, os: Version(10), sdk: Version(0, 1, 21)),
                                     profile(.ios, os: Version(14), sdk: nil),
                                     profile(.web, os: nil, sdk: nil)])
        #expect(options.profiles.map(\.summary) == ["Android 10 · SDK 0.1.21 · Flutter", "iOS 14 · SDK 0.1.31 · Flutter · no comm. capability", "Web · SDK 0.1.15"])
    }

    @Test(arguments: [("0.1.22", "0.1.22", true), ("0.1.100", "0.1.22", false), ("1", "1.0.0", true), ("0.2", "0.1.31", false)])
    func versionsCompareByComponent(a: String, b: String, equal: Bool) throws {
        let x = try #require(Version(a))
        let y = try #require(Version(b))
        #expect((x == y) == equal)
        #expect((x.hashValue == y.hashValue) || !equal)
        if !equal { #expect(y < x) }
    }
}
