import Foundation
import Testing
import ShadeCore

// Issue 10, finding 4, as the finding sent it: one 1 MiB POST of 349,524 `{}` to a live listen got a
// 124 MB reply, held /healthz for 17.7 s and left the process at 355 MB.

/// The resident size of a process, from /proc (kB).
func residentKilobytes(_ pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
}

@Test(.enabled(if: curlInstalled)) func finding4_aMebibyteOfEmptyObjectsIsRefusedAtOnceAndTheServerStaysSmall() throws {
    let body = "[" + Array(repeating: "{}", count: 349_524).joined(separator: ",") + "]"
    #expect(body.utf8.count == 1_048_573)
    let file = ServerBuild.temporary("empties.json")
    try body.write(toFile: file, atomically: false, encoding: .utf8)
    let (shade, port) = try startListening()
    defer { _ = shade.stop(signal: SIGKILL) }
    let base = "http://127.0.0.1:\(port)"

    let started = Date()
    let reply = try runProgram("/usr/bin/curl", ["-s", "--max-time", "20", "-w", "\n%{http_code} %{size_download}",
                                                 "-H", "content-type: application/json", "--data-binary", "@\(file)", "\(base)/push"])
    let elapsed = Date().timeIntervalSince(started)
    let lines = reply.stdout.split(separator: "\n")
    #expect(lines.first == #"{"ok": false, "error": "a batch of 349524 pushes: Shade takes at most 1000 in one request or NDJSON line (as FCM takes 1000 registration_ids at most) — send them in several"}"#)
    #expect(lines.last?.hasPrefix("413 ") == true)
    #expect(elapsed < 5, "the refusal took \(elapsed) s")
    #expect(try curlText(["\(base)/healthz"]) == "ok")
    let state = try JSONParser.parse(try curlText(["\(base)/state"]))
    #expect(state["received"]?.int == 1 && state["rejected"]?.int == 1)
    let resident = residentKilobytes(shade.process.processIdentifier) ?? 0
    #expect(resident > 0 && resident < 150_000, "\(resident) kB resident")
    #expect(shade.stop() == 0)
}
