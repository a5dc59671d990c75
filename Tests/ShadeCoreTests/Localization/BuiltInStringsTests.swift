import Testing
@testable import ShadeCore

/// SPEC L2 and seed 001: the built-in table, through the same path a push takes.
struct BuiltInStringsTests {
    @Test func L2_theThirteenKeysInSeedOrder() {
        #expect(BuiltInStrings.keys == [
            "im_loc_text", "im_loc_image", "im_loc_video", "im_loc_audio", "im_loc_sticker",
            "im_loc_location", "im_loc_file", "im_loc_joinRoom", "im_loc_leaveRoom",
            "im_loc_addMember", "im_loc_addMembers", "im_loc_deleteMember", "im_loc_encrypted",
        ])
    }

    // Every key × every built-in language, args ["Alice", "你好"], on both platforms.
    static let expected: [(locale: String, key: String, text: String)] = [
        ("en", "im_loc_text", "Alice: 你好"),
        ("en", "im_loc_image", "Alice sent a photo"),
        ("en", "im_loc_video", "Alice sent a video"),
        ("en", "im_loc_audio", "Alice sent a voice message"),
        ("en", "im_loc_sticker", "Alice sent a sticker"),
        ("en", "im_loc_location", "Alice shared a location"),
        ("en", "im_loc_file", "Alice sent a file"),
        ("en", "im_loc_joinRoom", "Alice joined the chat"),
        ("en", "im_loc_leaveRoom", "Alice left the chat"),
        ("en", "im_loc_addMember", "Alice invited 你好"),
        ("en", "im_loc_addMembers", "Alice invited several people"),
        ("en", "im_loc_deleteMember", "Alice removed 你好 from the chat"),
        ("en", "im_loc_encrypted", "You received an encrypted message"),
        ("zh-Hans", "im_loc_text", "Alice: 你好"),
        ("zh-Hans", "im_loc_image", "Alice 发送了一张图片"),
        ("zh-Hans", "im_loc_video", "Alice 发送了一段视频"),
        ("zh-Hans", "im_loc_audio", "Alice 发送了一段语音"),
        ("zh-Hans", "im_loc_sticker", "Alice 发送了一张贴图"),
        ("zh-Hans", "im_loc_location", "Alice 分享了位置"),
        ("zh-Hans", "im_loc_file", "Alice 发送了一个文件"),
        ("zh-Hans", "im_loc_joinRoom", "Alice 加入了聊天室"),
        ("zh-Hans", "im_loc_leaveRoom", "Alice 离开了聊天室"),
        ("zh-Hans", "im_loc_addMember", "Alice 邀请了 你好"),
        ("zh-Hans", "im_loc_addMembers", "Alice 邀请了多人"),
        ("zh-Hans", "im_loc_deleteMember", "Alice 将 你好 移出聊天室"),
        ("zh-Hans", "im_loc_encrypted", "您收到一则加密消息"),
        ("zh-Hant", "im_loc_text", "Alice: 你好"),
        ("zh-Hant", "im_loc_image", "Alice 傳送了一張圖片"),
        ("zh-Hant", "im_loc_video", "Alice 傳送了一段影片"),
        ("zh-Hant", "im_loc_audio", "Alice 傳送了一段語音"),
        ("zh-Hant", "im_loc_sticker", "Alice 傳送了一張貼圖"),
        ("zh-Hant", "im_loc_location", "Alice 分享了位置"),
        ("zh-Hant", "im_loc_file", "Alice 傳送了一個檔案"),
        ("zh-Hant", "im_loc_joinRoom", "Alice 加入了聊天室"),
        ("zh-Hant", "im_loc_leaveRoom", "Alice 離開了聊天室"),
        ("zh-Hant", "im_loc_addMember", "Alice 邀請了 你好"),
        ("zh-Hant", "im_loc_addMembers", "Alice 邀請了多人"),
        ("zh-Hant", "im_loc_deleteMember", "Alice 將 你好 移出聊天室"),
        ("zh-Hant", "im_loc_encrypted", "您收到一則加密訊息"),
    ]

    @Test(arguments: expected)
    func L2_builtInKeyInEveryLocale(locale: String, key: String, text: String) throws {
        let tables = StringTables(locale: try LocaleTag.parse(locale))
        #expect(resolveIOS(key: key, args: ["Alice", "你好"], tables: tables).text == text)
        #expect(resolveAndroid(key: key, args: ["Alice", "你好"], tables: tables).text == text)
    }

    @Test func L2_everyKeyOfEveryLanguageIsCovered() {
        let covered = Set(Self.expected.map { "\($0.locale) \($0.key)" })
        let all = Set(BuiltInLanguage.allCases.flatMap { language in BuiltInStrings.keys.map { "\(language.rawValue) \($0)" } })
        #expect(covered == all)
    }

    // The seed's own examples (seed 001, 本地化 key 清单).
    @Test(arguments: [
        ("im_loc_text", ["Alice", "你好"], "Alice: 你好"),
        ("im_loc_image", ["Alice"], "Alice 发送了一张图片"),
        ("im_loc_deleteMember", ["Alice", "Bob"], "Alice 将 Bob 移出聊天室"),
        ("im_loc_addMember", ["Alice", "Bob"], "Alice 邀请了 Bob"),
        ("im_loc_encrypted", [], "您收到一则加密消息"),
    ])
    func L2_seedExamplesInZhHans(key: String, args: [String], text: String) throws {
        let tables = StringTables(locale: try LocaleTag.parse("zh-Hans"))
        let ios = resolveIOS(key: key, args: args, tables: tables)
        #expect(ios.text == text)
        #expect(ios.argumentMismatch == false)
        #expect(resolveAndroid(key: key, args: args, tables: tables).text == text)
    }

    @Test func L2_unknownKeyIsNotBuiltIn() {
        #expect(BuiltInStrings.format(for: "im_loc_gift", in: .en) == nil)
        #expect(BuiltInStrings.format(for: "im_loc_text", in: .zhHant) == "$1: $2")
    }
}
