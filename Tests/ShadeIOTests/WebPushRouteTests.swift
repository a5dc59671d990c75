import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// POST /webpush/{id} and GET /webpush/subscription on real sockets with curl. The subscription is
// the RFC 8291 §5 user agent's (its keys written where Shade keeps them), so the RFC's own message
// can be posted as an application server sent it; VAPID is py_vapid's token, at a time it is valid.

/// A data directory holding the RFC 8291 example's receiver as Shade's subscription.
func rfcSubscriptionDirectory() throws -> (directory: String, id: String) {
    let directory = temporaryFile("webpush")
    let stored = #"{"p256dh":"\#(RFC8291Example.receiverPublic)","auth":"\#(RFC8291Example.authSecret)","privateKey":"\#(RFC8291Example.receiverPrivate)"}"#
    try PrivateFiles.directory(directory)
    try PrivateFiles.write(Array(stored.utf8), to: directory + "/" + WebPushSubscription.fileName)
    return (directory, try WebPushSubscription.loadOrCreate(directory: directory).id)
}

/// py_vapid's token is for aud http://127.0.0.1:4747: requests say that host, and the clock is an hour before its exp.
let vapidArguments = ["-H", "Host: 127.0.0.1:4747", "-H", "Authorization: \(PyVapidTokens.vapid)"]
let vapidValidMillis = (PyVapidTokens.exp - 3600) * 1000

func webPushServer(record: Bool = false, unregistered: Set<String> = []) throws -> (LiveServer, String) {
    let (directory, id) = try rfcSubscriptionDirectory()
    var options = ProfileOptions()
    _ = try options.set("--platform", "web")
    let server = try LiveServer(options: options, record: record, unregistered: unregistered, webPushDirectory: directory,
                                credentialMillis: vapidValidMillis)
    return (server, id)
}

func rfcBodyFile() throws -> String {
    let path = temporaryFile("rfc8291.bin")
    try Data(b64(RFC8291Example.body)).write(to: URL(fileURLWithPath: path))
    return path
}

@Test(.enabled(if: curlAvailable)) func rfc8291MessagePostedToTheEndpointShowsItsTextOnTheWeb() throws {
    let (server, id) = try webPushServer(record: true)
    defer { server.stop() }
    let reply = try curlRequest([server.base + "/webpush/\(id)", "-H", "Content-Encoding: aes128gcm", "-H", "TTL: 120", "-H", "Urgency: low",
                                 "--data-binary", "@" + (try rfcBodyFile())] + vapidArguments)
    #expect(reply.status == 201)
    #expect(reply.body == "")
    #expect(reply.headers["ttl"] == "120")
    #expect(reply.headers["location"]?.range(of: #"^http://127\.0\.0\.1:4747/webpush/messages/[0-9A-F]{8}-0000-4000-8000-000000000001$"#,
                                              options: .regularExpression) != nil)
    let state = try server.state()
    #expect(compact(state["sections"]?.array?.first?["items"]?.array?.first?["lines"])
        == #"[{"sender":null,"senderId":null,"text":"When I grow up, I want to be a watermelon"}]"#)
    #expect(server.stop())
    let recorded = try String(contentsOfFile: server.recordPath!, encoding: .utf8)
    #expect(recorded == #"{"at":"2026-11-30T10:15:00.120Z","via":"webpush","path":"/webpush/\#(id)","headers":{"ttl":"120","urgency":"low"},"payload":{"title":"","options":{"body":"When I grow up, I want to be a watermelon"}}}"# + "\n")
}

/// Over HTTP/2 the host is `:authority`, unless the request carries a `host` field of its own, which
/// routes read as HTTP/1.1 sends it; each stream of a connection by its own fields.
@Test func overHTTP2TheSubscriptionsOriginIsTheAuthorityOrTheHostField() throws {
    let (server, id) = try webPushServer()
    defer { server.stop() }
    let replies = try JSONParser.parse(Array(try ClientScripts.run("h2_probe.py", ["host", String(server.port)]).utf8)).array ?? []
    #expect(replies.map { $0["endpoint"]?.string ?? "-" } == ["http://push.example:8443/webpush/\(id)",
                                                                "http://other.example:9/webpush/\(id)",
                                                                "http://third.example/webpush/\(id)"])
}

@Test(.enabled(if: curlAvailable)) func theSubscriptionRouteGivesThePushSubscriptionWithTheHostAsked() throws {
    let (server, id) = try webPushServer()
    defer { server.stop() }
    #expect(try curlRequest([server.base + "/webpush/subscription", "-H", "Host: localhost:9999"]).description
        == #"200 {"endpoint": "http://localhost:9999/webpush/\#(id)", "expirationTime": null, "keys": {"p256dh": "\#(RFC8291Example.receiverPublic)", "auth": "\#(RFC8291Example.authSecret)"}}"#)
}

@Test(.enabled(if: curlAvailable), arguments: [
    // (path suffix, extra curl arguments, body, expected reply, counted as a rejected push)
    ("nope", ["-H", "TTL: 60"], "x", #"404 {"code": 404, "error": "Not Found", "message": "no subscription nope: GET /webpush/subscription (or `shade subscription`) gives the one this Shade receives for"}"#, false),
    ("gone-id", ["-H", "TTL: 60"], "x", #"410 {"code": 410, "error": "Gone", "message": "the subscription gone-id is unregistered (--unregistered): the user unsubscribed or the browser dropped it — delete it from your database"}"#, false),
    ("ID", ["-H", "Content-Encoding: aes128gcm"], "x", #"400 {"code": 400, "error": "Bad Request", "message": "no TTL header: a push service needs to know how long to keep the message (RFC 8030 §5.2), e.g. TTL: 86400"}"#, true),
    ("ID", ["-H", "TTL: soon"], "x", #"400 {"code": 400, "error": "Bad Request", "message": "TTL soon is not a number of seconds (0 or more)"}"#, true),
    ("ID", ["-H", "TTL: 60", "-H", "Urgency: urgent"], "x", #"400 {"code": 400, "error": "Bad Request", "message": "Urgency urgent is not one of very-low, low, normal, high (RFC 8030 §5.3)"}"#, true),
    ("ID", ["-H", "TTL: 60", "-H", "Topic: not a topic!"], "x", #"400 {"code": 400, "error": "Bad Request", "message": "Topic not a topic! must be 1 to 32 characters of the base64url alphabet (RFC 8030 §5.4)"}"#, true),
    ("ID", ["-H", "TTL: 60", "-H", "Content-Encoding: aes128gcm"], String(repeating: "x", count: 4097), #"413 {"code": 413, "error": "Content Too Large", "message": "the encrypted body is 4097 bytes; push services take at most 4096"}"#, true),
    ("ID", ["-H", "TTL: 60"], "{\"title\":\"T\"}", #"400 {"code": 400, "error": "Bad Request", "message": "a body without Content-Encoding: push services take only encrypted bodies (aes128gcm, RFC 8291)"}"#, true),
    ("ID", ["-H", "TTL: 60", "-H", "Content-Encoding: aesgcm"], "x", #"400 {"code": 400, "error": "Bad Request", "message": "aesgcm needs Encryption: salt=SALT (16 bytes, base64url)"}"#, true),
    ("ID", ["-H", "TTL: 60", "-H", "Content-Encoding: aes128gcm"], "short", #"400 {"code": 400, "error": "Bad Request", "message": "the aes128gcm body is 5 bytes, shorter than its 21-byte header (RFC 8188 §2.1)"}"#, true),
] as [(String, [String], String, String, Bool)])
func webPushRefusalsAnswerAsPushServicesDo(path: String, arguments: [String], body: String, expected: String, counted: Bool) throws {
    let (server, id) = try webPushServer(record: true, unregistered: ["gone-id"])
    defer { server.stop() }
    let reply = try curlRequest([server.base + "/webpush/" + (path == "ID" ? id : path), "--data-binary", body] + vapidArguments + arguments)
    #expect(reply.description == expected)
    let state = try server.state()
    #expect(["received", "rejected", "shown"].map { compact(state[$0]) } == (counted ? ["1", "1", "0"] : ["0", "0", "0"]))
    #expect(server.stop())
    #expect(try String(contentsOfFile: server.recordPath!, encoding: .utf8) == "")
}

@Test(.enabled(if: curlAvailable)) func vapidIsRequiredAndAnswered401WithItsChallenge() throws {
    let (server, id) = try webPushServer()
    defer { server.stop() }
    let reply = try curlRequest([server.base + "/webpush/\(id)", "-H", "TTL: 60", "-H", "Content-Encoding: aes128gcm",
                                 "--data-binary", "@" + (try rfcBodyFile())])
    #expect(reply.status == 401)
    #expect(reply.headers["www-authenticate"] == "vapid")
    // Another origin than the one the token was signed for: 403.
    let elsewhere = try curlRequest([server.base + "/webpush/\(id)", "-H", "TTL: 60", "-H", "Content-Encoding: aes128gcm",
                                     "-H", "Authorization: \(PyVapidTokens.vapid)", "--data-binary", "@" + (try rfcBodyFile())])
    #expect(elsewhere.status == 403)
    #expect(compact(try server.state()["received"]) == "0")
}
