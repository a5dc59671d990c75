import Foundation

/// Rule ids as Shade writes them in text: `A5`, `V10`, and ranges `D1-D8`, `V1–V8`.
enum RuleMentions {
    private static let pattern = try! NSRegularExpression(
        pattern: "(?<![A-Za-z0-9_$%])[DCAIWLNOV][0-9]{1,2}(?:[-–][DCAIWLNOV][0-9]{1,2})?(?![A-Za-z0-9_])")

    static func of(_ text: String) -> [String] {
        pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }
}
