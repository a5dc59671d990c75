import Foundation
import Synchronization
import Testing
import ShadeCore
@testable import ShadeIO

// The connection layers against a LiveSession on real sockets: protocol detection, TLS, HTTP/2, the
// CONNECT proxy and the deadlines, driven by real clients (the h2 library, Python's ssl, curl).

/// A configuration with a CA of its own in a temporary directory.
func tlsConfiguration(_ change: (inout PollLoop.Configuration) -> Void = { _ in }) -> PollLoop.Configuration {
    var configuration = PollLoop.Configuration()
    configuration.certificateDirectory = temporaryFile("ca")
    change(&configuration)
    return configuration
}

// MARK: Detection

@Test(arguments: [
    ("{\"aps\": {}}", DetectedProtocol.ndjson),
    ("  \r\n[1, 2]", .ndjson),
    ("GET / HTTP/1.1\r\n", .http1),
    ("POST /push HTTP/1.1\r\n", .http1),
    ("PUT /x HTTP/1.1\r\n", .http1),
    ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", .http2),
    ("PRI * HTTP/1.1\r\n\r\n", .http1),
    ("\u{16}\u{03}\u{01}\u{02}\u{00}", .tls),
])
func theFirstBytesTellTheProtocolWhateverTheReadsAre(_ stream: String, _ expected: DetectedProtocol) {
    let bytes = Array(stream.utf8)
    #expect(ProtocolDetector.detect(bytes[...], allowTLS: true) == expected)
    // Fed one byte more at a time, the answer is either "not yet" or the same one, and once given it stays.
    var answered: DetectedProtocol?
    for count in 1...bytes.count {
        let answer = ProtocolDetector.detect(bytes.prefix(count), allowTLS: true)
        if let answered { #expect(answer == answered) }
        if let answer { #expect(answer == expected); answered = answer }
    }
}

@Test func aPrefixOfThePrefaceOrOnlyWhitespaceIsNotYetDecided() {
    #expect(ProtocolDetector.detect(Array("PRI * HTTP/2.0\r\n".utf8)[...], allowTLS: true) == nil)
    #expect(ProtocolDetector.detect(Array("  \r\n".utf8)[...], allowTLS: true) == nil)
    #expect(ProtocolDetector.detect([][...], allowTLS: true) == nil)
    // Inside TLS a handshake byte is not TLS again: HTTP/1.1's parser refuses it.
    #expect(ProtocolDetector.detect([0x16, 0x03][...], allowTLS: false) == .http1)
}

@Test func ndjsonArrivingOneByteAtATimeOverTCPIsAnswered() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    for byte in bytes("{\"aps\": {\"alert\": \"slow\"}}\n") {
        try client.write([byte])
        usleep(500)
    }
    #expect(text(try client.readLine()) == "{\"ok\": true, \"id\": 1}")
}

@Test func http2PrefaceAndRequestOneByteAtATimeAreAnswered() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let reply = try ClientScripts.run("h2_probe.py", ["bytewise", String(server.port)])
    #expect(reply == "{\"status\": \"200\", \"body\": \"{\\\"ok\\\": true, \\\"id\\\": 1}\"}\n")
}

// MARK: TLS

@Test func tlsHandshakeAndRequestOneByteAtATimeWithTheLeafForTheSNIName() throws {
    let configuration = tlsConfiguration()
    let server = try LiveServer(configuration: configuration)
    defer { server.stop() }
    _ = try curl(["--http1.1", "-k", "https://127.0.0.1:\(server.port)/healthz"])   // makes the CA
    let ca = configuration.certificateDirectory! + "/ca.pem"
    let reply = try ClientScripts.run("tls_probe.py", ["bytewise", String(server.port), ca, "api.push.apple.com"])
    #expect(reply == "{\"alpn\": \"http/1.1\", \"names\": [\"api.push.apple.com\"], \"reply\": \"HTTP/1.1 200 OK\\r\\n"
        + "Content-Type: text/plain\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nok\"}\n")
}

@Test(.enabled(if: curlAvailable)) func withoutSNITheLeafNamesLocalhostAnd127001() throws {
    let configuration = tlsConfiguration()
    let server = try LiveServer(configuration: configuration)
    defer { server.stop() }
    _ = try curl(["-k", "https://127.0.0.1:\(server.port)/healthz"])
    let ca = configuration.certificateDirectory! + "/ca.pem"
    // curl checks the name against the certificate: both spellings of this machine pass.
    for url in ["https://127.0.0.1:\(server.port)/healthz", "https://localhost:\(server.port)/healthz"] {
        let result = try curl(["--cacert", ca, "--write-out", " %{http_version}", url])
        #expect(result.stderr == "")
        #expect(result.stdout == "ok 2")
    }
}

@Test func aHandshakeCutShortLeavesTheServerServing() throws {
    let server = try LiveServer(configuration: tlsConfiguration())
    defer { server.stop() }
    for _ in 0..<3 {
        #expect(try ClientScripts.run("tls_probe.py", ["cut", String(server.port)]).hasPrefix("{\"sent\": "))
    }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    #expect(text(try client.request(method: "GET", path: "/healthz").body) == "ok")
}

@Test func aHandshakeThatNeverFinishesIsClosedAtTheRequestDeadlineAndDoesNotHoldTheLoop() throws {
    let server = try LiveServer(configuration: tlsConfiguration { $0.requestTimeoutMillis = 800 })
    defer { server.stop() }
    let (stall, output) = try ClientScripts.start("tls_probe.py", ["stall", String(server.port)])
    defer { if stall.isRunning { stall.terminate() } }
    usleep(300_000)   // the half ClientHello is in
    let started = Date()
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    #expect(text(try client.request(method: "GET", path: "/healthz").body) == "ok")
    #expect(Date().timeIntervalSince(started) < 0.2)
    let closed = try JSONParser.parse(Array(readLine(output).utf8))
    var after = -1.0
    if case .number(let seconds)? = closed["closed_after"] { after = Double(seconds) ?? -1 }
    #expect(after > 0.3 && after < 3, "closed after \(after) s")
    #expect(closed["received"] == .number("0"))
}

@Test func theCAIsMadeOnceWithPrivateFilesAndReadBack() throws {
    let directory = temporaryFile("ca")
    let made = try CertificateAuthority.loadOrCreate(directory: directory)
    var status = stat()
    stat(directory, &status)
    #expect(status.st_mode & 0o777 == 0o700)
    for name in ["ca.pem", "ca-key.pem"] {
        stat(directory + "/" + name, &status)
        #expect(status.st_mode & 0o777 == 0o600, "\(name)")
    }
    let again = try CertificateAuthority.loadOrCreate(directory: directory)
    #expect(again.certificatePEM == made.certificatePEM)
    #expect(made.certificate.commonName?.hasPrefix("Shade local CA (") == true)
    unlink(directory + "/ca.pem")
    #expect(throws: CertificateError("\(directory)/ca-key.pem exists without \(directory)/ca.pem — remove the key to have Shade make a new CA")) {
        try CertificateAuthority.loadOrCreate(directory: directory)
    }
}

@Test func leavesAreMadePerNameAndCached() throws {
    let leaves = try LeafCertificates(authority: try CertificateAuthority.loadOrCreate(directory: temporaryFile("ca")))
    let apple = try leaves.certificate(for: "api.push.apple.com")
    #expect(apple.commonName == "api.push.apple.com")
    #expect(try leaves.certificate(for: "api.push.apple.com") === apple)
    #expect(try leaves.certificate(for: nil).commonName == "localhost")
    #expect(HostName.isAcceptable("fcm.googleapis.com"))
    #expect(!HostName.isAcceptable("evil\r\nname"))
    #expect(!HostName.isAcceptable(String(repeating: "a", count: 254)))
}

// MARK: HTTP/2

@Test func manyStreamsOnOneConnectionAreAnsweredAndRefusalsDoNotResetIt() throws {
    var options = ProfileOptions()
    options.platforms = [.ios]
    let server = try LiveServer(options: options)
    defer { server.stop() }
    let reply = try JSONParser.parse(Array(try ClientScripts.run("h2_probe.py", ["streams", String(server.port)]).utf8))
    let replies = reply["replies"]?.array ?? []
    #expect(replies.count == 100)
    for (n, stream) in replies.enumerated() {
        switch n {
        case 10:
            #expect(compact(stream) == #"{"n":10,"status":"400","body":"{\"reason\": \"BadPayload\", \"message\": \"invalid JSON (V8) at line 1, column 9: unexpected end of input: expected a value\"}"}"#)
        case 20:
            #expect(compact(stream) == #"{"n":20,"status":"413","body":"{\"reason\": \"PayloadTooLarge\"}"}"#)
        default:
            #expect(compact(stream) == "{\"n\":\(n),\"status\":\"200\",\"body\":\"\"}")
        }
    }
    #expect(reply["after"]?.string == "ok")
    #expect(reply["terminated"] == JSON.bool(false))
    let state = try server.state(platform: "ios")
    #expect(compact(state["received"]) == "100")
    #expect(compact(state["rejected"]) == "2")
}

/// Streams on one HTTP/2 connection that go back and forth between paths and methods are each routed
/// by their own `:path` and `:method` (a connection keeps its last path's text to reuse it): the
/// recording holds each accepted push under the path it came to, in order.
@Test func eachStreamOfAConnectionIsRoutedByItsOwnPath() throws {
    let server = try LiveServer(record: true)
    let recordPath = try #require(server.recordPath)
    let replies = try JSONParser.parse(Array(try ClientScripts.run("h2_probe.py", ["paths", String(server.port)]).utf8)).array ?? []
    #expect(replies.map { $0["status"]?.string ?? "-" } == ["200", "200", "200", "200", "200", "404", "200", "405", "200", "200"])
    #expect(server.stop())
    let recorded = try String(contentsOfFile: recordPath, encoding: .utf8).split(separator: "\n").map { line in
        (try? JSONParser.parse(String(line)))?["path"]?.string ?? "?"
    }
    #expect(recorded == ["/3/device/aa01", "/3/device/bb02", "/3/device/aa01", "/3/device/aa01", "/3/device/bb02",
                         "/3/device/aa0", "/3/device/aa01"])
}

/// An `apns-id` is new on every reply, so it goes out never-indexed (HPACK's literal without indexing):
/// in the dynamic table it would only push out entries that repeat. The other fields are indexed as before.
@Test func anAPNsReplysIDGoesOutNeverIndexedOverHTTP2() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let replies = try JSONParser.parse(Array(try ClientScripts.run("h2_probe.py", ["indexing", String(server.port)]).utf8)).array ?? []
    #expect(replies.count == 3)
    var ids: Set<String> = []
    for reply in replies {
        #expect(reply["status"]?.string == "200")
        #expect(compact(reply["never indexed"]) == #"["apns-id"]"#)
        if let id = reply["apns-id"]?.string { ids.insert(id) }
    }
    #expect(ids.count == 3)
}

@Test func http2ClientsAreToldGOAWAYWhenShadeShutsDown() throws {
    let server = try LiveServer()
    let (probe, output) = try ClientScripts.start("h2_probe.py", ["goaway", String(server.port)])
    defer { if probe.isRunning { probe.terminate() } }
    #expect(readLine(output) == "ready")
    #expect(server.stop())
    #expect(readLine(output) == "{\"error_code\": 0, \"last_stream_id\": 1}")
}

@Test(.enabled(if: curlAvailable)) func everyRouteAnswersTheSameOverHTTP1AndHTTP2() throws {
    // Two fresh sessions, so the push numbers in the replies are the same; the UUIDs' random first group is not.
    let http1 = try LiveServer(), http2 = try LiveServer()
    defer { http1.stop(); http2.stop() }
    func sameUUIDs(_ body: String) -> String {
        body.replacingOccurrences(of: "[0-9A-F]{8}-0000-4000-8000-", with: "UUID-", options: .regularExpression)
    }
    let cases: [(String, String)] = [
        ("/3/device/00ff", #"{"aps":{"alert":"hi"}}"#),
        ("/3/device/zz", #"{"aps":{"alert":"hi"}}"#),
        ("/v1/projects/p/messages:send", #"{"message":{"token":"t","notification":{"title":"T","body":"B"}}}"#),
        ("/fcm/send", #"{"to":"t","notification":{"title":"T","body":"B"}}"#),
        ("/--/api/v2/push/send", #"{"to":"ExponentPushToken[x]","title":"T","body":"B"}"#),
        ("/push", #"{"aps":"#),
        ("/nowhere", "{}"),
    ]
    for (path, body) in cases {
        let one = try curlRequest(["--http1.1", "-H", "apns-id: 11111111-0000-4000-8000-000000000001", http1.base + path, "-d", body])
        let two = try curlH2Request(["--http2-prior-knowledge", "-H", "apns-id: 11111111-0000-4000-8000-000000000001", http2.base + path, "-d", body])
        #expect(one.status == two.status, "\(path)")
        #expect(sameUUIDs(one.body) == sameUUIDs(two.body), "\(path)")
        #expect(one.headers["apns-id"] == two.headers["apns-id"], "\(path)")
        #expect(one.headers["content-type"] == two.headers["content-type"], "\(path)")
    }
}

/// curl's reply over HTTP/2 (its status line is `HTTP/2 200`).
func curlH2Request(_ arguments: [String]) throws -> CurlReply {
    let result = try curl(["--include"] + arguments)
    guard result.status == 0, let end = result.stdout.range(of: "\r\n\r\n") else { throw SocketError("curl failed: \(result.stderr)") }
    var lines = result.stdout[..<end.lowerBound].components(separatedBy: "\r\n")
    let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
    var headers: [String: String] = [:]
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return CurlReply(status: status, headers: headers, body: String(result.stdout[end.upperBound...]))
}

// MARK: CONNECT proxy

@Test func connectToAnInterceptedHostIsAnsweredByShade() throws {
    let server = try LiveServer(configuration: tlsConfiguration())
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    try client.write(bytes("CONNECT api.push.apple.com:443 HTTP/1.1\r\nHost: api.push.apple.com:443\r\n\r\n"))
    #expect(text(try client.readLine()) == "HTTP/1.1 200 Connection established")
    #expect(text(try client.readLine()) == "")
}

@Test(.enabled(if: curlAvailable)) func connectToAnyOtherHostIsRelayedUnchanged() throws {
    let upstream = try TestServer(unix: false)
    defer { upstream.stop() }
    let server = try LiveServer(configuration: tlsConfiguration())
    defer { server.stop() }
    // --proxytunnel: curl sends CONNECT even for http://, so the bytes pass through the tunnel as they are.
    let result = try curl(["--proxytunnel", "--proxy", server.base, "http://127.0.0.1:\(upstream.tcpPort)/relayed", "-d", "abc"])
    #expect(result.stderr == "")
    #expect(result.stdout == "{\"method\": \"POST\", \"path\": \"/relayed\", \"bytes\": 3, \"connection\": 1}")
    // A host name is looked up off the loop's thread, then relayed the same way.
    let named = try curl(["--proxytunnel", "--proxy", server.base, "http://localhost:\(upstream.tcpPort)/named"])
    #expect(named.stderr == "")
    #expect(named.stdout == "{\"method\": \"GET\", \"path\": \"/named\", \"bytes\": 0, \"connection\": 2}")
    #expect(compact(try server.state()["received"]) == "0")
}

@Test func withNoRelayOtherHostsAreRefusedWith403() throws {
    let server = try LiveServer(configuration: tlsConfiguration { $0.proxy = ProxyPolicy(extraHosts: ["push.example.com"], relays: false) })
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    try client.write(bytes("CONNECT 127.0.0.1:9 HTTP/1.1\r\n\r\n"))
    let body = "{\"error\": \"Shade intercepts only the push services' hosts (api.development.push.apple.com, api.push.apple.com, "
        + "api.sandbox.push.apple.com, exp.host, fcm.googleapis.com, oauth2.googleapis.com, push.example.com) and was started "
        + "with --no-relay, so it does not relay 127.0.0.1:9\"}"
    #expect(text(try client.readToEnd()) == "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        + "Connection: close\r\n\r\n" + body)
}

@Test func aRelayToANameThatDoesNotResolveIsAnswered502() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    try client.write(bytes("CONNECT no-such-host.invalid:443 HTTP/1.1\r\n\r\n"))
    let reply = text(try client.readToEnd())
    #expect(reply.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
    #expect(reply.contains("{\"error\": \"cannot resolve no-such-host.invalid: "))
}

@Test func aRelayToAnUnreachableHostIsAnswered502() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    try client.write(bytes("CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n"))   // nothing listens on port 1
    let reply = text(try client.readToEnd())
    #expect(reply.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
    #expect(reply.hasSuffix("{\"error\": \"cannot connect to 127.0.0.1:1: Connection refused\"}"))
}

// MARK: OAuth

@Test(.enabled(if: curlAvailable), arguments: [
    ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln",
     #"200 {"access_token": "ya29.shade-local-token-1", "expires_in": 3599, "token_type": "Bearer"}"#),
    ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=not-a-jwt",
     #"400 {"error": "invalid_grant", "error_description": "Invalid JWT: not a JWT: it has 1 dot-separated parts, not 3 (header.claims.signature)"}"#),
    ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=e30.bm90IGpzb24.c2ln",
     #"400 {"error": "invalid_grant", "error_description": "Invalid JWT: the JWT claims are not base64url JSON"}"#),
    ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=eyJhbGciOiJub25lIn0.e30.",
     #"400 {"error": "invalid_grant", "error_description": "Invalid JWT: it is not signed (a service account signs it with its private key)"}"#),
    ("grant_type=password&username=u",
     #"400 {"error": "unsupported_grant_type", "error_description": "Invalid grant_type: password; Shade answers the urn:ietf:params:oauth:grant-type:jwt-bearer grant of service accounts"}"#),
    ("assertion=x", #"400 {"error": "invalid_request", "error_description": "Missing required parameter: grant_type"}"#),
])
func oauthTokenAnswersAsGoogleDoes(_ form: String, _ expected: String) throws {
    let server = try LiveServer()
    defer { server.stop() }
    #expect(try curlRequest([server.base + "/token", "-d", form]).description == expected)
    #expect(compact(try server.state()["received"]) == "0")   // not a push
}

// MARK: Hostile clients (issue 10, deliver 4)

@Test func healthzIsAnsweredQuicklyWhile256HostileConnectionsAreOpenAndTheyAreClosedOnTime() throws {
    let server = try LiveServer(configuration: tlsConfiguration { $0.requestTimeoutMillis = 1_500 })
    defer { server.stop() }
    var hostile: [SendClient] = []
    for _ in 0..<256 {
        let client = try SendClient(connectingTo: .loopback(port: server.port))
        try client.write(bytes("{"))
        hostile.append(client)
    }
    // A slowloris at 1 byte/s: each byte used to restart the (then 30 s) idle timer, so it was held forever.
    let fd = try rawConnection(port: server.port)
    let request = bytes("POST /push HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n\r\n" + String(repeating: "x", count: 400))
    let stop = StopFlag()
    let stopped = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        for byte in request where !stop.isSet {
            guard send(fd, [byte], 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
            for _ in 0..<100 where !stop.isSet { usleep(10_000) }
        }
        stopped.signal()
    }
    defer {
        // The descriptor is closed only once the writer is done with it (a reused number would be another test's).
        stop.set()
        stopped.wait()
        close(fd)
    }
    usleep(200_000)
    var worst = 0.0
    for _ in 0..<5 {
        let started = Date()
        let client = try SendClient(connectingTo: .loopback(port: server.port))
        #expect(text(try client.request(method: "GET", path: "/healthz").body) == "ok")
        worst = max(worst, Date().timeIntervalSince(started))
    }
    #expect(worst < 0.05, "slowest /healthz took \(worst) s")
    let started = Date()
    #expect(text(try hostile[0].readToEnd()) == "{\"ok\": false, \"error\": \"line not completed within 1500 ms: a whole line must arrive "
        + "within that time; closing the connection\"}\n")
    #expect(text(try hostile[255].readToEnd()).hasPrefix("{\"ok\": false, \"error\": \"line not completed"))
    var reply = [UInt8](repeating: 0, count: 4096)
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let count = recv(fd, &reply, reply.count, 0)
    #expect(text(Array(reply.prefix(max(0, count)))).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
    #expect(Date().timeIntervalSince(started) < 3)
}

/// A plain blocking TCP socket to 127.0.0.1:port, for clients that write from another thread.
func rawConnection(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw SocketError("cannot connect to port \(port)") }
    return fd
}

@Test func anHTTP2BodyOverTheTransportLimitIsRefusedOnItsStreamAlone() throws {
    var configuration = PollLoop.Configuration()
    configuration.httpLimits.maxBodyBytes = 4500   // the probe's 5000-byte body on stream 20 is over it
    var options = ProfileOptions()
    options.platforms = [.ios]
    let server = try LiveServer(options: options, configuration: configuration)
    defer { server.stop() }
    let reply = try JSONParser.parse(Array(try ClientScripts.run("h2_probe.py", ["streams", String(server.port)]).utf8))
    let replies = reply["replies"]?.array ?? []
    #expect(compact(replies.count > 20 ? replies[20] : nil)
        == #"{"n":20,"status":"413","body":"{\"error\": \"request body is over the limit of 4500 bytes\"}"}"#)
    #expect(replies.filter { $0["status"]?.string == "200" }.count == 98)
    #expect(reply["after"]?.string == "ok")
    #expect(compact(try server.state(platform: "ios")["received"]) == "100")   // the refused body counts, as over HTTP/1.1
}

@Test(.enabled(if: curlAvailable)) func aLargeStateComesWholeOverHTTP2FlowControl() throws {
    let server = try LiveServer()
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.port))
    let lines = (1...1500).map { n in
        bytes("{\"userId\": \"u\", \"title\": \"@sender\(n % 40)\", \"body\": \"message number \(n) with some text to make it longer\", "
            + "\"data\": {\"conversationId\": \"room_\(n % 40)\", \"senderName\": \"@sender\(n % 40)\"}}")
    }
    #expect(try client.send(lines: lines).count == 1500)
    let http1 = try curl(["--http1.1", server.base + "/state?platform=all"])
    let http2 = try curl(["--http2-prior-knowledge", server.base + "/state?platform=all"])
    #expect(http1.stdout.utf8.count > 200_000)   // several times the 64 KiB window a client starts with
    #expect(http2.stdout == http1.stdout)
}

final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

@Test(arguments: ["api.push.apple.com:+443", "api.push.apple.com:443 ", "api.push.apple.com:0", "api.push.apple.com:65536",
                  "api.push.apple.com", "[::1]443", ":443"])
func aConnectAuthorityIsHostColonDigits(authority: String) {
    #expect(ConnectTarget(authority) == nil)
}

@Test func aConnectAuthorityNamesItsHostAndPort() throws {
    let target = try #require(ConnectTarget("API.Push.Apple.com:443"))
    #expect(target.description == "api.push.apple.com:443")
    #expect(ConnectTarget("[::1]:8443")?.description == "[::1]:8443")
}
