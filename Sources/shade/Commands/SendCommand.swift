import ShadeCore

enum SendCommand {
    static let command = Command(
        name: "send", summary: "(not built yet)", usage: "shade send", help: "", valueOptions: [], flags: [],
        run: { _ throws(UsageError) in throw UsageError("`shade send` is not built yet") })
}
