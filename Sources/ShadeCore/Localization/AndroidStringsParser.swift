/// Android `strings.xml` (L4): the `<string>` resources of a `<resources>` file,
/// with their text processed as aapt2 compiles it, so Shade shows what the device
/// would: entities and CDATA are XML's business; then Android's own layer:
/// `"…"` keeps whitespace, outside quotes whitespace runs collapse to one space
/// and the ends are trimmed, backslash escapes, inline tags (`<b>`, `<xliff:g>`)
/// reduced to their text. `<plurals>`, `<string-array>` and other resources are skipped.
enum AndroidStringsParser {
    static func parse(_ scalars: [Unicode.Scalar], name: String) throws(StringTableError) -> StringTable {
        var xml = MiniXMLParser(scalars, file: name)
        let root = try xml.document()
        guard root.name == "resources" else {
            let hint = root.name == "plist"
                ? "this is an Apple property list (a .stringsdict?); Shade reads `Localizable.strings` for iOS"
                : "the root element must be `<resources>`, found `<\(root.name)>`"
            throw StringTableError(file: name, line: root.line, problem: hint)
        }
        var collector = EntryCollector(file: name)
        // `<string name="a">@string/b</string>`: resolved once every string is known.
        var references: [(key: String, target: String, line: Int)] = []
        for child in root.children {
            switch child {
            case .text(let text, let line):
                if !text.unicodeScalars.allSatisfy(isSpace) {
                    throw StringTableError(file: name, line: line,
                                           problem: "text outside any `<string>` is not allowed in `<resources>`; put it inside `<string name=\"…\">`")
                }
            case .element(let element):
                guard element.namespace == nil, isStringResource(element) else { continue }
                guard let key = element.attribute("name"), !key.isEmpty else {
                    throw StringTableError(file: name, line: element.line,
                                           problem: "`<\(element.name)>` has no `name` attribute; add name=\"…\"")
                }
                let percentIsLiteral = element.attribute("formatted") == "false"
                let raw = rawText(element.children).trimmingAndroidSpace()
                if raw.hasPrefix("@") || raw.hasPrefix("?") {
                    if let target = stringReference(raw) {
                        references.append((key, target, element.line))
                    } else {
                        collector.warn(line: element.line,
                                       "\(codeQuoted(key)) is the reference \(codeQuoted(raw)), which Shade cannot resolve; its text is shown as written (write `\\@` for a literal @)")
                    }
                }
                let value = try flatten(element, key: key, file: name)
                if !percentIsLiteral, let problem = nonPositionalProblem(value) {
                    collector.warn(line: element.line, "\(codeQuoted(key)) \(problem)")
                }
                collector.add(key, StringEntry(value: value, line: element.line, percentIsLiteral: percentIsLiteral))
            }
        }
        for reference in references {
            // Follow chains (a → b → c) to the first string that is not itself a reference.
            var target = reference.target
            var seen: Set<String> = [reference.key]
            while !seen.contains(target), let next = references.first(where: { $0.key == target }) {
                seen.insert(target)
                target = next.target
            }
            if seen.contains(target) {
                collector.warn(line: reference.line,
                               "\(codeQuoted(reference.key)) is part of a cycle of @string references; its text is shown as written")
            } else if let entry = collector.entries[target] {
                collector.replace(reference.key, StringEntry(value: entry.value, line: reference.line,
                                                             percentIsLiteral: entry.percentIsLiteral))
            } else {
                collector.warn(line: reference.line,
                               "\(codeQuoted(reference.key)) refers to @string/\(target), which is not in this file; its text is shown as written")
            }
        }
        return collector.table(.androidXML)
    }

    /// `<string>` and `<item type="string">` hold strings; everything else is skipped.
    private static func isStringResource(_ element: XMLElement) -> Bool {
        element.name == "string" || (element.name == "item" && element.attribute("type") == "string")
    }

    /// aapt2 treats only ASCII `isspace` as whitespace.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r": return true
        default: return false
        }
    }

    private static func rawText(_ content: [XMLContent]) -> String {
        content.map {
            switch $0 {
            case .text(let text, _): return text
            case .element(let element): return rawText(element.children)
            }
        }.joined()
    }

    /// `@string/name` (optionally `@+string/name`) → `name`; any other reference → nil.
    private static func stringReference(_ raw: String) -> String? {
        var rest = Substring(raw)
        guard rest.hasPrefix("@") else { return nil }
        rest = rest.dropFirst()
        if rest.hasPrefix("+") { rest = rest.dropFirst() }
        guard rest.hasPrefix("string/") else { return nil }
        let target = rest.dropFirst("string/".count)
        return target.isEmpty ? nil : String(target)
    }

    /// The text of one `<string>`, as aapt2's `FlattenXmlSubtree` and `StringBuilder` make it.
    private static func flatten(_ element: XMLElement, key: String, file: String) throws(StringTableError) -> String {
        var segments = element.children
        // Without style spans, aapt2 trims the leading space of the first text and the
        // trailing space of the last one before processing (a quoted space survives).
        if !containsSpan(segments) {
            trimEnds(&segments)
        }
        var builder = AaptStringBuilder()
        do {
            try builder.build(segments)
        } catch {
            throw StringTableError(file: file, line: element.line, problem: "\(codeQuoted(key)): \(error.problem)")
        }
        return String(builder.text)
    }

    private static func containsSpan(_ content: [XMLContent]) -> Bool {
        content.contains {
            if case .element(let element) = $0 {
                return element.namespace == nil || containsSpan(element.children)
            }
            return false
        }
    }

    private static func trimEnds(_ content: inout [XMLContent]) {
        var first = true
        trimLeading(&content, first: &first)
        var last = true
        trimTrailing(&content, last: &last)
    }

    private static func trimLeading(_ content: inout [XMLContent], first: inout Bool) {
        for index in content.indices where first {
            switch content[index] {
            case .text(let text, let line):
                content[index] = .text(String(String.UnicodeScalarView(text.unicodeScalars.drop(while: isSpace))), line: line)
                first = false
            case .element(var element):
                trimLeading(&element.children, first: &first)
                content[index] = .element(element)
            }
        }
    }

    private static func trimTrailing(_ content: inout [XMLContent], last: inout Bool) {
        for index in content.indices.reversed() where last {
            switch content[index] {
            case .text(let text, let line):
                let scalars = Array(text.unicodeScalars)
                var end = scalars.count
                while end > 0, isSpace(scalars[end - 1]) { end -= 1 }
                content[index] = .text(String(String.UnicodeScalarView(scalars[..<end])), line: line)
                last = false
            case .element(var element):
                trimTrailing(&element.children, last: &last)
                content[index] = .element(element)
            }
        }
    }

    /// aapt2 refuses (unless `formatted="false"`) a string with more than one
    /// substitution where any is not positional: translators cannot reorder them.
    private static func nonPositionalProblem(_ value: String) -> String? {
        let scalars = Array(value.unicodeScalars)
        var count = 0
        var nonPositional = 0
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "%", index + 1 < scalars.count else {
                index += 1
                continue
            }
            var cursor = index + 1
            if scalars[cursor] == "%" || scalars[cursor] == "n" {
                index = cursor + 1
                continue
            }
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) { cursor += 1 }
            count += 1
            let positional = cursor > index + 1 && cursor < scalars.count && scalars[cursor] == "$"
            if !positional { nonPositional += 1 }
            index = cursor + 1
        }
        guard count > 1, nonPositional > 0 else { return nil }
        return "has \(count) substitutions and not all are positional; aapt2 refuses this unless the string has formatted=\"false\" — write %1$s, %2$s …"
    }
}

/// The second half of aapt2's string compilation (`ResourceUtils::StringBuilder`).
struct AaptStringBuilder {
    struct Failure: Error {
        let problem: String
    }

    private(set) var text = String.UnicodeScalarView()
    private var quote = false
    private var lastWasSpace = false

    mutating func build(_ content: [XMLContent]) throws(Failure) {
        for item in content {
            switch item {
            case .text(let segment, _):
                try append(segment)
            case .element(let element) where element.namespace == nil:
                // A style span (`<b>`, `<i>`, `<u>`…): its boundaries end quoting and space collapsing.
                reset()
                try build(element.children)
                reset()
            case .element(let element):
                // `<xliff:g>` and other namespaced tags: only their text counts.
                try build(element.children)
            }
        }
    }

    private mutating func reset() {
        quote = false
        lastWasSpace = false
    }

    private mutating func append(_ segment: String) throws(Failure) {
        var scalars = segment.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if !quote, AndroidStringsParser.isSpace(scalar) {
                if !lastWasSpace {
                    text.append(" ")
                    lastWasSpace = true
                }
                continue
            }
            lastWasSpace = false
            switch scalar {
            case "\\":
                guard let escaped = scalars.next() else { continue }
                switch escaped {
                case "t": text.append("\t")
                case "n": text.append("\n")
                case "u": text.append(try unicodeEscape(&scalars))
                // `\'` `\"` `\\` `\@` `\?` `\#` and any other: the character itself.
                default: text.append(escaped)
                }
            case "\"":
                quote.toggle()
            case "'" where !quote:
                throw Failure(problem: "unescaped apostrophe; write `\\'` or put the whole text in double quotes")
            default:
                text.append(scalar)
            }
        }
    }

    /// `\uXXXX` (a pair of them for a character outside the BMP).
    private func unicodeEscape(_ scalars: inout String.UnicodeScalarView.Iterator) throws(Failure) -> Unicode.Scalar {
        func unit(_ scalars: inout String.UnicodeScalarView.Iterator) throws(Failure) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = scalars.next()?.hexValue else {
                    throw Failure(problem: "`\\u` needs 4 hex digits (as in `\\u00E9`)")
                }
                value = value * 16 + digit
            }
            return value
        }
        let first = try unit(&scalars)
        if let scalar = Unicode.Scalar(first) { return scalar }
        guard (0xD800...0xDBFF).contains(first), scalars.next() == "\\", scalars.next() == "u" else {
            throw Failure(problem: "`\\u` escape of half a surrogate pair; write the character itself")
        }
        let second = try unit(&scalars)
        guard (0xDC00...0xDFFF).contains(second) else {
            throw Failure(problem: "`\\u` escape of half a surrogate pair; write the character itself")
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
    }
}

extension String {
    fileprivate func trimmingAndroidSpace() -> String {
        let scalars = Array(unicodeScalars)
        var start = 0, end = scalars.count
        while start < end, AndroidStringsParser.isSpace(scalars[start]) { start += 1 }
        while end > start, AndroidStringsParser.isSpace(scalars[end - 1]) { end -= 1 }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }
}
