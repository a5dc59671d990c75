import Foundation
import Testing

/// `shade demo` carries its recording inside the executable (DECISIONS #24): without a terminal it
/// prints the final screen of that recording, which must be the screen of Samples/demo.jsonl.
@Test func demoCarriesExactlyTheSamplesRecording() throws {
    let demo = try runCommand(Build.shade, ["demo"])
    let snapshot = try runCommand(Build.shade, ["snapshot", Build.sample("demo.jsonl")])
    #expect(demo.status == 0 && snapshot.status == 0)
    #expect(demo.stderr == "shade: no terminal: printing the final screen of the demo instead of animating it\n")
    // The rejected push's source names the file the same way in both.
    let normalised = snapshot.stdout.replacingOccurrences(of: Build.sample("demo.jsonl"), with: "Samples/demo.jsonl")
    #expect(demo.stdout == normalised)
    #expect(demo.stdout.split(separator: "\n").count == 30)
}

/// Works from any working directory: nothing is read from the package at run time.
@Test func demoRunsFromAnyDirectory() throws {
    let result = try runCommand("/bin/sh", ["-c", "cd / && \(Build.shade) demo"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Conversations"))
}
