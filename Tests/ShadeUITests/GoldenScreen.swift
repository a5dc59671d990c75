import Testing
import ShadeUI

/// Golden-screen assertion: the screen's plain lines must equal `lines` exactly. On a
/// mismatch the issue shows every row, the differing ones as `-` expected / `+` actual
/// with a `^` under the first differing column.
func expectScreen(_ screen: Screen, equals lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    if let difference = linesDiff(expected: lines, actual: screen.plainLines()) {
        Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
    }
}
