import Foundation
import Testing

/// Issue 13: a live `shade listen` under a flood of pushes keeps drawing at most 30 frames a second and
/// answers a key within 50 ms, as its own `--stats` measures them (the run loop's timestamps: from the
/// earliest a key can have arrived to the end of the frame that shows it). The real binary in tmux.
///
/// The goal (10k pushes a second for 10 s, keys within 50 ms) is for the release build: the test runs
/// `.build/release/shade` when it is current (built after every file in Sources/ last changed:
/// `swift build -c release` or bench/run.sh makes it). Otherwise it runs the debug build, which takes
/// about 4k pushes a second headless and draws a frame in tens of milliseconds, at 1k pushes a second,
/// and holds it to the frame cap and to keys answered within 500 ms: the mechanism, not the goal.
@Suite(.serialized, .enabled(if: TmuxPane.available, "tmux is not installed"))
struct FloodTests {
    static var binary: (path: String, rate: Int, latencyMillis: Double) {
        let release = Build.packageRoot.appendingPathComponent(".build/release/shade").path
        func modified(_ path: String) -> Date? {
            (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        // Current: built after every source file last changed.
        let sources = Build.packageRoot.appendingPathComponent("Sources").path
        let newest = (FileManager.default.enumerator(atPath: sources)?.allObjects as? [String] ?? [])
            .compactMap { modified(sources + "/" + $0) }.max() ?? .distantFuture
        if let built = modified(release), built >= newest { return (release, 10_000, 50) }
        return (Build.shade, 1_000, 500)
    }

    static let flooder = Build.packageRoot.appendingPathComponent("bench/peers/flood_ndjson.py").path

    @Test func aFloodIntoTheLiveUILeavesItAnsweringKeysAtNoMoreThanThirtyFramesASecond() throws {
        let (shade, rate, latencyBound) = Self.binary
        let socket = NSTemporaryDirectory() + "shade-flood-\(UInt32.random(in: 0...UInt32.max)).sock"
        let statsFile = NSTemporaryDirectory() + "shade-flood-\(UInt32.random(in: 0...UInt32.max)).stats"
        defer { try? FileManager.default.removeItem(atPath: statsFile) }
        let pane = try TmuxPane(command: "\(shade) listen --socket \(socket) --port 0 --stats 2>\(statsFile)")
        #expect(pane.waitFor("listening on unix \(socket)"), "\(pane.text)")

        // The flood in the background, keys in the foreground: a move every 200 ms, as a person scrolls.
        let seconds = 10.0
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var flood: Finished?
        nonisolated(unsafe) var floodError: (any Error)?
        Thread.detachNewThread {
            do { flood = try runCommand("/usr/bin/python3", [Self.flooder, socket, "\(rate)", "\(seconds)"], timeout: 60) } catch {
                floodError = error
            }
            done.signal()
        }
        #expect(pane.waitFor("message", timeout: 5), "the flood shows:\n\(pane.text)")
        let start = Date()
        var keys = 0
        while Date().timeIntervalSince(start) < seconds - 1 {
            try pane.send(keys % 2 == 0 ? "j" : "k")
            keys += 1
            usleep(200_000)
        }
        done.wait()
        #expect(floodError == nil)
        let sent = try #require(flood, "the flood ran").stdout.split(separator: " ").compactMap { Int($0) }
        #expect(sent.count == 2 && sent[0] == sent[1], "every push acknowledged: \(flood?.stdout ?? "") \(flood?.stderr ?? "")")
        try pane.send("q")
        #expect(pane.waitFor("[exit 0]"))

        // shade: stats: 12.3 s; 100000 pushes, 9987/s while they came (peak 10100 in one second); 370 frames,
        // 30.0/s (at most 30 in any second); 45 keys, worst latency 31.2 ms (median 16.0 ms)
        let stats = String(decoding: FileManager.default.contents(atPath: statsFile) ?? Data(), as: UTF8.self)
        print("flood (\(shade), \(rate) pushes/s for \(Int(seconds)) s): \(stats)")
        func number(_ pattern: String) -> Double? {
            let regex = try? NSRegularExpression(pattern: pattern)
            guard let match = regex?.firstMatch(in: stats, range: NSRange(stats.startIndex..., in: stats)),
                  let range = Range(match.range(at: 1), in: stats) else { return nil }
            return Double(stats[range])
        }
        let pushes = try #require(number(#"s; (\d+) pushes"#), "\(stats)")
        let peakFrames = try #require(number(#"at most (\d+) in any second"#), "\(stats)")
        let keysAnswered = try #require(number(#"; (\d+) keys?\b"#), "\(stats)")
        let worst = try #require(number(#"worst latency ([0-9.]+) ms"#), "\(stats)")
        #expect(pushes == Double(rate) * seconds, "\(stats)")
        #expect(peakFrames <= 30, "at most 30 frames in any second: \(stats)")
        #expect(keysAnswered >= Double(keys) * 0.9, "the keys were answered: \(keys) sent; \(stats)")
        #expect(worst <= latencyBound, "a key answered within \(Int(latencyBound)) ms: \(stats)")
    }
}
