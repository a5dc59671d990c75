import ShadeCore
import ShadeIO

/// The headless log (`shade listen --headless`, `shade replay` without a terminal): a line per push and
/// platform shown, then a one-line summary. Payload text is data: it is cleaned of control characters.
/// Arrivals are described once per loop round, from one state per platform, so a flood costs one
/// state per round instead of one per push.
final class PushLog {
    /// The platforms of `--platform`.
    let platforms: [Platform]
    private var pending: [Arrival] = []

    init(platforms: [Platform]) {
        self.platforms = platforms
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
            for line in lines(for: arrival, placed: placed) { print(line) }
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

    /// `#3 android: conversation room_42 ← @ali: Is the bike still available?`
    func lines(for arrival: Arrival, placed: [Platform: [Int: Placed]]) -> [String] {
        if let refusal = arrival.refusal {
            return ["\(LogText.clean(arrival.source.description)): refused (not recorded): \(LogText.clean(refusal.message))"]
        }
        guard let push = arrival.push else {
            let reason = arrival.effects.values.lazy.compactMap { effect -> String? in
                if case .rejected(let reason) = effect { return reason }
                return nil
            }.first ?? "rejected"
            return ["\(LogText.clean(arrival.source.description)): rejected: \(LogText.clean(reason))"]
        }
        return platforms.map { platform in
            let effect = arrival.effects[platform] ?? .elsewhere
            return "#\(push.id) \(platform.rawValue): " + describe(effect, push: push, placed: placed[platform]?[push.id])
        }
    }

    private func describe(_ effect: Arrival.Effect, push: Push, placed: Placed?) -> String {
        switch effect {
        case .rejected(let reason):
            return "rejected: " + LogText.clean(reason)
        case .elsewhere:
            let reached = push.shape.platforms.sorted().map(\.displayName).joined(separator: ", ")
            return "elsewhere (\(push.shape.displayName) for \(reached))"
        case .silent:
            return "silent"
        case .call, .shown:
            // Replaced (a tag, a collapse id) or dropped by a cap later in the same round.
            guard let placed else { return effect == .call ? "call" : "shown, then replaced" }
            let key = LogText.clean(placed.key)
            switch placed.kind {
            case .conversation:
                return "conversation \(key) ← \(LogText.clean(placed.line.sender ?? placed.title ?? "")): \(LogText.clean(placed.line.text))"
            case .call:
                return "call \(key) from \(LogText.clean(placed.title ?? "unknown caller"))"
            case .plain, .bundle:
                let title = (placed.line.title ?? placed.title).map { " \"\(LogText.clean($0))\"" } ?? ""
                return "notification \(key)\(title): \(LogText.clean(placed.line.text))"
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

    /// `android: 7 shown, 2 silent, 0 calls, 1 rejected, 0 elsewhere, badge 3; ios: …`
    func summary(_ session: LiveSession) -> String {
        session.states(platforms).map { state in
            "\(state.platform.rawValue): \(state.shown) shown, \(state.silent) silent, \(state.calls) calls, "
                + "\(state.rejected) rejected, \(state.elsewhere) elsewhere, badge \(state.badge)"
        }.joined(separator: "; ")
    }
}

/// Text from payloads made safe for a terminal line: no byte below 0x20, no DEL, no C1 control, no bidi
/// override reaches the output. (The same substitutions as ShadeUI's `sanitized`, which the TUI uses;
/// this log needs no display widths.)
enum LogText {
    static func clean(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            defer { previousWasCR = value == 0x0D }
            switch value {
            case 0x0A where previousWasCR: continue
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: out.append(" ")
            case 0x1B: out.append("\u{241B}")                              // ␛
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + value)!)  // Control Pictures
            case 0x7F: out.append("\u{2421}")                              // ␡
            case 0x80...0x9F: out.append("\u{FFFD}")
            case 0x202A...0x202E, 0x2066...0x2069: continue                // bidi overrides and isolates
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
