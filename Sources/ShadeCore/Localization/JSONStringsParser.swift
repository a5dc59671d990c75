/// A JSON table (L4): one flat object whose values are strings, `{"key": "value", …}`. Read with
/// Shade's own JSON parser (the one JSON grammar in the project), which also tells where each key
/// stands, so every entry keeps its line and every error names one.
enum JSONStringsParser {
    static func parse(_ scalars: [Unicode.Scalar], name: String) throws(StringTableError) -> StringTable {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars where scalar != "\u{FEFF}" { appendUTF8(scalar.value, to: &bytes) }
        let parsed: (value: JSON, elementOffsets: [Int])
        do {
            parsed = try JSONParser.parseDocument(bytes)
        } catch {
            throw StringTableError(file: name, line: error.line, problem: "\(error.message) (column \(error.column))")
        }
        guard case .object(let object) = parsed.value else {
            throw StringTableError(file: name, line: 1,
                                   problem: "expected a JSON object `{\"key\": \"value\", …}`, found \(kind(of: parsed.value))")
        }
        var collector = EntryCollector(file: name)
        var line = 1
        var scanned = 0
        for (member, offset) in zip(object.members, parsed.elementOffsets) {
            while scanned < offset { if bytes[scanned] == 0x0A { line += 1 }; scanned += 1 }
            guard case .string(let value) = member.value else {
                throw StringTableError(file: name, line: line, problem: "the value of \(codeQuoted(member.key)) is "
                    + "\(kind(of: member.value)); a string table holds strings only\(hint(for: member.value))")
            }
            collector.add(member.key, StringEntry(value: value, line: line))
        }
        return collector.table(.json)
    }

    static func kind(of value: JSON) -> String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .bool: return "a boolean"
        case .null: return "null"
        case .number: return "a number"
        case .string: return "a string"
        }
    }

    static func hint(for value: JSON) -> String {
        switch value {
        case .object: return " — flatten nested keys as \"parent.child\""
        case .number, .bool: return " — put the value in quotes"
        default: return ""
        }
    }
}
