import Testing
import ShadeCore
@testable import ShadeUI

/// Times on screen read as the viewer's phone shows them; the Center keeps UTC instants.
@Test(arguments: [Platform.android, .ios, .web])
func itemTimesAreShownOnTheViewersClock(platform: Platform) throws {
    let states = try sampleStates("demo.jsonl", platforms: [platform])   // recorded at 10:15 UTC
    let utc = snapshot(states, 60, 20).plainLines().joined(separator: "\n")
    let tokyo = snapshot(states, 60, 20, view: ViewState(platforms: [platform], localTime: LocalTime(offsetSeconds: 9 * 3600)))
        .plainLines().joined(separator: "\n")
    #expect(utc.contains("10:15") && !utc.contains("19:15"))
    #expect(tokyo.contains("19:15") && !tokyo.contains("10:15"), "\(tokyo)")
}

@Test func aBundlesChildrenAreMovedToTheViewersClockToo() {
    let pushes = (1...4).map { envelope("10:0\($0):00", #"{"notification":{"title":"T\#($0)","body":"b"}}"#) }.joined(separator: "\n")
    let states = centerStates(pushes)
    let bundle = states[0].items.first { $0.kind == .bundle }!
    let moved = ItemParts.onWallClock(bundle, LocalTime(offsetSeconds: 3600))
    #expect(moved.children?.map(\.at) == bundle.children?.map { $0.at.map { $0 + 3_600_000 } })
    #expect(moved.at == bundle.at.map { $0 + 3_600_000 })
}
