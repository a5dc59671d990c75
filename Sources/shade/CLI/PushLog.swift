import ShadeCore
import ShadeIO

/// The headless log (`shade listen --headless`, `shade replay` without a terminal): a line per push and
/// platform shown, then a one-line summary. Payload text is data: it is cleaned of control characters.
struct PushLog {
    /// The platforms of `--platform`.
    let platforms: [Platform]

    /// `#3 android: conversation room_42 ← @ali: Is the bike still available?`
    func lines(for arrival: Arrival, in session: LiveSession) -> [String] {
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
            return "#\(push.id) \(platform.rawValue): " + describe(effect, push: push, center: session.centers[platform]!)
        }
    }

    private func describe(_ effect: Arrival.Effect, push: Push, center: Center) -> String {
        switch effect {
        case .rejected(let reason):
            return "rejected: " + LogText.clean(reason)
        case .elsewhere:
            let reached = push.shape.platforms.sorted().map(\.displayName).joined(separator: ", ")
            return "elsewhere (\(push.shape.displayName) for \(reached))"
        case .silent:
            return "silent"
        case .call:
            guard let (item, _) = find(push.id, in: center.state.items) else { return "call" }
            return "call \(LogText.clean(item.key)) from \(LogText.clean(item.title ?? "unknown caller"))"
        case .shown:
            guard let (item, line) = find(push.id, in: center.state.items) else { return "shown" }
            let key = LogText.clean(item.key)
            switch item.kind {
            case .conversation:
                return "conversation \(key) ← \(LogText.clean(line.sender ?? item.title ?? "")): \(LogText.clean(line.text))"
            case .call:
                return "call \(key) from \(LogText.clean(item.title ?? "unknown caller"))"
            case .plain, .bundle:
                let title = (line.title ?? item.title).map { " \"\(LogText.clean($0))\"" } ?? ""
                return "notification \(key)\(title): \(LogText.clean(line.text))"
            }
        }
    }

    /// The item (a bundle's child, where bundled) holding the line of push `id`.
    private func find(_ id: Int, in items: [Item]) -> (Item, Line)? {
        for item in items {
            if let line = item.lines.last(where: { $0.pushID == id }) { return (item, line) }
            if let children = item.children, let found = find(id, in: children) { return found }
        }
        return nil
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
