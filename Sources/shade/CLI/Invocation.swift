@preconcurrency import Glibc

/// How the user can run this very shade again, for hints on screen: `shade` when the `shade` on PATH
/// is this executable (installed), else the path it was started by (`.build/debug/shade` under
/// `swift run`), relative to the working directory where it lies below it.
enum Invocation {
    static var command: String {
        let argv0 = CommandLine.arguments.first ?? "shade"
        guard argv0.contains("/") else { return argv0 }   // found on PATH by the shell
        if let onPath = searchPath("shade"), let me = realPath(argv0), realPath(onPath) == me { return "shade" }
        // The path as it was given (symlinks kept: `.build/debug/shade`, not the triple-named folder).
        if argv0.hasPrefix("/"), let cwd = realPath("."), argv0.hasPrefix(cwd + "/") { return String(argv0.dropFirst(cwd.count + 1)) }
        return argv0
    }

    /// Whether `path` (relative to the working directory) is a file the user can read.
    static func readable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func searchPath(_ name: String) -> String? {
        guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
