import Foundation

/// The package's own files, found from this file's path (the tests read the repository, never
/// anything outside it).
enum Repository {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// Every `.swift` file under `folder`, as (path from the root, text).
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var files: [(String, String)] = []
        for case let name as String in walker where name.hasSuffix(".swift") {
            files.append((folder + "/" + name, try text(folder + "/" + name)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The top-level entries of the repository (`Samples`, `scripts`, `README.md`, …), hidden ones left out.
    static var topLevel: Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") })
    }
}
