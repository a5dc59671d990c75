/// iOS `Localizable.strings` (L4): `"key" = "value";` entries with `/* */` and `//`
/// comments, in the old-style property-list grammar Xcode compiles. Also accepted,
/// as Apple's parser does: `"key";` (the value is the key), unquoted keys and values
/// of `[A-Za-z0-9_.-]`, and the whole list wrapped in `{ }`.
enum AppleStringsParser {
    static func parse(_ scalars: [Unicode.Scalar], name: String) throws(StringTableError) -> StringTable {
        var parser = Parser(reader: ScalarReader(scalars), file: name)
        return try parser.table()
    }

    private struct Parser {
        var reader: ScalarReader
        let file: String

        mutating func table() throws(StringTableError) -> StringTable {
            var collector = EntryCollector(file: file)
            try skipTrivia()
            var braceLine: Int?
            if reader.peek() == "{" {
                braceLine = reader.line
                reader.next()
            }
            while true {
                try skipTrivia()
                guard let scalar = reader.peek() else {
                    if let braceLine {
                        throw fail(reader.line, "expected `}` to close the `{` on line \(braceLine), found the end of the file")
                    }
                    return collector.table(.appleStrings)
                }
                if braceLine != nil, scalar == "}" {
                    reader.next()
                    try skipTrivia()
                    if let extra = reader.peek() {
                        throw fail(reader.line, "expected the end of the file after `}`, found \(extra.quotedForMessage)")
                    }
                    return collector.table(.appleStrings)
                }
                let keyLine = reader.line
                let key = try string(role: "a key")
                var endLine = reader.line
                try skipTrivia()
                var value = key
                var valueLine = keyLine
                if reader.peek() == "=" {
                    reader.next()
                    try skipTrivia()
                    valueLine = reader.line
                    value = try string(role: "the value of \(codeQuoted(key))")
                    endLine = reader.line
                    try skipTrivia()
                } else if reader.peek() != ";" {
                    throw fail(endLine, "expected `=` or `;` after the key \(codeQuoted(key)), found \(found)")
                }
                guard reader.peek() == ";" else {
                    // A value running over lines is usually a string whose closing quote is missing.
                    let hint = valueLine < endLine ? "; the string from line \(valueLine) may be missing its closing `\"`" : ""
                    throw fail(endLine, "expected `;` after the value of \(codeQuoted(key)), found \(found)\(hint)")
                }
                reader.next()
                collector.add(key, StringEntry(value: value, line: keyLine))
            }
        }

        /// What stands at the cursor, for "expected …, found …".
        private var found: String {
            reader.peek().map(\.quotedForMessage) ?? "the end of the file"
        }

        private func fail(_ line: Int, _ problem: String) -> StringTableError {
            StringTableError(file: file, line: line, problem: problem)
        }

        private mutating func skipTrivia() throws(StringTableError) {
            while let scalar = reader.peek() {
                if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                    reader.next()
                } else if reader.starts(with: "//") {
                    reader.skip(while: { $0 != "\n" && $0 != "\r" })
                } else if reader.starts(with: "/*") {
                    let start = reader.line
                    reader.skip(2)
                    while !reader.starts(with: "*/") {
                        guard reader.next() != nil else {
                            throw fail(start, "the comment `/*` opened here is never closed; add `*/`")
                        }
                    }
                    reader.skip(2)
                } else {
                    return
                }
            }
        }

        private static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "_", ".", "-": return true
            default: return false
            }
        }

        private mutating func string(role: String) throws(StringTableError) -> String {
            guard let first = reader.peek() else {
                throw fail(reader.line, "expected \(role), found the end of the file")
            }
            if Self.isUnquoted(first) {
                var text = String.UnicodeScalarView()
                while let scalar = reader.peek(), Self.isUnquoted(scalar) {
                    text.append(scalar)
                    reader.next()
                }
                return String(text)
            }
            guard first == "\"" else {
                throw fail(reader.line, "expected \(role) in double quotes, found \(first.quotedForMessage)")
            }
            let start = reader.line
            reader.next()
            var text = String.UnicodeScalarView()
            while true {
                guard let scalar = reader.next() else {
                    throw fail(start, "the string opened with `\"` here is never closed; add the closing `\"`")
                }
                switch scalar {
                case "\"":
                    return String(text)
                case "\\":
                    text.append(try escape(stringLine: start))
                default:
                    text.append(scalar)
                }
            }
        }

        /// The scalar a backslash escape stands for; the backslash is already consumed.
        private mutating func escape(stringLine: Int) throws(StringTableError) -> Unicode.Scalar {
            let line = reader.line
            guard let scalar = reader.next() else {
                throw fail(stringLine, "the string opened with `\"` here is never closed; add the closing `\"`")
            }
            switch scalar {
            case "\"", "'", "\\", "\n", "\r": return scalar
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "a": return "\u{07}"
            case "b": return "\u{08}"
            case "f": return "\u{0C}"
            case "v": return "\u{0B}"
            case "0"..."7":
                // Octal, up to three digits: `\0` is NUL, `\012` a newline.
                var value = scalar.value - 0x30
                for _ in 0..<2 {
                    guard let digit = reader.peek(), ("0"..."7").contains(digit) else { break }
                    value = value * 8 + (digit.value - 0x30)
                    reader.next()
                }
                return Unicode.Scalar(value)!
            case "U", "u":
                let unit = try hexUnit(after: scalar, line: line)
                if UTF16.isTrailSurrogate(unit) {
                    throw fail(line, "`\\\(scalar)\(hex(unit))` is the second half of a surrogate pair without the first; write the character's pair in order or the character itself")
                }
                if UTF16.isLeadSurrogate(unit) {
                    guard reader.peek() == "\\", let u = reader.peek(1), u == "U" || u == "u" else {
                        throw fail(line, "`\\\(scalar)\(hex(unit))` is the first half of a surrogate pair; follow it with the second half (`\\uDC00`…`\\uDFFF`)")
                    }
                    reader.skip(2)
                    let trail = try hexUnit(after: u, line: line)
                    guard UTF16.isTrailSurrogate(trail) else {
                        throw fail(line, "`\\\(scalar)\(hex(unit))` must be followed by the second half of a surrogate pair (`\\uDC00`…`\\uDFFF`), not `\\\(u)\(hex(trail))`")
                    }
                    let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00)
                    return Unicode.Scalar(value)!
                }
                return Unicode.Scalar(UInt32(unit))!
            default:
                throw fail(line, "unknown escape `\\\(scalar.escaped(asASCII: true))`; the escapes are \\\" \\' \\\\ \\n \\t \\r \\0 and \\Uxxxx; write `\\\\` for a backslash")
            }
        }

        private mutating func hexUnit(after letter: Unicode.Scalar, line: Int) throws(StringTableError) -> UInt16 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = reader.peek()?.hexValue else {
                    throw fail(line, "`\\\(letter)` needs exactly 4 hex digits (as in `\\\(letter)00E9`)")
                }
                value = value * 16 + digit
                reader.next()
            }
            return UInt16(value)
        }

        private func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16, uppercase: true)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
    }
}
