// seeds: payloads
// Intake, the three Centers and every view on any bytes, read as `state` reads a file (NDJSON lines, or
// one document), online or offline for a while: no trap, the state JSON holds no raw control byte, and the screen — each platform alone
// or side by side, at one of several sizes, as a snapshot or the live UI with everything expanded and
// the inspector or the errors pane open — is exactly its size in rows and shows no control byte.
import FuzzSupport
import ShadeCore
import ShadeUI

/// Profiles that read pushes differently: the defaults, and older or more limited receivers.
nonisolated let profiles: [[Profile]] = [
    Platform.allCases.map { Profile(platform: $0) },
    [Profile(platform: .android, osVersion: Version("10")), Profile(platform: .ios, osVersion: Version("14"), sdk: Version("0.1.20")),
     Profile(platform: .web, sdk: Version("0.1.14"))],
]

nonisolated let sizes = [(40, 10), (80, 24), (100, 30), (160, 40)]

func check(_ screen: Screen, rows: Int, _ what: String) {
    let lines = screen.plainLines()
    Fuzz.require(lines.count == rows, "\(what): \(lines.count) lines for \(rows) rows")
    for (row, line) in lines.enumerated() { Fuzz.expectNoControlBytes(line, "\(what), row \(row)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCenter(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    // The first byte picks the profiles, file kind and the screen: one screen per input keeps the run
    // fast, and the fuzzer reaches every combination by changing that byte.
    let choice = Int(bytes.first ?? 0)
    var centers = profiles[choice & 1].map { Center(profile: $0) }
    var intake = Intake()
    let outcomes = choice & 2 == 0 ? intake.lines(bytes, source: "fuzz.jsonl") : intake.document(bytes, source: "fuzz.json")
    // The second byte may take the profiles offline (SPEC §8) from the first push for up to 21 minutes.
    if bytes.count > 1, bytes[1] & 1 == 1 {
        var timeline = OfflineTimeline(OfflineWindow(from: .offset(0), until: .offset(Int64(bytes[1] >> 1) * 10_000)))
        for outcome in outcomes { timeline.apply(outcome, to: &centers) }
        timeline.finish(&centers)
    } else {
        for outcome in outcomes {
            for i in centers.indices { centers[i].apply(outcome) }
        }
    }
    let states = centers.map(\.state)
    Fuzz.expectNoControlBytes(StateJSON.text(states), "the state JSON")

    let platforms = [[Platform.android], [.ios], [.web], Platform.allCases][(choice >> 2) & 3]
    let (columns, rows) = sizes[(choice >> 4) & 3]
    var view = ViewState(platforms: platforms)
    let items = ShadeView.selectableItems(states, view: view)
    guard choice & 0x40 != 0 else {
        check(ShadeView.compose(states, view: view, columns: columns, rows: rows), rows: rows, "\(platforms) \(columns)x\(rows)")
        return 0
    }
    // The live UI: everything expanded, the first item selected, the list, its inspector or the errors.
    view.expanded = Set(items.map(\.id))
    view.selection = items.first?.id
    var model = InteractiveModel(view: view)
    model.pane = [Pane.list, .inspector, .errors, .inspector][choice >> 7 | (bytes.count & 2)]
    let screen = InteractiveScreen.compose(states, model: model, chrome: Chrome(title: "fuzz"), columns: columns, rows: rows,
                                           diagnostics: { item, platform in
                                               item.newest.map { Lint.check($0, platforms: [platform]).map(\.description) } ?? []
                                           })
    check(screen, rows: rows, "\(platforms) \(model.pane) \(columns)x\(rows)")
    return 0
}

Fuzz.main(fuzzCenter)
