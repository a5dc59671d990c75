/// The texts a platform shows for a push, after localization (SPEC §6), with the trace of how.
public struct ResolvedText: Sendable, Equatable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var trace: [TraceStep]
}

/// Resolves title, subtitle and body of a push for a platform.
public struct TextResolver: Sendable {
    public init() {}

    public func resolve(_ content: Content, platform: Platform) -> ResolvedText {
        ResolvedText(title: content.title, subtitle: content.subtitle, body: content.body, trace: [])
    }
}
