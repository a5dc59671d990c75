import ShadeCore

/// Browser notifications (SPEC §5): one per conversation with its last lines, plain ones with
/// their tags, actions as buttons.
enum WebShade {
    static func rows(_ item: Item, width: Int, expanded: Bool) -> [ViewRow] {
        item.kind == .conversation
            ? conversation(item, width: width, expanded: expanded)
            : PlainNotification.rows(item, width: width, expanded: expanded)
    }

    /// W1, W2: the icon badge, the title (sender or group name), every kept line (5 at most)
    /// newest last, `sender: text` in groups; a count of the earlier lines the browser dropped.
    static func conversation(_ item: Item, width: Int, expanded: Bool) -> [ViewRow] {
        var rows = [AndroidShade.titleRow(item)]
        let dropped = item.total - item.lines.count
        if dropped > 0 { rows.append(ItemParts.earlier(dropped, kept: false)) }
        let maxRows = expanded ? ItemParts.expandedTextRows : 1
        for line in item.lines {
            rows += item.isGroup == true
                ? ItemParts.senderLine(line, width: width, expanded: expanded)
                : ItemParts.textRows(line.text, indent: ItemParts.textIndent, width: width, maxRows: maxRows)
        }
        rows += ItemParts.extras(item)
        rows += ItemParts.actions(item)
        return rows
    }
}
