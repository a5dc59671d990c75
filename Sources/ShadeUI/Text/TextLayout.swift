// Fitting text into a number of columns: cut, pad, wrap. Widths are display widths
// (DisplayWidth.swift); cuts fall between grapheme clusters, so a flag, a ZWJ family or a
// CJK character is kept whole or left out, never split.

/// The ellipsis that marks cut text: one column wide.
public let ellipsis = "…"

/// `s` cut to at most `width` columns, ending in `…` when anything was cut. A wide glyph
/// that would straddle the limit is left out whole; spaces before the `…` are dropped.
public func truncated(_ s: String, toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    if displayWidth(of: s) <= width { return s }
    return ellipsized(s, toWidth: width)
}

/// `s` cut or padded with spaces to exactly `width` columns.
public func padded(_ s: String, toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    let fitted = truncated(s, toWidth: width)
    return fitted + String(repeating: " ", count: width - displayWidth(of: fitted))
}

/// Payload text word-wrapped to `width` columns, at most `maxLines` lines.
///
/// The text is sanitised line by line (`sanitizedLines`): its own line breaks start new
/// lines. Lines break at spaces; a word wider than a line is broken where it must, and a
/// wide (CJK) character may start a line anywhere. When text remains after `maxLines`,
/// the last line ends in `…`. Blank lines at the start and end are left out, so text
/// with nothing to show gives no lines.
public func wrapped(_ s: String, width: Int, maxLines: Int) -> [String] {
    guard width > 0, maxLines > 0 else { return [] }
    var paragraphs = sanitizedLines(s)[...]
    while let first = paragraphs.first, isBlank(first) { paragraphs.removeFirst() }
    while let last = paragraphs.last, isBlank(last) { paragraphs.removeLast() }

    var lines: [WrappedLine] = []
    for paragraph in paragraphs {
        lines += wrapParagraph(paragraph, width: width)
        if lines.count > maxLines { break }
    }
    guard lines.count > maxLines else { return lines.map(\.text) }

    // More text follows the last line shown: fill it with as much as fits, then `…`.
    let last = lines[maxLines - 1]
    let rest = String(last.paragraph[last.start...])
    let ending = displayWidth(of: rest) > width
        ? truncated(rest, toWidth: width)
        : ellipsized(rest, toWidth: width)     // the rest of this paragraph fits; later ones do not
    return lines[..<(maxLines - 1)].map(\.text) + [ending]
}

/// `s` cut to leave room for `…`, then `…`: always ends in the ellipsis.
private func ellipsized(_ s: String, toWidth width: Int) -> String {
    var used = 0
    var end = s.startIndex
    for index in s.indices {
        used += displayWidth(of: s[index])
        if used > width - 1 { break }
        end = s.index(after: index)
    }
    var head = s[..<end]
    while head.last == " " { head = head.dropLast() }
    return head + ellipsis
}

private func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " } }

/// One wrapped line, and where in its paragraph it starts (to continue from it with `…`).
private struct WrappedLine {
    let paragraph: String
    let start: String.Index
    var text: String
}

/// A stretch of a paragraph that is never broken unless it alone is wider than a line:
/// a run of narrow characters, or one wide character (CJK may break around each one).
private struct Piece {
    let start: String.Index
    let end: String.Index
    let width: Int
    let followsSpace: Bool
}

private func pieces(of paragraph: String) -> [Piece] {
    var result: [Piece] = []
    var runStart: String.Index? = nil
    var runWidth = 0
    var runFollowsSpace = false
    var afterSpace = false
    func closeRun(at end: String.Index) {
        if let start = runStart {
            result.append(Piece(start: start, end: end, width: runWidth, followsSpace: runFollowsSpace))
        }
        runStart = nil
        runWidth = 0
    }
    for index in paragraph.indices {
        let character = paragraph[index]
        if character == " " {
            closeRun(at: index)
            afterSpace = true
            continue
        }
        let width = displayWidth(of: character)
        if width >= 2 {
            closeRun(at: index)
            result.append(Piece(start: index, end: paragraph.index(after: index), width: width, followsSpace: afterSpace))
        } else {
            if runStart == nil {
                runStart = index
                runFollowsSpace = afterSpace
            }
            runWidth += width
        }
        afterSpace = false
    }
    closeRun(at: paragraph.endIndex)
    return result
}

private func wrapParagraph(_ paragraph: String, width: Int) -> [WrappedLine] {
    var lines: [WrappedLine] = []
    var current: (start: String.Index, end: String.Index, width: Int)? = nil

    func slice(from start: String.Index, to end: String.Index) -> WrappedLine {
        WrappedLine(paragraph: paragraph, start: start, text: String(paragraph[start..<end]))
    }
    func emitCurrent() {
        if let line = current { lines.append(slice(from: line.start, to: line.end)) }
        current = nil
    }
    /// Starts a line with a piece; a piece wider than a line is broken between clusters,
    /// each full line emitted, the remainder left as the current line.
    func start(with piece: Piece) {
        guard piece.width > width else {
            current = (piece.start, piece.end, piece.width)
            return
        }
        var lineStart = piece.start
        var used = 0
        var index = piece.start
        while index < piece.end {
            let clusterWidth = displayWidth(of: paragraph[index])
            if used + clusterWidth > width, used > 0 {
                lines.append(slice(from: lineStart, to: index))
                lineStart = index
                used = 0
            }
            used += clusterWidth
            index = paragraph.index(after: index)
        }
        current = (lineStart, piece.end, used)
    }

    for piece in pieces(of: paragraph) {
        guard let line = current else {
            start(with: piece)
            continue
        }
        let gap = piece.followsSpace ? paragraph.distance(from: line.end, to: piece.start) : 0
        if line.width + gap + piece.width <= width {
            current = (line.start, piece.end, line.width + gap + piece.width)
        } else {
            emitCurrent()
            start(with: piece)
        }
    }
    emitCurrent()
    if lines.isEmpty { lines.append(slice(from: paragraph.startIndex, to: paragraph.startIndex)) }
    // Only a single cluster wider than the whole line can overflow (王 in 1 column).
    for i in lines.indices where displayWidth(of: lines[i].text) > width {
        lines[i].text = truncated(lines[i].text, toWidth: width)
    }
    return lines
}
