import Foundation
import Testing

/// The package root and the built `shade` executable (`swift test` builds it beside the tests).
enum Build {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    static var shade: String {
        packageRoot.appendingPathComponent(".build/debug/shade").path
    }

    static func sample(_ name: String) -> String { packageRoot.appendingPathComponent("Samples/\(name)").path }
}

/// What every program a test starts runs with, whatever the machine's: UTC, so times on screen are
/// the same everywhere (a test that is about time zones passes its own TZ).
enum Pinned {
    static let environment = ["TZ": "UTC"]

    /// This process's environment with the pinned values.
    static var processEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
}

/// The output of a finished command.
struct Finished {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a command to completion (bounded in time) and returns what it printed. posix_spawn and
/// waitpid rather than Foundation's Process: its waitUntilExit can miss the exit of a child that
/// forks a daemon (the tmux client does), and a daemon holding an output pipe never gives EOF.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                timeout: TimeInterval = 30) throws -> Finished {
    let directory = NSTemporaryDirectory() + "shade-run-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let inPath = directory + "/in", outPath = directory + "/out", errPath = directory + "/err"
    _ = FileManager.default.createFile(atPath: inPath, contents: Data((input ?? "").utf8))

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let env = ProcessInfo.processInfo.environment.merging(Pinned.environment) { $1 }.merging(environment) { $1 }
        .map { "\($0.key)=\($0.value)" }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = env.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    // Test runners block signals in their worker threads and a spawned child inherits the mask:
    // start it with none blocked and default handlers, as a shell would.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }

    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(timeout)
    while waitpid(pid, &status, WNOHANG) == 0 {
        if Date() > deadline {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            break
        }
        usleep(5_000)
    }
    let exited = (status & 0x7F) == 0
    let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
    return Finished(status: code, stdout: read(outPath), stderr: read(errPath))
}

/// A tmux server of its own with one fixed-size window running one command: type keys, read the pane.
final class TmuxPane {
    let name: String
    let socket: String

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    init(command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        name = "shade-e2e-\(UInt32.random(in: 0...UInt32.max))"
        socket = NSTemporaryDirectory() + name + ".tmux"
        let env = (["LANG": "C.UTF-8", "TERM": "xterm-256color", "SWIFT_BACKTRACE": "enable=no"].merging(Pinned.environment) { $1 }
            .merging(environment) { $1 })
            .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        // The shell stays after the program ends, so the test can read what it left behind.
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)",
                  "env \(env) \(command); echo \"[exit $?]\"; sleep 60"])
        try tmux(["set-option", "-t", name, "status", "off"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try runCommand("/usr/bin/tmux", ["-S", socket] + arguments, timeout: 10).stdout
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }
    func type(_ text: String) throws { try tmux(["send-keys", "-t", name, "-l", text]) }

    /// The pane's rows, exactly as many as it has.
    func lines() throws -> [String] {
        var rows = try tmux(["capture-pane", "-p", "-t", name]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }  // capture-pane ends with a newline
        return rows
    }

    var text: String { (try? lines().joined(separator: "\n")) ?? "" }

    func value(_ format: String) throws -> String {
        try tmux(["display", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Waits until the pane shows `text`; returns whether it did within `timeout`.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 10) -> Bool {
        waitUntil(timeout: timeout) { $0.contains(text) }
    }

    @discardableResult
    func waitUntil(timeout: TimeInterval = 10, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(text) { return true }
            usleep(50_000)
        }
        return condition(text)
    }
}
