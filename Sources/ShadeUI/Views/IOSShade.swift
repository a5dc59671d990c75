import ShadeCore

/// iOS's Notification Center (SPEC §4): stacks by thread, newest first, the communication look
/// where the Center allowed it (I2), interruption levels (I8), and the Calls lane (I7).
enum IOSShade {
    static func rows(_ item: Item, width: Int, expanded: Bool) -> [ViewRow] {
        item.kind == .call ? call(item) : stack(item, width: width, expanded: expanded)
    }

    /// I7: a ringing call, a reverse-video bar: the caller and `Incoming call`.
    static func call(_ item: Item) -> [ViewRow] {
        var left = ItemParts.icon(item.avatar.map(ItemParts.badge) ?? ItemParts.appIcon)
        left[0].style.reverse = true
        left.append(Span(item.title.nonEmpty ?? "Unknown caller", ViewStyle.ringing))
        left.append(Span(" · " + (item.lines.last?.text ?? "Incoming call"), ViewStyle.ringing))
        left.append(Span(" · " + item.app, ViewStyle.ringing))
        return [ViewRow(left, right: [ItemParts.time(item.at)].compactMap { $0 }, background: ViewStyle.ringing)]
    }

    /// I1: the stack shows its newest notification (title, subtitle, body) and `N more`;
    /// expanded, every notification, newest first. The avatar badge only where the Center gave
    /// the item one (the communication look, I2); the app icon otherwise.
    static func stack(_ item: Item, width: Int, expanded: Bool) -> [ViewRow] {
        let newestFirst = Array(item.lines.reversed())
        guard let newest = newestFirst.first else { return [head(item, title: item.title, at: item.at)] }
        var rows = [head(item, title: newest.title ?? item.title, at: newest.at ?? item.at)]
        rows += notification(newest, width: width, expanded: expanded)
        rows += ItemParts.extras(item)
        if !expanded {
            if newestFirst.count > 1 { rows.append(ViewRow(indent: ItemParts.textIndent, [Span("\(newestFirst.count - 1) more", ViewStyle.more)])) }
            return rows
        }
        var previous = newest
        for line in newestFirst.dropFirst() {
            // A title row only where the title changes: a one-to-one chat is one name throughout.
            if line.title != previous.title || line.subtitle != previous.subtitle {
                let title = Span(line.title.nonEmpty ?? item.app, ViewStyle.title)
                rows.append(ViewRow(indent: ItemParts.textIndent, [title], right: [ItemParts.time(line.at)].compactMap { $0 }))
                rows += notification(line, width: width, expanded: true)
            } else {
                var body = notification(line, width: width, expanded: true)
                if body.isEmpty { body = [ViewRow(indent: ItemParts.textIndent, [])] }
                if let time = ItemParts.time(line.at) { body[0].right = [time] }
                rows += body
            }
            previous = line
        }
        return rows
    }

    /// The stack's first row: icon, title, app and time.
    static func head(_ item: Item, title: String?, at: Int64?) -> ViewRow {
        var left = ItemParts.icon(item.avatar.map(ItemParts.badge) ?? ItemParts.appIcon)
        if let title = title.nonEmpty {
            left.append(Span(title, ViewStyle.title))
            left.append(Span(" · " + item.app, ViewStyle.meta))
        } else {
            left.append(Span(item.app, ViewStyle.title))
        }
        return ViewRow(left, right: [ItemParts.time(at)].compactMap { $0 })
    }

    /// One notification's level mark (on a row of its own, as iOS labels a Time Sensitive
    /// notification above its text), subtitle and body.
    static func notification(_ line: Line, width: Int, expanded: Bool) -> [ViewRow] {
        var rows: [ViewRow] = []
        if let mark = ItemParts.level(line.level) { rows.append(ViewRow(indent: ItemParts.textIndent, [mark])) }
        if let subtitle = line.subtitle.nonEmpty { rows.append(ViewRow(indent: ItemParts.textIndent, [Span(subtitle, ViewStyle.title)])) }
        let maxRows = expanded ? ItemParts.expandedTextRows : ItemParts.collapsedBodyRows
        rows += ItemParts.textRows(line.text, indent: ItemParts.textIndent, width: width, maxRows: maxRows)
        return rows
    }
}
