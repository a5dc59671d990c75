import Testing
@testable import ShadeCore

// What a service worker receives, read as a payload (DESIGN, Web Push receiver): D6 first, then
// D2–D8; anything else is text a worker would show as the body.

@Test(arguments: [
    (#"{"title":"Hi","options":{"body":"there"}}"#, PayloadShape.webPush, #"{"title":"Hi","options":{"body":"there"}}"#,
     "the plaintext is JSON, read as a D6 web push notification (what event.data.json() gives the worker)"),
    (#"{"web_push":8030,"notification":{"title":"Hi","navigate":"https://example.com"}}"#, .webPush,
     #"{"web_push":8030,"notification":{"title":"Hi","navigate":"https://example.com"}}"#,
     "the plaintext is JSON, read as a D6 web push notification (what event.data.json() gives the worker)"),
    // D6 before D7: a showNotification payload that also carries a `notification` key is still D6.
    (#"{"title":"Hi","options":{},"notification":{"title":"x"}}"#, .webPush, #"{"title":"Hi","options":{},"notification":{"title":"x"}}"#,
     "the plaintext is JSON, read as a D6 web push notification (what event.data.json() gives the worker)"),
    (#"{"message":{"notification":{"title":"Hi"}}}"#, .fcmV1, #"{"message":{"notification":{"title":"Hi"}}}"#,
     "the plaintext is JSON, read as D2 FCM HTTP v1 request (what event.data.json() gives the worker)"),
    ("Ali: are you there?", .webPush, #"{"title":"","options":{"body":"Ali: are you there?"}}"#,
     "the plaintext is not JSON: a notification whose body is the text, as event.data.text() gives it to a worker that shows it"),
    (#"{"hello":"world"}"#, .webPush, #"{"title":"","options":{"body":"{\"hello\":\"world\"}"}}"#,
     "the plaintext is JSON of no payload shape Shade knows: shown as text, the body being what event.data.text() gives a worker that shows it"),
    (#"[{"title":"a","options":{}}]"#, .webPush, #"{"title":"","options":{"body":"[{\"title\":\"a\",\"options\":{}}]"}}"#,
     "the plaintext is JSON of no payload shape Shade knows: shown as text, the body being what event.data.text() gives a worker that shows it"),
    (#"{"payload":{"aps":{}},"via":"apns"}"#, .webPush, #"{"title":"","options":{"body":"{\"payload\":{\"aps\":{}},\"via\":\"apns\"}"}}"#,
     "the plaintext is JSON of no payload shape Shade knows: shown as text, the body being what event.data.text() gives a worker that shows it"),
    ("", .webPush, #"{"title":"","options":{}}"#,
     "a push without data: the worker's event.data is null and it has nothing to show (counted silent)"),
] as [(String, PayloadShape, String, String)])
func webPushPlaintextIsReadAsTheWorkerWouldGetIt(plaintext: String, shape: PayloadShape, payload: String, note: String) {
    let reading = WebPushPlaintext.read(Array(plaintext.utf8))
    #expect(reading.shape == shape)
    #expect(JSONWriter.compact(reading.payload) == payload)
    #expect(reading.note == note)
}

@Test func invalidUTF8IsReplacedAsEventDataTextDoes() {
    let reading = WebPushPlaintext.read([0x48, 0x69, 0xFF, 0x21])
    #expect(reading.payload["options"]?["body"]?.string == "Hi\u{FFFD}!")
}

@Test func aPushThroughWebPushReachesTheWebProfileOnly() {
    let payload = JSON.object(JSONObject(["message": .object(JSONObject(["notification": .object(JSONObject(["title": .string("Hi")]))]))]))
    let fromFCM = Push(id: 1, payload: payload, shape: .fcmV1, transport: Transport(via: "fcm"), source: SourcePosition(name: "t"))
    var fromWebPush = fromFCM
    fromWebPush.transport.via = Push.webPushVia
    #expect(fromFCM.platforms == [.android, .ios, .web])
    #expect(fromWebPush.platforms == [.web])
    #expect(fromWebPush.delivery(on: .android, defaultApp: "app") == .elsewhere)
}

@Test func textPlaintextIsAWebNotificationWithThatBodyAndAnEmptyOneIsSilent() {
    var center = Center(profile: ProfileOptions().profile(.web))
    for text in ["Ali: are you there?", ""] {
        let reading = WebPushPlaintext.read(Array(text.utf8))
        center.receive(Push(id: center.received + 1, payload: reading.payload, shape: reading.shape,
                            transport: Transport(via: Push.webPushVia), source: SourcePosition(name: "t")))
    }
    let state = center.state
    #expect([state.received, state.shown, state.silent] == [2, 1, 1])
    #expect(state.items.first?.lines.map(\.text) == ["Ali: are you there?"])
}
