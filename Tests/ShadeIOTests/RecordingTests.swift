import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

@Test(arguments: [
    (Int64(1_796_033_700_120), "2026-11-30T10:15:00.120Z"),
    (0, "1970-01-01T00:00:00.000Z"),
    (-1, "1969-12-31T23:59:59.999Z"),
    (951_782_400_000, "2000-02-29T00:00:00.000Z"),
    (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
])
func timestampsFormatInUTCWithMilliseconds(millis: Int64, text: String) {
    #expect(Timestamp.iso8601(millis: millis) == text)
    #expect(Timestamp.millis(fromISO8601: text) == millis)
}

@Test(arguments: [
    ("2026-11-30T11:15:00.120+01:00", Int64(1_796_033_700_120)),
    ("2026-11-30T05:45:00.12-04:30", 1_796_033_700_120),
    ("2026-11-30T10:15:00.1204567Z", 1_796_033_700_120),
    ("2026-11-30t10:15:00.120z", 1_796_033_700_120),
    ("2026-11-30 11:15:00.120+0100", 1_796_033_700_120),
    ("2026-11-30T10:15:00Z", 1_796_033_700_000),
    ("2026-11-30T10:15:00", 1_796_033_700_000),
    ("2026-11-30T10:15:00,5Z", 1_796_033_700_500),
])
func timestampsParseWithOffsetsAndFractions(text: String, millis: Int64) {
    #expect(Timestamp.millis(fromISO8601: text) == millis)
}

@Test(arguments: [
    "", "2026-11-30", "2026-11-30T10:15Z", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
    "2026-11-30T24:00:00Z", "2026-11-30T10:15:00.Z", "2026-11-30T10:15:00Z trailing", "26-11-30T10:15:00Z",
    "2026-11-30T10:15:00+1:00",
])
func malformedTimestampsAreNil(text: String) {
    #expect(Timestamp.millis(fromISO8601: text) == nil)
}

@Test func timestampsRoundTripAcrossCenturies() {
    var millis: Int64 = -2_208_988_800_000   // 1900-01-01
    while millis < 4_102_444_800_000 {       // 2100-01-01
        #expect(Timestamp.millis(fromISO8601: Timestamp.iso8601(millis: millis)) == millis)
        millis += 86_399_997 * 13
    }
}

@Test func formatterAgreesWithFoundation() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for millis in stride(from: Int64(0), to: 4_000_000_000_000, by: 123_456_789_011) {
        let date = Date(timeIntervalSince1970: Double(millis) / 1000)
        #expect(Timestamp.iso8601(millis: millis) == formatter.string(from: date))
    }
}

// MARK: Journal

private func temporaryPath(_ name: String) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shade-io-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent(name).path
}

private func contents(_ path: String) -> String {
    String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
}

@Test func journalAppendsLinesToAnExistingFile() throws {
    let path = temporaryPath("session.jsonl")
    _ = FileManager.default.createFile(atPath: path, contents: Data("{\"old\": 1}\n".utf8))
    let journal = try Journal(appendingTo: path)
    try journal.append(line: Array("{\"at\": \"2026-11-30T10:15:00.120Z\", \"payload\": {}}".utf8))
    try journal.append(line: Array("{\"n\": 2}".utf8))
    #expect(contents(path) == "{\"old\": 1}\n{\"at\": \"2026-11-30T10:15:00.120Z\", \"payload\": {}}\n{\"n\": 2}\n")
}

/// Issue 10: recordings hold payloads (and were created 0644).
@Test func journalCreatesTheFileWithMode0600() throws {
    let path = temporaryPath("new.jsonl")
    let journal = try Journal(appendingTo: path)
    try journal.append(line: [])
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600 & ~Int(currentUmask()))
    #expect(contents(path) == "\n")
}

private func currentUmask() -> mode_t {
    let mask = umask(0)
    umask(mask)
    return mask
}

@Test func journalLoopsOverShortWritesAndInterruptions() throws {
    let path = temporaryPath("short.jsonl")
    var calls = 0
    let journal = try Journal(appendingTo: path) { fd, pointer, count in
        calls += 1
        if calls == 2 {
            errno = EINTR
            return -1
        }
        return write(fd, pointer, min(count, 3))
    }
    try journal.append(line: Array("{\"aps\": {}}".utf8))
    #expect(contents(path) == "{\"aps\": {}}\n")
    #expect(calls == 5)   // 12 bytes three at a time, plus one interrupted call
}

@Test func journalErrorsNameThePath() {
    let path = temporaryPath("full.jsonl")
    #expect(throws: JournalError(path: path, reason: "No space left on device")) {
        let journal = try Journal(appendingTo: path) { _, _, _ in
            errno = ENOSPC
            return -1
        }
        try journal.append(line: [0x7B, 0x7D])
    }
    #expect(throws: JournalError(path: "/nonexistent-dir/x.jsonl", reason: "No such file or directory")) {
        _ = try Journal(appendingTo: "/nonexistent-dir/x.jsonl")
    }
    #expect(JournalError(path: "/r.jsonl", reason: "No space left on device").description
        == "cannot write the recording /r.jsonl: No space left on device")
}

// MARK: no torn line (issue 10, finding 2)

/// A disk that takes `room` more bytes: writes stop short at it, then fail with ENOSPC.
private final class SmallDisk {
    var room: Int
    var writes = 0
    init(room: Int) { self.room = room }

    func write(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        writes += 1
        guard room > 0 else {
            errno = ENOSPC
            return -1
        }
        let taken = Glibc.write(fd, pointer, min(count, room))
        room -= taken
        return taken
    }
}

@Test func finding2_aWriteThatStopsShortIsCutBackToTheLastWholeLine() throws {
    let path = temporaryPath("full.jsonl")
    _ = FileManager.default.createFile(atPath: path, contents: Data("{\"old\": 1}\n".utf8))
    let disk = SmallDisk(room: 5)
    let journal = try Journal(appendingTo: path, write: disk.write)
    #expect(throws: JournalError(path: path, reason: "No space left on device")) {
        try journal.append(line: Array("{\"aps\": {\"alert\": \"hi\"}}".utf8))
    }
    #expect(contents(path) == "{\"old\": 1}\n")
    #expect(disk.writes == 2)   // 5 bytes, then ENOSPC
    disk.room = 1 << 20
    try journal.append(line: Array("{\"n\": 2}".utf8))
    #expect(contents(path) == "{\"old\": 1}\n{\"n\": 2}\n")
}

@Test func finding2_aJournalThatCannotCutBackRefusesEveryPushUntilItCan() throws {
    let path = temporaryPath("stuck.jsonl")
    let disk = SmallDisk(room: 4)
    var truncations = 0
    var truncateWorks = false
    let journal = try Journal(appendingTo: path, write: disk.write, truncate: { fd, length in
        truncations += 1
        guard truncateWorks else {
            errno = EIO
            return -1
        }
        return ftruncate(fd, off_t(length))
    })
    let stuck = JournalError(path: path, reason: "No space left on device, and the part written cannot be cut off "
        + "(Input/output error); refusing every push until it can")
    #expect(throws: stuck) { try journal.append(line: Array("{\"first\": 1}".utf8)) }
    #expect(contents(path) == "{\"fi")
    disk.room = 1 << 20
    let writes = disk.writes
    #expect(throws: stuck) { try journal.append(line: Array("{\"second\": 2}".utf8)) }
    #expect(disk.writes == writes)   // refused before writing anything
    truncateWorks = true
    try journal.append(line: Array("{\"third\": 3}".utf8))
    #expect(contents(path) == "{\"third\": 3}\n")
    #expect(truncations == 3)
}

@Test(arguments: [
    ("{\"a\": 1}\n{\"a", "{\"a\": 1}\n", 3),
    ("{\"a", "", 3),
    ("{\"a\": 1}\n", "{\"a\": 1}\n", 0),
    ("", "", 0),
    // A torn tail longer than one read of the end.
    ("{\"a\": 1}\n" + String(repeating: "x", count: 100_000), "{\"a\": 1}\n", 100_000),
])
func finding2_openingARecordingWithATornTailCutsItToTheLastWholeLine(before: String, after: String, cut: Int) throws {
    let path = temporaryPath("torn.jsonl")
    _ = FileManager.default.createFile(atPath: path, contents: Data(before.utf8))
    let journal = try Journal(appendingTo: path)
    #expect(journal.repairedBytes == cut)
    #expect(contents(path) == after)
    try journal.append(line: Array("{\"b\": 2}".utf8))
    #expect(contents(path) == after + "{\"b\": 2}\n")
}

// MARK: batches (issue 13: one write per batch of acknowledgements)

@Test func aBatchIsOneWriteAndAShortOneKeepsTheLinesThatCameWhole() throws {
    let path = temporaryPath("batch.jsonl")
    let disk = SmallDisk(room: 1 << 20)
    let journal = try Journal(appendingTo: path, write: disk.write)
    for n in 1...3 { journal.stage(line: Array("{\"n\": \(n)}".utf8)) }
    #expect(journal.stagedCount == 3)
    let all = journal.commit()
    #expect(all.written == 3 && all.error == nil)
    #expect(disk.writes == 1)
    #expect(contents(path) == "{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n")

    // Room for a line and a half: the whole line stays, the half is cut off, the rest refused.
    disk.room = 14
    for n in 4...6 { journal.stage(line: Array("{\"n\": \(n)}".utf8)) }
    let short = journal.commit()
    #expect(short.written == 1)
    #expect(short.error == JournalError(path: path, reason: "No space left on device"))
    #expect(contents(path) == "{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n{\"n\": 4}\n")
    #expect(journal.stagedCount == 0)
    disk.room = 1 << 20
    try journal.append(line: Array("{\"n\": 7}".utf8))
    #expect(contents(path).hasSuffix("{\"n\": 4}\n{\"n\": 7}\n"))
}

/// The NDJSON lines of a round, recorded: one write, the replies after it, in order, with a refused
/// line among them; the pushes that did not fit are refused with 500, not shown, and take no number.
@Test func aRecordedBatchOfLinesIsOneWriteBeforeItsAcknowledgements() throws {
    let path = temporaryPath("lines.jsonl")
    let disk = SmallDisk(room: 1 << 20)
    let clock = ManualClock(now: fixedReceivedMillis)
    let session = LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: try Journal(appendingTo: path, write: disk.write),
                              apiKey: nil, clock: clock, wallClock: clock)
    let unix = ConnectionInfo(id: 1, transport: .unix)
    func line(_ n: Int) -> [UInt8] { bytes(#"{"userId":"u","title":"push \#(n)","body":"b"}"#) }
    session.beginLines(from: unix)
    #expect(session.respond(toLine: line(1), lineNumber: 1, from: unix).isEmpty)
    #expect(session.respond(toLine: bytes("{nope"), lineNumber: 2, from: unix).isEmpty)
    #expect(session.respond(toLine: line(2), lineNumber: 3, from: unix).isEmpty)
    #expect(session.center(.android).received == 0, "nothing is applied before the write")
    var output: [UInt8] = []
    session.endLines(from: unix, into: &output)
    #expect(disk.writes == 1)
    let replies = text(output).split(separator: "\n").map(String.init)
    #expect(replies.count == 3)
    #expect(replies[0] == #"{"ok": true, "id": 1}"#)
    #expect(replies[1].hasPrefix(#"{"ok": false"#))
    #expect(replies[2] == #"{"ok": true, "id": 2}"#)
    #expect(session.acceptedCount == 2 && session.refusedCount == 1)
    #expect(contents(path).split(separator: "\n").count == 2)

    // A full disk mid-batch: the push that fitted is acknowledged, the next refused and not numbered.
    let envelope = contents(path).split(separator: "\n")[0].count + 1
    disk.room = envelope + envelope / 2
    session.beginLines(from: unix)
    for n in 3...4 { _ = session.respond(toLine: line(n), lineNumber: n + 1, from: unix) }
    output = []
    session.endLines(from: unix, into: &output)
    let more = text(output).split(separator: "\n").map(String.init)
    #expect(more.first == #"{"ok": true, "id": 3}"#)
    #expect(more.last?.contains("No space left on device — the push was not recorded, so it is not shown") == true, "\(more)")
    #expect(session.acceptedCount == 3 && session.refusedCount == 2)
    #expect(contents(path).split(separator: "\n").count == 3)
    #expect(contents(path).hasSuffix("\n"))
    // Nothing of a refused push is shown: android received the three accepted ones and rejected the two refused.
    #expect(session.center(.android).rejected == 2)
}

@Test(arguments: [
    ([:], [:]),
    (["apns-topic": "t", "apns-push-type": "alert"], ["apns-topic": "t", "apns-push-type": "alert"]),
    (["authorization": "bearer j", "apns-topic": "t"], ["apns-topic": "t"]),
    (["Authorization": "bearer j", "X-API-Key": "k", "x-server-secret": "s", "Cookie": "c", "apns-topic": "t"], ["apns-topic": "t"]),
    // Lowercased as Unicode lowercases it: the Kelvin sign is a "k".
    (["coo\u{212A}ie": "c", "ttl": "60"], ["ttl": "60"]),
    // A credential's length is not enough: the name is looked up.
    (["Proxy-Authorization": "Basic x", "x-api-kez": "k", "cookies": "c"], ["x-api-kez": "k", "cookies": "c"]),
] as [([String: String], [String: String])])
func aRecordingNeverHoldsCredentialsWhateverTheirCase(headers: [String: String], kept: [String: String]) {
    #expect(PushHeaders.withoutCredentials(HeaderFields(headers)) == HeaderFields(kept))
    #expect(PushHeaders.hasCredentials(HeaderFields(headers)) == (headers != kept))
}

// MARK: Envelope lines

/// Issue 13: the envelope writes its payload from the push's tape. Its line must be byte for byte the
/// one the tree of the same envelope writes (what recordings held before), for every push of the
/// samples and fixtures, with transports of every kind (none, headers to sort, credentials to drop).
@Test func envelopeLinesAreWhatTheirTreeWritesForEverySamplePush() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let transports = [
        Transport(),
        Transport(headers: ["apns-topic": "com.example", "Authorization": "bearer x", "apns-collapse-id": "c\u{7F}1"],
                  path: "/3/device/ab\u{9B}12", via: "apns", at: "2026-11-30T10:15:00.120Z"),
        Transport(headers: ["content-type": "application/json"], path: "/push", via: "http"),
        Transport(via: "http", at: "2026-11-30 10:15:00,5"),   // kept as written
        { () -> Transport in   // a live stamp: written from its milliseconds
            var stamped = Transport(headers: ["apns-topic": "com.example"], via: "apns")
            stamped.stamp(millis: 1_796_033_700_120)
            return stamped
        }(),
    ]
    var checked = 0
    let fixtures = root.appendingPathComponent("Tests/ShadeCoreTests/Fixtures")
    let inputs = [root.appendingPathComponent("Samples"), fixtures.appendingPathComponent("vectors"),
                  fixtures.appendingPathComponent("regressions"), fixtures.appendingPathComponent("fuzz/JSONParser")]
    for document in try InputFiles.expand(inputs.map(\.path)) where !document.name.hasSuffix(".md") && !document.name.hasSuffix(".xml") {
        for transport in transports {
            var intake = Intake()
            let outcomes = document.kind == .lines
                ? intake.lines(document.bytes, source: document.name, transport: transport)
                : intake.document(document.bytes, source: document.name, transport: transport)
            for case .push(let push) in outcomes {
                let headers = PushHeaders.withoutCredentials(push.transport.headers).sorted { $0.key < $1.key }
                    .map { JSONObject.Member(key: $0.key, value: .string($0.value)) }
                let tree = JSONObject([
                    "at": push.transport.at.map(JSON.string) ?? .null,
                    "via": push.transport.via.map(JSON.string) ?? .null,
                    "path": push.transport.path.map(JSON.string) ?? .null,
                    "headers": .object(JSONObject(headers)),
                    "payload": push.payload,
                ])
                #expect(String(decoding: Envelope.line(for: push), as: UTF8.self) == JSONWriter.compact(.object(tree)), "\(document.name)")
                checked += 1
            }
        }
    }
    #expect(checked > 300)
}

// MARK: Push metadata

/// DESIGN "Envelope": push metadata (`apns-*`, the content type, and RFC 8030's `ttl`, `urgency`,
/// `topic`) is kept, names lower-cased; credentials never are. Read on the names' bytes; held here to
/// the rule as it reads on lowercased text, over names of every case and near miss.
@Test func pushMetadataKeepsWhatTheRuleNamesInAnyCaseAndNothingElse() {
    let names = ["APNS-Topic", "apns-id", "apns-", "apns", "apnsx-id", "Content-Type", "content\rtype", "CONTENT-TYPE",
                 "content-typ", "TTL", "ttl", "tt", "Urgency", "urgent!", "topic", "Topic", "topics", "x-api-key", "Authorization",
                 "authorization", "cookie", "content-encoding", "apns-\u{130}x", "Tôpic", "user-agent", ":path", "a\u{212A}ns-x",
                 "@pns-x", "APNS\u{0D}x", "content-length", "x-server-secret", "proxy-authorization"]
    func byTheRule(_ name: String) -> Bool {
        let lower = name.lowercased()
        let credentials: Set<String> = ["authorization", "x-api-key", "x-server-secret", "cookie", "proxy-authorization"]
        return (lower.hasPrefix("apns-") || ["ttl", "urgency", "topic", "content-type"].contains(lower)) && !credentials.contains(lower)
    }
    var headers = HTTPHeaders(names.enumerated().map { HTTPHeaderField(name: $0.element, value: "v\($0.offset)") })
    let kept = PushHeaders.metadata(headers)
    var expected: [String: String] = [:]
    for (i, name) in names.enumerated() where byTheRule(name) { expected[name.lowercased()] = "v\(i)" }
    #expect(kept == HeaderFields(expected))
    #expect(kept.keys.contains("apns-topic") && kept.keys.contains("apns-") && !kept.keys.contains("content\rtype"))
    // A name given twice, in two cases: the last value is kept.
    headers = HTTPHeaders([HTTPHeaderField(name: "APNS-TOPIC", value: "first"), HTTPHeaderField(name: "apns-topic", value: "last")])
    #expect(PushHeaders.metadata(headers) == ["apns-topic": "last"])
    #expect(PushHeaders.metadata(HTTPHeaders([HTTPHeaderField(name: "host", value: "x")])) == [:])
}

/// DECISIONS 134: a live request whose metadata, path, `via` and channel repeat a recent one's shares
/// its transport's box; any difference (a value, a name's case, the order, a field more or less, a
/// header that is not metadata aside) makes a new one. Each transport handed out, over a stream of
/// requests that repeat and vary (more kinds than the few kept), is the one made afresh from that
/// request alone, header order included.
@Test func D1_aLiveRequestSharesATransportOnlyWithRequestsOfTheSameMetadata() {
    let plain = Channel(framing: .http1), h2 = Channel(framing: .http2, tls: "TLSv1.3", serverName: "api.push.apple.com")
    let kinds: [(fields: [(String, String)], path: String, via: String?, channel: Channel?)] = [
        ([("content-type", "application/json"), ("host", "a")], "/push/send-to-user", "send-to-user", plain),
        ([("content-type", "application/json"), ("host", "b")], "/push/send-to-user", "send-to-user", plain),   // not metadata aside
        ([("Content-Type", "application/json")], "/push/send-to-user", "send-to-user", plain),                   // a name's case
        ([("content-type", "application/json; charset=utf-8")], "/push/send-to-user", "send-to-user", plain),    // a value
        ([("apns-topic", "com.example"), ("apns-push-type", "alert")], "/3/device/ab12", "apns", h2),
        ([("apns-push-type", "alert"), ("apns-topic", "com.example")], "/3/device/ab12", "apns", h2),             // the order
        ([("apns-topic", "com.example")], "/3/device/ab12", "apns", h2),                                         // a field less
        ([("apns-topic", "com.example"), ("apns-push-type", "alert")], "/3/device/cd34", "apns", h2),             // the path
        ([("apns-topic", "com.example"), ("apns-push-type", "alert")], "/3/device/ab12", "apns", plain),          // the channel
        ([("apns-topic", "com.example"), ("apns-push-type", "alert")], "/3/device/ab12", nil, h2),                // via
        ([("apns-topic", "com.example"), ("apns-push-type", "alert")], "/3/device/ab12", "apns", nil),
        ([("apns-topic", "com.examplf"), ("apns-push-type", "alert")], "/3/device/ab12", "apns", h2),            // one byte
        ([("apns-x", "yz")], "/3/device/ab12", "apns", h2),
        ([("apns-xy", "z")], "/3/device/ab12", "apns", h2),                                                     // a byte moved
        ([], "/push/send-to-user", "send-to-user", plain),
    ]
    var recent = RecentTransports()
    var rng = SystemRandomNumberGenerator()
    let order = (0..<200).map { step in step < kinds.count * 2 ? step % kinds.count : Int.random(in: 0..<kinds.count, using: &rng) }
    for kind in order.map({ kinds[$0] }) {
        let headers = HTTPHeaders(kind.fields.map { HTTPHeaderField(name: $0.0, value: $0.1) })
        let got = recent.transport(headers: headers, path: kind.path, via: kind.via, channel: kind.channel)
        let fresh = Transport(headers: PushHeaders.metadata(headers), path: kind.path, via: kind.via, channel: kind.channel)
        #expect(got == fresh)
        #expect(got.headers.map { [$0.key, $0.value] } == fresh.headers.map { [$0.key, $0.value] }, "\(kind.fields)")
        #expect(got.path == kind.path && got.via == kind.via && got.channel == kind.channel && got.atMillis == nil)
    }
}
