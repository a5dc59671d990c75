import Testing
@testable import ShadeCore

/// Platforms order, compare and hash by their place in `allCases` (SPEC's android, ios, web): the
/// order every state, summary and "for iOS, Web" list is written in.
@Suite struct PlatformTests {
    @Test func platformsSortInTheOrderOfAllCases() {
        #expect([Platform.web, .android, .ios].sorted() == [.android, .ios, .web])
        #expect(Platform.allCases == [.android, .ios, .web])
    }

    @Test func eachPlatformIsEqualOnlyToItselfAndKeysItsOwnEntry() {
        for a in Platform.allCases {
            for b in Platform.allCases {
                #expect((a == b) == (a.rawValue == b.rawValue))
                #expect((a < b) == (Platform.allCases.firstIndex(of: a)! < Platform.allCases.firstIndex(of: b)!))
            }
        }
        let table = Dictionary(uniqueKeysWithValues: Platform.allCases.map { ($0, $0.rawValue) })
        #expect(Platform.allCases.map { table[$0] } == ["android", "ios", "web"])
        #expect(Set(Platform.allCases).count == 3)
    }
}

/// `Push.onlyPlatform` is the one platform of `platforms` when there is one, over every sample's pushes
/// (APNs reaches iOS only, a Web Push message the web only, FCM legacy without a notification block no iOS).
@Test(arguments: SamplesStateTests.pushFiles)
func theOnlyPlatformIsTheOnePlatformAPushReaches(sample: String) throws {
    for case .push(let push) in try SamplesStateTests.outcomes(of: sample) {
        let platforms = push.platforms
        #expect(push.onlyPlatform == (platforms.count == 1 ? platforms.first : nil), "\(push.source)")
    }
}

/// `UTF8Text` answers as the same question asked of `String.utf8` and `lowercased()` would.
@Test(arguments: ["", "apns-topic", "Content-Type", "x-api-key", "coo\u{212A}ie", "é", "ABC", "a\u{0}b", "emoji 😀 text"])
func utf8TextAnswersAsTheUTF8ViewWould(text: String) {
    #expect(UTF8Text.isASCII(text) == text.utf8.allSatisfy { $0 < 0x80 })
    #expect(UTF8Text.isLowercaseASCII(text) == text.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) })
    #expect(UTF8Text.lowercased(text) == text.lowercased())
    #expect(UTF8Text.anyByte(of: text) { $0 == 0 } == text.utf8.contains(0))
}
