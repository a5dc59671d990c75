/// `shade lint` (SPEC §9): what a push service, browser or device will make of a payload, before
/// it is sent. Pure: the caller reads the files. Every limit and key rule it reports comes from
/// `ServiceRules`, `ConversationKeys`, `Profile` and the shape readers; lint only says where.
public enum Lint {
    /// Checks one push (V1–V7, and the C9/I2 notes); V6 looks keys up in `tables`. Paths are relative to the payload (`$`),
    /// headers are `header NAME`; every diagnostic carries the push's line.
    public static func check(_ push: Push, platforms: Set<Platform> = Set(Platform.allCases),
                             tables: StringTables = StringTables()) -> [Diagnostic] {
        var checker = PushChecker(push: push, scope: Scope(), selected: platforms, tables: tables)
        checker.run()
        return checker.found.map { d in
            var d = d
            d.line = d.line ?? push.source.line
            return d
        }
    }

    /// A whole file (`.json`, `.apns`) or one NDJSON line: V8 when it does not parse, duplicate
    /// keys, payloads of no known shape, then `check` for each push. A top-level array is a batch:
    /// each element is one push with its own line, and its paths start `$[i]`.
    public static func document(_ bytes: [UInt8], source name: String, firstLine: Int = 1,
                                platforms: Set<Platform> = Set(Platform.allCases),
                                tables: StringTables = StringTables()) -> [LintedPush] {
        let parsed: (value: JSON, elementOffsets: [Int])
        do {
            parsed = try JSONParser.parseDocument(bytes)
        } catch {
            let line = firstLine + error.line - 1
            return [LintedPush(source: SourcePosition(name: name, line: firstLine), shape: nil,
                               diagnostics: [invalidJSON(error, line: line)])]
        }
        var elements: [(value: JSON, root: String, line: Int)] = []
        if case .array(let values) = parsed.value {
            // Each element reports at its own line, counted once walking forward (as Intake does).
            var line = firstLine
            var scanned = 0
            for (i, (value, offset)) in zip(values, parsed.elementOffsets).enumerated() {
                while scanned < offset { if bytes[scanned] == 0x0A { line += 1 }; scanned += 1 }
                elements.append((value, JSONPath.element("$", i), line))
            }
        } else {
            elements.append((parsed.value, "$", firstLine))
        }
        var lines: LineIndex?
        var results: [LintedPush] = []
        for element in elements {
            let source = SourcePosition(name: name, line: element.line)
            var found = duplicateKeys(element.value, path: element.root)
            var shape: PayloadShape?
            var intake = Intake()
            for outcome in intake.value(element.value, source: source) {
                switch outcome {
                case .rejected(let rejection):
                    found.append(Diagnostic(.error, "D1-D8", path: element.root,
                                            "\(rejection.reason) — no device shows it"))
                case .push(let push):
                    shape = push.shape
                    var checker = PushChecker(push: push, scope: Scope(element: element.value, root: element.root),
                                              selected: platforms, tables: tables)
                    checker.run()
                    found += checker.found
                }
            }
            if !found.isEmpty {
                // The line index is built once per document, for the first push with findings.
                let index = lines ?? LineIndex(bytes, firstLine: firstLine)
                lines = index
                for i in found.indices where found[i].line == nil {
                    // A duplicate key points at its second occurrence.
                    found[i].line = (found[i].rule == duplicateRule && found[i].severity == .warning
                        ? index.line(of: found[i].path, occurrence: 1) : index.line(of: found[i].path)) ?? element.line
                }
                // Top to bottom, as an editor shows the file; ties keep the order of the checks.
                found = found.enumerated().sorted { ($0.element.line!, $0.offset) < ($1.element.line!, $1.offset) }.map(\.element)
            }
            results.append(LintedPush(source: source, shape: shape, diagnostics: found))
        }
        return results
    }

    /// NDJSON: one document a line (blank lines skipped, `\r\n` accepted), as `Intake.lines` reads it.
    public static func lines(_ bytes: [UInt8], source name: String, platforms: Set<Platform> = Set(Platform.allCases),
                             tables: StringTables = StringTables()) -> [LintedPush] {
        var results: [LintedPush] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var stop = end
            if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
            let line = Array(bytes[start..<stop])
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            results += document(line, source: name, firstLine: lineNumber, platforms: platforms, tables: tables)
        }
        return results
    }

    // MARK: JSON-level checks

    /// V8: what the parser found, with line and column. Every service refuses the payload.
    static func invalidJSON(_ error: JSONError, line: Int) -> Diagnostic {
        Diagnostic(.error, "V8", path: "$",
                   "invalid JSON at line \(line), column \(error.column): \(error.message) — the service refuses the payload and nothing is shown; fix the JSON",
                   line: line)
    }

    static let duplicateRule = "V8"

    /// Valid JSON, but one object names a key twice: JavaScript and Shade keep the last value,
    /// other parsers the first, so what the device reads depends on who parses it.
    static func duplicateKeys(_ value: JSON, path: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var steps: [JSONPathStep] = []
        duplicateKeys(value, root: path, steps: &steps, into: &found)
        return found
    }

    /// Walks with the steps from `root`; a path is written only for a finding.
    private static func duplicateKeys(_ value: JSON, root: String, steps: inout [JSONPathStep], into found: inout [Diagnostic]) {
        switch value {
        case .object(let object):
            var counts: [JSONPathStep: Int] = [:]
            if object.members.count > 1 {
                for member in object.members { counts[.key(member.key), default: 0] += 1 }
            }
            var reported: Set<JSONPathStep> = []
            for member in object.members {
                steps.append(.key(member.key))
                if let n = counts[.key(member.key)], n > 1, reported.insert(.key(member.key)).inserted {
                    let kept = ServiceRules.abbreviated(JSONWriter.compact(object[member.key]!))
                    found.append(Diagnostic(.warning, duplicateRule, path: JSONPath.path(root, steps),
                                            "the key \(JSONWriter.compact(.string(member.key))) appears \(n) times in one object; Shade and JavaScript keep the last value (\(kept)), other parsers the first — keep one"))
                }
                duplicateKeys(member.value, root: root, steps: &steps, into: &found)
                steps.removeLast()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                steps.append(.index(index))
                duplicateKeys(element, root: root, steps: &steps, into: &found)
                steps.removeLast()
            }
        default:
            return
        }
    }
}

/// Where a push's parts stand in its file, so paths name what the developer can find.
struct Scope {
    /// The payload: `$`, `$.payload` in an envelope (D1), `$[2]` in a batch.
    var payload = "$"
    /// The envelope's `headers` object, or nil for headers that came beside a bare payload.
    var headers: String?
    /// The envelope's `path`, or nil (the request's `:path`).
    var requestPath: String?

    init() {}

    init(element: JSON, root: String) {
        if case .object(let object) = element, case .success(.envelope) = PayloadShape.detect(object) {
            payload = JSONPath.member(root, "payload")
            headers = JSONPath.member(root, "headers")
            requestPath = JSONPath.member(root, "path")
        } else {
            payload = root
        }
    }

    func payload(_ relative: String) -> String { JSONPath.rebased(relative, onto: payload) }

    func header(_ name: String) -> String {
        headers.map { JSONPath.member($0, name) } ?? "header \(name)"
    }

    var pathOfRequest: String { requestPath ?? ":path" }
}
