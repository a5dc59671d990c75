// L2: the IM keys of seed 001, as an app built on that SDK would ship them.
// `$1` is the sender's nickname, `$2` the message content. The zh-Hans column is
// the seed's own; en and zh-Hant are SPEC.md's translations of it.

/// A language Shade carries built-in strings for.
public enum BuiltInLanguage: String, Sendable, Equatable, CaseIterable {
    case en
    case zhHans = "zh-Hans"
    case zhHant = "zh-Hant"
}

/// The built-in table of seed 001 (SPEC L2). Keys outside it fall back as L5 says.
public enum BuiltInStrings {
    /// The keys in the order of the seed's table.
    public static let keys: [String] = rows.map(\.key)

    /// The format for `key` in `language`, or nil when the key is not one of the 13.
    public static func format(for key: String, in language: BuiltInLanguage) -> String? {
        guard let row = byKey[key] else { return nil }
        switch language {
        case .en: return row.en
        case .zhHans: return row.zhHans
        case .zhHant: return row.zhHant
        }
    }

    private struct Row {
        let key: String
        let en: String
        let zhHans: String
        let zhHant: String
    }

    private static let byKey: [String: Row] = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) })

    // Copied from the table under SPEC L2 (checked against the seed's zh-Hans column).
    private static let rows: [Row] = [
        Row(key: "im_loc_text", en: "$1: $2",
            zhHans: "$1: $2", zhHant: "$1: $2"),
        Row(key: "im_loc_image", en: "$1 sent a photo",
            zhHans: "$1 发送了一张图片", zhHant: "$1 傳送了一張圖片"),
        Row(key: "im_loc_video", en: "$1 sent a video",
            zhHans: "$1 发送了一段视频", zhHant: "$1 傳送了一段影片"),
        Row(key: "im_loc_audio", en: "$1 sent a voice message",
            zhHans: "$1 发送了一段语音", zhHant: "$1 傳送了一段語音"),
        Row(key: "im_loc_sticker", en: "$1 sent a sticker",
            zhHans: "$1 发送了一张贴图", zhHant: "$1 傳送了一張貼圖"),
        Row(key: "im_loc_location", en: "$1 shared a location",
            zhHans: "$1 分享了位置", zhHant: "$1 分享了位置"),
        Row(key: "im_loc_file", en: "$1 sent a file",
            zhHans: "$1 发送了一个文件", zhHant: "$1 傳送了一個檔案"),
        Row(key: "im_loc_joinRoom", en: "$1 joined the chat",
            zhHans: "$1 加入了聊天室", zhHant: "$1 加入了聊天室"),
        Row(key: "im_loc_leaveRoom", en: "$1 left the chat",
            zhHans: "$1 离开了聊天室", zhHant: "$1 離開了聊天室"),
        Row(key: "im_loc_addMember", en: "$1 invited $2",
            zhHans: "$1 邀请了 $2", zhHant: "$1 邀請了 $2"),
        Row(key: "im_loc_addMembers", en: "$1 invited several people",
            zhHans: "$1 邀请了多人", zhHant: "$1 邀請了多人"),
        Row(key: "im_loc_deleteMember", en: "$1 removed $2 from the chat",
            zhHans: "$1 将 $2 移出聊天室", zhHant: "$1 將 $2 移出聊天室"),
        Row(key: "im_loc_encrypted", en: "You received an encrypted message",
            zhHans: "您收到一则加密消息", zhHant: "您收到一則加密訊息"),
    ]
}
