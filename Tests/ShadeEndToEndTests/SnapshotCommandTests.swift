import Foundation
import Testing
import ShadeUI

// `shade snapshot` run as a user runs it: the real binary, real files, stdout and exit codes.

@Test func snapshotOfTheDemoSideBySideIsExactlyItsSize() throws {
    let run = try runCommand(Build.shade, ["snapshot", Build.sample("demo.jsonl"), "--platform", "all", "--size", "160x40"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasSuffix("\n"))
    let lines = run.stdout.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count == 40)
    for (number, line) in lines.enumerated() {
        #expect(displayWidth(of: line) == 160, "line \(number + 1): \(line)")
    }
    let controls = run.stdout.utf8.filter { $0 < 0x20 && $0 != 0x0A }
    #expect(controls.isEmpty, "control bytes \(Set(controls))")
    // Three recognisable shades, their sections named as the state JSON names them.
    for name in ["Android 14 · SDK 0.1.22", "iOS 17 · SDK 0.1.21", "Web · SDK 0.1.15",
                 "Conversations ─", "Notifications ─", "Notification Center ─", "Calls ─"] {
        #expect(run.stdout.contains(name), "\(name)")
    }
}

@Test func snapshotDefaultsTo100x30() throws {
    let run = try runCommand(Build.shade, ["snapshot", Build.sample("seed000-send-to-user.json")])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 30)
    #expect(lines.allSatisfy { displayWidth(of: $0) == 100 })
    #expect(lines[3] == " [A]  @ali · app" + String(repeating: " ", count: 84))
}

@Test func snapshotWithColorIsThePlainTextPlusSGR() throws {
    let args = ["snapshot", Build.sample("demo.jsonl"), "--platform", "ios", "--size", "80x24"]
    let plain = try runCommand(Build.shade, args)
    let colored = try runCommand(Build.shade, args + ["--color"])
    #expect(colored.status == 0)
    #expect(colored.stdout.contains("\u{1B}[0;1;7;38;5;70m"))      // the ringing call: bold reverse green
    let stripped = colored.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(stripped == plain.stdout)
}

@Test(arguments: ["10x", "x30", "100", "0x10", "100x-3", "abcxdef", "100x30x2", "5000x5000"])
func aBadSizeIsAUsageErrorThatSaysTheFix(size: String) throws {
    let run = try runCommand(Build.shade, ["snapshot", Build.sample("demo.jsonl"), "--size", size])
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "shade: --size \(size): expected COLSxROWS with whole numbers from 1 to 1000, e.g. --size 100x30\n")
}

@Test func snapshotUsageErrorsExitWith2() throws {
    let noFile = try runCommand(Build.shade, ["snapshot"])
    #expect(noFile.status == 2)
    #expect(noFile.stderr.contains("needs at least one FILE"))
    let missing = try runCommand(Build.shade, ["snapshot", "no-such-file.json"])
    #expect(missing.status == 2)
    #expect(missing.stderr == "shade: no-such-file.json: no such file or directory — check the path (a directory reads its payload files, - reads standard input)\n")
    let unknown = try runCommand(Build.shade, ["snapshot", Build.sample("demo.jsonl"), "--sise", "80x24"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("did you mean --size?"))
}

/// DESIGN, exit 2: the one line names the fix. A value written as an option (`--json`, `--ios`) is
/// pointed at the option that takes it, where spelling alone finds nothing near.
@Test(arguments: [
    (["lint", "--json"], "shade: unknown option --json for `shade lint` (did you mean --format json?); see `shade lint --help`\n"),
    (["state", "--ios"], "shade: unknown option --ios for `shade state` (did you mean --platform ios?); see `shade state --help`\n"),
    (["snapshot", "--all"], "shade: unknown option --all for `shade snapshot` (did you mean --platform all?); see `shade snapshot --help`\n"),
    (["state", "--platfrom", "ios"], "shade: unknown option --platfrom for `shade state` (did you mean --platform?); see `shade state --help`\n"),
] as [([String], String)])
func exit2_aValueGivenAsAnOptionIsPointedAtItsOption(arguments: [String], stderr: String) throws {
    let run = try runCommand(Build.shade, arguments + [Build.sample("demo.jsonl")])
    #expect(run.status == 2)
    #expect(run.stderr == stderr)
}

@Test func snapshotHelpShowsExamplesAndTheMarks() throws {
    let run = try runCommand(Build.shade, ["snapshot", "--help"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("Usage: shade snapshot FILE… [--size COLSxROWS] [profile options] [--offline FROM..UNTIL] [--color] [--strict] [--utc]\n"))
    #expect(run.stdout.contains("shade snapshot Samples/demo.jsonl --platform all --size 160x40"))
    #expect(run.stdout.contains("--platform P"))
    #expect(run.stdout.contains("[A]  the sender's photo"))
}

@Test func aTooSmallSnapshotSaysSoAndKeepsItsSize() throws {
    let run = try runCommand(Build.shade, ["snapshot", Build.sample("demo.jsonl"), "--size", "30x8"])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 8)
    #expect(lines.allSatisfy { displayWidth(of: $0) == 30 })
    #expect(lines[3] == "  Terminal too small: 30×8 —  ")
}
