import Foundation
import Testing
import ShadeCore
import ShadeUI

// Building center states the way `shade state` does: Intake turns text into pushes, one
// Center per profile takes every push in order.

/// The final states of `platforms` after the pushes of `ndjson` (one payload or envelope a line).
func centerStates(_ ndjson: String, platforms: [Platform] = [.android],
                  profile adjust: (inout Profile) -> Void = { _ in }) -> [CenterState] {
    var intake = Intake()
    let outcomes = intake.lines(Array(ndjson.utf8), source: "test.jsonl")
    return feed(outcomes, platforms: platforms, adjust: adjust)
}

/// The final states after a Samples file, read as `shade` reads it.
func sampleStates(_ name: String, platforms: [Platform] = Platform.allCases) throws -> [CenterState] {
    let url = samplesFolder.appendingPathComponent(name)
    let bytes = Array(try Data(contentsOf: url))
    var intake = Intake()
    let lower = name.lowercased()
    let outcomes = lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson")
        ? intake.lines(bytes, source: "Samples/" + name)
        : intake.document(bytes, source: "Samples/" + name)
    return feed(outcomes, platforms: platforms, adjust: { _ in })
}

private func feed(_ outcomes: [Intake.Outcome], platforms: [Platform], adjust: (inout Profile) -> Void) -> [CenterState] {
    platforms.map { platform in
        var profile = Profile(platform: platform)
        adjust(&profile)
        var center = Center(profile: profile)
        for outcome in outcomes { center.apply(outcome) }
        return center.state
    }
}

/// The repository's Samples folder, found from this file's path.
let samplesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Samples")

/// Every payload file of Samples and its folders (`l10n/L5-missing-key.jsonl`), but the string
/// tables of `strings/`.
func sampleNames() -> [String] {
    let paths = FileManager.default.enumerator(atPath: samplesFolder.path)?.compactMap { $0 as? String } ?? []
    return paths.filter { path in
        !path.hasPrefix("strings/") && [".json", ".jsonl", ".ndjson", ".apns"].contains(where: path.lowercased().hasSuffix)
    }.sorted()
}

/// The screen of `states` at a size, with a view (default: nothing selected, all collapsed).
func snapshot(_ states: [CenterState], _ columns: Int, _ rows: Int, view: ViewState? = nil) -> Screen {
    ShadeView.compose(states, view: view ?? ViewState(platforms: states.map(\.platform)), columns: columns, rows: rows)
}

/// A line of the DESIGN contract: exactly `columns` wide and no control character.
func expectWellFormed(_ screen: Screen, sourceLocation: SourceLocation = #_sourceLocation) {
    let lines = screen.plainLines()
    #expect(lines.count == screen.rows, sourceLocation: sourceLocation)
    for (number, line) in lines.enumerated() {
        #expect(displayWidth(of: line) == screen.columns, "line \(number): \(line)", sourceLocation: sourceLocation)
        let controls = line.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "line \(number) holds control characters: \(line)", sourceLocation: sourceLocation)
    }
}

/// `{"at": …, "payload": …}` envelope lines, so items carry a time.
func envelope(_ at: String, _ payload: String, headers: String = "{}") -> String {
    #"{"at":"2026-11-30T\#(at).000Z","headers":\#(headers),"payload":\#(payload)}"#
}

/// A seed-000 chat message (D3) with its conversation keys.
func chat(_ at: String, room: String, sender: String, id: String? = nil, text: String, group: String? = nil,
          photo: String? = nil) -> String {
    var data = #""conversationId":"\#(room)","senderName":"\#(sender)","senderId":"\#(id ?? sender)""#
    if let group { data += #","conversationIsGroup":true,"conversationTitle":"\#(group)""# }
    if let photo { data += #","senderAvatarUrl":"\#(photo)""# }
    return envelope(at, #"{"userId":"u","title":"\#(group ?? sender)","body":"\#(text)","data":{\#(data)}}"#)
}

/// A plain FCM legacy notification (D7), with a tag when given.
func fcm(_ at: String, title: String, body: String, tag: String? = nil) -> String {
    let tagJSON = tag.map { #","tag":"\#($0)""# } ?? ""
    return envelope(at, #"{"to":"t","notification":{"title":"\#(title)","body":"\#(body)"\#(tagJSON)}}"#)
}
