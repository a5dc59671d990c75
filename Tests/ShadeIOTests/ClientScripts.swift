import Foundation

// The Python scripts of Tests/Clients run with the venv of real client libraries (h2, Python's ssl),
// made once by scripts/client-venv.sh.

enum PackageRoot {
    static let url: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()
}

struct ScriptFailure: Error, CustomStringConvertible {
    var description: String
}

enum ClientScripts {
    static let python: Result<String, ScriptFailure> = {
        let result = try? execute("/bin/bash", [PackageRoot.url.appendingPathComponent("scripts/client-venv.sh").path], timeout: 900)
        guard let result, result.status == 0 else {
            return .failure(ScriptFailure(description: "scripts/client-venv.sh failed: \(result?.stderr ?? "did not run")"))
        }
        return .success(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    /// Runs `Tests/Clients/NAME` with the venv's python; fails the test when it does not exit 0.
    static func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> String {
        let script = PackageRoot.url.appendingPathComponent("Tests/Clients/\(name)").path
        let result = try execute(try python.get(), [script] + arguments, timeout: timeout)
        guard result.status == 0 else { throw ScriptFailure(description: "\(name) \(arguments) exited \(result.status): \(result.stderr)") }
        return result.stdout
    }

    /// Starts a script whose output is read while it runs (for scripts that wait on the test).
    static func start(_ name: String, _ arguments: [String]) throws -> (Process, FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try python.get())
        process.arguments = [PackageRoot.url.appendingPathComponent("Tests/Clients/\(name)").path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, out.fileHandleForReading)
    }

    static func execute(_ executable: String, _ arguments: [String], timeout: TimeInterval) throws -> CurlResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = DispatchTime.now() + timeout
        DispatchQueue.global().asyncAfter(deadline: deadline) { if process.isRunning { process.terminate() } }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CurlResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// One line from a pipe (blocking), without its newline.
func readLine(_ handle: FileHandle) -> String {
    var bytes: [UInt8] = []
    while true {
        let byte = handle.readData(ofLength: 1)
        guard let first = byte.first, first != 0x0A else { break }
        bytes.append(first)
    }
    return String(decoding: bytes, as: UTF8.self)
}
