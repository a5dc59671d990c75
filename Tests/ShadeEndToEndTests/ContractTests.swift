import Foundation
import Testing

/// The command line's one contract, on the real binary: exit codes and the stderr line per command,
/// times in the user's zone, and the commands that explain and install it.
struct ContractTests {
    static func temporary(_ name: String, _ text: String) throws -> String {
        let path = ServerBuild.temporary(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func emptyDirectory() throws -> String {
        let path = ServerBuild.temporary("empty")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "not a payload".write(toFile: path + "/README.txt", atomically: true, encoding: .utf8)
        return path
    }

    /// (arguments, exit status, what stderr says): a rejected push is read input (0 and one line),
    /// --strict makes it 1, lint fails on errors and on inputs with no payload, usage mistakes are 2.
    @Test(arguments: [
        (["state", "/bin/ls"], 0, "shade: 1 of 1 push rejected: /bin/ls:1 invalid JSON\n"),
        (["snapshot", "/bin/ls"], 0, "shade: 1 of 1 push rejected: /bin/ls:1 invalid JSON\n"),
        (["state", "--strict", "/bin/ls"], 1, "shade: 1 of 1 push rejected: /bin/ls:1 invalid JSON\n"),
        (["snapshot", "--strict", "/bin/ls"], 1, "shade: 1 of 1 push rejected: /bin/ls:1 invalid JSON\n"),
        (["replay", "--instant", "--headless", "--strict", "/bin/ls"], 1, "shade: 1 of 1 push rejected: /bin/ls:1 invalid JSON\n"),
        (["state", "SAMPLE:demo.jsonl"], 0, "shade: 1 of 22 pushes rejected: SAMPLE:demo.jsonl:15 unknown payload shape\n"),
        (["replay", "--instant", "--headless", "SAMPLE:demo.jsonl"], 0, "shade: 1 of 22 pushes rejected: SAMPLE:demo.jsonl:15 unknown payload shape\n"),
        (["state", "SAMPLE:seed000-send-to-user.json", "--strict"], 0, ""),
        (["lint", "SAMPLE:lint/clean"], 0, ""),
        (["lint", "SAMPLE:lint/V8-trailing-comma.json"], 1, ""),
        (["explain", "A5"], 0, ""),
        (["explain", "Z9"], 2, "shade: no rule Z9; the closest: "),
        (["state", "no-such-file.json"], 2, "shade: no-such-file.json: no such file or directory — check the path (a directory reads its payload files, - reads standard input)\n"),
        (["stat", "x"], 2, "shade: unknown command stat (did you mean state?)"),
    ] as [([String], Int32, String)])
    func exitCodesAndStderrPerCommand(arguments: [String], status: Int32, stderr: String) throws {
        let resolved = arguments.map { $0.hasPrefix("SAMPLE:") ? Build.sample(String($0.dropFirst(7))) : $0 }
        let expected = stderr.replacingOccurrences(of: "SAMPLE:", with: Build.packageRoot.path + "/Samples/")
        let run = try runCommand(Build.shade, resolved)
        #expect(run.status == status, "shade \(arguments.joined(separator: " ")): \(run.stderr)")
        if expected.isEmpty { #expect(run.stderr == "", "shade \(arguments.joined(separator: " "))") } else {
            #expect(run.stderr.hasPrefix(expected), "shade \(arguments.joined(separator: " ")): \(run.stderr)")
        }
    }

    /// DESIGN, exit 2: a missing file is a usage error whose one stderr line names the problem and the fix,
    /// for the files options name as for the inputs.
    @Test(arguments: [
        (["state", "SAMPLE:seed000-send-to-user.json", "--strings", "no-such-table.strings"],
         "shade: --strings no-such-table.strings: no such file or directory — check the path of the string table (.strings, strings.xml or .json)\n"),
        (["lint", "SAMPLE:seed000-send-to-user.json", "--strings", "/"],
         "shade: --strings /: is a directory — give the string table's file (.strings, strings.xml or .json), not a directory\n"),
        (["listen", "--headless", "--port", "0", "--socket", "SOCKET", "--record", "/no-such-directory/session.jsonl"],
         "shade: --record cannot write the recording /no-such-directory/session.jsonl: No such file or directory — create its directory first, or give another --record path\n"),
    ] as [([String], String)])
    func exit2_aMissingOptionFileNamesTheProblemAndTheFix(arguments: [String], stderr: String) throws {
        let socket = ServerBuild.temporary("missing-file.sock")
        let resolved = arguments.map { $0.hasPrefix("SAMPLE:") ? Build.sample(String($0.dropFirst(7))) : $0 == "SOCKET" ? socket : $0 }
        let run = try runCommand(Build.shade, resolved)
        #expect(run.status == 2, "shade \(arguments.joined(separator: " ")): \(run.stderr)")
        #expect(run.stderr == stderr)
    }

    /// DESIGN, exit 2: a --speed out of range names the range, and the option for no waiting at all.
    @Test(arguments: ["0", "-2", "fast", "1000000", "inf"])
    func exit2_aSpeedOutOfRangeNamesTheRange(speed: String) throws {
        let run = try runCommand(Build.shade, ["replay", Build.sample("seed000-send-to-user.json"), "--headless", "--speed", speed])
        #expect(run.status == 2)
        #expect(run.stderr == "shade: --speed \(speed): expected a number above 0 and at most 1000, such as 2 (twice as fast) or 0.5 (use --instant for no waiting at all)\n")
        #expect(run.stdout == "")
    }

    @Test func anEmptyFileIsARejectedPushAndAnEmptyNDJSONFileHoldsNone() throws {
        let empty = try Self.temporary("empty.json", "")
        let state = try runCommand(Build.shade, ["state", empty])
        #expect(state.status == 0)
        #expect(state.stderr == "shade: 1 of 1 push rejected: \(empty):1 invalid JSON\n")
        #expect(state.stdout.contains(#""rejected": 1"#))
        let blank = try Self.temporary("blank.jsonl", "\n\n")
        let lines = try runCommand(Build.shade, ["state", "--strict", blank])
        #expect(lines.status == 1)
        #expect(lines.stderr == "shade: no payload in \(blank) (it has no line of JSON)\n")
    }

    @Test func lintOfAnEmptyDirectoryFailsAndSaysSo() throws {
        let directory = try Self.emptyDirectory()
        let lint = try runCommand(Build.shade, ["lint", directory])
        #expect(lint.status == 1)
        #expect(lint.stderr == "shade: lint: no payload files in \(directory) (it has no .json, .jsonl, .ndjson or .apns file)\n")
        #expect(try runCommand(Build.shade, ["state", directory]).status == 0)
        #expect(try runCommand(Build.shade, ["state", "--strict", directory]).status == 1)
    }

    @Test func manyRejectionsAreNamedThreeAtATime() throws {
        let file = try Self.temporary("bad.jsonl", (1...5).map { _ in "{\"nope\": 1}" }.joined(separator: "\n") + "\n")
        let run = try runCommand(Build.shade, ["snapshot", file])
        #expect(run.status == 0)
        #expect(run.stderr == "shade: 5 of 5 pushes rejected: \(file):1 unknown payload shape, \(file):2 unknown payload shape, "
            + "\(file):3 unknown payload shape, …\n")
    }

    // MARK: time zones

    /// The demo's pushes were recorded at 10:15 UTC on 30 November; a July push shows daylight saving.
    @Test(arguments: [("UTC", "10:15", "10:15"), ("Asia/Tokyo", "19:15", "19:15"), ("America/New_York", "05:15", "06:15"),
                      ("JST-9", "19:15", "19:15")])
    func snapshotTimesAreLocalAndUTCOnRequest(zone: String, november: String, july: String) throws {
        let file = try Self.temporary("times.jsonl", """
            {"at":"2026-11-30T10:15:00.000Z","payload":{"userId":"u","title":"November","body":"b"}}
            {"at":"2026-07-01T10:15:00.000Z","payload":{"userId":"u","title":"July","body":"b"}}

            """)
        let local = try runCommand(Build.shade, ["snapshot", file, "--size", "60x12"], environment: ["TZ": zone])
        let row = { (title: String, text: String) in text.split(separator: "\n").first { $0.contains(title) }.map(String.init) ?? "" }
        #expect(row("November", local.stdout).hasSuffix(november), "\(zone): \(local.stdout)")
        #expect(row("July", local.stdout).hasSuffix(july), "\(zone): \(local.stdout)")
        let utc = try runCommand(Build.shade, ["snapshot", file, "--size", "60x12", "--utc"], environment: ["TZ": zone])
        #expect(row("November", utc.stdout).hasSuffix("10:15") && row("July", utc.stdout).hasSuffix("10:15"))
        // The state JSON is a machine format: UTC whatever the zone.
        let state = try runCommand(Build.shade, ["state", file], environment: ["TZ": zone])
        #expect(state.stdout.contains(#""at": "2026-11-30T10:15:00.000Z""#))
    }

    @Test func theHeadlessLogShowsLocalTime() throws {
        let file = try Self.temporary("one.jsonl", #"{"at":"2026-11-30T10:15:00.000Z","payload":{"userId":"u","title":"T","body":"b"}}"# + "\n")
        let tokyo = try runCommand(Build.shade, ["replay", file, "--instant", "--headless"], environment: ["TZ": "Asia/Tokyo"])
        #expect(tokyo.stdout.hasPrefix("19:15:00 #1 android: notification"), "\(tokyo.stdout)")
        let utc = try runCommand(Build.shade, ["replay", file, "--instant", "--headless", "--utc"], environment: ["TZ": "Asia/Tokyo"])
        #expect(utc.stdout.hasPrefix("10:15:00 #1 android: "))
    }

    // MARK: explaining itself

    @Test func explainPrintsEachRuleWithItsSourceAndEveryRuleWithoutAnId() throws {
        let one = try runCommand(Build.shade, ["explain", "a5"])
        #expect(one.stdout.hasPrefix("A5  On Android 11 (API 30) and later"))
        #expect(one.stdout.contains("Source: Android Developers' “Conversations”; the push SDK's conversation-notifications guide."))
        let all = try runCommand(Build.shade, ["explain"])
        #expect(all.stdout.hasPrefix("Recognising payloads\n"))
        #expect(all.stdout.contains("\nChecking payloads (shade lint)\n"))
        let markdown = try runCommand(Build.shade, ["explain", "--markdown"])
        #expect(markdown.stdout == (try String(contentsOf: Build.packageRoot.appendingPathComponent("docs/RULES.md"), encoding: .utf8)))
    }

    @Test func versionAndCompletionsRun() throws {
        let version = try runCommand(Build.shade, ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("shade ") && version.stdout.contains("OpenSSL"))
        for shell in ["bash", "zsh", "fish"] {
            let script = try runCommand(Build.shade, ["completions", shell])
            #expect(script.status == 0 && script.stdout.contains("explain"), "\(shell)")
        }
        let bash = try runCommand(Build.shade, ["completions", "bash"])
        let parsed = try runCommand("/bin/bash", ["-n"], input: bash.stdout)
        #expect(parsed.status == 0, "bash -n: \(parsed.stderr)")
        #expect(try runCommand(Build.shade, ["completions", "tcsh"]).status == 2)
    }

    /// DECISIONS.md 146: the executable's malloc is jemalloc's, linked through the target's dependency
    /// on `CJemalloc`. Without it Shade builds and runs as before, only slower: this notices. Asked to,
    /// jemalloc prints its statistics at exit; glibc's malloc ignores `MALLOC_CONF`.
    @Test func theExecutableAllocatesWithJemalloc() throws {
        let plain = try runShadeCommand(["--version"])
        let result = try runShadeCommand(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(result.status == 0)
        #expect(result.stdout == plain.stdout, "the allocator's report goes to stderr, never into the output")
        #expect(result.stderr.contains("___ Begin jemalloc statistics ___"))
        #expect(!plain.stderr.contains("jemalloc"))
    }

    @Test func theInstallScriptAndTheTestScriptSayWhatTheyDo() throws {
        // Building a release here would take minutes of two shared cores: the scripts are checked as
        // scripts (they parse, they build release and install where asked, the CI runs the test script).
        let root = Build.packageRoot.path
        for script in ["scripts/install.sh", "scripts/test.sh"] {
            #expect(try runCommand("/bin/bash", ["-n", root + "/" + script]).status == 0, "\(script)")
            #expect(FileManager.default.isExecutableFile(atPath: root + "/" + script), "\(script)")
        }
        let install = try String(contentsOfFile: root + "/scripts/install.sh", encoding: .utf8)
        #expect(install.contains("swift build -c release"))
        let ci = try String(contentsOfFile: root + "/.ci/run", encoding: .utf8)
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        // The test command, then fuzzing and memcheck (which build on what the tests built).
        let commands = ci.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(commands.suffix(3) == ["scripts/test.sh", #"scripts/fuzz.sh all "${SHADE_FUZZ_SECONDS:-60}""#,
                                       "MEMCHECK_BUILD=0 scripts/memcheck.sh"], "CI runs the test command README gives")
        for script in ["scripts/fuzz.sh", "scripts/memcheck.sh"] {
            #expect(try runCommand("/bin/bash", ["-n", root + "/" + script]).status == 0, "\(script)")
            #expect(FileManager.default.isExecutableFile(atPath: root + "/" + script), "\(script)")
        }
        #expect(readme.contains("scripts/test.sh           # the whole test suite"))
        #expect(readme.contains("swift run shade demo"))
        #expect(ci.contains("swift test"))
    }
}
