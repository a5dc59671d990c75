import ShadeCore

enum DemoCommand {
    static let command = Command(
        name: "demo", summary: "(not built yet)", usage: "shade demo", help: "", valueOptions: [], flags: [],
        run: { _ throws(UsageError) in throw UsageError("`shade demo` is not built yet") })
}
