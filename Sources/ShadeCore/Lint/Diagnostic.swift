/// One finding of `shade lint` (SPEC §9): which rule, where in the payload, and what the device
/// will do (and the fix), in one sentence.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// Errors are what a service or browser refuses (exit 1); warnings change what is shown;
    /// notes are what to know before shipping.
    public enum Severity: String, Sendable, CaseIterable, Comparable {
        case error, warning, note

        public static func < (a: Severity, b: Severity) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    public var severity: Severity
    /// The SPEC rule id: `V3`, `C9`, … (`D1-D8` for a payload of no known shape).
    public var rule: String
    /// A JSON path into the file (`$.message.data.count`), or `header NAME` / `:path` for what
    /// arrived beside a bare payload.
    public var path: String
    public var message: String
    /// The platform it concerns; nil when it concerns every platform the push reaches.
    public var platform: Platform?
    /// The line in the source (the offending key's line where the file shows it, else the push's).
    public var line: Int?

    public init(_ severity: Severity, _ rule: String, path: String, _ message: String, platform: Platform? = nil, line: Int? = nil) {
        self.severity = severity
        self.rule = rule
        self.path = path
        self.message = message
        self.platform = platform
        self.line = line
    }

    /// `error [V3] $.message.data.count: …` (the text format without the file).
    public var description: String {
        "\(severity.rawValue) [\(rule)] \(path): \(message)"
    }
}

/// The diagnostics of one push (or of one document that never became a push).
public struct LintedPush: Sendable, Equatable {
    /// Where the push starts: `file:line`.
    public var source: SourcePosition
    /// Nil when the document did not parse or matched no shape.
    public var shape: PayloadShape?
    public var diagnostics: [Diagnostic]

    public init(source: SourcePosition, shape: PayloadShape?, diagnostics: [Diagnostic]) {
        self.source = source
        self.shape = shape
        self.diagnostics = diagnostics
    }
}

/// Everything `shade lint` found, and its two output formats.
public struct LintReport: Sendable, Equatable {
    public var pushes: [LintedPush]

    public init(pushes: [LintedPush]) { self.pushes = pushes }

    public func count(_ severity: Diagnostic.Severity) -> Int {
        pushes.reduce(0) { $0 + $1.diagnostics.count { $0.severity == severity } }
    }

    public var hasErrors: Bool { count(.error) > 0 }

    /// A note that holds for many pushes of a file (the C9 gate on every chat message of a
    /// recording) is said once, at its first push, with how many more it holds for.
    public func collapsingRepeatedNotes() -> LintReport {
        struct Key: Hashable { var file: String; var rule: String; var message: String; var platform: Platform? }
        var repeats: [Key: Int] = [:]
        for push in pushes {
            for d in push.diagnostics where d.severity == .note {
                repeats[Key(file: push.source.name, rule: d.rule, message: d.message, platform: d.platform), default: 0] += 1
            }
        }
        var said: Set<Key> = []
        var result = self
        for p in result.pushes.indices {
            let file = result.pushes[p].source.name
            result.pushes[p].diagnostics = result.pushes[p].diagnostics.compactMap { d in
                guard d.severity == .note else { return d }
                let key = Key(file: file, rule: d.rule, message: d.message, platform: d.platform)
                guard said.insert(key).inserted else { return nil }
                let more = (repeats[key] ?? 1) - 1
                guard more > 0 else { return d }
                var first = d
                first.message += "; the same holds for \(more) more push\(more == 1 ? "" : "es") in this file"
                return first
            }
        }
        return result
    }

    /// `3 errors, 2 warnings, 1 note in 5 pushes`.
    public var summary: String {
        func counted(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "\(counted(count(.error), "error", "errors")), \(counted(count(.warning), "warning", "warnings")), "
            + "\(counted(count(.note), "note", "notes")) in \(counted(pushes.count, "push", "pushes"))"
    }

    /// One diagnostic a line (`file:line: severity [rule] path: message`, or `path (iOS): message`
    /// when it concerns one platform of several), a header line before
    /// each push with findings when its file holds several pushes, then the summary.
    public func text() -> String {
        var perFile: [String: Int] = [:]
        for push in pushes { perFile[push.source.name, default: 0] += 1 }
        var seen: [String: Int] = [:]
        var out = ""
        for push in pushes {
            let name = push.source.name
            seen[name, default: 0] += 1
            guard !push.diagnostics.isEmpty else { continue }
            let total = perFile[name] ?? 1
            if total > 1 {
                let what = push.shape.map { "\($0.displayName), \($0.rule)" }
                    ?? (push.diagnostics.contains { $0.rule == "V8" && $0.severity == .error } ? "invalid JSON" : "no known shape")
                out += SafeText.line("\(push.source): push \(seen[name]!) of \(total) (\(what))") + "\n"
            }
            for d in push.diagnostics {
                let position = "\(name):\(d.line ?? push.source.line ?? 1)"
                let platform = d.platform.map { " (\($0.displayName))" } ?? ""
                out += SafeText.line("\(position): \(d.severity.rawValue) [\(d.rule)] \(d.path)\(platform): \(d.message)") + "\n"
            }
        }
        return out + summary + "\n"
    }

    /// `[{file, line, severity, rule, path, message, platform}, …]`, one diagnostic a line;
    /// `platform` is null when the diagnostic concerns every platform the push reaches.
    public func json() -> String {
        var lines: [String] = []
        for push in pushes {
            for d in push.diagnostics {
                let object = JSONObject([
                    "file": .string(push.source.name),
                    "line": .number(String(d.line ?? push.source.line ?? 1)),
                    "severity": .string(d.severity.rawValue),
                    "rule": .string(d.rule),
                    "path": .string(d.path),
                    "message": .string(d.message),
                    "platform": d.platform.map { .string($0.rawValue) } ?? .null,
                ])
                lines.append("  " + JSONWriter.compact(.object(object)))
            }
        }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

}
