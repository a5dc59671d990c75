import ShadeCore

/// One selectable thing in a column's list: an item, or the head or a child of an expanded
/// bundle. Cheap to list; its rows are built only when it is placed on screen.
struct ViewEntry {
    enum Role { case item, bundleHead, bundleChild }
    var item: Item
    var section: String
    var role: Role = .item

    /// The entry's rows on `platform` in a column `width` wide.
    func rows(_ platform: Platform, width: Int, view: ViewState) -> [ViewRow] {
        let expanded = view.expanded.contains(item.id)
        let item = view.localTime.isUTC ? self.item : ItemParts.onWallClock(self.item, view.localTime)
        switch (role, platform) {
        case (.bundleHead, _): return [AndroidShade.bundleHead(item)]
        case (.bundleChild, _): return PlainNotification.rows(item, width: width, expanded: expanded, inBundle: true)
        case (.item, .android): return AndroidShade.rows(item, width: width, expanded: expanded)
        case (.item, .ios): return IOSShade.rows(item, width: width, expanded: expanded)
        case (.item, .web): return WebShade.rows(item, width: width, expanded: expanded)
        }
    }
}

/// Pieces every platform's items are made of.
enum ItemParts {
    /// Where an item's text starts: after the 4-column icon (`(A)`, `(王)`, `▣`) and a space.
    static let textIndent = 5
    /// Newest messages a collapsed conversation shows (A1); the rest are counted.
    static let collapsedMessages = 3
    /// Rows of a plain notification's body when collapsed.
    static let collapsedBodyRows = 2
    /// Rows any one text may take when expanded, so one huge body cannot push out everything.
    static let expandedTextRows = 8

    /// The icon of an item: `(A)` initials drawn in the sender's colour, `[A]` where an https
    /// photo is given (a terminal cannot show the photo; the brackets say there is one).
    static func badge(_ avatar: Avatar) -> Span {
        var initials = sanitized(avatar.initials)
        let width = displayWidth(of: initials)
        if width == 0 || width > 2 || initials.count != 1 { initials = "?" }
        let text = avatar.imageURL != nil ? "[\(initials)]" : "(\(initials))"
        return Span(text, ViewStyle.avatar(avatar.color))
    }

    /// The app-icon marker, where the platform shows the app's icon rather than a person.
    static let appIcon = Span("▣", ViewStyle.meta)

    /// The icon, then spaces up to the text column.
    static func icon(_ span: Span) -> [Span] {
        [span, Span(String(repeating: " ", count: max(1, textIndent - span.width)))]
    }

    /// `HH:MM` of a time as its entry carries it, nil when the push carried none.
    static func time(_ millis: Int64?) -> Span? {
        millis.map { Span(Timestamp.clockTime(millis: $0), ViewStyle.meta) }
    }

    /// The item with its instants moved to the viewer's wall clock, so that every view prints local
    /// time with `time(_:)` without each being handed the zone. Only the copy drawn is moved: the
    /// Center's items, and the state JSON, keep UTC instants.
    static func onWallClock(_ item: Item, _ localTime: LocalTime) -> Item {
        var item = item
        item.at = item.at.map(localTime.wallMillis)
        for i in item.lines.indices { item.lines[i].at = item.lines[i].at.map(localTime.wallMillis) }
        item.children = item.children?.map { onWallClock($0, localTime) }
        return item
    }

    /// I8: how an interruption level is marked; `active` (the default) is not.
    static func level(_ level: InterruptionLevel?) -> Span? {
        switch level {
        case .timeSensitive: return Span("⚑ Time Sensitive", Style(foreground: .warning, bold: true))
        case .critical: return Span("‼ Critical", Style(foreground: .danger, bold: true))
        case .passive: return Span("passive", ViewStyle.meta)
        case .active, nil: return nil
        }
    }

    /// Rows of body text at `indent`: wrapped to the width, at most `maxRows`, `…` when cut.
    static func textRows(_ text: String, indent: Int, width: Int, maxRows: Int, style: Style = ViewStyle.body) -> [ViewRow] {
        wrapped(text, width: max(1, width - indent), maxLines: maxRows).map { ViewRow(indent: indent, [Span($0, style)]) }
    }

    /// One row of text, cut with `…` where it does not fit (collapsed lists).
    static func oneRow(_ spans: [Span], indent: Int = textIndent) -> ViewRow {
        ViewRow(indent: indent, spans)
    }

    /// `[Reply] [Like]`: the actions a notification offers (W4: the Center kept at most 2 on the web).
    static func actions(_ item: Item) -> [ViewRow] {
        guard !item.actions.isEmpty else { return [] }
        var spans: [Span] = []
        for action in item.actions {
            if !spans.isEmpty { spans.append(Span(" ")) }
            spans.append(Span("[" + action + "]", ViewStyle.action))
        }
        return [ViewRow(indent: textIndent, spans)]
    }

    /// What the newest notification carries beside its text, one dim row each: I11 a note that the
    /// app's extension may rewrite it, I12 its category and its picture (the URL, cut to fit).
    static func extras(_ item: Item, indent: Int = textIndent) -> [ViewRow] {
        var rows: [ViewRow] = []
        if item.mutableContent { rows.append(ViewRow(indent: indent, [Span(mutableContentNote, ViewStyle.meta)])) }
        if let category = item.category.nonEmpty { rows.append(ViewRow(indent: indent, [Span("category ", ViewStyle.meta), Span(category, ViewStyle.meta)])) }
        if let image = item.image.nonEmpty { rows.append(ViewRow(indent: indent, [Span("image ", ViewStyle.meta), Span(image, ViewStyle.meta)])) }
        return rows
    }

    static let mutableContentNote = "may be changed by the app's extension"

    /// `+3 earlier messages`: pushes of a conversation that are not on screen.
    static func earlier(_ count: Int, kept: Bool) -> ViewRow {
        let noun = count == 1 ? "message" : "messages"
        let text = kept ? "+\(count) earlier \(noun)" : "+\(count) earlier \(noun) not kept"
        return ViewRow(indent: textIndent, [Span(text, ViewStyle.more)])
    }

    /// Stacked conversation lines, oldest first. One-to-one: the texts. Group (A4): a block per
    /// run of one sender identity (C3): the name once, bold in the sender's colour, then the
    /// texts; the same name with another senderId starts a new block in its own colour.
    static func messageRows(_ lines: some Collection<Line>, isGroup: Bool, width: Int, expanded: Bool) -> [ViewRow] {
        let maxRows = expanded ? expandedTextRows : 1
        guard isGroup else {
            return lines.flatMap { textRows($0.text, indent: textIndent, width: width, maxRows: maxRows) }
        }
        var rows: [ViewRow] = []
        var previous: String?
        // A name takes at most a third of the text width, so the messages keep the rest.
        let nameWidth = max(6, (width - textIndent) / 3)
        var continuationIndent = textIndent
        for line in lines {
            let identity = line.senderID ?? line.sender ?? ""
            if identity != previous || rows.isEmpty {
                let name = truncated(sanitized(line.sender ?? "?"), toWidth: nameWidth)
                let color = line.senderAvatar?.color ?? Avatar.color(for: identity)
                let prefix = [Span(name, ViewStyle.avatar(color)), Span(": ")]
                continuationIndent = textIndent + displayWidth(of: name) + 2
                var text = textRows(line.text, indent: continuationIndent, width: width, maxRows: maxRows)
                if text.isEmpty { text = [ViewRow(indent: continuationIndent, [])] }
                text[0] = ViewRow(indent: textIndent, prefix + text[0].left)
                rows += text
            } else {
                var text = textRows(line.text, indent: continuationIndent, width: width, maxRows: maxRows)
                if text.isEmpty { text = [ViewRow(indent: continuationIndent, [])] }
                rows += text
            }
            previous = identity
        }
        return rows
    }

    /// `sender: text` lines (W2 on the web: every line names its sender).
    static func senderLine(_ line: Line, width: Int, expanded: Bool) -> [ViewRow] {
        let identity = line.senderID ?? line.sender ?? ""
        let color = line.senderAvatar?.color ?? Avatar.color(for: identity)
        let nameWidth = max(6, (width - textIndent) / 3)
        let name = truncated(sanitized(line.sender ?? "?"), toWidth: nameWidth)
        let indent = textIndent + displayWidth(of: name) + 2
        var rows = textRows(line.text, indent: indent, width: width, maxRows: expanded ? expandedTextRows : 1)
        if rows.isEmpty { rows = [ViewRow(indent: indent, [])] }
        rows[0] = ViewRow(indent: textIndent, [Span(name, ViewStyle.avatar(color)), Span(": ")] + rows[0].left)
        return rows
    }
}

extension String {
    /// nil for an empty string: a payload's `""` title shows as no title.
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Optional where Wrapped == String {
    var nonEmpty: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}
