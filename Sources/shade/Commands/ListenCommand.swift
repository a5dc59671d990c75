import ShadeCore

enum ListenCommand {
    static let command = Command(
        name: "listen", summary: "(not built yet)", usage: "shade listen", help: "", valueOptions: [], flags: [],
        run: { _ throws(UsageError) in throw UsageError("`shade listen` is not built yet") })
}
