import Foundation
import Testing
@testable import ShadeIO

// Real sockets, real curl. Every wait is bounded: clients time out after a few seconds, curl after 5.

@Test func ndjsonRepliesComeInOrderOnBothEndpoints() throws {
    let server = try TestServer()
    defer { server.stop() }
    for endpoint in server.endpoints {
        let client = try SendClient(connectingTo: endpoint)
        let lines = (1...500).map { bytes("{\"n\": \($0)}") }
        let replies = try client.send(lines: lines).map(text)
        #expect(replies.count == 500)
        let from = replies[0].components(separatedBy: "\"from\": ").last ?? ""
        #expect(replies == (1...500).map { "{\"line\": \($0), \"bytes\": \(lines[$0 - 1].count), \"from\": \(from)" })
    }
}

@Test func longStreamWithLittleOutputRoomIsAnsweredCompletely() throws {
    var configuration = PollLoop.Configuration()
    configuration.maxQueuedOutputBytes = 4096   // the server stops reading until its replies drain
    let server = try TestServer(unix: false, configuration: configuration)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.tcpPort))
    let replies = try client.send(lines: (1...50_000).map { bytes("{\"n\": \($0)}") })
    #expect(replies.count == 50_000)
    #expect(text(replies[49_999]).hasPrefix("{\"line\": 50000, \"bytes\": 12, "))
}

@Test func largeHTTPReplyIsWrittenInParts() throws {
    let server = try TestServer(tcp: false)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.unixPath))
    let reply = try client.request(method: "GET", path: "/big")
    #expect(reply.body == (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
    #expect(try client.request(method: "HEAD", path: "/big").headers["Content-Length"] == "3145728")
    #expect(text(try client.request(method: "GET", path: "/after").body).contains("\"connection\": 1"))
}

@Test func connectionsAreNamedForErrorSources() throws {
    let server = try TestServer()
    defer { server.stop() }
    let unixReply = text(try SendClient(connectingTo: .unix(path: server.unixPath)).send(line: bytes("[1]")))
    #expect(unixReply == "{\"line\": 1, \"bytes\": 3, \"from\": \"unix#1\"}")
    let tcpReply = text(try SendClient(connectingTo: .loopback(port: server.tcpPort)).send(line: bytes("[1]")))
    #expect(tcpReply.hasPrefix("{\"line\": 1, \"bytes\": 3, \"from\": \"tcp 127.0.0.1:"))
    #expect(tcpReply.hasSuffix("#2\"}"))
    #expect(ConnectionInfo(id: 4, transport: .tcp(peer: "127.0.0.1:51234")).description == "tcp 127.0.0.1:51234#4")
}

@Test func httpRequestsKeepTheConnectionAlive() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.unixPath))
    let first = try client.post(path: "/push", body: bytes("{\"aps\": {}}"))
    let second = try client.request(method: "GET", path: "/state?platform=ios")
    #expect(first == HTTPResponse(status: 200, reason: "OK",
                                  headers: ["Content-Type": "application/json", "Content-Length": "65"],
                                  body: bytes("{\"method\": \"POST\", \"path\": \"/push\", \"bytes\": 11, \"connection\": 1}")))
    #expect(text(second.body) == "{\"method\": \"GET\", \"path\": \"/state\", \"bytes\": 0, \"connection\": 1}")
}

@Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let server = try TestServer(unix: false)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .loopback(port: server.tcpPort))
    try client.write(bytes("GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
        + "GET /c HTTP/1.1\r\nHost: x\r\n\r\n"))
    let paths = try (0..<3).map { _ in text(try client.readResponse().body) }
    #expect(paths == [
        "{\"method\": \"GET\", \"path\": \"/a\", \"bytes\": 0, \"connection\": 1}",
        "{\"method\": \"POST\", \"path\": \"/b\", \"bytes\": 3, \"connection\": 1}",
        "{\"method\": \"GET\", \"path\": \"/c\", \"bytes\": 0, \"connection\": 1}",
    ])
}

@Test func slowClientSendingOneByteAtATime() throws {
    let server = try TestServer(tcp: false)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.unixPath))
    for byte in bytes("POST /push HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello") {
        try client.write([byte])
        usleep(1_000)
    }
    #expect(text(try client.readResponse().body) == "{\"method\": \"POST\", \"path\": \"/push\", \"bytes\": 5, \"connection\": 1}")
}

@Test func clientDisconnectingMidBodyDoesNotStopTheServer() throws {
    let server = try TestServer(tcp: false)
    defer { server.stop() }
    let leaving = try SendClient(connectingTo: .unix(path: server.unixPath))
    try leaving.write(bytes("POST /push HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"aps\":"))
    leaving.close()
    let next = try SendClient(connectingTo: .unix(path: server.unixPath))
    #expect(try next.post(path: "/push", body: bytes("{}")).status == 200)
}

@Test func connectionCloseIsHonoured() throws {
    let server = try TestServer(tcp: false)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.unixPath))
    let reply = try client.request(method: "GET", path: "/healthz", headers: ["Connection": "close"])
    #expect(reply.headers["Connection"] == "close")
    #expect(try client.readToEnd() == [])
    let closing = try SendClient(connectingTo: .unix(path: server.unixPath))
    #expect(try closing.request(method: "GET", path: "/close").headers["Connection"] == "close")
    #expect(try closing.readToEnd() == [])
}

@Test func halfReceivedRequestGets408AfterTheRequestTimeout() throws {
    var configuration = PollLoop.Configuration()
    configuration.idleTimeoutMillis = 300
    configuration.requestTimeoutMillis = 300
    let server = try TestServer(tcp: false, configuration: configuration)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.unixPath))
    try client.write(bytes("POST /push HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"))
    let started = Date()
    #expect(text(try client.readToEnd()) == "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\n"
        + "Content-Length: 94\r\nConnection: close\r\n\r\n"
        + "{\"error\": \"request not completed within 300 ms: a whole request must arrive within that time\"}")
    #expect(Date().timeIntervalSince(started) < 3)
    // An idle connection between requests is closed without a reply.
    let idle = try SendClient(connectingTo: .unix(path: server.unixPath))
    #expect(try idle.readToEnd() == [])
}

@Test func overLongNDJSONLineIsRefusedAndTheStreamGoesOn() throws {
    var configuration = PollLoop.Configuration()
    configuration.maxLineBytes = 64
    let server = try TestServer(tcp: false, configuration: configuration)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.unixPath))
    let long = bytes("{\"pad\": \"" + String(repeating: "x", count: 200) + "\"}")
    let replies = try client.send(lines: [bytes("{}"), long, bytes("{\"n\": 3}")]).map(text)
    #expect(replies == [
        "{\"line\": 1, \"bytes\": 2, \"from\": \"unix#1\"}",
        "{\"ok\": false, \"error\": \"line 2: line is 211 bytes; the limit is 64 bytes\"}",
        "{\"line\": 3, \"bytes\": 8, \"from\": \"unix#1\"}",
    ])
}

@Test func ndjsonLastLineWithoutNewlineIsTakenAtEndOfInput() throws {
    let server = try TestServer(tcp: false)
    defer { server.stop() }
    let client = try SendClient(connectingTo: .unix(path: server.unixPath))
    try client.write(bytes("\n{\"a\": 1}\n{\"b\": 2}"))
    client.finishSending()
    #expect(text(try client.readLine()) == "{\"line\": 2, \"bytes\": 8, \"from\": \"unix#1\"}")
    #expect(text(try client.readLine()) == "{\"line\": 3, \"bytes\": 8, \"from\": \"unix#1\"}")
    #expect(try client.readToEnd() == [])
}

@Test func aNewConnectionOverTheLimitEvictsTheOldestIdleOne() throws {
    var configuration = PollLoop.Configuration()
    configuration.maxConnections = 4
    let server = try TestServer(tcp: false, configuration: configuration)
    defer { server.stop() }
    let endpoint = Endpoint.unix(path: server.unixPath)
    var clients: [SendClient] = []
    for _ in 0..<4 {
        let client = try SendClient(connectingTo: endpoint)
        _ = try client.send(line: bytes("{}"))   // served, so idle, before the next one arrives
        clients.append(client)
        usleep(5_000)
    }
    let fifth = try SendClient(connectingTo: endpoint)
    #expect(text(try fifth.send(line: bytes("{}"))) == "{\"line\": 1, \"bytes\": 2, \"from\": \"unix#5\"}")
    #expect(try clients[0].readToEnd() == [])   // the oldest idle one was closed
    #expect(text(try clients[3].send(line: bytes("{}"))) == "{\"line\": 2, \"bytes\": 2, \"from\": \"unix#4\"}")
}

@Test func aConnectionOverTheLimitIsAnswered503WhenNoneIsIdle() throws {
    var configuration = PollLoop.Configuration()
    configuration.maxConnections = 4
    let server = try TestServer(tcp: false, configuration: configuration)
    defer { server.stop() }
    let endpoint = Endpoint.unix(path: server.unixPath)
    var busy: [SendClient] = []
    for _ in 0..<4 {
        let client = try SendClient(connectingTo: endpoint)
        try client.write(bytes("{\"aps\":"))   // a line begun a moment ago: busy, not idle
        busy.append(client)
    }
    usleep(100_000)
    let refused = try SendClient(connectingTo: endpoint)
    #expect(text(try refused.readToEnd()) == "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        + "Content-Length: 92\r\nConnection: close\r\n\r\n"
        + "{\"error\": \"too many connections: Shade serves at most 4 at once; retry when one has closed\"}")
    // Once one finishes and closes, a new client is served again.
    try busy[0].write(bytes("{}}\n"))
    _ = try busy[0].readLine()
    busy.removeFirst().close()
    var served = false
    for _ in 0..<100 where !served {
        let client = try SendClient(connectingTo: endpoint)
        served = (try? client.send(line: bytes("{}"))) != nil
        if !served { usleep(10_000) }
    }
    #expect(served)
}

// MARK: curl

@Test(.enabled(if: curlAvailable)) func curlReusesTheConnectionForTwoURLsOverTheUnixSocket() throws {
    let server = try TestServer(tcp: false)
    defer { server.stop() }
    let result = try curl(["--unix-socket", server.unixPath, "http://localhost/a", "http://localhost/b"])
    #expect(result.stderr == "")
    #expect(result.stdout == "{\"method\": \"GET\", \"path\": \"/a\", \"bytes\": 0, \"connection\": 1}"
        + "{\"method\": \"GET\", \"path\": \"/b\", \"bytes\": 0, \"connection\": 1}")
}

@Test(.enabled(if: curlAvailable)) func curlReusesTheConnectionOverTCP() throws {
    let server = try TestServer(unix: false)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(server.tcpPort)"
    let result = try curl(["\(base)/healthz", "--next", "-d", "{}", "\(base)/push"])
    #expect(result.stdout == "{\"method\": \"GET\", \"path\": \"/healthz\", \"bytes\": 0, \"connection\": 1}"
        + "{\"method\": \"POST\", \"path\": \"/push\", \"bytes\": 2, \"connection\": 1}")
}

// curl 7.88 asks for `100 Continue` by itself only for bodies over 1 MiB (older ones did over 1 KiB),
// so the header is given here; the 413 test below covers curl's own choice.
@Test(.enabled(if: curlAvailable)) func curlGets100ContinueBeforeSendingTheBody() throws {
    let server = try TestServer(unix: false)
    defer { server.stop() }
    let body = "{\"pad\": \"" + String(repeating: "p", count: 2_000) + "\"}"
    let file = NSTemporaryDirectory() + "shade-body-\(UUID().uuidString).json"
    try body.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let started = Date()
    let result = try curl(["-v", "-H", "Expect: 100-continue", "--data-binary", "@" + file,
                           "http://127.0.0.1:\(server.tcpPort)/push"])
    #expect(result.stderr.contains("> Expect: 100-continue"))
    #expect(result.stderr.contains("< HTTP/1.1 100 Continue"))
    #expect(result.stdout == "{\"method\": \"POST\", \"path\": \"/push\", \"bytes\": \(body.utf8.count), \"connection\": 1}")
    // curl waits a whole second for `100 Continue` when none comes.
    #expect(Date().timeIntervalSince(started) < 0.9)
}

@Test(.enabled(if: curlAvailable)) func curlBodyOverTheLimitGets413() throws {
    let server = try TestServer(tcp: false)
    defer { server.stop() }
    let file = NSTemporaryDirectory() + "shade-big-\(UUID().uuidString).json"
    try Data(count: 2 << 20).write(to: URL(fileURLWithPath: file))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let result = try curl(["--unix-socket", server.unixPath, "-w", " %{http_code}", "--data-binary", "@" + file,
                           "http://localhost/push"])
    #expect(result.stdout == "{\"error\": \"request body is 2097152 bytes; the limit is 1048576 bytes (1 MiB)\"} 413")
    // The server goes on.
    #expect(try curl(["--unix-socket", server.unixPath, "http://localhost/healthz"]).stdout.contains("\"/healthz\""))
}

// MARK: Listeners

@Test func liveSocketIsRefusedAndStaleOneReplaced() throws {
    let server = try TestServer(tcp: false)
    let path = server.unixPath
    #expect(throws: SocketError("another Shade is listening on \(path) — stop it, or choose another --socket")) {
        _ = try Listener.unix(path: path)
    }
    #expect(server.stop())
    #expect(!FileManager.default.fileExists(atPath: path))   // clean shutdown removes the socket file

    // A crashed Shade leaves its socket file behind: nobody answers, so it is replaced.
    let crashed = try Listener.unix(path: path)
    close(crashed.fd)
    #expect(FileManager.default.fileExists(atPath: path))
    let replacement = try Listener.unix(path: path)
    let client = try SendClient(connectingTo: .unix(path: path))
    #expect(client.endpoint == .unix(path: path))
    replacement.close()
    #expect(!FileManager.default.fileExists(atPath: path))
}

@Test func unixSocketIsPrivateToTheUser() throws {
    let path = temporarySocketPath()
    let listener = try Listener.unix(path: path)
    defer { listener.close() }
    let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
}

@Test func socketPathThatIsNotASocketOrTooLongIsAnError() throws {
    let path = temporarySocketPath()
    _ = FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: SocketError("\(path) exists and is not a socket — remove it or choose another --socket")) {
        _ = try Listener.unix(path: path)
    }
    #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
    let long = "/tmp/" + String(repeating: "s", count: 103) + ".sock"
    #expect(throws: SocketError("socket path is 113 bytes, longer than the 107 a unix socket path can hold: \(long) "
        + "— choose a shorter path with --socket")) {
        _ = try Listener.unix(path: long)
    }
}

@Test func tcpPortZeroPicksAFreePort() throws {
    let listener = try Listener.tcp(port: 0)
    defer { listener.close() }
    guard case .tcp(let host, let port) = listener.endpoint else { Issue.record("not tcp"); return }
    #expect(host == "127.0.0.1")
    #expect(port != 0)
    #expect(throws: SocketError.self) { _ = try Listener.tcp(port: port) }
}

@Test func sendClientSaysWhenNoShadeIsListening() throws {
    let path = temporarySocketPath()
    #expect(throws: SendError("no Shade is listening on \(path) — start one with `shade listen`")) {
        _ = try SendClient(connectingTo: .unix(path: path))
    }
    let listener = try Listener.tcp(port: 0)
    let endpoint = listener.endpoint
    listener.close()
    guard case .tcp(_, let port) = endpoint else { return }
    #expect(throws: SendError("no Shade is listening on 127.0.0.1:\(port) — start one with `shade listen --port \(port)`")) {
        _ = try SendClient(connectingTo: endpoint)
    }
}

/// Issue 10, finding 6: the default socket is in a directory of its own, never straight in /tmp.
@Test(arguments: [
    (["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/shade/shade.sock"),
    (["XDG_RUNTIME_DIR": "/run/user/1000/"], "/run/user/1000/shade/shade.sock"),
    (["XDG_RUNTIME_DIR": ""], "/tmp/shade-1000/shade.sock"),
    (["XDG_RUNTIME_DIR": "relative/dir"], "/tmp/shade-1000/shade.sock"),
    ([:], "/tmp/shade-1000/shade.sock"),
])
func finding6_theDefaultSocketLivesInAPrivateDirectory(environment: [String: String], path: String) {
    #expect(Endpoint.defaultSocketPath(environment: environment, uid: 1000) == path)
    #expect(Endpoint.defaultSocketDirectory(environment: environment, uid: 1000) + "/shade.sock" == path)
}

// MARK: Timers and the application's descriptors

private final class NoTraffic: ConnectionHandler {
    func respond(to request: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse { HTTPResponse(status: 500) }
    func respond(toLine line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8] { [] }
}

@Test func timersFireInOrderAndRepeat() {
    let loop = PollLoop(handler: NoTraffic())
    var fired: [String] = []
    loop.schedule(after: 40) { fired.append("once") }
    let frame = loop.schedule(after: 10, repeatingEvery: 25) { fired.append("frame") }
    let started = Date()
    while fired.filter({ $0 == "frame" }).count < 3 && Date().timeIntervalSince(started) < 2 {
        loop.runOnce(timeout: 1_000)
    }
    loop.cancel(frame)
    #expect(fired == ["frame", "frame", "once", "frame"])
    #expect(Date().timeIntervalSince(started) < 1)
    #expect(loop.runOnce(timeout: 0) == 0)
}

@Test func watchedDescriptorWakesTheLoop() {
    let loop = PollLoop(handler: NoTraffic())
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]); close(ends[1]) }
    var seen: [Int16] = []
    let token = loop.watch(ends[0]) { events in
        seen.append(events)
        var byte: UInt8 = 0
        _ = read(ends[0], &byte, 1)
    }
    #expect(loop.runOnce(timeout: 0) == 0)
    var byte: UInt8 = 7
    _ = write(ends[1], &byte, 1)
    #expect(loop.runOnce(timeout: 1_000) == 1)
    #expect(seen == [Int16(POLLIN)])
    loop.unwatch(token)
    _ = write(ends[1], &byte, 1)
    #expect(loop.runOnce(timeout: 0) == 0)
}

/// A round's replies go out once every ready connection has been read and answered: a client with
/// many connections is woken once a round, not once a reply (on two cores each wake-up is an
/// interrupt to the other one). When the second of two lines that came together is answered, the
/// first one's reply has not been written yet; after the round, both have.
@Test func aRoundsRepliesAreWrittenOnceEveryReadyConnectionIsAnswered() throws {
    final class Peeking: ConnectionHandler {
        var clients: [Int32] = []
        /// For each line answered: how many clients could already read a reply.
        var repliesOut: [Int] = []
        func respond(to request: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse { .json("{}") }
        func respond(toLine line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8] {
            repliesOut.append(clients.filter(hasInput).count)
            return Array("{\"ok\": true}".utf8)
        }
    }
    let path = temporarySocketPath()
    let handler = Peeking()
    let loop = PollLoop(handler: handler)
    loop.add(try Listener.unix(path: path))
    defer { loop.shutdown() }
    handler.clients = [try unixClient(path), try unixClient(path)]
    defer { for fd in handler.clients { close(fd) } }
    _ = loop.runOnce(timeout: 1000)   // both accepted
    for fd in handler.clients { #expect(write(fd, "{\"n\": 1}\n", 9) == 9) }
    _ = loop.runOnce(timeout: 1000)
    #expect(handler.repliesOut == [0, 0])
    #expect(handler.clients.allSatisfy(hasInput))
}

/// A connection with a request under way is not idle: a request begun just after the accept is
/// answered 408 at its own deadline, though the idle timeout is as long and falls first.
@Test func aRequestBegunJustAfterTheAcceptGets408NotAnIdleClose() throws {
    var configuration = PollLoop.Configuration()
    configuration.idleTimeoutMillis = 300
    configuration.requestTimeoutMillis = 300
    let clock = ManualClock(now: 1_000)
    let path = temporarySocketPath()
    let loop = PollLoop(handler: EchoHandler(), configuration: configuration, clock: clock)
    loop.add(try Listener.unix(path: path))
    defer { loop.shutdown() }
    let client = try unixClient(path)
    defer { close(client) }
    _ = loop.runOnce(timeout: 1000)   // accepted at 1000: the idle deadline is 1300
    clock.advance(by: 2)
    let head = "POST /push HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"
    #expect(write(client, head, head.utf8.count) == head.utf8.count)
    _ = loop.runOnce(timeout: 1000)   // the request begins at 1002: its deadline is 1302
    clock.advance(by: 298)
    _ = loop.runOnce(timeout: 0)
    var byte: UInt8 = 0
    #expect(recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == -1 && errno == EAGAIN, "open, nothing written at 1300")
    clock.advance(by: 2)
    _ = loop.runOnce(timeout: 0)
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT)), count > 0 { reply += buffer[0..<count] }
    #expect(text(reply).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(text(reply))")
}

private func hasInput(_ fd: Int32) -> Bool {
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
}

private func unixClient(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
    return fd
}
