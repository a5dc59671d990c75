import Testing
@testable import ShadeIO
import ShadeCore

/// Four pipelined requests: no body, Content-Length, chunked with extensions and a trailer, HTTP/1.0.
private let pipelined = Array((
    "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
    + "POST /push HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"aps\": true}"
    + "POST /3/device/ab12?x=1&y=a%20b+c&flag HTTP/1.1\r\nhost: localhost\r\napns-collapse-id: room_42\r\n"
    + "Transfer-Encoding: chunked\r\n\r\n"
    + "5;note=first\r\n{\"a\":\r\n3\r\n 1}\r\n0\r\nX-Checksum: abc\r\n\r\n"
    + "GET /state?platform=ios HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
).utf8)

private let expectedRequests: [HTTPRequest] = [
    HTTPRequest(method: "GET", target: "/healthz", headers: ["Host": "localhost"]),
    HTTPRequest(method: "POST", target: "/push",
                headers: ["Host": "localhost", "Content-Type": "application/json", "Content-Length": "13"],
                body: Array("{\"aps\": true}".utf8)),
    HTTPRequest(method: "POST", target: "/3/device/ab12?x=1&y=a%20b+c&flag",
                headers: ["host": "localhost", "apns-collapse-id": "room_42", "Transfer-Encoding": "chunked"],
                body: Array("{\"a\": 1}".utf8), trailers: ["X-Checksum": "abc"]),
    HTTPRequest(method: "GET", target: "/state?platform=ios", version: .http1_0, headers: ["Connection": "keep-alive"]),
]

/// Feeds `chunks` one at a time, draining events after each, as the server does.
private func parse(_ chunks: [ArraySlice<UInt8>], limits: HTTPLimits = HTTPLimits())
    -> (events: [HTTPParseEvent], error: HTTPRequestError?) {
    var parser = HTTPRequestParser(limits: limits)
    var events: [HTTPParseEvent] = []
    for chunk in chunks {
        parser.append(chunk)
        do {
            while let event = try parser.next() { events.append(event) }
        } catch {
            return (events, error)
        }
    }
    return (events, nil)
}

private func requests(_ events: [HTTPParseEvent]) -> [HTTPRequest] {
    events.compactMap { if case .request(let request) = $0 { request } else { nil } }
}

@Test func pipelinedStreamInOneChunk() {
    let result = parse([pipelined[...]])
    #expect(result.error == nil)
    #expect(result.events == expectedRequests.map { .request($0) })
}

@Test func everySplitPointGivesTheSameRequests() {
    for split in 0...pipelined.count {
        let result = parse([pipelined[..<split], pipelined[split...]])
        #expect(result.error == nil, "split at \(split)")
        #expect(requests(result.events) == expectedRequests, "split at \(split)")
    }
}

@Test(arguments: [1, 2, 3, 7, 64, 1000])
func chunkSizesGiveTheSameRequests(size: Int) {
    let chunks = stride(from: 0, to: pipelined.count, by: size).map { pipelined[$0..<min($0 + size, pipelined.count)] }
    let result = parse(chunks)
    #expect(result.error == nil)
    #expect(requests(result.events) == expectedRequests)
}

@Test func requestPartsAndQueryItems() throws {
    let request = expectedRequests[2]
    #expect(request.path == "/3/device/ab12")
    #expect(request.queryItems == [
        HTTPQueryItem(name: "x", value: "1"), HTTPQueryItem(name: "y", value: "a b c"), HTTPQueryItem(name: "flag", value: nil),
    ])
    #expect(request.headers["APNS-Collapse-ID"] == "room_42")
    #expect(request.headers["Host"] == "localhost")
    #expect(HTTPRequest(method: "GET", target: "http://127.0.0.1:8080/state?platform=web").path == "/state")
    #expect(HTTPRequest(method: "GET", target: "/state?platform=web").query("platform") == "web")
}

@Test func headersKeepOrderAndRepeats() {
    let result = parse([Array("GET / HTTP/1.1\r\nX-A: 1\r\nx-b:2\r\nX-A:  3 \r\n\r\n".utf8)[...]])
    let request = requests(result.events)[0]
    #expect(request.headers.fields == [
        HTTPHeaderField(name: "X-A", value: "1"), HTTPHeaderField(name: "x-b", value: "2"), HTTPHeaderField(name: "X-A", value: "3"),
    ])
    #expect(request.headers.values(for: "x-a") == ["1", "3"])
}

@Test func bareLineFeedsAndLeadingBlankLinesAreAccepted() {
    let result = parse([Array("\r\n\nPOST /push HTTP/1.1\nContent-Length: 2\n\nok".utf8)[...]])
    #expect(result.error == nil)
    #expect(requests(result.events) == [
        HTTPRequest(method: "POST", target: "/push", headers: ["Content-Length": "2"], body: Array("ok".utf8)),
    ])
}

@Test(arguments: [
    (HTTPVersion.http1_1, nil, true),
    (.http1_1, "close", false),
    (.http1_1, "Keep-Alive, Close", false),
    (.http1_0, nil, false),
    (.http1_0, "keep-alive", true),
] as [(HTTPVersion, String?, Bool)])
func keepAliveFollowsVersionAndConnectionHeader(version: HTTPVersion, connection: String?, keepAlive: Bool) {
    var headers = HTTPHeaders()
    if let connection { headers.add("Connection", connection) }
    #expect(HTTPRequest(method: "GET", target: "/", version: version, headers: headers).keepAlive == keepAlive)
}

// MARK: 100-continue

@Test func expectContinueIsAnsweredBeforeTheBody() throws {
    var parser = HTTPRequestParser()
    parser.append(Array("POST /push HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n".utf8))
    #expect(try parser.next() == .continueRequested)
    #expect(try parser.next() == nil)
    parser.append(Array("body".utf8))
    #expect(try parser.next() == .request(HTTPRequest(
        method: "POST", target: "/push", headers: ["Expect": "100-continue", "Content-Length": "4"], body: Array("body".utf8))))
    #expect(try parser.next() == nil)
}

@Test func expectContinueWithTheBodyAlreadySentIsNotAnswered() {
    let stream = Array("POST /push HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nbody".utf8)
    #expect(parse([stream[...]]).events.count == 1)
}

@Test func expectContinueWithATooLargeBodyGets413Instead() {
    let result = parse([Array("POST /push HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\n\r\n".utf8)[...]])
    #expect(result.events == [])
    #expect(result.error == .bodyTooLarge(length: 2_000_000, limit: 1 << 20))
}

// MARK: Limits and malformed requests

private func errorFor(_ text: String, extra: [UInt8] = []) -> HTTPRequestError? {
    parse([(Array(text.utf8) + extra)[...]]).error
}

@Test func bodyOverOneMebibyteIs413WithTheLimitInTheBody() throws {
    let error = try #require(errorFor("POST /push HTTP/1.1\r\nContent-Length: 2097152\r\n\r\n"))
    #expect(error.response == HTTPResponse(status: 413, reason: "Content Too Large", headers: ["Content-Type": "application/json"],
        body: Array("{\"error\": \"request body is 2097152 bytes; the limit is 1048576 bytes (1 MiB)\"}".utf8)))
}

@Test func chunkedBodyOverTheLimitIs413() {
    let chunk = Array(repeating: UInt8(ascii: "a"), count: 700_000)
    var stream = Array("POST /push HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
    for _ in 0..<2 { stream += Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10] }
    #expect(parse([stream[...]]).error == .bodyTooLarge(length: nil, limit: 1 << 20))
}

@Test func bodyExactlyAtTheLimitIsAccepted() {
    let body = [UInt8](repeating: 0x41, count: 1 << 20)
    let result = parse([(Array("POST /push HTTP/1.1\r\nContent-Length: 1048576\r\n\r\n".utf8) + body)[...]])
    #expect(result.error == nil)
    #expect(requests(result.events).first?.body == body)
}

@Test func headersOver16KiBAre431EvenBeforeTheyEnd() throws {
    let big = "X-Filler: " + String(repeating: "f", count: 17_000) + "\r\n"
    let unfinished = try #require(errorFor("GET / HTTP/1.1\r\n" + big))
    #expect(unfinished == .headersTooLarge(limit: 16 << 10))
    #expect(errorFor("GET / HTTP/1.1\r\n" + big + "\r\n") == .headersTooLarge(limit: 16 << 10))
    #expect(unfinished.response.status == 431)
    #expect(unfinished.response.body == Array(
        "{\"error\": \"request line and headers are over the limit of 16384 bytes (16 KiB)\"}".utf8))
}

@Test(arguments: [
    ("GET /\r\n\r\n", HTTPRequestError.malformed("request line is not \"METHOD TARGET HTTP/1.1\": \"GET /\"")),
    ("GET / HTTP/1.1 extra\r\n\r\n", .malformed("request line is not \"METHOD TARGET HTTP/1.1\": \"GET / HTTP/1.1 extra\"")),
    ("G(T / HTTP/1.1\r\n\r\n", .malformed("invalid method \"G(T\"")),
    ("GET / HTTX/1.1\r\n\r\n", .malformed("invalid protocol version \"HTTX/1.1\"")),
    ("GET / HTTP/2.0\r\n\r\n", .versionNotSupported("HTTP/2.0")),
    ("GET / HTTP/1.1\r\nNoColon\r\n\r\n", .malformed("header line without a colon: \"NoColon\"")),
    ("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", .malformed("invalid header name \"Bad Name\"")),
    ("GET / HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n", .malformed("header line folded onto the next line (obsolete)")),
    ("POST / HTTP/1.1\r\nContent-Length: 12a\r\n\r\n", .malformed("invalid Content-Length \"12a\"")),
    ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .malformed("conflicting Content-Length values")),
    ("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
     .malformed("both Content-Length and Transfer-Encoding")),
    ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferEncoding("gzip, chunked")),
    ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .malformed("invalid chunk size \"zz\"")),
    ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", .malformed("chunk data longer than its size")),
    ("POST / HTTP/1.1\r\nExpect: something\r\n\r\n", .expectationFailed("something")),
    // Each fault the one-pass readings of a request line and a field hand on to the checked ones.
    ("GET  / HTTP/1.1\r\n\r\n", .malformed("request line is not \"METHOD TARGET HTTP/1.1\": \"GET  / HTTP/1.1\"")),
    ("GET\t/ HTTP/1.1\r\n\r\n", .malformed("request line is not \"METHOD TARGET HTTP/1.1\": \"GET?/ HTTP/1.1\"")),
    ("GET /a\u{7F}b HTTP/1.1\r\n\r\n", .malformed("invalid request target \"/a?b\"")),
    ("GET / HTTP/1.10\r\n\r\n", .malformed("invalid protocol version \"HTTP/1.10\"")),
    ("GET / HTTP/3.1\r\n\r\n", .versionNotSupported("HTTP/3.1")),
    ("GET / HTTP/1.1\r\n: empty name\r\n\r\n", .malformed("invalid header name \"\"")),
    ("GET / HTTP/1.1\r\nNa(me: x\r\n\r\n", .malformed("invalid header name \"Na(me\"")),
    ("GET / HTTP/1.1\r\nNa(me x\r\n\r\n", .malformed("header line without a colon: \"Na(me x\"")),
    ("GET / HTTP/1.1\r\nA: x\u{01}y\r\n\r\n", .malformed("control character in header \"A\"")),
    ("GET / HTTP/1.1\r\nA: x\u{7F}\r\n\r\n", .malformed("control character in header \"A\"")),
] as [(String, HTTPRequestError)])
func malformedRequestsAreRefused(text: String, error: HTTPRequestError) {
    #expect(errorFor(text) == error)
}

@Test func malformedRequestAnswer() {
    #expect(HTTPRequestError.malformed("invalid method \"G(T\"").response.serialized(keepAlive: false) == Array((
        "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 54\r\nConnection: close\r\n\r\n"
        + "{\"error\": \"malformed request: invalid method \\\"G(T\\\"\"}").utf8))
}

@Test func afterAnErrorTheParserStaysFailed() {
    var parser = HTTPRequestParser()
    parser.append(Array("BROKEN\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
    #expect(throws: HTTPRequestError.self) { try parser.next() }
    #expect(throws: HTTPRequestError.self) { try parser.next() }
}

@Test func partialRequestIsReportedForTheIdleTimeout() throws {
    var parser = HTTPRequestParser()
    #expect(!parser.hasPartialRequest)
    parser.append(Array("\r\n".utf8))
    #expect(!parser.hasPartialRequest)
    parser.append(Array("GET / HT".utf8))
    #expect(try parser.next() == nil)
    #expect(parser.hasPartialRequest)
    parser.append(Array("TP/1.1\r\n\r\n".utf8))
    #expect(try parser.next() != nil)
    #expect(!parser.hasPartialRequest)
}

// MARK: Responses

@Test func responseSerialisation() {
    let response = HTTPResponse.json(status: 200, "{\"ok\": true, \"id\": 1}", headers: ["apns-id": "A-1"])
    #expect(String(decoding: response.serialized(), as: UTF8.self)
        == "HTTP/1.1 200 OK\r\napns-id: A-1\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{\"ok\": true, \"id\": 1}")
    #expect(String(decoding: response.serialized(keepAlive: true, version: .http1_0, omitBody: true), as: UTF8.self)
        == "HTTP/1.1 200 OK\r\napns-id: A-1\r\nContent-Type: application/json\r\nContent-Length: 21\r\nConnection: keep-alive\r\n\r\n")
}

/// A connection's replies are written straight into its output (DECISIONS 136): each lands after what
/// the output already holds, byte for byte what `serialized` gives, however many share the output.
@Test func repliesWrittenIntoAnOutputFollowWhatItHolds() {
    let replies: [(HTTPResponse, Bool, HTTPVersion, Bool)] = [
        (.json(status: 200, "{\"id\":1}", headers: ["apns-id": "A-1"]), true, .http1_1, false),
        (HTTPResponse(status: 204), true, .http1_1, false),
        (.error(status: 413, "too large"), false, .http1_1, false),
        (.json(status: 200, "{}"), true, .http1_0, true),
        (HTTPResponse(status: 200, headers: ["apns-id": "A\r\nX: y"], body: Array(repeating: 0x41, count: 5000)), true, .http1_1, false),
    ]
    var output = Array("partial reply already queued".utf8)
    var expected = output
    for round in 0..<40 {
        let (response, keepAlive, version, omitBody) = replies[round % replies.count]
        response.serialize(into: &output, keepAlive: keepAlive, version: version, omitBody: omitBody)
        expected += response.serialized(keepAlive: keepAlive, version: version, omitBody: omitBody)
        #expect(output == expected, "round \(round)")
    }
}

/// An echoed value with CR LF, a C1 control or a non-ASCII letter goes out as `SafeText.line` makes
/// it: no header of its own can start, and the clean fields around it are written as they are.
@Test func aResponseHeaderIsWrittenThroughTheOneGate() {
    let value = "A-1\r\nSet-Cookie: x=1\u{9B}31m é"
    let response = HTTPResponse(status: 404, headers: ["apns-id": value, "X-Ok": "fine"], body: [])
    let head = String(decoding: response.serialized(), as: UTF8.self)
    #expect(head == "HTTP/1.1 404 Not Found\r\napns-id: \(SafeText.line(value))\r\nX-Ok: fine\r\nContent-Length: 0\r\n\r\n")
    #expect(!SafeText.line(value).contains("\r") && !SafeText.line(value).contains("\n"))
}

@Test func errorMessagesAreJSONEscaped() {
    #expect(HTTPResponse.error(status: 400, "a \"quote\"\n\u{1}").body
        == Array("{\"error\": \"a \\\"quote\\\"\\n\\u0001\"}".utf8))
}

/// `frameBody`'s one-pass reading takes only a lone Content-Length of digits with no Transfer-Encoding;
/// every other framing goes to the full reading (and its errors, in the table above).
@Test(arguments: [
    (["Content-Length": "42"], 42),
    (["content-length": "0", "Host": "x"], 0),
    (["Content-Length": "000000000000007"], 7),
    (["Content-Length": "1234567890123456"], nil),
    (["Content-Length": "1, 1"], nil),
    (["Content-Length": " 4"], nil),
    (["Content-Length": ""], nil),
    (["Content-Length": "4", "Transfer-Encoding": "chunked"], nil),
    (["Host": "x"], nil),
] as [([String: String], Int?)])
func aLoneDigitContentLengthIsReadInOnePass(fields: [String: String], length: Int?) {
    let headers = HTTPHeaders(fields.sorted { $0.key < $1.key }.map { HTTPHeaderField(name: $0.key, value: $0.value) })
    #expect(HTTPRequestParser.plainContentLength(headers) == length)
}

@Test func twoContentLengthsAreNotReadInOnePass() {
    let headers = HTTPHeaders([HTTPHeaderField(name: "Content-Length", value: "1"), HTTPHeaderField(name: "content-length", value: "1")])
    #expect(HTTPRequestParser.plainContentLength(headers) == nil)
}

@Test(arguments: [
    (200, "OK"), (201, "Created"), (202, "Accepted"), (204, "No Content"), (304, "Not Modified"),
    (400, "Bad Request"), (401, "Unauthorized"), (403, "Forbidden"), (404, "Not Found"), (405, "Method Not Allowed"),
    (408, "Request Timeout"), (410, "Gone"), (411, "Length Required"), (413, "Content Too Large"),
    (415, "Unsupported Media Type"), (417, "Expectation Failed"), (429, "Too Many Requests"),
    (431, "Request Header Fields Too Large"), (500, "Internal Server Error"), (501, "Not Implemented"),
    (502, "Bad Gateway"), (503, "Service Unavailable"), (504, "Gateway Timeout"), (505, "HTTP Version Not Supported"),
])
func everyStatusShadeSendsHasItsRFC9110ReasonPhrase(status: Int, phrase: String) {
    // A 401 went out as "HTTP/1.1 401 Status 401" (`--api-key`, Web Push), a 417 as "Status 417".
    #expect(HTTPResponse.reasonPhrase(for: status) == phrase)
    let head = String(decoding: HTTPResponse(status: status).serialized().prefix(while: { $0 != 0x0D }), as: UTF8.self)
    #expect(head == "HTTP/1.1 \(status) \(phrase)")
}

@Test(arguments: [0, 7, 10, 99, 200, 4096, 1_000_000, -1, -4096, Int.max, Int.min])
func aResponseWritesItsNumbersAsStringWouldWriteThem(value: Int) {
    // Status and Content-Length are written digit by digit into the response, not as Strings.
    var bytes: [UInt8] = []
    UTF8Text.appendDecimal(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == String(value))
}

@Test func lists_findsATokenInAnyFieldOfItsNameAndNoOther() {
    let headers = HTTPHeaders([HTTPHeaderField(name: "Connection", value: "keep-alive"),
                               HTTPHeaderField(name: "connection", value: "Upgrade , CLOSE"),
                               HTTPHeaderField(name: "X-Other", value: "close")])
    #expect(headers.lists("Connection", token: "close"))
    #expect(headers.lists("connection", token: "upgrade"))
    #expect(!headers.lists("Connection", token: "clos"))
    #expect(!HTTPHeaders([HTTPHeaderField(name: "X-Other", value: "close")]).lists("Connection", token: "close"))
}

/// The fields lie in one byte buffer (DECISIONS 111): whatever way they went in, they come out as
/// they were given, in order, found in any case, and equal exactly when their fields are.
@Test func headerFieldsComeOutAsTheyWentInWhateverBuiltThem() {
    let given = [HTTPHeaderField(name: "Host", value: "127.0.0.1:4747"), HTTPHeaderField(name: "apns-İd", value: "é\u{1F}"),
                 HTTPHeaderField(name: "X-Empty", value: ""), HTTPHeaderField(name: "host", value: "second")]
    var fromStrings = HTTPHeaders()
    for field in given { fromStrings.add(field.name, field.value) }
    var fromBytes = HTTPHeaders()
    for field in given {
        var name = field.name, value = field.value
        name.withUTF8 { name in value.withUTF8 { fromBytes.add(name: name, value: $0) } }
    }
    #expect(fromStrings == fromBytes)
    #expect(HTTPHeaders(given) == fromStrings)
    #expect(fromBytes.fields == given)
    #expect(fromBytes.count == 4)
    #expect(fromBytes["HOST"] == "127.0.0.1:4747")
    #expect(fromBytes.values(for: "Host") == ["127.0.0.1:4747", "second"])
    #expect(fromBytes["x-empty"] == "")
    #expect(fromBytes["apns-id"] == nil)
    #expect(!fromBytes.contains("Hos"))

    var edited = fromBytes
    edited.set("HOST", "one")
    #expect(edited.fields == [given[1], given[2], HTTPHeaderField(name: "HOST", value: "one")])
    edited.remove("x-empty")
    #expect(edited == HTTPHeaders([given[1], HTTPHeaderField(name: "HOST", value: "one")]))
    #expect(edited != fromBytes)
    #expect(HTTPHeaders() == HTTPHeaders([]))

    // A field is laid out on the stack up to 512 bytes with its lengths, appended in parts past it:
    // fields around that size, and many after each other, read back the same whichever way they came.
    let long = [HTTPHeaderField(name: "x-a", value: String(repeating: "v", count: 512 - 8 - 3)),
                HTTPHeaderField(name: "x-b", value: String(repeating: "w", count: 513 - 8 - 3)),
                HTTPHeaderField(name: "apns-topic", value: String(repeating: "é", count: 3000))]
        + (0..<40).map { HTTPHeaderField(name: "x-\($0)", value: String(repeating: "z", count: $0 * 13)) }
    var grown = HTTPHeaders()
    for field in long { grown.add(field.name, field.value) }
    #expect(grown.fields == long && grown.count == long.count)
    #expect(grown["APNS-TOPIC"] == long[2].value && grown["x-b"] == long[1].value)
    var head = "POST / HTTP/1.1\r\n" + long.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n"
    var parser = HTTPRequestParser(limits: HTTPLimits(maxHeaderBytes: 1 << 20))
    head.withUTF8 { parser.append($0) }
    guard case .request(let parsed)? = try? parser.next() else {
        Issue.record("the head did not parse")
        return
    }
    #expect(parsed.headers == grown)
}

/// A reply's fields are written from their bytes when they are clean, through the one gate when not.
@Test func aReplysHeaderFieldsAreWrittenSafe() {
    let response = HTTPResponse(status: 200, headers: ["apns-id": "abc-1", "X-Echo": "a\u{1B}[2Jb\r\nSet-Cookie: x",
                                                       "Content-Length": "99", "Connection": "close"])
    #expect(String(decoding: response.serialized(), as: UTF8.self)
        == "HTTP/1.1 200 OK\r\napns-id: abc-1\r\nX-Echo: a\u{241B}[2Jb Set-Cookie: x\r\nContent-Length: 0\r\n\r\n")
}

/// The one-pass readings take a header value's spaces and tabs around it off, and keep a tab inside it.
@Test func aFieldsValueIsTrimmedOfSpacesAndTabsAndKeepsThemInside() throws {
    var parser = HTTPRequestParser()
    parser.append(Array("GET / HTTP/1.1\r\nA:\t x \ty \t\r\nB:\r\nC:  \r\n\r\n".utf8))
    guard case .request(let request)? = try parser.next() else { Issue.record("no request"); return }
    #expect(request.headers.fields == [HTTPHeaderField(name: "A", value: "x \ty"), HTTPHeaderField(name: "B", value: ""),
                                       HTTPHeaderField(name: "C", value: "")])
}

/// `isTokenByte`'s bitmaps are RFC 9110's `tchar`, byte for byte.
@Test func theTokenBitmapsAreTheTokenCharacters() {
    for byte in UInt8.min...UInt8.max {
        #expect(ASCII.isTokenByte(byte) == ASCII.isTokenChar(byte), "byte \(byte)")
    }
}

/// `isFieldValue` reads printable ASCII eight bytes at a time: it must still find a control byte or
/// DEL at any place in a value, and let HT and bytes from 0x80 through.
@Test func aFieldValueIsRefusedForAControlByteAtAnyPlace() {
    for length in [1, 7, 8, 9, 16, 23] {
        for place in 0..<length {
            for byte: UInt8 in [0x00, 0x01, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x09, 0x20, 0x7E, 0x80, 0xC3, 0xFF] {
                var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                value[place] = byte
                let allowed = !((byte < 0x20 && byte != 0x09) || byte == 0x7F)
                #expect(value.withUnsafeBufferPointer(ASCII.isFieldValue) == allowed, "\(length) bytes, \(byte) at \(place)")
            }
        }
    }
}

/// A connection's parser keeps its last target's text to reuse it when the next request names the same
/// (DECISIONS 144): requests that go back and forth between targets and methods, one byte apart among
/// them, are each read as a parser of their own reads them.
@Test func eachRequestOnAConnectionKeepsItsOwnTargetAndMethod() throws {
    let lines = ["POST /push/send-to-user", "POST /push/send-to-user", "POST /push/send-to-usex", "GET /state?platform=ios",
                 "POST /push/send-to-user", "PUT /push/send-to-user", "POSTX /push/send-to-user", "POST /3/device/ab12",
                 "POST /3/device/ab1", "POST /push/send-to-user"]
    func request(_ line: String) -> String { "\(line) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}" }
    var shared = HTTPRequestParser()
    shared.append(Array(lines.map(request).joined().utf8))
    for line in lines {
        var alone = HTTPRequestParser()
        alone.append(Array(request(line).utf8))
        guard case .request(let got)? = try shared.next(), case .request(let expected)? = try alone.next() else {
            Issue.record("\(line) did not parse")
            return
        }
        #expect(got == expected, "\(line)")
        #expect("\(got.method) \(got.target)" == line)
    }
}
