import ShadeCore
import ShadeIO

/// The headless log (`shade listen --headless`, `shade replay` without a terminal): a line per push and
/// platform shown, then a one-line summary. Payload text is data: `Console.line` writes each line through `SafeText`.
/// Arrivals are described once per loop round, from one state per platform, so a flood costs one
/// state per round instead of one per push.
final class PushLog {
    /// The platforms of `--platform`.
    let platforms: [Platform]
    /// How the time a push arrived (or was recorded) reads at the start of its lines.
    let localTime: LocalTime
    private var pending: [Arrival] = []

    init(platforms: [Platform], localTime: LocalTime = .utc) {
        self.platforms = platforms
        self.localTime = localTime
    }

    func record(_ arrival: Arrival) {
        pending.append(arrival)
    }

    /// Prints the arrivals recorded since the last call.
    func flush(_ session: LiveSession) {
        guard !pending.isEmpty else { return }
        let wanted = pending.compactMap { $0.push?.id }
        var placed: [Platform: [Int: Placed]] = [:]
        if let oldest = wanted.min() {
            for platform in platforms where pending.contains(where: { $0.effects[platform] == .shown || $0.effects[platform] == .call }) {
                placed[platform] = Self.index(session.center(platform).state.items, from: oldest)
            }
        }
        for arrival in pending {
            for line in lines(for: arrival, placed: placed) { Console.line(line) }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Where a push's text is now.
    struct Placed {
        var kind: Item.Kind
        var key: String
        var title: String?
        var line: Line
    }

    /// `15:53:07 #3 android: conversation room_42 ← @ali: Is the bike still available?` (the time where
    /// the push has one: when it was received, or recorded)
    func lines(for arrival: Arrival, placed: [Platform: [Int: Placed]]) -> [String] {
        let channel = Self.channelNote(arrival.push?.transport.channel)
        if let refusal = arrival.refusal {
            return ["\(arrival.source.description): refused (not recorded): \(refusal.message)\(channel)"]
        }
        guard let push = arrival.push else {
            let reason = arrival.effects.values.lazy.compactMap { effect -> String? in
                if case .rejected(let reason) = effect { return reason }
                return nil
            }.first ?? "rejected"
            return ["\(arrival.source.description): rejected: \(reason)"]
        }
        let time = push.transport.atMillis.map { localTime.timeOfDay($0) + " " } ?? ""
        return platforms.map { platform in
            let effect = arrival.effects[platform] ?? .elsewhere
            return "\(time)#\(push.id) \(platform.rawValue): " + describe(effect, push: push, placed: placed[platform]?[push.id]) + channel
        } + push.notes.map { "\(time)#\(push.id) note: \($0)" }
    }

    /// ` [HTTP/2 over TLS (TLSv1.3), SNI api.push.apple.com, through the proxy (CONNECT api.push.apple.com:443)]`
    /// for pushes that came over TLS, HTTP/2 or the proxy; nothing for plain HTTP/1.1 and NDJSON.
    static func channelNote(_ channel: Channel?) -> String {
        guard let channel, !channel.isPlain else { return "" }
        return " [\(channel.description)]"
    }

    private func describe(_ effect: Arrival.Effect, push: Push, placed: Placed?) -> String {
        switch effect {
        case .rejected(let reason):
            return "rejected: " + reason
        case .elsewhere:
            let reached = push.platforms.sorted().map(\.displayName).joined(separator: ", ")
            return "elsewhere (\(push.shape.displayName) for \(reached))"
        case .silent:
            return "silent"
        case .waiting:
            return "waiting: the device is offline (rules O1–O5)"
        case .call, .shown:
            // Replaced (a tag, a collapse id) or dropped by a cap later in the same round.
            guard let placed else { return effect == .call ? "call" : "shown, then replaced" }
            let key = placed.key
            switch placed.kind {
            case .conversation:
                return "conversation \(key) ← \(placed.line.sender ?? placed.title ?? ""): \(placed.line.text)"
            case .call:
                return "call \(key) from \(placed.title ?? "unknown caller")"
            case .plain, .bundle:
                let title = (placed.line.title ?? placed.title).map { " \"\($0)\"" } ?? ""
                return "notification \(key)\(title): \(placed.line.text)"
            }
        }
    }

    /// Push number → where its line is, for pushes numbered `oldest` and later. An item's lines are in
    /// arrival order, so each is read from its end and left at the first older line: a flood into long
    /// iOS stacks costs the new lines, not all of them.
    static func index(_ items: [Item], from oldest: Int) -> [Int: Placed] {
        var index: [Int: Placed] = [:]
        func add(_ items: [Item]) {
            for item in items {
                for line in item.lines.reversed() {
                    if line.pushID < oldest { break }
                    index[line.pushID] = Placed(kind: item.kind, key: item.key, title: item.title, line: line)
                }
                if let children = item.children { add(children) }
            }
        }
        add(items)
        return index
    }

    /// `android: 7 shown, 2 silent, 0 calls, 1 rejected, 0 elsewhere, badge 3; ios: …` (and how many the
    /// services dropped, when the profile was offline: SPEC §8).
    func summary(_ session: LiveSession) -> String {
        Self.summary(session, platforms: platforms)
    }

    static func summary(_ session: LiveSession, platforms: [Platform]) -> String {
        session.states(platforms).map { state in
            "\(state.platform.rawValue): \(state.shown) shown, \(state.silent) silent, \(state.calls) calls, "
                + "\(state.rejected) rejected, \(state.elsewhere) elsewhere, "
                + (state.dropped > 0 ? "\(state.dropped) dropped, " : "") + "badge \(state.badge)"
        }.joined(separator: "; ")
    }
}
