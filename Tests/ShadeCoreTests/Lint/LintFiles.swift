import Foundation
@testable import ShadeCore

/// Reads the project's own payload files (Samples/, the vectors) through a path relative to this
/// file, so the tests need no bundle resources and no working directory.
enum LintFiles {
    /// The package root: three levels up from Tests/ShadeCoreTests/Lint/.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func bytes(_ relative: String) -> [UInt8] {
        (try? Data(contentsOf: url(relative))).map { [UInt8]($0) } ?? []
    }

    /// Payload files of a folder, by name (no subfolders).
    static func names(in folder: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return all.filter { name in [".json", ".jsonl", ".apns"].contains { name.hasSuffix($0) } }.sorted()
    }

    /// Lints a file as `shade lint` does: `.jsonl` one document a line, anything else whole.
    /// The source name is the path relative to the package root.
    static func lint(_ relative: String, platforms: Set<Platform> = Set(Platform.allCases),
                     tables: StringTables = StringTables()) -> [LintedPush] {
        let bytes = bytes(relative)
        return relative.hasSuffix(".jsonl")
            ? Lint.lines(bytes, source: relative, platforms: platforms, tables: tables)
            : Lint.document(bytes, source: relative, platforms: platforms, tables: tables)
    }

    /// Each diagnostic as `line: severity [rule] path (platform)`: everything but the message.
    static func summary(_ pushes: [LintedPush]) -> [String] {
        pushes.flatMap { push in
            push.diagnostics.map { d in
                "\(d.line ?? 0): \(d.severity.rawValue) [\(d.rule)] \(d.path)\(d.platform.map { " (\($0.rawValue))" } ?? "")"
            }
        }
    }
}
