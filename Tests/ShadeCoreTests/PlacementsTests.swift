import Foundation
import Testing
@testable import ShadeCore

/// `Center.placements(from:)` tells the headless log where each push of a round landed. It reads
/// the table in place; it must answer exactly what the state's items (a bundle's children included,
/// iOS's Calls section too) hold, which is what the log read before.

/// The old reading, from the state: the oracle.
private func placementsFromState(_ center: Center, from oldest: Int) -> [Int: String] {
    var index: [Int: String] = [:]
    func add(_ items: [Item]) {
        for item in items {
            for line in item.lines.reversed() where line.pushID >= oldest {
                index[line.pushID] = describe(kind: item.kind, key: item.key, title: item.title, line: line)
            }
            if let children = item.children { add(children) }
        }
    }
    add(center.state.items)
    return index
}

private func describe(kind: Item.Kind, key: String, title: String?, line: Line) -> String {
    "\(kind) \(key) \(title ?? "-") \(line.sender ?? "-"): \(line.text)"
}

@Test(arguments: SamplesStateTests.pushFiles)
func placementsAreWhereTheStateHoldsEachPushsLine(sample: String) throws {
    let outcomes = try SamplesStateTests.outcomes(of: sample)
    for profile in everyPlatform {
        var center = Center(profile: profile)
        for (n, outcome) in outcomes.enumerated() {
            center.apply(outcome)
            // As a round of the log asks: from a push some way back, and from the newest.
            for oldest in [1, max(1, n - 2), n + 1] {
                let found = center.placements(from: oldest)
                let placed = Dictionary(uniqueKeysWithValues: found.pushIDs.map { id in
                    (id, found[id].map { describe(kind: $0.kind, key: $0.key, title: $0.title, line: $0.line) }!)
                })
                #expect(placed == placementsFromState(center, from: oldest), "\(sample), \(profile.platform), after push \(n + 1), from \(oldest)")
            }
        }
    }
}

@Test func placementsFindABundledChildsLineAndNotADroppedOne() {
    // A8: four plain notifications of one app are bundled; their lines are the children's.
    var center = Center(profile: Profile(platform: .android))
    var intake = Intake()
    for n in 1...5 {
        let line = #"{"to":"t","notification":{"title":"T\#(n)","body":"b\#(n)","tag":"tag\#(n % 4)"}}"#
        for outcome in intake.document(Array(line.utf8), source: "test") { center.apply(outcome) }
    }
    let placed = center.placements(from: 1)
    // Push 1's tag (tag1) was replaced by push 5: only 2–5 are shown.
    #expect(placed.pushIDs == [2, 3, 4, 5])
    #expect(placed[1] == nil && placed[6] == nil)
    #expect(placed[5].map { "\($0.kind) \($0.key) \($0.line.text)" } == "plain tag1 b5")
    #expect(center.state.items.contains { $0.kind == .bundle })
}
