import Testing
import ShadeCore
@testable import ShadeUI

// The inspector's "Newest push" section says how a route read the push (DESIGN: Web Push receiver).

@Test func theInspectorShowsTheNotesARouteLeftOnThePush() throws {
    let reading = WebPushPlaintext.read(Array("Ali: are you there?".utf8))
    var push = Push(id: 1, payload: reading.payload, shape: reading.shape,
                    transport: Transport(headers: ["ttl": "60"], path: "/webpush/abc", via: Push.webPushVia), source: SourcePosition(name: "tcp"))
    push.notes = ["decrypted (aes128gcm) with the subscription's keys; " + reading.note]
    var center = Center(profile: ProfileOptions().profile(.web))
    center.receive(push)
    let item = try #require(center.state.items.first)
    let rows = Inspector.lines(for: item, platform: .web).map { $0.map(\.text).joined() }
    let section = rows.drop { $0 != "Newest push" }.prefix { !$0.isEmpty }
    #expect(Array(section) == [
        "Newest push",
        "  source      tcp",
        "  shape       D6 web push notification",
        "  via         webpush",
        "  route       /webpush/abc",
        "  ttl         60",
        "  note        decrypted (aes128gcm) with the subscription's keys; the plaintext is not JSON: a notification whose body is the text, as event.data.text() gives it to a worker that shows it",
    ])
}
