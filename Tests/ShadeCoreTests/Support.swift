import Foundation
import Testing
@testable import ShadeCore

// The pipeline as `shade state` runs it: bytes → Intake → one Center per profile → CenterState.

/// Feeds NDJSON text (one payload or envelope a line, as a `.jsonl` file) to one center per profile.
func centers(_ ndjson: String, _ profiles: [Profile]) -> [Center] {
    var intake = Intake()
    var centers = profiles.map { Center(profile: $0) }
    for outcome in intake.lines(Array(ndjson.utf8), source: "t.jsonl") {
        for i in centers.indices { centers[i].apply(outcome) }
    }
    return centers
}

func center(_ ndjson: String, _ profile: Profile = Profile(platform: .android)) -> Center {
    centers(ndjson, [profile])[0]
}

/// The three default profiles, in `--platform all` order.
let everyPlatform = Platform.allCases.map { Profile(platform: $0) }

/// The whole state JSON of a center, one line per item, so a test compares every field the
/// contract writes with one literal. What a field holds when nothing applies is dropped to keep
/// the lines readable — null members, `"mutableContent": false`, and `dropped` while it is 0 (SPEC §8
/// only); StateJSONTests checks that the real output writes them.
func digest(_ state: CenterState) -> String { digest(json: StateJSON.value(state)) }

/// The same with `--trace`: each item's trace among its fields, and the profile's events (SPEC §8)
/// after the errors.
func tracedDigest(_ state: CenterState) -> String {
    digest(json: StateJSON.addingTraces(StateJSON.value(state), [state]))
}

func digest(json: JSON) -> String {
    guard case .object(let root) = json else { return "not an object" }
    var out: [String] = []
    let counters = ["received", "shown", "silent", "calls", "rejected", "elsewhere", "dropped", "badge"]
        .filter { $0 != "dropped" || root[$0]?.numberLexeme != "0" }
        .map { "\($0)=\(root[$0]?.numberLexeme ?? "?")" }
    out.append((root["platform"]?.string ?? "?") + " " + counters.joined(separator: " "))
    for section in root["sections"]?.array ?? [] {
        out.append(section["name"]?.string ?? "?")
        for item in section["items"]?.array ?? [] { out.append("  " + JSONWriter.compact(droppingNulls(item))) }
    }
    let errors = root["errors"]?.array ?? []
    if !errors.isEmpty {
        out.append("errors")
        for error in errors { out.append("  \(error["source"]?.string ?? "?") \(error["reason"]?.string ?? "?")") }
    }
    let events = root["events"]?.array ?? []
    if !events.isEmpty {
        out.append("events")
        for event in events { out.append("  " + (event.string ?? "?")) }
    }
    return out.joined(separator: "\n")
}

func digest(_ center: Center) -> String { digest(center.state) }

/// Digests of several centers, separated by a blank line (android, ios, web for `everyPlatform`).
func digest(_ centers: [Center]) -> String { centers.map { digest($0) }.joined(separator: "\n\n") }

func droppingNulls(_ value: JSON) -> JSON {
    switch value {
    case .object(let o):
        let kept = o.members.filter { !$0.value.isNull && !($0.key == "mutableContent" && $0.value == .bool(false)) }
        return .object(JSONObject(kept.map { .init(key: $0.key, value: droppingNulls($0.value)) }))
    case .array(let a): return .array(a.map(droppingNulls))
    default: return value
    }
}

/// A push-service send-to-user request (D3, seed 000) as one NDJSON line; `data` is the inside of
/// the data object.
func sendToUser(title: String, body: String, data: String) -> String {
    #"{"userId":"user_kian","title":"\#(title)","body":"\#(body)","data":{\#(data)}}"#
}

/// A node-gcm / FCM legacy message (D7) with a notification block, as one NDJSON line.
func fcmLegacy(title: String, body: String, extra: String = "") -> String {
    #"{"to":"fcm-token","notification":{"title":"\#(title)","body":"\#(body)"\#(extra)}}"#
}

/// Raw bytes of a fixture copied into the test bundle (`Fixtures/…`).
func fixtureBytes(_ relativePath: String) throws -> [UInt8] {
    let base = try #require(Bundle.module.resourceURL)
    return Array(try Data(contentsOf: base.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)))
}

func fixtureNames(_ folder: String) throws -> [String] {
    let base = try #require(Bundle.module.resourceURL)
    return try FileManager.default.contentsOfDirectory(atPath: base.appendingPathComponent("Fixtures").appendingPathComponent(folder).path).sorted()
}

/// Feeds one whole document (a `.json` or `.apns` file: an object or a batch) to one center per profile.
func centers(document text: String, _ profiles: [Profile], source: String = "t.apns") -> [Center] {
    var intake = Intake()
    var centers = profiles.map { Center(profile: $0) }
    for outcome in intake.document(Array(text.utf8), source: source) {
        for i in centers.indices { centers[i].apply(outcome) }
    }
    return centers
}
