import ShadeCore

/// Android's notification shade (SPEC §3): conversations as MessagingStyle stacks, plain
/// notifications, app bundles.
enum AndroidShade {
    static func rows(_ item: Item, width: Int, expanded: Bool) -> [ViewRow] {
        switch item.kind {
        case .conversation: return conversation(item, width: width, expanded: expanded)
        case .plain, .call: return PlainNotification.rows(item, width: width, expanded: expanded)
        case .bundle: return bundle(item)
        }
    }

    /// A1–A4: the latest sender's badge, the title, the app and time, then the stacked lines,
    /// oldest first. Collapsed: the newest that fit the budget and a count of the others;
    /// expanded: every kept line (25 at most, A1), and a count of those the device dropped.
    static func conversation(_ item: Item, width: Int, expanded: Bool) -> [ViewRow] {
        var rows = [titleRow(item)]
        let shown = expanded ? item.lines[...] : item.lines.suffix(ItemParts.collapsedMessages)
        let hidden = item.total - shown.count
        if hidden > 0 { rows.append(ItemParts.earlier(hidden, kept: !expanded)) }
        rows += ItemParts.messageRows(shown, isGroup: item.isGroup == true, width: width, expanded: expanded)
        rows += ItemParts.extras(item)
        rows += ItemParts.actions(item)
        return rows
    }

    static func titleRow(_ item: Item) -> ViewRow {
        let icon = item.avatar.map(ItemParts.badge) ?? ItemParts.appIcon
        var left = ItemParts.icon(icon)
        left.append(Span(item.title.nonEmpty ?? item.key, ViewStyle.title))
        left.append(Span(" · " + item.app, ViewStyle.meta))
        return ViewRow(left, right: [ItemParts.time(item.at)].compactMap { $0 })
    }

    /// A8: the app with its count, and the newest two notifications one line each. Expanded,
    /// the bundle is this head and every child an entry of its own (each can be selected).
    static func bundle(_ item: Item) -> [ViewRow] {
        var rows = [bundleHead(item)]
        for child in (item.children ?? []).prefix(2) {
            var spans: [Span] = []
            if let title = child.title.nonEmpty { spans += [Span(title, ViewStyle.title), Span("  ")] }
            spans.append(Span(child.lines.last?.text ?? "", ViewStyle.body))
            rows.append(ItemParts.oneRow(spans))
        }
        return rows
    }

    static func bundleHead(_ item: Item) -> ViewRow {
        let count = item.children?.count ?? 0
        var head = ItemParts.icon(ItemParts.appIcon)
        head.append(Span(item.app, ViewStyle.title))
        head.append(Span(" · \(count) \(count == 1 ? "notification" : "notifications")", ViewStyle.meta))
        return ViewRow(head, right: [ItemParts.time(item.at)].compactMap { $0 })
    }
}

/// A plain notification (A7, W3): the app and title, the body, its tag (dim) and actions. Android
/// and the web draw it alike; iOS stacks are drawn by `IOSShade`.
enum PlainNotification {
    static func rows(_ item: Item, width: Int, expanded: Bool, inBundle: Bool = false) -> [ViewRow] {
        var left: [Span]
        if inBundle {
            // The bundle above names the app; a child starts at the text column.
            left = [Span(String(repeating: " ", count: ItemParts.textIndent))]
        } else {
            left = ItemParts.icon(item.avatar.map(ItemParts.badge) ?? ItemParts.appIcon)
            left.append(Span(item.app, ViewStyle.meta))
        }
        if let title = item.title.nonEmpty {
            if !inBundle { left.append(Span(" · ", ViewStyle.meta)) }
            left.append(Span(title, ViewStyle.title))
        }
        var right: [Span] = []
        if let tag = item.tag.nonEmpty { right.append(Span("tag " + tag, ViewStyle.meta)) }
        if let time = ItemParts.time(item.at) { right.append(time) }
        var rows = [ViewRow(left, right: right)]
        let indent = ItemParts.textIndent + (inBundle ? 2 : 0)
        if let subtitle = item.subtitle.nonEmpty {
            rows.append(ViewRow(indent: indent, [Span(subtitle, ViewStyle.title)]))
        }
        let maxRows = expanded ? ItemParts.expandedTextRows : ItemParts.collapsedBodyRows
        rows += ItemParts.textRows(item.lines.last?.text ?? "", indent: indent, width: width, maxRows: maxRows)
        rows += ItemParts.extras(item, indent: indent)
        rows += ItemParts.actions(item)
        return rows
    }
}
