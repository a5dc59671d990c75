import ShadeCore

enum LintCommand {
    static let command = Command(
        name: "lint", summary: "(not built yet)", usage: "shade lint", help: "", valueOptions: [], flags: [],
        run: { _ throws(UsageError) in throw UsageError("`shade lint` is not built yet") })
}
