import Foundation
import Testing
@testable import ShadeCore

/// `Center.keepsTraces`: where nothing reads a trace (`state` without `--trace`, `snapshot`, a headless
/// session) a center makes none. The trace must only ever be read, never decide: a center without
/// traces reaches the same state as one with them, item for item, but for the traces themselves.
struct TraceKeepingTests {
    /// The state with every item's trace (a bundle's children's too) taken out.
    static func withoutTraces(_ state: CenterState) -> CenterState {
        func strip(_ item: Item) -> Item {
            var item = item
            item.trace = []
            item.children = item.children?.map(strip)
            return item
        }
        var state = state
        state.sections = state.sections.map { Section(name: $0.name, items: $0.items.map(strip)) }
        return state
    }

    static func allTraces(_ state: CenterState) -> [TraceStep] {
        func traces(_ item: Item) -> [TraceStep] { item.trace + (item.children ?? []).flatMap(traces) }
        return state.items.flatMap(traces)
    }

    static let profiles: [Profile] = everyPlatform + [
        Profile(platform: .android, osVersion: Version(10)),
        Profile(platform: .ios, osVersion: Version(14)),
        Profile(platform: .ios, iosCommunication: false),
        Profile(platform: .android, groupBy: "data.payload.room", bundleAt: 2),
    ]

    @Test(arguments: SamplesStateTests.pushFiles)
    func aCenterWithoutTracesReachesTheSameStateButForTheTraces(sample: String) throws {
        let outcomes = try SamplesStateTests.outcomes(of: sample)
        for profile in Self.profiles {
            var traced = Center(profile: profile)
            var untraced = Center(profile: profile)
            untraced.keepsTraces = false
            for outcome in outcomes {
                traced.apply(outcome)
                untraced.apply(outcome)
            }
            let kept = traced.state
            #expect(Self.withoutTraces(kept) == Self.withoutTraces(untraced.state), "\(sample), \(profile.platform) \(profile.osVersion)")
            // The A8 bundle's step is the state's own, made as it is read: every other step is gone.
            #expect(Self.allTraces(untraced.state).allSatisfy { $0.rule == "A8" }, "\(sample)")
            #expect(Self.allTraces(kept).contains { $0.rule != "A8" } || kept.items.isEmpty, "\(sample)")
        }
    }

    /// Offline delivery notes where a push waited (§8): the same holds for what a store releases.
    @Test(arguments: ["5s..30s", "0s..1h"])
    func pushesReleasedFromAnOfflineStoreLandAlikeWithoutTraces(window: String) throws {
        let outcomes = try SamplesStateTests.outcomes(of: "offline-session.jsonl")
        for profile in everyPlatform {
            var timeline = OfflineTimeline(try OfflineWindow.parse(window))
            var centers = [Center(profile: profile), Center(profile: profile)]
            centers[1].keepsTraces = false
            for outcome in outcomes { timeline.apply(outcome, to: &centers) }
            timeline.finish(&centers)
            #expect(Self.withoutTraces(centers[0].state) == Self.withoutTraces(centers[1].state), "\(window), \(profile.platform)")
            #expect(centers[0].events == centers[1].events)
        }
    }
}
