// Arithmetic on numbers a payload controls (format widths and precisions, exponents, badge counts,
// TTLs, timestamps, argument indices). A payload can hold any digits it likes, so every such number
// flows through here: results saturate at a bound instead of trapping, and parsing never overflows.

public enum Checked {
    /// `a + b`, pinned to the type's min/max instead of trapping (Int and Int64 alike: one rule).
    @inlinable public static func add<N: FixedWidthInteger & SignedInteger>(_ a: N, _ b: N) -> N {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    @inlinable public static func subtract<N: FixedWidthInteger & SignedInteger>(_ a: N, _ b: N) -> N {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : difference
    }

    @inlinable public static func multiply<N: FixedWidthInteger & SignedInteger>(_ a: N, _ b: N) -> N {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? ((a < 0) == (b < 0) ? .max : .min) : product
    }

    /// |a| without trapping on Int.min.
    @inlinable public static func magnitude(_ a: Int) -> Int {
        a == .min ? .max : Swift.abs(a)
    }

    /// A Double as an Int64, truncated toward zero and pinned to Int64's range (`Int64(_:)` traps
    /// outside it); NaN is 0.
    @inlinable public static func int64(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        if value >= 9_223_372_036_854_775_807.0 { return .max }   // 2^63: the first Double past Int64.max
        if value <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value)
    }

    /// `value` pinned into `range`.
    @inlinable public static func clamp(_ value: Int, to range: ClosedRange<Int>) -> Int {
        Swift.min(Swift.max(value, range.lowerBound), range.upperBound)
    }

    /// Decimal digits (an optional leading `-` or `+`) as an Int, saturating at Int.min/Int.max
    /// however many digits there are; nil when the text is not an integer.
    public static func integer<S: Sequence>(digits text: S) -> Int? where S.Element == UInt8 {
        var iterator = text.makeIterator()
        guard var byte = iterator.next() else { return nil }
        var negative = false
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            guard let next = iterator.next() else { return nil }
            byte = next
        }
        var value = 0
        var saturated = false
        while true {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            if !saturated {
                let digit = Int(byte - UInt8(ascii: "0"))
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(negative ? -digit : digit)
                if o1 || o2 { saturated = true; value = negative ? .min : .max } else { value = next }
            }
            guard let following = iterator.next() else { return value }
            byte = following
        }
    }

    public static func integer(_ text: Substring) -> Int? { integer(digits: text.utf8) }
    public static func integer(_ text: String) -> Int? { integer(digits: text.utf8) }
}
