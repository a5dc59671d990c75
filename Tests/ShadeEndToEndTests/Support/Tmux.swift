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

/// The output of a finished command.
struct Finished {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a command to completion (bounded in time) and returns what it printed.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                timeout: TimeInterval = 30) throws -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe(), inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inp
    try process.run()
    // Read both pipes while the process runs, so a large output cannot block it.
    let stdout = Collected(), stderr = Collected()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { stdout.set(out.fileHandleForReading.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { stderr.set(err.fileHandleForReading.readDataToEndOfFile()) }
    if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
    try? inp.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    group.wait()
    return Finished(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
}

/// Bytes collected on another queue; the lock makes the hand-over safe.
final class Collected: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
}

/// A tmux server of its own with one fixed-size window running one command: type keys, read the pane.
final class TmuxPane {
    let name: String
    let socket: String

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    init(command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        name = "shade-e2e-\(UInt32.random(in: 0...UInt32.max))"
        socket = NSTemporaryDirectory() + name + ".tmux"
        let env = (["LANG": "C.UTF-8", "TERM": "xterm-256color", "SWIFT_BACKTRACE": "enable=no"].merging(environment) { $1 })
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

    func lines() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", name]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
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
