/// Pushes counted by where they went: the platforms that counted a push as another platform's
/// (`elsewhere`, SPEC §1) and the platforms it reached. What a view that hides some platforms needs
/// to say which of them the pushes it missed went to, push by push: two counters per platform could
/// not tell an APNs push (iOS only) from a send-to-user push (all three) that came in the same frame.
public struct ElsewhereTally: Equatable, Sendable {
    /// Indexed by `mask(missed) * 8 + mask(reached)`: three platforms, eight sets each.
    private var counts = [Int](repeating: 0, count: 64)

    public init() {}

    /// One push: which platforms counted it as another's, and which it reached (asked of each
    /// platform: a set per push would allocate on every live push).
    public mutating func add(missed: (Platform) -> Bool, reached: (Platform) -> Bool) {
        var missedMask = 0, reachedMask = 0
        for platform in Platform.allCases {
            if missed(platform) { missedMask |= Self.bit(platform) }
            if reached(platform) { reachedMask |= Self.bit(platform) }
        }
        guard missedMask != 0 else { return }   // every platform it could reach shows it: nothing to say
        counts[missedMask * 8 + reachedMask] += 1
    }

    /// Pushes since `before` that every platform of `shown` counted as elsewhere, and the other
    /// platforms those pushes reached, in `Platform.allCases` order.
    public func missed(by shown: [Platform], since before: ElsewhereTally) -> (count: Int, reached: [Platform]) {
        let shownMask = Self.mask(Set(shown))
        guard shownMask != 0 else { return (0, []) }
        var count = 0
        var reached = 0
        for missed in 0..<8 where missed & shownMask == shownMask {
            for to in 0..<8 {
                let new = counts[missed * 8 + to] - before.counts[missed * 8 + to]
                guard new > 0 else { continue }
                count += new
                reached |= to & ~shownMask
            }
        }
        return (count, Platform.allCases.filter { reached & Self.bit($0) != 0 })
    }

    private static func bit(_ platform: Platform) -> Int {
        switch platform {
        case .android: 1
        case .ios: 2
        case .web: 4
        }
    }

    private static func mask(_ platforms: Set<Platform>) -> Int { platforms.reduce(0) { $0 | bit($1) } }
}
