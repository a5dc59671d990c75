import ShadeCore

enum ReplayCommand {
    static let command = Command(
        name: "replay", summary: "(not built yet)", usage: "shade replay", help: "", valueOptions: [], flags: [],
        run: { _ throws(UsageError) in throw UsageError("`shade replay` is not built yet") })
}
