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
    /// The time of day last written, by the second it is for: a flood's pushes share their second.
    private var timeCache: (second: Int64, text: [UInt8])?

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
        // The pushes' numbers read in place (a copy of each arrival copied its push).
        var oldest: Int?, wanted = 0
        // The platforms that showed any, by `allCases` index: only those have placements to look up.
        // Read through a buffer pointer, whose elements are borrowed: the array's copied each arrival.
        var showing = [false, false, false]
        pending.withUnsafeBufferPointer { arrivals in
            for arrival in arrivals.indices {
                guard let id = arrivals[arrival].push?.id else { continue }
                oldest = min(oldest ?? id, id)
                wanted += 1
                for platform in Platform.allCases where arrivals[arrival].effects.isShown(on: platform) {
                    showing[platform.index] = true
                }
            }
        }
        var placed = Placed()
        if let oldest {
            for platform in platforms where showing[platform.index] {
                placed[platform] = session.center(platform).placements(from: oldest, expecting: wanted)
            }
        }
        // One buffer and one write for the round; each line is checked (and made safe) as it ends.
        var out: [UInt8] = []
        out.reserveCapacity(pending.count * 96 * platforms.count)
        // Each arrival written in place and its push moved out of it (they are dropped next): a
        // `for … in` copied every arrival and the push inside it.
        for index in pending.indices { write(&pending[index], placed: placed, into: &out) }
        Console.write(out)
        pending.removeAll(keepingCapacity: true)
    }

    /// Each platform's placements for the round, by `Platform.allCases` index: nil where it showed none.
    struct Placed {
        private var platforms: [Center.Placements?] = [nil, nil, nil]

        subscript(platform: Platform) -> Center.Placements? {
            get { platforms[platform.index] }
            set { platforms[platform.index] = newValue }
        }
    }

    /// `15:53:07 #3 android: conversation room_42 ← @ali: Is the bike still available?` (the time where
    /// the push has one: when it was received, or recorded)
    func lines(for arrival: Arrival, placed: Placed) -> [String] {
        var out: [UInt8] = []
        var arrival = arrival
        write(&arrival, placed: placed, into: &out)
        return out.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The lines of `arrival`, each ended by a newline and safe to print, appended to `out`: built as
    /// bytes, since a flood writes a line per push and platform. The arrival's push is moved out.
    func write(_ arrival: inout Arrival, placed: Placed, into out: inout [UInt8]) {
        // The push moved out of the arrival, not copied (a copy retained each of its references).
        let push = arrival.push.take()
        let channel = push.map(channelNote) ?? ""
        if let refusal = arrival.refusal {
            Console.appendLine("\(arrival.source.description): refused (not recorded): \(refusal.message)\(channel)", to: &out)
            return
        }
        guard let push else {
            let reason = arrival.effects.values.lazy.compactMap { effect -> String? in
                if case .rejected(let reason) = effect { return reason }
                return nil
            }.first ?? "rejected"
            Console.appendLine("\(arrival.source.description): rejected: \(reason)", to: &out)
            return
        }
        prefix.removeAll(keepingCapacity: true)
        if let at = push.transport.atMillis {
            // Within one second of UTC the offset is one (zones move on whole seconds): the same text.
            let second = at >= 0 ? at / 1000 : (at - 999) / 1000
            if timeCache?.second != second { timeCache = (second, Array(localTime.timeOfDay(at).utf8)) }
            prefix += timeCache!.text
            prefix.append(0x20)
        }
        prefix.append(UInt8(ascii: "#"))
        UTF8Text.appendDecimal(push.id, to: &prefix)
        // A push is elsewhere on up to two platforms: its text is worked out once.
        var elsewhereText: [UInt8]?
        for platform in platforms {
            let start = out.count
            out += prefix
            out.append(0x20)
            UTF8Text.append(platform.rawValue, to: &out)
            out += Self.colonSpace
            describe(arrival.effects[platform] ?? .elsewhere, push: push, effects: arrival.effects, platform: platform, placed: placed,
                     elsewhere: &elsewhereText, into: &out)
            UTF8Text.append(channel, to: &out)
            Console.endLine(in: &out, from: start)
        }
        for note in push.notes {
            // The prefix and label are safe ASCII ending in a space, so the line is safe exactly when
            // the note is, and made safe by making the note safe.
            out += prefix
            out += Self.noteLabel
            out += safeNote(note)
            out.append(0x0A)
        }
    }

    /// The last note, made safe: a flood's pushes mostly carry the same one (a backend that sends no
    /// credentials sends every push without), and it is the longest line the log writes.
    private var lastNote: (text: String, safe: [UInt8])?

    private func safeNote(_ note: String) -> [UInt8] {
        // The same string each time (the session words a note once): compared by identity first.
        if let lastNote, lastNote.text == note { return lastNote.safe }
        var safe: [UInt8] = []
        Console.appendLine(note, to: &safe)
        safe.removeLast()   // the newline
        lastNote = (note, safe)
        return safe
    }

    /// `15:53:07 #3`, which starts each of a push's lines: kept from push to push, so none allocates it.
    private var prefix: [UInt8] = []

    private static let colonSpace: [UInt8] = [0x3A, 0x20]
    private static let noteLabel = Array(" note: ".utf8)

    /// The last channel's note: a connection's pushes share their channel, so a flood describes it once.
    private var lastChannel: Channel?
    private var lastChannelNote = ""

    private func channelNote(_ push: Push) -> String {
        // Plain channels (HTTP/1.1, NDJSON) have no note: answered before any comparison. The channel
        // is compared where the push keeps it; it is copied out only when it changed.
        if push.transport.hasPlainChannel { return "" }
        if lastChannel != nil && push.transport.hasChannel(lastChannel) { return lastChannelNote }
        lastChannel = push.transport.channel
        lastChannelNote = Self.channelNote(lastChannel)
        return lastChannelNote
    }

    /// ` [HTTP/2 over TLS (TLSv1.3), SNI api.push.apple.com, through the proxy (CONNECT api.push.apple.com:443)]`
    /// for pushes that came over TLS, HTTP/2 or the proxy; nothing for plain HTTP/1.1 and NDJSON.
    static func channelNote(_ channel: Channel?) -> String {
        guard let channel, !channel.isPlain else { return "" }
        return " [\(channel.description)]"
    }

    private func describe(_ effect: Arrival.Effect, push: Push, effects: Arrival.Effects, platform: Platform, placed: Placed,
                          elsewhere text: inout [UInt8]?, into out: inout [UInt8]) {
        switch effect {
        case .rejected(let reason):
            UTF8Text.append("rejected: ", to: &out)
            UTF8Text.append(reason, to: &out)
        case .elsewhere:
            if text == nil { text = elsewhere(push, effects: effects) }
            out += text!
        case .silent:
            UTF8Text.append("silent", to: &out)
        case .waiting:
            UTF8Text.append("waiting: the device is offline (rules O1–O5)", to: &out)
        case .call, .shown:
            // Replaced (a tag, a collapse id) or dropped by a cap later in the same round.
            guard let placed = placed[platform]?[push.id] else {
                UTF8Text.append(effect == .call ? "call" : "shown, then replaced", to: &out)
                return
            }
            switch placed.kind {
            case .conversation:
                UTF8Text.append("conversation ", to: &out)
                UTF8Text.append(placed.key, to: &out)
                UTF8Text.append(" ← ", to: &out)
                UTF8Text.append(placed.line.sender ?? placed.title ?? "", to: &out)
                out += Self.colonSpace
                UTF8Text.append(placed.line.text, to: &out)
            case .call:
                UTF8Text.append("call ", to: &out)
                UTF8Text.append(placed.key, to: &out)
                UTF8Text.append(" from ", to: &out)
                UTF8Text.append(placed.title ?? "unknown caller", to: &out)
            case .plain, .bundle:
                UTF8Text.append("notification ", to: &out)
                UTF8Text.append(placed.key, to: &out)
                if let title = placed.line.title ?? placed.title {
                    UTF8Text.append(" \"", to: &out)
                    UTF8Text.append(title, to: &out)
                    UTF8Text.append("\"", to: &out)
                }
                out += Self.colonSpace
                UTF8Text.append(placed.line.text, to: &out)
            }
        }
    }

    /// `elsewhere (APNs payload for iOS)`, kept for the last shape and platforms it was for: a flood's
    /// pushes mostly share both, and the text cost more than the rest of the line. The platforms are
    /// those the push reaches, one bit each by `Platform.allCases` index, read off the arrival where a
    /// center took it or not (`Arrival.Effects.reached`, what the elsewhere tally counts; a live
    /// session applies every push to all three) and off the payload only where no center said.
    private var lastElsewhere: (shape: PayloadShape, reached: UInt8, text: [UInt8])?

    private func elsewhere(_ push: Push, effects: Arrival.Effects) -> [UInt8] {
        var reached: UInt8 = 0
        for platform in Platform.allCases where effects[platform] == nil ? push.reaches(platform) : effects.reached(platform) {
            reached |= 1 << platform.index
        }
        if let last = lastElsewhere, last.shape == push.shape, last.reached == reached { return last.text }
        let names = Platform.allCases.filter { reached & 1 << $0.index != 0 }.map(\.displayName)   // in Platform's order
        let text = Array("elsewhere (\(push.shape.displayName) for \(names.joined(separator: ", ")))".utf8)
        lastElsewhere = (push.shape, reached, text)
        return text
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
