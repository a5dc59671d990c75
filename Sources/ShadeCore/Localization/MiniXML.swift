/// Just enough XML for `strings.xml`: elements, attributes, namespaces, text,
/// entity and character references, CDATA; comments, processing instructions and
/// the DOCTYPE are skipped. Iterative, so a deeply nested hostile file cannot
/// exhaust the stack. Errors name `file:line` and the fix.
struct XMLElement {
    let name: String
    /// The namespace URI the name's prefix is bound to; nil for an unprefixed name.
    let namespace: String?
    let attributes: [(name: String, value: String)]
    let line: Int
    var children: [XMLContent] = []

    var localName: Substring {
        name.split(separator: ":", maxSplits: 1).last ?? Substring(name)
    }

    func attribute(_ attributeName: String) -> String? {
        attributes.first { $0.name == attributeName }?.value
    }
}

/// Text keeps the line it starts on, so "plain text not allowed here" can point at it.
enum XMLContent {
    case element(XMLElement)
    case text(String, line: Int)
}

struct MiniXMLParser {
    private var reader: ScalarReader
    private let file: String

    init(_ scalars: [Unicode.Scalar], file: String) {
        reader = ScalarReader(scalars)
        self.file = file
    }

    /// The root element with its whole tree.
    mutating func document() throws(StringTableError) -> XMLElement {
        try skipMisc(allowDoctype: true)
        guard reader.peek() == "<" else {
            throw fail(reader.line, "expected the root element `<resources>`, found \(found)")
        }
        var stack: [(element: XMLElement, scope: [String: String])] = []
        let (root, rootScope, rootClosed) = try startTag(scope: ["xml": "http://www.w3.org/XML/1998/namespace"])
        if rootClosed {
            try finishDocument()
            return root
        }
        stack.append((root, rootScope))
        var text = String.UnicodeScalarView()
        var textLine = reader.line

        func flush(into stack: inout [(element: XMLElement, scope: [String: String])]) {
            guard !text.isEmpty else { return }
            stack[stack.count - 1].element.children.append(.text(String(text), line: textLine))
            text = String.UnicodeScalarView()
        }

        // Work on `stack` by index: a copy of the open element held across an append
        // would make every append copy its children (quadratic on a big file).
        while !stack.isEmpty {
            let top = stack.count - 1
            if text.isEmpty { textLine = reader.line }
            guard let scalar = reader.peek() else {
                let open = stack[top].element
                throw fail(open.line, "`<\(open.name)>` opened here is never closed; add `</\(open.name)>`")
            }
            if scalar == "&" {
                text.append(contentsOf: try reference().unicodeScalars)
            } else if scalar != "<" {
                text.append(scalar)
                reader.next()
            } else if reader.starts(with: "<!--") {
                try comment()
            } else if reader.starts(with: "<![CDATA[") {
                let start = reader.line
                reader.skip(9)
                while !reader.starts(with: "]]>") {
                    guard let inner = reader.next() else {
                        throw fail(start, "the CDATA section opened here is never closed; add `]]>`")
                    }
                    text.append(inner)
                }
                reader.skip(3)
            } else if reader.starts(with: "<?") {
                try processingInstruction()
            } else if reader.starts(with: "</") {
                flush(into: &stack)
                let line = reader.line
                reader.skip(2)
                let name = try xmlName(role: "a closing tag name")
                reader.skip(while: Self.isXMLSpace)
                guard reader.peek() == ">" else {
                    throw fail(reader.line, "expected `>` to end `</\(name)`, found \(found)")
                }
                reader.next()
                let openName = stack[top].element.name
                guard name == openName else {
                    throw fail(line, "`</\(name)>` does not match `<\(openName)>` opened on line \(stack[top].element.line); add `</\(openName)>` before it")
                }
                let finished = stack.removeLast().element
                if stack.isEmpty {
                    try finishDocument()
                    return finished
                }
                stack[stack.count - 1].element.children.append(.element(finished))
            } else if reader.starts(with: "<!") {
                throw fail(reader.line, "unexpected `<!` in element content; a comment is `<!-- … -->`, literal text is `<![CDATA[ … ]]>`")
            } else {
                flush(into: &stack)
                let (child, childScope, closed) = try startTag(scope: stack[top].scope)
                if closed {
                    stack[top].element.children.append(.element(child))
                } else if stack.count >= Self.maximumDepth {
                    throw fail(child.line, "elements nest deeper than \(Self.maximumDepth) levels; a strings.xml needs three")
                } else {
                    stack.append((child, childScope))
                }
            }
        }
        preconditionFailure("the loop returns when the root closes")
    }

    /// The string processing after parsing recurses over the tree; a bound keeps a hostile file from exhausting the stack.
    static let maximumDepth = 256

    private var found: String {
        reader.peek().map(\.quotedForMessage) ?? "the end of the file"
    }

    private func fail(_ line: Int, _ problem: String) -> StringTableError {
        StringTableError(file: file, line: line, problem: problem)
    }

    private static func isXMLSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "_", ":": return true
        default: return scalar.value >= 0xC0 && !scalar.properties.isWhitespace
        }
    }

    private static func isNameChar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "-", ".", "\u{B7}": return true
        default: return isNameStart(scalar)
        }
    }

    private mutating func xmlName(role: String) throws(StringTableError) -> String {
        guard let first = reader.peek(), Self.isNameStart(first) else {
            throw fail(reader.line, "expected \(role), found \(found)")
        }
        var name = String.UnicodeScalarView()
        while let scalar = reader.peek(), Self.isNameChar(scalar) {
            name.append(scalar)
            reader.next()
        }
        return String(name)
    }

    /// `<name attr="…" …>` or `/>`; returns the element, its namespace scope and whether it closed itself.
    private mutating func startTag(scope: [String: String]) throws(StringTableError) -> (XMLElement, [String: String], Bool) {
        let line = reader.line
        reader.next()  // <
        let name = try xmlName(role: "an element name after `<`")
        var attributes: [(name: String, value: String)] = []
        var closed = false
        while true {
            let hadSpace = Self.isXMLSpace(reader.peek() ?? "x")
            reader.skip(while: Self.isXMLSpace)
            if reader.starts(with: "/>") {
                reader.skip(2)
                closed = true
                break
            }
            if reader.peek() == ">" {
                reader.next()
                break
            }
            guard reader.peek() != nil else {
                throw fail(line, "the tag `<\(name)` opened here is never finished; add `>`")
            }
            guard hadSpace else {
                throw fail(reader.line, "expected a space, `>` or `/>` in `<\(name)>`, found \(found)")
            }
            let attributeName = try xmlName(role: "an attribute name in `<\(name)>`")
            reader.skip(while: Self.isXMLSpace)
            guard reader.peek() == "=" else {
                throw fail(reader.line, "expected `=` after the attribute `\(attributeName)` in `<\(name)>`, found \(found)")
            }
            reader.next()
            reader.skip(while: Self.isXMLSpace)
            guard let quote = reader.peek(), quote == "\"" || quote == "'" else {
                throw fail(reader.line, "the value of `\(attributeName)` in `<\(name)>` must be in quotes, found \(found)")
            }
            let valueLine = reader.line
            reader.next()
            var value = String.UnicodeScalarView()
            while true {
                guard let scalar = reader.peek() else {
                    throw fail(valueLine, "the value of `\(attributeName)` opened here is never closed; add the closing \(quote.quotedForMessage)")
                }
                if scalar == quote {
                    reader.next()
                    break
                }
                if scalar == "<" {
                    throw fail(reader.line, "`<` is not allowed in the value of `\(attributeName)`; write `&lt;`")
                }
                if scalar == "&" {
                    value.append(contentsOf: try reference().unicodeScalars)
                } else {
                    value.append(scalar)
                    reader.next()
                }
            }
            if attributes.contains(where: { $0.name == attributeName }) {
                throw fail(valueLine, "`<\(name)>` has the attribute `\(attributeName)` twice; keep one")
            }
            attributes.append((attributeName, String(value)))
        }
        var inner = scope
        for attribute in attributes where attribute.name.hasPrefix("xmlns:") {
            inner[String(attribute.name.dropFirst(6))] = attribute.value
        }
        for qualified in [name] + attributes.map(\.name) where !qualified.hasPrefix("xmlns") {
            if let prefix = qualified.split(separator: ":", maxSplits: 1).dropLast().first, inner[String(prefix)] == nil {
                let hint = prefix == "xliff" ? " xmlns:xliff=\"urn:oasis:names:tc:xliff:document:1.2\"" : " xmlns:\(prefix)=\"…\""
                throw fail(line, "the prefix `\(prefix)` in `\(qualified)` is not declared; add\(hint) to `<resources>`")
            }
        }
        let prefix = name.contains(":") ? name.split(separator: ":", maxSplits: 1).first.map(String.init) : nil
        let element = XMLElement(name: name, namespace: prefix.flatMap { inner[$0] }, attributes: attributes, line: line)
        return (element, inner, closed)
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#NN;` `&#xNN;`; the `&` is at the cursor.
    private mutating func reference() throws(StringTableError) -> String {
        let line = reader.line
        reader.next()  // &
        var body = String.UnicodeScalarView()
        while let scalar = reader.peek(), scalar != ";", body.count < 32,
              Self.isNameChar(scalar) || scalar == "#" {
            body.append(scalar)
            reader.next()
        }
        guard reader.peek() == ";", !body.isEmpty else {
            throw fail(line, "a bare `&`; write `&amp;` for an ampersand")
        }
        reader.next()
        let name = String(body)
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        if name.hasPrefix("#") {
            let isHex = name.hasPrefix("#x") || name.hasPrefix("#X")
            let digits = name.dropFirst(isHex ? 2 : 1)
            if let value = UInt32(digits, radix: isHex ? 16 : 10), let scalar = Unicode.Scalar(value), value != 0 {
                return String(scalar)
            }
            throw fail(line, "`&\(name);` is not a character; write a Unicode code point such as `&#233;` or `&#x1F600;`")
        }
        throw fail(line, "unknown entity `&\(name);`; XML knows &amp; &lt; &gt; &quot; &apos; — write other characters as `&#NNN;` or as themselves")
    }

    private mutating func comment() throws(StringTableError) {
        let start = reader.line
        reader.skip(4)
        while !reader.starts(with: "-->") {
            guard reader.next() != nil else {
                throw fail(start, "the comment `<!--` opened here is never closed; add `-->`")
            }
        }
        reader.skip(3)
    }

    private mutating func processingInstruction() throws(StringTableError) {
        let start = reader.line
        reader.skip(2)
        while !reader.starts(with: "?>") {
            guard reader.next() != nil else {
                throw fail(start, "`<?` opened here is never closed; add `?>`")
            }
        }
        reader.skip(2)
    }

    /// Whitespace, comments, processing instructions (the XML declaration) and, before the root, a DOCTYPE.
    private mutating func skipMisc(allowDoctype: Bool) throws(StringTableError) {
        while true {
            reader.skip(while: { Self.isXMLSpace($0) || $0 == "\u{FEFF}" })
            if reader.starts(with: "<!--") {
                try comment()
            } else if reader.starts(with: "<?") {
                try processingInstruction()
            } else if allowDoctype, reader.starts(with: "<!DOCTYPE") {
                let start = reader.line
                var depth = 0
                var closed = false
                while !closed, let scalar = reader.next() {
                    if scalar == "[" { depth += 1 }
                    if scalar == "]" { depth -= 1 }
                    closed = scalar == ">" && depth <= 0
                }
                if !closed {
                    throw fail(start, "the `<!DOCTYPE` opened here is never closed; add `>`")
                }
            } else {
                return
            }
        }
    }

    private mutating func finishDocument() throws(StringTableError) {
        try skipMisc(allowDoctype: false)
        if !reader.isAtEnd {
            throw fail(reader.line, "unexpected \(found) after the root element; a file has one root, `<resources>`")
        }
    }
}
