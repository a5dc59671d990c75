import Foundation
import Synchronization

// The real `shade` binary as a server: started by the test, stopped with a signal, every wait bounded.

/// The package paths come from `Build` (Support/Tmux.swift); this adds temporary paths for servers.
enum ServerBuild {
    static var shade: String { Build.shade }

    static func sample(_ name: String) -> String { Build.sample(name) }

    static func temporary(_ name: String) -> String {
        "/tmp/shade-e2e-\(UUID().uuidString.prefix(8))-\(name)"
    }
}

/// Text a pipe delivers, gathered on Foundation's reading thread.
final class PipeText: Sendable {
    private let state = Mutex<(bytes: [UInt8], ended: Bool)>(([], false))

    /// Reads on a thread of its own until the end of the stream (blocking reads: nothing is missed).
    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                state.withLock { $0.bytes += data }
            }
            state.withLock { $0.ended = true }
        }
    }

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// Waits (at most `timeout` s) for the end of the stream, so nothing written before exit is missed.
    func waitForEnd(timeout: TimeInterval = 5) {
        let deadline = Date().addingTimeInterval(timeout)
        while !state.withLock({ $0.ended }) && Date() < deadline { usleep(5_000) }
    }
}

/// A `shade` process with its output captured.
final class ShadeProcess {
    let process = Process()
    let stdout: PipeText
    let stderr: PipeText

    init(_ arguments: [String], executable: String = ServerBuild.shade, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = Pinned.processEnvironment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = Pipe()   // not a terminal
        stdout = PipeText(out)
        stderr = PipeText(err)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Waits (at most `timeout` s) until standard output holds a match of `pattern`; returns its first group.
    func waitForOutput(matching pattern: String, timeout: TimeInterval = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let regex = try! NSRegularExpression(pattern: pattern)
        while Date() < deadline {
            let text = stdout.text
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
                return Range(range, in: text).map { String(text[$0]) }
            }
            if !process.isRunning { return nil }
            usleep(10_000)
        }
        return nil
    }

    /// Sends `signal` and waits (at most `timeout` s) for the exit; returns the exit status, or nil when
    /// it did not exit normally (killed after the timeout, or ended by a signal).
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 10) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        stdout.waitForEnd()
        stderr.waitForEnd()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}

/// A command run to completion (bounded in time).
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Set when a signal ended the program (then `status` is the signal's number).
    var killedBySignal = false
}

func runShadeCommand(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 30) throws -> CommandResult {
    try runProgram(ServerBuild.shade, arguments, environment: environment, timeout: timeout)
}

/// `environment` is added to this process's own (a value of "" removes the variable).
func runProgram(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                timeout: TimeInterval = 30) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    // The pinned environment, then the test's own; an empty value removes a variable.
    var merged = Pinned.processEnvironment
    for (name, value) in environment { merged[name] = value.isEmpty ? nil : value }
    process.environment = merged
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = Pipe()
    let stdout = PipeText(out), stderr = PipeText(err)
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    stdout.waitForEnd()
    stderr.waitForEnd()
    return CommandResult(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text,
                         killedBySignal: process.terminationReason == .uncaughtSignal)
}

/// curl with a hard time limit.
func curlText(_ arguments: [String]) throws -> String {
    try runProgram("/usr/bin/curl", ["--silent", "--show-error", "--max-time", "5"] + arguments).stdout
}

let curlInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
