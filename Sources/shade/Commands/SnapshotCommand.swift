import ShadeCore

enum SnapshotCommand {
    static let command = Command(
        name: "snapshot", summary: "(not built yet)", usage: "shade snapshot", help: "", valueOptions: [], flags: [],
        run: { _ throws(UsageError) in throw UsageError("`shade snapshot` is not built yet") })
}
