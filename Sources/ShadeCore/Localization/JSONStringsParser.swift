/// A JSON table (L4): one flat object whose values are strings, `{"key": "value", …}`.
/// Read by hand rather than with JSONSerialization so every entry keeps its line
/// and every error names one.
enum JSONStringsParser {
    static func parse(_ scalars: [Unicode.Scalar], name: String) throws(StringTableError) -> StringTable {
        var parser = Parser(reader: ScalarReader(scalars), file: name)
        return try parser.table()
    }

    private struct Parser {
        var reader: ScalarReader
        let file: String

        mutating func table() throws(StringTableError) -> StringTable {
            var collector = EntryCollector(file: file)
            skipSpace()
            guard reader.peek() == "{" else {
                throw fail(reader.line, "expected a JSON object `{\"key\": \"value\", …}`, found \(found)")
            }
            reader.next()
            skipSpace()
            if reader.peek() == "}" {
                reader.next()
                return try end(collector)
            }
            while true {
                skipSpace()
                guard reader.peek() == "\"" else {
                    let afterComma = reader.peek() == "}" ? " (a trailing comma is not allowed in JSON; remove it)" : ""
                    throw fail(reader.line, "expected a key in double quotes, found \(found)\(afterComma)")
                }
                let line = reader.line
                let key = try string()
                skipSpace()
                guard reader.peek() == ":" else {
                    throw fail(reader.line, "expected `:` after the key \(codeQuoted(key)), found \(found)")
                }
                reader.next()
                skipSpace()
                guard reader.peek() == "\"" else {
                    throw fail(reader.line, "the value of \(codeQuoted(key)) is \(valueKind); a string table holds strings only\(valueHint)")
                }
                let value = try string()
                collector.add(key, StringEntry(value: value, line: line))
                skipSpace()
                switch reader.next() {
                case ",": continue
                case "}": return try end(collector)
                case let other:
                    throw fail(reader.line, "expected `,` or `}` after the value of \(codeQuoted(key)), found \(other.map(\.quotedForMessage) ?? "the end of the file")")
                }
            }
        }

        private mutating func end(_ collector: EntryCollector) throws(StringTableError) -> StringTable {
            skipSpace()
            if !reader.isAtEnd {
                throw fail(reader.line, "unexpected \(found) after the closing `}`; the file holds one object")
            }
            return collector.table(.json)
        }

        private var found: String {
            reader.peek().map(\.quotedForMessage) ?? "the end of the file"
        }

        /// What a non-string value is, judged by its first character; enough to name it.
        private var valueKind: String {
            guard let first = reader.peek() else { return "missing (the file ends)" }
            switch first {
            case "{": return "an object"
            case "[": return "an array"
            case "t", "f": return "a boolean"
            case "n": return "null"
            case "-", "0"..."9": return "a number"
            default: return "not JSON (it starts with \(first.quotedForMessage))"
            }
        }

        private var valueHint: String {
            switch reader.peek() ?? " " {
            case "{": return " — flatten nested keys as \"parent.child\""
            case "-", "0"..."9", "t", "f": return " — put the value in quotes"
            default: return ""
            }
        }

        private func fail(_ line: Int, _ problem: String) -> StringTableError {
            StringTableError(file: file, line: line, problem: problem)
        }

        private mutating func skipSpace() {
            reader.skip(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{FEFF}" })
        }

        private mutating func string() throws(StringTableError) -> String {
            let start = reader.line
            reader.next()  // "
            var text = String.UnicodeScalarView()
            while true {
                guard let scalar = reader.next() else {
                    throw fail(start, "the string opened with `\"` here is never closed; add the closing `\"`")
                }
                switch scalar {
                case "\"":
                    return String(text)
                case "\\":
                    text.append(try escape())
                case "\n", "\r":
                    throw fail(start, "the string opened here runs past the end of the line; close it with `\"` or write a line break as `\\n`")
                default:
                    text.append(scalar)
                }
            }
        }

        private mutating func escape() throws(StringTableError) -> Unicode.Scalar {
            let line = reader.line
            switch reader.next() {
            case "\"": return "\""
            case "\\": return "\\"
            case "/": return "/"
            case "b": return "\u{08}"
            case "f": return "\u{0C}"
            case "n": return "\n"
            case "r": return "\r"
            case "t": return "\t"
            case "u":
                let first = try unit(line)
                if let scalar = Unicode.Scalar(first) { return scalar }
                guard UTF16.isLeadSurrogate(UInt16(first)), reader.starts(with: "\\u") else {
                    throw fail(line, "`\\u\(String(first, radix: 16, uppercase: true))` is half a surrogate pair; write both halves or the character itself")
                }
                reader.skip(2)
                let second = try unit(line)
                guard UTF16.isTrailSurrogate(UInt16(second)) else {
                    throw fail(line, "`\\u\(String(first, radix: 16, uppercase: true))` must be followed by the second half of a surrogate pair (`\\uDC00`…`\\uDFFF`)")
                }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            case let other:
                let shown = other.map { "`\\\($0.escaped(asASCII: true))`" } ?? "`\\` at the end of the file"
                throw fail(line, "unknown escape \(shown); JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
            }
        }

        private mutating func unit(_ line: Int) throws(StringTableError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = reader.next()?.hexValue else {
                    throw fail(line, "`\\u` needs exactly 4 hex digits (as in `\\u00E9`)")
                }
                value = value * 16 + digit
            }
            return value
        }
    }
}
