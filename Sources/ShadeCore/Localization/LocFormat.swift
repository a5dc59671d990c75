/// What a missing argument turns into (L6): iOS prints `(null)` in its place;
/// Android's `String.format` throws, and the field stays empty.
public enum MissingArgumentStyle: Sendable, Equatable {
    case iOS
    case android
}

/// A format filled in with its arguments, kept in pieces with what went wrong,
/// so each platform can render it its own way and lint can report it (V6).
public struct FormattedText: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case literal(String)
        /// Argument `index` (1-based), as formatted.
        case argument(index: Int, text: String)
        /// A placeholder for argument `index` (1-based) that was not given.
        case missing(index: Int)
    }

    public let pieces: [Piece]
    /// 1-based indexes the format asked for but the arguments did not have, ascending.
    public let missingArguments: [Int]
    /// 1-based indexes of given arguments no placeholder used, ascending (L6: ignored).
    public let unusedArguments: [Int]
    /// Sentences naming rule L3: a number format given text, an unknown specifier, …
    public let warnings: [String]

    public init(pieces: [Piece], missingArguments: [Int], unusedArguments: [Int], warnings: [String]) {
        self.pieces = pieces
        self.missingArguments = missingArguments
        self.unusedArguments = unusedArguments
        self.warnings = warnings
    }

    public var unusedArgumentCount: Int { unusedArguments.count }

    /// The text a platform shows; nil where Android leaves the field empty.
    public func text(missing style: MissingArgumentStyle) -> String? {
        if style == .android, !missingArguments.isEmpty { return nil }
        var text = ""
        for piece in pieces {
            switch piece {
            case .literal(let literal): text += literal
            case .argument(_, let argument): text += argument
            case .missing: text += "(null)"
            }
        }
        return text
    }
}

/// Fills `format` with `args` (L3), for both platforms: `$1`/`$2` (seed 001),
/// `%@` `%s` `%d` `%i` `%u` `%x` `%o` `%f` in order, the same with a 1-based
/// position (`%1$@`, `%2$s`, `%2$d`), flags, width, precision and length
/// modifiers (`%ld`, `%lld`, `%.2f`, `%05d`), `%%` for a percent and Java's `%n`.
/// Sequential specifiers count on their own, ignoring positional ones (as Java does).
/// With `percentIsLiteral` (Android `formatted="false"`), `%` is plain text and only `$N` is replaced.
public func formatLocalized(_ format: String, args: [String], percentIsLiteral: Bool = false) -> FormattedText {
    var formatter = LocFormatter(format: Array(format.unicodeScalars), args: args, percentIsLiteral: percentIsLiteral)
    return formatter.run()
}

private struct LocFormatter {
    let format: [Unicode.Scalar]
    let args: [String]
    let percentIsLiteral: Bool

    private var index = 0
    private var nextSequential = 1
    private var pieces: [FormattedText.Piece] = []
    private var literal = String.UnicodeScalarView()
    private var used: Set<Int> = []
    private var missing: Set<Int> = []
    private var warnings: [String] = []
    private var sawPositional = false
    private var sawSequential = false

    init(format: [Unicode.Scalar], args: [String], percentIsLiteral: Bool) {
        self.format = format
        self.args = args
        self.percentIsLiteral = percentIsLiteral
    }

    mutating func run() -> FormattedText {
        while index < format.count {
            let scalar = format[index]
            if scalar == "$", let (position, end) = dollarPlaceholder(at: index) {
                index = end
                emit(argument: position, spec: Spec(conversion: .object), raw: "$\(position)")
            } else if scalar == "%", !percentIsLiteral {
                percent()
            } else {
                literal.append(scalar)
                index += 1
            }
        }
        if sawPositional, sawSequential {
            warn("L3: the format mixes positional (`%1$@`) and sequential (`%@`) specifiers; iOS does not define which argument each one takes — number them all")
        }
        flushLiteral()
        let unused = args.indices.map { $0 + 1 }.filter { !used.contains($0) }
        return FormattedText(pieces: pieces, missingArguments: missing.sorted(), unusedArguments: unused, warnings: warnings)
    }

    /// `$1`…`$99`: the seed's notation. `$0` and a lone `$` are text.
    private func dollarPlaceholder(at start: Int) -> (Int, Int)? {
        var end = start + 1
        var value = 0
        while end < format.count, let digit = decimalDigit(format[end]), end - start <= 2 {
            value = Checked.add(Checked.multiply(value, 10), digit)
            end += 1
        }
        return value > 0 ? (value, end) : nil
    }

    private mutating func percent() {
        let start = index
        index += 1
        guard index < format.count else {
            literal.append("%")
            warn("L3: a lone `%` ends the format; write `%%` for a percent sign")
            return
        }
        if format[index] == "%" {
            literal.append("%")
            index += 1
            return
        }
        var spec = Spec(conversion: .object)
        // A position is digits followed by `$`; otherwise the digits are flags and width.
        var cursor = index
        var number = 0
        while cursor < format.count, let digit = decimalDigit(format[cursor]), cursor - index < 4 {
            number = Checked.add(Checked.multiply(number, 10), digit)
            cursor += 1
        }
        var position: Int?
        if cursor > index, cursor < format.count, format[cursor] == "$", number > 0 {
            position = number
            index = cursor + 1
        }
        while index < format.count, let flag = Flag(rawValue: format[index]) {
            spec.flags.insert(flag)
            index += 1
        }
        spec.width = readNumber()
        if index < format.count, format[index] == "." {
            index += 1
            spec.precision = readNumber() ?? 0
        }
        while index < format.count, ["h", "l", "q", "L", "z", "j", "t"].contains(format[index]) {
            index += 1
        }
        guard index < format.count else {
            let raw = text(start..<format.count)
            literal.append(contentsOf: raw.unicodeScalars)
            warn("L3: \(codeQuoted(raw)) at the end of the format has no conversion letter; shown as written (write `%%` for a percent sign)")
            return
        }
        let letter = format[index]
        index += 1
        let raw = text(start..<index)
        guard let conversion = Conversion(letter) else {
            literal.append(contentsOf: raw.unicodeScalars)
            warn("L3: \(codeQuoted(raw)) is not a format Shade knows; shown as written (write `%%` for a percent sign)")
            return
        }
        if spec.flags.contains(.space) {
            warn("L3: \(codeQuoted(raw)) reads as a format specifier (`%` followed by a space); write `%%` if a percent sign was meant")
        }
        spec.conversion = conversion
        if case .newline = conversion {
            literal.append("\n")
            return
        }
        let argument: Int
        if let position {
            argument = position
            sawPositional = true
        } else {
            argument = nextSequential
            nextSequential += 1
            sawSequential = true
        }
        emit(argument: argument, spec: spec, raw: raw)
    }

    /// A width or precision: any number of digits, pinned to `Spec.maximumWidth` (a format is
    /// payload text too, and `%99999999999999999999d` must neither trap nor allocate a gigabyte).
    private mutating func readNumber() -> Int? {
        var value: Int?
        while index < format.count, let digit = decimalDigit(format[index]) {
            value = Checked.clamp(Checked.add(Checked.multiply(value ?? 0, 10), digit), to: 0...Spec.maximumWidth)
            index += 1
        }
        return value
    }

    private func text(_ range: Range<Int>) -> String {
        String(String.UnicodeScalarView(format[range]))
    }

    private mutating func emit(argument: Int, spec: Spec, raw: String) {
        guard argument <= args.count else {
            missing.insert(argument)
            flushLiteral()
            pieces.append(.missing(index: argument))
            return
        }
        used.insert(argument)
        let value = args[argument - 1]
        let text: String
        switch spec.conversion {
        case .object:
            text = spec.pad(spec.precision.map { String(value.prefix($0)) } ?? value)
        case .integer(let radix, let uppercase, let signed):
            if let formatted = spec.integer(value, radix: radix, uppercase: uppercase, signed: signed) {
                text = formatted
            } else {
                text = spec.pad(value)
                warn("L3: \(codeQuoted(raw)) expects \(signed ? "an integer" : "a non-negative integer") but argument \(argument) is \(codeQuoted(value)); inserted as text")
            }
        case .fixed(let uppercase):
            if let formatted = spec.fixed(value, uppercase: uppercase) {
                text = formatted
            } else {
                text = spec.pad(value)
                warn("L3: \(codeQuoted(raw)) expects a number but argument \(argument) is \(codeQuoted(value)); inserted as text")
            }
        case .asWritten:
            text = spec.pad(value)
            warn("L3: \(codeQuoted(raw)) is shown as argument \(argument)'s own text; Shade formats %@ %s %d %i %u %x %o %f")
        case .newline:
            text = "\n"
        }
        flushLiteral()
        pieces.append(.argument(index: argument, text: text))
    }

    private mutating func flushLiteral() {
        guard !literal.isEmpty else { return }
        pieces.append(.literal(String(literal)))
        literal = String.UnicodeScalarView()
    }

    private mutating func warn(_ sentence: String) {
        if !warnings.contains(sentence) { warnings.append(sentence) }
    }
}

private func decimalDigit(_ scalar: Unicode.Scalar) -> Int? {
    ("0"..."9").contains(scalar) ? Int(scalar.value - 0x30) : nil
}

private enum Flag: Unicode.Scalar {
    case left = "-"
    case plus = "+"
    case space = " "
    case alternate = "#"
    case zero = "0"
    case grouping = "'"
}

private enum Conversion {
    /// `%@`, `%s` and `$N`: the argument's text.
    case object
    case integer(radix: Int, uppercase: Bool, signed: Bool)
    /// `%f`: fixed-point decimal.
    case fixed(uppercase: Bool)
    /// Real conversions Shade does not render (`%e`, `%g`, `%c`, Java's `%b`…): the argument's own text.
    case asWritten
    /// Java's `%n`.
    case newline

    init?(_ letter: Unicode.Scalar) {
        switch letter {
        case "@", "s", "S": self = .object
        case "d", "i", "D": self = .integer(radix: 10, uppercase: false, signed: true)
        case "u", "U": self = .integer(radix: 10, uppercase: false, signed: false)
        case "x": self = .integer(radix: 16, uppercase: false, signed: false)
        case "X": self = .integer(radix: 16, uppercase: true, signed: false)
        case "o", "O": self = .integer(radix: 8, uppercase: false, signed: false)
        case "f": self = .fixed(uppercase: false)
        case "F": self = .fixed(uppercase: true)
        case "e", "E", "g", "G", "a", "A", "c", "C", "b", "B", "h", "H", "p": self = .asWritten
        case "n": self = .newline
        default: return nil
        }
    }
}

private struct Spec {
    /// The widest field and the most digits Shade renders; printf would pad to any width.
    static let maximumWidth = 1000

    var conversion: Conversion
    var flags: Set<Flag> = []
    var width: Int?
    var precision: Int?

    /// Pads to the width: left-aligned with `-`, else right-aligned.
    func pad(_ text: String) -> String {
        let count = text.count
        guard let width, width > count else { return text }
        let fill = String(repeating: " ", count: width - count)
        return flags.contains(.left) ? text + fill : fill + text
    }

    /// Sign (or `+`/space), prefix and digits, padded with zeros after the sign when `0` asks for it.
    private func assemble(negative: Bool, prefix: String, digits: String, zeroPadAllowed: Bool) -> String {
        let sign = negative ? "-" : flags.contains(.plus) ? "+" : flags.contains(.space) ? " " : ""
        let head = sign + prefix
        if let width, flags.contains(.zero), !flags.contains(.left), zeroPadAllowed, head.count + digits.count < width {
            return head + String(repeating: "0", count: width - head.count - digits.count) + digits
        }
        return pad(head + digits)
    }

    func integer(_ value: String, radix: Int, uppercase: Bool, signed: Bool) -> String? {
        let trimmed = value.trimmingASCIISpaces()
        guard let number = Int64(trimmed), signed || number >= 0 else { return nil }
        var digits = String(number.magnitude, radix: radix, uppercase: uppercase)
        if let precision, digits.count < precision {
            digits = String(repeating: "0", count: precision - digits.count) + digits
        }
        var prefix = ""
        if flags.contains(.alternate), number != 0 {
            if radix == 16 { prefix = uppercase ? "0X" : "0x" }
            if radix == 8, !digits.hasPrefix("0") { prefix = "0" }
        }
        return assemble(negative: number < 0, prefix: prefix, digits: digits, zeroPadAllowed: precision == nil)
    }

    func fixed(_ value: String, uppercase: Bool) -> String? {
        let trimmed = value.trimmingASCIISpaces()
        if let double = Double(trimmed), !double.isFinite {
            let word = double.isNaN ? "nan" : "inf"
            return assemble(negative: double < 0, prefix: "", digits: uppercase ? word.uppercased() : word, zeroPadAllowed: false)
        }
        guard let decimal = DecimalText(trimmed) else { return nil }
        let (negative, digits) = decimal.fixed(precision: precision ?? 6, keepPoint: flags.contains(.alternate))
        return assemble(negative: negative, prefix: "", digits: digits, zeroPadAllowed: true)
    }
}

/// A number written in decimal, rounded in decimal: the argument is text, and
/// `"0.125"` with `%.2f` should not depend on how 0.125 sits in binary.
private struct DecimalText {
    /// Beyond this many places a number is shown as the text it was (Double's range is ±308).
    static let maximumExponent = 400

    let negative: Bool
    /// Digits before and after the point, exponent already applied.
    let whole: [Int]
    let fraction: [Int]

    init?(_ text: String) {
        var scalars = Substring(text).unicodeScalars[...]
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var mantissa: [Int] = []
        var pointAt: Int?
        var exponent = 0
        while let scalar = scalars.first {
            if let digit = decimalDigit(scalar) {
                mantissa.append(digit)
            } else if scalar == ".", pointAt == nil {
                pointAt = mantissa.count
            } else {
                break
            }
            scalars = scalars.dropFirst()
        }
        guard !mantissa.isEmpty else { return nil }
        if let marker = scalars.first, marker == "e" || marker == "E" {
            scalars = scalars.dropFirst()
            // Any number of digits (`1e-9223372036854775808` is Int.min): saturating, and the
            // magnitude taken without trapping. Past ±400 places it is not rendered as a number.
            guard let value = Checked.integer(String(scalars)), Checked.magnitude(value) <= Self.maximumExponent else { return nil }
            exponent = value
            scalars = scalars[scalars.endIndex...]
        }
        guard scalars.isEmpty else { return nil }
        let point = Checked.add(pointAt ?? mantissa.count, exponent)
        if point <= 0 {
            whole = [0]
            fraction = Array(repeating: 0, count: -point) + mantissa
        } else if point >= mantissa.count {
            whole = mantissa + Array(repeating: 0, count: point - mantissa.count)
            fraction = []
        } else {
            whole = Array(mantissa[..<point])
            fraction = Array(mantissa[point...])
        }
        self.negative = negative
    }

    /// Rounded to `precision` places, half to even as printf does for exact halves.
    func fixed(precision: Int, keepPoint: Bool) -> (negative: Bool, digits: String) {
        var digits = whole + fraction.prefix(precision) + Array(repeating: 0, count: max(0, precision - fraction.count))
        let rest = fraction.dropFirst(precision)
        if let first = rest.first {
            let exactHalf = first == 5 && rest.dropFirst().allSatisfy { $0 == 0 }
            let roundUp = first > 5 || (first == 5 && !exactHalf) || (exactHalf && (digits.last ?? 0) % 2 == 1)
            if roundUp {
                var position = digits.count - 1
                while position >= 0 {
                    if digits[position] == 9 {
                        digits[position] = 0
                        position -= 1
                    } else {
                        digits[position] += 1
                        break
                    }
                }
                if position < 0 { digits.insert(1, at: 0) }
            }
        }
        let wholeCount = digits.count - precision
        var wholeDigits = digits[..<wholeCount].drop(while: { $0 == 0 })
        if wholeDigits.isEmpty { wholeDigits = [0] }
        var text = wholeDigits.map(String.init).joined()
        if precision > 0 || keepPoint { text += "." }
        text += digits[wholeCount...].map(String.init).joined()
        // printf keeps the sign of a negative number that rounds to zero: `-0.00`.
        return (negative, text)
    }
}

extension String {
    fileprivate func trimmingASCIISpaces() -> String {
        let scalars = unicodeScalars
        let start = scalars.firstIndex { $0 != " " } ?? scalars.endIndex
        let end = scalars.lastIndex { $0 != " " }.map { scalars.index(after: $0) } ?? start
        return start < end ? String(scalars[start..<end]) : ""
    }
}
