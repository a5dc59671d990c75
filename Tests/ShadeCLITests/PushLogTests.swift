import Testing
@testable import shade
@testable import ShadeIO
import ShadeCore

/// The headless log's note lines: what a route noticed beside the push (a service's answer Shade
/// let through). A note is written from the bytes made safe the first time it is met, so a flood's
/// repeated note is not scanned again; the lines must still be those `Console.appendLine` makes.
@Test(arguments: [
    "APNs would answer 403 MissingProviderToken: no provider token (Shade accepted it)",
    "the key id \u{1B}[31mred\u{1B}[0m\r\nforged line",
    "ünïcödé ← and a bidi \u{202E}override",
])
func aNoteLineIsSafeAndTheSameEachTimeItIsWritten(note: String) throws {
    let log = PushLog(platforms: [.android])
    var push = Push(id: 7, payload: try JSONParser.parse(#"{"aps": {"alert": "hi"}}"#), shape: .apns, source: SourcePosition(name: "tcp 127.0.0.1:5000#1"))
    push.notes = [note]
    var effects = Arrival.Effects()
    effects[.android] = .elsewhere
    let arrival = Arrival(push: push, source: push.source, refusal: nil, effects: effects)
    var expected: [UInt8] = []
    Console.appendLine("#7 note: " + note, to: &expected)
    let expectedLine = String(decoding: expected.dropLast(), as: UTF8.self)
    for _ in 0..<2 {
        let lines = log.lines(for: arrival, placed: PushLog.Placed())
        #expect(lines == ["#7 android: elsewhere (APNs payload for iOS)", expectedLine])
    }
    #expect(!expectedLine.contains("\u{1B}") && !expectedLine.contains("\r") && !expectedLine.contains("\u{202E}"))
}

@Test func aDifferentNoteIsWrittenAsItself() throws {
    let log = PushLog(platforms: [])
    for note in ["first note", "second note", "first note"] {
        var push = Push(id: 1, payload: try JSONParser.parse(#"{"aps": {"alert": "hi"}}"#), shape: .apns, source: SourcePosition(name: "t"))
        push.notes = [note]
        let arrival = Arrival(push: push, source: push.source, refusal: nil, effects: Arrival.Effects())
        #expect(log.lines(for: arrival, placed: PushLog.Placed()) == ["#1 note: \(note)"])
    }
}

/// An elsewhere line names the platforms the push reached: those whose center took it (any effect but
/// `elsewhere`, as the elsewhere tally counts), and, where no center said, those its payload reaches.
/// The text is kept from push to push, so a change of the platforms alone must change it.
@Test(arguments: [
    ([Platform.android: Arrival.Effect.elsewhere, .ios: .shown, .web: .elsewhere], "iOS"),
    ([.android: .elsewhere, .ios: .silent, .web: .waiting], "iOS, Web"),
    ([.android: .elsewhere, .ios: .rejected("BadDeviceToken"), .web: .elsewhere], "iOS"),
    ([.android: .elsewhere, .ios: .elsewhere, .web: .elsewhere], ""),
    ([.android: .elsewhere], "iOS"),
    ([.android: .elsewhere, .ios: .elsewhere], ""),
    ([.android: .elsewhere, .web: .call], "iOS, Web"),
])
func anElsewhereLineNamesThePlatformsThePushReached(effects given: [Platform: Arrival.Effect], named: String) throws {
    let log = PushLog(platforms: [.android])
    var effects = Arrival.Effects()
    for (platform, effect) in given { effects[platform] = effect }
    let push = Push(id: 3, payload: try JSONParser.parse(#"{"aps": {"alert": "hi"}}"#), shape: .apns, source: SourcePosition(name: "t"))
    let first = Arrival(push: push, source: push.source, refusal: nil, effects: Arrival.Effects())
    // The line before, with no center's say, names what the payload reaches; the one after its own.
    #expect(log.lines(for: first, placed: PushLog.Placed()) == ["#3 android: elsewhere (APNs payload for iOS)"])
    let arrival = Arrival(push: push, source: push.source, refusal: nil, effects: effects)
    #expect(log.lines(for: arrival, placed: PushLog.Placed()) == ["#3 android: elsewhere (APNs payload for \(named))"])
}
