import ShadeCore

/// A line of the inspector or help: spans (Views/ViewRow.swift) left to right.
public typealias StyledLine = [Span]

extension Screen {
    /// Writes spans left to right from `column`, clipped to `width`; payload text is sanitised by `put`.
    @discardableResult
    public mutating func put(_ line: StyledLine, column: Int, row: Int, width: Int) -> Int {
        var used = 0
        for span in line where used < width {
            used += put(span.text, column: column + used, row: row, width: width - used, style: span.style)
        }
        return used
    }
}

/// Pretty JSON as styled lines: keys, strings, numbers and literals each in their colour.
public enum JSONLines {
    static let key = Style(foreground: .accent)
    static let string = Style(foreground: .success)
    static let number = Style(foreground: .warning)
    static let literal = Style(foreground: .danger)
    static let punctuation = Style(dim: true)

    public static func lines(_ value: JSON) -> [StyledLine] {
        var out: [StyledLine] = []
        var current: StyledLine = []
        write(value, indent: 0, into: &out, current: &current)
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func write(_ value: JSON, indent: Int, into out: inout [StyledLine], current: inout StyledLine) {
        let pad = String(repeating: "  ", count: indent)
        switch value {
        case .null: current.append(Span("null", literal))
        case .bool(let b): current.append(Span(b ? "true" : "false", literal))
        case .number(let n): current.append(Span(n, number))
        case .string(let s): current.append(Span(quoted(s), string))
        case .array(let items):
            guard !items.isEmpty else { current.append(Span("[]", punctuation)); return }
            current.append(Span("[", punctuation))
            for (i, item) in items.enumerated() {
                out.append(current)
                current = [Span(pad + "  ")]
                write(item, indent: indent + 1, into: &out, current: &current)
                if i < items.count - 1 { current.append(Span(",", punctuation)) }
            }
            out.append(current)
            current = [Span(pad), Span("]", punctuation)]
        case .object(let object):
            guard !object.isEmpty else { current.append(Span("{}", punctuation)); return }
            current.append(Span("{", punctuation))
            for (i, member) in object.members.enumerated() {
                out.append(current)
                current = [Span(pad + "  "), Span(quoted(member.key), key), Span(": ", punctuation)]
                write(member.value, indent: indent + 1, into: &out, current: &current)
                if i < object.members.count - 1 { current.append(Span(",", punctuation)) }
            }
            out.append(current)
            current = [Span(pad), Span("}", punctuation)]
        }
    }

    /// The string as JSON would write it (escapes visible), so control characters show as `\u001b`.
    static func quoted(_ s: String) -> String {
        var writer = JSONWriter()
        writer.writeString(s)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
