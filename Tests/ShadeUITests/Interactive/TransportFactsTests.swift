import Testing
import ShadeCore
import ShadeUI

// How a live push travelled (protocol, TLS host, proxy) in the inspector and the TLS/proxy state in
// the header of the live UI.

private func newestItem(channel: Channel?) -> Item {
    var intake = Intake()
    let transport = Transport(headers: ["apns-push-type": "alert"], path: "/3/device/aabb", via: "apns", channel: channel)
    let outcomes = intake.document(Array(#"{"aps":{"alert":"hi"}}"#.utf8), source: "tcp 127.0.0.1:5000#3", transport: transport)
    var center = Center(profile: Profile(platform: .ios))
    for outcome in outcomes { center.apply(outcome) }
    return center.state.items[0]
}

private func pushSection(_ item: Item) -> [String] {
    let lines = Inspector.lines(for: item, platform: .ios).map { $0.map(\.text).joined() }
    guard let start = lines.firstIndex(of: "Newest push") else { return [] }
    return Array(lines[start...].prefix { !$0.isEmpty })
}

@Test func theInspectorSaysHowThePushCameThroughTheProxy() {
    let channel = Channel(framing: .http2, tls: "TLSv1.3", serverName: "api.push.apple.com", proxiedTo: "api.push.apple.com:443")
    #expect(pushSection(newestItem(channel: channel)) == [
        "Newest push",
        "  source      tcp 127.0.0.1:5000#3:1",
        "  shape       D4 APNs payload",
        "  via         apns",
        "  route       /3/device/aabb",
        "  protocol    HTTP/2 over TLS (TLSv1.3)",
        "  TLS host    api.push.apple.com",
        "  proxy       through Shade's proxy: CONNECT api.push.apple.com:443",
        "  apns-push-type alert",
    ])
}

@Test func theInspectorSaysACleartextPushCameStraightAndAFilePushSaysNothing() {
    let direct = pushSection(newestItem(channel: Channel(framing: .http1)))
    #expect(direct.contains("  protocol    HTTP/1.1 cleartext"))
    #expect(direct.contains("  proxy       no, straight to Shade"))
    #expect(!direct.contains { $0.hasPrefix("  TLS host") })
    #expect(!pushSection(newestItem(channel: nil)).contains { $0.hasPrefix("  protocol") })
}

@Test func channelsDescribeThemselvesForTheLog() {
    #expect(Channel(framing: .http2, tls: "TLSv1.3", serverName: "localhost").description == "HTTP/2 over TLS (TLSv1.3), SNI localhost")
    #expect(Channel(framing: .http1, tls: "TLSv1.2").description == "HTTP/1.1 over TLS (TLSv1.2), no SNI")
    #expect(Channel(framing: .ndjson, isUnixSocket: true).description == "NDJSON on the unix socket")
    #expect(Channel(framing: .http1).isPlain && Channel(framing: .ndjson).isPlain)
    #expect(!Channel(framing: .http2).isPlain && !Channel(framing: .http1, proxiedTo: "exp.host:443").isPlain)
}

@Test func theHeaderShowsTheTLSAndProxyState() {
    let chrome = Chrome(title: "listening on http://127.0.0.1:4747", network: "TLS·h2 3 handshakes · proxy 2 intercepted, 1 relayed")
    let screen = InteractiveScreen.compose([], model: InteractiveModel(view: ViewState(platforms: [.ios])), chrome: chrome,
                                           columns: 120, rows: 20)
    #expect(screen.plainLines()[0] == " Shade │ listening on http://127.0.0.1:4747 │ TLS·h2 3 handshakes · proxy 2 intercepted, 1 relayed"
        + String(repeating: " ", count: 15) + "p: iOS ")
}
