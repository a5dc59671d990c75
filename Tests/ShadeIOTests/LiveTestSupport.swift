import Foundation
import Synchronization
import ShadeCore
@testable import ShadeIO

/// The wall-clock time every push of a `LiveServer` is stamped with: received times are deterministic.
let fixedReceivedMillis: Int64 = 1_796_033_700_120   // 2026-11-30T10:15:00.120Z

/// A `LiveSession` listening on a fresh unix socket and a free loopback port, its loop on a background
/// thread. The session lives and dies on that thread; tests talk to it over sockets only.
final class LiveServer: Sendable {
    let port: UInt16
    let socketPath: String
    let recordPath: String?
    private let control = Control()
    private let finished = DispatchSemaphore(value: 0)

    private final class Control: Sendable {
        let stopRequested = Atomic<Bool>(false)
        /// Set once the session was seen to shut down: a second `stop()` (a test's own, then its
        /// `defer`) returns at once instead of waiting for a signal that already came.
        let stopped = Atomic<Bool>(false)
    }

    init(options: ProfileOptions = ProfileOptions(), record: Bool = false, apiKey: String? = nil,
         unregistered: Set<String> = [], fcmQuota: Int? = nil, strictAuth: Bool = false, webPushDirectory: String? = nil, credentialMillis: Int64? = nil,
         configuration: PollLoop.Configuration = PollLoop.Configuration()) throws {
        let socketPath = temporarySocketPath()
        let recordPath = record ? temporaryFile("recording.jsonl") : nil
        self.socketPath = socketPath
        self.recordPath = recordPath
        let started = Mutex<Result<UInt16, SocketError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let control = control, finished = finished
        Thread.detachNewThread {
            let journal = recordPath.flatMap { try? Journal(appendingTo: $0) }
            let session = LiveSession(options: options, texts: TextResolver(), journal: journal, apiKey: apiKey,
                                      clock: SystemClock(), wallClock: ManualClock(now: fixedReceivedMillis),
                                      configuration: configuration)
            session.services.unregistered = unregistered
            session.services.strictAuth = strictAuth
            session.services.fcmQuota = fcmQuota.map(FCMQuota.init(limit:))
            session.services.webPush = webPushDirectory.flatMap { try? WebPushSubscription.loadOrCreate(directory: $0) }
            if let credentialMillis { session.services.credentialClock = ManualClock(now: credentialMillis) }
            do throws(SocketError) {
                try session.listen(socketPath: socketPath, port: 0, bind: nil)
                started.withLock { $0 = .success(session.tcpPort!) }
            } catch {
                started.withLock { $0 = .failure(error) }
            }
            ready.signal()
            session.loop.run(until: { control.stopRequested.load(ordering: .relaxed) }, checkEvery: 20)
            session.shutdown()
            finished.signal()
        }
        guard ready.wait(timeout: .now() + 5) == .success, let result = started.withLock({ $0 }) else {
            throw SocketError("the test server did not start within 5 s")
        }
        port = try result.get()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Stops the loop and waits (at most 5 s) until the session has shut down (journal flushed, socket removed).
    @discardableResult
    func stop() -> Bool {
        control.stopRequested.store(true, ordering: .relaxed)
        if control.stopped.load(ordering: .relaxed) { return true }
        let done = finished.wait(timeout: .now() + 5) == .success
        if done { control.stopped.store(true, ordering: .relaxed) }
        return done
    }

    /// `GET /state` as parsed JSON.
    func state(platform: String? = nil) throws -> JSON {
        let client = try SendClient(connectingTo: .loopback(port: port))
        let reply = try client.request(method: "GET", path: "/state" + (platform.map { "?platform=\($0)" } ?? ""))
        return try JSONParser.parse(reply.body)
    }
}

func temporaryFile(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("shade-\(UUID().uuidString.prefix(8))-\(name)").path
}

/// What curl saw: the status, the headers (names lower-cased) and the body.
struct CurlReply: Equatable, CustomStringConvertible {
    var status: Int
    var headers: [String: String]
    var body: String

    var description: String { "\(status) \(body)" }
}

/// One request with curl (`--include`, so the status and headers come back too).
func curlRequest(_ arguments: [String]) throws -> CurlReply {
    let result = try curl(["--include"] + arguments)
    guard result.status == 0 else { throw SocketError("curl failed (\(result.status)): \(result.stderr)") }
    // curl prints an interim `100 Continue` head before the real one: the last head wins.
    var rest = Substring(result.stdout)
    var head = Substring()
    repeat {
        guard let end = rest.range(of: "\r\n\r\n") else { throw SocketError("no HTTP head in curl's output: \(result.stdout)") }
        head = rest[..<end.lowerBound]
        rest = rest[end.upperBound...]
    } while head.hasPrefix("HTTP/1.1 1")
    var lines = head.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ")
    var headers: [String: String] = [:]
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return CurlReply(status: Int(statusLine[1]) ?? 0, headers: headers, body: String(rest))
}

/// The JSON of one item of a state, by section name and key.
func item(_ state: JSON, section: String, key: String) -> JSON? {
    state["sections"]?.array?.first { $0["name"]?.string == section }?["items"]?.array?.first { $0["key"]?.string == key }
}

func compact(_ value: JSON?) -> String { value.map(JSONWriter.compact) ?? "nil" }
