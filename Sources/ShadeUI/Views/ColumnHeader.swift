import ShadeCore

/// The top of a column: the profile (`Android 14 · SDK 0.1.22`) and the counters
/// (`12 received · 7 shown · 2 silent · 0 calls · 1 rejected · badge 3`).
///
/// The counters take the one of these forms that fits every column drawn side by side in the
/// fewest rows (the first of those), so the columns read alike and their sections start on the
/// same row:
/// 1. one line, every counter (`elsewhere` only when non-zero), the badge last;
/// 2. the badge moves to the right of the profile line; the counters flow over two lines;
/// 3. as 2, without the counters that are zero (received and shown always stay);
/// 4. as 3, with short words (`recv`, `rej`; `elsewhere` stays whole);
/// 5. form 4 cut with `…`.
enum ColumnHeader {
    enum Form: CaseIterable {
        case oneLine, twoLines, nonZero, short, cut
    }

    /// The header rows of each state in a column `width` columns wide (the same form for all),
    /// padded to the same height.
    static func rows(_ states: [CenterState], width: Int) -> [[ViewRow]] {
        // The fitting form with the fewest rows (zeros are not worth a row); the fuller on a tie.
        var form = Form.cut
        var height = Int.max
        for candidate in Form.allCases where candidate != .cut {
            let lines = states.map { counterLines($0, form: candidate, width: width) }
            guard lines.allSatisfy({ $0 != nil }) else { continue }
            let rows = lines.map { $0!.count }.max() ?? 0
            if rows < height { (form, height) = (candidate, rows) }
        }
        var result = states.map { rows($0, form: form, width: width) }
        let tallest = result.map(\.count).max() ?? 0
        for i in result.indices { while result[i].count < tallest { result[i].append(.blank) } }
        return result
    }

    static func rows(_ state: CenterState, form: Form, width: Int) -> [ViewRow] {
        let badge = Span("badge \(state.badge)", state.badge > 0 ? ViewStyle.title : ViewStyle.meta)
        var summary = [Span(state.profile.summary, ViewStyle.summary)]
        // SPEC §8: an offline device says so, and how many pushes wait for it.
        if state.offlineSince != nil { summary.append(Span(" · offline · \(state.waiting) waiting", ViewStyle.error)) }
        let top = form == .oneLine ? ViewRow(summary) : ViewRow(summary, right: [badge], minimumLeft: 8)
        let lines = counterLines(state, form: form, width: width) ?? cutLines(state, width: width)
        return [top] + lines.map { ViewRow([Span($0, ViewStyle.meta)]) }
    }

    /// The counter lines of a form, or nil when they do not fit.
    static func counterLines(_ state: CenterState, form: Form, width: Int) -> [String]? {
        let parts = counters(state, form: form)
        switch form {
        case .oneLine:
            let line = (parts + ["badge \(state.badge)"]).joined(separator: separator)
            return displayWidth(of: line) <= width ? [line] : nil
        case .twoLines, .nonZero, .short:
            let lines = flow(parts, width: width)
            return lines.count <= 2 && lines.allSatisfy({ displayWidth(of: $0) <= width }) ? lines : nil
        case .cut:
            return nil
        }
    }

    static func cutLines(_ state: CenterState, width: Int) -> [String] {
        let lines = flow(counters(state, form: .cut), width: width)
        var kept = Array(lines.prefix(2))
        if lines.count > 2 { kept[1] += " …" }
        return kept.map { truncated($0, toWidth: width) }
    }

    static let separator = " · "

    static func counters(_ state: CenterState, form: Form) -> [String] {
        let short = form == .short || form == .cut
        let dropZeros = form == .nonZero || short
        var parts = ["\(state.received) \(short ? "recv" : "received")", "\(state.shown) shown"]
        let optional: [(Int, String, String)] = [
            (state.silent, "silent", "silent"),
            (state.calls, state.calls == 1 ? "call" : "calls", state.calls == 1 ? "call" : "calls"),
            (state.rejected, "rejected", "rej"),
        ]
        for (count, long, brief) in optional where count > 0 || !dropZeros {
            parts.append("\(count) \(short ? brief : long)")
        }
        // Pushes for another platform, and pushes the services discarded while the device was offline
        // (§8); only worth a word when there are some. The words are never shortened: "4 else" and
        // "2 drop" read as sentences cut off, not as counts.
        if state.elsewhere > 0 { parts.append("\(state.elsewhere) elsewhere") }
        if state.dropped > 0 { parts.append("\(state.dropped) dropped") }
        return parts
    }

    /// Parts joined by ` · `, broken between parts where a line would overflow.
    static func flow(_ parts: [String], width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for part in parts {
            if current.isEmpty {
                current = part
            } else if displayWidth(of: current) + separator.count + displayWidth(of: part) <= width {
                current += separator + part
            } else {
                lines.append(current)
                current = part
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
