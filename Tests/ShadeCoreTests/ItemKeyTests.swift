import Testing
@testable import ShadeCore

/// `ItemKey.id` spells an item's id from its parts (`c␟room_42`, `t␟app␟tag`, …) into one string of
/// its size. The spelling is what `Item.id` has always been: the parts joined by ␟ after the prefix.
@Test(arguments: ["room_42", "", "王小明的房间", "x\u{1F}y", "é\u{301}", String(repeating: "long", count: 40)])
func itemIDsSpellTheirPartsAsTheyAlwaysHave(text: String) {
    let app = "com.example.chat"
    #expect(ItemKey.conversation(text).id == "c\u{1F}" + text)
    #expect(ItemKey.tag(app, text).id == "t\u{1F}\(app)\u{1F}\(text)")
    #expect(ItemKey.tag(text, app).id == "t\u{1F}\(text)\u{1F}\(app)")
    #expect(ItemKey.collapseKey(text, text).id == "k\u{1F}\(text)\u{1F}\(text)")
    #expect(ItemKey.appStack(text).id == "a\u{1F}" + text)
    #expect(ItemKey.untagged(push: 7).id == "n\u{1F}7")
    #expect(ItemKey.tag(app, text).id.utf8.count == 1 + app.utf8.count + 1 + text.utf8.count + 1)
}
