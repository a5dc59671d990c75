// The one gate payload text passes before it reaches a cell.
//
// Payload text is data: an ESC in a title must show as `␛`, not start a terminal escape
// sequence (an OSC could retitle the window, a CSI could move the cursor). After
// sanitising, no output holds a byte below 0x20, DEL, or a C1 control, and every grapheme
// cluster is at least one column wide and as wide alone as beside any neighbour, so
// that a line's width is exactly the sum of its cells' widths (see DisplayWidth.swift).
import ShadeCore

/// One line of payload text, safe for a cell: ShadeCore's `SafeText.line` (the gate every output
/// of Shade passes: line breaks and tabs become a space, ESC `␛` — the rest of an escape sequence
/// stays, as the printable text it is — other C0 controls their Control Picture, BEL `␇`, DEL `␡`,
/// C1 controls `�`, bidi controls dropped), then whatever could not stand in a cell of its own is
/// dropped too (zero-width clusters, marks with no base: see `cellSafeClusters`).
public func sanitized(_ s: String) -> String {
    if isPrintableASCII(s) { return s }
    return cellSafeClusters(SafeText.line(s))
}

/// Payload text as lines, split on `\n`, `\r\n`, `\r`, U+2028 and U+2029, each line sanitized.
/// An empty string is one empty line.
public func sanitizedLines(_ s: String) -> [String] {
    var lines: [String] = []
    var line = String.UnicodeScalarView()
    var previousWasCarriageReturn = false
    for scalar in s.unicodeScalars {
        let value = scalar.value
        defer { previousWasCarriageReturn = value == 0x0D }
        if value == 0x0A, previousWasCarriageReturn { continue }   // the \n of \r\n
        if isLineBreak(value) {
            lines.append(sanitized(String(line)))
            line = String.UnicodeScalarView()
        } else {
            line.append(scalar)
        }
    }
    lines.append(sanitized(String(line)))
    return lines
}

@inline(__always)
private func isLineBreak(_ value: UInt32) -> Bool {
    value == 0x0A || value == 0x0D || value == 0x2028 || value == 0x2029
}

/// Second pass, cluster by cluster: keep only clusters whose width cannot depend on a
/// neighbouring cell. wcwidth measures a whole line, not cells, so:
/// - a cluster without a base (one that starts with a zero-width character or a skin-tone
///   modifier: a lone combining mark, ZWSP, LRM, a Hangul filler, half of a cut emoji
///   sequence) loses those leading characters, and is dropped if nothing is left: first
///   in a cell, they would modify whatever the previous cell holds;
/// - a trailing ZWJ is dropped: wcwidth lets a ZWJ swallow the next character, even one
///   in the next cell, while Swift ends the cluster there unless an emoji follows;
/// - a cluster ending in a virama gets a ZWNJ (which shows the virama, as it already
///   was): wcwidth would otherwise join the next cell's character into a conjunct;
/// - a lone regional indicator (half a flag) gets a ZWNJ: wcwidth pairs regional
///   indicators across cells, so one in the next cell would lose its width.
/// A change can let neighbours join into a new cluster, so the pass repeats until stable.
private func cellSafeClusters(_ s: String) -> String {
    var text = s
    while true {
        // Nothing at or above U+0300 (after the first pass): every cluster is one printable scalar.
        guard text.unicodeScalars.contains(where: { $0.value >= 0x300 }) else { return text }
        let (result, changed) = cellSafePass(text)
        if !changed { return result }
        text = result
    }
}

private func cellSafePass(_ s: String) -> (String, changed: Bool) {
    var out: String? = nil      // built only once a cluster needs repair: most text needs none
    for index in s.indices {
        let cluster = s[index]
        let scalars = cluster.unicodeScalars
        guard needsRepair(scalars) else {
            out?.append(cluster)
            continue
        }
        if out == nil { out = String(s[..<index]) }
        if isBaseless(scalars.first!) {
            out!.unicodeScalars.append(contentsOf: scalars.drop(while: isBaseless))
            continue
        }
        var kept = String.UnicodeScalarView(scalars)
        while kept.last?.value == 0x200D { kept.removeLast() }
        if endsAfterVirama(kept) || isLoneRegionalIndicator(kept) { kept.append("\u{200C}") }
        out!.unicodeScalars.append(contentsOf: kept)
    }
    return (out ?? s, out != nil)
}

private func needsRepair(_ scalars: String.UnicodeScalarView) -> Bool {
    guard let first = scalars.first, let last = scalars.last else { return false }
    if isBaseless(first) || last.value == 0x200D { return true }
    // Selectors and skin tones after a virama leave it pending, so measure the whole
    // cluster, but only when it holds something in the span of the virama table at all.
    let viramaSpan = viramaRanges[0]...viramaRanges[viramaRanges.count - 1]
    if scalars.contains(where: { viramaSpan.contains($0.value) }), endsAfterVirama(scalars) { return true }
    return isLoneRegionalIndicator(scalars)
}

/// Characters that cannot start a cell: no width of their own, or a skin tone (which
/// wcwidth reads as a modifier of an emoji in the cell before).
private func isBaseless(_ scalar: Unicode.Scalar) -> Bool {
    scalarWidth(scalar.value) == 0 || (0x1F3FB...0x1F3FF).contains(scalar.value)
}

private func isLoneRegionalIndicator(_ scalars: String.UnicodeScalarView) -> Bool {
    guard let last = scalars.last, (0x1F1E6...0x1F1FF).contains(last.value) else { return false }
    return scalars.lazy.filter { (0x1F1E6...0x1F1FF).contains($0.value) }.count == 1
}
