import ShadeCore

/// The inspector pane: everything about the selected item, as styled lines to scroll through.
public enum Inspector {
    static let heading = Style(bold: true, underline: true)
    static let label = Style(dim: true)

    /// `diagnostics` are lint lines for the newest push (empty when clean); `events` what happened to
    /// the device beside its items (SPEC §8: onDeletedMessages, what the services dropped offline);
    /// `command` is how the user runs shade, for the hint that rule ids can be looked up. Times are
    /// read on `localTime`'s clock, the recorded UTC text beside them.
    public static func lines(for item: Item, platform: Platform, diagnostics: [String] = [], events: [TraceStep] = [],
                             command: String = "shade", localTime: LocalTime = .utc) -> [StyledLine] {
        var out: [StyledLine] = []
        func field(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            out.append([Span("  " + name.padding(to: 12), label), Span(value)])
        }
        func section(_ title: String) {
            if !out.isEmpty { out.append([]) }
            out.append([Span(title, heading)])
        }

        out.append([Span("\(item.kind.rawValue) ", Style(bold: true)), Span(item.key, Style(foreground: .accent, bold: true)),
                    Span("  on \(platform.displayName)", label)])
        section("Shown")
        field("app", item.app)
        field("title", item.title)
        field("subtitle", item.subtitle)
        field("group", item.isGroup == true ? "yes" + (item.conversationTitle.map { " (\($0))" } ?? "") : nil)
        if let avatar = item.avatar {
            field("avatar", "\(avatar.initials) colour \(avatar.color)" + (avatar.imageURL.map { " photo \($0)" } ?? " (initials drawn)"))
        }
        field("tag", item.tag)
        field("level", item.level.map { level in
            item.criticalSound ? "\(level.rawValue) (I10: a critical sound; the app needs Apple's critical-alerts entitlement)"
                : "\(level.rawValue) (I8: interruption-level)"
        })
        if item.mutableContent {
            field("extension", "mutable-content: 1 (I11): the app's Notification Service Extension may rewrite the title and body before they are shown")
        }
        field("category", item.category.map {
            platform == .android ? "\($0) (I12): click_action, the activity a tap opens" : "\($0) (I12): the action buttons the app registered for it"
        })
        field("image", item.image.map { "\($0) (I12)" })
        field("pushes", "\(item.total) in this item, \(item.lines.count) kept")
        if !item.actions.isEmpty { field("actions", item.actions.joined(separator: ", ")) }
        for line in item.lines.suffix(5) {
            out.append([Span("  • ", label), Span(line.sender.map { "\($0): " } ?? "", Style(bold: true)), Span(line.text)])
        }

        if let push = item.newest {
            section("Newest push")
            field("source", push.source.description)
            field("shape", "\(push.shape.rule) \(push.shape.displayName)")
            field("via", push.transport.via)
            field("route", push.transport.path)
            if let channel = push.transport.channel {
                field("protocol", channel.protocolText)
                if channel.tls != nil { field("TLS host", channel.serverName ?? "(no SNI: the default certificate)") }
                field("proxy", channel.proxiedTo.map { "through Shade's proxy: CONNECT \($0)" } ?? "no, straight to Shade")
            }
            field("at", push.transport.atMillis.map { localTime.dateTime($0) + (push.transport.at.map { "  (\($0))" } ?? "") }
                ?? push.transport.at)
            for (name, value) in push.transport.headers.sorted(by: { $0.key < $1.key }) {
                field(name, value)
            }
            // How the route read it (a Web Push body), what a real service would have answered.
            for note in push.notes { field("note", note) }
        }

        section("On tap the app receives (C10)")
        if item.data.isEmpty {
            out.append([Span("  (no data)", label)])
        } else {
            out += JSONLines.lines(.object(item.data)).map { [Span("  ")] + $0 }
        }

        section("Why (decision trace)")
        let trace = item.trace
        if let example = trace.first?.rule {
            // The one place a newcomer meets rule ids first: say how to look one up.
            out.append([Span("  "), Span("rule ids: `\(command) explain \(example)` says what a rule is and where it comes from", label)])
        }
        // A stack's pushes each took their own decisions: a rule between them says where one ends.
        let pushes = Set(trace.compactMap(\.pushID)).count
        var previous: Int??
        for step in trace {
            if pushes > 1, previous != .some(step.pushID) {
                out.append([Span("  ── " + (step.pushID.map { "push #\($0)" } ?? "earlier") + " ──", label)])
            }
            previous = .some(step.pushID)
            out.append([Span("  [\(step.rule)] ".padding(to: 8), Style(foreground: .accent, bold: true)), Span(step.text)])
        }
        if !events.isEmpty {
            section("Device events (offline delivery, O1–O5)")
            for step in events {
                out.append([Span("  [\(step.rule)] ".padding(to: 8), Style(foreground: .accent, bold: true)), Span(step.text)])
            }
        }
        if !diagnostics.isEmpty {
            section("Lint")
            for d in diagnostics { out.append([Span("  " + d)]) }
        }
        if let push = item.newest {
            section("Payload")
            out += JSONLines.lines(push.payload).map { [Span("  ")] + $0 }
        }
        return out
    }
}

extension String {
    /// Pads with spaces to at least `width` display columns.
    func padding(to width: Int) -> String {
        let w = displayWidth(of: self)
        return w >= width ? self + " " : self + String(repeating: " ", count: width - w)
    }
}
