// The one gate for text Shade writes: the terminal (through ShadeUI), standard error, logs, HTTP
// headers. Payload text and operator input (file names, options, header values) are data: an ESC in a
// title or a file name must never start an escape sequence in someone's terminal, and a CR must not
// overwrite a log line. JSON output escapes the same characters instead (`JSONWriter`).

public enum SafeText {
    /// C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F, CSI U+009B among
    /// them): the characters a terminal acts on instead of showing.
    @inline(__always)
    public static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }

    /// Bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): they would reorder
    /// the rest of the line they are printed in, outside the text they came with.
    @inline(__always)
    public static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// What stands for a control character: ESC `␛`, other C0 controls their Control Picture
    /// (BEL `␇`, NUL `␀`, CR `␍`), DEL `␡`, C1 controls `�`.
    public static func placeholder(for value: UInt32) -> Unicode.Scalar {
        switch value {
        case 0x00..<0x20: Unicode.Scalar(0x2400 + value)!
        case 0x7F: "\u{2421}"
        default: "\u{FFFD}"
        }
    }

    /// One line of text, safe to write anywhere: line breaks (`\n`, `\r\n`, `\r`, U+2028, U+2029)
    /// and tabs become a space, other control characters their placeholder, bidi controls are dropped.
    /// Inlined, so that clean text (almost all of it: every reply header) is checked in place.
    @inlinable
    public static func line(_ text: String) -> String {
        isClean(text) ? text : clean(text, keepingNewlines: false)
    }

    /// Several lines: the same, but `\n` (and `\r\n`, written `\n`) still ends a line.
    public static func lines(_ text: String) -> String {
        clean(text, keepingNewlines: true)
    }

    /// Whether `text` would come out of `lines` unchanged (the fast path: almost all text).
    @inlinable
    public static func isClean(_ text: String, keepingNewlines: Bool = false) -> Bool {
        UTF8Text.allBytes(of: text) { byte in
            (byte >= 0x20 && byte < 0x7F) || (keepingNewlines && byte == 0x0A)
        }
    }

    @usableFromInline
    static func clean(_ text: String, keepingNewlines: Bool) -> String {
        if isClean(text, keepingNewlines: keepingNewlines) { return text }
        var out = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            defer { previousWasCarriageReturn = value == 0x0D }
            switch value {
            case 0x0A where previousWasCarriageReturn:
                if keepingNewlines { out.removeLast(); out.append("\n") }   // the space the \r left
            case 0x0A where keepingNewlines:
                out.append("\n")
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029:
                out.append(" ")
            case _ where isControl(value):
                out.append(placeholder(for: value))
            case _ where isBidiControl(value):
                continue
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }
}
