// How many terminal columns text takes.
//
// The measure is Python wcwidth's `wcswidth` (the latest release, which is what checks that
// every snapshot line is exactly COLS wide), applied one grapheme cluster at a time because
// a cluster is what a cell holds. The tables in UnicodeWidthTables.swift are wcwidth's own;
// `scripts/check-widths.py` compares this code against wcwidth on a corpus.
//
// Where wcwidth and real terminals disagree we follow wcwidth, on purpose:
// - an emoji ZWJ sequence is one cluster as wide as its first emoji (2), even where a
//   terminal without ZWJ support draws every member side by side (👨‍👩‍👧 as 6 columns);
// - a skin tone after a non-emoji base ("a🏽") adds its own 2 columns (cluster width 3);
// - a spacing mark (Mc) after a base makes the cluster 2 wide (Devanagari "का"), and a
//   consonant joined by a virama keeps a conjunct at 2 ("क्ष").
// Sanitising (Sanitize.swift) removes the few things whose width would depend on a
// neighbouring cell, so that the width of a line is the sum of the widths of its cells.

/// Columns one grapheme cluster takes in a terminal: 0, 1 or 2 (rarely more, see above).
///
/// East Asian Wide/Fullwidth and emoji-presentation emoji are 2; a text-default emoji
/// followed by U+FE0F is 2; combining marks, ZWJ, ZWNJ, variation selectors and other
/// zero-width format characters add nothing; flags and ZWJ sequences are one cluster.
/// A control character counts 1: `sanitized` shows it as a one-column placeholder (`␛`).
public func displayWidth(of character: Character) -> Int {
    // Every cell of every frame passes here: ASCII, including "\r\n", is one column.
    if character.isASCII { return 1 }
    return clusterWidth(character.unicodeScalars)
}

/// Columns a string takes: the sum over its grapheme clusters.
public func displayWidth(of text: some StringProtocol) -> Int {
    if isPrintableASCII(text) { return text.utf8.count }
    var total = 0
    for character in text { total += displayWidth(of: character) }
    return total
}

/// Concrete overload so calls from other modules with a `String` skip generic dispatch.
public func displayWidth(of text: String) -> Int {
    if isPrintableASCII(text) { return text.utf8.count }
    var total = 0
    for character in text { total += displayWidth(of: character) }
    return total
}

/// Whether every byte is printable ASCII (0x20–0x7E): then width is byte count.
@inline(__always)
func isPrintableASCII(_ text: some StringProtocol) -> Bool {
    // Scanning the contiguous UTF-8 buffer is about ten times faster than the UTF8View iterator.
    let scanned = text.utf8.withContiguousStorageIfAvailable { bytes in
        !bytes.contains { $0 < 0x20 || $0 > 0x7E }
    }
    if let scanned { return scanned }
    return !text.utf8.contains { $0 < 0x20 || $0 > 0x7E }
}

/// Width of one scalar standing alone (wcwidth's `wcwidth`), except that control
/// characters count 1 for their placeholder instead of wcwidth's -1.
func scalarWidth(_ value: UInt32) -> Int {
    // Below U+0300 there is nothing zero-width or wide (NUL aside, a control here).
    if value < 0x300 { return 1 }
    if UnicodeRanges.contains(zeroWidthRanges, value) { return 0 }
    if UnicodeRanges.contains(wideRanges, value) { return 2 }
    return 1
}

private let zeroWidthJoiner: UInt32 = 0x200D
private let variationSelector16: UInt32 = 0xFE0F
private let variationSelector15: UInt32 = 0xFE0E

@inline(__always)
private func isRegionalIndicator(_ value: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(value) }

@inline(__always)
private func isSkinTone(_ value: UInt32) -> Bool { (0x1F3FB...0x1F3FF).contains(value) }

func clusterWidth(_ scalars: Character.UnicodeScalarView) -> Int {
    measureCluster(scalars).width
}

/// Whether the cluster ends right after a virama: wcwidth would then fold the first
/// character of the next cell into this cluster. Sanitising closes such a cluster.
func endsAfterVirama(_ scalars: Character.UnicodeScalarView) -> Bool {
    measureCluster(scalars).endsAfterVirama
}

/// wcwidth's `wcswidth` loop over the scalars of one cluster, step for step, so that the
/// odd cases (a skin tone after a letter, VS15 after an emoji) come out the same too.
private func measureCluster(_ scalars: Character.UnicodeScalarView) -> (width: Int, endsAfterVirama: Bool) {
    var total = 0
    var pending = 0                      // width of the cluster being measured
    var selectorBase: UInt32? = nil      // what a following VS15/VS16 would modify
    var lastMeasured: UInt32 = .max      // last scalar that had a width of its own
    var lastMeasuredWidth = 0
    var afterVirama = false
    var regionalRun = 0                  // regional indicators just before this scalar

    var iterator = scalars.makeIterator()
    var next = iterator.next()
    while let scalar = next {
        next = iterator.next()
        let value = scalar.value
        let regionalBefore = regionalRun
        regionalRun = isRegionalIndicator(value) ? regionalRun + 1 : 0

        if value == zeroWidthJoiner {
            if afterVirama {
                // virama + ZWJ + consonant: the conjunct rule below still applies.
            } else if let joined = next {
                // wcwidth lets the joined emoji add nothing: the sequence is as wide as its head.
                lastMeasuredWidth = 0
                regionalRun = isRegionalIndicator(joined.value) ? 1 : 0
                next = iterator.next()
            } else {
                afterVirama = false
            }
            continue
        }
        if value == variationSelector16, let base = selectorBase {
            if UnicodeRanges.contains(variationSixteenWideningRanges, base) { pending = 2 }
            selectorBase = nil
            continue
        }
        if value == variationSelector15, let base = selectorBase {
            if UnicodeRanges.contains(variationFifteenNarrowingRanges, base), lastMeasuredWidth == 2 {
                total -= 1
            }
            selectorBase = nil
            continue
        }
        if value > 0xFFFF {
            if isRegionalIndicator(value) {
                // The second indicator of a flag adds nothing.
                if regionalBefore % 2 == 1 {
                    lastMeasured = value
                    continue
                }
            } else if isSkinTone(value), lastMeasured != .max,
                      UnicodeRanges.contains(extendedPictographicRanges, lastMeasured) {
                continue
            }
        }

        let width = scalarWidth(value)
        if width > 0 {
            if afterVirama {
                pending = 2
            } else if pending > 0 {
                total += pending
                pending = width
            } else {
                pending = width
            }
            selectorBase = value
            lastMeasured = value
            lastMeasuredWidth = width
            afterVirama = false
        } else if UnicodeRanges.contains(viramaRanges, value) {
            afterVirama = true
        } else if selectorBase != nil, UnicodeRanges.contains(spacingMarkRanges, value) {
            pending = 2
            selectorBase = nil
            afterVirama = false
        } else {
            afterVirama = false
        }
    }
    return (max(0, total + pending), afterVirama)
}

/// Lookup in the flat `[start, end, start, end, …]` range tables.
enum UnicodeRanges {
    static func contains(_ table: [UInt32], _ value: UInt32) -> Bool {
        table.withUnsafeBufferPointer { ranges in
            guard let first = ranges.first, let last = ranges.last,
                  value >= first, value <= last else { return false }
            var low = 0
            var high = ranges.count / 2 - 1
            while low <= high {
                let middle = (low + high) / 2
                if value < ranges[2 * middle] {
                    high = middle - 1
                } else if value > ranges[2 * middle + 1] {
                    low = middle + 1
                } else {
                    return true
                }
            }
            return false
        }
    }
}
