import Foundation
import Synchronization
@testable import ShadeIO

/// Echoes what arrived and on which connection, so tests can see keep-alive, order and framing.
final class EchoHandler: ConnectionHandler {
    func respond(to request: HTTPRequest, from connection: ConnectionInfo) -> HTTPResponse {
        var headers = HTTPHeaders()
        if request.path == "/close" { headers.add("Connection", "close") }
        if request.path == "/big" {   // larger than socket buffers: the reply goes out in many partial writes
            return HTTPResponse(status: 200, body: (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        }
        return .json("{\"method\": \"\(request.method)\", \"path\": \"\(request.path)\", \"bytes\": \(request.body.count), "
            + "\"connection\": \(connection.id)}", headers: headers)
    }

    func respond(toLine line: [UInt8], lineNumber: Int, from connection: ConnectionInfo) -> [UInt8] {
        Array("{\"line\": \(lineNumber), \"bytes\": \(line.count), \"from\": \"\(connection)\"}".utf8)
    }
}

/// A `PollLoop` with an `EchoHandler` on a background thread, on a fresh unix socket and/or a free
/// loopback port. `stop()` ends it within a few tens of milliseconds.
final class TestServer: Sendable {
    let endpoints: [Endpoint]
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(unix: Bool = true, tcp: Bool = true, configuration: PollLoop.Configuration = PollLoop.Configuration()) throws {
        var listeners: [Listener] = []
        if unix { listeners.append(try Listener.unix(path: temporarySocketPath())) }
        if tcp { listeners.append(try Listener.tcp(port: 0)) }
        endpoints = listeners.map(\.endpoint)
        Thread.detachNewThread { [self, listeners] in
            let loop = PollLoop(handler: EchoHandler(), configuration: configuration)
            for listener in listeners { loop.add(listener) }
            loop.run(until: { self.stopRequested.load(ordering: .relaxed) }, checkEvery: 20)
            loop.shutdown()
            self.finished.signal()
        }
    }

    var unixPath: String {
        for case .unix(let path) in endpoints { return path }
        fatalError("no unix endpoint")
    }

    var tcpPort: UInt16 {
        for case .tcp(_, let port) in endpoints { return port }
        fatalError("no tcp endpoint")
    }

    /// Stops the loop and waits (at most 5 s) until it has shut down.
    @discardableResult
    func stop() -> Bool {
        stopRequested.store(true, ordering: .relaxed)
        return finished.wait(timeout: .now() + 5) == .success
    }
}

/// Short enough for `sun_path` wherever the temporary directory is.
func temporarySocketPath() -> String {
    "/tmp/shade-test-\(UUID().uuidString.prefix(13)).sock"
}

let curlPath = "/usr/bin/curl"
let curlAvailable = FileManager.default.isExecutableFile(atPath: curlPath)

struct CurlResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs curl with a hard time limit so a server bug fails the test instead of hanging it.
func curl(_ arguments: [String]) throws -> CurlResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: curlPath)
    process.arguments = ["--silent", "--show-error", "--max-time", "5"] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CurlResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
