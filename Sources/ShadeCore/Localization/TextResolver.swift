/// The texts a platform shows for a push, after localization (SPEC §6), with the trace of how.
public struct ResolvedText: Sendable, Equatable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var trace: [TraceStep]
}

/// Resolves title, subtitle and body of a push for a platform: the one place where A10, I3 and
/// L1–L6 decide between a literal text and a `loc-key`.
public struct TextResolver: Sendable {
    public let tables: StringTables

    public init(tables: StringTables = StringTables()) { self.tables = tables }

    /// `traced`: whether the trace also previews the app's own `data."loc-key"` (L1), which only the
    /// trace shows: a center that keeps no traces does not look for it.
    public func resolve(_ content: Content, platform: Platform, traced: Bool = true) -> ResolvedText {
        var trace: [TraceStep] = []
        let title = field("title", literal: content.title, loc: content.titleLoc, platform: platform, trace: &trace)
        let subtitle = field("subtitle", literal: content.subtitle, loc: content.subtitleLoc, platform: platform, trace: &trace)
        let body = field("body", literal: content.body, loc: content.bodyLoc, platform: platform, trace: &trace)
        if traced, let preview = appDataPreview(content.appData, platform: platform) { trace.append(preview) }
        return ResolvedText(title: title, subtitle: subtitle, body: body, trace: trace)
    }

    /// A10/I3: a non-empty literal wins over the loc-key; otherwise the platform resolves the key.
    func field(_ name: String, literal: String?, loc: LocRef?, platform: Platform, trace: inout [TraceStep]) -> String? {
        // An empty literal shows nothing: the field is absent (null in the state JSON).
        guard let loc else { return literal?.isEmpty == true ? nil : literal }
        if let literal, !literal.isEmpty {
            trace.append(TraceStep(platform == .android ? "A10" : "I3", .literalWins(field: name, over: loc)))
            return literal
        }
        let resolution = platform == .android ? resolveAndroid(key: loc.key, args: loc.args, tables: tables)
                                              : resolveIOS(key: loc.key, args: loc.args, tables: tables)
        for note in resolution.notes { trace.append(TraceStep(Self.rule(of: note), .localizerNote(field: name, note: note))) }
        if resolution.text == nil {
            trace.append(TraceStep(resolution.missingKey ? "L5" : "L6", .leftEmpty(field: name)))
        }
        return resolution.text
    }

    /// L1: `data."loc-key"`/`"loc-args"` belong to the app; the trace previews what it would render.
    func appDataPreview(_ data: AppData, platform: Platform) -> TraceStep? {
        guard let (key, args) = data.withObject({ data -> (String, [String])? in
            guard let key = data["loc-key"]?.string, !key.isEmpty else { return nil }
            return (key, ShapeReader.locArgs(data["loc-args"]))
        }) else { return nil }
        let resolution = platform == .android ? resolveAndroid(key: key, args: args, tables: tables)
                                              : resolveIOS(key: key, args: args, tables: tables)
        let preview = resolution.text.map { "\"\($0)\"" } ?? "nothing (\(resolution.missingKey ? "no such string" : "too few arguments"))"
        return TraceStep("L1", "data.loc-key \(key) is the app's own data; rendered with the loaded tables it would read \(preview)")
    }

    /// Notes from the localizer start with their rule id (`L5: …`).
    static func rule(of note: String) -> String {
        let head = note.prefix { $0 != ":" }
        return head.count <= 3 && head.first == "L" ? String(head) : "L3"
    }

    static func text(of note: String) -> String {
        let head = note.prefix { $0 != ":" }
        guard head.count <= 3, head.first == "L" else { return note }
        return String(note.dropFirst(head.count + 1).drop { $0 == " " })
    }
}
