import ShadeCore

/// One platform's column laid out: which row shows what. Drawing and `itemRowRanges` share it,
/// so the rows the TUI scrolls by are the rows drawn.
///
/// A column is a gutter (the `▌` of the selection) and the content: the header, then each
/// section as a bold rule with its name and its entries. Entries are placed whole while they
/// fit, keeping a row for `+N more` while more follow; the first entry of the list is the only
/// one ever cut (when it alone is taller than the list), and a row says how much of it is cut.
struct ColumnPlan {
    var rows: [(row: Int, content: ViewRow)] = []
    var entries: [(id: String, rows: Range<Int>)] = []
    var selected: Range<Int>?

    init(_ state: CenterState, header: [ViewRow], view: ViewState, rect: Rect, scroll: Int) {
        let width = rect.columns - 1
        guard width > 0, rect.rows > 0 else { return }
        var y = rect.row
        let bottom = rect.row + rect.rows
        for row in header where y < bottom {
            rows.append((y, row))
            y += 1
        }
        let all = ColumnPlan.entries(state, view: view)
        guard !all.isEmpty else {
            let text = ColumnPlan.emptyMessage(state, view: view)
            for line in wrapped(text, width: width, maxLines: max(0, bottom - y)) {
                rows.append((y, ViewRow([Span(line, ViewStyle.message)])))
                y += 1
            }
            return
        }
        let start = min(max(0, scroll), all.count - 1)
        if start > 0, y < bottom {
            rows.append((y, ViewRow([Span("↑ \(start) above", ViewStyle.more)])))
            y += 1
        }
        var section: String?
        var index = start
        while index < all.count {
            let entry = all[index]
            let entryRows = entry.rows(state.platform, width: width, view: view)
            let heading = entry.section != section ? 1 : 0
            let reserve = index + 1 < all.count ? 1 : 0
            let room = bottom - y
            if heading + entryRows.count + reserve <= room {
                if heading == 1 { rows.append((y, ColumnPlan.rule(entry.section))); y += 1 }
                place(entry, rows: entryRows, at: &y, view: view)
                section = entry.section
                index += 1
                continue
            }
            // Too tall for what is left: only the first entry is cut, and says so.
            let fits = room - heading - reserve - 1
            if index == start, fits >= 1 {
                if heading == 1 { rows.append((y, ColumnPlan.rule(entry.section))); y += 1 }
                let cut = entryRows.count - fits
                var shown = Array(entryRows.prefix(fits))
                shown.append(ViewRow(indent: ItemParts.textIndent,
                                     [Span("… \(cut) more \(cut == 1 ? "line" : "lines") of this notification", ViewStyle.more)]))
                place(entry, rows: shown, at: &y, view: view)
                index += 1
            }
            break
        }
        if index < all.count, y < bottom {
            rows.append((y, ViewRow([Span(ColumnPlan.moreText(all[index...]), ViewStyle.more)])))
            y += 1
        } else if index == all.count, let error = state.lastError, y < bottom {
            // Everything fits: the newest refused push says why (W3 options, invalid JSON…).
            if bottom - y >= 2 { y += 1 }
            // The file name without its folders: the reason is what needs the room.
            let source = error.source.split(separator: "/").last.map(String.init) ?? error.source
            let text = "✗ rejected " + source + ": " + error.reason
            for line in wrapped(text, width: width, maxLines: min(2, bottom - y)) {
                rows.append((y, ViewRow([Span(line, ViewStyle.error)])))
                y += 1
            }
        }
    }

    private mutating func place(_ entry: ViewEntry, rows entryRows: [ViewRow], at y: inout Int, view: ViewState) {
        let range = y..<(y + entryRows.count)
        for row in entryRows {
            rows.append((y, row))
            y += 1
        }
        entries.append((entry.item.id, range))
        if entry.item.id == view.selection, selected == nil { selected = range }
    }

    /// `Conversations ───────`: the section name exactly as the state JSON writes it.
    static func rule(_ name: String) -> ViewRow {
        ViewRow([Span(name, ViewStyle.sectionName), Span(" ")], fill: Span("─", ViewStyle.rule))
    }

    /// `+3 more in Notifications`, or `+5 more: 2 in Conversations, 3 in Notifications`.
    static func moreText(_ rest: ArraySlice<ViewEntry>) -> String {
        var counts: [(String, Int)] = []
        for entry in rest {
            if let i = counts.firstIndex(where: { $0.0 == entry.section }) { counts[i].1 += 1 } else { counts.append((entry.section, 1)) }
        }
        if counts.count == 1 { return "+\(rest.count) more in \(counts[0].0)" }
        return "+\(rest.count) more: " + counts.map { "\($0.1) in \($0.0)" }.joined(separator: ", ")
    }

    static func emptyMessage(_ state: CenterState, view: ViewState) -> String {
        if !state.items.isEmpty { return "No notification matches \"\(view.filter)\" — clear the filter to see all." }
        if state.received == 0 { return "No notifications yet" + (view.emptyHint.map { " — \($0)" } ?? ".") }
        // Say where the pushes went, so an empty shade is not mistaken for a broken one.
        let reasons = [(state.silent, "silent"), (state.rejected, "rejected"), (state.elsewhere, "for another platform"),
                       (state.waiting, "waiting while offline"), (state.dropped, "dropped by the services")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return reasons.isEmpty ? "Nothing on screen." : "Nothing on screen: \(reasons.joined(separator: ", "))."
    }

    /// The column's entries in display order, after the filter: on iOS the Calls lane comes
    /// first (a ringing call covers the screen), then the sections as the state lists them; an
    /// expanded bundle is its head and then each child.
    static func entries(_ state: CenterState, view: ViewState) -> [ViewEntry] {
        var sections = state.sections
        if let calls = sections.firstIndex(where: { $0.name == SectionName.calls }) {
            sections.insert(sections.remove(at: calls), at: 0)
        }
        var result: [ViewEntry] = []
        for section in sections {
            for item in section.items {
                guard let shown = ItemFilter.matching(item, view.filter) else { continue }
                guard shown.kind == .bundle, view.expanded.contains(shown.id) else {
                    result.append(ViewEntry(item: shown, section: section.name))
                    continue
                }
                result.append(ViewEntry(item: shown, section: section.name, role: .bundleHead))
                for child in shown.children ?? [] {
                    result.append(ViewEntry(item: child, section: section.name, role: .bundleChild))
                }
            }
        }
        return result
    }

    func draw(into screen: inout Screen, rect: Rect) {
        let width = rect.columns - 1
        guard width > 0 else { return }
        for (y, row) in rows { row.draw(into: &screen, column: rect.column + 1, row: y, width: width) }
        guard let selected else { return }
        // Selection: a `▌` beside every row of the entry, its first row in reverse video.
        for y in selected { screen.put("▌", column: rect.column, row: y, style: ViewStyle.marker) }
        if let first = selected.first {
            for x in (rect.column + 1)..<(rect.column + rect.columns) { screen[x, first].style.reverse.toggle() }
        }
    }
}

/// The text filter: case-insensitive, over titles, subtitles, senders, texts and the app.
enum ItemFilter {
    /// The item as shown under the filter (a bundle keeps only its matching children), or nil.
    static func matching(_ item: Item, _ filter: String) -> Item? {
        guard !filter.isEmpty else { return item }
        let needle = filter.lowercased()
        if matches(item, needle) { return item }
        guard item.kind == .bundle, let children = item.children else { return nil }
        let kept = children.filter { matches($0, needle) }
        guard !kept.isEmpty else { return nil }
        var copy = item
        copy.children = kept
        return copy
    }

    private static func matches(_ item: Item, _ needle: String) -> Bool {
        var fields = [item.title, item.subtitle, item.app]
        for line in item.lines { fields += [line.sender, line.text, line.title, line.subtitle] }
        return fields.contains { $0?.lowercased().contains(needle) == true }
    }
}
